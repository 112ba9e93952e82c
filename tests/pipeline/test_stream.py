"""``spark.readStream.format("rocketmq")`` against our name server and broker, the C++ client producing.

A query runs with ``availableNow`` into a Parquet file sink (exactly once through the checkpoint),
then runs again from the same checkpoint after the topic grew or gained queues. Beside each happy
path, the bad input it must refuse before any task starts.
"""

from __future__ import annotations

import json
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from tests.broker.peers import MQADMIN, cpp, create_topic
from tests.servers import Cluster as Servers

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

TOPIC = "StreamTopic"


@dataclass
class Cluster:
    namesrv: str
    broker: str
    work: Path


def produce(ns: str, topic: str, count: int, prefix: str, tag: str = "tagA") -> set[tuple[str, str]]:
    events = cpp("produce", ns, topic, str(count), "--prefix", prefix, "--tag", tag, timeout=300)
    sent = {(e["msg_id"], e["body"]) for e in events if e["event"] == "sent"}
    assert len(sent) == count
    return sent


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    work = tmp_path_factory.mktemp("stream-cluster")
    with Servers(work) as servers:
        yield Cluster(servers.ns_addr, servers.broker_addr, work)


def new_topic(c: Cluster, topic: str, queues: int = 4) -> None:
    resp = create_topic(c.broker, topic, queues=queues)
    assert resp.code == 0, resp.remark


def run_stream(spark: SparkSession, c: Cluster, name: str, **options: Any) -> list[dict[str, Any]]:
    """One ``availableNow`` run of the query ``name`` (its checkpoint and output under the cluster's
    folder); returns its progress reports."""
    from mqadmin.pipeline.stream.datasource import register

    register(spark)
    reader = spark.readStream.format("rocketmq").option("namesrv", c.namesrv)
    for k, v in options.items():
        reader = reader.option(k, str(v))
    q = (
        reader.load()
        .writeStream.format("parquet")
        .option("path", str(c.work / name / "out"))
        .option("checkpointLocation", str(c.work / name / "checkpoint"))
        .trigger(availableNow=True)
        .start()
    )
    q.awaitTermination(180)
    assert not q.isActive, "the query did not end"
    return [json.loads(p.json) for p in q.recentProgress]


def output(spark: SparkSession, c: Cluster, name: str) -> list[dict[str, Any]]:
    rows = spark.read.parquet(str(c.work / name / "out")).collect()
    return [r.asDict() for r in rows]


def rows_read(progress: list[dict[str, Any]]) -> int:
    return sum(int(p["numInputRows"]) for p in progress)


def pairs(rows: list[dict[str, Any]]) -> list[tuple[str, str]]:
    return [(r["msg_id"], r["body"].decode()) for r in rows]


def test_every_message_once_then_only_new_ones(spark: SparkSession, cluster: Cluster) -> None:
    new_topic(cluster, TOPIC)
    first = produce(cluster.namesrv, TOPIC, 600, "a")
    progress = run_stream(spark, cluster, "grow", topics=TOPIC, startingOffsets="earliest")
    got = pairs(output(spark, cluster, "grow"))
    assert len(got) == len(first) and set(got) == first
    second = produce(cluster.namesrv, TOPIC, 250, "b")
    progress = run_stream(spark, cluster, "grow", topics=TOPIC, startingOffsets="earliest")
    assert rows_read(progress) == 250  # the restart read only what came after the checkpoint
    got = pairs(output(spark, cluster, "grow"))
    assert len(got) == 850 and set(got) == first | second


def test_latest_start_reads_nothing_old(spark: SparkSession, cluster: Cluster) -> None:
    new_topic(cluster, "LatestTopic")
    produce(cluster.namesrv, "LatestTopic", 40, "old")
    run_stream(spark, cluster, "latest", topics="LatestTopic")  # startingOffsets defaults to latest
    fresh = produce(cluster.namesrv, "LatestTopic", 30, "new")
    run_stream(spark, cluster, "latest", topics="LatestTopic")
    assert set(pairs(output(spark, cluster, "latest"))) == fresh


def test_a_queue_added_by_update_topic_is_read_from_its_start(spark: SparkSession, cluster: Cluster) -> None:
    new_topic(cluster, "GrowQueues", queues=2)
    first = produce(cluster.namesrv, "GrowQueues", 60, "a")
    run_stream(spark, cluster, "queues", topics="GrowQueues", startingOffsets="earliest")
    new_topic(cluster, "GrowQueues", queues=4)
    second = produce(cluster.namesrv, "GrowQueues", 80, "b")
    run_stream(spark, cluster, "queues", topics="GrowQueues", startingOffsets="earliest")
    rows = output(spark, cluster, "queues")
    assert len(rows) == 140 and set(pairs(rows)) == first | second
    added = sorted(r["queue_offset"] for r in rows if r["queue_id"] == 3)
    assert added and added[0] == 0 and added == list(range(len(added)))


def test_max_offsets_per_trigger_bounds_each_batch(spark: SparkSession, cluster: Cluster) -> None:
    new_topic(cluster, "Limited")
    sent = produce(cluster.namesrv, "Limited", 500, "l")
    progress = run_stream(spark, cluster, "limited", topics="Limited", startingOffsets="earliest",
                          maxOffsetsPerTrigger=120)  # fmt: skip
    sizes = [int(p["numInputRows"]) for p in progress if int(p["numInputRows"])]
    assert sum(sizes) == 500 and max(sizes) <= 120 and len(sizes) >= 5
    assert set(pairs(output(spark, cluster, "limited"))) == sent


def test_sub_expression_filters_tags_at_the_broker(spark: SparkSession, cluster: Cluster) -> None:
    new_topic(cluster, "Tagged")
    produce(cluster.namesrv, "Tagged", 70, "a", tag="TagA")
    wanted = produce(cluster.namesrv, "Tagged", 40, "b", tag="TagB")
    wanted |= produce(cluster.namesrv, "Tagged", 20, "c", tag="TagC")
    run_stream(
        spark, cluster, "tags", topics="Tagged", startingOffsets="earliest", subExpression="TagB || TagC"
    )
    rows = output(spark, cluster, "tags")
    assert set(pairs(rows)) == wanted and len(rows) == 60
    assert {r["tags"] for r in rows} == {"TagB", "TagC"}


def test_topic_pattern_and_json_offsets(spark: SparkSession, cluster: Cluster) -> None:
    new_topic(cluster, "PatOne", queues=1)
    new_topic(cluster, "PatTwo", queues=1)
    one = produce(cluster.namesrv, "PatOne", 10, "one")
    two = produce(cluster.namesrv, "PatTwo", 10, "two")
    start = json.dumps({"PatOne": {"broker-a:0": 4}, "PatTwo": {"broker-a:0": -2}})
    run_stream(spark, cluster, "pattern", topicPattern="Pat.*", startingOffsets=start)
    rows = output(spark, cluster, "pattern")
    by_topic = {
        t: {(r["msg_id"], r["body"].decode()) for r in rows if r["topic"] == t} for t in ("PatOne", "PatTwo")
    }
    assert by_topic["PatTwo"] == two
    assert len(by_topic["PatOne"]) == 6 and by_topic["PatOne"] < one
    assert {r["queue_offset"] for r in rows if r["topic"] == "PatOne"} == set(range(4, 10))


def test_starting_timestamp(spark: SparkSession, cluster: Cluster) -> None:
    new_topic(cluster, "Timed")
    produce(cluster.namesrv, "Timed", 30, "before")
    time.sleep(1.2)
    at = int(time.time() * 1000)
    time.sleep(0.2)
    after = produce(cluster.namesrv, "Timed", 30, "after")
    run_stream(spark, cluster, "timed", topics="Timed", startingTimestamp=at)
    assert set(pairs(output(spark, cluster, "timed"))) == after


def test_group_commits_show_in_consumer_progress(spark: SparkSession, cluster: Cluster) -> None:
    new_topic(cluster, "Lagged", queues=2)
    produce(cluster.namesrv, "Lagged", 50, "a")
    run_stream(spark, cluster, "lag", topics="Lagged", startingOffsets="earliest", group="SparkLagGroup")
    proc = subprocess.run(
        [MQADMIN, "consumerProgress", "-n", cluster.namesrv, "-g", "SparkLagGroup"],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    lines = [line.split() for line in proc.stdout.splitlines() if line.startswith("Lagged ")]
    assert len(lines) == 2, proc.stdout
    assert all(parts[3] == parts[4] and int(parts[3]) > 0 for parts in lines), proc.stdout  # no lag
    assert "Diff Total: 0" in proc.stdout, proc.stdout
    produce(cluster.namesrv, "Lagged", 12, "b")
    proc = subprocess.run(
        [MQADMIN, "consumerProgress", "-n", cluster.namesrv, "-g", "SparkLagGroup"],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert "Diff Total: 12" in proc.stdout, proc.stdout


def test_no_group_commits_nothing(spark: SparkSession, cluster: Cluster) -> None:
    new_topic(cluster, "Unlagged", queues=1)
    produce(cluster.namesrv, "Unlagged", 5, "a")
    run_stream(spark, cluster, "nolag", topics="Unlagged", startingOffsets="earliest")
    proc = subprocess.run(
        [MQADMIN, "consumerProgress", "-n", cluster.namesrv, "-g", "TOOLS_CONSUMER"],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert "Unlagged" not in proc.stdout


@pytest.mark.parametrize(
    ("options", "said"),
    [
        ({"topics": "NoSuchTopic"}, "topic NoSuchTopic does not exist"),
        ({"topics": TOPIC, "startingOffsets": '{"StreamTopic": [1]'}, "startingOffsets is not earliest"),
        ({"topics": TOPIC, "startingOffsets": '{"StreamTopic": {"broker-a:0": "x"}}'}, "the offset of"),
        ({"topics": TOPIC, "maxOffsetsPerTrigger": "-5"}, "maxoffsetspertrigger must be at least 1"),
        ({"topics": TOPIC, "failOnDataLoss": "maybe"}, "failondataloss must be true or false"),
        ({"topics": TOPIC, "startingOffset": "earliest"}, "unknown option(s) of the rocketmq stream source"),
    ],
)
def test_bad_stream_options_fail_at_load(
    spark: SparkSession, cluster: Cluster, options: dict[str, str], said: str
) -> None:
    from mqadmin.pipeline.stream.datasource import register

    register(spark)
    reader = spark.readStream.format("rocketmq").option("namesrv", cluster.namesrv)
    for k, v in options.items():
        reader = reader.option(k, v)
    with pytest.raises(Exception) as e:
        reader.load()
    assert said in str(e.value)


def test_unreachable_name_server_fails_at_load(spark: SparkSession) -> None:
    from mqadmin.pipeline.stream.datasource import register
    from tests.pipeline.spark_cluster import free_port

    register(spark)
    reader = spark.readStream.format("rocketmq").option("namesrv", f"127.0.0.1:{free_port()}")
    started = time.monotonic()
    with pytest.raises(Exception) as e:
        reader.option("topics", TOPIC).option("timeout", "2").load()
    assert time.monotonic() - started < 60
    assert "Connection refused" in str(e.value) or "connect" in str(e.value).lower()
