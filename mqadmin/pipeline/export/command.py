"""``mqadmin export messages``: a topic's messages to Parquet or JSON via the ``rocketmq`` data source.

The ranges are planned first, through the admin API and without Spark, so a wrong topic or an
unreachable name server is said at once. A small plan with no ``--master``/``--remote`` is pulled and
written in this process (:mod:`.inprocess`: no JVM, well under a second for a few thousand
messages); anything else runs on Spark, the data source's tasks pulling their ranges in parallel.
"""

from __future__ import annotations

import math
import os
import time
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

import click

from mqadmin.pipeline.clitools import (
    EXIT_INTERRUPTED,
    EXIT_USAGE,
    INSTALL_HINT,
    SettingsResolver,
    debug,
    default_settings,
    fail,
    first_line,
    require_spark,
    spark_error,
)
from mqadmin.pipeline.structured import document_format, print_document, structured_options

if TYPE_CHECKING:
    from mqadmin.pipeline.export.plan import ExportOptions
    from mqadmin.pipeline.export.ranges import QueueRange
    from mqadmin.pipeline.progress import Progress

__all__ = ["export_command"]


def export_command(resolve: SettingsResolver | None = None) -> click.Group:
    """The ``export`` group (``export messages``); ``resolve`` as for :func:`snapshot_command`."""
    resolver = resolve or default_settings

    @click.group("export", context_settings={"help_option_names": ["-h", "--help"]})
    def export_group() -> None:
        """Export a topic's messages (in-process when small, else with Spark)."""

    @export_group.command(
        "messages",
        epilog="With --json or --output json|yaml (here or before the command), one document instead "
        "of the line: {topic, out, format, messages, begin, end (epoch ms or null), elapsedMs}.",
    )
    @click.option("-t", "--topic", required=True, help="Topic to export.")
    @click.option("--begin", metavar="TIME", help="Only messages stored at or after TIME (forms as --since).")
    @click.option("--end", metavar="TIME", help="Only messages stored before TIME.")
    @click.option(
        "--out", required=True, metavar="PATH", help="Output directory (local, hdfs://, s3a://, ...)."
    )
    @click.option("--force", is_flag=True, default=False, help="Replace --out when it exists.")
    @click.option(
        "--format", "fmt", type=click.Choice(["parquet", "json"]), default="parquet", show_default=True
    )
    @click.option("-n", "--namesrvAddr", "namesrv", metavar="ADDRS", help="Name servers (as for snapshot).")
    @click.option(
        "--timeout", type=click.FloatRange(min=0.001), metavar="SECONDS", help="Seconds per request."
    )
    @click.option(
        "--master", metavar="URL", help="Spark master (default: in this process when small, else local[*])."
    )
    @click.option("--remote", metavar="URL", help="Run on a Spark Connect server (sc://host:port).")
    @click.option(
        "--partition-size",
        type=click.IntRange(min=1),
        default=50_000,
        show_default=True,
        help="Queue offsets per Spark partition.",
    )
    @click.option(
        "--fail-on-data-loss/--no-fail-on-data-loss",
        default=True,
        show_default=True,
        help="Offsets the broker says are gone fail the export (else they are skipped, logged, counted).",
    )
    @click.option(
        "--pull-retry-timeout",
        type=click.FloatRange(min=0, min_open=True),
        callback=_finite,
        metavar="SECONDS",
        help="How long a pull that does not move on is tried again (default 30); then the export fails.",
    )
    @structured_options
    def export_messages_cmd(
        topic: str,
        begin: str | None,
        end: str | None,
        out: str,
        force: bool,
        fmt: str,
        namesrv: str | None,
        timeout: float | None,
        master: str | None,
        remote: str | None,
        partition_size: int,
        fail_on_data_loss: bool,
        pull_retry_timeout: float | None,
        json_output: bool,
        output: str | None,
    ) -> None:
        """A topic's messages (all, or a store-time range) as Parquet or JSON lines, read from the brokers."""
        prefix = "mqadmin export messages"
        from mqadmin.pipeline.preflight import UsageError, check_engine, check_out, is_local, local_path
        from mqadmin.pipeline.timespec import TimeSpecError, parse_time
        from mqadmin.protocol.names import check_topic

        started = time.perf_counter()
        try:
            times = {
                k: str(int(parse_time(v).timestamp() * 1000))
                for k, v in (("begin", begin), ("end", end))
                if v
            }
        except TimeSpecError as e:
            raise click.BadParameter(str(e)) from None
        refused = check_topic(topic)
        if refused is not None:
            fail(prefix, f"-t {topic}: {refused}", EXIT_USAGE)
        try:
            check_engine(master, remote)
            check_out(out, force)
        except UsageError as e:
            fail(prefix, str(e), EXIT_USAGE)
        try:
            settings = resolver(namesrv, timeout)
        except Exception as e:
            fail(prefix, first_line(e), exc=e)

        try:
            import pyarrow  # noqa: F401
        except ImportError:
            fail(prefix, f"pyarrow is not installed. Install it with: {INSTALL_HINT}")
        from mqadmin.pipeline.export.plan import ExportOptions, plan

        options = {
            "namesrv": ";".join(settings.namesrv_addrs),
            "topic": topic,
            "timeout": str(settings.timeout),
            "partitionSize": str(partition_size),
            "failOnDataLoss": str(fail_on_data_loss).lower(),
            **times,
        }
        if pull_retry_timeout is not None:
            options["pullRetryTimeout"] = str(pull_retry_timeout)
        if settings.credentials is not None:
            options["accessKey"] = settings.credentials.access_key
            options["secretKey"] = settings.credentials.secret_key
        try:
            parsed = replace(ExportOptions.parse(options), settings=settings)  # keeps TLS and the context
        except ValueError as e:
            fail(prefix, str(e), EXIT_USAGE)
        from mqadmin.pipeline.progress import progress

        with progress(prefix, enabled=not debug()) as state:
            state.phase = "planning"
            try:
                ranges = plan(parsed)
            except KeyboardInterrupt:
                fail(prefix, "interrupted", EXIT_INTERRUPTED)
            except Exception as e:
                fail(prefix, f"{topic}: {first_line(e)}", exc=e)
            total = sum(r.size for r in ranges)
            from mqadmin.pipeline.export.inprocess import IN_PROCESS_LIMIT

            small = total <= IN_PROCESS_LIMIT and is_local(out)
            under_submit = "PYSPARK_GATEWAY_PORT" in os.environ
            if small and master is None and remote is None and not under_submit:
                state.phase = f"pulling {total} offsets"
                count = _in_process(prefix, parsed, ranges, local_path(out), fmt)
            else:
                count = _spark(prefix, options, out, fmt, master, remote, state)
        seconds = time.perf_counter() - started
        document = document_format(json_output, output)
        if document is not None:
            doc = {
                "topic": topic,
                "out": out,
                "format": fmt,
                "messages": count,
                "begin": int(times["begin"]) if "begin" in times else None,
                "end": int(times["end"]) if "end" in times else None,
                "elapsedMs": round(seconds * 1000),
            }
            print_document(document, doc)
            return
        click.echo(
            f"exported {count} messages of {topic} to {out} in {seconds:.1f} s ({count / seconds:.0f} msg/s)"
        )

    return export_group


def _finite(ctx: click.Context, param: click.Parameter, value: float | None) -> float | None:
    if value is not None and not math.isfinite(value):
        raise click.BadParameter(f"{value} is not a number of seconds")
    return value


def _in_process(prefix: str, options: ExportOptions, ranges: list[QueueRange], out: Path, fmt: str) -> int:
    import asyncio

    from mqadmin.pipeline.export.inprocess import pull_all, write_in_process

    try:
        pulled = pull_all(
            options.settings, ranges, options.group,
            fail_on_data_loss=options.fail_on_data_loss, retry_for=options.retry_for,
        )  # fmt: skip
        table = asyncio.run(pulled)
        write_in_process(table, out, fmt)
    except KeyboardInterrupt:
        fail(prefix, "interrupted", EXIT_INTERRUPTED)
    except Exception as e:
        fail(prefix, first_line(e), exc=e)
    return int(table.num_rows)


def _spark(
    prefix: str,
    options: dict[str, str],
    out: str,
    fmt: str,
    master: str | None,
    remote: str | None,
    state: Progress,
) -> int:
    require_spark("export messages")
    from mqadmin.pipeline.jobs.session import get_spark
    from mqadmin.pipeline.progress import spark_tasks
    from mqadmin.pipeline.stream.datasource import register

    try:
        state.phase = "starting Spark"
        spark = get_spark(master, app_name="mqadmin-export", remote=remote, quiet=not debug())
        state.detail = spark_tasks(spark)
        state.phase = "exporting"
        register(spark)
        df = spark.read.format("rocketmq").options(**options).load()
        df.write.mode("overwrite").format(fmt).save(out)
        return int(spark.read.format(fmt).load(out).count())
    except KeyboardInterrupt:
        fail(prefix, "interrupted", EXIT_INTERRUPTED)
    except Exception as e:
        fail(prefix, spark_error(e), exc=e)
