"""Random walks over the route tables, checked against the reference model after every step.

Brokers (4.x and 5.x, masters and slaves on fixed addresses) register, change their topics,
switch roles, unregister, lose their connections and fall silent until they expire; operators
wipe and restore write permission, delete and register topics. After each step the route of every
topic, the cluster table and the topic list must agree with :mod:`tests.route.refmodel`, every
cached route body must equal a fresh encoding, and no table may hold an orphan.
"""

from __future__ import annotations

import hashlib
import json
import random
from dataclasses import dataclass, field
from typing import Any

import pytest

from mqadmin.protocol.bodies.dataversion import DataVersion
from mqadmin.protocol.bodies.route import QueueData
from mqadmin.protocol.bodies.topic import TopicConfig
from mqadmin.route import DefaultRouteConfig, RouteInfoManager
from tests.route.refmodel import Model

GROUPS = {"broker-a": "C1", "broker-b": "C1", "broker-c": "C2"}
TOPICS = [f"T{i}" for i in range(7)]


@dataclass
class Process:
    """One broker process: fixed group and address, its own topic table and version."""

    name: str
    addr: str
    new_version: bool
    acting: bool
    timeout: int | None
    table: dict[str, tuple[int, int, int, int]] = field(default_factory=dict)
    counter: int = 1
    state: int = 0
    bid: int = 0
    channel: object = field(default_factory=object)

    @property
    def cluster(self) -> str:
        return GROUPS[self.name]


class Walk:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.now = 1_000_000
        self.config = DefaultRouteConfig(
            delete_topic_with_broker_registration=seed % 3 == 1, notify_min_broker_id_changed=seed % 2 == 1
        )
        self.core = RouteInfoManager(self.config, clock_ms=lambda: self.now, route_cache_bytes=1 << 20)
        self.model = Model(delete_missing_topics=self.config.delete_topic_with_broker_registration)
        self.procs: list[Process] = []
        self.shortcuts = 0
        for name in GROUPS:
            for i in range(2):
                new = self.rng.random() < 0.5
                p = Process(
                    name,
                    f"10.0.{len(self.procs)}.{i + 1}:10911",
                    new,
                    acting=new and self.rng.random() < 0.5,
                    timeout=self.rng.choice([None, 20_000, 60_000]) if new else None,
                )
                p.table = {t: self._config() for t in self.rng.sample(TOPICS, self.rng.randint(1, 4))}
                p.bid = i
                self.procs.append(p)

    def _config(self) -> tuple[int, int, int, int]:
        return (
            self.rng.choice([1, 4, 8]),
            self.rng.choice([1, 4, 8]),
            self.rng.choice([2, 4, 6, 7]),
            self.rng.choice([0, 0, 1, 2, 3]),
        )

    # ------------------------------------------------------------------ operations

    def register(self, p: Process, single: bool = False) -> None:
        bid = p.bid
        table = p.table
        if single and table:
            t = self.rng.choice(sorted(table))
            table = {t: table[t]}
            p.counter += 1
        dv = (p.state if p.new_version else 0, 1_700_000_000_000 + p.counter, p.counter)
        configs = {
            t: TopicConfig(topic_name=t, read_queue_nums=r, write_queue_nums=w, perm=perm, topic_sys_flag=f)
            for t, (r, w, perm, f) in table.items()
        }
        acting = p.acting if p.new_version else None
        filters = self.rng.choice([[], [], [f"{p.addr}-fs"], None])
        # the digest of the body a broker would send: an identical one may skip its table
        digest = hashlib.sha256(repr((sorted(table.items()), dv, filters)).encode()).digest()
        header: dict[str, Any] = {
            "cluster_name": p.cluster,
            "broker_addr": p.addr,
            "broker_name": p.name,
            "broker_id": bid,
            "ha_server_addr": p.addr + "0",
            "enable_acting_master": acting,
            "timeout_millis": p.timeout,
            "channel": p.channel,
            "body_digest": digest,
        }
        got = self.core.register_unchanged(**header)
        if got is not None:
            self.shortcuts += 1
        else:
            got = self.core.register_broker(
                **header,
                data_version=DataVersion(dv[1], dv[2], dv[0] if p.new_version else None),
                topic_configs=configs,
                filter_server_list=filters,
            )
        want = self.model.register(
            p.cluster, p.addr, p.name, bid, acting, dv, table, p.timeout, p.channel, self.now, filters
        )
        assert (got is None) == (want is None)
        if got is not None and want is not None:
            assert got.master_addr == want.get("masterAddr")

    def change_topics(self, p: Process) -> None:
        for t in self.rng.sample(TOPICS, self.rng.randint(1, 3)):
            if t in p.table and self.rng.random() < 0.4:
                del p.table[t]
            else:
                p.table[t] = self._config()
        p.counter += 1
        if p.new_version and self.rng.random() < 0.3:
            p.state += 1

    def step(self) -> str:
        rng = self.rng
        p = rng.choice(self.procs)
        op = rng.choices(
            [
                "register",
                "single",
                "change",
                "unregister",
                "close",
                "expire",
                "touch",
                "wipe",
                "add",
                "delete",
                "delete_in_cluster",
                "register_topic",
            ],
            [30, 4, 10, 6, 6, 6, 4, 3, 3, 3, 3, 3],
        )[0]
        if op == "register":
            self.register(p)
        elif op == "single":
            self.register(p, single=True)
        elif op == "change":
            self.change_topics(p)
            self.register(p)
        elif op == "unregister":
            bid = rng.choice([0, 1, 2])
            self.core.unregister_broker(p.cluster, p.addr, p.name, bid)
            self.model.unregister(p.cluster, p.addr, p.name, bid)
        elif op == "close":
            self.core.on_channel_destroy(p.channel)
            self.model.close_channel(p.channel)
            p.channel = object()
        elif op == "expire":
            self.now += rng.choice([1_000, 15_000, 30_000, 70_000, 130_000])
            self.core.scan_not_active_brokers()
            self.model.expire(self.now)
        elif op == "touch":
            self.core.update_broker_timestamp(p.cluster, p.addr)
            self.model.touch(p.cluster, p.addr, self.now)
        elif op in ("wipe", "add"):
            name = rng.choice(list(GROUPS))
            n = (self.core.wipe_write_perm if op == "wipe" else self.core.add_write_perm)(name)
            assert n == self.model.set_perm(name, op == "wipe")
        elif op == "delete":
            t = rng.choice(TOPICS)
            self.core.delete_topic(t)
            self.model.delete_topic(t, None)
        elif op == "delete_in_cluster":
            t, c = rng.choice(TOPICS), rng.choice(["C1", "C2", "C3"])
            self.core.delete_topic_in_cluster(t, c)
            self.model.delete_topic(t, c)
        else:
            t = rng.choice(TOPICS)
            names = rng.sample([*GROUPS, "broker-x"], rng.randint(1, 2))
            queues = [(n, self._config()) for n in names]
            self.core.register_topic(t, [QueueData(n, *qd) for n, qd in queues])
            self.model.register_topic(t, queues)
        return op

    # ------------------------------------------------------------------ checks

    def check(self, where: str) -> None:
        core, model = self.core, self.model
        for topic in TOPICS:
            route = core.pickup_topic_route(topic)
            want = model.route(topic)
            if want is None:
                assert route is None, f"{where}: {topic} should have no route"
                assert core.route_body(topic, True) is None
                continue
            assert route is not None, f"{where}: {topic} has no route"
            queues = frozenset(
                (q.broker_name, q.read_queue_nums, q.write_queue_nums, q.perm, q.topic_sys_flag)
                for q in route.queue_datas or []
            )
            brokers = frozenset(
                (b.cluster, b.broker_name, frozenset((b.broker_addrs or {}).items()), b.enable_acting_master)
                for b in route.broker_datas or []
            )
            assert (queues, brokers) == want, f"{where}: route of {topic}"
            assert route.filter_server_table == model.filter_table(topic), (
                f"{where}: filter servers of {topic}"
            )
            for standard in (True, False):
                fresh = core._pickup(topic).encode(standard)  # type: ignore[union-attr]
                assert core.route_body(topic, standard) == fresh, f"{where}: stale cached route of {topic}"
        info = json.loads(core.cluster_info().encode(standard=True))
        assert {c: set(v) for c, v in info["clusterAddrTable"].items()} == model.clusters, where
        assert {
            n: (b["cluster"], {int(k): v for k, v in b["brokerAddrs"].items()}, b["enableActingMaster"])
            for n, b in info["brokerAddrTable"].items()
        } == {n: (b.cluster, b.addrs, b.acting) for n, b in model.brokers.items()}, where
        assert core.cluster_info_body() == core.cluster_info().encode(), f"{where}: stale cluster body"
        assert sorted(core.all_topics()) == sorted(model.topics), where
        assert set(core.broker_live_table) == set(model.live), where
        assert core.filter_server_table == model.filters, where
        self.no_orphans(where)

    def no_orphans(self, where: str) -> None:
        core = self.core
        for cluster, names in core.cluster_addr_table.items():
            assert names, f"{where}: cluster {cluster} without brokers"
            for n in names:
                assert n in core.broker_addr_table, f"{where}: cluster {cluster} lists unknown {n}"
        for topic, queues in core.topic_queue_table.items():
            assert queues, f"{where}: topic {topic} without queue data"
            for n in queues:
                assert n in core.broker_addr_table, f"{where}: topic {topic} on unknown broker {n}"
        for cluster, addr in core.broker_live_table:
            assert any(
                e.cluster == cluster and addr in e.addrs.values() for e in core.broker_addr_table.values()
            ), f"{where}: live entry for unknown broker {addr}"
        assert set(core._topic_order) == set(core.topic_queue_table)
        assert set(core._broker_order) == set(core.broker_addr_table)
        assert set(core._cluster_order) == set(core.cluster_addr_table)


@pytest.mark.parametrize("seed", range(24))
def test_random_walk_agrees_with_model(seed: int) -> None:
    walk = Walk(seed)
    ops: list[Any] = []
    for i in range(250):
        ops.append(walk.step())
        walk.check(f"seed {seed} step {i} ({ops[-1]}; before: {ops[-6:-1]})")
    assert walk.shortcuts > 0  # identical re-registrations took the short way
