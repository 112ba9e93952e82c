"""Reading one queue range from its broker, as message rows and Arrow record batches.

Pulls go to the broker that holds the queue through the admin API's PULL_MESSAGE, as the Java tools'
pull consumer sends it (subscription in the header: nothing is committed, no consumer is registered,
nothing is held open). Rows outside the
range's store-time window are dropped, which makes a time range exact.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import AsyncGenerator, Callable, Iterator, Sequence
from contextlib import aclosing
from dataclasses import dataclass, field
from datetime import UTC, datetime

import pyarrow as pa

from mqadmin.admin.api import MQAdmin
from mqadmin.admin.core import AdminCore
from mqadmin.admin.messages import TOOLS_CONSUMER, MessageOps
from mqadmin.admin.settings import AdminSettings
from mqadmin.pipeline.export.columns import Columns
from mqadmin.pipeline.export.ranges import QueueRange
from mqadmin.pipeline.export.rows import MESSAGE_SCHEMA
from mqadmin.protocol.bodies.message_queue import MessageQueue
from mqadmin.protocol.codes import RequestCode, ResponseCode
from mqadmin.protocol.command import RemotingCommand
from mqadmin.protocol.errors import ProtocolError
from mqadmin.protocol.headers.message import PullMessageRequestHeader
from mqadmin.protocol.javanum import INT_MAX
from mqadmin.protocol.message import MessageConst, MessageExt

__all__ = [
    "DEFAULT_GROUP", "IN_FLIGHT", "PULL_MAX", "Chunk", "pull_chunks",
    "pull_range", "read_ranges", "to_batch",
]  # fmt: skip

DEFAULT_GROUP = TOOLS_CONSUMER
"""A group every broker has; pulling with it commits nothing."""

PULL_BATCH = 32
"""Messages per PULL_MESSAGE of :func:`pull_range` (the Java tools' batch)."""

PULL_MAX = 1024
"""Messages a task's PULL_MESSAGE asks for (Java's largest ``pullBatchSize``; a broker may send fewer:
``maxTransferCountOnMessageInMemory`` is 32 by default)."""

IN_FLIGHT = 4
"""Pulls one task keeps in flight (each on its own chunk of :data:`PULL_MAX` offsets)."""

_PULL_FLAG_SUBSCRIPTION = 0x4
_QUEUE_OFFSET, _MAX_MSG_NUMS = "queueOffset", "maxMsgNums"
"""The PULL_MESSAGE header fields that change from one pull of a chunk to the next."""
_SUSPEND_MS = 20000
_NO_MATCHED = 20
_OFFSET_MOVED = 21
_PULL_CODES = (ResponseCode.SUCCESS, 19, _NO_MATCHED, _OFFSET_MOVED)

_PULL_ONLY = frozenset({MessageConst.PROPERTY_MIN_OFFSET, MessageConst.PROPERTY_MAX_OFFSET})
"""Properties a pull adds to each message (the queue's bounds at that moment): not the message's own."""


def _in_window(m: MessageExt, r: QueueRange) -> bool:
    return (r.begin_ms is None or m.store_timestamp >= r.begin_ms) and (
        r.end_ms is None or m.store_timestamp < r.end_ms
    )


async def pull_range(
    admin: MessageOps, r: QueueRange, group: str = DEFAULT_GROUP
) -> AsyncGenerator[list[MessageExt], None]:
    """The range's messages, one list per pull (lists may be empty when a window filters them)."""
    mq = MessageQueue(r.topic, r.broker, r.queue_id)
    offset = r.start
    while offset < r.end:
        res = await admin.pull_message(mq, "*", offset, min(PULL_BATCH, r.end - offset), group)
        if res.status == "FOUND":
            msgs = [m for m in res.messages if r.start <= m.queue_offset < r.end]
            yield [m for m in msgs if _in_window(m, r)]
        elif res.status not in ("NO_MATCHED_MSG", "OFFSET_ILLEGAL"):
            return  # nothing more in the queue
        if res.next_begin_offset <= offset:
            return
        offset = res.next_begin_offset


def _ms(ms: int) -> datetime:
    return datetime.fromtimestamp(ms / 1000, UTC)


def to_batch(messages: list[MessageExt], broker: str) -> pa.RecordBatch:
    """Messages as rows of :data:`MESSAGE_SCHEMA`."""
    return pa.RecordBatch.from_pydict(
        {
            "topic": [m.topic for m in messages],
            "broker": [broker] * len(messages),
            "queue_id": [m.queue_id for m in messages],
            "queue_offset": [m.queue_offset for m in messages],
            "msg_id": [m.client_msg_id for m in messages],
            "offset_msg_id": [m.msg_id for m in messages],
            "keys": [m.keys for m in messages],
            "tags": [m.tags for m in messages],
            "born_timestamp": [_ms(m.born_timestamp) for m in messages],
            "born_host": [m.born_address for m in messages],
            "store_timestamp": [_ms(m.store_timestamp) for m in messages],
            "store_host": [m.store_address for m in messages],
            "reconsume_times": [m.reconsume_times for m in messages],
            "properties": [[kv for kv in m.properties.items() if kv[0] not in _PULL_ONLY] for m in messages],
            "body": [bytes(m.body) for m in messages],
        },
        schema=MESSAGE_SCHEMA,
    )


def read_ranges(
    settings: AdminSettings,
    ranges: Sequence[QueueRange],
    group: str = DEFAULT_GROUP,
    batch_rows: int = 4096,
    *,
    sub_expression: str | None = None,
    include_properties: bool = True,
    on_loss: Callable[[QueueRange, int, int], None] | None = None,
) -> Iterator[pa.RecordBatch]:
    """Synchronous reading of ranges one after the other (a Spark task), in record batches of about
    ``batch_rows``.

    :data:`IN_FLIGHT` pulls of up to :data:`PULL_MAX` messages each are in flight at once, across
    the ranges (the next range's first pulls are on their way while the last one's end is decoded),
    each answer decoded straight into Arrow columns (:mod:`.columns`); a batch holds rows of one
    broker and one store-time window. Offsets found below a queue's min offset (the commit log
    expired) are passed to ``on_loss`` as ``(range, lost_from, lost_to)`` and skipped.
    """
    loop = asyncio.new_event_loop()
    admin = MQAdmin(settings)
    chunks = _chunks(admin.core, ranges, group, sub_expression)
    cols: Columns | None = None
    shape: QueueRange | None = None  # the range whose broker and window ``cols`` holds
    try:
        while True:
            try:
                r, chunk = loop.run_until_complete(anext(chunks))
            except StopAsyncIteration:
                break
            if chunk.lost is not None and on_loss is not None:
                on_loss(r, *chunk.lost)
            if cols is None or shape is None or not _same_shape(shape, r):
                if cols is not None and shape is not None and len(cols):
                    yield _windowed(cols.drain(), shape)
                cols, shape = Columns(r.broker, include_properties), r
            for body in chunk.bodies:
                cols.add_body(body, chunk.lo, chunk.hi)
            if len(cols) >= batch_rows:
                yield _windowed(cols.drain(), shape)
        if cols is not None and shape is not None and len(cols):
            yield _windowed(cols.drain(), shape)
    finally:
        loop.run_until_complete(chunks.aclose())
        loop.run_until_complete(admin.close())
        loop.close()


def _same_shape(a: QueueRange, b: QueueRange) -> bool:
    """Rows of ``a`` and ``b`` may share a record batch (one broker column value, one window)."""
    return a.broker == b.broker and a.begin_ms == b.begin_ms and a.end_ms == b.end_ms


def _windowed(batch: pa.RecordBatch, r: QueueRange) -> pa.RecordBatch:
    """Rows stored inside the range's store-time window (all of them when it has none)."""
    if r.begin_ms is None and r.end_ms is None:
        return batch
    import pyarrow.compute as pc

    ts = batch.column("store_timestamp")
    keep = None
    for bound, op in ((r.begin_ms, pc.greater_equal), (r.end_ms, pc.less)):
        if bound is not None:
            test = op(ts, pa.scalar(bound * 1000, MESSAGE_SCHEMA.field("store_timestamp").type))
            keep = test if keep is None else pc.and_(keep, test)
    return batch.filter(keep)


@dataclass(slots=True)
class Chunk:
    """The pull answers of queue offsets ``[lo, hi)``, and the offsets found lost below the queue's min."""

    lo: int
    hi: int
    bodies: list[bytes] = field(default_factory=list)
    lost: tuple[int, int] | None = None


async def pull_chunks(
    admin: AdminCore, r: QueueRange, group: str, sub_expression: str | None, in_flight: int = IN_FLIGHT
) -> AsyncGenerator[Chunk, None]:
    """The range as chunks of :data:`PULL_MAX` offsets, in order, ``in_flight`` pulled at once."""
    async with aclosing(_chunks(admin, (r,), group, sub_expression, in_flight)) as chunks:
        async for _, chunk in chunks:
            yield chunk


async def _chunks(
    admin: AdminCore,
    ranges: Sequence[QueueRange],
    group: str,
    sub_expression: str | None,
    in_flight: int = IN_FLIGHT,
) -> AsyncGenerator[tuple[QueueRange, Chunk], None]:
    """Every range as chunks of :data:`PULL_MAX` offsets, range after range and in order within one,
    ``in_flight`` pulled at once (across the ranges' boundaries)."""
    bounds = [(r, s, min(s + PULL_MAX, r.end)) for r in ranges for s in range(r.start, r.end, PULL_MAX)]
    expr = "*" if sub_expression is None or not sub_expression.strip() else sub_expression
    pending: deque[tuple[QueueRange, asyncio.Task[Chunk]]] = deque()

    async def next_one() -> tuple[QueueRange, Chunk]:
        r, task = pending.popleft()
        return r, await task

    try:
        for r, lo, hi in bounds:
            pending.append((r, asyncio.ensure_future(_pull_chunk(admin, r, lo, hi, group, expr))))
            if len(pending) >= in_flight:
                yield await next_one()
        while pending:
            yield await next_one()
    finally:
        for _, task in pending:
            task.cancel()


async def _pull_chunk(admin: AdminCore, r: QueueRange, lo: int, hi: int, group: str, expr: str) -> Chunk:
    chunk = Chunk(lo, hi)
    offset = lo
    header = PullMessageRequestHeader(
        group, r.topic, r.queue_id, lo, min(PULL_MAX, hi - lo), _PULL_FLAG_SUBSCRIPTION, 0,
        _SUSPEND_MS, expr, sub_version=0, expression_type="TAG", max_msg_bytes=INT_MAX, bname=r.broker,
    ).check()  # fmt: skip
    first: dict[str, str | None] = {**header.to_ext(), "ReqT": "0"}  # as the tools' pull consumer
    while offset < hi:
        # the chunk's next pulls differ from its first in these two fields only (both checked there:
        # an offset above it, a count below it); a pull answer brings tens of messages at most
        fields = {**first, _QUEUE_OFFSET: str(offset), _MAX_MSG_NUMS: str(min(PULL_MAX, hi - offset))}
        resp = await admin.invoke(r.addr, RequestCode.PULL_MESSAGE, fields, ok=_PULL_CODES)
        nxt = _ext_int(resp, "nextBeginOffset")
        if resp.code == ResponseCode.SUCCESS and resp.body:
            chunk.bodies.append(resp.body)
        elif resp.code == _OFFSET_MOVED and offset < _ext_int(resp, "minOffset"):
            lost_to = min(hi, _ext_int(resp, "minOffset"))
            chunk.lost = (offset, lost_to) if chunk.lost is None else (chunk.lost[0], lost_to)
            nxt = max(nxt, lost_to)
        elif resp.code not in (ResponseCode.SUCCESS, _NO_MATCHED):
            break  # past the queue's end: nothing more to read here
        if nxt <= offset:
            break
        offset = nxt
    return chunk


def _ext_int(resp: RemotingCommand, name: str) -> int:
    value = resp.ext(name)
    try:
        return int(value or 0)
    except ValueError:
        raise ProtocolError(f"PULL_MESSAGE answer field {name} is not a number: {value!r}") from None
