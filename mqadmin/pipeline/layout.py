"""Where snapshot files live: ``<root>/<table>/date=YYYY-MM-DD/<table>-<stamp>-<id>.parquet``.

Every table is a directory that Spark (and pyarrow) read as one dataset, partitioned by the UTC date
of the run that wrote it, so a ``--since``/``--until`` window only opens the days it needs. Each run
adds one file per table. A file is written under a name starting with a dot and renamed into place
when complete: Spark and Hadoop skip names starting with ``.`` or ``_``, so readers never see half a
file. This module knows only names and paths (no pyarrow, no Spark), so both sides can share it.

Beside the tables, each run leaves its manifest, ``<root>/_manifests/date=YYYY-MM-DD/run-<stamp>-<id>.json``
(the run's summary, what it missed and the names it skipped on purpose): a directory whose name
starts with ``_``, which Spark and Hadoop do not read as data.
"""

from __future__ import annotations

import uuid
from datetime import UTC, date, datetime
from pathlib import Path

__all__ = [
    "BROKER_STATS",
    "GROUP_OFFSETS",
    "MANIFESTS",
    "MISSING",
    "PARTITION_COLUMN",
    "QUEUE_OFFSETS",
    "TABLES",
    "file_name",
    "manifest_path",
    "new_run_id",
    "partition_dir",
    "partition_value",
    "table_path",
]

QUEUE_OFFSETS = "queue_offsets"
GROUP_OFFSETS = "group_offsets"
BROKER_STATS = "broker_stats"
MISSING = "missing"
TABLES: tuple[str, ...] = (QUEUE_OFFSETS, GROUP_OFFSETS, BROKER_STATS, MISSING)

PARTITION_COLUMN = "date"
MANIFESTS = "_manifests"


def partition_value(run_time: datetime) -> str:
    """The ``date=`` value for a run: its UTC calendar day."""
    return as_utc(run_time).date().isoformat()


def as_utc(t: datetime) -> datetime:
    """``t`` as an aware UTC datetime (a naive one is taken to be UTC already)."""
    return t.replace(tzinfo=UTC) if t.tzinfo is None else t.astimezone(UTC)


def table_path(root: str, table: str) -> str:
    """A table's directory under a root given as a local path or a URI (``hdfs://``, ``s3a://``)."""
    return f"{str(root).rstrip('/')}/{table}"


def partition_dir(root: str | Path, table: str, run_time: datetime) -> Path:
    """The local directory one run of ``table`` goes to."""
    return Path(root) / table / f"{PARTITION_COLUMN}={partition_value(run_time)}"


def new_run_id() -> str:
    """The id that the files of one run share (eight hex digits)."""
    return uuid.uuid4().hex[:8]


def _stamp(run_time: datetime) -> str:
    t = as_utc(run_time)
    return t.strftime("%Y%m%dT%H%M%S") + f".{t.microsecond // 1000:03d}Z"


def file_name(table: str, run_time: datetime, run_id: str | None = None) -> str:
    """``queue_offsets-20240501T120000.000Z-1a2b3c4d.parquet``: sorts by time, unique per run."""
    return f"{table}-{_stamp(run_time)}-{run_id or new_run_id()}.parquet"


def manifest_path(root: str | Path, run_time: datetime, run_id: str) -> Path:
    """Where one run's manifest goes: ``run-<stamp>-<id>.json``, beside its tables' day."""
    day = f"{PARTITION_COLUMN}={partition_value(run_time)}"
    return Path(root) / MANIFESTS / day / f"run-{_stamp(run_time)}-{run_id}.json"


def date_range_prune(since: datetime | None) -> date | None:
    """The first partition that can hold rows at or after ``since``.

    A run started just before midnight keeps its rows in that day's partition even when its answers
    arrived after midnight, hence one day of slack.
    """
    if since is None:
        return None
    d = as_utc(since).date()
    return date.fromordinal(d.toordinal() - 1)
