"""Names a real Java broker keeps and no request may carry: a group named "" and one with a lone
surrogate. Our development broker loads such a ``subscriptionGroup.json`` (as Java does); every
command that walks the broker's tables skips those names with a note, and ``mqadmin snapshot``
exits 0 with the other groups complete.

Real processes on loopback: our name server, our broker, the installed ``mqadmin``.
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

import pyarrow.dataset as ds
import pytest

from mqadmin.admin.tablenames import askable_groups, askable_topics
from mqadmin.exporter.collect import drop_unaskable_groups
from mqadmin.protocol import fastjson
from mqadmin.protocol.bodies.message_queue import MessageQueue
from mqadmin.protocol.errors import ProtocolError
from mqadmin.protocol.message import Message
from tests.broker.peers import create_topic
from tests.cli_harness import with_admin
from tests.servers import BrokerProcess, NameServerProcess

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

TOPIC = "BlankNamesTopic"
GROUP = "BlankNamesGroup"
IDLE = "BlankNamesIdleGroup"
MQADMIN = str(Path(sys.executable).with_name("mqadmin"))

# what a Java 4.9.8 broker writes for a group named "" and for one whose name held a lone surrogate
GROUP_FILE = (
    '{\n\t"dataVersion":{\n\t\t"counter":5,\n\t\t"timestamp":1714566600000\n\t},\n'
    '\t"subscriptionGroupTable":{\n'
    '\t\t"":{\n\t\t\t"groupName":"",\n\t\t\t"consumeEnable":true,\n\t\t\t"retryQueueNums":1\n\t\t},\n'
    '\t\t"G\\ud800x":{\n\t\t\t"groupName":"G\\ud800x",\n\t\t\t"consumeEnable":true\n\t\t},\n'
    f'\t\t"{GROUP}":{{\n\t\t\t"groupName":"{GROUP}",\n\t\t\t"consumeEnable":true\n\t\t}},\n'
    f'\t\t"{IDLE}":{{\n\t\t\t"groupName":"{IDLE}",\n\t\t\t"consumeEnable":true\n\t\t}}\n'
    "\t}\n}"
)
SKIPPED = {"", "G?x"}
"""How the broker lists the two names: a lone surrogate reaches clients as ``?`` (Java's UTF-8 encoder)."""


@dataclass
class Live:
    ns: str
    broker: str
    group_file: Path


def mqadmin(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([MQADMIN, *args], capture_output=True, text=True, timeout=120)


def _seed(ns: str, broker: str) -> None:
    """Six messages over two queues; GROUP has consumed two of queue 0."""

    async def go(admin: Any) -> None:
        from mqadmin.admin.producer import Producer

        producer = Producer(admin, "BlankNamesPG")
        for i in range(6):
            await producer.send(
                Message(topic=TOPIC, body=f"m{i}".encode()), MessageQueue(TOPIC, "broker-a", i % 2)
            )
        await admin.offsets.update_consume_offset(broker, GROUP, MessageQueue(TOPIC, "broker-a", 0), 2)

    with_admin(ns, go, timeout=10)


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Live]:
    work = tmp_path_factory.mktemp("blank-names")
    config = work / "broker" / "store" / "config"
    config.mkdir(parents=True)
    group_file = config / "subscriptionGroup.json"
    group_file.write_text(GROUP_FILE)
    ns = NameServerProcess(work / "ns")
    broker = None
    try:
        broker = BrokerProcess(work / "broker", ns.addr)
        assert create_topic(broker.addr, TOPIC, queues=2).code == 0
        # the retry topic of the group named "": consumerProgress derives that group from it
        assert create_topic(broker.addr, "%RETRY%", queues=1).code == 0
        deadline = time.monotonic() + 20
        while mqadmin("topicRoute", "-n", ns.addr, "-t", TOPIC).returncode != 0:
            assert time.monotonic() < deadline, "the name server never routed the topic"
            time.sleep(0.2)
        _seed(ns.addr, broker.addr)
        yield Live(ns.addr, broker.addr, group_file)
    finally:
        if broker is not None:
            broker.stop()
        ns.stop()


def test_the_rules_split_names_in_order() -> None:
    kept, skipped = askable_groups(["A", "", " ", "B|%-_9", "x" * 256, "G?x", "ü", "C"])
    assert kept == ["A", "B|%-_9", "C"]
    assert [s.name for s in skipped] == ["", " ", "x" * 256, "G?x", "ü"]
    assert skipped[0].note() == "group '' skipped: the specified group is blank"
    kept, skipped = askable_topics(["T", "", "%RETRY%" + "g" * 200, "a/b", "T\n"])
    assert kept == ["T", "%RETRY%" + "g" * 200]  # a long retry topic is the broker's to judge
    assert [s.name for s in skipped] == ["", "a/b", "T\n"]


def test_metrics_drop_them_from_the_brokers_own_walk() -> None:
    from mqadmin.protocol.bodies.consume_stats import ConsumeStats
    from mqadmin.protocol.bodies.consumption import BrokerConsumeStats

    stats = BrokerConsumeStats("a:1", [{"": [ConsumeStats()], GROUP: [ConsumeStats()]}, {"G?x": []}], 0)
    assert {s.name for s in drop_unaskable_groups(stats)} == SKIPPED
    assert stats.consume_stats_list == [{GROUP: [ConsumeStats()]}, {}]


def test_the_broker_loads_the_file_as_java_does(live: Live) -> None:
    with pytest.raises(ProtocolError):  # the strict reader refuses it whole (and all groups with it)
        fastjson.loads(GROUP_FILE)

    async def table(admin: Any) -> dict[str, Any]:
        return (await admin.groups.get_all_subscription_group(live.broker)).subscription_group_table or {}

    groups = with_admin(live.ns, table)
    assert SKIPPED | {GROUP, IDLE} <= set(groups)
    assert groups[""].retry_queue_nums == 1 and groups["G?x"].group_name == "G?x"


def test_snapshot_skips_them_with_a_note_and_exits_0(live: Live, tmp_path: Path) -> None:
    before = live.group_file.read_bytes()
    out = tmp_path / "s"
    p = mqadmin("--json", "snapshot", "--out", str(out), "-n", live.ns)
    assert p.returncode == 0, p.stderr
    doc = json.loads(p.stdout)
    assert doc["missing"] == []
    assert {(s["what"], s["target"], s["broker"]) for s in doc["skipped"]} == {
        ("group", name, "broker-a") for name in SKIPPED
    }
    assert all(s["reason"] for s in doc["skipped"])
    notes = [line for line in p.stderr.splitlines() if "note: skipped group" in line]
    assert len(notes) == 2
    assert any("skipped group '' of broker-a: the specified group is blank" in n for n in notes)

    rows = ds.dataset(out / "group_offsets", partitioning="hive").to_table().to_pylist()
    groups = {r["group"] for r in rows}
    assert not groups & SKIPPED and {GROUP, IDLE, "TOOLS_CONSUMER"} <= groups
    mine = {(r["topic"], r["queue_id"]): r for r in rows if r["group"] == GROUP}
    assert mine[(TOPIC, 0)]["consumer_offset"] == 2 and mine[(TOPIC, 0)]["broker_offset"] == 3
    assert mine[(TOPIC, 0)]["lag"] == 1 and mine[(TOPIC, 1)]["lag"] == 3
    assert [r["topic"] for r in rows if r["group"] == IDLE] == [None]  # known, nothing committed

    manifests = list((out / "_manifests").rglob("run-*.json"))
    assert len(manifests) == 1
    manifest = json.loads(manifests[0].read_text())
    assert manifest["skipped"] == doc["skipped"] and manifest["missing"] == []
    assert set(manifest["files"]) == {"queue_offsets", "group_offsets", "broker_stats", "missing"}
    assert all(manifest["runId"] in f for f in manifest["files"].values())
    assert live.group_file.read_bytes() == before  # a read-only run: the broker's file is untouched

    plain = mqadmin("snapshot", "--out", str(out), "-n", live.ns)
    assert plain.returncode == 0 and "  skipped 2  " in plain.stdout


def test_the_commands_that_walk_the_tables_skip_them(live: Live, tmp_path: Path) -> None:
    before = live.group_file.read_bytes()
    ns = ["-n", live.ns]

    p = mqadmin("consumerProgress", *ns, "--json")
    assert p.returncode == 0, p.stderr
    assert "group '' skipped: the specified group is blank" in p.stderr
    assert "" not in {g["group"] for g in json.loads(p.stdout)["groups"]}  # Java shows an OFFLINE row

    for args, name in (
        (["-b", live.broker, "-g"], "subscriptionGroup.json"),
        (["-c", "DefaultCluster"], "metadata.json"),
    ):
        d = tmp_path / name
        p = mqadmin("exportMetadata", *ns, *args, "-f", str(d))
        assert p.returncode == 0, p.stderr
        assert p.stderr.count("skipped") == 2, p.stderr
        table = json.loads((d / name).read_text())["subscriptionGroupTable"]
        assert GROUP in table and IDLE in table and not set(table) & SKIPPED

    p = mqadmin("statsAll", *ns, "--json")
    assert p.returncode == 0, p.stderr
    rows = json.loads(p.stdout)["rows"]
    assert {r["group"] for r in rows if r["topic"] == TOPIC} == {GROUP}

    p = mqadmin("exportMetrics", *ns, "-c", "DefaultCluster", "--format", "prometheus")
    assert p.returncode == 0, p.stderr
    assert f'group="{GROUP}"' in p.stdout and 'group=""' not in p.stdout
    assert live.group_file.read_bytes() == before


def test_the_lag_job_leaves_them_out_even_with_all(spark: SparkSession) -> None:
    from datetime import UTC, datetime

    from mqadmin.pipeline.jobs.lag import lag

    t = datetime(2024, 5, 1, 12, tzinfo=UTC)
    columns = (
        "time timestamp, run_time timestamp, cluster string, broker string, group string, topic string, "
        "queue_id int, broker_offset long, consumer_offset long, lag long, last_consume_time timestamp"
    )
    rows = [(t, t, "C", "b", g, "T", 0, 9, 4, 5, None) for g in ("", "G?x", "a\n", "KeptGroup")]
    df = spark.createDataFrame(rows, schema=columns)
    assert {r["group"] for r in lag(df, include_system=True).collect()} == {"KeptGroup"}
