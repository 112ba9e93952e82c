"""The column helpers the jobs share, on small hand-made rows: who is a member, which topics are
RocketMQ's own, and the lag job's one-pass figures against its series."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

    from mqadmin.pipeline.jobs.io import Snapshots

T0 = datetime(2024, 5, 1, tzinfo=UTC)


def test_members_stay_apart_when_only_their_null_keys_differ(spark: SparkSession) -> None:
    """(null, "x") and ("x", null) hash alike if nulls are skipped: their steps must not mix."""
    from mqadmin.pipeline.jobs.common import offset_steps

    rows: list[tuple[str | None, str | None, datetime, int]] = []
    for i in range(6):
        when = T0 + timedelta(minutes=i)
        rows.append((None, "x", when, 1000 + 10 * i))  # grows by 10 a minute
        rows.append(("x", None, when, 5 + i))  # grows by 1 a minute
    df = spark.createDataFrame(rows, "cluster string, broker string, time timestamp, max_offset long")
    steps = offset_steps(df, ["cluster", "broker"], {"max_offset": "produced"}).collect()
    by_member: dict[tuple[str | None, str | None], list[int]] = {}
    for r in steps:
        if r["produced"] is not None:
            by_member.setdefault((r["cluster"], r["broker"]), []).append(r["produced"])
            assert r["dt"] == 60.0
    assert by_member == {(None, "x"): [10] * 5, ("x", None): [1] * 5}


def test_system_topics_are_a_brokers_own(spark: SparkSession) -> None:
    from mqadmin.pipeline.jobs.common import without_system_topics

    topics = [
        ("TBW102", False),
        ("RMQ_SYS_TRACE_TOPIC", False),
        ("rmq_sys_SYNC_BROKER_MEMBER_x", False),
        ("C1", False),  # named after its cluster
        ("broker-a", False),  # named after itself
        ("C1_REPLY_TOPIC", False),
        ("broker-b", True),  # another broker's name, on broker-a: somebody's own topic
        ("C2_REPLY_TOPIC", True),
        ("Orders", True),
        (None, True),  # a row without a topic stays
    ]
    df = spark.createDataFrame(
        [("C1", "broker-a", t) for t, _ in topics], "cluster string, broker string, topic string"
    )
    kept = {r["topic"] for r in without_system_topics(df).collect()}
    assert kept == {t for t, keep in topics if keep}


def test_lag_figures_agree_with_the_lag_series(snaps: Snapshots) -> None:
    """lag() computes its series in the same pass as the queue figures; lag_series() on its own."""
    from pyspark.sql import functions as F

    from mqadmin.pipeline.jobs.lag import lag, lag_series

    figures = {(r["group"], r["topic"]): r for r in lag(snaps.group_offsets).collect()}
    series = (
        lag_series(snaps.group_offsets)
        .groupBy("group", "topic")
        .agg(
            F.min_by("lag", "run_time").alias("lag_start"),
            F.max("lag").alias("lag_max"),
            F.count("*").alias("snapshots"),
        )
        .collect()
    )
    assert figures and len(series) == len(figures)
    for s in series:
        f = figures[(s["group"], s["topic"])]
        keys = ("lag_start", "lag_max", "snapshots")
        assert [f[k] for k in keys] == [s[k] for k in keys], (s["group"], s["topic"])
