"""``--output table``: a command's data (the ``--json`` document) drawn as rich tables.

For people at a terminal who would rather look than parse. Imported only when asked, so the Java
text and JSON paths never load rich; colour is used only when stdout is an interactive terminal
(rich decides), so the same option piped into a file gives plain box-drawn tables at their full
width (never cut to a terminal's).

How data becomes tables, so that every command reads well without a renderer of its own:

- an object's scalars form one key/value table; each list and nested object gets its own;
- a list of records is one row per record; a command may name the columns that matter
  (:class:`~mqadmin.cli.output.TableLayout`, e.g. one row per broker for clusterList), else records
  wider than :data:`WIDE` columns are drawn one key/value table each;
- a record holding one map of scalars (brokerStatus' ``stats``, getBrokerConfig's ``config``, a
  route's ``brokerAddrs``) is a key/value table of that map, titled by the record's other scalars;
- numbers are right-aligned, fractions rounded to two places, big integers grouped by thousands,
  millisecond timestamps shown as local times; a cell never loses characters (long text folds).
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Mapping
from typing import IO, Any

from rich.console import Console
from rich.table import Table

from mqadmin.cli.output import TableLayout

WIDE = 8
"""Records with more columns than this are drawn one record per table (key, value), so they stay readable."""

_PIPE_WIDTH = 100_000
"""Console width when not at a terminal: wide enough that no table is squeezed or cut."""

_EPOCH_MS_MIN = 100_000_000_000  # 1973: smaller "timestamps" are counters, not times


def _is_number(v: Any) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool)


def _is_time_key(key: str) -> bool:
    k = key.lower()
    return k.endswith("timestamp") or (k.endswith("time") and not k.endswith("runtime"))


def _cell(v: Any, key: str = "") -> str:
    if v is None:
        return ""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        if key and _is_time_key(key) and v >= _EPOCH_MS_MIN:
            try:
                t = dt.datetime.fromtimestamp(v / 1000)
            except (OverflowError, OSError, ValueError):
                return str(v)
            return t.strftime("%Y-%m-%d %H:%M:%S.") + f"{v % 1000:03d}"
        return f"{v:,}" if abs(v) >= 10_000 else str(v)
    if isinstance(v, float):
        return f"{v:,.2f}"
    if isinstance(v, dict | list):
        return json.dumps(v, ensure_ascii=False, separators=(",", ":"))
    return str(v)


def _is_scalar(v: Any) -> bool:
    return not isinstance(v, dict | list)


def _pick(record: Mapping[str, Any], path: str) -> Any:
    """``record[path]``, where ``a.b`` reads a nested member."""
    v: Any = record
    for part in path.split("."):
        if not isinstance(v, Mapping):
            return None
        v = v.get(part)
    return v


def _table(title: str | None, *, header: bool = True) -> Table:
    return Table(title=title or None, title_justify="left", show_header=header)


def _key_value(title: str | None, items: Mapping[str, Any]) -> Table:
    t = _table(title, header=False)
    t.add_column(style="bold", overflow="fold")
    right = all(_is_number(v) for v in items.values() if v is not None) and bool(items)
    t.add_column(overflow="fold", justify="right" if right else "left")
    for k, v in items.items():
        t.add_row(str(k), _cell(v, str(k)))
    return t


def _grid(title: str | None, rows: list[Mapping[str, Any]], columns: list[str]) -> Table:
    t = _table(title)
    for c in columns:
        values = [_pick(r, c) for r in rows]
        numeric = any(v is not None for v in values) and all(_is_number(v) for v in values if v is not None)
        t.add_column(c, overflow="fold", justify="right" if numeric else "left")
    for r in rows:
        t.add_row(*(_cell(_pick(r, c), c.rsplit(".", 1)[-1]) for c in columns))
    return t


def _map_member(record: Mapping[str, Any]) -> str | None:
    """The one member of ``record`` that is a map of scalars, if the rest are scalars."""
    maps = [k for k, v in record.items() if isinstance(v, dict)]
    if len(maps) != 1 or not all(_is_scalar(v) for k, v in record.items() if k != maps[0]):
        return None
    inner = record[maps[0]]
    return maps[0] if all(_is_scalar(v) for v in inner.values()) else None


def _records(title: str, rows: list[Any], layout: TableLayout | None) -> list[Table]:
    if not rows or not all(isinstance(r, dict) for r in rows):
        t = _table(title)
        t.add_column(title or "value", overflow="fold")
        for r in rows:
            t.add_row(_cell(r))
        return [t]
    columns: list[str] = []
    if layout is not None and title in layout.columns:
        columns = list(layout.columns[title])
        extra = [k for r in rows for k in r if k in layout.always and k not in columns]
        columns.extend(dict.fromkeys(extra))
        return [_grid(title, rows, columns)]
    if all(_map_member(r) is not None for r in rows):
        out = []
        for r in rows:
            member = _map_member(r) or ""
            label = ", ".join(f"{k}={_cell(v, k)}" for k, v in r.items() if k != member)
            out.append(_key_value(f"{title} ({label}) {member}".strip(), r[member]))
        return out
    for r in rows:
        columns.extend(k for k in r if k not in columns)
    if len(columns) > WIDE:
        return [_key_value(f"{title}[{i}]", r) for i, r in enumerate(rows)]
    return [_grid(title, rows, columns)]


def _tables(value: Any, title: str, layout: TableLayout | None) -> list[Table]:
    """Scalars of an object in one key/value table; each list (and nested object) in its own."""
    if isinstance(value, list):
        return _records(title, value, layout)
    if not isinstance(value, dict):
        t = _table(title, header=False)
        t.add_column(overflow="fold")
        t.add_row(_cell(value, title))
        return [t]
    out: list[Table] = []
    scalars = {k: v for k, v in value.items() if _is_scalar(v)}
    if scalars:
        out.append(_key_value(title, scalars))
    for k, v in value.items():
        if _is_scalar(v):
            continue
        name = f"{title}.{k}" if title else str(k)
        if isinstance(v, dict) and v and all(_is_scalar(x) for x in v.values()):
            out.append(_key_value(name, v))
        else:
            out.extend(_tables(v, name, layout))
    return out


def render(value: Any, stream: IO[str], layout: TableLayout | None = None) -> None:
    """Draw ``value`` on ``stream`` (a text stream)."""
    tty = stream.isatty()
    console = Console(file=stream, highlight=False, soft_wrap=False, width=None if tty else _PIPE_WIDTH)
    for table in _tables(value, "", layout):
        title, table.title = table.title, None
        if title:  # a line of its own: a table's title would wrap at the table's width
            console.out(str(title), highlight=False)
        console.print(table)
