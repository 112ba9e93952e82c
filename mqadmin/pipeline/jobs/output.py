"""Job results out: a text table, JSON lines or CSV on stdout, or any format written by Spark to a path.

On stdout the result is collected to the driver (job results are aggregates: one row per group,
topic or queue). With ``--out`` a table/JSON/CSV goes to a local file, while ``parquet`` (and JSON or
CSV to a non-local URI such as ``s3a://``) is written by Spark as a directory with a single part.

``json`` is JSON Lines, one object a row, the same on stdout, in a local file and in Spark's part
files, so one reader reads them all. No rows is no lines (a ``[]`` line would be a row that is not an
object, and would break ``jq .group`` exactly when all is well); on a terminal a note on stderr says
so. One document with ``"rows": []`` is what ``--json`` prints.
"""

from __future__ import annotations

import csv
import io
import json
import math
import sys
from collections.abc import Sequence
from datetime import UTC, date, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

if TYPE_CHECKING:
    from pyspark.sql import DataFrame

__all__ = ["FORMATS", "OutputError", "as_utc", "emit", "format_value", "render_table"]

FORMATS = ("table", "json", "csv", "parquet")


class OutputError(Exception):
    """The format and destination do not go together (``parquet`` needs ``--out``)."""


def _is_local(path: str) -> bool:
    return "://" not in path or path.startswith("file://")


def _local(path: str) -> Path:
    return Path(path[len("file://") :] if path.startswith("file://") else path)


def as_utc(v: datetime) -> datetime:
    """A collected timestamp in UTC: PySpark hands them out naive, in the local time zone."""
    return v.astimezone(UTC)


def format_value(v: Any) -> str:
    """A cell as people read it: UTC times to the second, rates to 3 decimals, empty for null."""
    if v is None:
        return ""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, datetime):
        return as_utc(v).strftime("%Y-%m-%d %H:%M:%S")
    if isinstance(v, float):
        if not math.isfinite(v):
            return str(v)
        return f"{v:.3f}".rstrip("0").rstrip(".") if v != int(v) else str(int(v))
    return str(v)


def _json_value(v: Any) -> Any:
    if isinstance(v, datetime):
        return as_utc(v).isoformat().replace("+00:00", "Z")
    if isinstance(v, date):
        return v.isoformat()
    if isinstance(v, float) and not math.isfinite(v):
        return None
    return v


def _csv_value(v: Any) -> Any:
    if v is None:
        return ""
    if isinstance(v, bool):
        return "true" if v else "false"
    return _json_value(v)


def render_table(columns: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    """Left-aligned text columns with a header line, like the other mqadmin listings."""
    cells = [[format_value(v) for v in row] for row in rows]
    widths = [len(c) for c in columns]
    for row in cells:
        for i, c in enumerate(row):
            widths[i] = max(widths[i], len(c))
    lines = ["  ".join(c.ljust(w) for c, w in zip(columns, widths, strict=True)).rstrip()]
    lines += ["  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip() for row in cells]
    return "\n".join(lines) + "\n"


def _text(df: DataFrame, fmt: str) -> str:
    rows = [tuple(r) for r in df.collect()]
    if fmt == "table":
        return render_table(df.columns, rows)
    if fmt == "json":
        return "".join(
            json.dumps({k: _json_value(v) for k, v in zip(df.columns, r, strict=True)}, ensure_ascii=False)
            + "\n"
            for r in rows
        )
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(df.columns)
    for r in rows:
        w.writerow([_csv_value(v) for v in r])
    return buf.getvalue()


def _is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def emit(df: DataFrame, fmt: str, out: str | None, stdout: TextIO | None = None) -> str | None:
    """Write ``df`` as ``fmt`` to ``out`` (a path) or to stdout; returns where it went (None: stdout)."""
    if fmt not in FORMATS:
        raise OutputError(f"unknown format {fmt!r}; use one of {', '.join(FORMATS)}")
    if out is None:
        if fmt == "parquet":
            raise OutputError("--format parquet needs --out PATH")
        stream = stdout or sys.stdout
        text = _text(df, fmt)
        stream.write(text)
        if not text and _is_terminal(stream):
            sys.stderr.write("no rows (--format json prints one line a row; --json prints rows: [])\n")
        return None
    if fmt == "parquet" or not _is_local(out):
        if fmt == "table":
            raise OutputError("--format table writes to a local file only")
        writer = df.coalesce(1).write.mode("overwrite")
        if fmt == "csv":
            writer = writer.option("header", "true")
        writer.format(fmt).save(out)
        return out
    from mqadmin.atomicfile import write_atomic

    write_atomic(_local(out), _text(df, fmt))
    return out
