"""The pipeline's command line: ``analyze`` here, ``snapshot`` and ``export`` beside it.

``snapshot`` needs pyarrow only; ``analyze`` and ``export`` need PySpark (and Java). Neither is
imported before a command runs, and a missing one is reported with the exact install command
(``pip install 'mqadmin[spark]'``), so the admin commands never pay for them. Exit codes: see
:mod:`mqadmin.pipeline.clitools`.
"""

from __future__ import annotations

import functools
import io
import sys
from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any

import click

from mqadmin.pipeline.clitools import (
    EXIT_INTERRUPTED,
    EXIT_USAGE,
    INSTALL_HINT,
    SettingsResolver,
    debug,
    fail,
    require_spark,
    spark_error,
)
from mqadmin.pipeline.export.command import export_command
from mqadmin.pipeline.lagalerts import EXIT_THRESHOLD, NO_LIMITS, LagLimits, lag_alerts
from mqadmin.pipeline.preflight import (
    NoDataError,
    UsageError,
    check_engine,
    check_format,
    check_input,
    check_out,
)
from mqadmin.pipeline.snapshot_command import snapshot_cmd, snapshot_command
from mqadmin.pipeline.structured import document_format, epoch_ms, print_document, record, structured_options

if TYPE_CHECKING:
    from pyspark.sql import DataFrame

__all__ = [
    "INSTALL_HINT",
    "AnalyzeArgs",
    "analyze_group",
    "analyze_options",
    "export_command",
    "pipeline_commands",
    "snapshot_cmd",
    "snapshot_command",
]

FORMATS = ("table", "json", "csv", "parquet")

_DOCUMENT = (
    "With --json or --output json|yaml (here or before the command), one document instead of the "
    "lines: {job, input, since, until (epoch ms or null), out (path written or null), format, rowCount, "
    "rows (camelCase keys, times in epoch ms; only when not written to --out)}."
)
_LAG_DOCUMENT = _DOCUMENT[:-2] + ", alerts (with --max-lag/--stuck: [{group, kind: maxLag|stuck, "
_LAG_DOCUMENT += "message, lag, maxLag | topic, stuckQueues, stalledSeconds}])}. Exit 8 when an alert trips."
_REPORT_DOCUMENT = "With --json or --output json|yaml (needs --out): {job, input, since, until, out}."


def _common_analyze_options(f: Callable[..., Any]) -> Callable[..., Any]:
    options = [
        click.option(
            "--input",
            "input_path",
            required=True,
            metavar="PATH",
            help="Snapshot root written by 'mqadmin snapshot' (local, hdfs://, s3a://, ...).",
        ),
        click.option(
            "--since",
            metavar="TIME",
            help="Only snapshots at or after TIME: ISO date/time (UTC unless an offset is given), "
            "epoch ms, or a duration back from now (6h, 2d).",
        ),
        click.option("--until", metavar="TIME", help="Only snapshots before TIME (same forms as --since)."),
        click.option(
            "--master",
            metavar="URL",
            help="Spark master (default local[*]; spark://..., yarn, k8s://...; spark-submit sets its own).",
        ),
        click.option(
            "--remote",
            metavar="URL",
            help="Run on a Spark Connect server (sc://host:port) instead of a local JVM.",
        ),
        click.option(
            "--all",
            "include_system",
            is_flag=True,
            default=False,
            help="Keep RocketMQ's own topics and groups (left out by default).",
        ),
    ]
    for opt in reversed(options):
        f = opt(f)
    return structured_options(f)


def _force_option(f: Callable[..., Any]) -> Callable[..., Any]:
    return click.option(
        "--force", is_flag=True, default=False, help="Replace --out when it exists (refused otherwise)."
    )(f)


def _format_options(f: Callable[..., Any]) -> Callable[..., Any]:
    f = _force_option(f)
    f = click.option("--out", metavar="PATH", help="Write there instead of stdout (parquet: a directory).")(f)
    return click.option(
        "--format",
        "fmt",
        type=click.Choice(FORMATS),
        default="table",
        show_default=True,
        help="Output format (json: JSON Lines, one object a row as in Spark's part files; no rows: none).",
    )(f)


@dataclass(frozen=True, slots=True)
class AnalyzeArgs:
    """What every ``analyze`` command is given besides its own options: the snapshots and their
    window, the Spark engine, and where and how the result goes."""

    input_path: str
    since: str | None
    until: str | None
    master: str | None
    remote: str | None
    include_system: bool
    document: str | None
    """``json`` or ``yaml`` for one document instead of the lines (``--json``/``--output``)."""
    fmt: str = "table"
    out: str | None = None
    force: bool = False


_SHARED = tuple(f.name for f in fields(AnalyzeArgs) if f.name != "document")


def analyze_options(*, formats: bool = True) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """The options every ``analyze`` command shares (with ``formats``: ``--format``, ``--out`` and
    ``--force`` too), handed to the command as one :class:`AnalyzeArgs` before its own options."""

    def wrap(f: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(f)
        def command(**kwargs: Any) -> Any:
            document = document_format(kwargs.pop("json_output"), kwargs.pop("output"))
            shared = {name: kwargs.pop(name) for name in _SHARED if name in kwargs}
            return f(AnalyzeArgs(**shared, document=document), **kwargs)

        return _common_analyze_options(_format_options(command) if formats else command)

    return wrap


def _run(job: str, args: AnalyzeArgs, *, limits: LagLimits = NO_LIMITS, **options: Any) -> None:
    prefix = f"mqadmin analyze {job}"
    document, out = args.document, args.out
    if document is not None and job == "report" and out is None:
        fail(prefix, f"--output {document} needs --out PATH (the page itself is HTML)", EXIT_USAGE)
    require_spark(f"analyze {job}")
    from mqadmin.pipeline.timespec import TimeSpecError, parse_time

    try:
        window_since = parse_time(args.since) if args.since else None
        window_until = parse_time(args.until) if args.until else None
    except TimeSpecError as e:
        raise click.BadParameter(str(e)) from None
    # everything that can be judged without Spark is judged before the JVM starts
    from mqadmin.pipeline.warm import WarmSparkError, engine, idle_seconds

    try:
        idle_seconds()  # a bad MQADMIN_SPARK_IDLE is the user's to fix, before any JVM
        check_engine(args.master, args.remote)
        if job != "report":
            check_format(args.fmt, out)
        check_out(out, args.force)
        check_input(args.input_path, job, window_since, window_until)
    except (UsageError, WarmSparkError) as e:
        fail(prefix, str(e), EXIT_USAGE)
    except NoDataError as e:
        fail(prefix, str(e))

    from mqadmin.pipeline.jobs.io import TimeWindow
    from mqadmin.pipeline.jobs.output import OutputError
    from mqadmin.pipeline.jobs.runner import JobOptions, run_job
    from mqadmin.pipeline.progress import progress

    columns: list[str] = []
    rows: list[tuple[Any, ...]] = []

    def keep(df: DataFrame) -> None:
        columns.extend(df.columns)
        rows.extend(tuple(r) for r in df.collect())

    try:
        with (
            progress(prefix, enabled=not debug()) as state,
            engine(prefix, args.master, args.remote, args.input_path, out, state) as run_on,
        ):
            where = run_job(
                job,
                run_on.input_path,
                window=TimeWindow(window_since, window_until),
                master=args.master,
                fmt=args.fmt,
                out=run_on.out,
                options=JobOptions(include_system=args.include_system, **options),
                # a document replaces the lines: the rows go into it, not to stdout
                stdout=io.StringIO() if document is not None and out is None else None,
                remote=run_on.remote,
                quiet=not debug(),
                progress=state,
                keep=keep if document is not None or limits.active else None,
            )
        where = out if where is not None else None  # the path as the user gave it
    except (NoDataError, OutputError) as e:
        fail(prefix, str(e))
    except WarmSparkError as e:
        fail(prefix, str(e))
    except KeyboardInterrupt:
        fail(prefix, "interrupted", EXIT_INTERRUPTED)
    except Exception as e:
        fail(prefix, spark_error(e), exc=e)
    alerts = lag_alerts([dict(zip(columns, r, strict=True)) for r in rows], limits) if limits.active else []
    if document is not None:
        doc: dict[str, Any] = {
            "job": job,
            "input": args.input_path,
            "since": epoch_ms(window_since) if window_since else None,
            "until": epoch_ms(window_until) if window_until else None,
            "out": where,
        }
        if job != "report":
            doc["format"] = args.fmt if where is not None else None
            doc["rowCount"] = len(rows)
            if where is None:
                doc["rows"] = [record(columns, r) for r in rows]
        if limits.active:
            doc["alerts"] = alerts
        print_document(document, doc)
    elif where is not None:
        click.echo(f"{prefix}: wrote {where}", err=True)
    for a in alerts:
        click.echo(f"{prefix}: ALERT: {a['message']}", err=True)
    if alerts:
        sys.exit(EXIT_THRESHOLD)


@click.group(
    "analyze",
    context_settings={"help_option_names": ["-h", "--help"]},
    invoke_without_command=True,
    epilog="Without --master or --remote the jobs run on a warm local Spark Connect server (127.0.0.1) "
    "that the first one starts and later ones reuse; it stops after MQADMIN_SPARK_IDLE seconds "
    "without a job (default 600; 0: no warm server, each job starts its own JVM as --master local[*] "
    "does) or with --stop-spark. Its state is in $XDG_CACHE_HOME/mqadmin (or ~/.cache/mqadmin).",
)
@click.option(
    "--stop-spark",
    is_flag=True,
    default=False,
    help="Stop the warm local Spark server now (the next job starts a new one).",
)
@click.pass_context
def analyze_group(ctx: click.Context, stop_spark: bool) -> None:
    """Analyze snapshots with Spark: lag, throughput, skew, idle, report."""
    if stop_spark:
        if ctx.invoked_subcommand is not None:
            fail("mqadmin analyze", "--stop-spark takes no job", EXIT_USAGE)
        from mqadmin.pipeline.warm import stop

        was = stop()
        if was is None:
            click.echo("mqadmin analyze: no warm Spark server was running", err=True)
        else:
            click.echo(f"mqadmin analyze: stopped the warm Spark server (pid {was.pid}, {was.url})", err=True)
    elif ctx.invoked_subcommand is None:
        raise click.exceptions.NoArgsIsHelpError(ctx)  # as every group given no command


@analyze_group.command("lag", epilog=_LAG_DOCUMENT)
@analyze_options()
@click.option(
    "--stuck-after",
    type=float,
    metavar="SECONDS",
    help="Flag a consumer stuck when its offset has not moved for this long while it has lag "
    "(default: 300, or the whole window when shorter).",
)
@click.option(
    "--max-lag",
    type=click.IntRange(min=0),
    metavar="N",
    help="Exit 8 (after the usual output) when a group's latest lag, all its topics together, is over N; "
    "each such group is named on stderr.",
)
@click.option(
    "--stuck",
    "alert_stuck",
    is_flag=True,
    default=False,
    help="Exit 8 when a group is stuck (see --stuck-after).",
)
def lag_cmd(args: AnalyzeArgs, stuck_after: float | None, max_lag: int | None, alert_stuck: bool) -> None:
    """Lag per group and topic: now, trend, rates, time to drain, stuck consumers."""
    _run("lag", args, limits=LagLimits(max_lag, alert_stuck), stuck_after=stuck_after)


@analyze_group.command("throughput", epilog=_DOCUMENT)
@analyze_options()
@click.option(
    "--by",
    type=click.Choice(["topic", "broker"]),
    default="topic",
    show_default=True,
    help="Produce rate per topic or per broker.",
)
def throughput_cmd(args: AnalyzeArgs, by: str) -> None:
    """Produce rate per topic or broker, from max-offset steps."""
    _run("throughput", args, by=by)


@analyze_group.command("skew", epilog=_DOCUMENT)
@analyze_options()
@click.option("--per-queue", is_flag=True, default=False, help="One row per queue instead of per topic.")
def skew_cmd(args: AnalyzeArgs, per_queue: bool) -> None:
    """Per-queue produce rates within each topic: max/mean, hot queue, queues never written."""
    _run("skew", args, per_queue=per_queue)


@analyze_group.command("idle", epilog=_DOCUMENT)
@analyze_options()
def idle_cmd(args: AnalyzeArgs) -> None:
    """Topics with no message written and groups with nothing consumed over the window."""
    _run("idle", args)


@analyze_group.command("report", epilog=_REPORT_DOCUMENT)
@analyze_options(formats=False)
@click.option("--out", metavar="PATH", help="Write the HTML page there instead of stdout.")
@_force_option
@click.option(
    "--top",
    type=click.IntRange(1, 20),
    default=5,
    show_default=True,
    help="How many groups and topics the charts show.",
)
@click.option("--stuck-after", type=float, metavar="SECONDS", help="As for 'analyze lag'.")
def report_cmd(args: AnalyzeArgs, top: int, stuck_after: float | None) -> None:
    """One self-contained HTML page: lag and throughput charts, stuck, idle, skew, missing brokers."""
    _run("report", args, top=top, stuck_after=stuck_after)


def pipeline_commands(resolve: SettingsResolver | None = None) -> dict[str, click.Command]:
    """Every pipeline command by name, with ``resolve`` for the ones that talk to a cluster."""
    return {
        "analyze": analyze_group,
        "snapshot": snapshot_command(resolve),
        "export": export_command(resolve),
    }
