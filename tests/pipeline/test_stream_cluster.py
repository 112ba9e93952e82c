"""The stream source and the sink on a real standalone cluster and through Spark Connect.

A driver process (``python -m tests.pipeline.test_stream_cluster ENGINE URL NS TOPIC OUT CK SINK``)
reads the topic with ``availableNow`` into Parquet and writes the batch back out to the topic
``SINK`` with the sink; between two runs the topic gains queues (``updateTopic``) and messages from
the C++ producer. The output holds every message once, queues added included, and the sink's topic
holds one message per row read.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
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


def drive(engine: str, url: str, c: Cluster, topic: str, work: Path, sink: str) -> None:
    argv = [sys.executable, "-m", "tests.pipeline.test_stream_cluster", engine, url, c.namesrv, topic,
            str(work / "out"), str(work / "ck"), sink]  # fmt: skip
    env = {
        **os.environ,
        "PYSPARK_SUBMIT_ARGS": spark_cluster.TEST_SUBMIT_ARGS,
        "PYSPARK_PYTHON": sys.executable,
    }
    p = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, timeout=600, env=env)
    assert p.returncode == 0, p.stderr[-4000:]


def check_engine(engine: str, url: str, c: Cluster, work: Path) -> None:
    topic, sink = f"Across{engine.title()}", f"Sunk{engine.title()}"
    create_topic(c.broker, topic, queues=2)
    create_topic(c.broker, sink, queues=2)
    sent = produce(c.namesrv, topic, 200, "a")
    drive(engine, url, c, topic, work, sink)
    create_topic(c.broker, topic, queues=4)  # the topic expands between the runs
    sent |= produce(c.namesrv, topic, 200, "b")
    drive(engine, url, c, topic, work, sink)
    rows = ds.dataset(work / "out", format="parquet").to_table().to_pylist()
    assert len(rows) == 400 and {(r["msg_id"], r["body"].decode()) for r in rows} == sent
    assert {r["queue_id"] for r in rows} == {0, 1, 2, 3}
    from mqadmin.pipeline.export.plan import ExportOptions, plan

    assert sum(r.size for r in plan(ExportOptions.parse({"namesrv": c.namesrv, "topic": sink}))) == 400


def test_standalone_cluster(cluster: Cluster, tmp_path: Path) -> None:
    with spark_cluster.standalone(tmp_path / "spark", workers=2) as spark:
        check_engine("master", spark.url, cluster, tmp_path)
        for i in range(2):  # the tasks ran in the workers' executors
            assert list((tmp_path / "spark" / f"worker{i}").glob("app-*/*/stderr")), f"worker{i} ran nothing"


def test_spark_connect(cluster: Cluster, tmp_path: Path) -> None:
    with spark_cluster.connect_server(tmp_path / "connect") as server:
        check_engine("remote", server.url, cluster, tmp_path)


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

    q = (
        spark.readStream.format("rocketmq").option("namesrv", namesrv).option("topics", topic)
        .option("startingOffsets", "earliest").option("partitionSize", "60").load()
        .writeStream.foreachBatch(both).option("checkpointLocation", ck).trigger(availableNow=True).start()
    )  # fmt: skip
    q.awaitTermination()
    spark.stop()


if __name__ == "__main__":
    _drive(*sys.argv[1:8])
