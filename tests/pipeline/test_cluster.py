"""The analytics on a real Spark standalone cluster and on a Spark Connect server give the local results.

A master and two workers are started from the installed pyspark (``spark-class ...Master`` /
``...Worker``, loopback, ports picked at run time), once for the session and shared with
:mod:`tests.pipeline.test_stream_cluster`, as is the Connect server. One driver process runs every
``analyze`` command and ``export messages`` with ``--master spark://...`` (their executors run in the
workers' processes), and ``spark-submit`` runs the jobs module; a Spark Connect server runs the same
commands with ``--remote sc://...``. Every result must equal, row for row, what local mode gives on the
same snapshots (the export: what the in-process export of the same topic gives). Nothing here is
skipped: a missing Java or Connect piece fails with what is missing (see
:mod:`tests.pipeline.spark_cluster`).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from tests.broker.peers import cpp, create_topic
from tests.pipeline import spark_cluster
from tests.servers import Cluster

TOPIC = "ClusterExport"
COUNT = 300

JOBS: dict[str, list[str]] = {
    "lag": ["lag", "--stuck-after", "120"],
    "throughput": ["throughput", "--by", "broker"],
    "skew": ["skew", "--per-queue"],
    "idle": ["idle", "--all"],
}


@dataclass
class Topic:
    namesrv: str
    expected: list[dict[str, Any]]  # the in-process export, sorted by queue and offset


def json_rows(path: Path) -> list[dict[str, Any]]:
    files = sorted(path.glob("part-*")) if path.is_dir() else [path]
    return [json.loads(line) for f in files for line in f.read_text().splitlines() if line]


def by_position(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return sorted(rows, key=lambda r: (r["broker"], r["queue_id"], r["queue_offset"]))


def mask_report(page: str) -> str:
    return re.sub(r"generated \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC", "generated -", page)


@pytest.fixture(scope="module")
def local_results(spark: Any, history: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Each job's result in local mode (the tests' shared local[2] session), parsed."""
    from mqadmin.pipeline.cli import analyze_group

    out = tmp_path_factory.mktemp("local-results")
    results: dict[str, Any] = {}
    for name, args in JOBS.items():
        r = CliRunner().invoke(
            analyze_group, [*args, "--input", str(history), "--format", "json", "--out", str(out / name)]
        )
        assert r.exit_code == 0, r.output
        results[name] = json_rows(out / name)
        assert results[name], name
    r = CliRunner().invoke(analyze_group, ["report", "--input", str(history), "--out", str(out / "report")])
    assert r.exit_code == 0, r.output
    results["report"] = mask_report((out / "report").read_text())
    return results


@pytest.fixture(scope="module")
def topic(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Topic]:
    work = tmp_path_factory.mktemp("cluster-broker")
    cluster = Cluster(work)
    ns, broker = cluster.ns, cluster.broker
    try:
        assert create_topic(broker.addr, TOPIC, queues=4).code == 0
        events = cpp("produce", ns.addr, TOPIC, str(COUNT), "--prefix", "c", timeout=120)
        assert sum(e["event"] == "sent" for e in events) == COUNT
        out = work / "in-process"
        p = subprocess.run(
            [str(Path(sys.executable).with_name("mqadmin")), "export", "messages", "-t", TOPIC,
             "-n", ns.addr, "--format", "json", "--out", str(out)],
            capture_output=True, text=True, timeout=60,
        )  # fmt: skip
        assert p.returncode == 0 and p.stderr == "", p.stderr
        yield Topic(ns.addr, by_position(json_rows(out)))
    finally:
        cluster.stop()


def one_driver(commands: list[list[str]], timeout: float = 600) -> tuple[list[dict[str, Any]], str]:
    p = subprocess.run(
        [sys.executable, "-m", "tests.pipeline.one_driver", json.dumps(commands)],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=Path(__file__).parents[2],
        env={**os.environ, "PYSPARK_SUBMIT_ARGS": spark_cluster.TEST_SUBMIT_ARGS},
    )
    runs = [json.loads(line) for line in p.stdout.splitlines() if line.startswith("{")]
    assert p.returncode == 0 and len(runs) == len(commands), p.stderr[-3000:]
    return runs, p.stderr


def engine_commands(engine: list[str], history: Path, out: Path, namesrv: str) -> list[list[str]]:
    cmds = [
        ["analyze", *args, "--input", str(history), *engine, "--format", "json", "--out", str(out / name)]
        for name, args in JOBS.items()
    ]
    cmds.append(["analyze", "report", "--input", str(history), *engine, "--out", str(out / "report")])
    cmds.append(
        ["export", "messages", "-t", TOPIC, "-n", namesrv, *engine, "--format", "json",
         "--out", str(out / "export"), "--partition-size", "40"]
    )  # fmt: skip
    return cmds


def check_same_as_local(
    runs: list[dict[str, Any]], stderr: str, out: Path, local: dict[str, Any], topic: Topic
) -> None:
    assert [r["code"] for r in runs] == [0] * len(runs), runs
    # only the commands' own lines: no JVM, log4j or Hadoop line reached stderr
    others = [ln for ln in stderr.splitlines() if not ln.startswith("mqadmin analyze ")]
    assert others == [], stderr[-3000:]
    for name in JOBS:
        assert json_rows(out / name) == local[name], name
    assert mask_report((out / "report").read_text()) == local["report"]
    assert runs[-1]["stdout"].startswith(f"exported {COUNT} messages of {TOPIC}")
    assert by_position(json_rows(out / "export")) == topic.expected


def test_standalone_cluster_gives_the_local_results(
    history: Path,
    local_results: dict[str, Any],
    topic: Topic,
    standalone_cluster: spark_cluster.Standalone,
    tmp_path: Path,
) -> None:
    cluster = standalone_cluster
    before = cluster.executor_logs()
    out = tmp_path / "out"
    runs, stderr = one_driver(engine_commands(["--master", cluster.url], history, out, topic.namesrv))
    check_same_as_local(runs, stderr, out, local_results, topic)
    # the executors ran in the workers' processes, one application seen by both workers
    cluster.assert_every_worker_ran_since(before)

    # spark-submit of the jobs module, the way the module's docstring tells
    import mqadmin.pipeline.jobs.__main__ as entry

    submit = str(spark_cluster.spark_home() / "bin" / "spark-submit")
    target = tmp_path / "submitted"
    p = subprocess.run(
        [submit, "--master", cluster.url, "--conf", "spark.driver.host=127.0.0.1",
         "--conf", "spark.ui.enabled=false", *spark_cluster.TEST_SUBMIT_ARGS.split()[:-1],
         entry.__file__, "lag", "--stuck-after", "120", "--input", str(history),
         "--format", "json", "--out", str(target)],
        capture_output=True, text=True, timeout=300,
        env=spark_cluster._env(cluster.work),
    )  # fmt: skip
    assert p.returncode == 0, p.stderr[-3000:]
    assert json_rows(target) == local_results["lag"]


def test_spark_connect_gives_the_local_results(
    history: Path,
    local_results: dict[str, Any],
    topic: Topic,
    connect_server: spark_cluster.Connect,
    tmp_path: Path,
) -> None:
    out = tmp_path / "out"
    runs, stderr = one_driver(engine_commands(["--remote", connect_server.url], history, out, topic.namesrv))
    check_same_as_local(runs, stderr, out, local_results, topic)
