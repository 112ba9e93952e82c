"""The snapshot tables as pyarrow schemas: what one collector run records about a cluster.

Common columns:

``time``
    When the broker's answer arrived (UTC, ms). Rates divide offset deltas by deltas of this
    column, so it is taken per answer rather than per run.
``run_time``
    When the run started (UTC, ms); the same for every row of a run, so the rows of one snapshot
    group together (lag over time sums a group's queues per run).
``cluster``, ``broker``
    The cluster name and the broker name (not its address) as the name server lists them.

Tables (one directory each, see :mod:`mqadmin.pipeline.layout`):

``queue_offsets``
    One row per message queue of every topic on every broker (GET_TOPIC_STATS_INFO):
    ``min_offset``/``max_offset`` are the queue's logical offsets (``max_offset`` = messages ever
    written to it), ``last_update_time`` the store time of its newest message (null when empty).
``group_offsets``
    One row per consumer group and queue it has an offset on (GET_CONSUME_STATS):
    ``broker_offset`` is the queue's max offset, ``consumer_offset`` the group's committed offset,
    ``lag`` their difference (never negative), ``last_consume_time`` the store time of the last
    consumed message (null when none). A group the broker knows but that has committed no offset
    gets one row with null topic, queue and offsets, so idle groups are visible too.
``broker_stats``
    One row per key of the broker's runtime table (GET_BROKER_RUNTIME_INFO), values as the broker
    sent them (strings: ``putTps`` is ``"12.0 11.5 11.9"``), plus ``broker_addr``.
``missing``
    What a run could not get: one row per broker that did not answer (``what`` = ``broker``) or
    per call that failed or ran past the deadline (``what`` = ``topic_stats``, ``consume_stats``,
    ``list_groups``, ``runtime_info``, ``topic_list``; ``target`` = the topic or group). Jobs read it
    to tell a broker that was down from one whose offsets stood still.
"""

from __future__ import annotations

import pyarrow as pa

from mqadmin.pipeline.layout import BROKER_STATS, GROUP_OFFSETS, MISSING, QUEUE_OFFSETS

__all__ = ["BROKER_STATS_SCHEMA", "GROUP_OFFSETS_SCHEMA", "MISSING_SCHEMA", "QUEUE_OFFSETS_SCHEMA", "SCHEMAS"]

TIMESTAMP = pa.timestamp("ms", tz="UTC")


def _field(name: str, type_: pa.DataType, doc: str, nullable: bool = True) -> pa.Field:
    return pa.field(name, type_, nullable=nullable, metadata={"doc": doc})


def _common(broker_nullable: bool = False) -> list[pa.Field]:
    return [
        _field("time", TIMESTAMP, "when the broker's answer arrived (UTC)", nullable=False),
        _field(
            "run_time", TIMESTAMP, "when the snapshot run started (UTC); one value per run", nullable=False
        ),
        _field("cluster", pa.string(), "cluster name"),
        _field("broker", pa.string(), "broker name", nullable=broker_nullable),
    ]


QUEUE_OFFSETS_SCHEMA = pa.schema(
    [
        *_common(),
        _field("topic", pa.string(), "topic name", nullable=False),
        _field("queue_id", pa.int32(), "queue id on the broker", nullable=False),
        _field("min_offset", pa.int64(), "oldest logical offset still stored"),
        _field("max_offset", pa.int64(), "next logical offset: messages ever written to the queue"),
        _field("last_update_time", TIMESTAMP, "store time of the newest message; null when empty"),
    ],
    metadata={"doc": "per-queue offsets of every topic (GET_TOPIC_STATS_INFO)"},
)

GROUP_OFFSETS_SCHEMA = pa.schema(
    [
        *_common(),
        _field("group", pa.string(), "consumer group", nullable=False),
        _field("topic", pa.string(), "topic; null for a group without committed offsets"),
        _field("queue_id", pa.int32(), "queue id; null for a group without committed offsets"),
        _field("broker_offset", pa.int64(), "the queue's max offset"),
        _field("consumer_offset", pa.int64(), "the group's committed offset"),
        _field("lag", pa.int64(), "broker_offset - consumer_offset, never negative"),
        _field("last_consume_time", TIMESTAMP, "store time of the last consumed message; null when none"),
    ],
    metadata={"doc": "per-queue progress of every consumer group (GET_CONSUME_STATS)"},
)

BROKER_STATS_SCHEMA = pa.schema(
    [
        *_common(),
        _field("broker_addr", pa.string(), "address asked (host:port)"),
        _field("key", pa.string(), "runtime table key", nullable=False),
        _field("value", pa.string(), "value as the broker sent it"),
    ],
    metadata={"doc": "broker runtime table (GET_BROKER_RUNTIME_INFO)"},
)

MISSING_SCHEMA = pa.schema(
    [
        *_common(broker_nullable=True),
        _field("broker_addr", pa.string(), "address asked (host:port); null when none was known"),
        _field(
            "what", pa.string(), "broker, runtime_info, topic_stats, list_groups, consume_stats, topic_list"
        ),
        _field("target", pa.string(), "topic or group of a failed call; null for a whole broker"),
        _field("error", pa.string(), "why: the transport error or the broker's answer"),
    ],
    metadata={"doc": "brokers and calls a run could not get"},
)

SCHEMAS: dict[str, pa.Schema] = {
    QUEUE_OFFSETS: QUEUE_OFFSETS_SCHEMA,
    GROUP_OFFSETS: GROUP_OFFSETS_SCHEMA,
    BROKER_STATS: BROKER_STATS_SCHEMA,
    MISSING: MISSING_SCHEMA,
}
