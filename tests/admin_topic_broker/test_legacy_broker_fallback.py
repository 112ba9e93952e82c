"""The 5.x requests a 4.x broker refuses, and the older requests asked instead (admin layer and CLI).

The 4.x broker is :class:`LegacyBrokerProxy` in front of our development broker: it answers
GET_TOPIC_CONFIG (351) and UPDATE_AND_CREATE_TOPIC_LIST (18) as a 4.9.8 broker does (code 3, remark
``" request type 351 not supported"``, as recorded in v13) and forwards everything else. Our
development broker answers 351 like a 5.x broker and cannot be told not to, so the proxy stands in
for the older broker here; the Java 5.3.3 tool fails at this point (v13_topicStatus).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from mqadmin.protocol.bodies.topic import TopicConfig
from tests.admin_topic_broker.servers import Cluster, LegacyBrokerProxy


@pytest.fixture(scope="module")
def proxy(cluster: Cluster) -> Iterator[LegacyBrokerProxy]:
    p = LegacyBrokerProxy(cluster.broker_addr)
    try:
        yield p
    finally:
        p.stop()


def test_topic_config_falls_back_to_all_topic_configs(cluster: Cluster, proxy: LegacyBrokerProxy) -> None:
    assert (
        cluster.mqadmin(
            "updateTopic", "-c", "DefaultCluster", "-t", "FallbackTopic", "-r", "3", "-w", "5"
        ).code
        == 0
    )
    proxy.seen.clear()

    async def twice(admin):  # type: ignore[no-untyped-def]
        first = await admin.topics.examine_topic_config(proxy.addr, "FallbackTopic")
        missing = await admin.topics.examine_topic_config(proxy.addr, "NoSuchTopic")
        direct = await admin.topics.examine_topic_config(cluster.broker_addr, "FallbackTopic")
        return first, missing, direct

    first, missing, direct = cluster.admin(twice)
    assert isinstance(first, TopicConfig)
    assert (first.topic_name, first.read_queue_nums, first.write_queue_nums) == ("FallbackTopic", 3, 5)
    assert missing is None
    assert (direct.read_queue_nums, direct.write_queue_nums) == (3, 5)  # the 5.x way, on our broker
    # 351 refused once; after that this client asks that broker the older way only
    assert proxy.seen == [351, 21, 21]


def test_topic_config_from_route_tolerates_missing_topics(cluster: Cluster, proxy: LegacyBrokerProxy) -> None:
    async def go(admin):  # type: ignore[no-untyped-def]
        route = await admin.namesrv.examine_topic_route_info("FallbackTopic")
        route.broker_datas[0].broker_addrs = {0: proxy.addr}
        found = await admin.topics.examine_topic_config_from_route("FallbackTopic", route)
        none = await admin.topics.examine_topic_config_from_route("NotThere", route)
        stats = await admin.topics.examine_topic_stats("FallbackTopic", route)
        return found, none, stats

    found, none, stats = cluster.admin(go)
    assert list(found) == ["broker-a"] and found["broker-a"].write_queue_nums == 5
    assert none == {}
    assert sorted(mq.queue_id for mq in stats.offset_table) == [0, 1, 2, 3, 4]


def test_topic_list_falls_back_to_one_request_per_topic(
    cluster: Cluster, proxy: LegacyBrokerProxy, tmp_path: Path
) -> None:
    path = tmp_path / "topics.json"
    path.write_text(
        json.dumps([{"topicName": f"Batch{i}", "readQueueNums": 2, "writeQueueNums": 2} for i in range(3)])
    )
    proxy.seen.clear()
    r = cluster.mqadmin("updateTopicList", "-b", proxy.addr, "-f", str(path))
    assert (r.code, r.err) == (0, "")
    assert r.out == f"submit batch of topic config to {proxy.addr} success, please check the result later.\n"
    assert proxy.seen == [18, 17, 17, 17]
    table = cluster.admin(lambda a: a.topics.get_all_topic_config(cluster.broker_addr)).topic_config_table
    assert all(table[f"Batch{i}"].write_queue_nums == 2 for i in range(3))
