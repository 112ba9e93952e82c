"""Produce rates from queue max-offset steps: per queue, per topic or per broker, and over time.

A queue's rate is the messages written over the usable steps of the window divided by their seconds
(resets left out, see :mod:`.common`); a topic's or broker's rate is the sum of its queues'.
``last_rate`` and ``peak_rate`` come from the per-run series: the rate of the latest step and the
highest one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from pyspark.sql import functions as F

from mqadmin.pipeline.jobs.common import member_window, offset_steps, rate, span_series, without_system_topics

if TYPE_CHECKING:
    from pyspark.sql import DataFrame

__all__ = ["queue_rates", "throughput", "throughput_series"]

_QUEUE = ["cluster", "broker", "topic", "queue_id"]
_SCOPES: dict[str, list[str]] = {"topic": ["topic"], "broker": ["cluster", "broker"]}


def _offsets(queue_offsets: DataFrame, include_system: bool) -> DataFrame:
    return queue_offsets if include_system else without_system_topics(queue_offsets)


def _steps(queue_offsets: DataFrame, include_system: bool) -> DataFrame:
    """Each queue's rows in time order with their steps and step rates: the one sort shared by all."""
    steps = offset_steps(_offsets(queue_offsets, include_system), _QUEUE, {"max_offset": "produced"})
    step_rate = F.try_divide(F.col("produced"), F.col("dt"))
    return steps.withColumn("rate", F.when(F.col("produced_ok"), step_rate))


def queue_rates(queue_offsets: DataFrame, *, include_system: bool = False) -> DataFrame:
    """Per queue: ``messages`` written and ``produce_rate`` over the window, latest offsets, activity."""
    return _queue_rates(_steps(queue_offsets, include_system))


def _queue_rates(steps: DataFrame) -> DataFrame:
    msgs, secs = rate("produced")
    return steps.groupBy(*_QUEUE).agg(
        msgs.alias("messages"),  # null when the queue has no usable step (seen once)
        F.try_divide(msgs, secs).alias("produce_rate"),
        F.max_by("max_offset", "t").alias("max_offset"),
        F.max_by("min_offset", "t").alias("min_offset"),
        F.max("max_offset").alias("highest_offset"),
        F.max("last_update_time").alias("last_update_time"),
        F.count("*").alias("snapshots"),
        F.min("time").alias("window_start"),
        F.max("time").alias("window_end"),
    )


def throughput_series(
    queue_offsets: DataFrame, *, by: Literal["topic", "broker"] = "topic", include_system: bool = False
) -> DataFrame:
    """Produce rate per scope and run (``<scope columns>, run_time, rate``), runs with a usable step only.

    A run a queue missed (its broker did not answer) gets the rate of the queue's next step, which
    spans the gap.
    """
    return _series(_steps(queue_offsets, include_system), _SCOPES[by])


def _series(steps: DataFrame, keys: list[str]) -> DataFrame:
    members = [c for c in _QUEUE if c not in keys]
    return span_series(steps, keys, members, "rate", member_window(_QUEUE))


def throughput(
    queue_offsets: DataFrame, *, by: Literal["topic", "broker"] = "topic", include_system: bool = False
) -> DataFrame:
    """One row per topic (or broker): rates, messages written, queues, latest write; busiest first."""
    if by not in _SCOPES:
        raise ValueError(f"by must be one of {', '.join(_SCOPES)}")
    keys = _SCOPES[by]
    steps = _steps(queue_offsets, include_system)
    q = _queue_rates(steps)
    if by == "broker":
        other_name, other = "topics", F.count_distinct("topic")
    else:
        other_name, other = "brokers", F.count_distinct("cluster", "broker")
    per = q.groupBy(*keys).agg(
        other.alias(other_name),
        F.count("*").alias("queues"),
        F.sum("messages").alias("messages"),
        F.coalesce(F.sum("produce_rate"), F.lit(0.0)).alias("produce_rate"),
        F.sum("max_offset").alias("total_offset"),
        F.max("last_update_time").alias("last_write"),
        F.min("window_start").alias("window_start"),
        F.max("window_end").alias("window_end"),
    )
    series = (
        _series(steps, keys)
        .groupBy(*keys)
        .agg(F.max_by("rate", "run_time").alias("last_rate"), F.max("rate").alias("peak_rate"))
    )
    out = per.join(series, keys, "left")
    return out.select(
        *keys,
        other_name,
        "queues",
        "messages",
        F.round("produce_rate", 3).alias("produce_rate"),
        F.round(F.coalesce("last_rate", F.lit(0.0)), 3).alias("last_rate"),
        F.round(F.coalesce("peak_rate", F.lit(0.0)), 3).alias("peak_rate"),
        "total_offset",
        "last_write",
        "window_start",
        "window_end",
    ).orderBy(F.col("produce_rate").desc(), *keys)
