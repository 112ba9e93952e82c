"""``mqadmin.spark`` is the data source's one public module: its names are the implementation's.

The Spark tests register the source through it (``test_read_guard``, ``test_sink_failure``,
``test_stream_restart``); here, without Spark: the schema in both forms, and the option names each
side takes are the ones its parser knows.
"""

from __future__ import annotations

import re

import pytest

import mqadmin.spark
from mqadmin.pipeline.export.plan import ExportOptions
from mqadmin.pipeline.stream.datasource import RocketMQDataSource, register
from mqadmin.pipeline.stream.options import OptionError, StreamOptions
from mqadmin.pipeline.stream.sink import SinkOptions


def test_the_public_names_are_the_implementations() -> None:
    assert mqadmin.spark.register is register and mqadmin.spark.RocketMQDataSource is RocketMQDataSource
    assert mqadmin.spark.FORMAT == RocketMQDataSource.name() == "rocketmq"
    ddl_names = re.findall(r"(?:^|,\s*)([a-z_]+) [A-Z]", mqadmin.spark.SCHEMA)
    assert ddl_names == mqadmin.spark.ARROW_SCHEMA.names


def test_stream_and_sink_options_are_those_their_parsers_take() -> None:
    base = {"namesrv": "127.0.0.1:9876"}
    assert {"failondataloss", "pullretrytimeout"} <= mqadmin.spark.STREAM_OPTIONS
    StreamOptions.parse({**base, "topics": "T", "pullRetryTimeout": "5s", "failOnDataLoss": "false"})
    with pytest.raises(OptionError, match="unknown option"):
        StreamOptions.parse({**base, "topics": "T", "pullRetries": "5"})
    SinkOptions.parse({**base, **{name: "1" for name in ("batchsize", "maxinflight", "retries")}})
    with pytest.raises(OptionError, match="unknown option"):
        SinkOptions.parse({**base, "failOnDataLoss": "true"})


def test_batch_options_are_read_by_the_batch_reader() -> None:
    assert {"topic", "failondataloss", "pullretrytimeout"} <= mqadmin.spark.BATCH_OPTIONS
    o = ExportOptions.parse({"namesrv": "127.0.0.1:9876", "topic": "T", "failOnDataLoss": "false",
                             "pullRetryTimeout": "2m"})  # fmt: skip
    assert (o.fail_on_data_loss, o.retry_for) == (False, 120.0)
    with pytest.raises(ValueError, match="failondataloss must be true or false"):
        ExportOptions.parse({"namesrv": "127.0.0.1:9876", "topic": "T", "failOnDataLoss": "maybe"})
