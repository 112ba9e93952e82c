"""Line charts as inline SVG text: the report must open anywhere, offline, with no script at all.

Pure Python, no plotting library: axes with round-number ticks, UTC time labels, one polyline per
series, a legend, and a ``<title>`` on each point so a hover shows the exact value.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from html import escape

__all__ = ["PALETTE", "line_chart", "nice_ticks"]

PALETTE = (
    "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
    "#8c564b", "#e377c2", "#17becf", "#7f7f7f", "#bcbd22",
)  # fmt: skip

Point = tuple[float, float]  # (epoch seconds, value)


def nice_ticks(lo: float, hi: float, count: int = 5) -> list[float]:
    """About ``count`` round values (1, 2, 2.5, 5 x 10^n steps) covering ``[lo, hi]``."""
    if not math.isfinite(lo) or not math.isfinite(hi):
        return [0.0]
    if hi <= lo:
        hi = lo + 1.0
    raw = (hi - lo) / max(1, count)
    mag = 10 ** math.floor(math.log10(raw))
    step = next(m * mag for m in (1, 2, 2.5, 5, 10) if m * mag >= raw)
    start = math.floor(lo / step) * step
    ticks = []
    v = start
    while v <= hi + step * 1e-9:
        ticks.append(round(v, 10))
        v += step
    if ticks[-1] < hi:
        ticks.append(round(v, 10))
    return ticks


def _fmt_value(v: float) -> str:
    a = abs(v)
    if a >= 1e9:
        return f"{v / 1e9:g}G"
    if a >= 1e6:
        return f"{v / 1e6:g}M"
    if a >= 1e4:
        return f"{v / 1e3:g}k"
    return f"{v:g}"


def _fmt_time(t: float, span: float) -> str:
    d = datetime.fromtimestamp(t, UTC)
    if span > 2 * 86400:
        return d.strftime("%m-%d %H:%M")
    if span > 300:
        return d.strftime("%H:%M")
    return d.strftime("%H:%M:%S")


def _time_ticks(lo: float, hi: float, count: int = 6) -> list[float]:
    span = max(hi - lo, 1.0)
    steps = (1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400)
    step = next((s for s in steps if span / s <= count), 86400 * math.ceil(span / (86400 * count)))
    first = math.ceil(lo / step) * step
    return [first + i * step for i in range(int((hi - first) // step) + 1)]


def line_chart(
    series: Mapping[str, Sequence[Point]],
    *,
    title: str,
    y_label: str,
    width: int = 760,
    height: int = 300,
) -> str:
    """An ``<svg>`` element with one line per series (points sorted by time)."""
    left, right, top, bottom = 64, 16, 28, 40
    legend_rows = math.ceil(len(series) / 3) if series else 0
    total_h = height + legend_rows * 18
    plot_w, plot_h = width - left - right, height - top - bottom
    points = [p for pts in series.values() for p in pts]
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" width="{width}" height="{total_h}" '
        'font-family="system-ui, sans-serif" '
        f'viewBox="0 0 {width} {total_h}" role="img" aria-label="{escape(title)}">',
        f"<title>{escape(title)}</title>",
        f'<text x="{left}" y="18" class="chart-title">{escape(title)}</text>',
    ]
    if not points:
        parts.append(
            f'<text x="{left + 10}" y="{top + plot_h / 2:.0f}" class="empty">no data in the window</text>'
        )
        parts.append("</svg>")
        return "".join(parts)
    x_lo, x_hi = min(p[0] for p in points), max(p[0] for p in points)
    if x_hi <= x_lo:
        x_lo, x_hi = x_lo - 30, x_hi + 30
    y_ticks = nice_ticks(min(0.0, min(p[1] for p in points)), max(p[1] for p in points))
    y_lo, y_hi = y_ticks[0], y_ticks[-1]

    def sx(t: float) -> float:
        return left + (t - x_lo) / (x_hi - x_lo) * plot_w

    def sy(v: float) -> float:
        return top + plot_h - (v - y_lo) / (y_hi - y_lo) * plot_h

    parts.append('<g class="grid" stroke="#ddd" stroke-width="1">')
    for v in y_ticks:
        y = sy(v)
        parts.append(f'<line x1="{left}" y1="{y:.1f}" x2="{left + plot_w}" y2="{y:.1f}"/>')
    parts.append("</g>")
    parts.append('<g class="axis" font-size="11" fill="#333">')
    for v in y_ticks:
        parts.append(f'<text x="{left - 6}" y="{sy(v) + 4:.1f}" text-anchor="end">{_fmt_value(v)}</text>')
    for t in _time_ticks(x_lo, x_hi):
        x = sx(t)
        parts.append(
            f'<line x1="{x:.1f}" y1="{top + plot_h}" x2="{x:.1f}" y2="{top + plot_h + 4}" stroke="#333"/>'
        )
        label = _fmt_time(t, x_hi - x_lo)
        parts.append(f'<text x="{x:.1f}" y="{top + plot_h + 16}" text-anchor="middle">{label}</text>')
    parts.append(
        f'<text transform="translate(14 {top + plot_h / 2:.0f}) rotate(-90)" text-anchor="middle">'
        f"{escape(y_label)}</text>"
    )
    parts.append(
        f'<text x="{left + plot_w / 2:.0f}" y="{top + plot_h + 32}" text-anchor="middle">time (UTC)</text>'
    )
    parts.append("</g>")
    parts.append(f'<rect x="{left}" y="{top}" width="{plot_w}" height="{plot_h}" fill="none" stroke="#999"/>')
    for i, (name, pts) in enumerate(series.items()):
        color = PALETTE[i % len(PALETTE)]
        ordered = sorted(pts)
        coords = " ".join(f"{sx(t):.1f},{sy(v):.1f}" for t, v in ordered)
        parts.append(f'<g class="series" data-name="{escape(name)}">')
        parts.append(f'<polyline fill="none" stroke="{color}" stroke-width="2" points="{coords}"/>')
        for t, v in ordered:
            when = datetime.fromtimestamp(t, UTC).strftime("%Y-%m-%d %H:%M:%S")
            parts.append(
                f'<circle cx="{sx(t):.1f}" cy="{sy(v):.1f}" r="2.5" fill="{color}">'
                f"<title>{escape(name)} {when}: {v:g}</title></circle>"
            )
        parts.append("</g>")
        lx = left + (i % 3) * (plot_w / 3)
        ly = height + (i // 3) * 18
        parts.append(f'<rect x="{lx:.0f}" y="{ly - 9}" width="12" height="4" fill="{color}"/>')
        parts.append(f'<text x="{lx + 16:.0f}" y="{ly - 4}" font-size="11">{escape(name)}</text>')
    parts.append("</svg>")
    return "".join(parts)
