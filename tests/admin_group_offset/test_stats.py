"""brokerConsumeStats, statsAll and consumerProgress on a group with a backlog, and the 5.x request
GET_TOPIC_CONFIG (351) that 4.x brokers refuse: consumer stats work against such a broker."""

from __future__ import annotations

import asyncio

import pytest

from mqadmin.admin.api import MQAdmin
from mqadmin.admin.settings import AdminSettings
from mqadmin.admin.static_stats import convert_static_consume_stats, mapping_details
from mqadmin.protocol.bodies.consume_stats import ConsumeStats, OffsetWrapper
from mqadmin.protocol.bodies.message_queue import MessageQueue
from mqadmin.protocol.bodies.route import BrokerData, TopicRouteData
from mqadmin.protocol.bodies.static_topic import LogicQueueMappingItem, TopicQueueMappingDetail
from mqadmin.protocol.command import RemotingCommand
from tests.admin_group_offset.servers import Cluster
from tests.broker.peers import call
from tests.cli.peers import RecordedBroker

TOPIC = "StatsTopic"
GROUP = "StatsCG"
BACKLOG = 5


@pytest.fixture(scope="module")
def backlog(cluster: Cluster) -> Cluster:
    """StatsCG consumed 4 messages of StatsTopic, then 5 more were sent: a backlog of 5."""
    cluster.create_topic(TOPIC, 2)
    cluster.produce(TOPIC, 4)
    cluster.consume(TOPIC, GROUP, 4)
    cluster.produce(TOPIC, BACKLOG)
    return cluster


def test_broker_consume_stats_rows_and_threshold(backlog: Cluster) -> None:
    r = backlog.mqadmin("brokerConsumeStats", "-b", backlog.addr)
    assert (r.code, r.err) == (0, "")
    lines = r.out.split("\n")
    assert lines[0].split() == [
        "#Topic", "#Group", "#Broker", "Name", "#QID", "#Broker", "Offset", "#Consumer", "Offset", "#Diff",
        "#LastTime",
    ]  # fmt: skip
    rows = [line.split() for line in lines[1:] if line.startswith(TOPIC)]
    assert [row[3] for row in rows] == ["0", "1"]  # queues sorted
    assert sum(int(row[6]) for row in rows) == BACKLOG
    for row in rows:
        assert (row[1], row[2]) == (GROUP, "broker-a")
        assert int(row[4]) - int(row[5]) == int(row[6]) and int(row[4]) == backlog.max_offset(
            TOPIC, int(row[3])
        )
    assert lines[-3:] == ["", f"Diff Total: {BACKLOG}", ""]

    high = max(int(row[6]) for row in rows)
    r = backlog.mqadmin(
        "brokerConsumeStats", "-b", backlog.addr, "-l", str(high), "-t", "3000", "-o", "false"
    )
    assert [line.split()[6] for line in r.out.split("\n") if line.startswith(TOPIC)] == [str(high)]
    doc = backlog.json("brokerConsumeStats", "-b", backlog.addr)
    assert doc["diffTotal"] == BACKLOG and {q["group"] for q in doc["queues"]} == {GROUP}
    r = backlog.mqadmin("brokerConsumeStats", "-b", backlog.addr, "-l", "much")
    assert (r.code, r.out) == (2, "")


def test_stats_all_shows_the_backlog(backlog: Cluster) -> None:
    r = backlog.mqadmin("statsAll", "-t", TOPIC)
    assert (r.code, r.err) == (0, "")
    header, row, end = r.out.split("\n")
    assert header.split() == [
        "#Topic", "#Consumer", "Group", "#Accumulation", "#InTPS", "#OutTPS", "#InMsg24Hour", "#OutMsg24Hour",
    ]  # fmt: skip
    assert row.split()[:3] == [TOPIC, GROUP, str(BACKLOG)] and end == ""
    doc = backlog.json("statsAll")
    mine = [x for x in doc["rows"] if x["topic"] == TOPIC]
    assert mine == [
        {
            "topic": TOPIC,
            "group": GROUP,
            "accumulation": BACKLOG,
            "putTps": mine[0]["putTps"],
            "consumeTps": mine[0]["consumeTps"],
            "inMsg24Hour": mine[0]["inMsg24Hour"],
            "outMsg24Hour": mine[0]["outMsg24Hour"],
        }
    ]
    assert not any(x["topic"].startswith(("%RETRY%", "%DLQ%")) for x in doc["rows"])
    active = backlog.json("statsAll", "-a")
    assert all(x["inMsg24Hour"] > 0 or (x["outMsg24Hour"] or 0) > 0 for x in active["rows"])


def test_consumer_progress_with_backlog(backlog: Cluster) -> None:
    r = backlog.mqadmin("consumerProgress", "-g", GROUP, "-t", TOPIC, "-c", "DefaultCluster")
    assert (r.code, r.err) == (0, "")
    assert f"Consume Diff Total: {BACKLOG}\n" in r.out
    doc = backlog.json("consumerProgress", "-g", GROUP)
    queues = [q for q in doc["queues"] if q["topic"] == TOPIC]
    assert sum(q["diff"] for q in queues) == BACKLOG and doc["diffTotal"] == BACKLOG
    assert all(q["brokerOffset"] == backlog.max_offset(TOPIC, q["queueId"]) for q in queues)


def test_consumer_progress_keeps_queues_of_a_topic_without_route(backlog: Cluster) -> None:
    """Java 5.3.3 fails when a queue's topic has no route any more; the queues are shown instead."""
    backlog.create_topic("GoneTopic", 1)
    backlog.commit(GROUP, "GoneTopic", 0, 0)
    assert call(backlog.namesrv, RemotingCommand.request(216, {"topic": "GoneTopic"})).code == 0
    assert not backlog.in_route("GoneTopic")
    doc = backlog.json("consumerProgress", "-g", GROUP)
    assert "GoneTopic" in {q["topic"] for q in doc["queues"]}


def test_topic_config_unknown_to_a_4x_broker_means_no_static_mapping() -> None:
    """GET_TOPIC_CONFIG (351) to a broker that answers REQUEST_CODE_NOT_SUPPORTED, as 4.9.8 does (v13)."""
    old_broker = RecordedBroker([])  # answers every request with code 3, " request type N not supported"

    async def go() -> list[TopicQueueMappingDetail]:
        async with MQAdmin(AdminSettings(namesrv_addrs=("127.0.0.1:1",))) as admin:
            route = TopicRouteData(broker_datas=[BrokerData("c", "broker-a", {0: old_broker.addr})])
            return await mapping_details(admin.core, "T", route)

    try:
        assert asyncio.run(go()) == []
        assert [cmd.code for cmd in old_broker.requests] == [351]
    finally:
        old_broker.stop()


def test_static_topic_queues_become_logical_ones() -> None:
    """``convertPhysicalConsumeStats``: logical queue 0 moved from broker-a queue 0 to broker-b queue 1."""
    items = [
        LogicQueueMappingItem(
            gen=0, queue_id=0, bname="broker-a", logic_offset=0, start_offset=0, end_offset=10
        ),
        LogicQueueMappingItem(gen=1, queue_id=1, bname="broker-b", logic_offset=10, start_offset=3),
    ]
    detail = TopicQueueMappingDetail(
        topic="S", total_queues=1, bname="broker-b", epoch=2, hosted_queues={0: items}
    )
    physical = ConsumeStats(
        {
            MessageQueue("S", "broker-a", 0): OffsetWrapper(10, 10, 5),
            MessageQueue("S", "broker-b", 1): OffsetWrapper(8, 6, 7),
        }
    )
    out = convert_static_consume_stats([detail], physical)
    assert out == {MessageQueue("S", "__syslo__global__", 0): OffsetWrapper(15, 6, 7)}
