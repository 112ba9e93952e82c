"""``--json`` / ``--output json|yaml`` for the pipeline's commands: one document instead of the lines.

The option may be given on the command or before it (``mqadmin --json analyze lag ...``); the
top-level group keeps it on its context object (read here by attribute, as :func:`clitools.debug`
does, since the CLI layer sits above this one). Keys are camelCase and times epoch milliseconds,
like the rest of mqadmin's JSON, and each document starts with the contract's ``apiVersion``.
``--output table``/``text`` keep the usual human output.
"""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Callable
from datetime import UTC, date, datetime
from typing import Any

import click

from mqadmin import API_VERSION

__all__ = ["camel", "document_format", "epoch_ms", "print_document", "record", "structured_options"]

_CHOICES = ("text", "json", "yaml", "table")


def structured_options(f: Callable[..., Any]) -> Callable[..., Any]:
    """``--json`` and ``--output`` on one command (values given before the command apply too)."""
    f = click.option(
        "--output",
        "output",
        type=click.Choice(_CHOICES),
        metavar="FORMAT",
        help="json or yaml: print one document describing the result instead of the lines "
        "(text and table keep them).",
    )(f)
    return click.option("--json", "json_output", is_flag=True, default=False, help="Same as --output json.")(
        f
    )


def document_format(json_output: bool, output: str | None) -> str | None:
    """``json`` or ``yaml`` when a document was asked for here or before the command, else None."""
    fmt = output or ("json" if json_output else None)
    if fmt is None:
        ctx = click.get_current_context(silent=True)
        fmt = getattr(ctx.find_root().obj, "output", None) if ctx is not None else None
    return fmt if fmt in ("json", "yaml") else None


def camel(name: str) -> str:
    """``lag_trend`` -> ``lagTrend``."""
    head, *rest = name.split("_")
    return head + "".join(p[:1].upper() + p[1:] for p in rest)


def epoch_ms(v: datetime) -> int:
    """A time as epoch milliseconds (a naive one, as PySpark hands them out, is local time)."""
    return round(v.astimezone(UTC).timestamp() * 1000)


def _value(v: Any) -> Any:
    if isinstance(v, datetime):
        return epoch_ms(v)
    if isinstance(v, date):
        return v.isoformat()
    if isinstance(v, float) and not math.isfinite(v):
        return None
    return v


def record(columns: list[str], values: Any) -> dict[str, Any]:
    """One result row as a document object: camelCase keys, epoch-ms times, no NaN."""
    return {camel(c): _value(v) for c, v in zip(columns, values, strict=True)}


def print_document(fmt: str, doc: dict[str, Any], *, compact: bool = False) -> None:
    """Write ``doc`` to stdout as one JSON document (NaN refused) or one YAML document.

    ``compact``: one of several (a JSON document on one line, a YAML one opened with ``---``).
    """
    doc = {"apiVersion": API_VERSION, **{k: v for k, v in doc.items() if k != "apiVersion"}}
    if fmt == "yaml":
        import yaml

        sys.stdout.write(yaml.safe_dump(doc, sort_keys=False, allow_unicode=True, explicit_start=compact))
    else:
        indent = None if compact else 2
        sys.stdout.write(json.dumps(doc, ensure_ascii=False, allow_nan=False, indent=indent) + "\n")
    sys.stdout.flush()
