"""The commit log: every message of every topic, appended in one sequence of segment files."""

from __future__ import annotations

import struct
from collections.abc import Callable

from mqadmin.broker.store.records import (
    BLANK_MARKER_SIZE,
    MIN_RECORD,
    PHYS_OFFSET_POS,
    SIZE_MAGIC,
    SYSFLAG_POS,
    Blank,
    DispatchInfo,
    Invalid,
    check_record,
    parse_record,
    store_timestamp_pos,
)
from mqadmin.broker.store.segments import Segment, SegmentQueue
from mqadmin.protocol.message import BLANK_MAGIC_CODE, MESSAGE_MAGIC_CODE, MESSAGE_MAGIC_CODE_V2

_SCAN_CHUNK = 1024 * 1024
_LONG = struct.Struct(">q")
_INT = struct.Struct(">i")


class CommitLog:
    """Append, read and recover records; a record never spans two files (``CommitLog`` of Java).

    ``max_offset`` is the write position: every byte below it belongs to a complete record or to
    a file's blank tail.
    """

    def __init__(self, queue: SegmentQueue) -> None:
        self.queue = queue
        self.file_size = queue.segment_size
        self.wrote = 0
        #: why the last :meth:`recover` stopped where it did (None: a blank tail or the end of data)
        self.stop_reason: str | None = None

    # --- positions ---------------------------------------------------------------------------------

    @property
    def min_offset(self) -> int:
        """Start of the oldest file; -1 while there is none (Java ``getMinOffset``)."""
        first = self.queue.first
        return first.start if first is not None else -1

    @property
    def max_offset(self) -> int:
        return self.wrote

    def roll_next_file(self, offset: int) -> int:
        return offset + self.file_size - offset % self.file_size

    # --- writing -----------------------------------------------------------------------------------

    def fits(self, length: int) -> bool:
        """Whether a record (or batch) of ``length`` bytes can ever be placed in one file."""
        return length + BLANK_MARKER_SIZE <= self.file_size

    def reserve(self, length: int) -> int:
        """Where ``length`` bytes will be written; pads the current file with a blank marker if needed.

        Java writes ``int remaining, int BLANK_MAGIC_CODE`` at the end of a file whose free space is
        less than the record plus eight bytes, and continues at offset 0 of the next file.
        """
        seg = self.queue.last
        if seg is None or self.wrote >= seg.end:
            seg = self.queue.create(self.wrote - self.wrote % self.file_size)
        free = seg.end - self.wrote
        if length + BLANK_MARKER_SIZE > free:
            seg.write(self.wrote - seg.start, SIZE_MAGIC.pack(free, BLANK_MAGIC_CODE))
            self.wrote = seg.end
            self.queue.create(seg.end)
        return self.wrote

    def write(self, offset: int, data: bytes | bytearray, sync: bool) -> None:
        """Write at a position returned by :meth:`reserve`; durable against kill -9 on return."""
        seg = self.queue.find(offset)
        assert seg is not None and offset == self.wrote
        seg.write(offset - seg.start, data)
        self.wrote = offset + len(data)
        if sync:  # every dirty file: a blank marker just written to the previous one counts too
            self.queue.sync()

    def sync(self) -> None:
        self.queue.sync()

    # --- reading -----------------------------------------------------------------------------------

    def _readable(self, offset: int, size: int) -> Segment | None:
        if size <= 0 or offset < 0:
            return None
        seg = self.queue.find(offset)
        if seg is None or offset + size > min(seg.end, self.wrote):
            return None
        return seg

    def read(self, offset: int, size: int) -> bytes | None:
        """``size`` bytes at ``offset`` if they lie in written data of one file (Java ``getMessage``)."""
        seg = self._readable(offset, size)
        if seg is None:
            return None
        return seg.read(offset - seg.start, size)

    def look(self, offset: int) -> bytes | None:
        """The whole record starting at ``offset``, or None unless a record really starts there."""
        head = self.read(offset, 36)
        if head is None:
            return None
        size, magic = SIZE_MAGIC.unpack_from(head, 0)
        if magic not in (MESSAGE_MAGIC_CODE, MESSAGE_MAGIC_CODE_V2) or size < MIN_RECORD:
            return None
        if _LONG.unpack_from(head, PHYS_OFFSET_POS)[0] != offset:
            return None
        return self.read(offset, size)

    def pickup_store_timestamp(self, offset: int, size: int) -> int:
        """Store time of the record at ``offset`` (-1 below the min offset or past written data)."""
        if offset < self.min_offset or self.min_offset < 0:
            return -1
        seg = self._readable(offset, size)
        if seg is None:
            return -1
        head = seg.read(offset - seg.start, 76)
        if len(head) < 76:
            return -1
        (sys_flag,) = _INT.unpack_from(head, SYSFLAG_POS)
        return _LONG.unpack_from(head, store_timestamp_pos(sys_flag))[0]

    # --- recovery ----------------------------------------------------------------------------------

    def recover(
        self,
        start: int,
        check_crc: bool,
        delay_levels_ms: list[int],
        on_record: Callable[[DispatchInfo], None],
        *,
        dispatched_upto: int = 0,
    ) -> int:
        """Validate records from ``start`` (a record boundary), hand each to ``on_record``, and cut
        the log after the last valid one: the rest of its file is zeroed and later files deleted.
        Returns the new write position; :attr:`stop_reason` says why it is there.

        As Java's ``recoverNormally``: the first record that fails (a body whose CRC disagrees when
        ``check_crc``) ends the log, and everything after it is dropped. Records below
        ``dispatched_upto`` are only checked (their topic and properties were read when dispatched)
        and not handed to ``on_record``.
        """
        self.stop_reason = None
        segs = self.queue.segments
        if not segs:
            self.wrote = 0
            return 0
        start = max(start, segs[0].start)
        end = self._scan(start, check_crc, delay_levels_ms, on_record, dispatched_upto)
        self.queue.drop_after(end)
        self.wrote = end
        return end

    def replay(
        self, start: int, delay_levels_ms: list[int], on_record: Callable[[DispatchInfo], None]
    ) -> None:
        """Hand every record from ``start`` to the end to ``on_record`` (data already validated)."""
        if self.queue.segments:
            self._scan(max(start, self.queue.segments[0].start), False, delay_levels_ms, on_record)

    def _scan(
        self,
        start: int,
        check_crc: bool,
        delay_levels_ms: list[int],
        on_record: Callable[[DispatchInfo], None],
        dispatched_upto: int = 0,
    ) -> int:
        seg = self.queue.find(start)
        if seg is None:  # start is the end of the last file
            return start
        pos = start - seg.start
        window = b""
        window_pos = pos
        while True:
            if pos >= seg.size:
                nxt = self.queue.find(seg.end)
                if nxt is None:
                    return seg.end
                seg, pos, window, window_pos = nxt, 0, b"", 0
                continue
            rel = pos - window_pos
            avail = len(window) - rel
            need = 8
            if avail >= 8:
                size, magic = SIZE_MAGIC.unpack_from(window, rel)
                if magic != BLANK_MAGIC_CODE:
                    need = max(8, size)
            if avail < need:
                window = seg.read(pos, min(seg.size - pos, max(_SCAN_CHUNK, need)))
                window_pos = pos
                rel = 0
            if seg.start + pos < dispatched_upto:
                checked = check_record(window, rel, seg.start + pos, check_crc)
                if isinstance(checked, int):
                    pos += checked
                    continue
                result: DispatchInfo | Blank | Invalid = checked
            else:
                result = parse_record(window, rel, seg.start + pos, check_crc, delay_levels_ms)
            if isinstance(result, DispatchInfo):
                on_record(result)
                pos += result.size
            elif isinstance(result, Blank):
                if result.size != seg.size - pos:
                    self.stop_reason = f"end-of-file marker of {result.size} bytes, {seg.size - pos} left"
                    return seg.start + pos
                pos = seg.size
            else:
                assert isinstance(result, Invalid)
                if result.reason != "end of data":
                    self.stop_reason = result.reason
                return seg.start + pos

    # --- deletion ----------------------------------------------------------------------------------

    def delete_expired(self, now_ms: int, reserved_ms: int, force: bool, batch_max: int) -> int:
        """Delete old files from the front, never the current one (``deleteExpiredFileByTime``)."""
        deleted = 0
        while len(self.queue.segments) > 1 and deleted < batch_max:
            seg = self.queue.segments[0]
            if not force and now_ms < seg.mtime_ms() + reserved_ms:
                break
            self.queue.pop_first()
            deleted += 1
        return deleted

    def close(self) -> None:
        self.queue.close()
