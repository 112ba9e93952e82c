"""How evenly producers spread over a topic's queues, and which queues get nothing.

Per topic: the per-queue produce rates (see :func:`.throughput.queue_rates`), their mean, max and
min, ``skew`` = max / mean (1.0 is perfectly even; null when nothing was written), the hottest
queue, ``unwritten`` = the queues that received no message during the window (``broker:queue``,
listed) and ``empty`` = how many have never held one. A queue is labelled ``broker:queue_id``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pyspark.sql import functions as F

from mqadmin.pipeline.jobs.throughput import queue_rates

if TYPE_CHECKING:
    from pyspark.sql import DataFrame

__all__ = ["queue_skew", "skew"]


def _label() -> F.Column:
    return F.concat_ws(":", F.col("broker"), F.col("queue_id").cast("string"))


def _measured(queue_offsets: DataFrame, include_system: bool) -> DataFrame:
    q = queue_rates(queue_offsets, include_system=include_system)
    # a queue seen in one snapshot only has no rate (0 here) and is not judged unwritten
    return q.withColumn("rate", F.coalesce(F.col("produce_rate"), F.lit(0.0))).withColumn("queue", _label())


def skew(queue_offsets: DataFrame, *, include_system: bool = False) -> DataFrame:
    """One row per topic, most skewed first."""
    q = _measured(queue_offsets, include_system)
    unwritten = F.when(F.col("messages") == 0, F.col("queue"))
    per = q.groupBy("topic").agg(
        F.count("*").alias("queues"),
        F.sum("rate").alias("produce_rate"),
        F.avg("rate").alias("mean_rate"),
        F.max("rate").alias("max_rate"),
        F.min("rate").alias("min_rate"),
        F.max_by(F.when(F.col("rate") > 0, F.col("queue")), "rate").alias("hot_queue"),
        F.count_if(F.col("messages") == 0).alias("unwritten_queues"),
        F.concat_ws(",", F.sort_array(F.collect_list(unwritten))).alias("unwritten"),
        F.count_if(F.col("highest_offset") <= 0).alias("empty"),
    )
    ratio = F.try_divide(F.col("max_rate"), F.col("mean_rate"))
    out = per.withColumn("skew", F.when(F.col("mean_rate") > 0, ratio))
    return out.select(
        "topic",
        "queues",
        F.round("produce_rate", 3).alias("produce_rate"),
        F.round("mean_rate", 3).alias("mean_rate"),
        F.round("max_rate", 3).alias("max_rate"),
        F.round("min_rate", 3).alias("min_rate"),
        F.round("skew", 3).alias("skew"),
        "hot_queue",
        "unwritten_queues",
        "unwritten",
        "empty",
    ).orderBy(F.col("skew").desc_nulls_last(), F.col("unwritten_queues").desc(), "topic")


def queue_skew(queue_offsets: DataFrame, *, include_system: bool = False) -> DataFrame:
    """One row per queue: its rate, its share of the topic and its ratio to the topic's mean."""
    q = _measured(queue_offsets, include_system)
    totals = q.groupBy("topic").agg(F.sum("rate").alias("_total"), F.avg("rate").alias("_mean"))
    out = q.join(totals, "topic")
    return out.select(
        "topic",
        "cluster",
        "broker",
        "queue_id",
        "messages",
        F.round("rate", 3).alias("produce_rate"),
        F.round(F.when(F.col("_total") > 0, F.try_divide(F.col("rate"), F.col("_total"))), 4).alias("share"),
        F.round(F.when(F.col("_mean") > 0, F.try_divide(F.col("rate"), F.col("_mean"))), 3).alias("ratio"),
        (F.col("messages") == 0).alias("unwritten"),
        (F.col("highest_offset") <= 0).alias("empty"),
        "max_offset",
    ).orderBy("topic", "broker", "queue_id")
