"""The jobs on the synthetic history: the figures match what the history was built with.

Tolerance: rates within 1 % of the built-in rates (offsets are whole messages, answers arrive a
fraction of a second after the run starts), the drain time within 2 %.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest

from tests.pipeline import synth

if TYPE_CHECKING:
    from pyspark.sql import DataFrame

    from mqadmin.pipeline.jobs.io import Snapshots

RATE_TOL = 0.01


def rows(df: DataFrame, key: str | tuple[str, ...]) -> dict[Any, dict[str, Any]]:
    out = {}
    for r in df.collect():
        d = r.asDict()
        k = tuple(d[c] for c in key) if isinstance(key, tuple) else d[key]
        out[k] = d
    return out


def near(value: float, expected: float, tol: float = RATE_TOL) -> bool:
    return abs(value - expected) <= tol * abs(expected)


@pytest.fixture(scope="module")
def lag_rows(snaps: Snapshots) -> dict[Any, dict[str, Any]]:
    from mqadmin.pipeline.jobs.lag import lag

    return rows(lag(snaps.group_offsets), ("group", "topic"))


@pytest.fixture(scope="module")
def tp_rows(snaps: Snapshots) -> dict[Any, dict[str, Any]]:
    from mqadmin.pipeline.jobs.throughput import throughput

    return rows(throughput(snaps.queue_offsets), "topic")


# ------------------------------------------------------------------------------------------ lag


def test_keeping_up_consumer_has_no_lag_and_is_not_stuck(lag_rows: dict[Any, dict[str, Any]]) -> None:
    r = lag_rows[("G-fast", "Orders")]
    assert r["lag"] == 0 and r["state"] == "ok" and r["drain"] == "0s"
    assert not r["stuck"]
    assert near(r["consume_rate"], synth.EXPECTED["orders_rate"])
    assert near(r["produce_rate"], synth.EXPECTED["orders_rate"])
    assert r["queues"] == 8 and r["brokers"] == 2


def test_stopped_consumer_is_stuck_with_growing_lag(lag_rows: dict[Any, dict[str, Any]]) -> None:
    r = lag_rows[("G-stop", "Orders")]
    assert r["stuck"] and r["state"] == "stuck"
    assert r["drain"] == "never" and r["drain_seconds"] is None
    assert r["lag_trend"] > 0 and r["lag"] > r["lag_start"]
    # stopped 10 minutes in, the window ends 30 minutes in: lag = 100 msg/s for ~1200 s
    assert near(r["lag"], synth.EXPECTED["orders_rate"] * (1800.5 - synth.STOP_AT), 0.001)
    assert r["stalled_seconds"] == pytest.approx(1200, abs=1)
    assert r["stuck_queues"] == 7  # the eighth queue is never written: nothing to be stuck on
    assert near(r["consume_rate"], synth.EXPECTED["stop_consume_rate"])
    assert near(r["produce_rate"], synth.EXPECTED["orders_rate"])


def test_draining_consumer_gets_time_to_drain(lag_rows: dict[Any, dict[str, Any]]) -> None:
    r = lag_rows[("G-drain", "Orders")]
    assert r["state"] == "draining" and not r["stuck"]
    assert r["lag_start"] == 6000
    assert r["lag"] == pytest.approx(2400, abs=10)
    assert r["lag_trend"] == pytest.approx(-2.0, rel=0.05)
    assert near(r["consume_rate"] - r["produce_rate"], 2.0, 0.05)
    assert near(r["drain_seconds"], synth.EXPECTED["drain_seconds"], 0.02)
    assert r["drain"] == "20m 0s"


def test_offset_resets_never_give_negative_rates(lag_rows: dict[Any, dict[str, Any]]) -> None:
    r = lag_rows[("G-reset", "Reset")]
    assert near(r["produce_rate"], synth.EXPECTED["reset_rate"])
    assert r["consume_rate"] >= 0
    assert not r["stuck"]
    for row in lag_rows.values():
        assert row["produce_rate"] >= 0 and row["consume_rate"] >= 0


def test_lag_leaves_out_system_groups_unless_asked(snaps: Snapshots, lag_rows: dict[Any, Any]) -> None:
    from mqadmin.pipeline.jobs.lag import lag

    assert {g for g, _ in lag_rows} == {"G-fast", "G-stop", "G-drain", "G-idle", "G-reset"}
    assert next(iter(lag_rows)) == ("G-stop", "Orders")  # largest lag first
    everything = rows(lag(snaps.group_offsets, include_system=True), ("group", "topic"))
    assert set(everything) == set(lag_rows)  # TOOLS_CONSUMER has no offsets: nothing to add


def test_stuck_after_threshold(snaps: Snapshots) -> None:
    from mqadmin.pipeline.jobs.lag import lag

    strict = rows(lag(snaps.group_offsets, stuck_after=1500), ("group", "topic"))
    assert not strict[("G-stop", "Orders")]["stuck"]  # stalled 1200 s < 1500 s
    assert strict[("G-stop", "Orders")]["state"] == "growing"


def test_lag_series_fills_the_run_a_broker_missed(snaps: Snapshots) -> None:
    from pyspark.sql import functions as F

    from mqadmin.pipeline.jobs.lag import lag_series

    series = lag_series(snaps.group_offsets).where(F.col("group") == "G-drain").orderBy("run_time").collect()
    assert len(series) == synth.RUNS
    values = [r["lag"] for r in series]
    assert values == sorted(values, reverse=True)  # no dip at run 25, where broker-b was down


# ------------------------------------------------------------------------------------------ throughput


def test_produce_rate_per_topic(tp_rows: dict[Any, dict[str, Any]]) -> None:
    assert near(tp_rows["Orders"]["produce_rate"], synth.EXPECTED["orders_rate"])
    assert near(tp_rows["Orders"]["last_rate"], synth.EXPECTED["orders_rate"])
    assert near(tp_rows["Orders"]["peak_rate"], synth.EXPECTED["orders_rate"])
    assert tp_rows["Orders"]["queues"] == 8
    assert near(tp_rows["Reset"]["produce_rate"], synth.EXPECTED["reset_rate"])  # across the broker reset
    assert tp_rows["Idle"]["produce_rate"] == 0 and tp_rows["Idle"]["messages"] == 0
    assert set(tp_rows) == {"Orders", "Reset", "Idle"}  # no system topic


def test_produce_rate_per_broker(snaps: Snapshots) -> None:
    from mqadmin.pipeline.jobs.throughput import throughput

    per = rows(throughput(snaps.queue_offsets, by="broker"), "broker")
    assert near(per["broker-a"]["produce_rate"], synth.EXPECTED["broker_a_rate"])
    assert near(per["broker-b"]["produce_rate"], synth.EXPECTED["broker_b_rate"])
    assert per["broker-b"]["topics"] == 2


def test_throughput_series_has_no_dip_for_a_missing_broker(snaps: Snapshots) -> None:
    from pyspark.sql import functions as F

    from mqadmin.pipeline.jobs.throughput import throughput_series

    series = throughput_series(snaps.queue_offsets).where(F.col("topic") == "Orders").collect()
    assert len(series) == synth.RUNS - 1  # the first run has no step before it
    for r in series:
        assert near(r["rate"], synth.EXPECTED["orders_rate"]), r


def test_system_topics_kept_with_all(snaps: Snapshots) -> None:
    from mqadmin.pipeline.jobs.throughput import throughput

    everything = rows(throughput(snaps.queue_offsets, include_system=True), "topic")
    assert {"TBW102", synth.CLUSTER, "broker-a", "broker-b", f"{synth.CLUSTER}_REPLY_TOPIC"} <= set(
        everything
    )


# ------------------------------------------------------------------------------------------ skew


def test_skew_flags_hot_and_unwritten_queues(snaps: Snapshots) -> None:
    from mqadmin.pipeline.jobs.skew import skew

    per = rows(skew(snaps.queue_offsets), "topic")
    orders = per["Orders"]
    assert near(orders["mean_rate"], synth.EXPECTED["orders_mean"])
    assert near(orders["skew"], synth.EXPECTED["orders_skew"])
    assert orders["hot_queue"] == "broker-a:0"
    assert orders["unwritten_queues"] == 1 and orders["unwritten"] == "broker-b:3"
    assert orders["empty"] == 1
    assert per["Reset"]["skew"] == pytest.approx(1.0, abs=0.01)
    assert per["Idle"]["skew"] is None and per["Idle"]["hot_queue"] is None
    assert per["Idle"]["unwritten_queues"] == 2 and per["Idle"]["empty"] == 0


def test_per_queue_skew(snaps: Snapshots) -> None:
    from mqadmin.pipeline.jobs.skew import queue_skew

    per = rows(queue_skew(snaps.queue_offsets), ("topic", "broker", "queue_id"))
    hot = per[("Orders", "broker-a", 0)]
    assert near(hot["produce_rate"], 40.0) and near(hot["share"], 0.4) and near(hot["ratio"], 3.2)
    cold = per[("Orders", "broker-b", 3)]
    assert cold["unwritten"] and cold["empty"] and cold["produce_rate"] == 0


# ------------------------------------------------------------------------------------------ idle


def test_idle_topics_and_groups(snaps: Snapshots) -> None:
    from mqadmin.pipeline.jobs.idle import idle

    found = rows(idle(snaps.queue_offsets, snaps.group_offsets), ("kind", "name"))
    assert set(found) == {("topic", "Idle"), ("group", "G-idle"), ("group", "G-never")}
    topic = found[("topic", "Idle")]
    assert topic["messages"] == 2 * synth.IDLE_OFFSET
    assert topic["idle_seconds"] == pytest.approx(2 * 86400 + 1800.2, abs=1)
    assert topic["idle_for"] == "2d 0h"
    assert found[("group", "G-never")]["last_activity"] is None
    assert found[("group", "G-never")]["brokers"] == 2


def test_idle_with_system_names(snaps: Snapshots) -> None:
    from mqadmin.pipeline.jobs.idle import idle

    found = rows(idle(snaps.queue_offsets, snaps.group_offsets, include_system=True), ("kind", "name"))
    assert ("topic", "TBW102") in found and ("group", "TOOLS_CONSUMER") in found


# ------------------------------------------------------------------------------------------ window


def test_since_until_cut_the_window(spark: Any, history: Any) -> None:
    from datetime import timedelta

    from mqadmin.pipeline.jobs.io import TimeWindow, read_snapshots
    from mqadmin.pipeline.jobs.lag import lag
    from mqadmin.pipeline.jobs.output import as_utc

    since = synth.START + timedelta(minutes=15)  # after midnight: only the second date partition
    until = synth.START + timedelta(minutes=25)
    snaps = read_snapshots(spark, str(history), TimeWindow(since, until))
    times = snaps.queue_offsets.selectExpr(
        "min(run_time) lo", "max(run_time) hi", "count(distinct run_time) n"
    )
    lo, hi, n = times.collect()[0]
    assert (as_utc(lo), as_utc(hi), n) == (since, until - timedelta(minutes=1), 10)
    r = rows(lag(snaps.group_offsets), ("group", "topic"))[("G-stop", "Orders")]
    assert r["consume_rate"] == 0 and r["stuck"]  # the consumer never moves inside this window
    assert near(r["produce_rate"], synth.EXPECTED["orders_rate"])
