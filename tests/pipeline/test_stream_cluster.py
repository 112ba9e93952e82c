"""The stream source and the sink on a real standalone cluster and through Spark Connect.

A driver process (``python -m tests.pipeline.test_stream_cluster ENGINE URL NS TOPIC OUT CK SINK``)
reads the topic with ``availableNow`` into Parquet and writes the batch back out to the topic
``SINK`` with the sink, prints ``ran 1``, waits for a line on its stdin, then runs the query again on
the same checkpoint in the same Spark session and prints ``ran 2``; between the two runs the topic
gains queues (``updateTopic``) and messages from the C++ producer. The output holds every message
once, queues added included, and the sink's topic holds one message per row read.

The standalone cluster and the Connect server are the session's (``tests/pipeline/conftest.py``),
shared with :mod:`tests.pipeline.test_cluster`.
"""

from __future__ import annotations

import os
import select
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pyarrow.dataset as ds
import pytest

from tests.broker.peers import cpp, create_topic
from tests.pipeline import spark_cluster
from tests.servers import BrokerProcess, NameServerProcess

ROOT = Path(__file__).resolve().parents[2]


@dataclass
class Cluster:
    namesrv: str
    broker: str


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    work = tmp_path_factory.mktemp("stream-engines")
    ns = NameServerProcess(work / "ns")
    broker = None
    try:
        broker = BrokerProcess(work / "broker", ns.addr)
        yield Cluster(ns.addr, broker.addr)
    finally:
        if broker is not None:
            broker.stop()
        ns.stop()


def produce(ns: str, topic: str, count: int, prefix: str) -> set[tuple[str, str]]:
    events = cpp("produce", ns, topic, str(count), "--prefix", prefix, timeout=300)
    return {(e["msg_id"], e["body"]) for e in events if e["event"] == "sent"}


def wait_for(p: subprocess.Popen[str], line: str, log: Path, timeout: float) -> None:
    """Read the driver's stdout until ``line``; fail with its stderr if it exits or takes too long."""
    assert p.stdout is not None
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        assert left > 0, f"the driver did not print {line!r}: {log.read_text(errors='replace')[-4000:]}"
        ready, _, _ = select.select([p.stdout], [], [], left)
        if not ready:
            continue
        got = p.stdout.readline()
        assert got, f"the driver exited ({p.wait()}): {log.read_text(errors='replace')[-4000:]}"
        if got.strip() == line:
            return


def drive_twice(
    engine: str, url: str, c: Cluster, topic: str, work: Path, sink: str, between: Callable[[], None]
) -> None:
    """One driver, one Spark session: the query runs, ``between`` changes the topic, the query runs again."""
    argv = [sys.executable, "-m", "tests.pipeline.test_stream_cluster", engine, url, c.namesrv, topic,
            str(work / "out"), str(work / "ck"), sink]  # fmt: skip
    env = {
        **os.environ,
        "PYSPARK_SUBMIT_ARGS": spark_cluster.TEST_SUBMIT_ARGS,
        "PYSPARK_PYTHON": sys.executable,
    }
    log = work / f"driver-{engine}.log"
    with open(log, "wb") as err:
        p = subprocess.Popen(
            argv, cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=err, text=True, env=env
        )
    try:
        assert p.stdin is not None
        wait_for(p, "ran 1", log, 600)
        between()
        p.stdin.write("again\n")
        p.stdin.flush()
        wait_for(p, "ran 2", log, 600)
        assert p.wait(120) == 0, log.read_text(errors="replace")[-4000:]
    finally:
        if p.poll() is None:
            p.kill()
            p.wait(30)


def check_engine(engine: str, url: str, c: Cluster, work: Path) -> None:
    topic, sink = f"Across{engine.title()}", f"Sunk{engine.title()}"
    create_topic(c.broker, topic, queues=2)
    create_topic(c.broker, sink, queues=2)
    sent = produce(c.namesrv, topic, 200, "a")

    def expand() -> None:  # the topic expands between the runs
        create_topic(c.broker, topic, queues=4)
        sent.update(produce(c.namesrv, topic, 200, "b"))

    drive_twice(engine, url, c, topic, work, sink, expand)
    rows = ds.dataset(work / "out", format="parquet").to_table().to_pylist()
    assert len(rows) == 400 and {(r["msg_id"], r["body"].decode()) for r in rows} == sent
    assert {r["queue_id"] for r in rows} == {0, 1, 2, 3}
    from mqadmin.pipeline.export.plan import ExportOptions, plan

    assert sum(r.size for r in plan(ExportOptions.parse({"namesrv": c.namesrv, "topic": sink}))) == 400


def test_standalone_cluster(
    cluster: Cluster, standalone_cluster: spark_cluster.Standalone, tmp_path: Path
) -> None:
    before = standalone_cluster.executor_logs()
    check_engine("master", standalone_cluster.url, cluster, tmp_path)
    standalone_cluster.assert_every_worker_ran_since(before)  # the tasks ran in the workers' executors


def test_spark_connect(cluster: Cluster, connect_server: spark_cluster.Connect, tmp_path: Path) -> None:
    check_engine("remote", connect_server.url, cluster, tmp_path)


def _drive(engine: str, url: str, namesrv: str, topic: str, out: str, ck: str, sink: str) -> None:
    from pyspark.sql import SparkSession

    from mqadmin.pipeline.stream.datasource import register

    builder = SparkSession.builder
    if engine == "master":
        builder = (
            builder.master(url).config("spark.driver.host", "127.0.0.1").config("spark.ui.enabled", "false")
        )
        builder = builder.config("spark.cores.max", "2")
    else:
        builder = builder.remote(url)
    spark = builder.getOrCreate()
    register(spark)

    def both(batch, batch_id):  # type: ignore[no-untyped-def]
        batch.persist()
        batch.write.mode("append").parquet(out)
        batch.select("body", "tags").write.format("rocketmq").option("namesrv", namesrv).option(
            "topic", sink
        ).option("writeId", f"{batch_id}").mode("append").save()
        batch.unpersist()

    for run in (1, 2):
        if run == 2:
            sys.stdin.readline()  # the test has changed the topic
        q = (
            spark.readStream.format("rocketmq").option("namesrv", namesrv).option("topics", topic)
            .option("startingOffsets", "earliest").option("partitionSize", "60").load()
            .writeStream.foreachBatch(both).option("checkpointLocation", ck).trigger(availableNow=True)
            .start()
        )  # fmt: skip
        q.awaitTermination()
        print(f"ran {run}", flush=True)
    spark.stop()


if __name__ == "__main__":
    _drive(*sys.argv[1:8])
