"""Reading one queue range from its broker, as message rows and Arrow record batches.

Pulls go to the broker that holds the queue through the admin API's PULL_MESSAGE, as the Java tools'
pull consumer sends it (subscription in the header: nothing is committed, no consumer is registered,
nothing is held open). Rows outside the
range's store-time window are dropped, which makes a time range exact.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator, Iterator
from datetime import UTC, datetime

import pyarrow as pa

from mqadmin.admin.api import MQAdmin
from mqadmin.admin.messages import TOOLS_CONSUMER, MessageOps
from mqadmin.admin.settings import AdminSettings
from mqadmin.pipeline.export.ranges import QueueRange
from mqadmin.protocol.bodies.message_queue import MessageQueue
from mqadmin.protocol.message import MessageConst, MessageExt

__all__ = ["DEFAULT_GROUP", "MESSAGE_DDL", "MESSAGE_SCHEMA", "pull_range", "read_range", "to_batch"]

DEFAULT_GROUP = TOOLS_CONSUMER
"""A group every broker has; pulling with it commits nothing."""

PULL_BATCH = 32
"""Messages per PULL_MESSAGE (the Java tools' batch)."""

_PULL_ONLY = frozenset({MessageConst.PROPERTY_MIN_OFFSET, MessageConst.PROPERTY_MAX_OFFSET})
"""Properties a pull adds to each message (the queue's bounds at that moment): not the message's own."""

_TS = pa.timestamp("us", tz="UTC")
MESSAGE_SCHEMA = pa.schema(
    [
        pa.field("topic", pa.string()),
        pa.field("broker", pa.string()),
        pa.field("queue_id", pa.int32()),
        pa.field("queue_offset", pa.int64()),
        pa.field("msg_id", pa.string()),
        pa.field("offset_msg_id", pa.string()),
        pa.field("keys", pa.string()),
        pa.field("tags", pa.string()),
        pa.field("born_timestamp", _TS),
        pa.field("born_host", pa.string()),
        pa.field("store_timestamp", _TS),
        pa.field("store_host", pa.string()),
        pa.field("reconsume_times", pa.int32()),
        pa.field("properties", pa.map_(pa.string(), pa.string())),
        pa.field("body", pa.binary()),
    ]
)
"""One row per message: ``msg_id`` is the client's id (the unique key, else the offset id)."""

MESSAGE_DDL = (
    "topic STRING, broker STRING, queue_id INT, queue_offset BIGINT, msg_id STRING, offset_msg_id STRING, "
    "keys STRING, tags STRING, born_timestamp TIMESTAMP, born_host STRING, store_timestamp TIMESTAMP, "
    "store_host STRING, reconsume_times INT, properties MAP<STRING, STRING>, body BINARY"
)


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


def read_range(
    settings: AdminSettings, r: QueueRange, group: str = DEFAULT_GROUP, batch_rows: int = 4096
) -> Iterator[pa.RecordBatch]:
    """Synchronous reading of one range (a Spark task), in record batches of about ``batch_rows``."""
    loop = asyncio.new_event_loop()
    admin = MQAdmin(settings)
    pulls = pull_range(admin, r, group)
    pending: list[MessageExt] = []
    try:
        while True:
            try:
                got = loop.run_until_complete(anext(pulls))
            except StopAsyncIteration:
                break
            pending.extend(got)
            if len(pending) >= batch_rows:
                yield to_batch(pending, r.broker)
                pending = []
        if pending:
            yield to_batch(pending, r.broker)
    finally:
        loop.run_until_complete(pulls.aclose())
        loop.run_until_complete(admin.close())
        loop.close()
