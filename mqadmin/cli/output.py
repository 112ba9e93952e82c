"""Where command results go: Java-identical text, or the same data as JSON, YAML or rich tables.

Everything for stdout passes through :class:`Output`, so nothing but the result ever lands there
(logging goes to stderr, and only with ``--debug``). Text is written as UTF-8 bytes with ``\\n``
line ends whatever the locale, as the Java tool writes on Linux.
"""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, BinaryIO

__all__ = ["FORMATS", "Output", "TableLayout", "finite"]

FORMATS = ("text", "json", "yaml", "table")


@dataclass(frozen=True, slots=True)
class TableLayout:
    """How ``--output table`` draws a command's lists, where the general rules would not read well.

    ``columns`` names, per list member of the document (``"brokers"``), the record keys to show as
    columns (``a.b`` for a nested one), one row per record; a key in ``always`` (an error) is added
    as a column when any record has it.
    """

    columns: Mapping[str, tuple[str, ...]]
    always: tuple[str, ...] = ("error",)


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


class Output:
    """The result stream of one command run."""

    def __init__(self, fmt: str = "text", stream: BinaryIO | None = None) -> None:
        if fmt not in FORMATS:
            raise ValueError(f"unknown output format {fmt!r}")
        self.format = fmt
        self._stream = stream if stream is not None else sys.stdout.buffer
        self.lines = 0
        self.compact = False
        """Every JSON document on one line (watch mode: one document a line per round)."""

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
        if self.format == "table":
            import io

            from mqadmin.cli.richout import render

            if self._stream is sys.stdout.buffer:  # rich sees the terminal: colour only there
                sys.stdout.flush()
                render(value, sys.stdout, table)
                sys.stdout.flush()
                return
            buf = io.StringIO()
            render(value, buf, table)
            self._write(buf.getvalue().encode("utf-8", "surrogateescape"))
            return
        if self.format == "json":
            value = finite(value)
            if compact or self.compact:
                doc = json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False) + "\n"
            else:
                doc = json.dumps(value, ensure_ascii=False, indent=2, allow_nan=False) + "\n"
        elif self.format == "yaml":
            from mqadmin.cli.yamlout import dump_yaml

            doc = dump_yaml(finite(value))
        else:
            return
        self._write(doc.encode("utf-8", "surrogateescape"))

    def emit(
        self,
        value: Any,
        render: Callable[[], str],
        *,
        compact: bool = False,
        table: TableLayout | None = None,
    ) -> None:
        """The result as data (structured modes) or as the Java text ``render()`` builds."""
        if self.structured:
            self.data(value, compact=compact, table=table)
        else:
            self.text(render())

    def json_line(self, value: Any) -> None:
        """One compact JSON document on a line of its own, written at once (streams, ``--json-lines``)."""
        doc = json.dumps(finite(value), ensure_ascii=False, separators=(",", ":"), allow_nan=False) + "\n"
        self._write(doc.encode("utf-8", "surrogateescape"))

    def raw(self, b: bytes) -> None:
        """Write a document that is its own format (a Prometheus exposition), whatever ``--output``."""
        self._write(b)

    def _write(self, b: bytes) -> None:
        self._stream.write(b)
        self._stream.flush()
        self.lines += b.count(b"\n")
