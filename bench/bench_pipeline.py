"""The lag job on 10M (and 100M) snapshot rows: Spark ``local[2]``, a standalone cluster, and pandas.

Generates ``group_offsets`` rows with numpy (50 groups x 10 topics x 8 queues x 2500 one-minute
runs by default), writes them in the snapshot layout (``date=`` partitions, a few large files), then
times:

- Spark: the lag job (:func:`mqadmin.pipeline.jobs.lag.lag`) from reading the files to the collected
  result, on ``local[2]``; once cold (first query of the session) and once warm. Session start-up is
  printed apart.
- pandas: the same computation (same steps, resets, stall detection, gap filling, trend) from
  reading the files to the result, in this one process.

and prints the times, rows per second and the pandas/Spark ratio (above 1: Spark is faster), then
checks that both give the same lag and rates for every (group, topic).

With ``--sizes 10M,100M --workers 2`` the lag job also runs on a Spark standalone cluster started
here from the installed pyspark (a master and two workers of one core each, loopback), once per size,
and prints rows per second at each size and the cost per row relative to the first size (1.0: the
cost grows linearly). pandas runs only at sizes up to ``--pandas-max`` (10M by default).

With ``--export N[,N...]`` it also starts our name server and broker (``mqadmin namesrv start``,
``mqadmin broker start``) on loopback, stores N messages of 256 bytes over 8 queues (batched sends),
and prints, for each N, the end-to-end time of ``mqadmin export messages`` as a user runs it (a new
process; in-process when small) and the messages per second of the ``rocketmq`` data source on Spark.

    PYTHONPATH=. python bench/bench_pipeline.py [--rows 10000000] [--master local[2]] [--keep DIR]
                                                [--sizes 10M,100M --workers 2] [--export 100,100000]

Numbers on a shared machine are noisy: run it alone, and twice.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.dataset as ds

from mqadmin.pipeline.layout import GROUP_OFFSETS, file_name, partition_dir
from mqadmin.pipeline.schema import GROUP_OFFSETS_SCHEMA
from mqadmin.pipeline.writer import write_table_atomic

GROUPS, TOPICS, QUEUES = 50, 10, 8
BROKERS = 4
START = datetime(2024, 5, 1, 0, 0, tzinfo=UTC)
INTERVAL = 60
STUCK_AFTER = 300.0
TOLERANCE = 0.01
FILE_RUNS = 100  # runs per Parquet file


# ------------------------------------------------------------------------------------------ data


def generate(root: Path, rows: int, seed: int = 7) -> tuple[int, int]:
    """Write about ``rows`` group-offset rows under ``root``; returns (rows, runs)."""
    rng = np.random.default_rng(seed)
    series = GROUPS * TOPICS * QUEUES
    runs = max(2, rows // series)
    gi, ti, qi = np.meshgrid(np.arange(GROUPS), np.arange(TOPICS), np.arange(QUEUES), indexing="ij")
    gi, ti, qi = gi.ravel(), ti.ravel(), qi.ravel()
    broker_i = (ti + qi) % BROKERS
    rate = rng.lognormal(2.0, 1.0, series) * (rng.random(series) > 0.05)  # 5 % of queues never written
    base = rng.integers(0, 1_000_000, series)
    # consumers: most keep up (small lag), some drain a backlog, some stop at a random time
    kind = rng.choice(3, series, p=[0.8, 0.1, 0.1])
    backlog = np.where(kind == 1, rng.integers(1_000, 100_000, series), rng.integers(0, 50, series))
    gain = np.where(kind == 1, rate * 0.05, 0.0)
    stop_at = np.where(kind == 2, rng.uniform(0, runs * INTERVAL, series), np.inf)
    groups = pa.array([f"group-{g:03d}" for g in range(GROUPS)])
    topics = pa.array([f"topic-{t:03d}" for t in range(TOPICS)])
    brokers = pa.array([f"broker-{b}" for b in range(BROKERS)])
    start_ms = int(START.timestamp() * 1000)

    for first in range(0, runs, FILE_RUNS):
        k = np.arange(first, min(runs, first + FILE_RUNS))
        n = len(k) * series
        run_s = np.repeat(k * INTERVAL, series).astype(np.float64)
        answer_s = run_s + 0.1 + 0.05 * np.tile(broker_i, len(k))
        idx = np.tile(np.arange(series), len(k))
        r = rate[idx]
        b_off = base[idx] + np.floor(r * answer_s).astype(np.int64)
        consumed_until = np.minimum(answer_s, stop_at[idx])
        behind = np.maximum(0, backlog[idx] - gain[idx] * answer_s).astype(np.int64)
        c_off = base[idx] + np.floor(r * consumed_until).astype(np.int64) - behind
        c_off = np.clip(c_off, 0, b_off)
        lag = b_off - c_off
        time_ms = start_ms + np.round(answer_s * 1000).astype(np.int64)
        run_ms = start_ms + (run_s * 1000).astype(np.int64)
        ts = pa.timestamp("ms", tz="UTC")
        table = pa.table(
            {
                "time": pa.array(time_ms, ts),
                "run_time": pa.array(run_ms, ts),
                "cluster": pa.array(np.full(n, "DefaultCluster")),
                "broker": brokers.take(pa.array(broker_i[idx])),
                "group": groups.take(pa.array(gi[idx])),
                "topic": topics.take(pa.array(ti[idx])),
                "queue_id": pa.array(qi[idx].astype(np.int32)),
                "broker_offset": pa.array(b_off),
                "consumer_offset": pa.array(c_off),
                "lag": pa.array(lag),
                "last_consume_time": pa.array(time_ms, ts),
            },
            schema=GROUP_OFFSETS_SCHEMA,
        )
        run_time = START + timedelta(seconds=int(k[0]) * INTERVAL)
        last_time = START + timedelta(seconds=int(k[-1]) * INTERVAL)
        # keep a file inside one date partition
        if partition_dir(root, GROUP_OFFSETS, run_time) != partition_dir(root, GROUP_OFFSETS, last_time):
            day_end = datetime(last_time.year, last_time.month, last_time.day, tzinfo=UTC)
            cut = int((day_end - START).total_seconds() // INTERVAL)
            mask = pa.array(np.repeat(k < cut, series))
            parts = [(table.filter(mask), run_time), (table.filter(pc.invert(mask)), day_end)]
        else:
            parts = [(table, run_time)]
        for part, when in parts:
            path = partition_dir(root, GROUP_OFFSETS, when) / file_name(GROUP_OFFSETS, when)
            write_table_atomic(part, path)
    return runs * series, runs


# ------------------------------------------------------------------------------------------ pandas


def pandas_lag(root: Path) -> pd.DataFrame:
    """The lag job's figures per (group, topic), computed with pandas."""
    cols = ["time", "run_time", "cluster", "broker", "group", "topic", "queue_id", "broker_offset",
            "consumer_offset", "lag"]  # fmt: skip
    table = ds.dataset(root / GROUP_OFFSETS, format="parquet", partitioning="hive").to_table(columns=cols)
    # times as numbers before pandas sees them: epoch seconds and run epoch ms
    table = table.append_column("t", pc.divide(pc.cast(table["time"], pa.int64()), 1000.0))
    table = table.append_column("run_ms", pc.cast(table["run_time"], pa.int64()))
    table = table.drop_columns(["time", "run_time"])
    df = table.to_pandas(strings_to_categorical=True)
    df = df[df["topic"].notna() & df["queue_id"].notna()]
    qkeys = ["cluster", "broker", "group", "topic", "queue_id"]
    df = df.sort_values([*qkeys, "t"], kind="stable", ignore_index=True)
    g = df.groupby(qkeys, sort=False, observed=True)
    dt = g["t"].diff()
    dc = g["consumer_offset"].diff()
    db = g["broker_offset"].diff()
    c_ok = (dc >= 0) & (dt > 0)
    p_ok = (db >= 0) & (dt > 0)
    df["c_msgs"], df["c_secs"] = dc.where(c_ok), dt.where(c_ok)
    df["p_msgs"], df["p_secs"] = db.where(p_ok), dt.where(p_ok)
    next_t = g["t"].shift(-1)
    anchor = dc.isna() | (dc != 0) | (df["lag"] <= 0)
    df["stall_from"] = np.where(df["lag"] > 0, df["t"], next_t)
    df["anchor_stall"] = df["stall_from"].where(anchor)
    df["is_anchor"] = anchor
    q = g.agg(
        c_msgs=("c_msgs", "sum"), c_secs=("c_secs", "sum"), p_msgs=("p_msgs", "sum"),
        p_secs=("p_secs", "sum"), lag_now=("lag", "last"), t_first=("t", "first"), t_last=("t", "last"),
    )  # fmt: skip
    anchors = df[df["is_anchor"]].groupby(qkeys, sort=False, observed=True)["anchor_stall"].last()
    q["stall_from"] = anchors.reindex(q.index)
    q["c_rate"] = np.where(q["c_secs"] > 0, q["c_msgs"] / q["c_secs"].where(q["c_secs"] > 0), np.nan)
    q["p_rate"] = np.where(q["p_secs"] > 0, q["p_msgs"] / q["p_secs"].where(q["p_secs"] > 0), np.nan)
    span = q["t_last"] - q["t_first"]
    stalled = (q["t_last"] - q["stall_from"]).fillna(0.0)
    threshold = np.minimum(STUCK_AFTER, span)
    q["stalled"] = stalled
    q["queue_stuck"] = (q["lag_now"] > 0) & (span > 0) & (stalled > 0) & (stalled >= threshold)
    q = q.reset_index()
    out = q.groupby(["group", "topic"], observed=True).agg(
        queues=("queue_id", "size"), lag=("lag_now", "sum"), produce_rate=("p_rate", "sum"),
        consume_rate=("c_rate", "sum"), stalled_seconds=("stalled", "max"),
        stuck_queues=("queue_stuck", "sum"),
    )  # fmt: skip

    # lag per run with gaps filled by each queue's last known lag
    gt = ["group", "topic"]
    runs = df[[*gt, "run_ms"]].drop_duplicates()
    members = df[[*gt, "cluster", "broker", "queue_id"]].drop_duplicates()
    grid = runs.merge(members, on=gt)
    filled = grid.merge(df[[*gt, "cluster", "broker", "queue_id", "run_ms", "lag"]], how="left")
    filled = filled.sort_values([*gt, "cluster", "broker", "queue_id", "run_ms"], kind="stable")
    filled["lag"] = filled.groupby([*gt, "cluster", "broker", "queue_id"], observed=True)["lag"].ffill()
    series = filled.groupby([*gt, "run_ms"], observed=True, sort=True)["lag"].sum().reset_index()
    series["x"] = series["run_ms"] / 1000.0
    sg = series.groupby(gt, observed=True)
    xm = sg["x"].transform("mean")
    ym = sg["lag"].transform("mean")
    series["xy"] = (series["x"] - xm) * (series["lag"] - ym)
    series["xx"] = (series["x"] - xm) ** 2
    sums = series.groupby(gt, observed=True).agg(
        xy=("xy", "sum"), xx=("xx", "sum"), lag_start=("lag", "first"), lag_max=("lag", "max"),
        snapshots=("lag", "size"),
    )  # fmt: skip
    sums["lag_trend"] = (sums["xy"] / sums["xx"].where(sums["xx"] > 0)).fillna(0.0)
    out = out.join(sums[["lag_start", "lag_max", "lag_trend", "snapshots"]])

    net = out["consume_rate"] - out["produce_rate"]
    tol = TOLERANCE * np.maximum(out["consume_rate"], out["produce_rate"])
    stuck = out["stuck_queues"] > 0
    draining = np.where(net > tol, out["lag"] / net.where(net > tol), np.nan)
    out["drain_seconds"] = np.where(
        stuck | (out["snapshots"] < 2), np.nan, np.where(out["lag"] <= 0, 0.0, draining)
    )
    out["stuck"] = stuck
    return out.reset_index().sort_values(["lag", "group", "topic"], ascending=[False, True, True])


# ------------------------------------------------------------------------------------------ spark


def spark_session(master: str):
    os.environ["PYSPARK_PYTHON"] = sys.executable
    os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
    from pyspark.sql import SparkSession

    from mqadmin.pipeline.jobs.session import cluster_conf, common_conf, local_conf

    builder = (
        SparkSession.builder.master(master).appName("bench-pipeline").config("spark.driver.memory", "6g")
    )
    if master.startswith("local"):
        conf = local_conf()
    else:
        conf = {**cluster_conf(master), "spark.executor.memory": "3g"}
    for k, v in {**common_conf(), **conf}.items():
        builder = builder.config(k, v)
    spark = builder.getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    return spark


def spark_lag(spark, root: Path) -> list:
    from mqadmin.pipeline.jobs.io import read_table
    from mqadmin.pipeline.jobs.lag import lag

    return lag(read_table(spark, str(root), GROUP_OFFSETS), stuck_after=None).collect()


# ------------------------------------------------------------------------------------------ export

EXPORT_TOPIC = "BenchExport"
EXPORT_QUEUES = 8


def _boot(args: list[str], pattern: str, home: Path) -> tuple[subprocess.Popen[str], re.Match[str]]:
    env = {k: v for k, v in os.environ.items() if k != "NAMESRV_ADDR"}
    env["HOME"] = str(home)
    mqadmin = str(Path(sys.executable).parent / "mqadmin")
    proc = subprocess.Popen(
        [mqadmin, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env
    )
    assert proc.stdout is not None
    for line in proc.stdout:
        m = re.search(pattern, line)
        if m:
            return proc, m
    raise RuntimeError(f"{args[0]} did not start: {proc.stderr.read() if proc.stderr else ''}")


async def _fill(namesrv: str, broker_addr: str, count: int) -> None:
    from mqadmin.admin.api import MQAdmin
    from mqadmin.admin.producer import Producer
    from mqadmin.admin.settings import AdminSettings
    from mqadmin.protocol.bodies import MessageQueue, TopicConfig
    from mqadmin.protocol.message import Message

    async with MQAdmin(AdminSettings(namesrv_addrs=(namesrv,), timeout=10)) as admin:
        config = TopicConfig(
            topic_name=EXPORT_TOPIC, read_queue_nums=EXPORT_QUEUES, write_queue_nums=EXPORT_QUEUES, perm=6
        )
        await admin.topics.create_and_update_topic_config(broker_addr, config)
        await asyncio.sleep(1.0)  # the broker registers the topic with the name server
        producer = Producer(admin, "bench-export-producer")
        body = b"x" * 256
        batch = 200
        for first in range(0, count, batch):
            n = min(batch, count - first)
            msgs = [Message(topic=EXPORT_TOPIC, body=body) for _ in range(n)]
            queue = MessageQueue(EXPORT_TOPIC, "broker-a", (first // batch) % EXPORT_QUEUES)
            await producer.send_batch(msgs, queue)
        await producer.close()


def bench_export(counts: list[int], master: str, work: Path) -> None:
    """For each count: ``mqadmin export messages`` end to end, and the data source on Spark."""
    ns_dir, broker_dir = work / "ns", work / "broker"
    ns_dir.mkdir(parents=True)
    broker_dir.mkdir(parents=True)
    (ns_dir / "namesrv.properties").write_text(f"bindAddress=127.0.0.1\nkvConfigPath={ns_dir / 'kv.json'}\n")
    ns, m = _boot(
        ["namesrv", "start", "-c", str(ns_dir / "namesrv.properties"), "--listen-port", "0",
         "--log-file", str(ns_dir / "ns.log")],
        r"boot success.*address (\S+):(\d+)", ns_dir,
    )  # fmt: skip
    namesrv = f"127.0.0.1:{m.group(2)}"
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    props = {
        "brokerClusterName": "DefaultCluster", "brokerName": "broker-a", "brokerIP1": "127.0.0.1",
        "listenPort": port, "namesrvAddr": namesrv, "storePathRootDir": broker_dir / "store",
    }  # fmt: skip
    (broker_dir / "broker.properties").write_text("".join(f"{k}={v}\n" for k, v in props.items()))
    broker, _ = _boot(
        [
            "broker",
            "start",
            "-c",
            str(broker_dir / "broker.properties"),
            "--log-file",
            str(broker_dir / "b.log"),
        ],
        r"The broker\[\S+, \S+\] boot success",
        broker_dir,
    )
    try:
        stored = 0
        spark = None
        for count in sorted(counts):
            t0 = time.perf_counter()
            asyncio.run(_fill(namesrv, f"127.0.0.1:{port}", count - stored))
            stored = count
            print(f"export: {count:,} messages stored in {time.perf_counter() - t0:.1f} s")
            out = work / f"cli-{count}"
            mqadmin = str(Path(sys.executable).parent / "mqadmin")
            t0 = time.perf_counter()
            p = subprocess.run(
                [mqadmin, "export", "messages", "-t", EXPORT_TOPIC, "-n", namesrv, "--out", str(out)],
                capture_output=True, text=True, timeout=1800,
            )  # fmt: skip
            seconds = time.perf_counter() - t0
            print(f"export, mqadmin export messages end to end, {count:,} messages: {seconds:.2f} s "
                  f"(exit {p.returncode}; {p.stdout.strip()})")  # fmt: skip
            if spark is None:
                spark = spark_session(master)
                from mqadmin.pipeline.stream.datasource import register

                register(spark)
            for label in ("cold", "warm"):
                t0 = time.perf_counter()
                df = spark.read.format("rocketmq").option("namesrv", namesrv).option("topic", EXPORT_TOPIC)
                df.load().write.mode("overwrite").parquet(str(work / "export"))
                seconds = time.perf_counter() - t0
                got = spark.read.parquet(str(work / "export")).count()
                print(f"export, data source on spark {master} ({label}): {got:,} messages in {seconds:.2f} s "
                      f"= {got / seconds:,.0f} msg/s")  # fmt: skip
        if spark is not None:
            spark.stop()
    finally:
        for proc in (broker, ns):
            proc.terminate()
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                proc.kill()


# ------------------------------------------------------------------------------------------ main


def _count(text: str) -> int:
    t = text.strip().upper()
    mult = {"K": 1_000, "M": 1_000_000, "G": 1_000_000_000}.get(t[-1:], 1)
    return int(float(t.rstrip("KMG")) * mult)


def _data(root: Path, rows: int, reuse: bool) -> int:
    t0 = time.perf_counter()
    if reuse and (root / GROUP_OFFSETS).exists():
        n = ds.dataset(root / GROUP_OFFSETS, format="parquet", partitioning="hive").count_rows()
        print(f"data: reusing {n:,} rows under {root}")
        return n
    n, runs = generate(root, rows)
    size = sum(p.stat().st_size for p in root.rglob("*.parquet"))
    print(f"data: {n:,} group_offsets rows ({runs} runs), {size / 2**20:.0f} MiB Parquet, "
          f"generated in {time.perf_counter() - t0:.1f} s")  # fmt: skip
    return n


def _spark_times(master: str, root: Path, n: int) -> tuple[float, float, list]:
    t0 = time.perf_counter()
    spark = spark_session(master)
    spark.range(1).collect()
    print(f"spark: session on {master} started in {time.perf_counter() - t0:.1f} s")
    t0 = time.perf_counter()
    rows = spark_lag(spark, root)
    cold = time.perf_counter() - t0
    t0 = time.perf_counter()
    rows = spark_lag(spark, root)
    warm = time.perf_counter() - t0
    spark.stop()
    print(f"lag job, spark {master}, {n:,} rows: {cold:.2f} s cold, {warm:.2f} s warm "
          f"({n / warm / 1e6:.2f} M rows/s)")  # fmt: skip
    return cold, warm, rows


def _compare(spark_rows: list, pdf: pd.DataFrame) -> None:
    by_key = {(r["group"], r["topic"]): r for r in spark_rows}
    mismatches = 0
    for row in pdf.itertuples(index=False):
        s = by_key.get((row.group, row.topic))
        ok = s is not None and s["lag"] == row.lag and bool(s["stuck"]) == bool(row.stuck)
        for col in ("produce_rate", "consume_rate"):
            ok = ok and s is not None and abs(s[col] - getattr(row, col)) <= 1e-3 * max(1.0, abs(s[col]))
        mismatches += not ok
    print(f"results: {len(by_key)} group/topic rows, pandas and spark agree on "
          f"{len(pdf) - mismatches}/{len(pdf)}")  # fmt: skip


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=_count, default=10_000_000)
    ap.add_argument("--master", default="local[2]")
    ap.add_argument("--keep", metavar="DIR", help="generate into DIR and keep it (reused when present)")
    ap.add_argument("--export", default="", metavar="N[,N]", help="also time exporting N messages")
    ap.add_argument("--skip-lag", action="store_true", help="only the export measurement")
    ap.add_argument("--sizes", default="", metavar="10M,100M", help="sizes for the standalone cluster")
    ap.add_argument("--workers", type=int, default=2, help="standalone workers (with --sizes)")
    ap.add_argument("--pandas-max", type=_count, default=10_000_000, help="largest size pandas runs at")
    args = ap.parse_args()
    if args.export:
        with tempfile.TemporaryDirectory(prefix="bench-export-") as work:
            bench_export([_count(c) for c in args.export.split(",")], args.master, Path(work))
    if args.skip_lag:
        return

    base = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="bench-pipeline-"))
    try:
        root = base / f"rows-{args.rows}"
        n = _data(root, args.rows, bool(args.keep))
        cold, warm, spark_rows = _spark_times(args.master, root, n)
        if n <= args.pandas_max:
            t0 = time.perf_counter()
            pdf = pandas_lag(root)
            pandas_s = time.perf_counter() - t0
            print(f"lag job, pandas (1 process), {n:,} rows: {pandas_s:.2f} s "
                  f"({n / pandas_s / 1e6:.2f} M rows/s)")  # fmt: skip
            print(f"ratio pandas/spark {args.master}: {pandas_s / warm:.2f} warm, {pandas_s / cold:.2f} cold")
            _compare(spark_rows, pdf)
        if args.sizes:
            sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
            from tests.pipeline.spark_cluster import standalone

            with standalone(base / "spark", workers=args.workers, memory="4g") as cluster:
                first: float | None = None
                for size in [_count(x) for x in args.sizes.split(",")]:
                    root = base / f"rows-{size}"
                    n = _data(root, size, bool(args.keep))
                    _, warm, _ = _spark_times(cluster.url, root, n)
                    per_row = warm / n
                    first = first or per_row
                    print(f"cluster ({args.workers} workers), {n:,} rows: {n / warm / 1e6:.2f} M rows/s, "
                          f"cost per row x{per_row / first:.2f} of the first size")  # fmt: skip
    finally:
        if not args.keep:
            shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main()
