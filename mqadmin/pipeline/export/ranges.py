"""Which queue offsets to read: one range per message queue of the topic, split when large.

The route gives the brokers and their read queues (all asked through the admin API: GET_ROUTEINFO_BY_TOPIC,
GET_MIN_OFFSET, GET_MAX_OFFSET, SEARCH_OFFSET_BY_TIMESTAMP with its LOWER boundary); each queue's range
starts at its min offset and ends at its max offset (exclusive), narrowed by the options:

- ``begin``/``end`` (store time, ms): SEARCH_OFFSET_BY_TIMESTAMP answers the offset whose store time
  is *nearest* the given time, so the range is widened by one at the end and the rows are filtered by
  store time when read: the result is exactly the messages stored in ``[begin, end)``;
- ``startingOffsets``/``endingOffsets``: ``earliest``, ``latest``, one offset for every queue, or a
  JSON object ``{"broker-a:0": 120, ...}`` per queue (queues not named keep the default).

A range longer than ``max_per_partition`` offsets is cut into several, so one Spark task reads a
bounded number of messages; shorter ones are packed together up to it (:func:`pack`), so a task does
not cost more than its reading.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from mqadmin.admin.messages import MessageOps
from mqadmin.protocol.bodies.message_queue import MessageQueue

__all__ = [
    "DEFAULT_PARTITION_SIZE", "OffsetSpec", "QueueRange", "pack", "parse_offset_spec", "plan_ranges", "split",
]  # fmt: skip

DEFAULT_PARTITION_SIZE = 50_000

OffsetSpec = str | int | Mapping[str, int]
"""``"earliest"``, ``"latest"``, one offset, or offsets per ``broker:queue``."""


@dataclass(frozen=True, slots=True)
class QueueRange:
    """Offsets ``[start, end)`` of one queue, and the store-time window rows must fall in."""

    topic: str
    broker: str
    addr: str
    queue_id: int
    start: int
    end: int
    begin_ms: int | None = None
    end_ms: int | None = None

    @property
    def size(self) -> int:
        return max(0, self.end - self.start)


def parse_offset_spec(text: str | None) -> OffsetSpec | None:
    """An option value as an :data:`OffsetSpec` (None when not given)."""
    if text is None or not str(text).strip():
        return None
    value = str(text).strip()
    if value.lower() in ("earliest", "latest"):
        return value.lower()
    if value.lstrip("-").isdigit():
        return int(value)
    try:
        obj = json.loads(value)
    except ValueError:
        raise ValueError(
            f"offsets must be earliest, latest, a number or a JSON object, not {text!r}"
        ) from None
    if not isinstance(obj, dict) or not all(isinstance(v, int) for v in obj.values()):
        raise ValueError(f'offsets JSON must map "broker:queue" to a number, not {text!r}')
    return {str(k): int(v) for k, v in obj.items()}


def _resolve(spec: OffsetSpec | None, key: str, lo: int, hi: int, default: int) -> int:
    if isinstance(spec, Mapping):
        spec = spec.get(key)
    if spec is None:
        return default
    if spec == "earliest":
        return lo
    if spec == "latest":
        return hi
    return min(max(int(spec), lo), hi)


def split(r: QueueRange, size: int) -> list[QueueRange]:
    """``r`` cut into ranges of at most ``size`` offsets (an empty range gives none)."""
    size = max(1, size)
    return [
        QueueRange(r.topic, r.broker, r.addr, r.queue_id, s, min(s + size, r.end), r.begin_ms, r.end_ms)
        for s in range(r.start, r.end, size)
    ]


def pack(ranges: Sequence[QueueRange], size: int) -> list[tuple[QueueRange, ...]]:
    """``ranges`` (none longer than ``size``: see :func:`split`) put together into groups of at most
    ``size`` offsets in all, one group per Spark task: each task costs tens of milliseconds of its
    own (scheduling, a Python worker round trip, a connection), more than reading a few thousand
    messages. First fit, largest first (a range never moves from one group to another between two
    plans of the same offsets); a group's ranges are in topic, broker, queue and offset order, and
    the groups in the order of their first range. Every range is in exactly one group."""
    size = max(1, size)
    groups: list[list[QueueRange]] = []
    room: list[int] = []
    for r in sorted(ranges, key=lambda r: (-r.size, _order(r))):
        for i, left in enumerate(room):
            if r.size <= left:
                groups[i].append(r)
                room[i] -= r.size
                break
        else:
            groups.append([r])
            room.append(size - r.size)
    return sorted((tuple(sorted(g, key=_order)) for g in groups), key=lambda g: _order(g[0]))


def _order(r: QueueRange) -> tuple[str, str, int, int]:
    return r.topic, r.broker, r.queue_id, r.start


async def _queue_range(
    admin: MessageOps,
    topic: str,
    broker: str,
    addr: str,
    queue_id: int,
    begin_ms: int | None,
    end_ms: int | None,
    starting: OffsetSpec | None,
    ending: OffsetSpec | None,
) -> QueueRange:
    mq = MessageQueue(topic, broker, queue_id)
    lo, hi = await asyncio.gather(admin.min_offset(mq), admin.max_offset(mq))
    key = f"{broker}:{queue_id}"
    start = _resolve(starting, key, lo, hi, lo)
    end = _resolve(ending, key, lo, hi, hi)
    if begin_ms is not None and start < end:
        start = max(start, min(await admin.search_offset(mq, begin_ms), hi))
    if end_ms is not None and start < end:
        # the nearest entry may be the one just before end_ms: keep it, the reader filters by time
        end = min(end, await admin.search_offset(mq, end_ms) + 1)
    return QueueRange(topic, broker, addr, queue_id, start, max(start, end), begin_ms, end_ms)


async def plan_ranges(
    admin: MessageOps,
    topic: str,
    *,
    begin_ms: int | None = None,
    end_ms: int | None = None,
    starting: OffsetSpec | None = None,
    ending: OffsetSpec | None = None,
    max_per_partition: int = DEFAULT_PARTITION_SIZE,
) -> list[QueueRange]:
    """The non-empty ranges to read, ordered by broker, queue and offset."""
    route = await admin.topic_route_cached(topic)
    masters: dict[str, str] = {}
    for bd in route.broker_datas or []:
        addrs = bd.broker_addrs or {}
        if bd.broker_name and addrs:
            masters[bd.broker_name] = addrs.get(0) or addrs[min(addrs)]
    jobs = []
    for qd in sorted(route.queue_datas or [], key=lambda q: q.broker_name or ""):
        addr = masters.get(qd.broker_name or "")
        if addr is None or not qd.broker_name:
            continue
        for q in range(qd.read_queue_nums):
            jobs.append(
                _queue_range(admin, topic, qd.broker_name, addr, q, begin_ms, end_ms, starting, ending)
            )
    ranges = await asyncio.gather(*jobs)
    return [part for r in ranges for part in split(r, max_per_partition)]
