"""``mqadmin export messages``: a topic's messages to Parquet or JSON via the ``rocketmq`` data source."""

from __future__ import annotations

import click

from mqadmin.pipeline.clitools import (
    EXIT_INTERRUPTED,
    SettingsResolver,
    default_settings,
    fail,
    first_line,
    require_spark,
    spark_error,
)

__all__ = ["export_command"]


def export_command(resolve: SettingsResolver | None = None) -> click.Group:
    """The ``export`` group (``export messages``); ``resolve`` as for :func:`snapshot_command`."""
    resolver = resolve or default_settings

    @click.group("export", context_settings={"help_option_names": ["-h", "--help"]})
    def export_group() -> None:
        """Export data with Spark: a topic's messages."""

    @export_group.command("messages")
    @click.option("-t", "--topic", required=True, help="Topic to export.")
    @click.option("--begin", metavar="TIME", help="Only messages stored at or after TIME (forms as --since).")
    @click.option("--end", metavar="TIME", help="Only messages stored before TIME.")
    @click.option(
        "--out", required=True, metavar="PATH", help="Output directory (local, hdfs://, s3a://, ...)."
    )
    @click.option(
        "--format", "fmt", type=click.Choice(["parquet", "json"]), default="parquet", show_default=True
    )
    @click.option("-n", "--namesrvAddr", "namesrv", metavar="ADDRS", help="Name servers (as for snapshot).")
    @click.option(
        "--timeout", type=click.FloatRange(min=0.001), metavar="SECONDS", help="Seconds per request."
    )
    @click.option("--master", metavar="URL", help="Spark master (default local[*]).")
    @click.option(
        "--partition-size",
        type=click.IntRange(min=1),
        default=50_000,
        show_default=True,
        help="Queue offsets per Spark partition.",
    )
    def export_messages_cmd(
        topic: str,
        begin: str | None,
        end: str | None,
        out: str,
        fmt: str,
        namesrv: str | None,
        timeout: float | None,
        master: str | None,
        partition_size: int,
    ) -> None:
        """A topic's messages (all, or a store-time range) as Parquet, read in parallel from the brokers."""
        prefix = "mqadmin export messages"
        require_spark("export messages")
        from mqadmin.pipeline.timespec import TimeSpecError, parse_time

        try:
            times = {
                k: str(int(parse_time(v).timestamp() * 1000))
                for k, v in (("begin", begin), ("end", end))
                if v
            }
        except TimeSpecError as e:
            raise click.BadParameter(str(e)) from None
        try:
            settings = resolver(namesrv, timeout)
        except Exception as e:
            fail(prefix, first_line(e), exc=e)
        options = {
            "namesrv": ";".join(settings.namesrv_addrs),
            "topic": topic,
            "timeout": str(settings.timeout),
            "partitionSize": str(partition_size),
            **times,
        }
        if settings.credentials is not None:
            options["accessKey"] = settings.credentials.access_key
            options["secretKey"] = settings.credentials.secret_key
        import time

        from mqadmin.pipeline.export.datasource import register
        from mqadmin.pipeline.jobs.session import get_spark

        started = time.perf_counter()
        try:
            spark = get_spark(master, app_name="mqadmin-export")
            register(spark)
            df = spark.read.format("rocketmq").options(**options).load()
            df.write.mode("overwrite").format(fmt).save(out)
            count = spark.read.format(fmt).load(out).count()
        except KeyboardInterrupt:
            fail(prefix, "interrupted", EXIT_INTERRUPTED)
        except Exception as e:
            fail(prefix, spark_error(e), exc=e)
        seconds = time.perf_counter() - started
        click.echo(
            f"exported {count} messages of {topic} to {out} in {seconds:.1f} s ({count / seconds:.0f} msg/s)"
        )

    return export_group
