"""The one ``rocketmq`` data source: batch and streaming reads, batch and streaming writes.

Its public face is :mod:`mqadmin.spark` (``register``, the option names, the schema, the errors);
this module is the implementation.
``register(spark)`` makes ``format("rocketmq")`` known to a session (local, a standalone cluster or
Spark Connect alike: the class is shipped to the Python workers). Which reader a read gets follows
its options: ``topics``/``topicPattern`` is the stream reader's form (:mod:`.source`), ``topic`` the
batch reader's (:mod:`mqadmin.pipeline.export.datasource`). Options are judged in :meth:`schema`,
which Spark calls on the driver at ``load()``, so a bad one is said before any task starts.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pyspark.sql.datasource import (
    DataSource,
    DataSourceReader,
    DataSourceStreamReader,
    DataSourceStreamWriter,
    DataSourceWriter,
)

from mqadmin.pipeline.export.datasource import RocketMQReader
from mqadmin.pipeline.export.plan import ExportOptions
from mqadmin.pipeline.export.rows import MESSAGE_DDL
from mqadmin.pipeline.stream.options import OptionError, StreamOptions
from mqadmin.pipeline.stream.sink import RocketMQBatchWriter, RocketMQStreamWriter, SinkOptions, check_schema
from mqadmin.pipeline.stream.source import RocketMQStreamReader

if TYPE_CHECKING:
    from pyspark.sql import SparkSession
    from pyspark.sql.types import StructType

__all__ = ["RocketMQDataSource", "register"]


class RocketMQDataSource(DataSource):
    """``spark.read``/``readStream``/``write``/``writeStream`` ``.format("rocketmq")``."""

    @classmethod
    def name(cls) -> str:
        return "rocketmq"

    def _streaming(self) -> bool:
        keys = {k.lower() for k in self.options}
        return "topics" in keys or "topicpattern" in keys or "topic" not in keys

    def schema(self) -> str:
        if self._streaming():
            probe = RocketMQStreamReader(StreamOptions.parse(self.options))
            try:
                probe.check()
            finally:
                probe.stop()
        else:
            ExportOptions.parse(self.options)
        return MESSAGE_DDL

    def reader(self, schema: StructType) -> DataSourceReader:
        if self._streaming():
            raise OptionError(
                "a batch read takes option topic (one topic); topics/topicPattern are for readStream"
            )
        return RocketMQReader(ExportOptions.parse(self.options))

    def streamReader(self, schema: StructType) -> DataSourceStreamReader:
        return RocketMQStreamReader(StreamOptions.parse(self.options))

    def writer(self, schema: StructType, overwrite: bool) -> DataSourceWriter:
        options = SinkOptions.parse(self.options)
        check_schema(schema, options)
        return RocketMQBatchWriter(options)

    def streamWriter(self, schema: StructType, overwrite: bool) -> DataSourceStreamWriter:
        options = SinkOptions.parse(self.options)
        check_schema(schema, options)
        return RocketMQStreamWriter(options)


def register(spark: SparkSession) -> None:
    """Make ``format("rocketmq")`` known to ``spark`` (batch and streaming, read and write)."""
    spark.dataSource.register(RocketMQDataSource)
