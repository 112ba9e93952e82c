"""``df.write`` / ``df.writeStream.format("rocketmq")`` into our broker, read back by the C++ consumer.

The C++ client (in its own process: ``python -m tests.pipeline.test_sink consume NS TOPIC GROUP N``)
receives what the sink sent, with its tags, keys, a user property and the sink's ``UNIQ_KEY`` as
message id. The batch reader reads the same messages back as rows. Bad columns and bad rows are
refused with the column or row named.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from tests.broker.peers import cpp, create_topic
from tests.servers import Cluster as Servers

if TYPE_CHECKING:
    from pyspark.sql import DataFrame, SparkSession

ROOT = Path(__file__).resolve().parents[2]


@dataclass
class Cluster:
    namesrv: str
    broker: str
    work: Path


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    work = tmp_path_factory.mktemp("sink-cluster")
    with Servers(work) as servers:
        yield Cluster(servers.ns_addr, servers.broker_addr, work)


def cpp_consume(ns: str, topic: str, group: str, expect: int) -> list[dict[str, Any]]:
    proc = subprocess.run(
        [sys.executable, "-m", "tests.pipeline.test_sink", "consume", ns, topic, group, str(expect)],
        cwd=ROOT, capture_output=True, text=True, timeout=180,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-2000:]
    return [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]


def read_topic(spark: SparkSession, ns: str, topic: str) -> list[dict[str, Any]]:
    rows = spark.read.format("rocketmq").option("namesrv", ns).option("topic", topic).load().collect()
    return [r.asDict() for r in rows]


def write(df: DataFrame, ns: str, **options: Any) -> None:
    from mqadmin.pipeline.stream.datasource import register

    register(df.sparkSession)
    w = df.write.format("rocketmq").option("namesrv", ns).mode("append")
    for k, v in options.items():
        w = w.option(k, str(v))
    w.save()


def test_rows_become_messages_with_tags_keys_and_properties(spark: SparkSession, cluster: Cluster) -> None:
    from mqadmin.pipeline.stream.sink import uniq_key

    create_topic(cluster.broker, "SinkOut", queues=4)
    rows = [(f"m{i}", f"T{i % 3}", f"k{i} kk{i}", {"color": f"c{i}"}) for i in range(300)]
    df = spark.createDataFrame(rows, "body string, tags string, keys string, properties map<string,string>")
    write(df.coalesce(1), cluster.namesrv, topic="SinkOut", writeId="job-1", batchSize=64)

    got = cpp_consume(cluster.namesrv, "SinkOut", "SinkCheckGroup", 300)
    recv = {e["body"]: e for e in got if e["event"] == "recv"}
    assert len(recv) == 300
    for i in (0, 7, 299):
        e = recv[f"m{i}"]
        assert (e["tags"], e["keys"], e["color"]) == (f"T{i % 3}", f"k{i} kk{i}", f"c{i}")
    assert {e["msg_id"] for e in recv.values()} == {uniq_key("job-1", 0, 0, r) for r in range(300)}

    back = read_topic(spark, cluster.namesrv, "SinkOut")
    assert {r["body"].decode() for r in back} == {f"m{i}" for i in range(300)}
    assert {r["queue_id"] for r in back} == {0, 1, 2, 3}  # batches spread over the queues
    assert {r["msg_id"] for r in back} == {e["msg_id"] for e in recv.values()}


def test_a_replayed_write_sends_the_same_keys(spark: SparkSession, cluster: Cluster) -> None:
    create_topic(cluster.broker, "SinkTwice", queues=2)
    df = spark.createDataFrame([(f"x{i}".encode(),) for i in range(50)], "body binary").coalesce(1)
    write(df, cluster.namesrv, topic="SinkTwice", writeId="replay")
    write(df, cluster.namesrv, topic="SinkTwice", writeId="replay")
    back = read_topic(spark, cluster.namesrv, "SinkTwice")
    assert len(back) == 100 and len({r["msg_id"] for r in back}) == 50  # at least once: dedup by key


def test_topic_and_queue_columns(spark: SparkSession, cluster: Cluster) -> None:
    create_topic(cluster.broker, "SinkA", queues=4)
    create_topic(cluster.broker, "SinkB", queues=4)
    rows = [("SinkA" if i % 2 else "SinkB", f"r{i}", 2) for i in range(40)]
    write(spark.createDataFrame(rows, "topic string, body string, queueId int"), cluster.namesrv)
    a, b = read_topic(spark, cluster.namesrv, "SinkA"), read_topic(spark, cluster.namesrv, "SinkB")
    assert len(a) == 20 and len(b) == 20
    assert {r["queue_id"] for r in a + b} == {2}


def test_stream_to_topic(spark: SparkSession, cluster: Cluster) -> None:
    from mqadmin.pipeline.stream.datasource import register

    register(spark)
    create_topic(cluster.broker, "StreamIn", queues=2)
    create_topic(cluster.broker, "StreamOut", queues=2)
    events = cpp("produce", cluster.namesrv, "StreamIn", "120", "--prefix", "s", "--tag", "In", timeout=120)
    sent = {e["body"] for e in events if e["event"] == "sent"}
    q = (
        spark.readStream.format("rocketmq").option("namesrv", cluster.namesrv).option("topics", "StreamIn")
        .option("startingOffsets", "earliest").option("maxOffsetsPerTrigger", "50").load()
        .selectExpr("body", "'Out' AS tags", "keys")
        .writeStream.format("rocketmq").option("namesrv", cluster.namesrv).option("topic", "StreamOut")
        .option("checkpointLocation", str(cluster.work / "to-topic")).trigger(availableNow=True).start()
    )  # fmt: skip
    q.awaitTermination(180)
    assert q.exception() is None
    back = read_topic(spark, cluster.namesrv, "StreamOut")
    assert {r["body"].decode() for r in back} == sent and len(back) == 120
    assert {r["tags"] for r in back} == {"Out"}
    assert len({r["msg_id"] for r in back}) == 120
    # keys from the query's id (kept across restarts), the micro-batch and the partition
    from mqadmin.pipeline.stream.sink import key_prefix

    known = {key_prefix(str(q.id), b, p) for b in range(10) for p in range(10)}
    prefixes = {r["msg_id"][:16] for r in back}
    assert prefixes <= known and len(prefixes) >= 3


@pytest.mark.parametrize(
    ("ddl", "rows", "options", "said"),
    [
        ("value string", [("a",)], {"topic": "SinkOut"}, "needs a column body"),
        ("body string", [("a",)], {}, "needs a column topic or the option topic"),
        ("body int", [(1,)], {"topic": "SinkOut"}, "column body is int"),
        ("body string, tags int", [("a", 1)], {"topic": "SinkOut"}, "column tags is int"),
        (
            "body string",
            [("a",)],
            {"topic": "SinkOut", "bogus": "1"},
            "unknown option(s) of the rocketmq sink",
        ),
        ("body string, queueId int", [("a", 9)], {"topic": "SinkOut"}, "queueId 9 is not a writable queue"),
        ("body string", [("",)], {"topic": "SinkOut"}, "the message body length is zero"),
        ("topic string, body string", [(None, "a")], {}, "has no topic"),
        ("topic string, body string", [("bad topic!", "a")], {}, "contains illegal characters"),
    ],
)
def test_bad_columns_and_rows_are_named(
    spark: SparkSession,
    cluster: Cluster,
    ddl: str,
    rows: list[tuple[Any, ...]],
    options: dict[str, str],
    said: str,
) -> None:
    with pytest.raises(Exception) as e:
        write(spark.createDataFrame(rows, ddl), cluster.namesrv, **options)
    assert said in str(e.value)


def _consume(namesrv: str, topic: str, group: str, expect: int) -> None:
    """The C++ push consumer: one JSON line per message (tags, keys, the property ``color``)."""
    import threading

    from rocketmq.client import PushConsumer

    lock = threading.Lock()
    seen: set[str] = set()

    def on_message(msg: Any) -> None:
        color = msg.get_property("color")
        line = {
            "event": "recv", "msg_id": msg.id, "body": msg.body.decode(), "tags": msg.tags.decode(),
            "keys": msg.keys.decode(), "color": color.decode() if color else None,
        }  # fmt: skip
        with lock:
            seen.add(msg.id)
            sys.stdout.write(json.dumps(line) + "\n")

    consumer = PushConsumer(group)
    consumer.set_namesrv_addr(namesrv)
    consumer.subscribe(topic, on_message)
    consumer.start()
    deadline = time.monotonic() + 120
    try:
        while time.monotonic() < deadline:
            time.sleep(0.2)
            with lock:
                if len(seen) >= expect:
                    break
        time.sleep(1.0)
    finally:
        consumer.shutdown()
        sys.stdout.flush()


if __name__ == "__main__" and sys.argv[1] == "consume":
    _consume(sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]))
