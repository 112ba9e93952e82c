"""``spark.readStream.format("rocketmq")``: the stream reader, on the driver and in the tasks.

On the driver (one long-lived reader per query) every trigger finds the queues and their offsets
(:mod:`.queues`), picks how far to read under the read limit (:mod:`.offsets`) and plans the
partitions: each queue's range cut at ``partitionSize`` offsets, and the pieces packed together up
to ``partitionSize`` (:func:`~mqadmin.pipeline.export.ranges.pack`: a task costs more than reading
a few thousand messages); ``minPartitions`` (as Kafka's) makes that size smaller, so that a batch
has about that many partitions at least, for a cluster's cores. Spark writes those offsets to its
checkpoint before any task runs, so a restarted query replays exactly the same ranges. A task pulls
its ranges, one after the other, from each queue's broker
(:func:`mqadmin.pipeline.export.pull.read_ranges`). After a batch is committed, option ``group``
commits its end offsets to the brokers (UPDATE_CONSUMER_OFFSET), only so that the lag shows: the
checkpoint stays the source of truth.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from pyspark.sql.datasource import DataSourceStreamReader, InputPartition
from pyspark.sql.streaming.datasource import (
    ReadAllAvailable,
    ReadLimit,
    ReadMaxRows,
    ReadMinRows,
    SupportsTriggerAvailableNow,
)

from mqadmin.admin.api import MQAdmin
from mqadmin.pipeline.export.checks import DataLossError, LossHandler
from mqadmin.pipeline.export.pull import DEFAULT_GROUP, read_ranges
from mqadmin.pipeline.export.ranges import QueueRange, pack, split
from mqadmin.pipeline.stream.offsets import Offsets, cap, flat, nest, split_key, total_backlog
from mqadmin.pipeline.stream.options import EARLIEST, LATEST, StreamOptions
from mqadmin.pipeline.stream.queues import QueueState, discover, topics_of
from mqadmin.protocol.bodies.message_queue import MessageQueue

if TYPE_CHECKING:
    import pyarrow as pa

__all__ = ["DataLossError", "QueueUnreachableError", "RocketMQStreamReader"]

log = logging.getLogger(__name__)


class QueueUnreachableError(RuntimeError):
    """A batch's queue whose broker cannot be reached: failing beats skipping its messages."""


class _Driver:
    """The driver's event loop and admin client, kept for the query's life."""

    def __init__(self, options: StreamOptions) -> None:
        self.loop = asyncio.new_event_loop()
        self.admin = MQAdmin(options.settings)

    def run(self, coro: Any) -> Any:
        return self.loop.run_until_complete(coro)

    def close(self) -> None:
        self.run(self.admin.close())
        self.loop.close()


class RocketMQStreamReader(DataSourceStreamReader, SupportsTriggerAvailableNow):
    def __init__(self, options: StreamOptions) -> None:
        self.options = options
        self._driver: _Driver | None = None
        self._queues: dict[tuple[str, str], QueueState] = {}
        self._target: dict[tuple[str, str], int] | None = None
        self._last_batch = time.monotonic()
        self._missing: set[tuple[str, str]] = set()
        self._committed: dict[tuple[str, str], int] = {}

    def __getstate__(self) -> dict[str, Any]:
        """What a task gets: the options only (the driver's loop and client stay on the driver)."""
        return {"options": self.options}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(state["options"])  # type: ignore[misc]

    # ---------------------------------------------------------------------------- driver

    @property
    def driver(self) -> _Driver:
        if self._driver is None:
            self._driver = _Driver(self.options)
        return self._driver

    def refresh(self, *, strict: bool = False) -> dict[tuple[str, str], QueueState]:
        """The queues now (``strict``: a listed topic without a route is an error)."""
        o = self.options

        async def go() -> list[QueueState]:
            topics = await topics_of(self.driver.admin, o.topics, o.pattern)
            return await discover(self.driver.admin, topics, strict=strict)

        self._queues = {q.key: q for q in self.driver.run(go())}
        return self._queues

    def check(self) -> None:
        """Judge the topics before the query starts (unknown topic, unreachable name server)."""
        self.refresh(strict=True)

    def initialOffset(self) -> Offsets:
        queues = self.refresh(strict=True)
        start = self.options.start
        out: dict[tuple[str, str], int] = {}
        if isinstance(start, int):  # startingTimestamp
            out = self._by_time(list(queues.values()), start)
        else:
            for key, q in queues.items():
                out[key] = self._start_of(q, start)
        return nest(out.items())

    def _start_of(self, q: QueueState, start: Any) -> int:
        if start == "earliest":
            return q.min_offset
        if start == "latest":
            return q.max_offset
        given = start.get(q.topic, {}).get(q.key[1], LATEST)
        if given == EARLIEST:
            return q.min_offset
        if given == LATEST:
            return q.max_offset
        return int(given)

    def _by_time(self, queues: list[QueueState], ms: int) -> dict[tuple[str, str], int]:
        admin = self.driver.admin

        async def one(q: QueueState) -> int:
            mq = MessageQueue(q.topic, q.broker, q.queue_id)
            return await admin.broker.search_offset_at(q.addr, mq, ms)

        async def every() -> list[int]:
            return list(await asyncio.gather(*(one(q) for q in queues)))

        found = self.driver.run(every())
        return {
            q.key: min(max(off, q.min_offset), q.max_offset) for q, off in zip(queues, found, strict=True)
        }

    def getDefaultReadLimit(self) -> ReadLimit:
        o = self.options
        if o.max_per_trigger is not None:
            return ReadMaxRows(o.max_per_trigger)
        if o.min_per_trigger is not None:
            return ReadMinRows(o.min_per_trigger)
        return ReadAllAvailable()

    def prepareForTriggerAvailableNow(self) -> None:
        self._target = {k: q.max_offset for k, q in self.refresh().items()}

    def latestOffset(self, start: Offsets, limit: ReadLimit) -> Offsets:
        queues = self.refresh()
        begin = flat(start)
        self._commit_group(begin)
        self._report_missing(begin, queues)
        end = dict(begin)  # a queue not seen now keeps its offset
        for key, q in queues.items():
            end[key] = q.max_offset
            begin.setdefault(key, q.min_offset)  # a new queue is read from its start
            if self._target is not None:
                end[key] = min(end[key], self._target.get(key, begin[key]))
            end[key] = max(end[key], begin[key])
        if not isinstance(limit, ReadAllAvailable):
            o = self.options
            backlog = total_backlog(begin, end)
            waited = time.monotonic() - self._last_batch
            if (
                o.min_per_trigger is not None
                and backlog < o.min_per_trigger
                and waited < o.max_trigger_delay_s
            ):
                return start
            if o.max_per_trigger is not None:
                cap(begin, end, o.max_per_trigger)
        if total_backlog(begin, end) > 0 or set(end) != set(flat(start)):
            self._last_batch = time.monotonic()
        return nest(end.items())

    def _report_missing(self, begin: dict[tuple[str, str], int], queues: dict[tuple[str, str], Any]) -> None:
        missing = set(begin) - set(queues)
        for topic, key in sorted(missing - self._missing):
            log.warning(
                "queue %s of %s is not reachable now (its broker left?); it resumes when back", key, topic
            )
        for topic, key in sorted(self._missing - missing):
            log.warning("queue %s of %s is back; reading it resumes at its offset", key, topic)
        self._missing = missing

    def reportLatestOffset(self) -> Offsets | None:
        if not self._queues:
            return None
        return nest((k, q.max_offset) for k, q in self._queues.items())

    def partitions(self, start: Offsets, end: Offsets) -> list[InputPartition]:
        begin = flat(start)
        queues = self._queues or self.refresh()
        if any(k not in queues for k in flat(end)):
            queues = self.refresh()
        ranges: list[QueueRange] = []
        for key, hi in sorted(flat(end).items()):
            q = queues.get(key)
            if q is None:
                if begin.get(key, -1) >= hi:
                    continue  # nothing to read there
                raise QueueUnreachableError(
                    f"{key[0]} queue {key[1]} holds offsets of this batch but its broker does not answer "
                    "now; the batch is planned again when the query restarts"
                )
            lo = begin.get(key, q.min_offset)
            if lo >= hi:
                continue
            if lo < q.min_offset:
                lo = self._lost(q, lo)
            ranges.append(QueueRange(q.topic, q.broker, q.addr, q.queue_id, lo, hi))
        size = self.options.partition_size
        if self.options.min_partitions is not None:  # as Kafka's: more, smaller partitions when asked
            size = min(size, -(-sum(r.size for r in ranges) // self.options.min_partitions))
        pieces = [piece for r in ranges for piece in split(r, size)]
        return [InputPartition(group) for group in pack(pieces, size)]

    def _lost(self, q: QueueState, lo: int) -> int:
        what = (
            f"{q.topic} queue {q.key[1]}: offsets {lo}..{q.min_offset - 1} are gone "
            f"(the queue now starts at {q.min_offset}; its commit log expired)"
        )
        if self.options.fail_on_data_loss:
            raise DataLossError(f"{what}. Set failOnDataLoss=false to skip them.")
        log.warning("%s; %d skipped (failOnDataLoss=false)", what, q.min_offset - lo)
        return q.min_offset

    def commit(self, end: Offsets) -> None:
        """Spark has the batch ending at ``end``: show it as the ``group``'s progress."""
        self._commit_group(flat(end))

    def _commit_group(self, offsets: dict[tuple[str, str], int]) -> None:
        """UPDATE_CONSUMER_OFFSET of the queues whose offset moved since the last commit. Also run
        when the next batch is planned from ``start`` (the end of the batch just done): an
        ``availableNow`` query ends without a commit call for its last batch."""
        group = self.options.group
        moved = {k: v for k, v in offsets.items() if self._committed.get(k) != v}
        if group is None or not moved:
            return
        admin = self.driver.admin
        queues = self._queues

        async def one(topic: str, key: str, offset: int) -> None:
            q = queues.get((topic, key))
            if q is None:
                return
            broker, qid = split_key(key)
            try:
                await admin.offsets.update_consume_offset(
                    q.addr, group, MessageQueue(topic, broker, qid), offset
                )
                self._committed[(topic, key)] = offset
            except Exception as e:  # a lag display must never stop the stream
                log.warning("could not commit %s %s offset %d for group %s: %s", topic, key, offset, group, e)

        async def every() -> None:
            await asyncio.gather(*(one(t, k, v) for (t, k), v in moved.items()))

        self.driver.run(every())

    def stop(self) -> None:
        if self._driver is not None:
            self._driver.close()
            self._driver = None

    # ---------------------------------------------------------------------------- tasks

    def read(self, partition: InputPartition) -> Iterator[pa.RecordBatch]:
        ranges: tuple[QueueRange, ...] = partition.value
        o = self.options
        return read_ranges(
            o.settings,
            ranges,
            DEFAULT_GROUP,
            sub_expression=o.sub_expression,
            include_properties=o.include_properties,
            on_loss=LossHandler(o.fail_on_data_loss),
            retry_for=o.retry_for,
        )
