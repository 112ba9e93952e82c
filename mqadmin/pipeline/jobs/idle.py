"""Topics nobody writes to and groups that consume nothing over the window.

A topic is idle when none of its queues moved forward between snapshots; a group is idle when its
consumer offset moved forward on no queue (a group the broker knows but that has never committed an
offset is idle too). At least two snapshots are needed to judge. ``last_activity`` is the broker's
own record: the store time of the topic's newest message, or of the last message the group consumed;
``idle_for`` counts from it to the end of the window.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pyspark.sql import functions as F

from mqadmin.pipeline.jobs.common import (
    duration_text,
    offset_steps,
    rate,
    seconds,
    without_system_groups,
    without_system_topics,
)
from mqadmin.pipeline.jobs.throughput import queue_rates

if TYPE_CHECKING:
    from pyspark.sql import DataFrame

__all__ = ["idle", "idle_groups", "idle_topics"]

_QUEUE = ["cluster", "broker", "group", "topic", "queue_id"]


def _idle_for(last: str, end: str) -> F.Column:
    return F.when(F.col(last).isNotNull(), seconds(end) - seconds(last))


def idle_topics(queue_offsets: DataFrame, *, include_system: bool = False) -> DataFrame:
    q = queue_rates(queue_offsets, include_system=include_system)
    snapshots = queue_offsets.groupBy("topic").agg(F.count_distinct("run_time").alias("snapshots"))
    per = q.groupBy("topic").agg(
        F.count_distinct("cluster", "broker").alias("brokers"),
        F.sum("messages").alias("written"),
        F.sum("max_offset").alias("messages"),
        F.max("last_update_time").alias("last_activity"),
        F.max("window_end").alias("window_end"),
    )
    per = per.join(snapshots, "topic")
    idle = per.where((F.col("written") == 0) & (F.col("snapshots") >= 2))
    return idle.select(
        F.lit("topic").alias("kind"),
        F.col("topic").alias("name"),
        "brokers",
        "snapshots",
        "last_activity",
        _idle_for("last_activity", "window_end").alias("idle_seconds"),
        "messages",
        F.lit(None).cast("long").alias("lag"),
    )


def idle_groups(group_offsets: DataFrame, *, include_system: bool = False) -> DataFrame:
    df = group_offsets if include_system else without_system_groups(group_offsets)
    with_topic = df.where(F.col("topic").isNotNull())
    if not include_system:
        with_topic = without_system_topics(with_topic)
    steps = offset_steps(with_topic, _QUEUE, {"consumer_offset": "consumed"})
    msgs, _ = rate("consumed")
    per_queue = steps.groupBy(*_QUEUE).agg(
        F.coalesce(msgs, F.lit(0)).alias("consumed"),
        F.max_by("lag", "t").alias("lag"),
        F.max("last_consume_time").alias("last_activity"),
    )
    per = per_queue.groupBy("group").agg(
        F.count_distinct("cluster", "broker").alias("brokers"),
        F.sum("consumed").alias("consumed"),
        F.sum("lag").alias("lag"),
        F.max("last_activity").alias("last_activity"),
    )
    # groups known to a broker but without any committed offset
    seen = df.groupBy("group").agg(
        F.count_distinct("run_time").alias("snapshots"),
        F.max("time").alias("window_end"),
        F.count_distinct(F.when(F.col("topic").isNull(), F.col("broker"))).alias("_bare_brokers"),
    )
    out = seen.join(per, "group", "left")
    idle = out.where((F.col("snapshots") >= 2) & F.coalesce(F.col("consumed") == 0, F.lit(True)))
    return idle.select(
        F.lit("group").alias("kind"),
        F.col("group").alias("name"),
        F.coalesce(F.col("brokers"), F.col("_bare_brokers")).alias("brokers"),
        "snapshots",
        "last_activity",
        _idle_for("last_activity", "window_end").alias("idle_seconds"),
        F.lit(None).cast("long").alias("messages"),
        F.coalesce(F.col("lag"), F.lit(0)).alias("lag"),
    )


def idle(queue_offsets: DataFrame, group_offsets: DataFrame, *, include_system: bool = False) -> DataFrame:
    """Idle topics, then idle groups: ``kind, name, brokers, snapshots, last_activity, idle_for, ...``."""
    both = idle_topics(queue_offsets, include_system=include_system).unionByName(
        idle_groups(group_offsets, include_system=include_system)
    )
    return both.select(
        "kind",
        "name",
        "brokers",
        "snapshots",
        "last_activity",
        duration_text(F.col("idle_seconds")).alias("idle_for"),
        F.round("idle_seconds", 1).alias("idle_seconds"),
        "messages",
        "lag",
    ).orderBy(F.col("kind").desc(), "name")
