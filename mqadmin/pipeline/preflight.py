"""Checks a command can make before Spark starts: a JVM takes seconds, a wrong option should not.

A local ``--input`` must be a snapshot root (a directory holding at least one snapshot table), and
the window must cover at least one day partition of the tables the job reads; an ``--out`` that
exists is replaced only with ``--force``; ``--format`` and ``--out`` must go together. Paths with a
scheme other than ``file://`` (``hdfs://``, ``s3a://``) are left for Spark to judge. No pyspark here.
"""

from __future__ import annotations

from datetime import date, datetime
from pathlib import Path

from mqadmin.pipeline.layout import PARTITION_COLUMN, TABLES, as_utc, date_range_prune

__all__ = [
    "NoDataError",
    "UsageError",
    "check_engine",
    "check_format",
    "check_input",
    "check_out",
    "is_local",
    "local_path",
]

_JOB_TABLES = {
    "lag": ("group_offsets",),
    "throughput": ("queue_offsets",),
    "skew": ("queue_offsets",),
    "idle": ("queue_offsets", "group_offsets"),
    "report": ("queue_offsets", "group_offsets"),
}


class UsageError(Exception):
    """A wrong option value: one line, exit 2."""


class NoDataError(Exception):
    """The input holds no snapshot rows in the window: nothing to analyze."""


def is_local(path: str) -> bool:
    return "://" not in path or path.startswith("file://")


def local_path(path: str) -> Path:
    return Path(path.removeprefix("file://"))


def _days(table_dir: Path) -> list[date]:
    out: list[date] = []
    prefix = f"{PARTITION_COLUMN}="
    for child in table_dir.iterdir() if table_dir.is_dir() else ():
        if child.is_dir() and child.name.startswith(prefix):
            try:
                out.append(date.fromisoformat(child.name[len(prefix) :]))
            except ValueError:
                continue
    return out


def check_input(path: str, job: str, since: datetime | None, until: datetime | None) -> None:
    """A local snapshot root with data for ``job`` in the window, else :class:`UsageError` (not a
    snapshot root) or :class:`NoDataError` (nothing in the window)."""
    if not is_local(path):
        return
    root = local_path(path)
    if not root.is_dir():
        raise UsageError(f"--input {path}: no such directory")
    present = [t for t in TABLES if (root / t).is_dir()]
    if not present:
        raise UsageError(
            f"--input {path} holds no snapshot tables ({', '.join(TABLES)}): "
            "give the directory 'mqadmin snapshot --out' wrote"
        )
    first = date_range_prune(since)
    last = as_utc(until).date() if until is not None else None
    for table in _JOB_TABLES.get(job, TABLES):
        if any((first is None or d >= first) and (last is None or d <= last) for d in _days(root / table)):
            return
    raise NoDataError(f"no snapshot data under {path} in the window")


def check_out(out: str | None, force: bool) -> None:
    """An existing local ``--out`` is replaced only when ``--force`` says so."""
    if out is None or not is_local(out) or force:
        return
    p = local_path(out)
    if p.exists():
        kind = "directory" if p.is_dir() else "file"
        raise UsageError(f"--out {out}: the {kind} exists; add --force to replace it")


def check_format(fmt: str, out: str | None) -> None:
    """``parquet`` needs a path; ``table`` is text for people, written locally only."""
    if fmt == "parquet" and out is None:
        raise UsageError("--format parquet needs --out PATH")
    if fmt == "table" and out is not None and not is_local(out):
        raise UsageError("--format table writes to a local file only")


def check_engine(master: str | None, remote: str | None) -> None:
    """``--master`` and ``--remote`` exclude each other; a Connect URL starts with ``sc://``."""
    if master is not None and remote is not None:
        raise UsageError("--master and --remote exclude each other (--remote runs on a Spark Connect server)")
    if remote is not None and not remote.startswith("sc://"):
        raise UsageError(f"--remote {remote}: a Spark Connect URL is sc://host:port")
