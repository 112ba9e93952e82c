"""The options every command accepts besides the Java ones (long names only, so no Java letter clashes).

They may also be given before the command name (``mqadmin --context prod clusterList``); a value on
the command wins. They are declared once, as data (:data:`COMMON`), and the click options of every
command are made from that table (:func:`common_options`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import click

from mqadmin.cli.output import FORMATS
from mqadmin.cli.tablelayout import TableView

__all__ = [
    "COMMON",
    "COMMON_NAMES",
    "COUNT_PARAM",
    "DEADLINE",
    "WATCH_COUNT",
    "WATCH_INTERVAL",
    "WATCH_PARAM",
    "CommonValues",
    "OurOpt",
    "common_options",
    "common_values",
    "context_names",
    "deadline_option",
    "pop_watch",
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
    def view(self) -> TableView | None:
        """How ``--output table`` reads: ``--wide``, ``--sort-by``, ``--no-headers``; None when none
        of them is given (the defaults)."""
        if not (self.wide or self.sort_by or self.no_headers):
            return None
        from mqadmin.cli.tablelayout import TableView

        cols = tuple(c.strip() for c in (self.sort_by or "").split(",") if c.strip())
        return TableView(wide=self.wide, sort_by=cols, headers=not self.no_headers)


@dataclass(slots=True, frozen=True)
class OurOpt:
    """One option of ours (not the Java tool's): its spellings, where its value goes, and what kind
    of value it takes. The common options, a watch's, ``--dry-run``, ``--max-lag`` and the like.

    ``flags``: ``("--timeout",)``, ``("-i", "--interval")``; a ``--x/--no-x`` switch lists ``--x``.
    ``kind``: ``text``, ``int``, ``float``, ``choice`` (one of ``choices``), ``flag`` or ``switch``
    (``--x/--no-x``). ``low``/``high``: the smallest/largest number an ``int`` or ``float`` takes.
    """

    flags: tuple[str, ...]
    dest: str
    help: str
    kind: str = "text"
    metavar: str | None = None
    choices: tuple[str, ...] = ()
    low: float | None = None
    high: float | None = None

    @property
    def takes_value(self) -> bool:
        return self.kind in ("text", "int", "float", "choice")

    @property
    def off_flag(self) -> str | None:
        """The ``--no-x`` spelling of a switch."""
        return "--no-" + self.flags[-1][2:] if self.kind == "switch" else None

    def click_option(self, names: list[str] | None = None) -> click.Option:
        """This option as click declares it (``names``: other spellings to accept instead)."""
        import click

        spelled = names or list(self.flags)
        if self.kind == "switch":
            return click.Option([f"{spelled[-1]}/{self.off_flag}", self.dest], default=None, help=self.help)
        if self.kind == "flag":
            return click.Option([*spelled, self.dest], is_flag=True, default=False, help=self.help)
        kw: dict[str, Any] = {"metavar": self.metavar, "help": self.help}
        ranged = self.low is not None or self.high is not None
        if self.kind == "int":
            lo, hi = (None if b is None else int(b) for b in (self.low, self.high))
            kw["type"] = click.IntRange(min=lo, max=hi) if ranged else int
        elif self.kind == "float":
            kw["type"] = click.FloatRange(min=self.low, max=self.high) if ranged else float
        elif self.kind == "choice":
            kw["type"] = click.Choice(self.choices)
        if self.dest == "context":
            kw["shell_complete"] = context_names
        return click.Option([*spelled, self.dest], **kw)


COMMON: tuple[OurOpt, ...] = (
    OurOpt(
        ("--context",),
        "context",
        "Use this context (named connection profile) for the call; default MQADMIN_CONTEXT, "
        "else the current one ('mqadmin context use').",
        metavar="NAME",
    ),
    OurOpt(
        ("--timeout",),
        "timeout",
        "Seconds each request may take (default: the context's, else MQADMIN_TIMEOUT, else 5).",
        kind="float",
        metavar="SECONDS",
    ),
    OurOpt(
        ("--json",),
        "json_output",
        "Print the result as JSON (same data as the text; shapes in mqadmin(1)).",
        kind="flag",
    ),
    OurOpt(
        ("--output",),
        "output",
        "Output format: text (the Java tool's, the default), json, yaml, table (columns that "
        "fit the terminal, or 80 in a pipe; coloured on a terminal), or name (one resource name a line).",
        kind="choice",
        metavar="FORMAT",
        choices=FORMATS,
    ),
    OurOpt(
        ("--wide",),
        "wide",
        "--output table: every column, whole, however wide (by default columns shorten, elide or drop "
        "to fit).",
        kind="flag",
    ),
    OurOpt(
        ("--sort-by",),
        "sort_by",
        "--output table: sort rows by these columns (comma-separated, -COLUMN descending) "
        "instead of their natural key (cluster, broker, topic, group, queue).",
        metavar="COLUMNS",
    ),
    OurOpt(
        ("--no-headers",),
        "no_headers",
        "--output table: rows only, no header rows or titles.",
        kind="flag",
    ),
    OurOpt(
        ("--access-key",),
        "access_key",
        "ACL access key to sign requests with (default: MQADMIN_ACCESS_KEY, the context, "
        "else $ROCKETMQ_HOME/conf/tools.yml).",
        metavar="KEY",
    ),
    OurOpt(
        ("--secret-key",),
        "secret_key",
        "ACL secret key (default: MQADMIN_SECRET_KEY, the context, else tools.yml); '-' reads it "
        "from a prompt or the first line of stdin, keeping it out of argv.",
        metavar="KEY",
    ),
    OurOpt(
        ("--tls",),
        "tls",
        "Talk TLS to name servers and brokers (default: the context's setting, else MQADMIN_TLS).",
        kind="switch",
    ),
    OurOpt(("--debug",), "debug", "Show log messages and the traceback of a failure on stderr.", kind="flag"),
)
"""The options of every command, in the order the help lists them."""

SHORT_OUTPUT = " -o where the Java command has no -o of its own."
"""What ``-o`` adds to ``--output``'s help on the commands that take it."""

DEADLINE = OurOpt(
    ("--deadline",),
    "deadline",
    "Stop waiting for the servers asked in parallel after this many seconds "
    "(default: three times --timeout); the ones that did not answer are reported.",
    kind="float",
    metavar="SECONDS",
)
"""The option of the commands that ask many servers at once."""


WATCH_PARAM = "watch_interval"
COUNT_PARAM = "watch_count"
WATCH_INTERVAL = OurOpt(
    ("-i", "--interval"),
    WATCH_PARAM,
    "Watch: run again every SECONDS until interrupted (Ctrl-C) or --count rounds. On a "
    "terminal the screen is redrawn in place, with the round's time and what changed; "
    "piped, rounds follow each other (with --json one compact document a line). A failed "
    "round is reported on stderr and the next one runs.",
    kind="float",
    metavar="SECONDS",
    low=0.1,
)
"""``-i SECONDS`` of the commands that can watch (Java's clusterList has -i; we give it to more)."""
WATCH_COUNT = OurOpt(
    ("--count",),
    COUNT_PARAM,
    "With -i: stop after N rounds; the exit code is the last round's.",
    kind="int",
    metavar="N",
    low=1,
)
"""``--count N``: a watch of N rounds (a check that samples, then ends with the last round's code)."""


def pop_watch(params: dict[str, Any]) -> tuple[float, int | None] | None:
    """The watch asked for in a command's parameters (taken out of them): its interval in seconds and
    its count of rounds (None: until interrupted); None for one run. A command whose ``-i`` is its own
    (clusterList) keeps its ``--count``."""
    if WATCH_PARAM not in params:
        return None
    interval = params.pop(WATCH_PARAM, None)
    count = params.pop(COUNT_PARAM, None)
    if interval is None:
        if count is not None:
            raise click.UsageError("--count needs -i SECONDS")
        return None
    return float(interval), count


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
    out = []
    for opt in COMMON:
        if opt.dest == "output" and short_output:
            o = opt.click_option(["-o", "--output"])
            o.help = f"{opt.help}{SHORT_OUTPUT}"
            out.append(o)
        else:
            out.append(opt.click_option())
    return out


def deadline_option() -> click.Option:
    """For commands that ask many servers at once."""
    return DEADLINE.click_option()


COMMON_NAMES = (*(o.dest for o in COMMON), DEADLINE.dest)


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
