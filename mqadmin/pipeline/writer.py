"""Write one snapshot run as Parquet files, each appearing whole or not at all (pyarrow, no JVM).

A run is one file per table in that table's ``date=`` partition (see :mod:`mqadmin.pipeline.layout`).
Each file is written under a hidden temporary name in its final directory, flushed to disk and
renamed: a reader (Spark, or a collector running next to a job) sees complete files only, and a
crash leaves at most a hidden ``.tmp`` file behind. Tables are written even when empty, so every run
leaves a trace of each table. The run's manifest (a small JSON document, see
:func:`write_manifest`) is written the same way.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from datetime import datetime
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from mqadmin.atomicfile import atomic_output
from mqadmin.pipeline.layout import TABLES, file_name, manifest_path, new_run_id, partition_dir
from mqadmin.pipeline.schema import SCHEMAS

__all__ = ["to_table", "write_manifest", "write_run", "write_table_atomic"]

Rows = Iterable[Mapping[str, Any]]


def to_table(table: str, data: pa.Table | Rows) -> pa.Table:
    """``data`` (rows as dicts, or an Arrow table) as an Arrow table with the table's exact schema."""
    schema = SCHEMAS[table]
    if isinstance(data, pa.Table):
        return data.select(schema.names).cast(schema)
    return pa.Table.from_pylist(list(data), schema=schema)


def write_table_atomic(table: pa.Table, path: Path) -> Path:
    """Write ``table`` to ``path`` through a hidden temporary file in the same directory."""
    with atomic_output(path) as f:
        pq.write_table(table, f, compression="zstd")
    return path


def write_run(
    root: str | Path, run_time: datetime, tables: Mapping[str, pa.Table | Rows], run_id: str | None = None
) -> dict[str, Path]:
    """Write the tables of one run under ``root``; returns the file written per table.

    Tables not given are written empty. Unknown table names are an error (a typo would otherwise
    lose data silently). ``run_id`` names the run's files (a new one when not given).
    """
    unknown = set(tables) - set(TABLES)
    if unknown:
        raise ValueError(f"unknown snapshot table(s): {', '.join(sorted(unknown))}")
    run_id = run_id or new_run_id()
    out: dict[str, Path] = {}
    for name in TABLES:
        data = to_table(name, tables.get(name, ()))
        path = partition_dir(root, name, run_time) / file_name(name, run_time, run_id)
        out[name] = write_table_atomic(data, path)
    return out


def write_manifest(root: str | Path, run_time: datetime, run_id: str, document: Mapping[str, Any]) -> Path:
    """Write one run's manifest (``document`` as JSON, ASCII only: a name read from a broker may
    hold a lone surrogate, which has no UTF-8 form) where :func:`manifest_path` says."""
    path = manifest_path(root, run_time, run_id)
    with atomic_output(path) as f:
        f.write(json.dumps(document, indent=1, sort_keys=True).encode("ascii") + b"\n")
    return path
