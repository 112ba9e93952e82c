"""The row of one message, as every reader of ours gives it: the Arrow schema of the in-process and
column decoders, and the same as the Spark DDL the data sources declare."""

from __future__ import annotations

import pyarrow as pa

__all__ = ["MESSAGE_DDL", "MESSAGE_SCHEMA"]

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
