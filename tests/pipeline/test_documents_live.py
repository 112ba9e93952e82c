"""``snapshot`` and ``export messages`` with ``--json``/``--output``, on our name server and broker.

The installed ``mqadmin`` as a user runs it, the option on the command and before it; no Spark
(a small export runs in-process, a snapshot needs pyarrow only).
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

from tests.broker.peers import cpp, create_topic
from tests.servers import Cluster

TOPIC = "DocTopic"
COUNT = 20
MQADMIN = str(Path(sys.executable).with_name("mqadmin"))


@pytest.fixture(scope="module")
def namesrv(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    work = tmp_path_factory.mktemp("documents-cluster")
    cluster = Cluster(work)
    ns, broker = cluster.ns, cluster.broker
    try:
        assert create_topic(broker.addr, TOPIC, queues=2).code == 0
        events = cpp("produce", ns.addr, TOPIC, str(COUNT), "--prefix", "d", timeout=120)
        assert sum(e["event"] == "sent" for e in events) == COUNT
        yield ns.addr
    finally:
        cluster.stop()


def mqadmin(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([MQADMIN, *args], capture_output=True, text=True, timeout=120)


def test_snapshot_json_before_the_command(namesrv: str, tmp_path: Path) -> None:
    before = int(time.time() * 1000)
    p = mqadmin("--json", "snapshot", "--out", str(tmp_path / "s"), "-n", namesrv)
    assert p.returncode == 0, p.stderr
    doc = json.loads(p.stdout)
    assert doc.pop("apiVersion") == "mqadmin/v1"
    assert set(doc) == {"runTime", "out", "brokers", "missingBrokers", "queueOffsets", "groupOffsets",
                        "brokerStats", "missing", "skipped", "elapsedMs"}  # fmt: skip
    assert doc["out"] == str(tmp_path / "s") and doc["brokers"] == 1
    assert doc["missing"] == doc["skipped"] == []
    assert before - 1000 <= doc["runTime"] <= int(time.time() * 1000)
    assert doc["queueOffsets"] >= 2 and isinstance(doc["elapsedMs"], int)
    assert list((tmp_path / "s").iterdir())  # it wrote the run as usual


def test_snapshot_yaml_on_the_command_one_document_per_run(namesrv: str, tmp_path: Path) -> None:
    out = str(tmp_path / "s")
    p = mqadmin(
        "snapshot", "--out", out, "-n", namesrv, "--count", "2", "--interval", "0.2", "--output", "yaml"
    )
    assert p.returncode == 0, p.stderr
    docs = list(yaml.safe_load_all(p.stdout))
    assert len(docs) == 2 and all(d["out"] == out and d["brokers"] == 1 for d in docs)
    assert docs[0]["runTime"] < docs[1]["runTime"]
    plain = mqadmin("snapshot", "--out", out, "-n", namesrv)
    assert plain.returncode == 0 and plain.stdout.rstrip().endswith(f"-> {out}")  # the line is unchanged


def test_export_messages_json_and_yaml(namesrv: str, tmp_path: Path) -> None:
    out = tmp_path / "e"
    args = ["messages", "-t", TOPIC, "-n", namesrv, "--out", str(out), "--json", "--format", "json"]
    p = mqadmin("export", *args, "--begin", "1714566600000")
    assert p.returncode == 0, p.stderr
    doc = json.loads(p.stdout)
    assert doc.pop("apiVersion") == "mqadmin/v1"
    assert {k: v for k, v in doc.items() if k != "elapsedMs"} == {
        "topic": TOPIC, "out": str(out), "format": "json", "messages": COUNT,
        "begin": 1714566600000, "end": None,
    }  # fmt: skip
    rows = [json.loads(x) for f in out.glob("part-*") for x in f.read_text().splitlines()]
    assert len(rows) == COUNT
    y = mqadmin(
        "--output", "yaml", "export", "messages", "-t", TOPIC, "-n", namesrv, "--out", str(tmp_path / "p")
    )
    assert y.returncode == 0, y.stderr
    assert yaml.safe_load(y.stdout)["messages"] == COUNT and "exported" not in y.stdout
