"""``--output table``: a command's data (the ``--json`` document) drawn as rich tables.

For people at a terminal who would rather look than parse. Imported only when asked, so the Java
text and JSON paths never load rich; colour is used only on an interactive terminal. Tables are
plain columns (two blanks apart, as ``kubectl get`` draws them), one line a row, and fit the
terminal's width, or 80 columns (``COLUMNS``) in a pipe: what gives way, and in which order, is in
:mod:`mqadmin.cli.tables`. ``--wide`` shows every column whole, whatever the width.

How data becomes tables, so that every command reads well without a renderer of its own:

- an object's scalars form one key/value table; each list and nested object gets its own, under a
  title line; an empty list or object is left out;
- a list of names (topicList) is one column headed by the list's name;
- a list of records is one row per record, sorted by its natural key; a command may name the
  columns that matter (:class:`~mqadmin.cli.tablelayout.TableLayout`, e.g. one row per broker for
  clusterList), else records wider than :data:`WIDE` columns are drawn one key/value table each;
- a record holding one map of scalars (brokerStatus' ``stats``, getBrokerConfig's ``config``, a
  route's ``brokerAddrs``) is a key/value table of that map, titled by the record's other scalars.

In a watch, the previous round's document colours the lag columns' changes (:data:`LAG_KEYS`).
"""

from __future__ import annotations

import io
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import IO, Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from mqadmin.cli.tablelayout import TableLayout, TableView
from mqadmin.cli.tables import (
    GAP,
    NATURAL_KEYS,
    Column,
    cell,
    elide,
    fit,
    is_number,
    natural,
    natural_key,
    pick,
    pipe_width,
    sort_rows,
)

__all__ = ["LAG_KEYS", "render", "terminal_width"]

WIDE = 8
"""Records with more columns than this (and no layout) are drawn one record per key/value table."""

LAG_KEYS = ("diff", "diffTotal", "accumulation", "lag")
"""Columns of messages not yet consumed: a watch shows how they moved since the last round."""

_IMPORTANT = (*LAG_KEYS, "ok")
"""Columns kept longest when a table has to lose some."""


@dataclass(slots=True)
class _Block:
    """One table to draw, under its title line."""

    title: str
    table: Table
    width: int


@dataclass(slots=True)
class _Drawing:
    """What one document turns into, and what the drawing learnt on the way."""

    view: TableView
    width: int | None
    blocks: list[_Block] = field(default_factory=list)
    sorted_by: bool = False
    """A table had a ``--sort-by`` column."""


def terminal_width(stream: IO[str]) -> int | None:
    """The width of the terminal ``stream`` writes to; None when it is not one."""
    try:
        if not stream.isatty():
            return None
        return os.get_terminal_size(stream.fileno()).columns
    except (OSError, ValueError, AttributeError):
        return None


def _key_of(record: Mapping[str, Any]) -> tuple[Any, ...]:
    return tuple(record.get(k) for k in NATURAL_KEYS if k in record)


def _lag(row: Mapping[str, Any], key: str, before: Mapping[tuple[Any, ...], Mapping[str, Any]]) -> Text:
    """A lag cell with its change since the last round: red while it grows, green as it shrinks."""
    now = pick(row, key)
    then = pick(before.get(_key_of(row), {}), key)
    out = Text(cell(now, key.rsplit(".", 1)[-1]))
    if is_number(now) and is_number(then) and now != then:
        d = now - then
        out.append(f" {'+' if d > 0 else '-'}{cell(abs(d))}", style="bold red" if d > 0 else "bold green")
    return out


def _grid(
    drawing: _Drawing,
    title: str,
    rows: Sequence[Mapping[str, Any]],
    columns: list[str],
    *,
    keep: Sequence[str] = (),
    ranks: Sequence[str] = (),
    previous: list[Any] | None = None,
) -> None:
    view = drawing.view
    rows, used = sort_rows(rows, columns, view.sort_by)
    drawing.sorted_by = drawing.sorted_by or used
    before = {_key_of(r): r for r in previous or [] if isinstance(r, Mapping)}
    identity = set(natural_key(columns)) | set(keep)
    order = list(ranks) or columns
    cols: list[Column] = []
    for c in columns:
        values = [pick(r, c) for r in rows]
        numeric = any(v is not None for v in values) and all(is_number(v) for v in values if v is not None)
        last = c.rsplit(".", 1)[-1]
        rank = -1 if last in _IMPORTANT else (order.index(c) if c in order else len(order))
        cells = [cell(v, last) for v in values]
        if previous is not None and last in LAG_KEYS:  # room for the change shown beside the value
            cells = [_lag(r, c, before).plain for r in rows]
        cols.append(Column(c, cells, numeric=numeric, keep=c in identity, rank=rank))
    shown = fit(cols, drawing.width, headers=view.headers)
    table = _table(view.headers)
    for col in shown:
        table.add_column(
            col.header, justify="right" if col.numeric else "left", no_wrap=True, width=col.width
        )
    for i, r in enumerate(rows):
        out: list[Text] = []
        for col in shown:
            if previous is not None and col.key.rsplit(".", 1)[-1] in LAG_KEYS:
                out.append(_lag(r, col.key, before))
            else:
                out.append(Text(elide(col.cells[i], col.width)))
        table.add_row(*out)
    hidden = len(cols) - len(shown)
    if hidden and title:
        title = f"{title} ({hidden} more column{'s' if hidden > 1 else ''} with --wide)"
    _add(drawing, title, table, shown)


def _table(header: bool) -> Table:
    return Table(
        box=None,
        padding=(0, GAP // 2),
        pad_edge=False,
        show_header=header,
        header_style="bold",
        expand=False,
    )


def _add(drawing: _Drawing, title: str, table: Table, shown: list[Column]) -> None:
    width = sum(c.width for c in shown) + GAP * max(0, len(shown) - 1)
    drawing.blocks.append(_Block(title, table, width))


def _key_value(drawing: _Drawing, title: str, items: Mapping[str, Any]) -> None:
    if not items:
        return
    keys = [str(k) for k in items]
    values = [cell(v, str(k)) for k, v in items.items()]
    right = all(is_number(v) for v in items.values() if v is not None) and bool(items)
    cols = [Column("key", keys, keep=True), Column("value", values, numeric=right, rank=1)]
    shown = fit(cols, drawing.width, headers=False)
    if len(shown) < 2:  # the value is what matters: cut it, never drop it
        cols[1].dropped = False
        cols[1].width = max(1, (drawing.width or 0) - cols[0].width - GAP)
        shown = cols
    table = _table(False)
    table.add_column(style="bold", no_wrap=True, width=shown[0].width)
    table.add_column(no_wrap=True, justify="right" if right else "left", width=shown[1].width)
    for k, v in zip(keys, values, strict=True):
        table.add_row(k, elide(v, shown[1].width))
    _add(drawing, title, table, shown)


def _is_scalar(v: Any) -> bool:
    return not isinstance(v, dict | list)


def _map_member(record: Mapping[str, Any]) -> str | None:
    """The one member of ``record`` that is a map of scalars, if the rest are scalars."""
    maps = [k for k, v in record.items() if isinstance(v, dict)]
    if len(maps) != 1 or not all(_is_scalar(v) for k, v in record.items() if k != maps[0]):
        return None
    inner = record[maps[0]]
    return maps[0] if all(_is_scalar(v) for v in inner.values()) else None


def _label(record: Mapping[str, Any], skip: str = "") -> str:
    """A record named by its identity values, then its other scalars (``k=v``)."""
    ident = [cell(record[k], k) for k in NATURAL_KEYS if k in record and record[k] is not None]
    rest = [
        f"{k}={cell(v, k)}"
        for k, v in record.items()
        if k != skip and k not in NATURAL_KEYS and v is not None and v != ""
    ]
    return " ".join(ident) + (f" ({', '.join(rest)})" if rest else "")


def _records(
    drawing: _Drawing, title: str, rows: list[Any], layout: TableLayout | None, previous: Any
) -> None:
    if not rows:
        return
    name = title.rsplit(".", 1)[-1] or "value"
    if not all(isinstance(r, dict) for r in rows):  # names: one column, the header names it
        ordered = [{name: r} for r in sorted(rows, key=natural)]
        _grid(drawing, "", ordered, [name], keep=(name,))
        return
    prev_rows = previous if isinstance(previous, list) else None
    if layout is not None and title in layout.columns:
        named = list(layout.columns[title])
        extra = [k for r in rows for k in r if k in layout.always and k not in named]
        named.extend(dict.fromkeys(extra))
        keep = (*layout.keep.get(title, ()), *layout.always)
        ranks = layout.priority.get(title, ())
        _grid(drawing, title, rows, named, keep=keep, ranks=ranks, previous=prev_rows)
        return
    if all(_map_member(r) is not None for r in rows):
        for r in sort_rows(rows, list(rows[0]))[0]:
            member = _map_member(r) or ""
            _key_value(drawing, f"{title}.{member} {_label(r, member)}".strip(), r[member])
        return
    columns: list[str] = []
    for r in rows:
        columns.extend(k for k in r if k not in columns)
    if len(columns) > WIDE and not drawing.view.wide:
        ordered, used = sort_rows(rows, columns, drawing.view.sort_by)
        drawing.sorted_by = drawing.sorted_by or used
        for i, r in enumerate(ordered):
            label = _label({k: v for k, v in r.items() if k in NATURAL_KEYS}) or f"[{i}]"
            _tables(drawing, r, f"{title} {label}", None, None)
        return
    _grid(drawing, title, rows, columns, keep=("error",), previous=prev_rows)


def _tables(drawing: _Drawing, value: Any, title: str, layout: TableLayout | None, previous: Any) -> None:
    """Scalars of an object in one key/value table; each list (and nested object) in its own."""
    if isinstance(value, list):
        _records(drawing, title, value, layout, previous)
        return
    if not isinstance(value, dict):
        _key_value(drawing, "", {title or "value": value})
        return
    prev = previous if isinstance(previous, dict) else {}
    scalars = {k: v for k, v in value.items() if _is_scalar(v)}
    if scalars:
        _key_value(drawing, title, scalars)
    for k, v in value.items():
        if _is_scalar(v) or not v:  # an empty list or object is left out
            continue
        name = f"{title}.{k}" if title else str(k)
        if isinstance(v, dict) and all(_is_scalar(x) for x in v.values()):
            _key_value(drawing, name, v)
        else:
            _tables(drawing, v, name, layout, prev.get(k) if previous is not None else None)


def draw(
    value: Any,
    layout: TableLayout | None = None,
    view: TableView | None = None,
    *,
    width: int | None = None,
    previous: Any = None,
) -> tuple[list[_Block], bool]:
    """The tables of ``value`` fitted to ``width`` (None: whole); also whether ``--sort-by`` applied."""
    drawing = _Drawing(view or TableView(), None if (view and view.wide) else width)
    _tables(drawing, value, "", layout, previous)
    return drawing.blocks, drawing.sorted_by


def render(
    value: Any,
    stream: IO[str],
    layout: TableLayout | None = None,
    view: TableView | None = None,
    *,
    width: int | None = None,
    color: bool | None = None,
    previous: Any = None,
) -> bool:
    """Draw ``value`` on ``stream`` (a text stream) as tables; returns whether ``--sort-by`` found
    its column. ``width`` defaults to the terminal's, else :func:`~mqadmin.cli.tables.pipe_width`;
    ``color`` to whether ``stream`` is a terminal; ``previous`` is the last round of a watch."""
    tty = terminal_width(stream)
    if width is None:
        width = tty if tty is not None else pipe_width()
    if color is None:
        color = tty is not None
    view = view or TableView()
    blocks, used = draw(value, layout, view, width=width, previous=previous)
    widest = max([width, *(b.width for b in blocks), *(len(b.title) for b in blocks)])
    buf = io.StringIO()
    console = Console(
        file=buf,
        width=widest,
        force_terminal=color,
        no_color=not color,
        color_system="standard" if color else None,
        highlight=False,
        soft_wrap=False,
        emoji=False,
        markup=False,
    )
    for i, block in enumerate(blocks):
        if i:
            console.out("")
        if block.title and view.headers:
            title = block.title if view.wide else elide(block.title, width)
            console.print(Text(title, style="bold", no_wrap=True, overflow="ignore"))
        console.print(block.table)
    text = buf.getvalue()
    if not color:  # a pipe gets no trailing blanks
        text = "".join(line.rstrip() + "\n" for line in text.splitlines())
    stream.write(text)
    return used
