"""The options every command accepts besides the Java ones (long names only, so no Java letter clashes).

They may also be given before the command name (``mqadmin --context prod clusterList``); a value on
the command wins.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import click

from mqadmin.cli.output import FORMATS
from mqadmin.cli.tablelayout import TableView

__all__ = [
    "COMMON_NAMES",
    "CommonValues",
    "common_options",
    "common_values",
    "context_names",
    "deadline_option",
]


@dataclass(slots=True)
class CommonValues:
    """The options every command shares (given on the command or before it)."""

    context: str | None = None
    timeout: float | None = None
    output: str = "text"
    access_key: str | None = None
    secret_key: str | None = None
    tls: bool | None = None
    debug: bool = False
    deadline: float | None = None
    wide: bool = False
    sort_by: str | None = None
    no_headers: bool = False

    @property
    def view(self) -> TableView:
        """How ``--output table`` reads: ``--wide``, ``--sort-by``, ``--no-headers``."""
        cols = tuple(c.strip() for c in (self.sort_by or "").split(",") if c.strip())
        return TableView(wide=self.wide, sort_by=cols, headers=not self.no_headers)


def context_names(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[str]:
    """The contexts defined (TAB after ``--context``)."""
    from mqadmin.cli.contexts import ContextError, ContextStore

    try:
        return [n for n in sorted(ContextStore.load().contexts) if n.startswith(incomplete)]
    except ContextError:
        return []


def common_options(short_output: bool = False) -> list[click.Option]:
    """Fresh click options for one command (or the group); ``short_output`` adds ``-o`` for
    ``--output`` (on the commands whose Java options have no ``-o``)."""
    return [
        click.Option(
            ["--context", "context"],
            metavar="NAME",
            shell_complete=context_names,
            help="Use this context (named connection profile) for the call; default MQADMIN_CONTEXT, "
            "else the current one ('mqadmin context use').",
        ),
        click.Option(
            ["--timeout", "timeout"],
            type=float,
            metavar="SECONDS",
            help="Seconds each request may take (default: the context's, else MQADMIN_TIMEOUT, else 5).",
        ),
        click.Option(
            ["--json", "json_output"],
            is_flag=True,
            default=False,
            help="Print the result as JSON (same data as the text; shapes in mqadmin(1)).",
        ),
        click.Option(
            ["-o", "--output", "output"] if short_output else ["--output", "output"],
            type=click.Choice(FORMATS),
            metavar="FORMAT",
            help="Output format: text (the Java tool's, the default), json, yaml, table (columns that "
            "fit the terminal, or 80 in a pipe; coloured on a terminal), or name (one resource name a "
            "line)." + (" -o where the Java command has no -o of its own." if short_output else ""),
        ),
        click.Option(
            ["--wide", "wide"],
            is_flag=True,
            default=False,
            help="--output table: every column, whole, however wide (by default columns shorten, "
            "elide or drop to fit).",
        ),
        click.Option(
            ["--sort-by", "sort_by"],
            metavar="COLUMNS",
            help="--output table: sort rows by these columns (comma-separated, -COLUMN descending) "
            "instead of their natural key (cluster, broker, topic, group, queue).",
        ),
        click.Option(
            ["--no-headers", "no_headers"],
            is_flag=True,
            default=False,
            help="--output table: rows only, no header rows or titles.",
        ),
        click.Option(
            ["--access-key", "access_key"],
            metavar="KEY",
            help="ACL access key to sign requests with (default: MQADMIN_ACCESS_KEY, the context, "
            "else $ROCKETMQ_HOME/conf/tools.yml).",
        ),
        click.Option(
            ["--secret-key", "secret_key"],
            metavar="KEY",
            help="ACL secret key (default: MQADMIN_SECRET_KEY, the context, else tools.yml); '-' reads it "
            "from a prompt or the first line of stdin, keeping it out of argv.",
        ),
        click.Option(
            ["--tls/--no-tls", "tls"],
            default=None,
            help="Talk TLS to name servers and brokers (default: the context's setting, else MQADMIN_TLS).",
        ),
        click.Option(
            ["--debug", "debug"],
            is_flag=True,
            default=False,
            help="Show log messages and the traceback of a failure on stderr.",
        ),
    ]


def deadline_option() -> click.Option:
    """For commands that ask many servers at once."""
    return click.Option(
        ["--deadline", "deadline"],
        type=float,
        metavar="SECONDS",
        help="Stop waiting for the servers asked in parallel after this many seconds "
        "(default: three times --timeout); the ones that did not answer are reported.",
    )


COMMON_NAMES = (
    "context",
    "timeout",
    "json_output",
    "output",
    "access_key",
    "secret_key",
    "tls",
    "debug",
    "deadline",
    "wide",
    "sort_by",
    "no_headers",
)


def common_values(params: dict[str, Any], parent: CommonValues | None = None) -> CommonValues:
    """Pop the common options from ``params``; values not given fall back to the group's."""
    base = parent or CommonValues()
    got = {name: params.pop(name, None) for name in COMMON_NAMES}
    fmt = got["output"] or ("json" if got["json_output"] else None) or base.output
    return CommonValues(
        context=got["context"] if got["context"] is not None else base.context,
        timeout=got["timeout"] if got["timeout"] is not None else base.timeout,
        output=fmt,
        access_key=got["access_key"] if got["access_key"] is not None else base.access_key,
        secret_key=got["secret_key"] if got["secret_key"] is not None else base.secret_key,
        tls=got["tls"] if got["tls"] is not None else base.tls,
        debug=bool(got["debug"]) or base.debug,
        deadline=got["deadline"] if got["deadline"] is not None else base.deadline,
        wide=bool(got["wide"]) or base.wide,
        sort_by=got["sort_by"] if got["sort_by"] is not None else base.sort_by,
        no_headers=bool(got["no_headers"]) or base.no_headers,
    )
