"""End to end: our name server and broker, C++ client traffic, the collector, then every job on Spark.

The C++ producer sends 40 msg/s to queues 0-6 of an 8-queue topic (queue 7 is never written); a
consumer group reads 300 messages and stops before the snapshots start, another keeps up throughout;
a second topic got a few messages before and none since. ``mqadmin snapshot`` runs 8 times, 3 s
apart; then the jobs must find what was done. Tolerance: rates within 10 % (the producer paces its
sends, snapshots are a few seconds apart), the keeping-up consumer's rate within 15 % (the C++
client commits its offsets every 5 s).
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from click.testing import CliRunner

from tests.broker.peers import create_topic
from tests.servers import Cluster

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

    from mqadmin.pipeline.jobs.io import Snapshots

TRAFFIC = str(Path(__file__).with_name("cpp_traffic.py"))
TOPIC = "E2EOrders"
IDLE_TOPIC = "E2EIdle"
KEEP, STOP = "E2EKeepUp", "E2EStopped"
RATE = 40.0
WRITTEN_QUEUES = 7
RUNS, INTERVAL = 8, 3.0


def start(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, TRAFFIC, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )


def done(proc: subprocess.Popen[str], timeout: float) -> dict[str, Any]:
    out, err = proc.communicate(timeout=timeout)
    events = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    assert proc.returncode == 0 and events and events[-1]["event"] == "done", err[-2000:]
    return events[-1]


def near(value: float, expected: float, tol: float) -> bool:
    return abs(value - expected) <= tol * expected


@pytest.fixture(scope="module")
def snapshots(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    work = tmp_path_factory.mktemp("e2e")
    procs: list[subprocess.Popen[str]] = []
    cluster = Cluster(work)
    ns, broker = cluster.ns, cluster.broker
    try:
        for topic, queues in ((TOPIC, 8), (IDLE_TOPIC, 2)):
            resp = create_topic(broker.addr, topic, queues=queues)
            assert resp.code == 0, resp.remark
        idle = start("produce", ns.addr, IDLE_TOPIC, "--rate", "20", "--seconds", "0.5", "--queues", "2")
        assert done(idle, 60)["sent"] == 10
        warmup = 25.0
        producer = start(
            "produce", ns.addr, TOPIC, "--rate", str(RATE), "--seconds", str(warmup + RUNS * INTERVAL + 5),
            "--queues", str(WRITTEN_QUEUES),
        )  # fmt: skip
        keeper = start("consume", ns.addr, TOPIC, KEEP, "--seconds", str(warmup + RUNS * INTERVAL + 10))
        stopper = start("consume", ns.addr, TOPIC, STOP, "--seconds", str(warmup), "--stop-after", "300")
        procs += [producer, keeper, stopper]
        assert done(stopper, warmup + 30)["received"] >= 1  # it consumed, then stopped (offsets committed)
        time.sleep(6)  # the keeper's first commits reach the broker (every 5 s)

        from mqadmin.pipeline.cli import snapshot_cmd

        out = work / "snapshots"
        args = ["--out", str(out), "-n", ns.addr, "--count", str(RUNS), "--interval", str(INTERVAL)]
        result = CliRunner().invoke(snapshot_cmd, args)
        assert result.exit_code == 0, result.output
        assert len(result.stdout.splitlines()) == RUNS
        for p in (producer, keeper):
            p.terminate()  # both end cleanly and report
        assert done(producer, 30)["errors"] == 0
        assert done(keeper, 30)["received"] > 0
        yield out
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
                p.wait()
        cluster.stop()


@pytest.fixture(scope="module")
def snaps(spark: SparkSession, snapshots: Path) -> Snapshots:
    from mqadmin.pipeline.jobs.io import read_snapshots

    return read_snapshots(spark, str(snapshots))


def by(rows: list[Any], *keys: str) -> dict[Any, dict[str, Any]]:
    out = {}
    for r in rows:
        d = r.asDict()
        out[tuple(d[k] for k in keys) if len(keys) > 1 else d[keys[0]]] = d
    return out


def test_produce_rate(snaps: Snapshots) -> None:
    from mqadmin.pipeline.jobs.throughput import throughput

    tp = by(throughput(snaps.queue_offsets).collect(), "topic")
    assert near(tp[TOPIC]["produce_rate"], RATE, 0.10), tp[TOPIC]
    assert tp[TOPIC]["queues"] == 8


def test_lag_keeping_up_and_stopped(snaps: Snapshots) -> None:
    from mqadmin.pipeline.jobs.lag import lag

    rows = by(lag(snaps.group_offsets).collect(), "group", "topic")
    stopped = rows[(STOP, TOPIC)]
    assert stopped["stuck"] and stopped["state"] == "stuck", stopped
    assert stopped["lag"] > stopped["lag_start"] > 0 and stopped["drain"] == "never"
    assert near(stopped["lag_trend"], RATE, 0.15), stopped
    assert stopped["consume_rate"] == 0
    assert near(stopped["produce_rate"], RATE, 0.10)
    keeper = rows[(KEEP, TOPIC)]
    assert not keeper["stuck"] and keeper["state"] in ("ok", "steady", "draining"), keeper
    assert near(keeper["consume_rate"], RATE, 0.15), keeper
    assert keeper["lag"] < RATE * 12  # at most a commit interval or two behind


def test_unwritten_queue_and_idle_topic(snaps: Snapshots) -> None:
    from mqadmin.pipeline.jobs.idle import idle
    from mqadmin.pipeline.jobs.skew import skew

    sk = by(skew(snaps.queue_offsets).collect(), "topic")
    assert sk[TOPIC]["unwritten"] == "broker-a:7" and sk[TOPIC]["empty"] == 1
    assert sk[TOPIC]["skew"] == pytest.approx(8 / 7, rel=0.1)  # 7 equal queues and an empty one
    found = by(idle(snaps.queue_offsets, snaps.group_offsets).collect(), "kind", "name")
    assert ("topic", IDLE_TOPIC) in found and ("topic", TOPIC) not in found
    assert found[("topic", IDLE_TOPIC)]["messages"] == 10


def test_report_on_live_data(snapshots: Path, tmp_path: Path) -> None:
    from mqadmin.pipeline.cli import analyze_group

    out = tmp_path / "report.html"
    r = CliRunner().invoke(analyze_group, ["report", "--input", str(snapshots), "--out", str(out)])
    assert r.exit_code == 0, r.output
    page = out.read_text()
    assert f'data-name="{STOP} / {TOPIC}"' in page and f'data-name="{TOPIC}"' in page
