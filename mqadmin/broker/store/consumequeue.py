"""Consume queues: per topic and queue id, 20-byte entries pointing into the commit log.

Entry n of a queue lives at byte ``n * 20`` of its segment stream (``consumequeue/<topic>/<id>/``):
``int64 commit-log offset, int32 size, int64 tags code``. An all-zero entry marks the end of the
written data; ``(0, 0x7FFFFFFF, 0)`` fills the space before the first entry of a queue that starts
at a non-zero logical offset.
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from pathlib import Path

from mqadmin.broker.store.segments import Segment, SegmentQueue

ENTRY = struct.Struct(">qiq")
ENTRY_SIZE = 20
FILLER_SIZE = 0x7FFFFFFF
FILLER = ENTRY.pack(0, FILLER_SIZE, 0)


def _java_div(a: int, b: int) -> int:
    """Java long division (truncates toward zero)."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


class ConsumeQueue:
    """One queue's entries. Offsets here are logical (entry numbers) unless named ``*_bytes``."""

    def __init__(
        self, directory: Path, topic: str, queue_id: int, entries_per_file: int, sync_dirs: bool = False
    ) -> None:
        self.topic = topic
        self.queue_id = queue_id
        self.per_file = entries_per_file
        self.queue = SegmentQueue(directory, entries_per_file * ENTRY_SIZE, sync_dirs)
        self.min_offset = 0
        self.max_offset = 0
        #: offset + size of the last entry; -1 when the queue holds none (Java ``maxPhysicOffset``)
        self.max_physic = -1

    # --- loading -----------------------------------------------------------------------------------

    def _entry_at(self, seg: Segment, index: int) -> tuple[int, int, int]:
        return ENTRY.unpack(seg.read(index * ENTRY_SIZE, ENTRY_SIZE))

    def _written_in(self, seg: Segment) -> int:
        """Entries written in ``seg``: valid entries form a prefix, so binary-search its end."""
        lo, hi = 0, self.per_file
        while lo < hi:
            mid = (lo + hi) // 2
            phy, size, _ = self._entry_at(seg, mid)
            if phy >= 0 and size > 0:
                lo = mid + 1
            else:
                hi = mid
        return lo

    def load(self, min_phy: int) -> None:
        self.queue.load()
        segs = self.queue.segments
        if not segs:
            return
        last = segs[-1]
        written = self._written_in(last)
        self.max_offset = last.start // ENTRY_SIZE + written
        self.max_physic = -1
        if written:
            phy, size, _ = self._entry_at(last, written - 1)
            self.max_physic = phy + size
        elif len(segs) > 1:
            phy, size, _ = self._entry_at(segs[-2], self.per_file - 1)
            self.max_physic = phy + size
        if self.max_physic == FILLER_SIZE:  # only filler entries: no real message yet
            self.max_physic = -1
        self.correct_min_offset(min_phy)

    def correct_min_offset(self, min_phy: int) -> None:
        """First entry of the first file that is not filler and not below the commit log's start."""
        first = self.queue.first
        if first is None:
            self.min_offset = self.max_offset = 0
            return
        base = first.start // ENTRY_SIZE
        count = min(self.per_file, self.max_offset - base)
        lo, hi = 0, count
        while lo < hi:
            mid = (lo + hi) // 2
            phy, size, _ = self._entry_at(first, mid)
            if size != FILLER_SIZE and phy >= min_phy:
                hi = mid
            else:
                lo = mid + 1
        self.min_offset = base + lo

    # --- writing -----------------------------------------------------------------------------------

    def _segment_for(self, pos_bytes: int) -> Segment:
        seg = self.queue.find(pos_bytes)
        if seg is not None:
            return seg
        size = self.queue.segment_size
        if self.queue.last is None:
            return self.queue.create(pos_bytes - pos_bytes % size)
        while True:
            seg = self.queue.create(self.queue.last.end)  # type: ignore[union-attr]
            if seg.start <= pos_bytes < seg.end:
                return seg

    def _fill(self, begin: int, end: int) -> None:
        """Filler entries for logical offsets [begin, end), file by file."""
        while begin < end:
            seg = self._segment_for(begin * ENTRY_SIZE)
            stop = min(end, seg.end // ENTRY_SIZE)
            seg.write(begin * ENTRY_SIZE - seg.start, FILLER * (stop - begin))
            begin = stop

    def put(self, queue_offset: int, phy: int, size: int, tags_code: int) -> bool:
        """Record one message; an entry the queue already holds is skipped (re-dispatch is idempotent)."""
        if phy + size <= self.max_physic or queue_offset < self.max_offset:
            return False
        if self.queue.last is None:
            start = queue_offset * ENTRY_SIZE
            seg = self._segment_for(start)
            self.min_offset = queue_offset
            self.max_offset = seg.start // ENTRY_SIZE
        if queue_offset > self.max_offset:
            self._fill(self.max_offset, queue_offset)
        pos = queue_offset * ENTRY_SIZE
        seg = self._segment_for(pos)
        seg.write(pos - seg.start, ENTRY.pack(phy, size, tags_code))
        self.max_offset = queue_offset + 1
        self.max_physic = phy + size
        return True

    def truncate_beyond(self, phy_end: int) -> None:
        """Drop trailing entries that point at or past ``phy_end`` (commit-log data that is gone)."""
        if self.max_physic <= phy_end:
            return
        offset = self.max_offset
        new_physic = -1
        while offset > self.min_offset:
            phy, size, _ = self.entry_raw(offset - 1)
            if phy + size <= phy_end and size != FILLER_SIZE:
                new_physic = phy + size
                break
            offset -= 1
        self.queue.drop_after(offset * ENTRY_SIZE)
        if self.queue.last is None:
            self.min_offset = self.max_offset = 0
            self.max_physic = -1
            return
        self.max_offset = offset
        self.max_physic = new_physic
        self.min_offset = min(self.min_offset, offset)

    def sync(self) -> None:
        self.queue.sync()

    def close(self) -> None:
        self.queue.close()

    def destroy(self) -> None:
        self.queue.destroy()
        self.min_offset = self.max_offset = 0
        self.max_physic = -1

    # --- reading -----------------------------------------------------------------------------------

    def entry_raw(self, offset: int) -> tuple[int, int, int]:
        seg = self.queue.find(offset * ENTRY_SIZE)
        if seg is None:
            return (0, 0, 0)
        return self._entry_at(seg, offset - seg.start // ENTRY_SIZE)

    def entry(self, offset: int) -> tuple[int, int, int] | None:
        """The entry at a logical offset inside [min, max), else None (Java ``getIndexBuffer``)."""
        if not self.min_offset <= offset < self.max_offset:
            return None
        seg = self.queue.find(offset * ENTRY_SIZE)
        if seg is None:
            return None
        return self._entry_at(seg, offset - seg.start // ENTRY_SIZE)

    def read_from(self, offset: int, max_bytes: int) -> bytes | None:
        """Raw entries from ``offset`` to the end of its file's written part, at most ``max_bytes``."""
        pos = offset * ENTRY_SIZE
        seg = self.queue.find(pos)
        if seg is None or offset < self.min_offset:
            return None
        end = min(seg.end, self.max_offset * ENTRY_SIZE)
        if pos >= end:
            return None
        return seg.read(pos - seg.start, min(max_bytes, end - pos))

    def roll_next_file(self, offset: int) -> int:
        return offset + self.per_file - offset % self.per_file

    def last_entry_end(self) -> int:
        """Java ``getLastOffset``: offset + size of the last entry, -1 for an empty queue."""
        return self.max_physic

    def offset_by_time(self, timestamp: int, min_phy: int, store_time: Callable[[int, int], int]) -> int:
        """``getOffsetInQueueByTime``: the file by modification time, then a binary search of it."""
        segs = self.queue.segments
        if not segs:
            return 0
        seg = next((s for s in segs if s.mtime_ms() >= timestamp), segs[-1])
        written = min(seg.size, self.max_offset * ENTRY_SIZE - seg.start)
        min_bytes = self.min_offset * ENTRY_SIZE
        low = min_bytes - seg.start if min_bytes > seg.start else 0
        high = written - ENTRY_SIZE
        target = left = right = -1
        left_value = right_value = -1
        while high >= low:
            mid = (low + high) // (2 * ENTRY_SIZE) * ENTRY_SIZE
            phy, size, _ = ENTRY.unpack(seg.read(mid, ENTRY_SIZE))
            if phy < min_phy:
                low = mid + ENTRY_SIZE
                left = mid
                continue
            stored = store_time(phy, size)
            if stored < 0:
                return 0
            if stored == timestamp:
                target = mid
                break
            if stored > timestamp:
                high = mid - ENTRY_SIZE
                right, right_value = mid, stored
            else:
                low = mid + ENTRY_SIZE
                left, left_value = mid, stored
        if target != -1:
            offset = target
        elif left_value == -1:
            offset = right
        elif right_value == -1:
            offset = left
        else:
            offset = right if abs(timestamp - left_value) > abs(timestamp - right_value) else left
        return _java_div(seg.start + offset, ENTRY_SIZE)

    def delete_expired(self, min_phy: int) -> int:
        """Delete leading files whose last entry is below ``min_phy``; never the last file."""
        deleted = 0
        segs = self.queue.segments
        while len(segs) > 1:
            phy, _, _ = self._entry_at(segs[0], self.per_file - 1)
            if phy >= min_phy:
                break
            self.queue.pop_first()
            deleted += 1
        self.correct_min_offset(min_phy)
        return deleted
