"""What a pull answer may hold: the one rule every reader of ours applies to the records it gets.

The batch reader, the stream reader and ``export messages`` all decode pull answers through
:class:`~mqadmin.pipeline.export.columns.Columns`, which hands each record's topic, queue id and
queue offset to a :class:`Cursor` before keeping it. A record that breaks the rule is an error
naming the queue and the offsets, never dropped or kept silently:

- the topic and queue id are the ones asked for;
- queue offsets are strictly increasing within the queue (a record sent twice, or one from before
  the offset pulled, is refused);
- without a tag filter every offset holds a message, so a chunk's offsets must arrive one after
  the other, from its first to its last: a hole (a ``nextBeginOffset`` past offsets the broker did
  not send) is refused too. Under a filter the broker skips the offsets that do not match, and its
  ``nextBeginOffset`` is taken as it is;
- a record at or past the chunk's end is not this chunk's (a pull asks for a count of messages,
  and under a filter those may lie beyond the end): it is left for the chunk or batch that plans it.

The only offsets a chunk may leave unread are those the broker says are gone (below the queue's min
offset): a :class:`Skip`, passed to the reader's loss handler, which fails or logs and counts it.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

from mqadmin.pipeline.export.ranges import QueueRange

__all__ = ["Cursor", "DataLossError", "LossHandler", "RangeReadError", "Skip", "where"]

log = logging.getLogger(__name__)


class RangeReadError(RuntimeError):
    """A planned range that could not be read to its end, or a pull answer that breaks the rule."""


class DataLossError(RuntimeError):
    """Offsets to read are gone from the queue (its commit log expired) and failOnDataLoss is true."""


@dataclass(frozen=True, slots=True)
class Skip:
    """Offsets ``[lo, hi)`` of a chunk the broker says are gone (below the queue's min offset)."""

    lo: int
    hi: int


def where(r: QueueRange) -> str:
    """A range's queue as errors and logs name it."""
    return f"{r.topic} {r.broker}:{r.queue_id}"


@dataclass(slots=True)
class LossHandler:
    """What a reader does with offsets the broker says are gone: fail (``failOnDataLoss``, the
    default), or log each skip with the count of offsets skipped so far."""

    fail: bool = True
    skipped: int = 0

    def __call__(self, r: QueueRange, lost_from: int, lost_to: int) -> None:
        what = f"{where(r)}: offsets {lost_from}..{lost_to - 1} are gone (commit log expired)"
        if self.fail:
            raise DataLossError(f"{what}. Set failOnDataLoss=false to skip them.")
        self.skipped += lost_to - lost_from
        log.warning(
            "%s; %d skipped (failOnDataLoss=false), %d in this task so far",
            what, lost_to - lost_from, self.skipped,
        )  # fmt: skip


@dataclass(slots=True)
class Cursor:
    """The records of chunk ``[lo, hi)`` of range ``r`` as they arrive, checked one by one."""

    r: QueueRange
    lo: int
    hi: int
    contiguous: bool
    """No tag filter: every offset of the chunk must arrive."""
    next: int = -1
    """The lowest offset the next record may have."""
    last: int = -1
    """The offset of the last record seen (-1: none yet)."""
    topic_bytes: bytes = field(default=b"", repr=False)

    def __post_init__(self) -> None:
        self.next = self.lo
        self.topic_bytes = self.r.topic.encode("utf-8")

    def pulled(self, offset: int) -> None:
        """The records that follow answer a pull from ``offset``."""
        if offset > self.next and self.contiguous:
            self._fail(f"offsets {self.next}..{offset - 1} were never sent (the broker moved past them)")
        self.next = max(self.next, offset)

    def skipped(self, skip: Skip) -> None:
        """The broker says ``skip``'s offsets are gone; the reader's loss handler judged them."""
        self.next = max(self.next, skip.hi)

    def admit(self, topic: bytes, queue_id: int, offset: int) -> bool:
        """Whether to keep the record (False: it lies past the chunk); raises when it breaks the rule."""
        if topic != self.topic_bytes or queue_id != self.r.queue_id:
            shown = str(topic, "utf-8", "replace")
            self._fail(f"the answer holds a record of {shown} queue {queue_id} (offset {offset})")
        if offset < self.next:
            if offset == self.last:
                self._fail(f"offset {offset} arrived twice")
            if offset < self.last:
                self._fail(f"offset {offset} arrived after offset {self.last}")
            self._fail(f"offset {offset} arrived, before the offset pulled ({self.next})")
        if offset >= self.hi:
            self.next, self.last = offset + 1, offset
            return False
        if self.contiguous and offset != self.next:
            self._fail(f"offsets {self.next}..{offset - 1} were never sent (offset {offset} came next)")
        self.next, self.last = offset + 1, offset
        return True

    def finish(self) -> None:
        """The chunk's pulls are done: without a filter, every offset up to its end has arrived."""
        if self.contiguous and self.next < self.hi:
            self._fail(f"offsets {self.next}..{self.hi - 1} were never sent")

    def _fail(self, what: str) -> None:
        r = self.r
        raise RangeReadError(
            f"{where(r)} (broker at {r.addr}), planned offsets {r.start}..{r.end - 1}: {what}; "
            "the pull answer is refused rather than read wrong"
        )
