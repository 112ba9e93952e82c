"""Reading planned queue ranges from their brokers, as Arrow record batches: every reader's pulls.

Pulls go to the broker that holds the queue as PULL_MESSAGE, as the Java tools' pull consumer sends
it (subscription in the header: nothing is committed, no consumer is registered, nothing is held
open). Rows outside the range's store-time window are dropped, which makes a time range exact.

Every planned range is read to its end or the read fails. An answer that does not move the range on
(PULL_NOT_FOUND, an offset the broker calls illegal, a broker error, no answer at all, a
``nextBeginOffset`` not past the offset pulled) is tried again after a growing pause, for
``retry_for`` seconds at most; then a :class:`~.checks.RangeReadError` names the queue, the offsets
left and the broker's last answer. The only offsets left unread are those the broker says are gone
(PULL_OFFSET_MOVED with a min offset past them), handed to the loss handler
(:class:`~.checks.LossHandler`: fail, or log and count). The records themselves are judged as they
are decoded (:class:`~.checks.Cursor`).
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import AsyncGenerator, Callable, Iterator, Sequence
from contextlib import aclosing
from dataclasses import dataclass, field
from datetime import UTC, datetime

import pyarrow as pa

from mqadmin.admin.api import MQAdmin
from mqadmin.admin.core import AdminCore
from mqadmin.admin.messages import TOOLS_CONSUMER
from mqadmin.admin.settings import AdminSettings
from mqadmin.pipeline.export.checks import Cursor, LossHandler, RangeReadError, Skip, where
from mqadmin.pipeline.export.columns import Columns
from mqadmin.pipeline.export.ranges import QueueRange
from mqadmin.pipeline.export.rows import MESSAGE_SCHEMA
from mqadmin.protocol.codes import RequestCode, ResponseCode, response_name
from mqadmin.protocol.command import RemotingCommand
from mqadmin.protocol.errors import ProtocolError
from mqadmin.protocol.headers.message import PullMessageRequestHeader
from mqadmin.protocol.javanum import INT_MAX
from mqadmin.protocol.message import MessageConst
from mqadmin.protocol.message_record import MessageExt
from mqadmin.remoting.errors import RemoteCommandError, RemotingError

__all__ = [
    "DEFAULT_GROUP", "DEFAULT_RETRY_S", "IN_FLIGHT", "PULL_MAX", "Chunk", "read_batches", "read_ranges",
    "to_batch",
]  # fmt: skip

log = logging.getLogger(__name__)

DEFAULT_GROUP = TOOLS_CONSUMER
"""A group every broker has; pulling with it commits nothing."""

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
_LASTING = frozenset({ResponseCode.NO_PERMISSION, ResponseCode.SUBSCRIPTION_PARSE_FAILED})
"""Answers no retry changes: the read fails at once."""

DEFAULT_RETRY_S = 30.0
"""Seconds an answer that does not move a range on is tried again before the read fails."""
_PAUSE_FIRST_S, _PAUSE_MOST_S = 0.05, 1.0

_PULL_ONLY = frozenset({MessageConst.PROPERTY_MIN_OFFSET, MessageConst.PROPERTY_MAX_OFFSET})
"""Properties a pull adds to each message (the queue's bounds at that moment): not the message's own."""


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
    retry_for: float = DEFAULT_RETRY_S,
) -> Iterator[pa.RecordBatch]:
    """:func:`read_batches` for a synchronous caller (a Spark task), on an event loop of its own."""
    loop = asyncio.new_event_loop()
    admin = MQAdmin(settings)
    batches = read_batches(
        admin.core, ranges, group, batch_rows, sub_expression=sub_expression,
        include_properties=include_properties, on_loss=on_loss, retry_for=retry_for,
    )  # fmt: skip
    try:
        while True:
            try:
                yield loop.run_until_complete(anext(batches))
            except StopAsyncIteration:
                break
    finally:
        loop.run_until_complete(batches.aclose())
        loop.run_until_complete(admin.close())
        loop.close()


async def read_batches(
    admin: AdminCore,
    ranges: Sequence[QueueRange],
    group: str = DEFAULT_GROUP,
    batch_rows: int = 4096,
    *,
    sub_expression: str | None = None,
    include_properties: bool = True,
    on_loss: Callable[[QueueRange, int, int], None] | None = None,
    retry_for: float = DEFAULT_RETRY_S,
) -> AsyncGenerator[pa.RecordBatch, None]:
    """Ranges read one after the other, in record batches of about ``batch_rows``.

    :data:`IN_FLIGHT` pulls of up to :data:`PULL_MAX` messages each are in flight at once, across
    the ranges (the next range's first pulls are on their way while the last one's end is decoded),
    each answer decoded straight into Arrow columns (:mod:`.columns`); a batch holds rows of one
    broker and one store-time window. Offsets the broker says are gone are passed to ``on_loss`` as
    ``(range, lost_from, lost_to)`` (default: a :class:`~.checks.LossHandler` that fails).
    """
    loss = on_loss if on_loss is not None else LossHandler()
    expr = "*" if sub_expression is None or not sub_expression.strip() else sub_expression
    contiguous = expr == "*"
    cols: Columns | None = None
    shape: QueueRange | None = None  # the range whose broker and window ``cols`` holds
    async with aclosing(_chunks(admin, ranges, group, expr, IN_FLIGHT, retry_for)) as chunks:
        async for r, chunk in chunks:
            if cols is None or shape is None or not _same_shape(shape, r):
                if cols is not None and shape is not None and len(cols):
                    yield _windowed(cols.drain(), shape)
                cols, shape = Columns(r.broker, include_properties), r
            cursor = Cursor(r, chunk.lo, chunk.hi, contiguous)
            for part in chunk.parts:
                if isinstance(part, Skip):
                    loss(r, part.lo, part.hi)
                    cursor.skipped(part)
                else:
                    cursor.pulled(part[0])
                    cols.add_body(part[1], cursor)
            cursor.finish()
            if len(cols) >= batch_rows:
                yield _windowed(cols.drain(), shape)
    if cols is not None and shape is not None and len(cols):
        yield _windowed(cols.drain(), shape)


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
    """What the pulls of queue offsets ``[lo, hi)`` brought, in order: ``(offset pulled, answer
    body)`` pairs, and the offsets the broker said are gone."""

    lo: int
    hi: int
    parts: list[tuple[int, bytes] | Skip] = field(default_factory=list)


async def _chunks(
    admin: AdminCore,
    ranges: Sequence[QueueRange],
    group: str,
    expr: str,
    in_flight: int,
    retry_for: float,
) -> AsyncGenerator[tuple[QueueRange, Chunk], None]:
    """Every range as chunks of :data:`PULL_MAX` offsets, range after range and in order within one,
    ``in_flight`` pulled at once (across the ranges' boundaries)."""
    bounds = [(r, s, min(s + PULL_MAX, r.end)) for r in ranges for s in range(r.start, r.end, PULL_MAX)]
    pending: deque[tuple[QueueRange, asyncio.Task[Chunk]]] = deque()

    async def next_one() -> tuple[QueueRange, Chunk]:
        r, task = pending.popleft()
        return r, await task

    try:
        for r, lo, hi in bounds:
            pending.append((r, asyncio.ensure_future(_pull_chunk(admin, r, lo, hi, group, expr, retry_for))))
            if len(pending) >= in_flight:
                yield await next_one()
        while pending:
            yield await next_one()
    finally:
        for _, task in pending:
            task.cancel()


async def _pull_chunk(
    admin: AdminCore, r: QueueRange, lo: int, hi: int, group: str, expr: str, retry_for: float
) -> Chunk:
    chunk = Chunk(lo, hi)
    offset = lo
    header = PullMessageRequestHeader(
        group, r.topic, r.queue_id, lo, min(PULL_MAX, hi - lo), _PULL_FLAG_SUBSCRIPTION, 0,
        _SUSPEND_MS, expr, sub_version=0, expression_type="TAG", max_msg_bytes=INT_MAX, bname=r.broker,
    ).check()  # fmt: skip
    first: dict[str, str | None] = {**header.to_ext(), "ReqT": "0"}  # as the tools' pull consumer
    stuck = _Stuck(r, hi, retry_for)
    while offset < hi:
        # the chunk's next pulls differ from its first in these two fields only (both checked there:
        # an offset above it, a count below it); a pull answer brings tens of messages at most
        fields = {**first, _QUEUE_OFFSET: str(offset), _MAX_MSG_NUMS: str(min(PULL_MAX, hi - offset))}
        try:
            resp = await admin.invoke(r.addr, RequestCode.PULL_MESSAGE, fields, ok=_PULL_CODES)
        except RemoteCommandError as e:
            if e.code in _LASTING:
                raise RangeReadError(stuck.message(offset, _answer(e.code, e.remark, e.response))) from None
            await stuck.wait(offset, _answer(e.code, e.remark, e.response))
            continue
        except (RemotingError, TimeoutError, OSError) as e:
            await stuck.wait(offset, f"no answer ({e})")
            continue
        nxt = _ext_int(resp, "nextBeginOffset")
        if resp.code == _OFFSET_MOVED and offset < _ext_int(resp, "minOffset"):
            lost_to = min(hi, _ext_int(resp, "minOffset"))
            chunk.parts.append(Skip(offset, lost_to))
            offset = lost_to
            stuck.moved()
        elif resp.code in (ResponseCode.SUCCESS, _NO_MATCHED) and nxt > offset:
            if resp.code == ResponseCode.SUCCESS and resp.body:
                chunk.parts.append((offset, resp.body))
            offset = nxt
            stuck.moved()
        else:
            await stuck.wait(offset, _answer(resp.code, resp.remark, resp))
    return chunk


class _Stuck:
    """A chunk's pulls that do not move on: the pauses between tries, and the error at the end."""

    def __init__(self, r: QueueRange, hi: int, retry_for: float) -> None:
        self.r, self.hi, self.retry_for = r, hi, retry_for
        self.since: float | None = None
        self.tries = 0
        self.waited = 0.0

    def moved(self) -> None:
        self.since, self.tries = None, 0

    async def wait(self, offset: int, answer: str) -> None:
        """Pause before the next try, or raise when this offset has been tried for long enough."""
        loop = asyncio.get_running_loop()
        if self.since is None:
            self.since = loop.time()
            log.warning(
                "%s (broker at %s): the pull of offset %d answered %s; trying again for up to %g s",
                where(self.r), self.r.addr, offset, answer, self.retry_for,
            )  # fmt: skip
        self.tries += 1
        waited = self.waited = loop.time() - self.since
        if waited >= self.retry_for:
            raise RangeReadError(self.message(offset, answer))
        pause = min(_PAUSE_FIRST_S * 2 ** min(self.tries - 1, 10), _PAUSE_MOST_S)
        await asyncio.sleep(min(pause, self.retry_for - waited))

    def message(self, offset: int, answer: str) -> str:
        r = self.r
        return (
            f"{where(r)} (broker at {r.addr}): offsets {offset}..{self.hi - 1} of the planned "
            f"{r.start}..{r.end - 1} could not be read ({max(self.tries, 1)} pull(s) over "
            f"{self.waited:.1f} s); the broker's last answer: {answer}"
        )


def _answer(code: int, remark: str | None, resp: RemotingCommand | None) -> str:
    """A pull answer as the error shows it: code, name, remark and the offsets it gave."""
    text = f"{response_name(code)} ({code})"
    if remark:
        text += f" {remark!r}"
    if resp is not None:
        given = [f"{k} {resp.ext(k)}" for k in ("nextBeginOffset", "minOffset", "maxOffset") if resp.ext(k)]
        if given:
            text += ", " + ", ".join(given)
    return text


def _ext_int(resp: RemotingCommand, name: str) -> int:
    value = resp.ext(name)
    try:
        return int(value or 0)
    except ValueError:
        raise ProtocolError(f"PULL_MESSAGE answer field {name} is not a number: {value!r}") from None
