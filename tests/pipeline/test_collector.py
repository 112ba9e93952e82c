"""The collector: fan-out, deadline, missing brokers, and the remoting source on the wire.

The in-memory source drives the collector's rules; the wire tests run the collector on the admin API
(:class:`MQAdmin`) against our name server and a stub broker (see :mod:`tests.pipeline.wire`),
then the ``snapshot`` command end to end into Parquet files.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pyarrow.dataset as ds
import pytest
from click.testing import CliRunner

from mqadmin.admin.api import MQAdmin
from mqadmin.admin.settings import AdminSettings
from mqadmin.pipeline.collector import AdminSource, CollectorError, brokers_of, collect_snapshot
from mqadmin.protocol.bodies import (
    BrokerData,
    ClusterInfo,
    ConsumeStats,
    MessageQueue,
    OffsetWrapper,
    SubscriptionGroupConfig,
    SubscriptionGroupWrapper,
    TopicOffset,
    TopicStatsTable,
)
from mqadmin.remoting.errors import RemoteCommandError, RemotingConnectError
from tests.pipeline import wire


def run(coro: Any, limit: float = 20.0) -> Any:
    async def bounded() -> Any:
        return await asyncio.wait_for(coro, limit)

    return asyncio.run(bounded())


@dataclass
class MemBroker:
    name: str
    topics: dict[str, list[int]] = field(default_factory=dict)
    groups: dict[str, dict[str, list[int]]] = field(default_factory=dict)
    down: bool = False
    slow: set[str] = field(default_factory=set)  # "topic:T", "group:G", "runtime", "groups"
    failing: set[str] = field(default_factory=set)


class MemSource:
    def __init__(self, *brokers: MemBroker, topics: list[str] | None = None) -> None:
        self.brokers = {f"{b.name}:10911": b for b in brokers}
        self.topics = topics if topics is not None else sorted({t for b in brokers for t in b.topics})
        self.calls: list[str] = []

    async def _gate(self, addr: str, what: str) -> MemBroker:
        self.calls.append(f"{addr} {what}")
        b = self.brokers[addr]
        if b.down:
            raise RemotingConnectError(addr, "Connection refused")
        if what in b.slow:
            await asyncio.sleep(60)
        if what in b.failing:
            raise RemoteCommandError(addr, 1, "boom", 0)
        return b

    async def examine_broker_cluster_info(self) -> ClusterInfo:
        bat = {
            b.name: BrokerData(cluster="C", broker_name=b.name, broker_addrs={0: addr})
            for addr, b in self.brokers.items()
        }
        return ClusterInfo(bat, {"C": sorted(bat)})

    async def fetch_all_topic_list(self) -> list[str]:
        return list(self.topics)

    async def examine_topic_stats_in_broker(self, broker_addr: str, topic: str) -> TopicStatsTable:
        b = await self._gate(broker_addr, f"topic:{topic}")
        if topic not in b.topics:
            raise RemoteCommandError(broker_addr, 17, f"topic[{topic}] not exist", 202)
        return TopicStatsTable(
            {
                MessageQueue(topic, b.name, q): TopicOffset(0, o, 1714600000000)
                for q, o in enumerate(b.topics[topic])
            }
        )

    async def get_all_subscription_group(self, broker_addr: str) -> SubscriptionGroupWrapper:
        b = await self._gate(broker_addr, "groups")
        table = {g: SubscriptionGroupConfig(group_name=g) for g in sorted(b.groups)}
        return SubscriptionGroupWrapper(subscription_group_table=table)

    async def get_consume_stats(
        self, broker_addr: str, group: str, topic: str | None = None, timeout: float | None = None
    ) -> ConsumeStats:
        b = await self._gate(broker_addr, f"group:{group}")
        table = {
            MessageQueue(t, b.name, q): OffsetWrapper(b.topics[t][q], c, 0)
            for t, offs in b.groups[group].items()
            for q, c in enumerate(offs)
        }
        return ConsumeStats(table)

    async def fetch_broker_runtime_stats(self, broker_addr: str) -> dict[str, str]:
        await self._gate(broker_addr, "runtime")
        return {"k": "v", "brokerVersionDesc": "V4_9_8"}


def test_rows_of_every_table() -> None:
    a = MemBroker("a", {"T": [5, 7]}, {"G": {"T": [5, 3]}, "Bare": {}})
    snap = run(collect_snapshot(MemSource(a)))
    assert snap.brokers == 1 and snap.missing == []
    assert [(r["topic"], r["queue_id"], r["max_offset"]) for r in snap.queue_offsets] == [
        ("T", 0, 5),
        ("T", 1, 7),
    ]
    g = {(r["group"], r["queue_id"]): r for r in snap.group_offsets}
    assert g[("G", 1)]["lag"] == 4 and g[("G", 0)]["lag"] == 0 and g[("G", 0)]["last_consume_time"] is None
    assert g[("Bare", None)]["topic"] is None  # a group without offsets still shows up
    assert {r["key"] for r in snap.broker_stats} == {"k", "brokerVersionDesc"}
    assert all(r["run_time"] == snap.run_time and r["cluster"] == "C" for r in snap.queue_offsets)
    assert all(r["time"] >= snap.run_time for r in snap.queue_offsets)


def test_down_broker_is_missing_once_and_not_asked_again() -> None:
    up = MemBroker("a", {"T": [1]})
    down = MemBroker("b", {"T": [1], "U": [2]}, {"G": {"T": [0]}}, down=True)
    source = MemSource(up, down)
    snap = run(collect_snapshot(source))
    assert snap.missing_brokers == ["b"]
    assert [(r["broker"], r["what"]) for r in snap.missing] == [("b", "broker")]
    assert "Connection refused" in snap.missing[0]["error"]
    assert snap.missing[0]["broker_addr"] == "b:10911"
    assert [c for c in source.calls if c.startswith("b:")] == ["b:10911 runtime"]
    assert {r["broker"] for r in snap.queue_offsets} == {"a"}


def test_topics_a_broker_does_not_have_are_not_missing() -> None:
    a = MemBroker("a", {"T": [1]})
    b = MemBroker("b", {"U": [1, 2]})
    snap = run(collect_snapshot(MemSource(a, b)))
    assert snap.missing == []
    assert sorted((r["broker"], r["topic"]) for r in snap.queue_offsets) == [
        ("a", "T"),
        ("b", "U"),
        ("b", "U"),
    ]


def test_deadline_keeps_what_was_answered() -> None:
    a = MemBroker(
        "a", {"T": [1], "Slow": [2]}, {"G": {"T": [1]}, "H": {"T": [0]}}, slow={"topic:Slow", "group:H"}
    )
    snap = run(collect_snapshot(MemSource(a), deadline=0.5), limit=5)
    assert {r["topic"] for r in snap.queue_offsets} == {"T"}
    assert {r["group"] for r in snap.group_offsets} == {"G"}
    assert sorted((r["what"], r["target"], r["error"]) for r in snap.missing) == [
        ("consume_stats", "H", "deadline exceeded"),
        ("topic_stats", "Slow", "deadline exceeded"),
    ]
    assert snap.elapsed < 2


def test_a_failing_call_loses_only_itself() -> None:
    a = MemBroker("a", {"T": [1], "Bad": [1]}, {"G": {"T": [1]}}, failing={"topic:Bad", "runtime"})
    snap = run(collect_snapshot(MemSource(a)))
    assert sorted((r["what"], r["target"]) for r in snap.missing) == [
        ("runtime_info", None),
        ("topic_stats", "Bad"),
    ]
    assert {r["topic"] for r in snap.queue_offsets} == {"T"} and snap.group_offsets


def test_concurrency_is_bounded() -> None:
    in_flight = 0
    peak = 0

    class Counting(MemSource):
        async def examine_topic_stats_in_broker(self, broker_addr: str, topic: str) -> TopicStatsTable:
            nonlocal in_flight, peak
            in_flight += 1
            peak = max(peak, in_flight)
            await asyncio.sleep(0.01)
            in_flight -= 1
            return await super().examine_topic_stats_in_broker(broker_addr, topic)

    a = MemBroker("a", {f"T{i}": [1] for i in range(40)})
    snap = run(collect_snapshot(Counting(a), concurrency=4))
    assert len(snap.queue_offsets) == 40 and peak == 4


def test_no_cluster_list_is_fatal() -> None:
    class NoNamesrv(MemSource):
        async def examine_broker_cluster_info(self) -> ClusterInfo:
            raise RemotingConnectError("ns:9876", "Connection refused")

    with pytest.raises(CollectorError, match="Connection refused"):
        run(collect_snapshot(NoNamesrv()))


def test_brokers_of_prefers_the_master() -> None:
    info = ClusterInfo(
        {
            "a": BrokerData("C", "a", {1: "slave:1", 0: "master:1"}),
            "b": BrokerData("C", "b", {2: "s2:1", 1: "s1:1"}),
            "c": BrokerData("C", "c", {}),
        },
        {"C": ["a", "b", "c"]},
    )
    assert [(t.broker, t.addr) for t in brokers_of(info)] == [("a", "master:1"), ("b", "s1:1"), ("c", None)]


# ------------------------------------------------------------------------------------------ on the wire


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[wire.WireCluster]:
    with wire.wire_cluster(tmp_path_factory.mktemp("namesrv")) as c:
        yield c


def test_admin_api_against_our_namesrv(cluster: wire.WireCluster) -> None:
    async def go() -> Any:
        settings = AdminSettings(namesrv_addrs=("127.0.0.1:1", cluster.namesrv), timeout=2.0)
        async with MQAdmin(settings) as admin:
            return await collect_snapshot(AdminSource(admin), deadline=10)

    snap = run(go())
    assert snap.brokers == 2 and snap.missing_brokers == [wire.DOWN]
    down = [r for r in snap.missing if r["broker"] == wire.DOWN]
    assert (
        len(down) == 1 and down[0]["broker_addr"] == cluster.down_addr and down[0]["cluster"] == wire.CLUSTER
    )
    qo = {(r["topic"], r["queue_id"]): r for r in snap.queue_offsets}
    assert set(qo) == {("Orders", q) for q in range(4)} | {("Quiet", 0), ("Quiet", 1)}  # OnlyDown: not here
    assert qo[("Orders", 2)]["max_offset"] == 30 and qo[("Orders", 3)]["last_update_time"] is None
    assert all(r["broker"] == wire.UP and r["cluster"] == wire.CLUSTER for r in snap.queue_offsets)
    go_rows = {(r["group"], r["topic"], r["queue_id"]): r for r in snap.group_offsets}
    assert go_rows[("G1", "Orders", 0)]["lag"] == 2 and go_rows[("G1", "Orders", 2)]["lag"] == 5
    assert go_rows[("G-none", None, None)]["consumer_offset"] is None
    assert {r["key"]: r["value"] for r in snap.broker_stats}["putTps"] == "1.0 2.0 3.0"
    assert snap.missing[0]["what"] == "broker"


def test_snapshot_command_writes_runs(cluster: wire.WireCluster, tmp_path: Path) -> None:
    from mqadmin.pipeline.cli import snapshot_cmd

    out = tmp_path / "snaps"
    args = ["--out", str(out), "-n", cluster.namesrv, "--count", "2", "--interval", "0.3", "--timeout", "2"]
    result = CliRunner().invoke(snapshot_cmd, args)
    assert result.exit_code == 6, result.output  # a broker was missing: partial
    lines = result.stdout.strip().splitlines()
    assert len(lines) == 2 and all("2 brokers (1 missing)" in line for line in lines)
    assert f"missing broker from {wire.DOWN} ({cluster.down_addr})" in result.stderr
    qo = ds.dataset(out / "queue_offsets", format="parquet", partitioning="hive").to_table()
    assert qo.num_rows == 12 and len(set(qo.column("run_time").to_pylist())) == 2
    missing = ds.dataset(out / "missing", format="parquet", partitioning="hive").to_table()
    assert missing.column("broker").to_pylist() == [wire.DOWN, wire.DOWN]
    assert len(list((out / "group_offsets").rglob("*.parquet"))) == 2


def test_snapshot_command_without_namesrv(tmp_path: Path) -> None:
    from mqadmin.pipeline.cli import snapshot_cmd

    port = wire._free_port()
    result = CliRunner().invoke(
        snapshot_cmd, ["--out", str(tmp_path), "-n", f"127.0.0.1:{port}", "--timeout", "1"]
    )
    assert result.exit_code == 4
    assert "no cluster list from the name servers" in result.stderr
    assert not list(tmp_path.rglob("*.parquet"))
