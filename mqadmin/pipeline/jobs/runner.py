"""Run one job end to end: read the snapshots in the window, compute, write the result.

This is what ``mqadmin analyze <job>`` and ``spark-submit .../jobs/__main__.py <job>`` call; the
computations themselves are the pure functions of the job modules.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, TextIO

from mqadmin.pipeline.jobs.io import Snapshots, TimeWindow, read_snapshots
from mqadmin.pipeline.jobs.output import emit
from mqadmin.pipeline.jobs.session import get_spark
from mqadmin.pipeline.preflight import NoDataError

if TYPE_CHECKING:
    from pyspark.sql import DataFrame

    from mqadmin.pipeline.progress import Progress

__all__ = ["JOBS", "JobOptions", "NoDataError", "compute", "run_job"]

JOBS = ("lag", "throughput", "skew", "idle", "report")


@dataclass(frozen=True, slots=True)
class JobOptions:
    """Knobs of the jobs (each job reads the ones it has)."""

    stuck_after: float | None = None
    include_system: bool = False
    by: Literal["topic", "broker"] = "topic"
    per_queue: bool = False
    top: int = 5


def compute(job: str, snaps: Snapshots, options: JobOptions = JobOptions()) -> DataFrame:
    """The result DataFrame of a table job (every job but ``report``)."""
    inc = options.include_system
    if job == "lag":
        from mqadmin.pipeline.jobs.lag import lag

        return lag(snaps.group_offsets, stuck_after=options.stuck_after, include_system=inc)
    if job == "throughput":
        from mqadmin.pipeline.jobs.throughput import throughput

        return throughput(snaps.queue_offsets, by=options.by, include_system=inc)
    if job == "skew":
        from mqadmin.pipeline.jobs.skew import queue_skew, skew

        if options.per_queue:
            return queue_skew(snaps.queue_offsets, include_system=inc)
        return skew(snaps.queue_offsets, include_system=inc)
    if job == "idle":
        from mqadmin.pipeline.jobs.idle import idle

        return idle(snaps.queue_offsets, snaps.group_offsets, include_system=inc)
    raise ValueError(f"unknown job {job!r}")


def _has_data(job: str, snaps: Snapshots) -> bool:
    if job == "lag":
        return not snaps.group_offsets.isEmpty()
    if job in ("throughput", "skew"):
        return not snaps.queue_offsets.isEmpty()
    return not (snaps.queue_offsets.isEmpty() and snaps.group_offsets.isEmpty())


def run_job(
    job: str,
    input_path: str,
    *,
    window: TimeWindow | None = None,
    master: str | None = None,
    fmt: str = "table",
    out: str | None = None,
    options: JobOptions | None = None,
    stdout: TextIO | None = None,
    remote: str | None = None,
    quiet: bool = True,
    progress: Progress | None = None,
    keep: Callable[[DataFrame], None] | None = None,
) -> str | None:
    """Run ``job`` on the snapshots under ``input_path``; returns where the result went (None: stdout).

    ``remote`` (``sc://host:port``) runs it on a Spark Connect server instead of a local JVM;
    ``quiet`` keeps the JVM's own lines off stderr; ``progress`` is told the phase; ``keep`` is
    handed the result of a table job (cached, so reading it costs no second computation) before it
    is written: the command reads its rows for alerts and documents.
    """
    if job not in JOBS:
        raise ValueError(f"unknown job {job!r}; one of {', '.join(JOBS)}")
    step = _phases(progress)
    step("starting Spark")
    spark = get_spark(master, remote=remote, quiet=quiet)
    if progress is not None:
        from mqadmin.pipeline.progress import spark_tasks

        progress.detail = spark_tasks(spark)
    step("reading snapshots")
    snaps = read_snapshots(spark, input_path, window or TimeWindow())
    if not _has_data(job, snaps):
        raise NoDataError(f"no snapshot data under {input_path} in the window")
    options = options or JobOptions()
    step(f"computing {job}")
    if job == "report":
        return _report(snaps, out, options, stdout)
    result = compute(job, snaps, options)
    if keep is None:
        return emit(result, fmt, out, stdout)
    result = result.cache()
    try:
        keep(result)
        return emit(result, fmt, out, stdout)
    finally:
        result.unpersist()


def _phases(progress: Progress | None) -> Callable[[str], None]:
    def step(phase: str) -> None:
        if progress is not None:
            progress.phase = phase

    return step


def _report(snaps: Snapshots, out: str | None, options: JobOptions, stdout: TextIO | None) -> str | None:
    import sys

    from mqadmin.pipeline.jobs.report import report_html

    # the report runs every job over the same rows: read them once
    qo, go, missing = snaps.queue_offsets.cache(), snaps.group_offsets.cache(), snaps.missing.cache()
    try:
        page = report_html(
            qo,
            go,
            missing,
            top=options.top,
            stuck_after=options.stuck_after,
            include_system=options.include_system,
        )
    finally:
        for df in (qo, go, missing):
            df.unpersist()
    if out is None:
        (stdout or sys.stdout).write(page)
        return None
    if "://" in out and not out.startswith("file://"):
        spark = snaps.queue_offsets.sparkSession
        spark.createDataFrame([(page,)], "value string").coalesce(1).write.mode("overwrite").text(out)
        return out
    from mqadmin.atomicfile import write_atomic

    write_atomic(out.removeprefix("file://"), page)
    return out
