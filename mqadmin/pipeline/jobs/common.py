"""Column arithmetic the jobs share: offset steps between snapshots, rates, name filters, durations.

Offsets only grow while nothing unusual happens. A step that goes backwards (the broker lost its
data and restarted, the topic was re-created, a group's offset was reset) is a *reset*: that interval
counts neither messages nor seconds, and the next interval starts a new segment from the new value.
So a rate is "messages over the intervals where the counter moved forward or stood still", never
negative and not inflated by the jump.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

from pyspark.sql import Column, Window
from pyspark.sql import functions as F
from pyspark.sql.window import WindowSpec

from mqadmin.pipeline.names import (
    REPLY_TOPIC_SUFFIX,
    SYSTEM_GROUP_PREFIXES,
    SYSTEM_GROUPS,
    SYSTEM_TOPIC_PREFIXES,
    SYSTEM_TOPICS,
)

if TYPE_CHECKING:
    from pyspark.sql import DataFrame

__all__ = [
    "duration_text",
    "level_change",
    "level_series",
    "member_window",
    "offset_steps",
    "rate",
    "running_level",
    "seconds",
    "span_series",
    "without_system_groups",
    "without_system_topics",
]


def seconds(col: str = "time") -> Column:
    """A timestamp column as fractional epoch seconds (exact to the microsecond)."""
    return F.unix_micros(F.col(col)) / F.lit(1_000_000.0)


def offset_steps(
    df: DataFrame,
    keys: Sequence[str],
    offsets: Mapping[str, str],
    extra: Mapping[str, Callable[[WindowSpec], Column]] | None = None,
) -> DataFrame:
    """Add, per row, the step since the previous row of the same ``keys`` (ordered by ``time``).

    Adds ``t`` (epoch seconds), ``dt`` (seconds since the previous row), and for each
    ``offset column -> name``: ``name`` (the offset delta) and ``name_ok`` (true when the step is
    usable for a rate: a previous row exists, time moved on, and the offset did not go backwards).
    ``extra`` adds more window columns (``name -> window -> column``) computed in the same pass:
    every window function here runs in one sorted sweep over the rows.
    """
    w = member_window(keys)
    out = df.withColumn("t", seconds("time"))
    windowed = [F.lag("t").over(w).alias("_prev_t")]
    windowed += [F.lag(col).over(w).alias(f"_prev_{name}") for col, name in offsets.items()]
    windowed += [make(w).alias(name) for name, make in (extra or {}).items()]
    out = out.select("*", *windowed).withColumn("dt", F.col("t") - F.col("_prev_t"))
    for col, name in offsets.items():
        out = out.withColumn(name, F.col(col) - F.col(f"_prev_{name}"))
        out = out.withColumn(
            f"{name}_ok",
            F.coalesce(F.col(name).isNotNull() & (F.col(name) >= 0) & (F.col("dt") > 0), F.lit(False)),
        )
    return out.drop("_prev_t", *[f"_prev_{name}" for name in offsets.values()])


def member_window(keys: Sequence[str]) -> WindowSpec:
    """The per-member window every step computation uses: one shuffle and sort serve them all.

    A member is named by two 64-bit hashes of its keys (and of which keys are null) rather than by
    the keys themselves, so the sort compares numbers only: comparing names that often share a long
    prefix (``DefaultCluster``, ``GID_...``) took about 15 % of the lag job on 10M rows. Two members
    of a million share both hashes with a chance below 1e-26; the keys stay on every row.
    """
    nulls = F.lit(0)
    for i, k in enumerate(keys):
        nulls = nulls + F.isnull(F.col(k)).cast("int") * F.lit(1 << i)
    name = [F.xxhash64(nulls, *keys), F.xxhash64(F.lit("member"), nulls, *keys)]
    return Window.partitionBy(*name).orderBy("t")


def level_change(value: str, previous: str) -> Column:
    """How much a member's level moved at this row: ``value`` minus the member's ``previous`` one.

    Summed per run and accumulated over the runs (:func:`running_level`), the changes give the sum
    of every member's latest level, and a member missing from a run still counts with its last one.
    """
    return F.coalesce(F.col(value), F.lit(0)) - F.coalesce(F.col(previous), F.lit(0))


def running_level(scope: Sequence[str], change: str) -> Column:
    """The running sum of ``change`` over the runs of each ``scope`` (rows ordered by ``run_time``)."""
    upto = (
        Window.partitionBy(*scope)
        .orderBy("run_time")
        .rowsBetween(Window.unboundedPreceding, Window.currentRow)
    )
    return F.sum(change).over(upto)


def level_series(df: DataFrame, scope: Sequence[str], value: str, previous: str) -> DataFrame:
    """Per (scope, run): the sum over members of each member's latest ``value`` at or before the run.

    A broker that did not answer a run leaves its queues out of that run; summing only what is there
    would show a dip that never happened, so a member missing from a run counts with its last value
    (lag is a level). Computed from each member's changes, accumulated over the scope's runs: one
    pass over the rows, no grid of runs by members. ``previous`` names the column holding the
    member's previous value (computed with the rows' other window columns, see :func:`offset_steps`).
    Returns ``scope, run_time, value``.
    """
    per_run = df.groupBy(*scope, "run_time").agg(F.sum(level_change(value, previous)).alias("_d"))
    return per_run.select(*scope, "run_time", running_level(scope, "_d").alias(value))


def span_series(
    df: DataFrame, scope: Sequence[str], member: Sequence[str], value: str, window: WindowSpec | None = None
) -> DataFrame:
    """Per (scope, run): the sum over members of the ``value`` of the step that spans the run.

    A member's value at run r (a rate over the step from its previous row) covers every run of the
    scope after that previous row, up to r: a run the member missed gets the rate of the step that
    bridges it. Runs no member's step covers (the first one) are left out. Computed like
    :func:`level_series`, from where each member's value starts and stops applying (``window``
    orders each member's rows; default: by run). Returns ``scope, run_time, value``.
    """
    w = window if window is not None else Window.partitionBy(*scope, *member).orderBy("run_time")
    x = F.col(value)
    prev_x = F.lag(x).over(w)
    rows = df.select(
        *scope,
        "run_time",
        F.lag("run_time").over(w).alias("_prev"),
        F.lead("run_time").over(w).isNull().alias("_last"),
        F.coalesce(x, F.lit(0.0)).alias("_v"),
        F.coalesce(prev_x, F.lit(0.0)).alias("_pv"),
        x.isNotNull().cast("int").alias("_n"),
        F.coalesce(prev_x.isNotNull().cast("int"), F.lit(0)).alias("_pn"),
    )
    # a value starts to apply after the member's previous row, and stops after its last one
    starts = rows.where(F.col("_prev").isNotNull()).select(
        *scope, F.col("_prev").alias("_after"), (F.col("_v") - F.col("_pv")).alias("_d"),
        (F.col("_n") - F.col("_pn")).alias("_c"),
    )  # fmt: skip
    stops = rows.where(F.col("_last")).select(
        *scope, F.col("run_time").alias("_after"), (-F.col("_v")).alias("_d"), (-F.col("_n")).alias("_c")
    )
    changes = (
        starts.unionByName(stops)
        .groupBy(*scope, "_after")
        .agg(F.sum("_d").alias("_d"), F.sum("_c").alias("_c"))
    )
    runs = df.select(*scope, "run_time").distinct()
    next_run = F.lead("run_time").over(Window.partitionBy(*scope).orderBy("run_time"))
    after = runs.select(*scope, F.col("run_time").alias("_after"), next_run.alias("run_time"))
    at = (
        changes.join(after, [*scope, "_after"])
        .where(F.col("run_time").isNotNull())
        .groupBy(*scope, "run_time")
        .agg(F.sum("_d").alias("_d"), F.sum("_c").alias("_c"))
    )
    upto = (
        Window.partitionBy(*scope)
        .orderBy("run_time")
        .rowsBetween(Window.unboundedPreceding, Window.currentRow)
    )
    acc = runs.join(at, [*scope, "run_time"], "left").select(
        *scope,
        "run_time",
        F.sum(F.coalesce("_d", F.lit(0.0))).over(upto).alias(value),
        F.sum(F.coalesce("_c", F.lit(0))).over(upto).alias("_count"),
    )
    return acc.where(F.col("_count") > 0).drop("_count")


def rate(step: str) -> tuple[Column, Column]:
    """Aggregates of a step column: (messages over usable steps, seconds over usable steps)."""
    ok = F.col(f"{step}_ok")
    return F.sum(F.when(ok, F.col(step))), F.sum(F.when(ok, F.col("dt")))


def without_system_topics(df: DataFrame, topic: str = "topic") -> DataFrame:
    """Rows whose topic is not one of RocketMQ's own (rows with a null topic stay).

    Besides the fixed names and prefixes, a broker keeps topics named after its cluster, after itself,
    and ``<cluster>_REPLY_TOPIC``. Those topics live on that broker, so a row's topic is compared with
    the row's own ``cluster`` and ``broker``: a test per row, not a second pass over the rows.
    """
    t, cluster = F.col(topic), F.col("cluster")
    cond = t.isin(sorted(SYSTEM_TOPICS))
    for prefix in SYSTEM_TOPIC_PREFIXES:
        cond = cond | t.startswith(prefix)
    own = (t == cluster) | (t == F.col("broker")) | (t == F.concat(cluster, F.lit(REPLY_TOPIC_SUFFIX)))
    return df.where(t.isNull() | ~(cond | F.coalesce(own, F.lit(False))))


def without_system_groups(df: DataFrame, group: str = "group") -> DataFrame:
    col = F.col(group)
    cond = col.isin(sorted(SYSTEM_GROUPS))
    for prefix in SYSTEM_GROUP_PREFIXES:
        cond = cond | col.startswith(prefix)
    return df.where(~cond)


def duration_text(secs: Column) -> Column:
    """``45s``, ``12m 5s``, ``3h 20m``, ``2d 4h``; null stays null."""
    s = F.floor(secs)
    return (
        F.when(s.isNull(), F.lit(None).cast("string"))
        .when(s < 60, F.format_string("%ds", s))
        .when(s < 3600, F.format_string("%dm %ds", F.floor(s / 60), s % 60))
        .when(s < 86400, F.format_string("%dh %dm", F.floor(s / 3600), F.floor((s % 3600) / 60)))
        .otherwise(F.format_string("%dd %dh", F.floor(s / 86400), F.floor((s % 86400) / 3600)))
    )
