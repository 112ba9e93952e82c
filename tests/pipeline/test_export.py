"""The ``rocketmq`` data source against our name server and broker, with messages from the C++ client.

10,000 messages sent over 8 queues come back exactly (ids and bodies), split into several partitions
per queue; a store-time range selects exactly the messages stored in it; ``mqadmin export messages``
writes them as Parquet.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pyarrow.dataset as ds
import pytest
from click.testing import CliRunner

from tests.broker.peers import cpp, create_topic
from tests.servers import Cluster

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

TOPIC = "ExportTopic"
QUEUES = 8
COUNT = 10_000


@dataclass
class Exported:
    namesrv: str
    sent: set[tuple[str, str]]


@pytest.fixture(scope="module")
def topic(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Exported]:
    work = tmp_path_factory.mktemp("export-cluster")
    cluster = Cluster(work)
    ns, broker = cluster.ns, cluster.broker
    try:
        resp = create_topic(broker.addr, TOPIC, queues=QUEUES)
        assert resp.code == 0, resp.remark
        events = cpp("produce", ns.addr, TOPIC, str(COUNT), "--prefix", "x", timeout=300)
        sent = {(e["msg_id"], e["body"]) for e in events if e["event"] == "sent"}
        assert len(sent) == COUNT
        yield Exported(ns.addr, sent)
    finally:
        cluster.stop()


def read(spark: SparkSession, namesrv: str, out: Path, **options: Any) -> list[dict[str, Any]]:
    from mqadmin.pipeline.stream.datasource import register

    register(spark)
    reader = spark.read.format("rocketmq").option("namesrv", namesrv).option("topic", TOPIC)
    for k, v in options.items():
        reader = reader.option(k, str(v))
    df = reader.load()
    df.write.mode("overwrite").parquet(str(out))
    return ds.dataset(out, format="parquet").to_table().to_pylist()


def test_whole_topic_exactly(spark: SparkSession, topic: Exported, tmp_path: Path) -> None:
    from mqadmin.pipeline.stream.datasource import register

    register(spark)
    source = spark.read.format("rocketmq").option("namesrv", topic.namesrv).option("topic", TOPIC)
    df = source.option("partitionSize", "500").load()
    # 1250 per queue: cut in 500 + 500 + 250, the 250s two to a partition (one read per queue piece)
    assert QUEUES * 2 <= df.rdd.getNumPartitions() < QUEUES * 3
    rows = read(spark, topic.namesrv, tmp_path / "all", partitionSize=500)
    got = {(r["msg_id"], r["body"].decode()) for r in rows}
    assert len(rows) == COUNT and got == topic.sent
    assert {r["queue_id"] for r in rows} == set(range(QUEUES))
    per_queue: dict[int, list[int]] = {}
    for r in rows:
        per_queue.setdefault(r["queue_id"], []).append(r["queue_offset"])
    for offsets in per_queue.values():
        assert sorted(offsets) == list(range(len(offsets)))  # no gap, no duplicate
    sample = rows[0]
    assert sample["topic"] == TOPIC and sample["broker"] == "broker-a" and sample["tags"]
    assert sample["properties"] and dict(sample["properties"]).get("UNIQ_KEY") == sample["msg_id"]
    assert (
        sample["store_host"].startswith("127.0.0.1:")
        and sample["store_timestamp"] >= sample["born_timestamp"]
    )


def test_time_range_selects_exactly_what_was_stored_in_it(
    spark: SparkSession, topic: Exported, tmp_path: Path
) -> None:
    everything = read(spark, topic.namesrv, tmp_path / "all")
    stamps = sorted(int(r["store_timestamp"].timestamp() * 1000) for r in everything)
    begin, end = stamps[len(stamps) // 3], stamps[2 * len(stamps) // 3]
    if begin == end:
        end += 1
    expected = {
        (r["msg_id"], r["body"])
        for r in everything
        if begin <= int(r["store_timestamp"].timestamp() * 1000) < end
    }
    window = read(spark, topic.namesrv, tmp_path / "window", begin=begin, end=end)
    assert {(r["msg_id"], r["body"]) for r in window} == expected
    assert 0 < len(window) < COUNT


def test_export_messages_command(spark: SparkSession, topic: Exported, tmp_path: Path) -> None:
    from mqadmin.pipeline.cli import export_command

    out = tmp_path / "cmd"
    result = CliRunner().invoke(
        export_command(),
        ["messages", "-t", TOPIC, "-n", topic.namesrv, "--out", str(out), "--partition-size", "2000"],
    )
    assert result.exit_code == 0, result.output
    assert f"exported {COUNT} messages of {TOPIC}" in result.stdout
    table = ds.dataset(out, format="parquet").to_table(columns=["msg_id", "body"])
    assert {(m, b.decode()) for m, b in zip(*table.to_pydict().values(), strict=True)} == topic.sent


def _export(topic: Exported, out: Path, *extra: str) -> Any:
    from mqadmin.pipeline.cli import export_command

    args = ["messages", "-t", TOPIC, "-n", topic.namesrv, "--out", str(out), "--partition-size", "2000"]
    result = CliRunner().invoke(export_command(), [*args, *extra])
    assert result.exit_code == 0, result.output
    return result


def test_in_process_export_equals_the_spark_one_row_for_row(
    spark: SparkSession, topic: Exported, tmp_path: Path
) -> None:
    """A small export skips Spark; its files must hold what Spark's writer writes, row for row."""
    import json

    key = ("queue_id", "queue_offset")
    for fmt in ("parquet", "json"):
        mine, theirs = tmp_path / f"mine-{fmt}", tmp_path / f"spark-{fmt}"
        _export(topic, mine, "--format", fmt)
        _export(topic, theirs, "--format", fmt, "--master", "local[2]")  # the tests' session: Spark
        assert (mine / "_SUCCESS").exists() and len(list(mine.glob("part-00000-*"))) == 1
        assert list(theirs.glob("part-*"))
        a: list[Any]
        b: list[Any]
        if fmt == "parquet":
            a = sorted(spark.read.parquet(str(mine)).collect(), key=lambda r: (r[key[0]], r[key[1]]))
            b = sorted(spark.read.parquet(str(theirs)).collect(), key=lambda r: (r[key[0]], r[key[1]]))
        else:

            def lines(d: Path) -> list[dict[str, Any]]:
                rows = [json.loads(x) for f in sorted(d.glob("part-*")) for x in f.read_text().splitlines()]
                return sorted(rows, key=lambda r: (r[key[0]], r[key[1]]))

            a, b = lines(mine), lines(theirs)
        assert len(a) == COUNT and a == b


def test_export_refuses_an_existing_out_and_replaces_it_with_force(topic: Exported, tmp_path: Path) -> None:
    from mqadmin.pipeline.cli import export_command

    out = tmp_path / "again"
    _export(topic, out)
    args = ["messages", "-t", TOPIC, "-n", topic.namesrv, "--out", str(out)]
    refused = CliRunner().invoke(export_command(), args)
    assert refused.exit_code == 2 and "add --force" in refused.stderr
    _export(topic, out, "--force", "--format", "json")
    assert [p.suffix for p in out.glob("part-*")] == [".json"]


def test_small_export_end_to_end_starts_no_jvm(topic: Exported, tmp_path: Path) -> None:
    """The installed command, as a user runs it: a small topic is pulled without Spark (a JVM that
    cannot start is never asked for)."""
    import os
    import subprocess
    import sys

    mqadmin = str(Path(sys.executable).with_name("mqadmin"))
    p = subprocess.run(
        [mqadmin, "export", "messages", "-t", TOPIC, "-n", topic.namesrv, "--out", str(tmp_path / "q")],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "JAVA_HOME": str(tmp_path / "no-java")},
    )
    assert p.returncode == 0 and p.stderr == "", p.stderr
    assert f"exported {COUNT} messages" in p.stdout, p.stdout


def test_offsets_options(spark: SparkSession, topic: Exported, tmp_path: Path) -> None:
    rows = read(
        spark, topic.namesrv, tmp_path / "offsets", startingOffsets=100, endingOffsets='{"broker-a:0": 110}'
    )
    per_queue: dict[int, list[int]] = {}
    for r in rows:
        per_queue.setdefault(r["queue_id"], []).append(r["queue_offset"])
    assert sorted(per_queue[0]) == list(range(100, 110))
    assert all(min(v) == 100 and len(v) == COUNT // QUEUES - 100 for q, v in per_queue.items() if q != 0)
