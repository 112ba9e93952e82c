"""Fixed-size segment files named by their start offset: the Java ``MappedFile(Queue)`` layout.

Every segment is created at its full size (sparse, like Java's ``RandomAccessFile.setLength``), so a
Java broker would accept the directory. Writes go through ``os.pwrite``: once it returns the bytes
are in the page cache and survive the death of the process; ``fsync`` is only needed against power
loss. Reads use ``os.pread``, which never faults on a truncated file (an mmap would raise SIGBUS).
"""

from __future__ import annotations

import os
from pathlib import Path

from mqadmin.atomicfile import sync_dir
from mqadmin.broker.store.results import StoreError

NAME_DIGITS = 20


def segment_name(start: int) -> str:
    """``UtilAll.offset2FileName``: the start offset as 20 zero-padded digits."""
    return f"{start:0{NAME_DIGITS}d}"


class Segment:
    """One file of a segment queue; its descriptor is opened on first use."""

    __slots__ = ("_fd", "dirty", "path", "size", "start")

    def __init__(self, path: Path, start: int, size: int) -> None:
        self.path = path
        self.start = start
        self.size = size
        self._fd = -1
        self.dirty = False

    @property
    def end(self) -> int:
        return self.start + self.size

    @property
    def fd(self) -> int:
        if self._fd < 0:
            self._fd = os.open(self.path, os.O_RDWR)
        return self._fd

    @classmethod
    def create(cls, path: Path, start: int, size: int) -> Segment:
        """Create at full size under a temporary name and rename: a crash never leaves a short file."""
        tmp = path.with_name(path.name + ".tmp")
        fd = os.open(tmp, os.O_RDWR | os.O_CREAT | os.O_TRUNC, 0o644)
        try:
            os.ftruncate(fd, size)
            os.replace(tmp, path)
        except BaseException:
            os.close(fd)
            raise
        seg = cls(path, start, size)
        seg._fd = fd
        return seg

    def write(self, pos: int, data: bytes | bytearray | memoryview) -> None:
        self.dirty = True
        view = memoryview(data)
        while view:
            n = os.pwrite(self.fd, view, pos)
            view = view[n:]
            pos += n

    def read(self, pos: int, n: int) -> bytes:
        return os.pread(self.fd, n, pos)

    def sync(self) -> None:
        if self.dirty and self._fd >= 0:
            os.fdatasync(self._fd)
        self.dirty = False

    def zero_from(self, pos: int) -> None:
        """Forget everything from ``pos`` on: shrink then regrow, leaving a sparse zero tail."""
        self.dirty = True
        os.ftruncate(self.fd, pos)
        os.ftruncate(self.fd, self.size)

    def mtime_ms(self) -> int:
        return int(os.stat(self.path).st_mtime_ns // 1_000_000)

    def close(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1

    def destroy(self) -> None:
        self.close()
        try:
            self.path.unlink()
        except FileNotFoundError:
            pass


class SegmentQueue:
    """The segments of one directory, contiguous and ascending (``MappedFileQueue``)."""

    def __init__(self, directory: Path, segment_size: int, sync_dirs: bool = False) -> None:
        self.dir = directory
        self.segment_size = segment_size
        #: fsync the directory after creating a file (only needed against power loss)
        self.sync_dirs = sync_dirs
        self.segments: list[Segment] = []

    def load(self) -> None:
        """Open the existing segments; a file of the wrong size means a different configuration."""
        self.segments = []
        if not self.dir.is_dir():
            return
        for stray in self.dir.glob("*.tmp"):  # a creation interrupted before its rename
            stray.unlink(missing_ok=True)
        names = sorted(p for p in self.dir.iterdir() if p.is_file() and p.name.isdigit())
        for path in names:
            size = path.stat().st_size
            if size != self.segment_size:
                raise StoreError(
                    f"{path} has {size} bytes but the configured file size is {self.segment_size}; "
                    "start with the file size the store was created with"
                )
            self.segments.append(Segment(path, int(path.name), size))
        for before, after in zip(self.segments, self.segments[1:], strict=False):
            if after.start != before.end:
                raise StoreError(f"{self.dir}: segment {after.path.name} does not follow {before.path.name}")

    @property
    def first(self) -> Segment | None:
        return self.segments[0] if self.segments else None

    @property
    def last(self) -> Segment | None:
        return self.segments[-1] if self.segments else None

    def find(self, offset: int) -> Segment | None:
        """The segment holding ``offset``, or None when it was deleted or not yet created."""
        segs = self.segments
        if not segs:
            return None
        i = (offset - segs[0].start) // self.segment_size
        if 0 <= i < len(segs):
            return segs[i]
        return None

    def create(self, start: int) -> Segment:
        """Add the segment beginning at ``start`` (the next one, or the first of an empty queue)."""
        if start % self.segment_size:
            raise StoreError(f"segment start {start} is not a multiple of {self.segment_size}")
        if self.segments and start != self.segments[-1].end:
            raise StoreError(f"segment {start} would not follow {self.segments[-1].start}")
        self.dir.mkdir(parents=True, exist_ok=True)
        seg = Segment.create(self.dir / segment_name(start), start, self.segment_size)
        self.segments.append(seg)
        if self.sync_dirs:
            sync_dir(self.dir)
        return seg

    def drop_after(self, offset: int) -> None:
        """Delete whole segments starting at or beyond ``offset`` and zero the tail of the one holding it."""
        while self.segments and self.segments[-1].start >= offset:
            self.segments.pop().destroy()
        seg = self.find(offset)
        if seg is not None:
            seg.zero_from(offset - seg.start)

    def pop_first(self) -> Segment:
        seg = self.segments.pop(0)
        seg.destroy()
        return seg

    def sync(self) -> None:
        for seg in self.segments:
            seg.sync()

    def close(self) -> None:
        for seg in self.segments:
            seg.close()

    def destroy(self) -> None:
        for seg in self.segments:
            seg.destroy()
        self.segments = []
        try:
            self.dir.rmdir()
        except OSError:
            pass
