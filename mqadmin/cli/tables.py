"""What ``--output table`` and ``--output name`` show, without drawing: cells, order, columns, names.

Kept apart from :mod:`mqadmin.cli.richout` (which draws) so that ``--output name`` never loads rich
and the rules can be tested on their own:

- a cell is one line: numbers grouped, fractions to 2 places, epoch-millisecond times as local
  times, permissions as ``RW-`` (Java's ``PermName.perm2String``), none as ``-``;
- rows are sorted by their natural key (the identity columns they have: cluster, broker, topic,
  group, queue...), digits compared as numbers (``broker-10`` after ``broker-2``), or by
  ``--sort-by``;
- a table fits its width (80 columns in a pipe, the terminal's on one): headers shorten first, then
  long text cells are elided with ``…``, then the least important columns are dropped; a cell is
  never wrapped, so a word is never split; ``--wide`` shows every column whole.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from mqadmin.protocol.perm import perm_to_string

__all__ = [
    "GAP",
    "Column",
    "cell",
    "fit",
    "names",
    "natural",
    "pipe_width",
    "short_header",
    "sort_rows",
]

GAP = 2
"""Blanks between two columns."""

NONE = "-"
"""A cell with no value (a time of "never", a broker that did not answer)."""

ELLIPSIS = "…"

_EPOCH_MS_MIN = 100_000_000_000  # 1973: smaller "timestamps" are counters, not times

NATURAL_KEYS = (
    "cluster",
    "clusterName",
    "brokerName",
    "brokerId",
    "addr",
    "brokerAddr",
    "topic",
    "group",
    "consumerGroup",
    "producerGroup",
    "queueId",
    "clientId",
    "name",
    "key",
    "username",
    "subject",
)
"""Record keys that say which thing a row is: a table is sorted by those it has, in its column order."""

NAME_KEYS = (
    "name",
    "topic",
    "group",
    "consumerGroup",
    "producerGroup",
    "brokerName",
    "addr",
    "clientId",
    "username",
    "subject",
    "key",
)
"""``--output name``: the first of these a list's records have is the resource's name."""

_SHORT = {
    "brokerName": "broker",
    "brokerId": "id",
    "brokerAddr": "addr",
    "consumerGroup": "group",
    "producerGroup": "group",
    "version": "ver",
    "putTps": "put/s",
    "getTps": "get/s",
    "consumeTps": "cons/s",
    "topicPutTps": "put/s",
    "commitLogDiskRatio": "disk",
    "activated": "active",
    "queueId": "qid",
    "brokerOffset": "brokerOff",
    "consumerOffset": "consumerOff",
    "minOffset": "min",
    "maxOffset": "max",
    "timestampOffset": "atTime",
    "resetOffset": "reset",
    "inflight": "infl",
    "inflightTotal": "infl",
    "diffTotal": "diff",
    "accumulation": "accum",
    "inMsg24Hour": "in24h",
    "outMsg24Hour": "out24h",
    "lastTimestamp": "last",
    "lastUpdateTimestamp": "updated",
    "readQueueNums": "read",
    "writeQueueNums": "write",
    "topicSysFlag": "sysFlag",
    "putTotalYesterday": "putYday",
    "getTotalYesterday": "getYday",
    "putTotalToday": "putToday",
    "getTotalToday": "getToday",
    "clientId": "client",
    "storeTimestamp": "stored",
    "bornTimestamp": "born",
}
"""Short headers of the keys tables show most, where the general rule would read worse."""

_WORDS = re.compile(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])")


def short_header(key: str) -> str:
    """A header that takes less room: a known short form, else a long camelCase key as its first
    word and the initials of the rest (``sendThreadPoolQueueSize`` -> ``sendTPQS``)."""
    last = key.rsplit(".", 1)[-1]
    if last in _SHORT:
        return _SHORT[last]
    if len(last) <= 10:
        return last
    words = _WORDS.findall(last)
    if len(words) < 2:
        return last
    return words[0] + "".join(w[0].upper() for w in words[1:])


# -------------------------------------------------------------------------------------------- cells


def is_number(v: Any) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool)


def _is_time_key(key: str) -> bool:
    k = key.lower()
    return k.endswith("timestamp") or (k.endswith("time") and not k.endswith("runtime"))


def _is_perm_key(key: str) -> bool:
    return key == "perm" or key.endswith("Perm")


def local_time(ms: int) -> str | None:
    """An epoch-millisecond time as a local date and time to the second; None if it is not one."""
    try:
        return dt.datetime.fromtimestamp(ms / 1000).strftime("%Y-%m-%d %H:%M:%S")
    except (OverflowError, OSError, ValueError):
        return None


def cell(v: Any, key: str = "") -> str:
    """One value as a one-line cell (the column's ``key`` says how a number reads)."""
    if v is None:
        return NONE
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        if key and _is_perm_key(key) and 0 <= v < 16:
            return perm_to_string(v)
        if key and _is_time_key(key):
            if v <= 0:
                return NONE
            if v >= _EPOCH_MS_MIN:
                return local_time(v) or str(v)
        return f"{v:,}" if abs(v) >= 10_000 else str(v)
    if isinstance(v, float):
        return f"{v:,.2f}"
    if isinstance(v, dict | list):
        return json.dumps(v, ensure_ascii=False, separators=(",", ":"))
    return " ".join(str(v).split()) if "\n" in str(v) or "\t" in str(v) else str(v)


def pick(record: Mapping[str, Any], path: str) -> Any:
    """``record[path]``, where ``a.b`` reads a nested member."""
    v: Any = record
    for part in path.split("."):
        if not isinstance(v, Mapping):
            return None
        v = v.get(part)
    return v


# -------------------------------------------------------------------------------------------- order

_CHUNKS = re.compile(r"(\d+)")


def natural(v: Any) -> tuple[Any, ...]:
    """A sort key: numbers by value, text with its digit runs as numbers, none last."""
    if v is None:
        return (2,)
    if isinstance(v, bool):
        return (0, int(v))
    if is_number(v):
        return (0, v)
    parts = _CHUNKS.split(str(v))
    return (1, tuple((0, int(p), "") if p.isdigit() else (1, 0, p.lower()) for p in parts if p))


def natural_key(columns: Sequence[str]) -> list[str]:
    """The identity columns of a table, in its column order."""
    return [c for c in columns if c.rsplit(".", 1)[-1] in NATURAL_KEYS]


def match_column(name: str, columns: Sequence[str]) -> str | None:
    """The column ``--sort-by NAME`` means: its key, the last part of a nested key, or its short
    header, ignoring case."""
    want = name.lower()
    for c in columns:
        if want in (c.lower(), c.rsplit(".", 1)[-1].lower(), short_header(c).lower()):
            return c
    return None


def sort_rows(
    rows: Sequence[Any], columns: Sequence[str], sort_by: Sequence[str] = ()
) -> tuple[list[Any], bool]:
    """``rows`` in their natural order, or by the ``--sort-by`` columns this table has (``-col``:
    descending); also whether ``sort_by`` applied here."""
    keys: list[tuple[str, bool]] = []
    for spec in sort_by:
        desc = spec.startswith("-")
        col = match_column(spec.lstrip("-+"), columns)
        if col is not None:
            keys.append((col, desc))
    used = bool(keys)
    if not keys:
        keys = [(c, False) for c in natural_key(columns)]
    out = list(rows)
    for col, desc in reversed(keys):
        out.sort(key=lambda r, c=col: natural(pick(r, c)), reverse=desc)  # type: ignore[misc]
    return out, used


# ------------------------------------------------------------------------------------------ columns


@dataclass(slots=True)
class Column:
    """One column of a table and what fitting made of it."""

    key: str
    cells: list[str]
    numeric: bool = False
    keep: bool = False
    """Never dropped nor elided (the row's identity, an error)."""
    rank: int = 0
    """Importance: the highest rank is dropped first."""
    header: str = ""
    width: int = 0
    dropped: bool = field(default=False)

    @property
    def natural_width(self) -> int:
        return max((len(c) for c in self.cells), default=0)

    def need(self, header: str) -> int:
        return max(len(header), self.natural_width)

    @property
    def elidable(self) -> bool:
        """Text that may lose its end (``…``): not a number, not an identity, not a time."""
        return not self.keep and not self.numeric and not _is_time_key(self.key)


_MIN_ELIDED = 8
"""An elided cell keeps at least this many characters (or its header's)."""


def _total(cols: Iterable[Column]) -> int:
    shown = [c for c in cols if not c.dropped]
    return sum(c.width for c in shown) + GAP * max(0, len(shown) - 1)


def fit(cols: list[Column], width: int | None, *, headers: bool = True) -> list[Column]:
    """Choose each column's header and width so the table fits ``width`` (None: show all, whole).

    Long headers first; then short ones; then text cells elided down to a few characters; then
    the columns of highest rank dropped until the rest fit, and the room left given back to the
    elided ones. Identity columns are never dropped or cut: a table of them alone may be wider.
    Returns the columns shown.
    """
    for c in cols:
        c.header = c.key if headers else ""
        c.width = c.need(c.header)
    if width is None or _total(cols) <= width:
        return cols
    for c in cols:
        if headers:
            c.header = short_header(c.key)
        c.width = c.need(c.header)
    if _total(cols) <= width:
        return cols
    for c in cols:
        if c.elidable:
            c.width = min(c.width, max(_MIN_ELIDED, len(c.header)))
    for c in sorted((c for c in cols if not c.keep), key=lambda c: -c.rank):
        if _total(cols) <= width:
            break
        c.dropped = True
    room = width - _total(cols)
    for c in sorted((c for c in cols if not c.dropped and c.elidable), key=lambda c: c.rank):
        more = min(max(0, room), c.need(c.header) - c.width)
        c.width += more
        room -= more
    return [c for c in cols if not c.dropped]


def elide(text: str, width: int) -> str:
    """``text`` cut to ``width`` characters, its end replaced by ``…``."""
    return text if len(text) <= width else text[: max(0, width - 1)] + ELLIPSIS


def pipe_width() -> int:
    """The width of a table written to a pipe or file: ``COLUMNS`` if set, else 80."""
    try:
        n = int(os.environ.get("COLUMNS", ""))
    except ValueError:
        return 80
    return n if n > 0 else 80


# -------------------------------------------------------------------------------------------- names


def names(value: Any) -> list[str] | None:
    """``--output name``: the name of the one thing a document is about (``topic``, ``group``...),
    else of the resources it lists (its first list of names or of records with a :data:`NAME_KEYS`
    member), each once, in natural order; None if it has none."""
    if isinstance(value, list):
        if all(isinstance(v, str) for v in value):
            return sorted(dict.fromkeys(value), key=natural)
        records = [v for v in value if isinstance(v, Mapping)]
        for key in NAME_KEYS:
            got = [r.get(key) for r in records if r.get(key) is not None]
            if got:
                return sorted(dict.fromkeys(str(g) for g in got), key=natural)
        return None
    if isinstance(value, Mapping):
        if "error" in value:  # a failure's document names nothing (its message is on stderr)
            return []
        for key in NAME_KEYS:  # a document about one named thing (a topic's status, a group)
            if isinstance(value.get(key), str):
                return [value[key]]
        lists = [v for k, v in value.items() if isinstance(v, list) and k != "errors"]
        for v in lists:
            if v:
                found = names(v)
                if found is not None:
                    return found
        for v in value.values():
            if isinstance(v, Mapping):
                found = names(v)
                if found is not None:
                    return found
        if lists:
            return []  # a list that could hold names, empty this time
    return None
