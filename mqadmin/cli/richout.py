"""``--output table``: a command's data (the ``--json`` document) drawn as rich tables.

For people at a terminal who would rather look than parse. Imported only when asked, so the Java
text and JSON paths never load rich; colour is used only when stdout is an interactive terminal
(rich decides), so the same option piped into a file gives plain box-drawn tables.
"""

from __future__ import annotations

import json
from typing import IO, Any

from rich.console import Console
from rich.table import Table


def _cell(v: Any) -> str:
    if v is None:
        return ""
    if isinstance(v, dict | list):
        return json.dumps(v, ensure_ascii=False, separators=(",", ":"))
    return str(v)


def _is_scalar(v: Any) -> bool:
    return not isinstance(v, dict | list)


WIDE = 8
"""Rows with more columns than this are drawn one record per table (key, value), so they stay readable."""


def _record_tables(title: str, rows: list[dict[str, Any]]) -> list[Table]:
    out = []
    for i, r in enumerate(rows):
        t = Table(title=f"{title}[{i}]", title_justify="left", show_header=False)
        t.add_column(style="bold")
        t.add_column()
        for k, v in r.items():
            t.add_row(str(k), _cell(v))
        out.append(t)
    return out


def _rows_tables(title: str, rows: list[Any]) -> list[Table]:
    if rows and all(isinstance(r, dict) for r in rows):
        columns: list[str] = []
        for r in rows:
            columns.extend(k for k in r if k not in columns)
        if len(columns) > WIDE:
            return _record_tables(title, rows)
    return [_rows_table(title, rows)]


def _rows_table(title: str, rows: list[Any]) -> Table:
    table = Table(title=title or None, title_justify="left")
    if rows and all(isinstance(r, dict) for r in rows):
        columns: list[str] = []
        for r in rows:
            columns.extend(k for k in r if k not in columns)
        for c in columns:
            table.add_column(c)
        for r in rows:
            table.add_row(*(_cell(r.get(c)) for c in columns))
    else:
        table.add_column(title or "value")
        for r in rows:
            table.add_row(_cell(r))
    return table


def _tables(value: Any, title: str = "") -> list[Table]:
    """Scalars of an object in one key/value table; each list (and nested object) in its own."""
    if isinstance(value, list):
        return _rows_tables(title, value)
    if not isinstance(value, dict):
        t = Table(title=title or None, title_justify="left", show_header=False)
        t.add_column()
        t.add_row(_cell(value))
        return [t]
    out: list[Table] = []
    scalars = {k: v for k, v in value.items() if _is_scalar(v)}
    if scalars:
        t = Table(title=title or None, title_justify="left", show_header=False)
        t.add_column(style="bold")
        t.add_column()
        for k, v in scalars.items():
            t.add_row(str(k), _cell(v))
        out.append(t)
    for k, v in value.items():
        if _is_scalar(v):
            continue
        name = f"{title}.{k}" if title else str(k)
        if isinstance(v, dict) and v and all(_is_scalar(x) for x in v.values()):
            out.extend(_rows_tables(name, [{"key": kk, "value": vv} for kk, vv in v.items()]))
        else:
            out.extend(_tables(v, name))
    return out


def render(value: Any, stream: IO[str]) -> None:
    """Draw ``value`` on ``stream`` (a text stream)."""
    console = Console(file=stream, highlight=False, soft_wrap=False, width=None if stream.isatty() else 120)
    for table in _tables(value):
        console.print(table)
