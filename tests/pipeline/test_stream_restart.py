"""Exactly once through the checkpoint, and expired offsets, with real processes.

- Our broker is killed (``kill -9``) while a stream reads it, and started again on its files:
  messages are produced before the kill and after the restart; the query goes on (its pulls are
  tried again until the broker answers) or fails with a clear error and is restarted from its
  checkpoint; the Parquet sink then holds each produced message once (rows = distinct offsets = N).
- The streaming query runs in its own process (a driver with its JVM), reading a topic into a
  Parquet file sink a small batch at a time; it is killed (SIGKILL to its process group) while a
  batch is in flight, then started again with ``availableNow`` on its checkpoint in the tests' own
  Spark session (another process, as a restarted driver would be, without starting one more JVM): the
  output holds every message of the topic, each once.
- The broker deletes commit-log files (``deleteExpiredCommitLog``, the admin request, with
  ``fileReservedTime=0`` and small files) under a checkpoint: the query fails naming
  ``failOnDataLoss``, or, with ``failOnDataLoss=false``, skips to the queue's new start.

``python -m tests.pipeline.test_stream_restart NS TOPIC OUT CHECKPOINT`` is the driver that is killed.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from mqadmin.protocol.command import RemotingCommand
from tests.broker.peers import call, cpp, create_topic
from tests.servers import Cluster as Servers

if TYPE_CHECKING:
    from pyspark.sql import DataFrame, SparkSession
    from pyspark.sql.streaming import StreamingQuery

ROOT = Path(__file__).resolve().parents[2]
DELETE_EXPIRED_COMMITLOG = 329


@dataclass
class Cluster:
    namesrv: str
    broker: str
    work: Path


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    work = tmp_path_factory.mktemp("restart-cluster")
    # small commit-log files, kept for no time: deleteExpiredCommitLog drops all but the last; no
    # scheduled clean-up hour (deleteWhen defaults to 04, when the broker itself would drop them)
    with Servers(work, mappedFileSizeCommitLog=64 * 1024, fileReservedTime=0, deleteWhen="99") as servers:
        yield Cluster(servers.ns_addr, servers.broker_addr, work)


@pytest.fixture(scope="module")
def killable(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Servers]:
    """A cluster of its own whose broker the test kills (the one above loses commit-log files)."""
    with Servers(tmp_path_factory.mktemp("kill-cluster")) as servers:
        yield servers


def produce(ns: str, topic: str, count: int, prefix: str, size: int = 0) -> set[tuple[str, str]]:
    events = cpp("produce", ns, topic, str(count), "--prefix", prefix, "--size", str(size), timeout=300)
    return {(e["msg_id"], e["body"]) for e in events if e["event"] == "sent"}


def driver(c: Cluster, topic: str, name: str) -> subprocess.Popen[bytes]:
    out, ck = c.work / name / "out", c.work / name / "checkpoint"
    log = open(c.work / f"{name}.log", "ab")  # the child keeps it
    env = {**os.environ, "PYSPARK_PYTHON": sys.executable, "SPARK_LOCAL_IP": "127.0.0.1"}
    argv = [
        sys.executable,
        "-m",
        "tests.pipeline.test_stream_restart",
        c.namesrv,
        topic,
        str(out),
        str(ck),
    ]
    proc = subprocess.Popen(
        argv,
        cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True,
    )  # fmt: skip
    log.close()
    return proc


def entries(folder: Path) -> set[int]:
    return {int(p.name) for p in folder.glob("[0-9]*")} if folder.exists() else set()


def read_bodies(spark: SparkSession, out: Path) -> list[tuple[str, str]]:
    return [(r.msg_id, r.body.split(b"|")[0].decode()) for r in spark.read.parquet(str(out)).collect()]


def test_killed_mid_batch_then_restarted_writes_each_message_once(
    spark: SparkSession, cluster: Cluster
) -> None:
    create_topic(cluster.broker, "Killed", queues=4)
    sent = produce(cluster.namesrv, "Killed", 1500, "k")
    proc = driver(cluster, "Killed", "killed")
    ck = cluster.work / "killed" / "checkpoint"
    deadline = time.monotonic() + 240
    try:
        while True:  # wait for a committed batch and the next one planned but not committed
            assert proc.poll() is None, (cluster.work / "killed.log").read_text()[-3000:]
            assert time.monotonic() < deadline, "no batch in flight seen"
            done, planned = entries(ck / "commits"), entries(ck / "offsets")
            if done and max(planned) > max(done):
                break
            time.sleep(0.05)
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(30)
    before = len(entries(ck / "commits"))
    assert before < 15, "the whole topic was read before the kill"  # 100 a batch
    from mqadmin.pipeline.stream.datasource import register

    register(spark)
    out = cluster.work / "killed" / "out"
    finisher = (
        reader(spark, cluster.namesrv, "Killed").writeStream.format("parquet").option("path", str(out))
        .option("checkpointLocation", str(ck)).trigger(availableNow=True).start()
    )  # fmt: skip
    finisher.awaitTermination(300)
    assert not finisher.isActive and finisher.exception() is None, finisher.exception()
    got = read_bodies(spark, out)
    assert len(got) == len(sent) and set(got) == sent


def offsets_read(q: StreamingQuery) -> int:
    """How many offsets the query has planned and finished, by its last progress."""
    progress = q.lastProgress
    if not progress or not progress["sources"]:
        return 0
    end = progress["sources"][0]["endOffset"]
    end = json.loads(end) if isinstance(end, str) else end
    return sum(int(v) for queues in (end or {}).values() for v in queues.values())


def test_broker_killed_mid_stream_and_restarted_every_offset_once(
    spark: SparkSession, killable: Servers, tmp_path: Path
) -> None:
    import mqadmin.spark

    mqadmin.spark.register(spark)
    broker = killable.broker
    create_topic(broker.addr, "Crash", queues=2)
    sent = produce(killable.ns_addr, "Crash", 400, "before")
    out, ck = tmp_path / "out", tmp_path / "ck"

    def start(**trigger: Any) -> StreamingQuery:
        return (
            spark.readStream.format(mqadmin.spark.FORMAT).option("namesrv", killable.ns_addr)
            .option("topics", "Crash").option("startingOffsets", "earliest")
            .option("maxOffsetsPerTrigger", "40").option("pullRetryTimeout", "60s").load()
            .writeStream.format("parquet").option("path", str(out)).option("checkpointLocation", str(ck))
            .trigger(**trigger).start()
        )  # fmt: skip

    q = start(processingTime="200 milliseconds")
    deadline = time.monotonic() + 120
    while not entries(ck / "commits"):  # a batch done, the next ones to come
        assert q.isActive and time.monotonic() < deadline, q.exception()
        time.sleep(0.05)
    broker.kill()
    planned = max(entries(ck / "offsets"))
    time.sleep(1.0)  # the stream meets a dead broker: refused connections, then a broker coming back
    broker.start()
    sent |= produce(killable.ns_addr, "Crash", 400, "after")
    assert len(sent) == 800
    while q.isActive and offsets_read(q) < len(sent) and time.monotonic() < deadline + 120:
        time.sleep(0.5)
    failure = q.exception()
    q.stop()
    if failure is not None:  # a clear error, then the restart from the checkpoint finishes the job
        said = str(failure)
        assert "RangeReadError" in said or "does not answer" in said, said[-3000:]
        again = start(availableNow=True)
        again.awaitTermination(180)
        assert again.exception() is None
    else:
        assert offsets_read(q) == len(sent)
    assert max(entries(ck / "commits")) > planned  # batches after the kill were read and committed
    rows = spark.read.parquet(str(out)).select("queue_id", "queue_offset", "msg_id", "body").collect()
    assert len(rows) == len(sent)
    assert len({(r.queue_id, r.queue_offset) for r in rows}) == len(sent)
    assert {(r.msg_id, r.body.split(b"|")[0].decode()) for r in rows} == sent


def test_expired_offsets_follow_fail_on_data_loss(spark: SparkSession, cluster: Cluster) -> None:
    from mqadmin.pipeline.stream.datasource import register

    register(spark)
    create_topic(cluster.broker, "Expiring", queues=1)
    produce(cluster.namesrv, "Expiring", 40, "a", size=1000)
    first = cluster.work / "expire"

    def run(name: str, **options: str) -> None:
        reader = (
            spark.readStream.format("rocketmq")
            .option("namesrv", cluster.namesrv)
            .option("topics", "Expiring")
        )
        for k, v in options.items():
            reader = reader.option(k, v)
        q = (
            reader.option("startingOffsets", "earliest").load()
            .writeStream.format("parquet")
            .option("path", str(cluster.work / name / "out"))
            .option("checkpointLocation", str(cluster.work / name / "checkpoint"))
            .trigger(availableNow=True).start()
        )  # fmt: skip
        q.awaitTermination(180)

    run("expire")
    later = produce(cluster.namesrv, "Expiring", 300, "b", size=1000)
    resp = call(cluster.broker, RemotingCommand.request(DELETE_EXPIRED_COMMITLOG, {}))
    assert resp.code == 0, resp.remark
    shutil.copytree(first, cluster.work / "expire-skip")

    with pytest.raises(Exception) as e:
        run("expire")
    assert "failOnDataLoss" in str(e.value) and "are gone" in str(e.value)

    run("expire-skip", failOnDataLoss="false")
    rows = spark.read.parquet(str(cluster.work / "expire-skip" / "out")).collect()
    kept = [r for r in rows if r.body.startswith(b"b")]
    offsets = sorted(r.queue_offset for r in kept)
    assert 40 < offsets[0] and offsets == list(range(offsets[0], 340))  # from the new start, none lost after
    assert {(r.msg_id, r.body.split(b"|")[0].decode()) for r in kept} < later


def reader(spark: SparkSession, namesrv: str, topic: str) -> DataFrame:
    """The kill test's stream: the topic from its start, 100 offsets a batch."""
    return (
        spark.readStream.format("rocketmq").option("namesrv", namesrv).option("topics", topic)
        .option("startingOffsets", "earliest").option("maxOffsetsPerTrigger", "100").load()
    )  # fmt: skip


def _drive(namesrv: str, topic: str, out: str, ck: str) -> None:
    """The driver of the kill test: batches of 100, each made slower per row, until it is killed."""
    from pyspark.sql import SparkSession
    from pyspark.sql.functions import udf

    from mqadmin.pipeline.stream.datasource import register

    spark = (
        SparkSession.builder.master("local[2]").config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "2").getOrCreate()
    )  # fmt: skip
    register(spark)

    @udf("binary")
    def slow(body: bytes) -> bytes:
        time.sleep(0.005)
        return body

    df = reader(spark, namesrv, topic).withColumn("body", slow("body"))
    writer = df.writeStream.format("parquet").option("path", out).option("checkpointLocation", ck)
    writer.trigger(processingTime="100 milliseconds").start().awaitTermination()
    spark.stop()


if __name__ == "__main__":
    _drive(*sys.argv[1:5])
