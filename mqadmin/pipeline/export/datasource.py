"""The ``rocketmq`` PySpark data source: a topic's messages as a DataFrame, read in parallel.

    import mqadmin.spark
    mqadmin.spark.register(spark)
    df = (spark.read.format("rocketmq")
          .option("namesrv", "10.0.0.5:9876").option("topic", "Orders")
          .option("begin", "2024-05-01T00:00Z").option("end", "2024-05-02T00:00Z")
          .load())

Options: ``namesrv`` (required; ``host:port;host:port``), ``topic`` (required), ``begin``/``end``
(store time: ISO, epoch ms, or a duration back from now, see :mod:`mqadmin.pipeline.timespec`),
``startingOffsets``/``endingOffsets`` (see :mod:`.ranges`), ``partitionSize`` (most offsets in a
partition, default 50000: a longer queue range is cut, shorter ones share a partition up to it),
``group`` (the group pulls are made in, default ``TOOLS_CONSUMER``; nothing is committed), ``timeout``
(per request, default 10s), ``accessKey``/``secretKey``/``securityToken`` (ACL), ``failOnDataLoss``
(default true: offsets the broker says are gone fail the read; false: they are skipped, logged and
counted), ``pullRetryTimeout`` (how long a pull that does not move on is tried again, default 30s;
then the read fails naming the queue, the offsets and the broker's answer). Any other option fails
the read before a request is sent (:mod:`mqadmin.pipeline.datasource_options`): a misspelt
``startingOffset`` would otherwise read the whole topic.

Partitions are planned on the driver (route, min/max offsets, time search); each Spark task pulls its
ranges straight from the brokers that hold the queues. Workers must run a Python with ``mqadmin``
installed (``PYSPARK_PYTHON``).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from pyspark.sql.datasource import DataSource, DataSourceReader, InputPartition

from mqadmin.pipeline.export.checks import LossHandler
from mqadmin.pipeline.export.plan import ExportOptions, plan
from mqadmin.pipeline.export.pull import read_ranges
from mqadmin.pipeline.export.ranges import QueueRange, pack
from mqadmin.pipeline.export.rows import MESSAGE_DDL

if TYPE_CHECKING:
    import pyarrow as pa
    from pyspark.sql.types import StructType

__all__ = ["ExportOptions", "RocketMQDataSource", "RocketMQReader", "plan"]  # from .plan: 2


class RangePartition(InputPartition):
    """Queue ranges (:func:`~mqadmin.pipeline.export.ranges.pack`): what a Spark task reads."""

    def __init__(self, value: tuple[QueueRange, ...]) -> None:
        super().__init__(value)


class RocketMQReader(DataSourceReader):
    def __init__(self, options: ExportOptions) -> None:
        self.options = options

    def partitions(self) -> list[InputPartition]:
        groups = pack(plan(self.options), self.options.partition_size)
        return [RangePartition(g) for g in groups] or [InputPartition(None)]

    def read(self, partition: InputPartition) -> Iterator[pa.RecordBatch]:
        ranges = partition.value
        if ranges is None:
            return iter(())
        o = self.options
        return read_ranges(
            o.settings, ranges, o.group, on_loss=LossHandler(o.fail_on_data_loss), retry_for=o.retry_for
        )


class RocketMQDataSource(DataSource):
    """``spark.read.format("rocketmq")``: see the module docstring for the options."""

    @classmethod
    def name(cls) -> str:
        return "rocketmq"

    def schema(self) -> str:
        return MESSAGE_DDL

    def reader(self, schema: StructType) -> DataSourceReader:
        return RocketMQReader(ExportOptions.parse(self.options))
