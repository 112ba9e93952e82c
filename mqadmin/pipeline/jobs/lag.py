"""Consumer lag per group and topic: now, over the window, its trend, and whether it will drain.

Figures, per (group, topic), summed over the group's queues on every broker:

``lag``, ``lag_start``, ``lag_max``
    Lag at each queue's latest snapshot; the group's total lag at the first run of the window; the
    highest total seen in a run.
``lag_trend``
    Least-squares slope of the per-run total lag against time, in messages per second (positive:
    falling behind).
``produce_rate``, ``consume_rate``
    Messages per second over the window, from broker-offset and consumer-offset steps between
    snapshots of each queue (steps that go backwards are resets and are left out, see
    :mod:`.common`), summed over the queues.
``drain_seconds``, ``drain``
    ``lag / (consume_rate - produce_rate)`` when the consumer gains; ``never`` when it does not (or
    is stuck); ``steady`` when both rates agree within 1 % (the lag is what is in flight); ``0s``
    when there is no lag.
``stuck``, ``stalled_seconds``, ``stuck_queues``
    A queue is stuck when, at its latest snapshot, it has lag and its consumer offset has not moved
    for at least ``stuck_after`` seconds while there was lag (default: 5 minutes, or the whole
    window when that is shorter; at least two snapshots are needed). The group is stuck on a topic
    when any of its queues is.
``state``
    ``ok`` (no lag), ``draining``, ``steady``, ``growing``, ``stalled`` (lag left, no traffic either
    way), ``stuck``, or ``unknown`` (a single snapshot: no rates).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pyspark.sql import Column
from pyspark.sql import functions as F

from mqadmin.admin.stuck import DEFAULT_STUCK_AFTER, queue_stuck
from mqadmin.admin.tablenames import GROUP_NAME_REGEX
from mqadmin.pipeline.jobs.common import (
    duration_text,
    level_change,
    level_series,
    offset_steps,
    rate,
    running_level,
    seconds,
    without_system_groups,
    without_system_topics,
)

if TYPE_CHECKING:
    from pyspark.sql import DataFrame

__all__ = ["DEFAULT_STUCK_AFTER", "RATE_TOLERANCE", "lag", "lag_series"]

RATE_TOLERANCE = 0.01
_QUEUE = ["cluster", "broker", "group", "topic", "queue_id"]
_GROUP_TOPIC = ["group", "topic"]


def _offsets(group_offsets: DataFrame, include_system: bool) -> DataFrame:
    # a group no request may name (blank, say) is never a consumer's, even with --all
    askable = F.col("group").rlike(GROUP_NAME_REGEX)
    df = group_offsets.where(F.col("topic").isNotNull() & F.col("queue_id").isNotNull() & askable)
    return df if include_system else without_system_topics(without_system_groups(df))


def _steps(df: DataFrame) -> DataFrame:
    """Each queue's rows in time order with their steps: the one sort the lag figures share."""
    extra = {"next_t": lambda w: F.lead("t").over(w), "prev_lag": lambda w: F.lag("lag").over(w)}
    steps = offset_steps(df, _QUEUE, {"consumer_offset": "consumed", "broker_offset": "produced"}, extra)
    return (
        # rows from which a stall can be measured: the first one, a move of the consumer, or no lag
        steps.withColumn(
            "anchor", F.col("consumed").isNull() | (F.col("consumed") != 0) | (F.col("lag") <= 0)
        )
        # the stall starts at an anchor with lag, or at the next snapshot after an anchor without lag
        .withColumn("stall_from", F.when(F.col("lag") > 0, F.col("t")).otherwise(F.col("next_t")))
    )


def _queues_and_runs(steps: DataFrame, stuck_after: float | None) -> DataFrame:
    """Both aggregations of the steps in one pass (grouping sets), so the sort is done once.

    Rows with ``_per_run`` false are queues (``run_time`` null) with their figures; rows with
    ``_per_run`` true are (group, topic, run) with ``_level``, the group's total lag at that run.
    """
    c_msgs, c_secs = rate("consumed")
    p_msgs, p_secs = rate("produced")
    rows = steps.groupingSets([_QUEUE, [*_GROUP_TOPIC, "run_time"]], *_QUEUE, "run_time").agg(
        (F.grouping("run_time") == 0).alias("_per_run"),
        F.try_divide(c_msgs, c_secs).alias("c_rate"),
        F.try_divide(p_msgs, p_secs).alias("p_rate"),
        F.max_by("lag", "t").alias("lag_now"),
        F.min("t").alias("t_first"),
        F.max("t").alias("t_last"),
        F.min("time").alias("first_time"),
        F.max("time").alias("last_time"),
        F.max_by("stall_from", F.when(F.col("anchor"), F.col("t"))).alias("stall_from"),
        F.max("last_consume_time").alias("last_consume_time"),
        F.sum(level_change("lag", "prev_lag")).alias("_change"),
    )
    span = F.col("t_last") - F.col("t_first")
    threshold = F.lit(stuck_after) if stuck_after is not None else F.least(F.lit(DEFAULT_STUCK_AFTER), span)
    stalled = F.coalesce(F.col("t_last") - F.col("stall_from"), F.lit(0.0))
    return rows.withColumns(
        {
            "stalled": stalled,
            "queue_stuck": queue_stuck(F.col("lag_now"), stalled, span, threshold),
            "_level": running_level([*_GROUP_TOPIC, "_per_run"], "_change"),
        }
    )


def lag_series(group_offsets: DataFrame, *, include_system: bool = False) -> DataFrame:
    """Total lag per (group, topic) and run: ``group, topic, run_time, lag``.

    A queue missing from a run (its broker did not answer) counts with its last known lag.
    """
    steps = _steps(_offsets(group_offsets, include_system))
    return level_series(steps, _GROUP_TOPIC, "lag", previous="prev_lag")


def lag(
    group_offsets: DataFrame, *, stuck_after: float | None = None, include_system: bool = False
) -> DataFrame:
    """One row per (group, topic) with the figures of the module docstring, largest lag first."""
    rows = _queues_and_runs(_steps(_offsets(group_offsets, include_system)), stuck_after)

    def queues(c: Column) -> Column:
        return F.when(~F.col("_per_run"), c)

    def runs(c: Column) -> Column:
        return F.when(F.col("_per_run"), c)

    out = rows.groupBy(*_GROUP_TOPIC).agg(
        F.count_distinct(queues(F.col("cluster")), F.col("broker")).alias("brokers"),
        F.count(queues(F.lit(1))).alias("queues"),
        F.sum(queues(F.col("lag_now"))).alias("lag"),
        F.coalesce(F.sum(queues(F.col("p_rate"))), F.lit(0.0)).alias("produce_rate"),
        F.coalesce(F.sum(queues(F.col("c_rate"))), F.lit(0.0)).alias("consume_rate"),
        F.max(queues(F.col("stalled"))).alias("stalled_seconds"),
        F.count_if(queues(F.col("queue_stuck"))).alias("stuck_queues"),
        F.max(queues(F.col("last_consume_time"))).alias("last_consume_time"),
        F.min(queues(F.col("first_time"))).alias("window_start"),
        F.max(queues(F.col("last_time"))).alias("window_end"),
        F.min_by(runs(F.col("_level")), runs(F.col("run_time"))).alias("lag_start"),
        F.max(runs(F.col("_level"))).alias("lag_max"),
        F.coalesce(
            F.regr_slope(runs(F.col("_level")).cast("double"), runs(seconds("run_time"))), F.lit(0.0)
        ).alias("lag_trend"),
        F.count(runs(F.lit(1))).alias("snapshots"),
    )
    consume, produce, lag_now = F.col("consume_rate"), F.col("produce_rate"), F.col("lag")
    net = consume - produce
    tol = F.lit(RATE_TOLERANCE) * F.greatest(consume, produce)
    stuck = F.col("stuck_queues") > 0
    unknown = F.col("snapshots") < 2
    state = (
        F.when(unknown, "unknown")
        .when(stuck, "stuck")
        .when(lag_now <= 0, "ok")
        .when(net > tol, "draining")
        .when(net < -tol, "growing")
        .when(F.greatest(consume, produce) <= 0, "stalled")
        .otherwise("steady")
    )
    out = out.withColumn("state", state).withColumn("stuck", stuck)
    drain_seconds = (
        F.when(unknown | stuck, F.lit(None).cast("double"))
        .when(lag_now <= 0, F.lit(0.0))
        .when(net > tol, F.try_divide(lag_now.cast("double"), net))
    )
    out = out.withColumn("drain_seconds", drain_seconds)
    drain = (
        F.when(F.col("drain_seconds").isNotNull(), duration_text(F.col("drain_seconds")))
        .when(F.col("state") == "steady", "steady")
        .when(unknown, F.lit(None).cast("string"))
        .otherwise("never")
    )
    out = out.withColumn("drain", drain)
    return out.select(
        "group",
        "topic",
        "brokers",
        "queues",
        "lag",
        "lag_start",
        "lag_max",
        F.round("lag_trend", 3).alias("lag_trend"),
        F.round("produce_rate", 3).alias("produce_rate"),
        F.round("consume_rate", 3).alias("consume_rate"),
        F.round("drain_seconds", 1).alias("drain_seconds"),
        "drain",
        "state",
        "stuck",
        F.round("stalled_seconds", 1).alias("stalled_seconds"),
        "stuck_queues",
        "last_consume_time",
        "snapshots",
        "window_start",
        "window_end",
    ).orderBy(F.col("lag").desc(), "group", "topic")
