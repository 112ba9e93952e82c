"""The ``rocketmq`` Spark source and sink beside the plain pull loop, against our broker on loopback.

Starts our name server and broker (``mqadmin.localcluster``), stores 1 KB messages with
``bench_broker.fill`` and measures, in messages per second:

- ``pull_loop``: ``bench_broker.pull_all``, the plain PULL_MESSAGE loop (one request per queue in
  flight, records decoded without bodies): the yardstick;
- ``task_read_before``: one Spark task's work as the batch reader did it before (32-message pulls,
  one at a time, a message object per record), in this process;
- ``task_read``: one task's work now (``read_ranges``: pipelined pulls, records into Arrow columns);
- ``spark_batch_read``: ``spark.read`` of the whole topic on ``local[N]`` into a ``noop`` sink, JVM
  warm (the second of two runs);
- ``spark_stream_read``: a whole ``readStream`` query (``availableNow``, fresh checkpoint) of the
  topic into a ``noop`` sink, from ``start()`` to ``awaitTermination()``: the query's start (Spark
  starts a Python process for the source's driver side, about a second) is in it;
  ``spark_stream_read_in_batches``: the same rows over the time of its micro-batches only (their
  ``triggerExecution``: offsets, checkpoint writes, planning, the tasks' reading, the commit), what a
  running stream's batches cost; the durationMs of each part is printed;
- ``spark_stream_read_N_per_trigger`` (and ``_in_batches``): the same with ``maxOffsetsPerTrigger``
  N (a quarter of the messages unless ``--per-trigger``): several micro-batches, each with its
  checkpoint writes;
- ``task_sink``: one task's sending (``send_rows``, 1 KB bodies), in this process;
- ``spark_sink``: ``df.write.format("rocketmq")`` of the same number of rows on ``local[N]``.

Each Spark figure says its share of ``pull_loop``. The load average is printed beside the numbers
(two cores shared with others make them move).

    python bench/bench_spark_io.py                      # 100,000 messages, local[1]
    python bench/bench_spark_io.py --messages 20000 --tasks 2 --transfer 1024
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench_broker import BODY_SIZE, QUEUES, TOPIC, cpu_s, fill, pull_all

from mqadmin.localcluster import LocalCluster
from mqadmin.protocol.command import RemotingCommand
from mqadmin.remoting.client import RemotingClient


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def create_topic(addr: str, topic: str) -> None:
    async def go() -> None:
        async with RemotingClient() as c:
            ext = {"topic": topic, "defaultTopic": "TBW102", "readQueueNums": str(QUEUES),
                   "writeQueueNums": str(QUEUES), "perm": "6", "topicFilterType": "SINGLE_TAG",
                   "topicSysFlag": "0", "order": "false"}  # fmt: skip
            r = await c.invoke(addr, RemotingCommand.request(17, ext), 10)
            assert r.code == 0, r.remark

    asyncio.run(go())


def task_reads(namesrv: str) -> tuple[float, float, int]:
    """(old, new) msg/s of reading every queue in this process, one range after the other."""
    from mqadmin.admin.api import MQAdmin
    from mqadmin.admin.settings import AdminSettings
    from mqadmin.pipeline.export.plan import ExportOptions, plan
    from mqadmin.pipeline.export.pull import read_ranges, to_batch
    from mqadmin.protocol.bodies.message_queue import MessageQueue

    options = ExportOptions.parse({"namesrv": namesrv, "topic": TOPIC, "partitionSize": str(1 << 40)})
    ranges = plan(options)
    total = sum(r.size for r in ranges)
    settings: AdminSettings = options.settings

    async def before() -> int:
        """The batch reader's first loop: 32 messages a pull, one pull at a time, a message object each."""
        n = 0
        async with MQAdmin(settings) as admin:
            for r in ranges:
                mq, offset = MessageQueue(r.topic, r.broker, r.queue_id), r.start
                while offset < r.end:
                    res = await admin.messages.pull_message(mq, "*", offset, min(32, r.end - offset))
                    if res.status != "FOUND" or res.next_begin_offset <= offset:
                        break
                    n += to_batch(res.messages, r.broker).num_rows
                    offset = res.next_begin_offset
        return n

    started = time.perf_counter()
    got = asyncio.run(before())
    old = got / (time.perf_counter() - started)
    started, cpu = time.perf_counter(), time.process_time()
    got = sum(b.num_rows for r in ranges for b in read_ranges(settings, (r,)))
    new = got / (time.perf_counter() - started)
    print(f"task_read_cpu_us_per_msg {(time.process_time() - cpu) * 1e6 / max(got, 1):.1f}")
    assert got == total, (got, total)
    return old, new, total


def task_sink(namesrv: str, count: int) -> tuple[float, float]:
    """(msg/s, this process's CPU µs per message) of one task's sending."""
    import pyarrow as pa

    from mqadmin.pipeline.stream.sink import SinkOptions, send_rows

    options = SinkOptions.parse({"namesrv": namesrv, "topic": "BenchSinkTask"})
    body = b"y" * BODY_SIZE
    batches = [pa.record_batch({"body": pa.array([body] * 4096, pa.binary())}) for _ in range(count // 4096)]
    started, cpu = time.perf_counter(), time.process_time()
    sent = asyncio.run(send_rows(options, iter(batches), "bench", 0, 0))
    used = time.process_time() - cpu
    return sent.messages / (time.perf_counter() - started), used * 1e6 / max(sent.messages, 1)


STEPS = (
    "latestOffset",
    "queryPlanning",
    "walCommit",
    "getBatch",
    "addBatch",
    "commitOffsets",
    "triggerExecution",
)
"""The parts of a micro-batch's durationMs printed, in the order Spark runs them."""


@dataclass
class StreamRun:
    """One ``availableNow`` query: its whole time and its micro-batches' progress."""

    seconds: float
    rows: int
    batches: list[dict[str, int]]

    @property
    def in_batches_s(self) -> float:
        """Seconds inside the micro-batches (triggerExecution): the query's start is not in them."""
        return sum(b.get("triggerExecution", 0) for b in self.batches) / 1000

    def breakdown(self) -> str:
        total = {k: sum(b.get(k, 0) for b in self.batches) for k in STEPS}
        return " ".join(f"{k}={v}" for k, v in total.items())


def stream_query(spark: Any, namesrv: str, checkpoint: Path, per_trigger: int | None = None) -> StreamRun:
    reader = (
        spark.readStream.format("rocketmq").option("namesrv", namesrv).option("topics", TOPIC)
        .option("startingOffsets", "earliest")
    )  # fmt: skip
    if per_trigger is not None:
        reader = reader.option("maxOffsetsPerTrigger", str(per_trigger))
    started = time.perf_counter()
    q = (
        reader.load().writeStream.format("noop").option("checkpointLocation", str(checkpoint))
        .trigger(availableNow=True).start()
    )  # fmt: skip
    q.awaitTermination()
    seconds = time.perf_counter() - started
    batches = [p for p in q.recentProgress if p.numInputRows]
    return StreamRun(seconds, sum(p.numInputRows for p in batches), [dict(p.durationMs) for p in batches])


def stream_partitions(namesrv: str) -> int:
    """How many partitions the stream reader plans for the whole topic (its default options)."""
    from pyspark.sql.streaming.datasource import ReadAllAvailable

    from mqadmin.pipeline.stream.options import StreamOptions
    from mqadmin.pipeline.stream.source import RocketMQStreamReader

    r = RocketMQStreamReader(
        StreamOptions.parse({"namesrv": namesrv, "topics": TOPIC, "startingOffsets": "earliest"})
    )
    try:
        start = r.initialOffset()
        return len(r.partitions(start, r.latestOffset(start, ReadAllAvailable())))
    finally:
        r.stop()


def spark_numbers(
    namesrv: str, tasks: int, count: int, per_trigger: int, work: Path
) -> tuple[dict[str, float], list[str]]:
    """The Spark figures (msg/s, the second of two runs) and lines about the stream queries
    (checkpoints under ``work``)."""
    os.environ["PYSPARK_PYTHON"] = sys.executable
    os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
    from pyspark.sql import SparkSession

    from mqadmin.pipeline.stream.datasource import register

    spark = (
        SparkSession.builder.master(f"local[{tasks}]")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", str(tasks))
        .getOrCreate()
    )
    spark.sparkContext.setLogLevel("ERROR")
    register(spark)
    out: dict[str, float] = {}
    notes: list[str] = []
    for run in range(2):
        notes = []
        started = time.perf_counter()
        df = spark.read.format("rocketmq").option("namesrv", namesrv).option("topic", TOPIC).load()
        df.write.format("noop").mode("overwrite").save()
        out["spark_batch_read"] = count / (time.perf_counter() - started)
        whole = stream_query(spark, namesrv, work / f"ck{run}")
        assert whole.rows == count, (whole.rows, count)
        out["spark_stream_read"] = count / whole.seconds
        out["spark_stream_read_in_batches"] = count / whole.in_batches_s
        notes.append(
            f"spark_stream_read: {whole.seconds:.2f} s in all, {len(whole.batches)} micro-batch(es) of "
            f"{stream_partitions(namesrv)} partition(s) took {whole.in_batches_s:.2f} s, the query's start "
            f"and end {whole.seconds - whole.in_batches_s:.2f} s"
        )
        notes.append(f"spark_stream_read durationMs: {whole.breakdown()}")
        steady = stream_query(spark, namesrv, work / f"ck-steady{run}", per_trigger)
        assert steady.rows == count, (steady.rows, count)
        out[f"spark_stream_read_{per_trigger}_per_trigger"] = count / steady.seconds
        out[f"spark_stream_read_{per_trigger}_per_trigger_in_batches"] = count / steady.in_batches_s
        notes.append(
            f"spark_stream_read_{per_trigger}_per_trigger: {steady.seconds:.2f} s in all, "
            f"{len(steady.batches)} micro-batches took {steady.in_batches_s:.2f} s"
        )
        notes.append(f"spark_stream_read_{per_trigger}_per_trigger durationMs: {steady.breakdown()}")
        body = "z" * BODY_SIZE
        rows = spark.range(count).selectExpr(f"'{body}' AS body").repartition(tasks)
        rows.cache().count()
        started = time.perf_counter()
        rows.write.format("rocketmq").option("namesrv", namesrv).option("topic", "BenchSinkSpark").mode(
            "append"
        ).save()
        out["spark_sink"] = count / (time.perf_counter() - started)
    spark.stop()
    return out, notes


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--messages", type=int, default=100_000, help="messages stored and read")
    p.add_argument("--tasks", type=int, default=1, help="Spark local[N]")
    p.add_argument("--transfer", type=int, default=32, help="the broker's maxTransferCountOnMessageInMemory")
    p.add_argument(
        "--reads-only",
        action="store_true",
        help="only the pull loop and one task's reading (no Spark, no sink): the read path's own cost",
    )
    p.add_argument(
        "--per-trigger",
        type=int,
        default=0,
        help="maxOffsetsPerTrigger of the second stream query (messages/4)",
    )
    args = p.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-spark-io-") as tmp:  # the store: ~450 MB at 100,000
        return run(args, Path(tmp))


def run(args: argparse.Namespace, work: Path) -> int:
    props = {"maxTransferCountOnMessageInMemory": args.transfer, "autoCreateTopicEnable": "true"}
    with LocalCluster(work, broker_props=props) as cluster:
        create_topic(cluster.broker_addr, TOPIC)
        for t in ("BenchSinkTask", "BenchSinkSpark"):
            create_topic(cluster.broker_addr, t)
        asyncio.run(fill(cluster.broker_addr, args.messages))
        print(f"messages {args.messages}")
        print(f"broker_max_transfer_count {args.transfer}")
        msgs, _, seconds = asyncio.run(pull_all(cluster.broker_addr))
        print(f"pull_loop_msgs_per_s {msgs / seconds:.0f}  (load {load()})")
        old, new, _ = task_reads(cluster.namesrv_addr)
        print(f"task_read_before_msgs_per_s {old:.0f}  (load {load()})")
        print(f"task_read_msgs_per_s {new:.0f}  (load {load()})")
        print(f"task_read_share_of_pull_loop {new * seconds / msgs:.3f}")
        if args.reads_only:
            return 0
        assert cluster.broker is not None and cluster.broker.proc is not None
        broker_cpu = cpu_s(cluster.broker.proc.pid)
        rate, own_us = task_sink(cluster.namesrv_addr, args.messages)
        broker_us = (cpu_s(cluster.broker.proc.pid) - broker_cpu) * 1e6 / args.messages
        print(f"task_sink_1KB_msgs_per_s {rate:.0f}  (load {load()})")
        print(f"task_sink_cpu_us_per_msg {own_us:.1f}")
        print(f"broker_cpu_us_per_sunk_msg {broker_us:.1f}")
        per_trigger = args.per_trigger or max(1, args.messages // 4)
        numbers, notes = spark_numbers(
            cluster.namesrv_addr, args.tasks, args.messages, per_trigger, work / "spark"
        )
        for name, value in numbers.items():
            share = f"{100 * value * seconds / msgs:.0f}% of pull_loop"
            print(f"{name}_local{args.tasks}_msgs_per_s {value:.0f}  ({share}; load {load()})")
        for line in notes:
            print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
