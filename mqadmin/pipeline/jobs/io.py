"""Reading snapshot tables into Spark, limited to a time window.

The input root may be any path Spark reads (local, ``hdfs://``, ``s3a://``). Each table is read with
its declared schema plus the ``date`` partition column as a string, so an empty or absent table is
an empty DataFrame of the right shape rather than an error, and the window prunes whole days before
filtering rows on ``time``.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

import pyarrow as pa

from mqadmin.pipeline.layout import (
    BROKER_STATS,
    GROUP_OFFSETS,
    MISSING,
    PARTITION_COLUMN,
    QUEUE_OFFSETS,
    as_utc,
    date_range_prune,
    table_path,
)
from mqadmin.pipeline.preflight import is_local, local_path
from mqadmin.pipeline.schema import SCHEMAS

if TYPE_CHECKING:
    from pyspark.sql import DataFrame, SparkSession
    from pyspark.sql.types import StructType

__all__ = ["Snapshots", "TimeWindow", "read_snapshots", "read_table", "spark_schema"]


@dataclass(frozen=True, slots=True)
class TimeWindow:
    """``since <= time < until``; either end may be open."""

    since: datetime | None = None
    until: datetime | None = None


@dataclass(frozen=True, slots=True)
class Snapshots:
    """The four snapshot tables of one input, already cut to the window."""

    queue_offsets: DataFrame
    group_offsets: DataFrame
    broker_stats: DataFrame
    missing: DataFrame


def _spark_type(t: pa.DataType) -> str:
    if pa.types.is_timestamp(t):
        return "TIMESTAMP"
    if pa.types.is_string(t):
        return "STRING"
    if pa.types.is_int32(t):
        return "INT"
    if pa.types.is_int64(t):
        return "BIGINT"
    if pa.types.is_floating(t):
        return "DOUBLE"
    if pa.types.is_boolean(t):
        return "BOOLEAN"
    raise TypeError(f"no Spark type for {t}")


def spark_schema(table: str, with_partition: bool = True) -> StructType:
    """The table's Spark schema (all columns nullable, as Parquet readers treat them)."""
    from pyspark.sql.types import StructType

    ddl = ", ".join(f"`{f.name}` {_spark_type(f.type)}" for f in SCHEMAS[table])
    if with_partition:
        ddl += f", `{PARTITION_COLUMN}` STRING"
    schema = StructType.fromDDL(ddl)
    assert isinstance(schema, StructType)
    return schema


def _is_missing_path(exc: Exception) -> bool:
    cond = getattr(exc, "getCondition", None) or getattr(exc, "getErrorClass", None)
    name = cond() if callable(cond) else None
    return name == "PATH_NOT_FOUND" or "Path does not exist" in str(exc)


def read_table(spark: SparkSession, root: str, table: str, window: TimeWindow = TimeWindow()) -> DataFrame:
    """One table under ``root`` (``<root>/<table>/date=.../*.parquet``), cut to ``window``."""
    from pyspark.errors import AnalysisException
    from pyspark.sql import functions as F

    schema = spark_schema(table)
    path = table_path(root, table)
    if is_local(path) and not local_path(path).is_dir():
        # known absent: say so now (a Connect server would only find out when the plan runs)
        df = spark.createDataFrame([], schema)
    else:
        try:
            df = spark.read.schema(schema).parquet(path)
        except AnalysisException as e:
            if not _is_missing_path(e):
                raise
            df = spark.createDataFrame([], schema)
    if window.since is not None:
        since = as_utc(window.since)
        first_day = date_range_prune(since)
        assert first_day is not None
        df = df.where(F.col(PARTITION_COLUMN) >= F.lit(first_day.isoformat()))
        df = df.where(F.col("time") >= F.lit(since))
    if window.until is not None:
        until = as_utc(window.until)
        df = df.where(F.col(PARTITION_COLUMN) <= F.lit(until.date().isoformat()))
        df = df.where(F.col("time") < F.lit(until))
    return df.drop(PARTITION_COLUMN)


def read_snapshots(spark: SparkSession, root: str, window: TimeWindow = TimeWindow()) -> Snapshots:
    return Snapshots(
        read_table(spark, root, QUEUE_OFFSETS, window),
        read_table(spark, root, GROUP_OFFSETS, window),
        read_table(spark, root, BROKER_STATS, window),
        read_table(spark, root, MISSING, window),
    )
