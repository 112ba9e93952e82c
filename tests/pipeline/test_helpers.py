"""The pure helpers: time options, system names, SVG charts, value formatting (no Spark)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from mqadmin.pipeline.jobs.charts import line_chart, nice_ticks
from mqadmin.pipeline.jobs.output import format_value, render_table
from mqadmin.pipeline.names import is_system_group, is_system_topic
from mqadmin.pipeline.timespec import TimeSpecError, parse_duration, parse_time

NOW = datetime(2024, 5, 2, 12, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2024-05-01", datetime(2024, 5, 1, tzinfo=UTC)),
        ("2024-05-01T12:30", datetime(2024, 5, 1, 12, 30, tzinfo=UTC)),
        ("2024-05-01T12:30:00Z", datetime(2024, 5, 1, 12, 30, tzinfo=UTC)),
        ("2024-05-01 14:30:00+02:00", datetime(2024, 5, 1, 12, 30, tzinfo=UTC)),
        ("1714566600000", datetime(2024, 5, 1, 12, 30, tzinfo=UTC)),
        ("1714566600", datetime(2024, 5, 1, 12, 30, tzinfo=UTC)),
        ("now", NOW),
        ("6h", NOW - timedelta(hours=6)),
        ("1h30m", NOW - timedelta(minutes=90)),
        ("2d", NOW - timedelta(days=2)),
    ],
)
def test_parse_time(text: str, expected: datetime) -> None:
    assert parse_time(text, NOW) == expected


def test_bad_times_and_durations() -> None:
    for bad in ("", "yesterday", "12:30", "5x"):
        with pytest.raises(TimeSpecError):
            parse_time(bad, NOW)
    assert parse_duration("90s") == 90 and parse_duration("1w") == 604800 and parse_duration("2.5") == 2.5
    with pytest.raises(TimeSpecError):
        parse_duration("soon")


def test_system_names() -> None:
    clusters, brokers = frozenset({"DefaultCluster"}), frozenset({"broker-a"})
    for t in ("TBW102", "SCHEDULE_TOPIC_XXXX", "%RETRY%G", "%DLQ%G", "rmq_sys_trace", "DefaultCluster",
              "broker-a", "DefaultCluster_REPLY_TOPIC", "RMQ_SYS_TRANS_HALF_TOPIC"):  # fmt: skip
        assert is_system_topic(t, clusters, brokers), t
    for t in ("Orders", "broker-b", "Other_REPLY_TOPIC"):
        assert not is_system_topic(t, clusters, brokers), t
    assert is_system_group("TOOLS_CONSUMER") and is_system_group("CID_RMQ_SYS_TRANS")
    assert not is_system_group("G1")


def test_nice_ticks() -> None:
    assert nice_ticks(0, 100) == [0, 20, 40, 60, 80, 100]
    assert nice_ticks(0, 7) == [0, 2, 4, 6, 8]
    assert nice_ticks(5, 5)[0] <= 5 <= nice_ticks(5, 5)[-1]


def test_line_chart_is_plain_svg() -> None:
    t0 = NOW.timestamp()
    svg = line_chart(
        {"G<1> / T&": [(t0, 0), (t0 + 60, 50), (t0 + 120, 120)], "other": [(t0, 10)]},
        title="Lag",
        y_label="messages",
    )
    assert svg.startswith("<svg") and svg.endswith("</svg>")
    assert svg.count("<polyline") == 2 and svg.count("<circle") == 4
    assert "G&lt;1&gt; / T&amp;" in svg and "<script" not in svg
    assert "12:00" in svg and "12:02" in svg  # time axis in UTC
    empty = line_chart({}, title="Nothing", y_label="x")
    assert "no data in the window" in empty and "<polyline" not in empty


def test_format_value_and_table() -> None:
    assert format_value(None) == "" and format_value(True) == "true"
    assert format_value(1.23456) == "1.235" and format_value(100.0) == "100"
    assert format_value(datetime(2024, 5, 1, 12, 0, 1, tzinfo=UTC)) == "2024-05-01 12:00:01"
    text = render_table(["a", "bb"], [(1, None), ("long value", 2.5)])
    assert text.splitlines() == ["a           bb", "1", "long value  2.5"]
