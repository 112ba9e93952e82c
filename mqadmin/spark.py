"""The ``rocketmq`` Spark data source: the one public module.

    import mqadmin.spark
    mqadmin.spark.register(spark)
    df = spark.read.format("rocketmq").option("namesrv", "10.0.0.5:9876").option("topic", "Orders").load()

``register(spark)`` makes ``format("rocketmq")`` known to a session (local, a standalone cluster or
Spark Connect): ``spark.read`` (option ``topic``), ``spark.readStream`` (option ``topics`` or
``topicPattern``), ``df.write`` and ``df.writeStream``. Rows read have the columns of
:data:`SCHEMA` (:data:`ARROW_SCHEMA` as Arrow gives them); the options each side takes are
:data:`BATCH_OPTIONS`, :data:`STREAM_OPTIONS` and :data:`SINK_OPTIONS` (lower-cased, as Spark
compares them; any other option is an :class:`OptionError` before any request is sent):

==================  ===================================================================================
side                options
==================  ===================================================================================
``spark.read``      namesrv topic begin end startingOffsets endingOffsets partitionSize group timeout
                    accessKey secretKey securityToken failOnDataLoss pullRetryTimeout
``readStream``      namesrv topics topicPattern startingOffsets startingTimestamp maxOffsetsPerTrigger
                    minOffsetsPerTrigger maxTriggerDelay failOnDataLoss pullRetryTimeout includeProperties
                    subExpression group accessKey secretKey securityToken timeout partitionSize
                    minPartitions
``write``           namesrv topic accessKey secretKey securityToken timeout batchSize maxInFlight retries
                    producerGroup writeId
==================  ===================================================================================

A read fails rather than skip: :class:`RangeReadError` when a planned range cannot
be read to its end or a broker's answer breaks the offsets' rule, :class:`DataLossError` when the
broker says offsets are gone and ``failOnDataLoss`` is true. The sink is at least once: every row
carries :func:`uniq_key` as its ``UNIQ_KEY``, the same each time Spark writes it again.

The implementation lives in :mod:`mqadmin.pipeline.stream` and :mod:`mqadmin.pipeline.export`.
"""

from __future__ import annotations

from mqadmin.pipeline.datasource_options import BATCH_OPTIONS, SINK_OPTIONS, STREAM_OPTIONS, OptionError
from mqadmin.pipeline.export.checks import DataLossError, RangeReadError
from mqadmin.pipeline.export.rows import MESSAGE_DDL, MESSAGE_SCHEMA
from mqadmin.pipeline.stream.datasource import RocketMQDataSource, register
from mqadmin.pipeline.stream.sink import SinkError, uniq_key

__all__ = [
    "ARROW_SCHEMA", "BATCH_OPTIONS", "FORMAT", "SCHEMA", "SINK_OPTIONS", "STREAM_OPTIONS", "DataLossError",
    "OptionError", "RangeReadError", "RocketMQDataSource", "SinkError", "register", "uniq_key",
]  # fmt: skip

FORMAT = "rocketmq"
"""The name ``spark.read.format`` takes after :func:`register`."""

SCHEMA = MESSAGE_DDL
"""The rows every read gives, as Spark DDL."""

ARROW_SCHEMA = MESSAGE_SCHEMA
"""The same rows as Arrow record batches."""
