"""Offset resets in kafka-consumer-groups' terms: a plan per queue, then (only if asked) its commit.

A :class:`Target` says where each queue goes: the earliest or latest offset, a shift from the
committed one, the first message stored at or after a time, a given offset, or the offsets of a
file (an export of an earlier plan, to roll back). :func:`plan` reads the group's committed offsets
and each queue's range and computes the new offset, clamped to what the queue holds; :func:`apply`
commits it queue by queue and tells the online consumers (INVOKE_BROKER_TO_RESET_OFFSET with the
queue and offset, which 5.x brokers pass on; with no consumer online the commit alone is the reset).

A time means the first message stored at or after it (Java 5.3.3's ``BoundaryType.LOWER``): a
4.9.x broker answers SEARCH_OFFSET_BY_TIMESTAMP with the nearest message instead, which can be the
one before, so :func:`offset_at_or_after` checks that message's store time and steps past it.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass

from mqadmin.admin.api import MQAdmin
from mqadmin.admin.consumers import EmptyConsumeStatsError
from mqadmin.admin.errors import AdminError
from mqadmin.protocol.bodies.message_queue import MessageQueue

__all__ = [
    "KINDS",
    "QueuePlan",
    "Target",
    "apply",
    "offset_at_or_after",
    "plan",
    "read_export",
    "write_export",
]

KINDS = ("earliest", "latest", "shift", "time", "offset", "file")
EXPORT_HEADER = ["topic", "brokerName", "queueId", "offset"]


@dataclass(slots=True, frozen=True)
class Target:
    """Where the queues go: ``kind`` one of :data:`KINDS`; ``value`` the shift, the time (epoch
    ms) or the offset; ``offsets`` the file's offsets by queue."""

    kind: str
    value: int = 0
    offsets: tuple[tuple[MessageQueue, int], ...] = ()


@dataclass(slots=True, frozen=True)
class QueuePlan:
    """One queue: its range, the group's committed offset (None: never committed) and the new one."""

    queue: MessageQueue
    min_offset: int
    max_offset: int
    current: int | None
    new: int

    def to_json(self) -> dict[str, object]:
        return {
            "topic": self.queue.topic,
            "brokerName": self.queue.broker_name,
            "queueId": self.queue.queue_id,
            "minOffset": self.min_offset,
            "maxOffset": self.max_offset,
            "currentOffset": self.current,
            "newOffset": self.new,
            "lagAfter": self.max_offset - self.new,
        }


async def offset_at_or_after(admin: MQAdmin, mq: MessageQueue, timestamp: int) -> int:
    """The first offset of ``mq`` whose message was stored at or after ``timestamp`` (its max
    offset when every message is older), whichever way the broker rounds."""
    found = await admin.messages.search_offset(mq, timestamp)
    pulled = await admin.messages.pull_message(mq, "*", found, 1)
    if pulled.status == "FOUND" and pulled.messages and pulled.messages[0].store_timestamp < timestamp:
        return found + 1
    return found


async def plan(admin: MQAdmin, group: str, topic: str, target: Target) -> list[QueuePlan]:
    """The new offset of every readable queue of ``topic`` for ``group`` (nothing is changed)."""
    queues = await admin.messages.fetch_subscribe_message_queues(topic)
    try:
        stats = await admin.consumers.examine_consume_stats(group, topic)
        committed = {mq: w.consumer_offset for mq, w in stats.offset_table.items()}
    except EmptyConsumeStatsError:
        committed = {}
    from_file = dict(target.offsets)
    if target.kind == "file":
        unknown = [mq for mq in from_file if mq not in set(queues)]
        if unknown:
            mq = unknown[0]
            raise AdminError(
                f"the file names queue {mq.queue_id} of {mq.broker_name}, not a queue of {topic}"
            )
    plans = []
    for mq in sorted(queues, key=lambda q: (q.broker_name or "", q.queue_id)):
        if target.kind == "file" and mq not in from_file:
            continue
        lo, hi = await admin.messages.min_offset(mq), await admin.messages.max_offset(mq)
        current = committed.get(mq)
        if current is not None and current < 0:
            current = None
        base = current if current is not None else lo
        match target.kind:
            case "earliest":
                new = lo
            case "latest":
                new = hi
            case "shift":
                new = base + target.value
            case "time":
                new = await offset_at_or_after(admin, mq, target.value)
            case "offset":
                new = target.value
            case _:
                new = from_file[mq]
        plans.append(QueuePlan(mq, lo, hi, current, max(lo, min(new, hi))))
    return plans


async def apply(admin: MQAdmin, group: str, plans: list[QueuePlan]) -> None:
    """Commit each plan's offset and tell the group's online consumers of it."""
    for p in plans:
        mq = p.queue
        assert mq.topic is not None and mq.broker_name is not None
        addr = await admin.messages.broker_addr_of(mq.topic, mq.broker_name)
        await admin.offsets.reset_offset_by_queue_id(addr, group, mq.topic, mq.queue_id, p.new)


def write_export(plans: list[QueuePlan]) -> str:
    """The offsets the group has now (before a reset), as CSV a later ``--from-file`` reads back;
    a queue never committed is exported at its earliest offset."""
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(EXPORT_HEADER)
    for p in plans:
        current = p.current if p.current is not None else p.min_offset
        w.writerow([p.queue.topic, p.queue.broker_name, p.queue.queue_id, current])
    return out.getvalue()


def read_export(text: str, topic: str, where: str) -> tuple[tuple[MessageQueue, int], ...]:
    """The offsets of an export of ``topic`` (:func:`write_export`); ValueError naming the line.

    Queue ids and offsets are plain ASCII digits (no sign, no ``_``, no other scripts' digits): a
    rollback file is data to set offsets from, so anything else in it is refused, not guessed at."""
    out: list[tuple[MessageQueue, int]] = []
    for n, row in enumerate(csv.reader(io.StringIO(text)), 1):
        if not row or (n == 1 and row == EXPORT_HEADER):
            continue
        if len(row) != 4:
            raise ValueError(f"{where} line {n}: expected topic,brokerName,queueId,offset")
        name, broker, qid, offset = row
        if name != topic:
            raise ValueError(f"{where} line {n}: topic {name!r}, not {topic!r}")
        if not all(v.isascii() and v.isdigit() for v in (qid, offset)):
            raise ValueError(f"{where} line {n}: queueId and offset must be whole numbers of 0 or more")
        out.append((MessageQueue(topic, broker, int(qid)), int(offset)))
    if not out:
        raise ValueError(f"{where}: no offsets in it")
    return tuple(out)
