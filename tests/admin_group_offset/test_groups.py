"""updateSubGroup, updateSubGroupList, deleteSubGroup and getConsumerConfig on our broker: the effect
on the broker's group table and offsets, the JSON shapes, and bad input."""

from __future__ import annotations

import json
from pathlib import Path

from tests.admin_group_offset.servers import Cluster


def named(c: Cluster) -> dict[str, object]:
    """How the JSON contract names our broker in a ``brokers`` list."""
    return {"cluster": "DefaultCluster", "brokerName": "broker-a", "brokerId": 0, "addr": c.addr}


def test_update_sub_group_sets_every_option(cluster: Cluster) -> None:
    policy = '{"type":"EXPONENTIAL","exponentialRetryPolicy":{"initial":1000,"max":60000,"multiplier":3}}'
    r = cluster.mqadmin(
        "updateSubGroup", "-b", cluster.addr, "-g", "G1", "-s", "false", "-m", "true", "-d", "true",
        "-o", "true", "-q", "2", "-r", "5", "-p", policy, "-i", "1", "-w", "0", "-a", "false",
        "--attributes", "+k=v",
    )  # fmt: skip
    assert (r.code, r.err) == (0, "")
    assert r.out.startswith(
        f"create subscription group to {cluster.addr} success.\nSubscriptionGroupConfig{{"
    )
    assert not r.out.endswith("\n")  # as Java: printf("%s", config)
    assert (
        "groupRetryPolicy=GroupRetryPolicy{type=EXPONENTIAL, exponentialRetryPolicy=ExponentialRetryPolicy"
        "{initial=1000, max=60000, multiplier=3}, customizedRetryPolicy=null}" in r.out
    )
    assert "consumeMessageOrderly=true" in r.out and "attributes={+k=v}" in r.out
    g = cluster.groups_on_broker()["G1"]  # the development broker keeps a group as a 4.x broker does
    assert g["consumeEnable"] is False and g["consumeFromMinEnable"] is True
    assert g["consumeBroadcastEnable"] is True and g["notifyConsumerIdsChangedEnable"] is False
    assert (g["retryQueueNums"], g["retryMaxTimes"], g["brokerId"], g["whichBrokerWhenConsumeSlowly"]) == (
        2,
        5,
        1,
        0,
    )


def test_update_sub_group_json(cluster: Cluster) -> None:
    doc = cluster.json("updateSubGroup", "-c", "DefaultCluster", "-g", "G2", "-r", "3")
    assert doc["brokers"] == [{**named(cluster), "ok": True}]
    assert doc["config"]["groupName"] == "G2" and doc["config"]["retryMaxTimes"] == 3
    assert cluster.groups_on_broker()["G2"]["retryMaxTimes"] == 3


def test_update_sub_group_bad_input(cluster: Cluster) -> None:
    r = cluster.mqadmin("updateSubGroup", "-b", cluster.addr, "-g", "Gbad", "-q", "two")
    assert (r.code, r.out) == (2, "") and r.err.count("\n") == 1 and "-q" in r.err
    r = cluster.mqadmin("updateSubGroup", "-c", "NoSuchCluster", "-g", "Gbad")
    assert (r.code, r.out) == (7, "") and r.err.count("\n") == 1 and "NoSuchCluster" in r.err
    r = cluster.mqadmin("updateSubGroup", "-g", "Gbad")
    assert (r.code, r.out) == (2, "") and "-b" in r.err
    r = cluster.mqadmin("updateSubGroup", "-b", cluster.addr, "-g", "Gbad", "-p", "{not json")
    assert r.code == 2 and r.err.count("\n") == 1
    assert "Gbad" not in cluster.groups_on_broker()


def test_update_sub_group_list_falls_back_to_one_request_per_group(cluster: Cluster, tmp_path: Path) -> None:
    """Our broker, as a 4.x one, has no UPDATE_AND_CREATE_SUBSCRIPTIONGROUP_LIST (225)."""
    f = tmp_path / "groups.json"
    f.write_text(json.dumps([{"groupName": "GL1"}, {"groupName": "GL2", "retryMaxTimes": 7}]))
    r = cluster.mqadmin("updateSubGroupList", "-b", cluster.addr, "-f", str(f))
    assert (r.code, r.err) == (0, "")
    assert (
        r.out == f"submit batch of group config to {cluster.addr} success, please check the result later.\n"
    )
    groups = cluster.groups_on_broker()
    assert groups["GL2"]["retryMaxTimes"] == 7 and groups["GL1"]["consumeBroadcastEnable"] is True

    f.write_text(json.dumps([{"groupName": "GL3"}]))
    doc = cluster.json("updateSubGroupList", "-c", "DefaultCluster", "-f", str(f))
    brokers = [{**named(cluster), "ok": True, "batch": False}]
    assert doc == {"apiVersion": "mqadmin/v1", "groups": ["GL3"], "brokers": brokers}
    assert "GL3" in cluster.groups_on_broker()

    r = cluster.mqadmin("updateSubGroupList", "-b", cluster.addr, "-f", str(tmp_path / "missing.json"))
    assert (r.code, r.out) == (1, "") and "does not exists" in r.err


def test_delete_sub_group_by_broker_with_and_without_offsets(cluster: Cluster) -> None:
    cluster.create_topic("DT", 2)
    for group in ("GD1", "GD2"):
        assert cluster.mqadmin("updateSubGroup", "-b", cluster.addr, "-g", group).code == 0
        cluster.commit(group, "DT", 0, 0)
        cluster.commit(group, "DT", 1, 0)
    r = cluster.mqadmin("deleteSubGroup", "-b", cluster.addr, "-g", "GD1", "-r", "true")
    assert (r.code, r.err) == (0, "")
    assert r.out == f"delete subscription group [GD1] from broker [{cluster.addr}] success.\n"
    assert "GD1" not in cluster.groups_on_broker()
    assert cluster.committed("GD1", "DT", 0) == -1  # offsets removed

    doc = cluster.json("deleteSubGroup", "-b", cluster.addr, "-g", "GD2")
    assert doc == {
        "apiVersion": "mqadmin/v1",
        "group": "GD2",
        "cluster": None,
        "brokers": [{**named(cluster), "ok": True}],
        "topicsDeleted": [],
    }
    assert "GD2" not in cluster.groups_on_broker()
    assert cluster.committed("GD2", "DT", 0) == 0  # offsets kept without -r true


def test_delete_sub_group_by_cluster_json(cluster: Cluster) -> None:
    assert cluster.mqadmin("updateSubGroup", "-b", cluster.addr, "-g", "GD3").code == 0
    doc = cluster.json("deleteSubGroup", "-c", "DefaultCluster", "-g", "GD3")
    assert doc["cluster"] == "DefaultCluster" and doc["topicsDeleted"] == ["%RETRY%GD3", "%DLQ%GD3"]
    assert "GD3" not in cluster.groups_on_broker()


def test_get_consumer_config(cluster: Cluster) -> None:
    assert cluster.mqadmin("updateSubGroup", "-b", cluster.addr, "-g", "GC", "-r", "4").code == 0
    r = cluster.mqadmin("getConsumerConfig", "-g", "GC")
    assert (r.code, r.err) == (0, "")
    lines = r.out.splitlines()
    assert lines[0] == "=" * 29 + "DefaultCluster:broker-a" + "=" * 29
    assert f"{'retryMaxTimes':<40}=  4" in lines and len(lines) == 16
    doc = cluster.json("getConsumerConfig", "-g", "GC")
    assert doc["brokers"][0]["addr"] == cluster.addr and doc["brokers"][0]["cluster"] == "DefaultCluster"
    assert doc["brokers"][0]["config"]["retryMaxTimes"] == 4

    r = cluster.mqadmin("getConsumerConfig", "-g", "NoSuchGroup")
    assert (r.code, r.out) == (7, "") and "NoSuchGroup" in r.err and r.err.count("\n") == 1
