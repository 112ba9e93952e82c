"""One self-contained HTML page for people who would rather look than read tables.

It runs the other jobs, brings their (small) results to the driver and renders: a summary, lag over
time for the groups furthest behind, throughput over time for the busiest topics, then the lag,
stuck, idle, skew and missing-broker tables. Styles are inline and charts are inline SVG: no script,
no font or library fetched from anywhere, so it can be mailed or attached to a ticket.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from html import escape
from typing import TYPE_CHECKING, Any

from pyspark.sql import functions as F

from mqadmin.pipeline.jobs.charts import line_chart
from mqadmin.pipeline.jobs.common import seconds
from mqadmin.pipeline.jobs.idle import idle
from mqadmin.pipeline.jobs.lag import lag, lag_series
from mqadmin.pipeline.jobs.output import format_value
from mqadmin.pipeline.jobs.skew import skew
from mqadmin.pipeline.jobs.throughput import throughput, throughput_series

if TYPE_CHECKING:
    from pyspark.sql import DataFrame, Row

__all__ = ["report_html"]

_CSS = """
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:24px;color:#222;max-width:1100px}
h1{font-size:22px;margin-bottom:4px}h2{font-size:17px;margin-top:28px;border-bottom:1px solid #ddd}
.meta{color:#666;font-size:13px}
table{border-collapse:collapse;font-size:12px;margin:8px 0}
th,td{border:1px solid #ddd;padding:3px 8px;text-align:left;white-space:nowrap}
th{background:#f4f4f4}td.num{text-align:right}
tr.bad td{background:#fde8e8}tr.warn td{background:#fff6dd}
.cards{display:flex;gap:12px;flex-wrap:wrap}
.card{border:1px solid #ddd;border-radius:6px;padding:8px 14px;min-width:120px}
.card b{display:block;font-size:20px}.card span{color:#666;font-size:12px}
.chart{display:block;margin:8px 0}.chart-title{font-size:13px;font-weight:600}
.empty{fill:#999;font-size:13px}
"""


def _table(rows: Sequence[Row], columns: Sequence[str], row_class: Any = None) -> str:
    if not rows:
        return '<p class="meta">none</p>'
    head = "".join(f"<th>{escape(c)}</th>" for c in columns)
    body = []
    for r in rows:
        cls = row_class(r) if row_class else None
        cells = []
        for c in columns:
            v = r[c]
            num = isinstance(v, int | float) and not isinstance(v, bool)
            cells.append(f"<td{' class=num' if num else ''}>{escape(format_value(v))}</td>")
        body.append(f"<tr{f' class={cls}' if cls else ''}>{''.join(cells)}</tr>")
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"


def _series(rows: Iterable[Row], name_of: Any, value: str) -> dict[str, list[tuple[float, float]]]:
    out: dict[str, list[tuple[float, float]]] = {}
    for r in rows:
        out.setdefault(name_of(r), []).append((float(r["t"]), float(r[value] or 0)))
    return out


def _card(value: Any, label: str) -> str:
    return f'<div class="card"><b>{escape(format_value(value))}</b><span>{escape(label)}</span></div>'


def report_html(
    queue_offsets: DataFrame,
    group_offsets: DataFrame,
    missing: DataFrame,
    *,
    top: int = 5,
    stuck_after: float | None = None,
    include_system: bool = False,
    title: str = "RocketMQ snapshot report",
    generated: datetime | None = None,
) -> str:
    """The report page as a string."""
    lag_rows = lag(group_offsets, stuck_after=stuck_after, include_system=include_system).collect()
    tp_rows = throughput(queue_offsets, include_system=include_system).collect()
    skew_rows = skew(queue_offsets, include_system=include_system).limit(20).collect()
    idle_rows = idle(queue_offsets, group_offsets, include_system=include_system).collect()
    miss_rows = (
        missing.groupBy("cluster", "broker", "what")
        .agg(
            F.count("*").alias("times"),
            F.count_distinct("run_time").alias("runs"),
            F.max("time").alias("last"),
            F.max_by("error", "time").alias("last_error"),
        )
        .orderBy(F.col("runs").desc(), "broker", "what")
        .collect()
    )
    span = (
        queue_offsets.select("time", "run_time")
        .unionByName(group_offsets.select("time", "run_time"))
        .agg(
            F.min("time").alias("start"),
            F.max("time").alias("end"),
            F.count_distinct("run_time").alias("runs"),
        )
        .collect()[0]
    )

    worst = [(r["group"], r["topic"]) for r in lag_rows[:top]]
    lag_points = []
    if worst:
        pairs = group_offsets.sparkSession.createDataFrame(worst, "group string, topic string")
        lag_points = (
            lag_series(group_offsets, include_system=include_system)
            .join(pairs, ["group", "topic"])
            .select("group", "topic", seconds("run_time").alias("t"), "lag")
            .collect()
        )
    busiest = [r["topic"] for r in tp_rows[:top]]
    tp_points = []
    if busiest:
        tp_points = (
            throughput_series(queue_offsets, include_system=include_system)
            .where(F.col("topic").isin(busiest))
            .select("topic", seconds("run_time").alias("t"), "rate")
            .collect()
        )

    lag_chart_series = _series(lag_points, lambda r: f"{r['group']} / {r['topic']}", "lag")
    lag_chart_series = {f"{g} / {t}": lag_chart_series.get(f"{g} / {t}", []) for g, t in worst}
    tp_chart_series = _series(tp_points, lambda r: r["topic"], "rate")
    tp_chart_series = {t: tp_chart_series.get(t, []) for t in busiest}

    stuck = [r for r in lag_rows if r["stuck"]]
    growing = [r for r in lag_rows if r["state"] == "growing"]
    gen = (generated or datetime.now(UTC)).strftime("%Y-%m-%d %H:%M:%S UTC")
    window = (
        f"{format_value(span['start'])} – {format_value(span['end'])} UTC" if span["start"] else "no data"
    )

    def lag_class(r: Row) -> str | None:
        return "bad" if r["stuck"] else ("warn" if r["state"] == "growing" else None)

    lag_cols = [
        "group", "topic", "lag", "lag_trend", "produce_rate", "consume_rate", "drain", "state",
        "stalled_seconds", "last_consume_time",
    ]  # fmt: skip
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{escape(title)}</title><style>{_CSS}</style></head><body>",
        f"<h1>{escape(title)}</h1>",
        f'<p class="meta">Window {escape(window)} · {span["runs"]} snapshot runs · generated {gen}</p>',
        '<div class="cards">',
        _card(len(lag_rows), "group / topic pairs"),
        _card(sum(r["lag"] or 0 for r in lag_rows), "total lag (messages)"),
        _card(len(stuck), "stuck"),
        _card(len(growing), "falling behind"),
        _card(sum(1 for r in idle_rows if r["kind"] == "topic"), "idle topics"),
        _card(sum(1 for r in idle_rows if r["kind"] == "group"), "idle groups"),
        _card(len({r["broker"] for r in miss_rows if r["what"] == "broker"}), "brokers missing"),
        "</div>",
        "<h2>Lag over time</h2>",
        line_chart(
            lag_chart_series, title=f"Lag of the {len(worst)} groups furthest behind", y_label="messages"
        ),
        "<h2>Throughput</h2>",
        line_chart(
            tp_chart_series, title=f"Produce rate of the {len(busiest)} busiest topics", y_label="msg/s"
        ),
        "<h2>Stuck consumers</h2>",
        _table(stuck, ["group", "topic", "lag", "stalled_seconds", "stuck_queues", "last_consume_time"]),
        "<h2>Lag per group and topic</h2>",
        _table(lag_rows[:50], lag_cols, lag_class),
        "<h2>Produce rate per topic</h2>",
        _table(
            tp_rows[:50],
            [
                "topic",
                "brokers",
                "queues",
                "messages",
                "produce_rate",
                "last_rate",
                "peak_rate",
                "last_write",
            ],
        ),
        "<h2>Queue skew</h2>",
        _table(
            skew_rows,
            [
                "topic",
                "queues",
                "mean_rate",
                "max_rate",
                "skew",
                "hot_queue",
                "unwritten_queues",
                "unwritten",
                "empty",
            ],
        ),
        "<h2>Idle topics and groups</h2>",
        _table(idle_rows, ["kind", "name", "brokers", "last_activity", "idle_for", "messages", "lag"]),
        "<h2>Missing at snapshot time</h2>",
        _table(miss_rows, ["cluster", "broker", "what", "runs", "times", "last", "last_error"]),
        "</body></html>",
    ]
    return "\n".join(parts) + "\n"
