"""A small export without Spark: the planned ranges pulled here and written as Spark would write them.

Starting a JVM costs several seconds; pulling a few thousand messages costs milliseconds. So when no
cluster was asked for and the plan is small (:data:`IN_PROCESS_LIMIT` offsets at most), ``export
messages`` pulls the ranges itself, with the same code the Spark tasks run (:mod:`.pull`: the same
retries, the same rule for what an answer may hold, the same failure on data loss), and writes
the directory Spark's writer would: one ``part-00000-<id>`` file and ``_SUCCESS``. Parquet has the
columns of :data:`.rows.MESSAGE_SCHEMA`; JSON lines follow Spark's JSON writer (fields in schema
order, nulls left out, times as ``2024-05-01T00:00:00.000Z``, the body in base64, properties as an
object), so a reader cannot tell which way a file was made.
"""

from __future__ import annotations

import asyncio
import base64
import json
import shutil
import uuid
from collections.abc import Sequence
from contextlib import aclosing
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pyarrow as pa

from mqadmin.admin.api import MQAdmin
from mqadmin.admin.settings import AdminSettings
from mqadmin.pipeline.export.checks import LossHandler
from mqadmin.pipeline.export.pull import DEFAULT_GROUP, DEFAULT_RETRY_S, read_batches
from mqadmin.pipeline.export.ranges import QueueRange
from mqadmin.pipeline.export.rows import MESSAGE_SCHEMA

__all__ = ["IN_PROCESS_LIMIT", "pull_all", "spark_json_line", "write_in_process"]

IN_PROCESS_LIMIT = 200_000
"""Offsets a plan may span and still be pulled here rather than by Spark tasks."""

_CONCURRENT_RANGES = 8


async def pull_all(
    settings: AdminSettings,
    ranges: Sequence[QueueRange],
    group: str = DEFAULT_GROUP,
    *,
    fail_on_data_loss: bool = True,
    retry_for: float = DEFAULT_RETRY_S,
) -> pa.Table:
    """Every range's messages, in plan order, as one table of :data:`MESSAGE_SCHEMA`."""
    gate = asyncio.Semaphore(_CONCURRENT_RANGES)
    loss = LossHandler(fail_on_data_loss)
    async with MQAdmin(settings) as admin:

        async def one(r: QueueRange) -> list[pa.RecordBatch]:
            batches = read_batches(admin.core, (r,), group, on_loss=loss, retry_for=retry_for)
            async with gate, aclosing(batches):
                return [b async for b in batches]

        parts = await asyncio.gather(*(one(r) for r in ranges))
    return pa.Table.from_batches([b for part in parts for b in part], schema=MESSAGE_SCHEMA)


def _json_value(v: Any) -> Any:
    if isinstance(v, datetime):
        t = v.astimezone(UTC)
        return t.strftime("%Y-%m-%dT%H:%M:%S.") + f"{t.microsecond // 1000:03d}Z"
    if isinstance(v, bytes):
        return base64.b64encode(v).decode("ascii")
    if isinstance(v, list):  # a map column comes out of pyarrow as (key, value) pairs
        return {k: val for k, val in v}
    return v


def spark_json_line(row: dict[str, Any]) -> str:
    """One row as Spark's JSON writer prints it (UTC session time zone)."""
    obj = {k: _json_value(v) for k, v in row.items() if v is not None}
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


def write_in_process(table: pa.Table, out: Path, fmt: str) -> None:
    """``table`` as a Spark-style output directory at ``out`` (an existing one is replaced)."""
    staging = out.with_name(f".{out.name}.{uuid.uuid4().hex[:8]}.tmp")
    staging.mkdir(parents=True)
    try:
        part = staging / f"part-00000-{uuid.uuid4()}-c000"
        if fmt == "parquet":
            import pyarrow.parquet as pq

            pq.write_table(table, str(part) + ".snappy.parquet", compression="snappy")
        elif fmt == "json":
            with open(str(part) + ".json", "w", encoding="utf-8") as f:
                for row in table.to_pylist():
                    f.write(spark_json_line(row) + "\n")
        else:
            raise ValueError(f"unknown format {fmt!r}")
        (staging / "_SUCCESS").touch()
        if out.is_dir():
            shutil.rmtree(out)
        elif out.exists():
            out.unlink()
        staging.rename(out)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
