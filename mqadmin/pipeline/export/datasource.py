"""The ``rocketmq`` PySpark data source: a topic's messages as a DataFrame, read in parallel.

    from mqadmin.pipeline.export.datasource import register
    register(spark)
    df = (spark.read.format("rocketmq")
          .option("namesrv", "10.0.0.5:9876").option("topic", "Orders")
          .option("begin", "2024-05-01T00:00Z").option("end", "2024-05-02T00:00Z")
          .load())

Options: ``namesrv`` (required; ``host:port;host:port``), ``topic`` (required), ``begin``/``end``
(store time: ISO, epoch ms, or a duration back from now, see :mod:`mqadmin.pipeline.timespec`),
``startingOffsets``/``endingOffsets`` (see :mod:`.ranges`), ``partitionSize`` (offsets per partition,
default 50000), ``group`` (the group pulls are made in, default ``TOOLS_CONSUMER``; nothing is
committed), ``timeout`` (seconds per request, default 10), ``accessKey``/``secretKey`` (ACL).

Partitions are planned on the driver (route, min/max offsets, time search); each Spark task pulls its
range straight from the broker that holds the queue. Workers must run a Python with ``mqadmin``
installed (``PYSPARK_PYTHON``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pyspark.sql.datasource import DataSource, DataSourceReader, InputPartition

from mqadmin.admin.settings import AdminSettings, Credentials, parse_namesrv_list
from mqadmin.pipeline.export.pull import DEFAULT_GROUP, MESSAGE_DDL, read_range
from mqadmin.pipeline.export.ranges import (
    DEFAULT_PARTITION_SIZE,
    OffsetSpec,
    QueueRange,
    parse_offset_spec,
    plan_ranges,
)
from mqadmin.pipeline.source import RemotingSource
from mqadmin.pipeline.timespec import parse_time

if TYPE_CHECKING:
    import pyarrow as pa
    from pyspark.sql import SparkSession
    from pyspark.sql.types import StructType

__all__ = ["ExportOptions", "RocketMQDataSource", "register"]

DEFAULT_TIMEOUT = 10.0


@dataclass(frozen=True, slots=True)
class ExportOptions:
    """The data source's options, parsed once on the driver (and shipped to the tasks)."""

    settings: AdminSettings
    topic: str
    group: str = DEFAULT_GROUP
    begin_ms: int | None = None
    end_ms: int | None = None
    starting: OffsetSpec | None = None
    ending: OffsetSpec | None = None
    partition_size: int = DEFAULT_PARTITION_SIZE

    @classmethod
    def parse(cls, options: Mapping[str, str]) -> ExportOptions:
        opts = {k.lower(): v for k, v in options.items()}
        addrs = parse_namesrv_list(opts.get("namesrv"))
        topic = (opts.get("topic") or "").strip()
        if not addrs:
            raise ValueError("the rocketmq data source needs option namesrv (host:port;host:port)")
        if not topic:
            raise ValueError("the rocketmq data source needs option topic")
        creds = None
        if opts.get("accesskey") and opts.get("secretkey"):
            creds = Credentials(opts["accesskey"], opts["secretkey"])
        settings = AdminSettings(
            namesrv_addrs=tuple(addrs),
            timeout=float(opts.get("timeout") or DEFAULT_TIMEOUT),
            credentials=creds,
        )

        def ms(name: str) -> int | None:
            value = opts.get(name)
            return None if not value else int(parse_time(value).timestamp() * 1000)

        return cls(
            settings=settings,
            topic=topic,
            group=opts.get("group") or DEFAULT_GROUP,
            begin_ms=ms("begin"),
            end_ms=ms("end"),
            starting=parse_offset_spec(opts.get("startingoffsets")),
            ending=parse_offset_spec(opts.get("endingoffsets")),
            partition_size=int(opts.get("partitionsize") or DEFAULT_PARTITION_SIZE),
        )


class RangePartition(InputPartition):
    """One queue range: what a Spark task reads."""

    def __init__(self, value: QueueRange) -> None:
        super().__init__(value)


class RocketMQReader(DataSourceReader):
    def __init__(self, options: ExportOptions) -> None:
        self.options = options

    def partitions(self) -> list[InputPartition]:
        o = self.options

        async def plan() -> list[QueueRange]:
            async with RemotingSource(o.settings) as source:
                return await plan_ranges(
                    source,
                    o.topic,
                    begin_ms=o.begin_ms,
                    end_ms=o.end_ms,
                    starting=o.starting,
                    ending=o.ending,
                    max_per_partition=o.partition_size,
                )

        ranges = asyncio.run(plan())
        return [RangePartition(r) for r in ranges] or [InputPartition(None)]

    def read(self, partition: InputPartition) -> Iterator[pa.RecordBatch]:
        r = partition.value
        if r is None:
            return iter(())
        return read_range(self.options.settings, r, self.options.group)


class RocketMQDataSource(DataSource):
    """``spark.read.format("rocketmq")``: see the module docstring for the options."""

    @classmethod
    def name(cls) -> str:
        return "rocketmq"

    def schema(self) -> str:
        return MESSAGE_DDL

    def reader(self, schema: StructType) -> DataSourceReader:
        return RocketMQReader(ExportOptions.parse(self.options))


def register(spark: SparkSession) -> None:
    """Make ``format("rocketmq")`` known to ``spark``."""
    spark.dataSource.register(RocketMQDataSource)
