"""The key index, in Java's ``IndexFile`` format: a hash table of chained entries per file.

File = 40-byte header (begin/end timestamp, begin/end commit-log offset, used slots, entry count
starting at 1) + ``hash_slot_num`` int32 slots (newest entry number per slot) + ``index_num``
20-byte entries (``int32 key hash, int64 commit-log offset, int32 seconds since begin, int32
previous entry``). Files are named after their creation time (``yyyyMMddHHmmssSSS``) and written
through a shared mmap; their blocks are allocated up front so a full disk cannot fault a write.

Within one record, entries are written first, then the header, then the slots; :meth:`IndexFile.repair`
re-points slots at the last record's entries, so a crash between those steps loses nothing.
"""

from __future__ import annotations

import mmap
import os
import struct
import time
from datetime import datetime
from functools import lru_cache
from pathlib import Path

from mqadmin.protocol.javacoll import java_string_hash

HEADER = struct.Struct(">qqqqii")
HEADER_SIZE = 40
SLOT = struct.Struct(">i")
ENTRY = struct.Struct(">iqii")
ENTRY_SIZE = 20
INT_MAX = 0x7FFFFFFF


def _positive(h: int) -> int:
    """``indexKeyHashMethod`` on a signed hash: ``abs``, and 0 for Integer.MIN_VALUE."""
    h = abs(h)
    return 0 if h > INT_MAX else h


def key_hash(key: str) -> int:
    """The index hash of a full ``topic#key`` string."""
    return _positive(java_string_hash(key))


_MASK = 0xFFFFFFFF


@lru_cache(maxsize=4096)
def _prefix_hash(topic: str) -> int:
    return java_string_hash(f"{topic}#") & _MASK


@lru_cache(maxsize=256)
def _power31(n: int) -> int:
    return pow(31, n, 1 << 32)


def topic_key_hash(topic: str, key: str) -> int:
    """``key_hash(topic + "#" + key)`` without hashing the topic again for every message.

    ``String.hashCode`` is a polynomial, so hash(a + b) = hash(a) * 31^len(b) + hash(b) mod 2^32.
    """
    if key.isascii():
        h = 0
        for b in key.encode("ascii"):
            h = (31 * h + b) & _MASK
        h = (_prefix_hash(topic) * _power31(len(key)) + h) & _MASK
        return _positive(h - (1 << 32) if h & 0x80000000 else h)
    return key_hash(build_key(topic, key))


def build_key(topic: str, key: str) -> str:
    return f"{topic}#{key}"


class IndexFile:
    """One index file, mapped read-write."""

    def __init__(self, path: Path, slot_num: int, index_num: int, *, create: bool = False,
                 end_phy: int = 0, end_ts: int = 0) -> None:  # fmt: skip
        self.path = path
        self.slot_num = slot_num
        self.index_num = index_num
        self.file_size = HEADER_SIZE + slot_num * 4 + index_num * ENTRY_SIZE
        # a new file is prepared under a temporary name, so a crash never leaves a short one
        open_path = path.with_name(path.name + ".tmp") if create else path
        fd = os.open(open_path, os.O_RDWR | (os.O_CREAT | os.O_TRUNC if create else 0), 0o644)
        try:
            if create:
                try:
                    os.posix_fallocate(fd, 0, self.file_size)
                except OSError:
                    os.ftruncate(fd, self.file_size)
            elif os.fstat(fd).st_size != self.file_size:
                raise ValueError(f"{path} is not an index file of {slot_num} slots and {index_num} entries")
            self.mm = mmap.mmap(fd, self.file_size)
        finally:
            os.close(fd)
        if create:
            # a new file continues from where the previous one ended (Java IndexService)
            self.begin_ts = end_ts
            self.end_ts = end_ts
            self.begin_phy = end_phy
            self.end_phy = end_phy
            self.slot_count = 0
            self.count = 1
            self._write_header()
            os.replace(open_path, path)
        else:
            (self.begin_ts, self.end_ts, self.begin_phy, self.end_phy, self.slot_count,
             self.count) = HEADER.unpack_from(self.mm, 0)  # fmt: skip
            self.count = max(1, min(self.count, index_num))

    def _write_header(self) -> None:
        HEADER.pack_into(
            self.mm, 0, self.begin_ts, self.end_ts, self.begin_phy, self.end_phy, self.slot_count, self.count
        )

    def _slot_pos(self, h: int) -> int:
        return HEADER_SIZE + (h % self.slot_num) * 4

    def _entry_pos(self, n: int) -> int:
        return HEADER_SIZE + self.slot_num * 4 + n * ENTRY_SIZE

    def free(self) -> int:
        return self.index_num - self.count

    @property
    def has_entries(self) -> bool:
        return self.count > 1

    def put_record(self, hashes: list[int], phy: int, store_ts: int) -> None:
        """Index every key hash of one record; the caller made sure they fit in this file."""
        mm = self.mm
        pending: dict[int, int] = {}
        first = self.count <= 1
        if first:
            self.begin_phy = phy
            self.begin_ts = store_ts
        if self.begin_ts <= 0:
            diff = 0
        else:
            diff = min(max((store_ts - self.begin_ts) // 1000, 0), INT_MAX)
        n = self.count
        for h in hashes:
            slot_pos = self._slot_pos(h)
            prev = pending.get(slot_pos)
            if prev is None:
                (prev,) = SLOT.unpack_from(mm, slot_pos)
                if prev <= 0 or prev > self.count:
                    prev = 0
                    self.slot_count += 1
            ENTRY.pack_into(mm, self._entry_pos(n), h, phy, diff, prev)
            pending[slot_pos] = n
            n += 1
        self.count = n
        self.end_phy = phy
        self.end_ts = store_ts
        self._write_header()
        for slot_pos, entry in pending.items():
            SLOT.pack_into(mm, slot_pos, entry)

    def repair(self) -> None:
        """Point slots at the newest record's entries if a crash came between header and slots."""
        n = self.count - 1
        while n >= 1:
            h, phy, _, _ = ENTRY.unpack_from(self.mm, self._entry_pos(n))
            if phy != self.end_phy:
                break
            slot_pos = self._slot_pos(h)
            (slot,) = SLOT.unpack_from(self.mm, slot_pos)
            if slot < n or slot > self.count:
                SLOT.pack_into(self.mm, slot_pos, n)
            n -= 1

    def truncate_from(self, phy_end: int) -> None:
        """Remove the newest entries pointing at or past ``phy_end`` (commit-log data that is gone)."""
        while self.count > 1:
            n = self.count - 1
            h, phy, diff, prev = ENTRY.unpack_from(self.mm, self._entry_pos(n))
            if phy < phy_end:
                self.end_phy = phy
                self.end_ts = self.begin_ts + diff * 1000
                break
            slot_pos = self._slot_pos(h)
            if SLOT.unpack_from(self.mm, slot_pos)[0] == n:
                SLOT.pack_into(self.mm, slot_pos, prev)
                if prev == 0:
                    self.slot_count -= 1
            ENTRY.pack_into(self.mm, self._entry_pos(n), 0, 0, 0, 0)
            self.count = n
        if self.count <= 1:  # nothing left: as good as new (the service drops it if older files exist)
            self.begin_phy = self.end_phy = self.begin_ts = self.end_ts = self.slot_count = 0
        self._write_header()

    def time_matched(self, begin: int, end: int) -> bool:
        return (
            (begin < self.begin_ts and end > self.end_ts)
            or self.begin_ts <= begin <= self.end_ts
            or self.begin_ts <= end <= self.end_ts
        )

    def select(self, out: list[int], key: str, max_num: int, begin: int, end: int) -> None:
        """Follow the key's slot chain, newest first (``selectPhyOffset``; hash match only)."""
        h = key_hash(key)
        (slot,) = SLOT.unpack_from(self.mm, self._slot_pos(h))
        if slot <= 0 or slot > self.count or self.count <= 1:
            return
        n = slot
        while len(out) < max_num:
            h_read, phy, diff, prev = ENTRY.unpack_from(self.mm, self._entry_pos(n))
            if diff < 0:
                break
            t = self.begin_ts + diff * 1000
            if h_read == h and begin <= t <= end:
                out.append(phy)
            if prev <= 0 or prev > self.count or prev == n or t < begin:
                break
            n = prev

    def flush(self) -> None:
        self.mm.flush()

    def close(self) -> None:
        self.mm.close()

    def destroy(self) -> None:
        self.close()
        try:
            self.path.unlink()
        except FileNotFoundError:
            pass


def _file_name(now_ms: int) -> str:
    """``UtilAll.timeMillisToHumanString``: local time ``yyyyMMddHHmmssSSS``."""
    dt = datetime.fromtimestamp(now_ms / 1000)
    return dt.strftime("%Y%m%d%H%M%S") + f"{now_ms % 1000:03d}"


class IndexService:
    """The index files of a store, oldest first."""

    def __init__(self, directory: Path, slot_num: int, index_num: int, max_batch: int) -> None:
        self.dir = directory
        self.slot_num = slot_num
        self.index_num = index_num
        self.max_batch = max_batch
        self.files: list[IndexFile] = []
        self.lost = False

    def load(self) -> None:
        """Open the files; ``lost`` tells the store to rebuild when files are missing or unusable."""
        self.files = []
        self.lost = True
        if not self.dir.is_dir():
            return
        for stray in self.dir.glob("*.tmp"):
            stray.unlink(missing_ok=True)
        self.lost = False
        for path in sorted(p for p in self.dir.iterdir() if p.is_file() and p.name.isdigit()):
            try:
                self.files.append(IndexFile(path, self.slot_num, self.index_num))
            except ValueError:
                # written with other slot/entry counts: everything is rebuilt from the commit log
                self.lost = True
        if self.lost:
            for f in self.files:
                f.destroy()
            self.files = []
            for path in self.dir.iterdir():
                if path.name.isdigit():
                    path.unlink()
        if self.files:
            self.files[-1].repair()
        else:
            self.lost = True

    def ensure_file(self) -> None:
        """Keep at least one file, so that an empty directory later means the index was removed."""
        if not self.files:
            self._file_with_room(0)

    @property
    def indexed_upto(self) -> int:
        """Commit-log offset of the last indexed record, -1 if none (re-dispatch skips up to it)."""
        if not self.files:
            return -1
        last = self.files[-1]
        if last.has_entries or last.end_phy > 0 or len(self.files) > 1:
            return last.end_phy
        return -1

    def _file_with_room(self, needed: int) -> IndexFile:
        last = self.files[-1] if self.files else None
        if last is not None and last.free() >= needed:
            return last
        now = int(time.time() * 1000)
        path = self.dir / _file_name(now)
        while path.exists() or (self.files and path.name <= self.files[-1].path.name):
            now += 1
            path = self.dir / _file_name(now)
        self.dir.mkdir(parents=True, exist_ok=True)
        f = IndexFile(
            path, self.slot_num, self.index_num, create=True,
            end_phy=last.end_phy if last else 0, end_ts=last.end_ts if last else 0,
        )  # fmt: skip
        if last is not None:
            last.flush()
        self.files.append(f)
        return f

    def build(self, topic: str, keys: str | None, uniq_key: str | None, phy: int, store_ts: int) -> None:
        """Index a record's UNIQ_KEY and each KEYS entry as ``topic#key`` (``IndexService.buildIndex``)."""
        if phy <= self.indexed_upto:
            return
        wanted: list[int] = []
        if uniq_key is not None:
            wanted.append(topic_key_hash(topic, uniq_key))
        if keys:
            wanted.extend(topic_key_hash(topic, k) for k in keys.split(" ") if k)
        if not wanted:
            return
        wanted = wanted[: self.index_num - 1]
        self._file_with_room(len(wanted)).put_record(wanted, phy, store_ts)

    def query(self, topic: str, key: str, max_num: int, begin: int, end: int) -> tuple[list[int], int, int]:
        """Commit-log offsets of records whose key hash matches, newest file first (``queryOffset``)."""
        out: list[int] = []
        max_num = min(max_num, self.max_batch)
        last_ts = last_phy = 0
        full_key = build_key(topic, key)
        for i in range(len(self.files) - 1, -1, -1):
            f = self.files[i]
            if i == len(self.files) - 1:
                last_ts, last_phy = f.end_ts, f.end_phy
            if f.time_matched(begin, end):
                f.select(out, full_key, max_num, begin, end)
            if f.begin_ts < begin or len(out) >= max_num:
                break
        return out, last_ts, last_phy

    def truncate_from(self, phy_end: int) -> None:
        while self.files:
            last = self.files[-1]
            if last.end_phy < phy_end or (not last.has_entries and last.begin_phy < phy_end):
                break
            last.truncate_from(phy_end)
            if last.has_entries or len(self.files) == 1:
                break
            self.files.pop().destroy()

    def delete_expired(self, min_phy: int) -> int:
        """Delete leading files whose last entry is below the commit log's new start (never the last)."""
        deleted = 0
        while len(self.files) > 1 and self.files[0].end_phy < min_phy:
            self.files.pop(0).destroy()
            deleted += 1
        return deleted

    def flush(self) -> None:
        for f in self.files[-2:]:
            f.flush()

    def close(self) -> None:
        for f in self.files:
            f.close()
        self.files = []
