"""Topic commands against our name server and development broker: what they print and what they did.

Each test changes state with ``mqadmin`` and then looks at the broker (GET_ALL_TOPIC_CONFIG) and the
name server (route, KV store) itself, with the admin API from the test process.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from mqadmin.admin.topics import ORDER_TOPIC_CONFIG
from mqadmin.remoting.errors import RemoteCommandError
from tests.admin_topic_broker.servers import Cluster
from tests.broker.peers import cpp


def expect(doc: dict[str, Any], c: Cluster) -> dict[str, Any]:
    """``doc`` as the JSON contract writes it: apiVersion first, each broker item named."""
    from mqadmin.cli.output import document, identify

    who = {c.broker_addr: {"cluster": "DefaultCluster", "brokerName": "broker-a", "brokerId": 0}}
    return document(identify(doc, who))  # type: ignore[no-any-return]


def broker_topics(c: Cluster) -> dict:
    return c.admin(lambda a: a.topics.get_all_topic_config(c.broker_addr)).topic_config_table


def route_of(c: Cluster, topic: str):  # type: ignore[no-untyped-def]
    return c.admin(lambda a: a.namesrv.examine_topic_route_info(topic))


def no_route(c: Cluster, topic: str) -> bool:
    try:
        route_of(c, topic)
    except RemoteCommandError as e:
        return e.code == 17
    return False


def one_error_line(err: str) -> bool:
    return err.count("\n") == 1 and err.endswith("\n")


# ------------------------------------------------------------------------------------- updateTopic


def test_update_topic_on_the_cluster_masters(cluster: Cluster) -> None:
    r = cluster.mqadmin("updateTopic", "-c", "DefaultCluster", "-t", "CreatedByCluster", "-r", "4", "-w", "6")
    assert (r.code, r.err) == (0, "")
    assert r.out == (
        f"create topic to {cluster.broker_addr} success.\n"
        "TopicConfig [topicName=CreatedByCluster, readQueueNums=4, writeQueueNums=6, perm=RW-, "
        "topicFilterType=SINGLE_TAG, topicSysFlag=0, order=false, attributes={}]\n"
    )
    tc = broker_topics(cluster)["CreatedByCluster"]
    assert (tc.read_queue_nums, tc.write_queue_nums, tc.perm) == (4, 6, 6)
    [qd] = route_of(cluster, "CreatedByCluster").queue_datas
    assert (qd.broker_name, qd.read_queue_nums, qd.write_queue_nums, qd.perm) == ("broker-a", 4, 6, 6)


def test_update_topic_on_one_broker_with_order_unit_and_attributes(cluster: Cluster) -> None:
    addr = cluster.broker_addr
    r = cluster.mqadmin(
        "updateTopic", "-b", addr, "-t", "OrderedTopic", "-w", "3", "-r", "3",
        "-o", "true", "-u", "true", "-s", "true", "-a", "+message.type=FIFO",
    )  # fmt: skip
    assert (r.code, r.err) == (0, "")
    assert r.out == (
        "set broker orderConf. isOrder=true, orderConf=[broker-a:3]\n"
        f"create topic to {addr} success.\n"
        "TopicConfig [topicName=OrderedTopic, readQueueNums=3, writeQueueNums=3, perm=RW-, "
        "topicFilterType=SINGLE_TAG, topicSysFlag=3, order=true, attributes={+message.type=FIFO}]\n"
    )
    tc = broker_topics(cluster)["OrderedTopic"]
    assert (tc.write_queue_nums, tc.topic_sys_flag) == (3, 3)
    kv = cluster.admin(lambda a: a.namesrv.get_kv_config(ORDER_TOPIC_CONFIG, "OrderedTopic"))
    assert kv == "broker-a:3"  # (routes carry it only where the name server has orderMessageEnable)


def test_update_topic_cluster_order_conf_and_json(cluster: Cluster) -> None:
    r = cluster.mqadmin(
        "updateTopic", "-c", "DefaultCluster", "-t", "OrderedByCluster", "-o", "true", "--json"
    )
    assert (r.code, r.err) == (0, "")
    doc = json.loads(r.out)
    assert doc == expect(
        {
            "topicConfig": {
                "topicName": "OrderedByCluster",
                "readQueueNums": 8,
                "writeQueueNums": 8,
                "perm": 6,
                "topicFilterType": "SINGLE_TAG",
                "topicSysFlag": 0,
                "order": True,
                "attributes": {},
            },
            "brokers": [{"addr": cluster.broker_addr, "ok": True}],
            "orderConf": "broker-a:8",
        },
        cluster,
    )
    assert (
        cluster.admin(lambda a: a.namesrv.get_kv_config(ORDER_TOPIC_CONFIG, "OrderedByCluster"))
        == "broker-a:8"
    )


def test_update_topic_bad_input(cluster: Cluster) -> None:
    before = set(broker_topics(cluster))
    cases = [
        (("-c", "DefaultCluster", "-t", "Bad1", "-r", "x"), 2, "-r takes a whole number"),
        (("-c", "DefaultCluster", "-t", "Bad2", "-p", "9"), 2, "topicPermission value: 9 is invalid."),
        (("-c", "DefaultCluster", "-t", "Bad3", "-a", "k=v"), 2, "add/alter attribute format is wrong"),
        (("-c", "NoSuchCluster", "-t", "Bad4"), 7, "cluster 'NoSuchCluster' not found"),
        (("-b", cluster.broker_addr, "-c", "DefaultCluster", "-t", "Bad5"), 2, "has already been selected"),
        (("-t", "Bad6"), 2, "Missing required option"),
    ]
    for args, code, text in cases:
        r = cluster.mqadmin("updateTopic", *args)
        assert r.code == code, (args, r.err)
        assert r.out == ""
        assert text in r.err, r.err
        if code != 2:
            assert one_error_line(r.err), r.err
    assert set(broker_topics(cluster)) == before


# ------------------------------------------------------------------------------------- updateTopicList


def test_update_topic_list_from_a_file(cluster: Cluster, tmp_path: Path) -> None:
    path = tmp_path / "topics.json"
    path.write_text(
        json.dumps(
            [
                {"topicName": "ListedA", "readQueueNums": 2, "writeQueueNums": 2, "perm": 6},
                {"topicName": "ListedB", "readQueueNums": 5, "writeQueueNums": 5, "perm": 4, "order": False},
            ]
        )
    )
    r = cluster.mqadmin("updateTopicList", "-b", cluster.broker_addr, "-f", str(path))
    assert (r.code, r.err) == (0, "")
    assert r.out == (
        f"submit batch of topic config to {cluster.broker_addr} success, please check the result later.\n"
    )
    table = broker_topics(cluster)
    assert (table["ListedA"].write_queue_nums, table["ListedB"].write_queue_nums) == (2, 5)
    assert table["ListedB"].perm == 4
    assert route_of(cluster, "ListedB").queue_datas[0].perm == 4

    path.write_text(json.dumps([{"topicName": "ListedC", "readQueueNums": 1, "writeQueueNums": 1}]))
    r = cluster.mqadmin("updateTopicList", "-c", "DefaultCluster", "-f", str(path), "--json")
    assert r.code == 0, r.err
    assert json.loads(r.out) == expect(
        {
            "topics": ["ListedC"],
            "brokers": [{"addr": cluster.broker_addr, "ok": True}],
        },
        cluster,
    )
    assert "ListedC" in broker_topics(cluster)

    r = cluster.mqadmin("updateTopicList", "-b", cluster.broker_addr, "-f", str(tmp_path / "missing.json"))
    assert (r.code, r.out) == (1, "")
    assert one_error_line(r.err) and "does not exist" in r.err


# ------------------------------------------------------------------------------------- deleteTopic


def test_delete_topic_from_brokers_and_name_servers(cluster: Cluster) -> None:
    assert cluster.mqadmin("updateTopic", "-c", "DefaultCluster", "-t", "Doomed").code == 0
    assert "Doomed" in broker_topics(cluster)
    r = cluster.mqadmin("deleteTopic", "-c", "DefaultCluster", "-t", "Doomed", "--json")
    assert (r.code, r.err) == (0, "")
    assert json.loads(r.out) == expect(
        {
            "topic": "Doomed",
            "cluster": "DefaultCluster",
            "brokers": [{"addr": cluster.broker_addr, "ok": True}],
            "nameServers": [{"addr": cluster.ns_addr, "ok": True}],
        },
        cluster,
    )
    assert "Doomed" not in broker_topics(cluster)
    assert no_route(cluster, "Doomed")

    r = cluster.mqadmin("deleteTopic", "-c", "NoSuchCluster", "-t", "Doomed")
    assert (r.code, r.out) == (7, "") and one_error_line(r.err)


# ------------------------------------------------------------------------------------- updateTopicPerm


def test_update_topic_perm(cluster: Cluster) -> None:
    addr = cluster.broker_addr
    assert cluster.mqadmin("updateTopic", "-b", addr, "-t", "PermTopic", "-r", "2", "-w", "2").code == 0

    r = cluster.mqadmin("updateTopicPerm", "-b", addr, "-t", "PermTopic", "-p", "4")
    assert (r.code, r.err) == (0, "")
    assert r.out == (
        f"update topic perm from 6 to 4 in {addr} success.\n"
        "TopicConfig [topicName=PermTopic, readQueueNums=2, writeQueueNums=2, perm=R--, "
        "topicFilterType=SINGLE_TAG, topicSysFlag=0, order=false, attributes={}].\n"
    )
    assert broker_topics(cluster)["PermTopic"].perm == 4
    assert route_of(cluster, "PermTopic").queue_datas[0].perm == 4

    r = cluster.mqadmin("updateTopicPerm", "-b", addr, "-t", "PermTopic", "-p", "4")
    assert (r.code, r.out) == (0, "new perm equals to the old one!\n")

    r = cluster.mqadmin("updateTopicPerm", "-c", "DefaultCluster", "-t", "PermTopic", "-p", "2")
    assert (r.code, r.out) == (0, f"update topic perm from 4 to 2 in {addr} success.\n")
    tc = broker_topics(cluster)["PermTopic"]
    assert (tc.perm, tc.read_queue_nums, tc.write_queue_nums) == (2, 2, 2)

    for args, code in (
        (("-b", "127.0.0.1:1", "-t", "PermTopic", "-p", "6"), 1),  # not a master of the route
        (("-t", "PermTopic", "-p", "6"), 2),  # neither -b nor -c
        (("-c", "DefaultCluster", "-t", "PermTopic", "-p", "x"), 2),
    ):
        r = cluster.mqadmin("updateTopicPerm", *args)
        assert (r.code, r.out) == (code, ""), (args, r.err)
        assert one_error_line(r.err)
    assert broker_topics(cluster)["PermTopic"].perm == 2


# ------------------------------------------------------------------------------------- topicStatus

_ROW = re.compile(r"^broker-a {26}(\d) {5}(\d+) +(\d+) +(\d{4}-.*)?$")


def test_topic_status_after_sending(cluster: Cluster) -> None:
    assert (
        cluster.mqadmin("updateTopic", "-c", "DefaultCluster", "-t", "StatusTopic", "-r", "4", "-w", "4").code
        == 0
    )
    events = cpp("produce", cluster.ns_addr, "StatusTopic", "5")
    assert events[-1]["sent"] == 5
    r = cluster.mqadmin("topicStatus", "-t", "StatusTopic")
    assert (r.code, r.err) == (0, "")
    lines = r.out.split("\n")
    assert (
        lines[0] == f"{'#Broker Name':<32}  #QID  {'#Min Offset':<20}  {'#Max Offset':<20}    #Last Updated"
    )
    assert lines[-3:] == ["", "Topic Put TPS: 0.0", ""]
    rows = [_ROW.match(x) for x in lines[1:5]]
    assert all(rows), r.out
    assert [int(m.group(1)) for m in rows if m] == [0, 1, 2, 3]
    assert sum(int(m.group(3)) for m in rows if m) == 5
    for m in rows:
        assert m is not None
        stamp = m.group(4) or ""
        assert (stamp == "") == (m.group(3) == "0")
        if stamp:
            assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3}", stamp)
    # -c: the stats of the brokers on the cluster's route, without GET_TOPIC_CONFIG
    by_cluster = cluster.mqadmin("topicStatus", "-t", "StatusTopic", "-c", "DefaultCluster")
    assert (by_cluster.code, by_cluster.out) == (0, r.out)

    doc = json.loads(cluster.mqadmin("topicStatus", "-t", "StatusTopic", "--json").out)
    assert doc["topic"] == "StatusTopic" and doc["putTps"] == 0.0
    assert sum(q["maxOffset"] for q in doc["queues"]) == 5
    assert [q["queueId"] for q in doc["queues"]] == [0, 1, 2, 3]

    missing = cluster.mqadmin("topicStatus", "-t", "NoSuchTopic")
    assert (missing.code, missing.out) == (7, "") and "CODE: 17" in missing.err


# ------------------------------------------------------------------------------------- updateOrderConf


def test_update_order_conf_put_get_delete(cluster: Cluster) -> None:
    def kv() -> str | None:
        return cluster.admin(lambda a: a.namesrv.get_kv_config(ORDER_TOPIC_CONFIG, "ConfTopic"))

    r = cluster.mqadmin("updateOrderConf", "-t", "ConfTopic", "-m", "put", "-v", "broker-a:4;broker-b:4")
    assert (r.code, r.out) == (
        0,
        "update orderConf success. topic=[ConfTopic], orderConf=[broker-a:4;broker-b:4]",
    )
    assert kv() == "broker-a:4;broker-b:4"

    r = cluster.mqadmin("updateOrderConf", "-t", "ConfTopic", "-m", "get")
    assert (r.code, r.out) == (
        0,
        "get orderConf success. topic=[ConfTopic], orderConf=[broker-a:4;broker-b:4] ",
    )
    r = cluster.mqadmin("updateOrderConf", "-t", "ConfTopic", "-m", "get", "--json")
    assert json.loads(r.out) == expect(
        {"topic": "ConfTopic", "method": "get", "orderConf": "broker-a:4;broker-b:4"}, cluster
    )

    r = cluster.mqadmin("updateOrderConf", "-t", "ConfTopic", "-m", "delete")
    assert (r.code, r.out) == (0, "delete orderConf success. topic=[ConfTopic]")
    assert kv() is None

    r = cluster.mqadmin("updateOrderConf", "-t", "ConfTopic", "-m", "get")
    assert (r.code, r.out) == (3, "") and one_error_line(r.err)
    for args in (("-m", "put"), ("-m", "list")):
        r = cluster.mqadmin("updateOrderConf", "-t", "ConfTopic", *args)
        assert (r.code, r.out) == (2, "") and one_error_line(r.err)
