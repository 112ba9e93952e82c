"""Where command results go: Java-identical text, or the same data as JSON, YAML or rich tables.

Everything for stdout passes through :class:`Output`, so nothing but the result ever lands there
(logging goes to stderr, and only with ``--debug``). A command hands :meth:`Output.emit` one result
(:mod:`mqadmin.cli.results`) that renders itself both ways; this module picks which. Text is
written as UTF-8 bytes with ``\\n`` line ends whatever the locale, as the Java tool writes on Linux.
"""

from __future__ import annotations

import io
import json
import math
import re
import sys
import time
from collections.abc import Mapping
from typing import Any, BinaryIO

from mqadmin import API_VERSION
from mqadmin.cli.results import Result
from mqadmin.cli.tablelayout import TableLayout, TableView

__all__ = [
    "API_VERSION",
    "FORMATS",
    "Output",
    "conform",
    "epoch_ms",
    "finite",
    "number",
    "server_stats",
    "server_value",
    "tps",
    "tps_windows",
]

FORMATS = ("text", "json", "yaml", "table", "name")
"""``name``: one resource name a line (topics, groups, brokers), for ``xargs`` and ``while read``."""


def finite(value: Any) -> Any:
    """``value`` with every NaN or infinite float (a rate over no time) as null: JSON has no such
    numbers, and ``json.dumps`` would write ``NaN``, which no JSON parser reads."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: finite(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [finite(v) for v in value]
    return value


_JSON_NUMBER = re.compile(r"-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?")


def _is_json_number(text: str) -> bool:
    return _JSON_NUMBER.fullmatch(text) is not None


_WINDOWS = ("10s", "1m", "10m")
"""The windows of a broker's three-figure rates (``putTps "0.0 4.16 3.90"``: 10 s, 1 min, 10 min)."""


def number(value: Any) -> int | float | None:
    """A number a server sent as text (``"0"``, ``"185.6"``) as a number; null for absent, blank,
    ``N`` or anything else that is not one, so "none" is spelled one way."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return value if not isinstance(value, float) or math.isfinite(value) else None
    if not isinstance(value, str):
        return None
    text = value.strip()
    if not _is_json_number(text):
        return None
    if "." in text or "e" in text or "E" in text:
        f = float(text)
        return f if math.isfinite(f) else None
    return int(text)


def tps(value: Any) -> float | None:
    """A rate as the contract writes it: a number rounded to 2 places, null when unknown."""
    n = number(value)
    return None if n is None else round(float(n), 2)


def epoch_ms(value: Any) -> int | None:
    """A time in epoch milliseconds; null for none (servers say 0 or -1 for "never")."""
    n = number(value)
    if n is None or n <= 0:
        return None
    return int(n)


def tps_windows(stem: str, value: Any) -> dict[str, float | None]:
    """A broker's ``"a b c"`` rate as three keys ``{stem}10sTps``, ``{stem}1mTps``, ``{stem}10mTps``
    (a window the broker leaves out is null)."""
    parts = str(value).split() if value is not None else []
    return {f"{stem}{w}Tps": tps(parts[i]) if i < len(parts) else None for i, w in enumerate(_WINDOWS)}


def server_value(value: Any) -> Any:
    """A config or stats value a server sent as text, typed: a number, ``true``/``false`` as a
    boolean, anything else (an address, a path, a name) as the text."""
    if not isinstance(value, str):
        return value
    if value in ("true", "false"):
        return value == "true"
    n = number(value)
    return value if n is None or value.strip() != value else n


def server_stats(table: Mapping[str, str]) -> dict[str, Any]:
    """A broker's runtime-stats table (every value a string) as the contract writes it.

    Values are typed (:func:`server_value`); a ``...Tps`` of several windows becomes one key per
    window (:func:`tps_windows`); times end in ``Timestamp`` (null for none) and ``...Mills``
    durations end in ``Ms``. The per-directory ``commitLogDiskRatio_<path>`` entries (a key made of
    a path) are left to the text output: ``commitLogDiskRatio`` is the figure that matters, and the
    table stays flat (one key a row).
    """
    out: dict[str, Any] = {}
    for key in sorted(table):
        raw = table[key]
        if key.startswith("commitLogDiskRatio_"):
            continue
        name = key
        if name.endswith("Tps"):
            out.update(tps_windows(name[: -len("Tps")], raw))
        elif name.endswith(("Timestamp", "TimeStamp")):
            name = name.removesuffix("TimeStamp").removesuffix("Timestamp") + "Timestamp"
            out[name[:1].lower() + name[1:]] = epoch_ms(raw)
        elif name.endswith("Mills"):
            out[name[: -len("Mills")] + "Ms"] = number(raw)
        else:
            out[name[:1].lower() + name[1:]] = server_value(raw)
    return out


def _is_time_key(key: str) -> bool:
    return key == "timestamp" or key.endswith("Timestamp")


def conform(value: Any) -> Any:
    """``value`` as the contract writes it, wherever a command built it: NaN and infinities as null
    (:func:`finite`), a ``...Tps`` rounded to 2 places, a ``...Timestamp`` of 0 or less (a server's
    "never") as null."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        out: dict[Any, Any] = {}
        for k, v in value.items():
            v = conform(v)
            if isinstance(k, str) and not isinstance(v, bool):
                if k.endswith("Tps") and isinstance(v, int | float):
                    v = round(float(v), 2)
                elif _is_time_key(k) and isinstance(v, int | float) and v <= 0:
                    v = None
            out[k] = v
        return out
    if isinstance(value, list | tuple):
        return [conform(v) for v in value]
    return value


BROKER_KEYS = ("cluster", "brokerName", "brokerId", "addr")
"""What every broker item of a document (a member of a ``brokers`` list) starts with."""


def lacks_identity(value: Any) -> bool:
    """True when a ``brokers`` list anywhere in ``value`` has an item without all of :data:`BROKER_KEYS`
    (or a bare address)."""
    if isinstance(value, dict):
        for k, v in value.items():
            if k == "brokers" and isinstance(v, list):
                if any(
                    isinstance(b, str) or (isinstance(b, dict) and not all(f in b for f in BROKER_KEYS))
                    for b in v
                ):
                    return True
            if lacks_identity(v):
                return True
    elif isinstance(value, list):
        return any(lacks_identity(v) for v in value)
    return False


def identify(value: Any, who: Mapping[str, Mapping[str, Any]]) -> Any:
    """``value`` with every broker item starting with :data:`BROKER_KEYS`: its ``addr`` (a
    ``brokerAddr`` is renamed) and the name server's cluster, broker name and id for it (``who``,
    by address); what the item says itself wins, what nobody knows is null."""
    if isinstance(value, dict):
        out: dict[str, Any] = {}
        for k, v in value.items():
            if k == "brokers" and isinstance(v, list):
                out[k] = [_broker_item(b, who) if isinstance(b, dict | str) else b for b in v]
            else:
                out[k] = identify(v, who)
        return out
    if isinstance(value, list):
        return [identify(v, who) for v in value]
    return value


def _broker_item(item: dict[str, Any] | str, who: Mapping[str, Mapping[str, Any]]) -> dict[str, Any]:
    """One broker item; a bare address (a list of addresses) becomes an item of its own."""
    if isinstance(item, str):
        item = {"addr": item}
    rest = {k: identify(v, who) for k, v in item.items()}
    addr = rest.pop("addr", None) or rest.pop("brokerAddr", None)
    known = who.get(addr, {}) if isinstance(addr, str) else {}
    head: dict[str, Any] = {}
    for key in BROKER_KEYS[:3]:
        mine = rest.pop(key, None)
        head[key] = mine if mine is not None else known.get(key)
    head["addr"] = addr
    head.update(rest)
    return head


def document(value: Any, *, stream: bool = False) -> Any:
    """One document of the contract: ``apiVersion`` first, a stream line's ``timestamp`` (now, epoch
    ms) when it has none, the values :func:`conform`-ed. A value that is not an object is left as is."""
    value = conform(value)
    if not isinstance(value, dict):
        return value
    head: dict[str, Any] = {"apiVersion": API_VERSION}
    if stream and "timestamp" not in value:
        head["timestamp"] = int(time.time() * 1000)
    head.update((k, v) for k, v in value.items() if k != "apiVersion")
    return head


class Output:
    """The result stream of one command run."""

    def __init__(
        self, fmt: str = "text", stream: BinaryIO | None = None, view: TableView | None = None
    ) -> None:
        if fmt not in FORMATS:
            raise ValueError(f"unknown output format {fmt!r}")
        self.format = fmt
        self._stream = stream if stream is not None else sys.stdout.buffer
        self._view = view
        self.lines = 0
        self.compact = False
        """Every JSON document on one line (watch mode: one document a line per round)."""
        self.stream = False
        """Documents are lines of a stream (a watch): each carries its ``timestamp``."""
        self.hold = False
        """Keep a document whose broker items lack their identity until :meth:`release` (the caller
        asks the name server who the brokers are in between)."""
        self._held: list[tuple[Any, bool, TableLayout | None]] = []
        self.frame: io.BytesIO | None = None
        """A watch redrawn on a terminal: what a round writes is kept here, drawn when it ends."""
        self.frame_width = 80
        """The terminal's width, for the tables of a :attr:`frame`."""
        self.previous: Any = None
        """The last round's document of a watch (tables show how lag moved since)."""
        self.seen: list[Any] = []
        """The documents given since the watch last emptied this (text mode included)."""
        self._sort_warned = False

    @property
    def holding(self) -> bool:
        """True when documents wait for :meth:`release`."""
        return bool(self._held)

    def release(self, who: Mapping[str, Mapping[str, Any]]) -> None:
        """Write the held documents, their broker items completed from ``who`` (addr -> identity)."""
        held, self._held = self._held, []
        for value, compact, table in held:
            self._data(identify(value, who), compact, table)

    @property
    def structured(self) -> bool:
        """True for ``--json``/``--output yaml|table``: commands emit data instead of text."""
        return self.format != "text"

    def text(self, s: str) -> None:
        """Write Java-style text (only in text mode)."""
        if self.format == "text" and s:
            self._write(s.encode("utf-8", "surrogateescape"))

    def data(self, value: Any, *, compact: bool = False, table: TableLayout | None = None) -> None:
        """Write one JSON or YAML document, or draw it as tables (only in structured modes)."""
        self.seen.append(value)
        if self.hold and self.structured and lacks_identity(value):
            self._held.append((value, compact, table))
            return
        self._data(value, compact, table)

    def _data(self, value: Any, compact: bool, table: TableLayout | None) -> None:
        if self.format == "table":
            self._table(conform(value), table)
            return
        if self.format == "name":
            self._names(value)
            return
        value = document(value, stream=self.stream)
        if self.format == "json":
            if compact or self.compact:
                doc = json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False) + "\n"
            else:
                doc = json.dumps(value, ensure_ascii=False, indent=2, allow_nan=False) + "\n"
        elif self.format == "yaml":
            from mqadmin.cli.yamlout import dump_yaml

            doc = dump_yaml(value)
        else:
            return
        self._write(doc.encode("utf-8", "surrogateescape"))

    def emit(self, result: Result, *, compact: bool = False) -> None:
        """A command's result: its document in structured modes (drawn with its layout as tables),
        its Java text otherwise."""
        value = result.data()
        if self.structured:
            self.data(value, compact=compact, table=result.layout)
        else:
            self.seen.append(value)
            self.text(result.text())

    @property
    def view(self) -> TableView:
        """How tables read (``--wide``, ``--sort-by``, ``--no-headers``); the defaults unless given."""
        if self._view is None:
            from mqadmin.cli.tablelayout import TableView

            self._view = TableView()
        return self._view

    def _table(self, value: Any, layout: TableLayout | None) -> None:
        """Tables fitted to the terminal (coloured there), to 80 columns in a pipe, or to the
        terminal under a watch's redraw."""
        from mqadmin.cli.richout import render, terminal_width

        buf = io.StringIO()
        if self.frame is not None:
            width: int | None = self.frame_width
            color: bool | None = True
        elif self._stream is sys.stdout.buffer:
            width = terminal_width(sys.stdout)
            color = width is not None
        else:
            width, color = None, False
        used = render(value, buf, layout, self.view, width=width, color=color, previous=self.previous)
        if self.view.sort_by and not used and not self._sort_warned:
            self._sort_warned = True
            wanted = ",".join(self.view.sort_by)
            sys.stderr.write(f"mqadmin: warning: --sort-by {wanted}: no table has such a column\n")
        self._write(buf.getvalue().encode("utf-8", "surrogateescape"))

    def _names(self, value: Any) -> None:
        """One resource name a line; a document that names none is a usage error (a failure's
        document, whose message is on stderr already, writes nothing)."""
        from mqadmin.cli.tables import names

        found = names(value)
        if found is None:
            from mqadmin.cli.errors import CommandError
            from mqadmin.cli.exitcodes import ExitCode

            raise CommandError("--output name: this command's output names no resources", ExitCode.USAGE)
        self._write("".join(f"{n}\n" for n in found).encode("utf-8", "surrogateescape"))

    def json_line(self, value: Any) -> None:
        """One compact JSON document on a line of its own, written at once (streams, ``--json-lines``)."""

        doc = json.dumps(
            document(value, stream=True), ensure_ascii=False, separators=(",", ":"), allow_nan=False
        )
        self._write(doc.encode("utf-8", "surrogateescape") + b"\n")

    def raw(self, b: bytes) -> None:
        """Write a document that is its own format (a Prometheus exposition), whatever ``--output``."""
        self._write(b)

    def _write(self, b: bytes) -> None:
        if self.frame is not None:
            self.frame.write(b)
            return
        self._stream.write(b)
        self._stream.flush()
        self.lines += b.count(b"\n")
