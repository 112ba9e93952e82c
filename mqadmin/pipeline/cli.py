"""The pipeline's command line: ``analyze`` here, ``snapshot`` and ``export`` beside it.

``snapshot`` needs pyarrow only; ``analyze`` and ``export`` need PySpark (and Java). Neither is
imported before a command runs, and a missing one is reported with the exact install command
(``pip install 'mqadmin[spark]'``), so the admin commands never pay for them. Exit codes: see
:mod:`mqadmin.pipeline.clitools`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

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
from mqadmin.pipeline.preflight import (
    NoDataError,
    UsageError,
    check_engine,
    check_format,
    check_input,
    check_out,
)
from mqadmin.pipeline.snapshot_command import snapshot_cmd, snapshot_command

__all__ = [
    "INSTALL_HINT",
    "analyze_group",
    "export_command",
    "pipeline_commands",
    "snapshot_cmd",
    "snapshot_command",
]

FORMATS = ("table", "json", "csv", "parquet")


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
    return f


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
        help="Output format.",
    )(f)


def _run(
    job: str,
    input_path: str,
    since: str | None,
    until: str | None,
    master: str | None,
    remote: str | None,
    fmt: str,
    out: str | None,
    force: bool,
    **options: Any,
) -> None:
    prefix = f"mqadmin analyze {job}"
    require_spark(f"analyze {job}")
    from mqadmin.pipeline.timespec import TimeSpecError, parse_time

    try:
        window_since = parse_time(since) if since else None
        window_until = parse_time(until) if until else None
    except TimeSpecError as e:
        raise click.BadParameter(str(e)) from None
    # everything that can be judged without Spark is judged before the JVM starts
    try:
        check_engine(master, remote)
        if job != "report":
            check_format(fmt, out)
        check_out(out, force)
        check_input(input_path, job, window_since, window_until)
    except UsageError as e:
        fail(prefix, str(e), EXIT_USAGE)
    except NoDataError as e:
        fail(prefix, str(e))

    from mqadmin.pipeline.jobs.io import TimeWindow
    from mqadmin.pipeline.jobs.output import OutputError
    from mqadmin.pipeline.jobs.runner import JobOptions, run_job
    from mqadmin.pipeline.progress import progress

    try:
        with progress(prefix, enabled=not debug()) as state:
            where = run_job(
                job,
                input_path,
                window=TimeWindow(window_since, window_until),
                master=master,
                fmt=fmt,
                out=out,
                options=JobOptions(**options),
                remote=remote,
                quiet=not debug(),
                progress=state,
            )
    except (NoDataError, OutputError) as e:
        fail(prefix, str(e))
    except KeyboardInterrupt:
        fail(prefix, "interrupted", EXIT_INTERRUPTED)
    except Exception as e:
        fail(prefix, spark_error(e), exc=e)
    else:
        if where is not None:
            click.echo(f"{prefix}: wrote {where}", err=True)


@click.group("analyze", context_settings={"help_option_names": ["-h", "--help"]})
def analyze_group() -> None:
    """Analyze snapshots with Spark: lag, throughput, skew, idle, report."""


@analyze_group.command("lag")
@_common_analyze_options
@_format_options
@click.option(
    "--stuck-after",
    type=float,
    metavar="SECONDS",
    help="Flag a consumer stuck when its offset has not moved for this long while it has lag "
    "(default: 300, or the whole window when shorter).",
)
def lag_cmd(
    input_path: str,
    since: str | None,
    until: str | None,
    master: str | None,
    remote: str | None,
    include_system: bool,
    fmt: str,
    out: str | None,
    force: bool,
    stuck_after: float | None,
) -> None:
    """Lag per group and topic: now, trend, rates, time to drain, stuck consumers."""
    _run(
        "lag",
        input_path,
        since,
        until,
        master,
        remote,
        fmt,
        out,
        force,
        include_system=include_system,
        stuck_after=stuck_after,
    )


@analyze_group.command("throughput")
@_common_analyze_options
@_format_options
@click.option(
    "--by",
    type=click.Choice(["topic", "broker"]),
    default="topic",
    show_default=True,
    help="Produce rate per topic or per broker.",
)
def throughput_cmd(
    input_path: str,
    since: str | None,
    until: str | None,
    master: str | None,
    remote: str | None,
    include_system: bool,
    fmt: str,
    out: str | None,
    force: bool,
    by: str,
) -> None:
    """Produce rate per topic or broker, from max-offset steps."""
    _run(
        "throughput",
        input_path,
        since,
        until,
        master,
        remote,
        fmt,
        out,
        force,
        include_system=include_system,
        by=by,
    )


@analyze_group.command("skew")
@_common_analyze_options
@_format_options
@click.option("--per-queue", is_flag=True, default=False, help="One row per queue instead of per topic.")
def skew_cmd(
    input_path: str,
    since: str | None,
    until: str | None,
    master: str | None,
    remote: str | None,
    include_system: bool,
    fmt: str,
    out: str | None,
    force: bool,
    per_queue: bool,
) -> None:
    """Per-queue produce rates within each topic: max/mean, hot queue, queues never written."""
    _run(
        "skew",
        input_path,
        since,
        until,
        master,
        remote,
        fmt,
        out,
        force,
        include_system=include_system,
        per_queue=per_queue,
    )


@analyze_group.command("idle")
@_common_analyze_options
@_format_options
def idle_cmd(
    input_path: str,
    since: str | None,
    until: str | None,
    master: str | None,
    remote: str | None,
    include_system: bool,
    fmt: str,
    out: str | None,
    force: bool,
) -> None:
    """Topics with no message written and groups with nothing consumed over the window."""
    _run("idle", input_path, since, until, master, remote, fmt, out, force, include_system=include_system)


@analyze_group.command("report")
@_common_analyze_options
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
def report_cmd(
    input_path: str,
    since: str | None,
    until: str | None,
    master: str | None,
    remote: str | None,
    include_system: bool,
    out: str | None,
    force: bool,
    top: int,
    stuck_after: float | None,
) -> None:
    """One self-contained HTML page: lag and throughput charts, stuck, idle, skew, missing brokers."""
    _run(
        "report",
        input_path,
        since,
        until,
        master,
        remote,
        "table",
        out,
        force,
        include_system=include_system,
        top=top,
        stuck_after=stuck_after,
    )


def pipeline_commands(resolve: SettingsResolver | None = None) -> dict[str, click.Command]:
    """Every pipeline command by name, with ``resolve`` for the ones that talk to a cluster."""
    return {
        "analyze": analyze_group,
        "snapshot": snapshot_command(resolve),
        "export": export_command(resolve),
    }
