"""The ``rocketmq`` source's and sink's options: one table, documented as the code takes it, and
nothing but it.

The names the README and :mod:`mqadmin.spark` list are the ones each parser takes; an option no side
takes (a misspelt ``startingOffset``) fails the read or the write at Spark's ``load()``/``save()``
naming it and the closest known names, before any connection is made (a listening socket stands for
the name server and must see none). ``mqadmin export messages`` passes ``--fail-on-data-loss`` and
``--pull-retry-timeout`` to the reader: against the hostile broker, an expired range fails or is
skipped as the flag says, in process and on Spark, and a broker that never answers fails within the
timeout given instead of the default 30 s.
"""

from __future__ import annotations

import re
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pyarrow.dataset as ds
import pytest
from click.testing import CliRunner, Result

import mqadmin.spark
from mqadmin.pipeline.datasource_options import BATCH_NAMES, SINK_NAMES, STREAM_NAMES, OptionError
from mqadmin.pipeline.export.plan import ExportOptions
from mqadmin.pipeline.stream.options import StreamOptions
from mqadmin.pipeline.stream.sink import SinkOptions
from tests.pipeline.hostile import PULL_NOT_FOUND, HostileCluster, answer, hostile_cluster

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

README = Path(__file__).resolve().parents[2] / "README.md"
TOPIC = "TopicOpts"
OFFSET_MOVED = 21
NS = "127.0.0.1:9876"


def readme_table(heading: str) -> set[str]:
    """The option names in the first column of the README table under the line starting ``heading``."""
    lines = README.read_text().splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(heading))
    rows = []
    for line in lines[start + 1 :]:
        if rows and not line.startswith("|"):
            break
        if line.startswith("| `"):
            rows.append(line.split("|")[1])
    return {name for cell in rows for name in re.findall(r"`([A-Za-z]+)`", cell)}


def docstring_table() -> dict[str, set[str]]:
    """The options per side in :mod:`mqadmin.spark`'s table."""
    lines = (mqadmin.spark.__doc__ or "").splitlines()
    rules = [i for i, line in enumerate(lines) if line.startswith("==")]
    sides: dict[str, set[str]] = {}
    side = ""
    for line in lines[rules[1] + 1 : rules[2]]:  # between the rule under the heading and the last
        if line.startswith("``"):
            side, line = line.split(None, 1)
            sides[side.strip("`")] = set()
        sides[side.strip("`")].update(line.split())
    return sides


def test_the_documented_options_are_the_ones_the_code_takes() -> None:
    assert readme_table("Stream source options") == set(STREAM_NAMES)
    assert readme_table("Batch read options") == set(BATCH_NAMES)
    assert docstring_table() == {
        "spark.read": set(BATCH_NAMES),
        "readStream": set(STREAM_NAMES),
        "write": set(SINK_NAMES),
    }
    lowered = (mqadmin.spark.BATCH_OPTIONS, mqadmin.spark.STREAM_OPTIONS, mqadmin.spark.SINK_OPTIONS)
    assert lowered == tuple({n.lower() for n in names} for names in (BATCH_NAMES, STREAM_NAMES, SINK_NAMES))


BATCH_VALUES = {
    "namesrv": NS, "topic": "T", "begin": "2024-05-01", "end": "2024-05-02", "startingOffsets": "earliest",
    "endingOffsets": "latest", "partitionSize": "10", "group": "G", "timeout": "3s", "accessKey": "ak",
    "secretKey": "sk", "securityToken": "tok", "failOnDataLoss": "false", "pullRetryTimeout": "1h30m",
}  # fmt: skip


def test_every_batch_option_is_taken_in_any_case() -> None:
    assert set(BATCH_VALUES) == set(BATCH_NAMES)
    for options in (BATCH_VALUES, {k.upper(): v for k, v in BATCH_VALUES.items()}):
        o = ExportOptions.parse(options)
        assert (o.topic, o.group, o.partition_size, o.fail_on_data_loss, o.retry_for) == (
            "T",
            "G",
            10,
            False,
            5400,
        )
        assert o.settings.timeout == 3.0 and o.settings.credentials is not None
        assert o.settings.credentials.security_token == "tok"
        assert (o.starting, o.ending) == ("earliest", "latest") and o.begin_ms == 1714521600000


def test_every_stream_and_sink_option_is_taken() -> None:
    stream = {
        "namesrv": NS, "topics": "T", "startingOffsets": "earliest", "maxOffsetsPerTrigger": "9",
        "minOffsetsPerTrigger": "2", "maxTriggerDelay": "5m", "failOnDataLoss": "false",
        "pullRetryTimeout": "500ms", "includeProperties": "false", "subExpression": "A", "group": "G",
        "accessKey": "ak", "secretKey": "sk", "securityToken": "tok", "timeout": "3", "partitionSize": "10",
        "minPartitions": "2",
    }  # fmt: skip
    o = StreamOptions.parse(stream)
    assert (o.max_per_trigger, o.min_per_trigger, o.max_trigger_delay_s, o.retry_for) == (9, 2, 300.0, 0.5)
    other = StreamOptions.parse({"namesrv": NS, "topicPattern": "T.*", "startingTimestamp": "1700000000000"})
    assert (other.pattern, other.start) == ("T.*", 1700000000000)
    assert set(stream) | {"topicPattern", "startingTimestamp"} == set(STREAM_NAMES)
    sink = {
        "namesrv": NS, "topic": "T", "accessKey": "ak", "secretKey": "sk", "securityToken": "tok",
        "timeout": "3", "batchSize": "5", "maxInFlight": "2", "retries": "0", "producerGroup": "P",
        "writeId": "w",
    }  # fmt: skip
    assert set(sink) == set(SINK_NAMES)
    s = SinkOptions.parse(sink)
    assert (s.batch_size, s.max_in_flight, s.retries, s.producer_group, s.write_id) == (5, 2, 0, "P", "w")


@pytest.mark.parametrize(
    ("parse", "options", "said"),
    [
        (
            ExportOptions.parse,
            {"namesrv": NS, "topic": "T", "startingOffset": "earliest"},
            "rocketmq batch source: startingoffset (did you mean startingOffsets or endingOffsets?); "
            "known: startingOffsets, endingOffsets, accessKey, begin,",
        ),
        (
            ExportOptions.parse,
            {"namesrv": NS, "topic": "T", "maxOffsetsPerTrigger": "5"},
            "(maxOffsetsPerTrigger is an option of spark.readStream)",
        ),
        (
            StreamOptions.parse,
            {"namesrv": NS, "topics": "T", "failOnDataLos": "false"},
            "rocketmq stream source: failondatalos (did you mean failOnDataLoss?); known: failOnDataLoss, ",
        ),
        (
            SinkOptions.parse,
            {"namesrv": NS, "pullRetryTimeout": "5s"},
            "rocketmq sink: pullretrytimeout (pullRetryTimeout is an option of spark.read and "
            "spark.readStream)",
        ),
        (ExportOptions.parse, {"namesrv": NS, "topic": "T", "accessKey": "ak"}, "accessKey and secretKey go"),
        (ExportOptions.parse, {"namesrv": NS, "topic": "T", "partitionSize": "0"}, "at least 1"),
        (ExportOptions.parse, {"namesrv": NS, "topic": "T", "timeout": "0"}, "not a positive duration"),
        (ExportOptions.parse, {"namesrv": NS, "topic": "T", "pullRetryTimeout": "nan"}, "pullRetryTimeout"),
        (ExportOptions.parse, {"namesrv": NS, "topic": "T", "begin": "soon"}, "option begin: not a time"),
    ],
)
def test_an_option_no_side_takes_is_named_with_the_closest_first(
    parse: Any, options: dict[str, str], said: str
) -> None:
    with pytest.raises(OptionError) as e:
        parse(options)
    assert said in str(e.value)


@pytest.fixture
def listener() -> Iterator[socket.socket]:
    """A name server address where nothing answers: a read that connects leaves a connection here."""
    with socket.create_server(("127.0.0.1", 0)) as s:
        s.setblocking(False)
        yield s


def _addr(s: socket.socket) -> str:
    host, port = s.getsockname()[:2]
    return f"{host}:{port}"


def _nothing_connected(s: socket.socket) -> bool:
    try:
        s.accept()[0].close()
    except BlockingIOError:
        return True
    return False


def test_an_unknown_option_fails_the_spark_read_before_any_request(
    spark: SparkSession, listener: socket.socket
) -> None:
    mqadmin.spark.register(spark)
    reader = spark.read.format("rocketmq").option("namesrv", _addr(listener)).option("topic", "T")
    with pytest.raises(
        Exception, match=r"unknown option\(s\) of the rocketmq batch source: startingoffset "
    ) as e:
        reader.option("startingOffset", "earliest").load().count()
    assert "did you mean startingOffsets" in str(e.value)
    stream = spark.readStream.format("rocketmq").option("namesrv", _addr(listener)).option("topics", "T")
    with pytest.raises(
        Exception, match=r"rocketmq stream source: maxoffsetpertrigger .*maxOffsetsPerTrigger"
    ):
        stream.option("maxOffsetPerTrigger", "10").load()
    rows = spark.createDataFrame([("T", b"x")], "topic string, body binary")
    with pytest.raises(Exception, match=r"rocketmq sink: retry .*did you mean retries"):
        rows.write.format("rocketmq").option("namesrv", _addr(listener)).option("retry", "1").mode(
            "append"
        ).save()
    assert _nothing_connected(listener)


@pytest.fixture
def hostile(tmp_path: Path) -> Iterator[HostileCluster]:
    with hostile_cluster(tmp_path, TOPIC, [(0, 10), (0, 10)]) as c:
        c.broker.pull = lambda b, cmd, ask: (
            answer(cmd, OFFSET_MOVED, 6, 6, 10) if ask.offset < 6 else b.found(cmd, ask)
        )  # offsets 0..5 of each queue expired
        yield c


def export(c: HostileCluster, out: Path, *extra: str) -> Result:
    from mqadmin.pipeline.cli import export_command

    args = ["messages", "-t", TOPIC, "-n", c.namesrv, "--out", str(out), *extra]
    return CliRunner().invoke(export_command(), args)


def exported(out: Path) -> list[tuple[int, int]]:
    table = ds.dataset(out, format="parquet").to_table(columns=["queue_id", "queue_offset"])
    return sorted(zip(*table.to_pydict().values(), strict=True))


def test_export_fails_on_an_expired_range_unless_told_not_to(hostile: HostileCluster, tmp_path: Path) -> None:
    failed = export(hostile, tmp_path / "a")
    assert failed.exit_code == 1 and "offsets 0..5 are gone" in failed.output, failed.output
    for flag in ("--fail-on-data-loss", "--no-fail-on-data-loss"):
        result = export(hostile, tmp_path / flag, flag)
        if flag == "--fail-on-data-loss":
            assert result.exit_code == 1 and "are gone" in result.output, result.output
        else:
            assert result.exit_code == 0, result.output
            assert exported(tmp_path / flag) == [(q, o) for q in (0, 1) for o in range(6, 10)]


def test_export_on_spark_takes_the_flag(spark: SparkSession, hostile: HostileCluster, tmp_path: Path) -> None:
    out = tmp_path / "spark"
    result = export(hostile, out, "--master", "local[2]", "--no-fail-on-data-loss")  # the tests' session
    assert result.exit_code == 0, result.output
    assert exported(out) == [(q, o) for q in (0, 1) for o in range(6, 10)]
    hostile.broker.pull = lambda b, cmd, ask: answer(cmd, PULL_NOT_FOUND, ask.offset, 0, 10)
    started = time.monotonic()
    refused = export(hostile, tmp_path / "refused", "--master", "local[2]", "--pull-retry-timeout", "0.5")
    assert refused.exit_code == 1 and "PULL_NOT_FOUND (19)" in refused.output, refused.output
    assert time.monotonic() - started < 25  # the default would try for 30 s


def test_export_gives_up_after_the_pull_retry_timeout(hostile: HostileCluster, tmp_path: Path) -> None:
    hostile.broker.pull = lambda b, cmd, ask: answer(cmd, PULL_NOT_FOUND, ask.offset, 0, 10)
    started = time.monotonic()
    result = export(hostile, tmp_path / "out", "--pull-retry-timeout", "0.5")
    assert result.exit_code == 1 and "PULL_NOT_FOUND (19)" in result.output, result.output
    assert time.monotonic() - started < 15  # the default would try for 30 s
    assert 2 <= len(hostile.broker.pulls) <= 30


@pytest.mark.parametrize("value", ["0", "-1", "nan", "inf", "soon"])
def test_a_bad_pull_retry_timeout_is_a_usage_error(value: str, tmp_path: Path) -> None:
    from mqadmin.pipeline.cli import export_command

    args = ["messages", "-t", TOPIC, "-n", NS, "--out", str(tmp_path / "o"), "--pull-retry-timeout", value]
    result = CliRunner().invoke(export_command(), args)
    assert result.exit_code == 2 and "--pull-retry-timeout" in result.output, result.output
    assert not (tmp_path / "o").exists()
