"""``-b BrokerName`` naming a broker that the topic's route does not list: found by name in the
cluster info and asked, as a Java client finds any broker it knows; the broker decides.

Our name server and three development brokers of one cluster, as processes: ``broker-a`` holds the
topic; ``broker-b`` creates topics on demand (``autoCreateTopicEnable=true``); ``broker-c`` does not.
The installed ``mqadmin`` runs each command.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.broker.peers import create_topic
from tests.cli_harness import Result
from tests.message_cmds.support import base_env, run, with_admin
from tests.servers import BrokerProcess, Cluster

TOPIC = "NamedBrokerTopic"
ERROR, NOT_FOUND = 1, 7


@dataclass
class Three:
    ns: str
    env: dict[str, str]
    brokers: dict[str, BrokerProcess]

    def mqadmin(self, *args: str) -> Result:
        return run(self.env, *args, "-n", self.ns)

    def route_brokers(self) -> set[str]:
        async def names(admin: Any) -> set[str]:
            route = await admin.namesrv.examine_topic_route_info(TOPIC)
            return {bd.broker_name for bd in route.broker_datas or []}

        return with_admin(self.ns, names)


def _wait(what: str, ok: object) -> None:
    deadline = time.monotonic() + 20
    while not ok():  # type: ignore[operator]
        assert time.monotonic() < deadline, what
        time.sleep(0.2)


@pytest.fixture(scope="module")
def three(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Three]:
    work: Path = tmp_path_factory.mktemp("named-broker")
    auto = {"broker-a": "true", "broker-b": "true", "broker-c": "false"}
    props = {name: {"brokerName": name, "autoCreateTopicEnable": on} for name, on in auto.items()}
    with Cluster(work, props) as cluster:
        brokers = dict(zip(auto, cluster.brokers, strict=True))
        c = Three(cluster.ns.addr, base_env(work), brokers)
        assert create_topic(brokers["broker-a"].addr, TOPIC, queues=2).code == 0

        def ready() -> bool:
            listed = c.mqadmin("clusterList", "--json")
            route = c.mqadmin("topicRoute", "-t", TOPIC)
            return listed.code == 0 and route.code == 0 and all(n in listed.out for n in brokers)

        _wait("the name server never listed the three brokers and routed the topic", ready)
        yield c


def test_send_goes_to_a_broker_outside_the_route(three: Three) -> None:
    assert three.route_brokers() == {"broker-a"}
    r = three.mqadmin("sendMessage", "-t", TOPIC, "-p", "to b", "-b", "broker-b", "-i", "1", "--json")
    assert r.code == 0, r.err
    sent = json.loads(r.out)
    assert (sent["brokerName"], sent["queueId"], sent["sendStatus"]) == ("broker-b", 1, "SEND_OK")
    # broker-b took the topic (its decision) and now routes it beside broker-a
    _wait("broker-b never registered the topic", lambda: three.route_brokers() == {"broker-a", "broker-b"})
    got = three.mqadmin("queryMsgByOffset", "-t", TOPIC, "-b", "broker-b", "-i", "1", "-o", "0", "--json")
    assert got.code == 0, got.err
    assert json.loads(got.out)["message"]["msgId"] == sent["msgId"]


def test_the_broker_decides_and_its_answer_is_shown(three: Three) -> None:
    """broker-c is found (no "not exist" from us); it refuses the topic it does not have."""
    addr = three.brokers["broker-c"].addr
    r = three.mqadmin("sendMessage", "-t", TOPIC, "-p", "to c", "-b", "broker-c", "-i", "0")
    assert r.code == NOT_FOUND and r.out == "", (r.code, r.err)
    assert (
        "The broker[broker-c] not exist" not in r.err
        and f"CODE: 17 (TOPIC_NOT_EXIST) from server {addr}" in r.err
    )
    for args in (
        ["queryMsgByOffset", "-t", TOPIC, "-b", "broker-c", "-i", "0", "-o", "0"],
        ["consumeMessage", "-t", TOPIC, "-b", "broker-c", "-i", "0"],
    ):
        q = three.mqadmin(*args)
        assert q.code == NOT_FOUND and "The broker[broker-c] not exist" not in q.err, (args, q.err)
        assert f"CODE: 17 (TOPIC_NOT_EXIST) from server {addr}" in q.err, (args, q.err)
    # its offsets of a queue it does not have are 0 (as Java's): an empty queue to print
    p = three.mqadmin("printMsgByQueue", "-t", TOPIC, "-a", "broker-c", "-i", "0", "--json")
    assert p.code == 0, p.err
    doc = json.loads(p.out)
    assert (doc["brokerName"], doc["minOffset"], doc["maxOffset"]) == ("broker-c", 0, 0)
    assert three.route_brokers() == {"broker-a", "broker-b"}  # nothing was created on broker-c


def test_a_broker_no_cluster_knows_is_still_refused(three: Three) -> None:
    for args in (
        ["sendMessage", "-t", TOPIC, "-p", "x", "-b", "broker-z", "-i", "0"],
        ["queryMsgByOffset", "-t", TOPIC, "-b", "broker-z", "-i", "0", "-o", "0"],
    ):
        r = three.mqadmin(*args)
        assert r.code == ERROR and r.out == "", (args, r.code, r.err)
        assert "The broker[broker-z] not exist" in r.err and r.err.count("\n") == 1, r.err
