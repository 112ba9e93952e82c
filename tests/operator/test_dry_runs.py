"""``--dry-run`` on the state-changing commands that lacked it: the plan in text and JSON (valid
against the command's published schema), and nothing changed on our real name server and broker."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.cli_harness import with_admin
from tests.operator.conftest import Operator, commit_offsets
from tests.operator.dryrun import planned

TOPIC = "PlannedOrders"
GROUP = "PlannedGroup"


def state(op: Operator) -> dict[str, Any]:
    """What the commands below could change: offsets, the topic's perm, a KV entry."""
    progress = json.loads(op.run("consumerProgress", "-g", GROUP, "-t", TOPIC, "--json").out)
    clone = op.run("consumerProgress", "-g", "CloneTarget", "-t", TOPIC, "--json")
    route = json.loads(op.run("topicRoute", "-t", TOPIC, "--json").out)

    async def kv(admin: Any) -> str | None:
        value: str | None = await admin.namesrv.get_kv_config("ORDER_TOPIC_CONFIG", "PlannedKey")
        return value

    config = json.loads(op.run("getNamesrvConfig", "--json").out)["nameServers"][0]["config"]
    return {
        "order": config.get("orderMessageEnable"),
        "offsets": {q["queueId"]: q["consumerOffset"] for q in progress["queues"]},
        "clone": clone.code,
        "perm": [q["perm"] for q in route["queueDatas"]],
        "route": route["queueDatas"],
        "group": op.run("getConsumerConfig", "-g", "NeverGroup").out,
        "kv": with_admin(op.ns, kv),
    }


@pytest.fixture(scope="module")
def prepared(op: Operator) -> Operator:
    op.topic(TOPIC, 2)
    assert op.run("produce", "-t", TOPIC, stdin=b"".join(b"m%d\n" % i for i in range(20))).code == 0
    commit_offsets(op.ns, op.broker, GROUP, TOPIC, {0: 2, 1: 3})  # lag left on both queues
    kv = op.run("updateKvConfig", "-s", "ORDER_TOPIC_CONFIG", "-k", "PlannedKey", "-v", "broker-a:2")
    assert kv.code == 0, kv.err
    return op


CASES = {
    "skipAccumulatedMessage": ["-g", GROUP, "-t", TOPIC],
    "cloneGroupOffset": ["-s", GROUP, "-d", "CloneTarget", "-t", TOPIC],
    "updateTopicPerm": ["-c", "DefaultCluster", "-t", TOPIC, "-p", "4"],
    "deleteKvConfig": ["-s", "ORDER_TOPIC_CONFIG", "-k", "PlannedKey"],
    "deleteAclConfig": ["-c", "DefaultCluster", "-a", "someAccount"],
    "electMaster": ["-a", "{ns}", "-b", "1", "--brokerName", "broker-a", "-c", "DefaultCluster"],
    "cleanBrokerMetadata": ["-a", "{ns}", "--brokerName", "broker-a", "-c", "DefaultCluster"],
    "deleteExpiredCommitLog": ["-c", "DefaultCluster"],
    "updateKvConfig": ["-s", "ORDER_TOPIC_CONFIG", "-k", "PlannedKey", "-v", "broker-a:8"],
    "updateNamesrvConfig": ["-k", "orderMessageEnable", "-v", "true"],
    "updateOrderConf": ["-t", "PlannedKey", "-m", "delete"],
    "updateTopic": ["-c", "DefaultCluster", "-t", TOPIC, "-r", "1", "-w", "1"],
    "updateSubGroup": ["-c", "DefaultCluster", "-g", "NeverGroup", "-r", "3"],
}


@pytest.mark.parametrize("command", list(CASES))
def test_a_dry_run_plans_and_changes_nothing(prepared: Operator, command: str) -> None:
    op = prepared
    args = [a.format(ns=op.ns) for a in CASES[command]]
    before = state(op)
    doc = planned(op.run, op.env, command, args)[2]
    if "plan" in doc:
        assert doc["dryRun"] is True and doc["plan"], doc
    else:  # the offset commands show their plan as the reset table, queue by queue
        assert doc["mode"] == "dryRun" and doc["queues"], doc
    assert state(op) == before


def test_the_plans_say_what_would_change(prepared: Operator) -> None:
    op = prepared
    skip = op.run("skipAccumulatedMessage", "-g", GROUP, "-t", TOPIC, "--dry-run", "--json")
    rows = json.loads(skip.out)["queues"]
    assert sorted((r["consumerOffset"], r["resetOffset"] == r["brokerOffset"]) for r in rows) == [
        (2, True),
        (3, True),
    ]
    perm = op.run("updateTopicPerm", "-c", "DefaultCluster", "-t", TOPIC, "-p", "4", "--dry-run")
    assert f"broker {op.broker}: perm RW- -> R--" in perm.out
    shrink = op.run("updateTopic", "-c", "DefaultCluster", "-t", TOPIC, "-r", "1", "-w", "1", "--dry-run")
    assert "readQueueNums 2 -> 1 (fewer queues), writeQueueNums 2 -> 1 (fewer queues)" in shrink.out
    new = op.run("updateTopic", "-b", op.broker, "-t", "NeverMade", "-r", "2", "-w", "2", "--dry-run")
    assert f"broker {op.broker}: create topic NeverMade (2 read/2 write queues, RW-)" in new.out
    assert op.run("topicRoute", "-t", "NeverMade").code == 7
    clone = json.loads(
        op.run("cloneGroupOffset", "-s", GROUP, "-d", "CloneTarget", "-t", TOPIC, "--dry-run", "--json").out
    )
    assert sorted(q["offset"] for q in clone["queues"] if q["topic"] == TOPIC) == [2, 3]
    # without --dry-run and without a terminal, the Java behaviour: it acts at once
    assert op.run("updateTopicPerm", "-c", "DefaultCluster", "-t", TOPIC, "-p", "4").code == 0
    assert set(state(op)["perm"]) == {4}


def test_write_perm_is_planned_then_changed(prepared: Operator) -> None:
    """wipeWritePerm and addWritePerm: the dry run says what each name server would do and leaves
    the routes as they are; the run itself changes them (the name server's view, until the broker
    registers again)."""
    op = prepared
    op.topic("PermOrders", 1)

    def perms() -> list[int]:
        route = json.loads(op.run("topicRoute", "-t", "PermOrders", "--json").out)
        return [q["perm"] for q in route["queueDatas"]]

    assert perms() == [6]
    text, _, doc = planned(op.run, op.env, "wipeWritePerm", ["-b", "broker-a"])
    assert "remove the write permission of broker broker-a from every topic route" in text.out
    assert [s["addr"] for s in doc["plan"]] == [op.ns] and perms() == [6]
    assert op.run("wipeWritePerm", "-b", "broker-a").code == 0
    assert perms() == [4]
    text, _, doc = planned(op.run, op.env, "addWritePerm", ["-b", "broker-a"])
    assert "give broker broker-a back the write permission on every topic route" in text.out
    assert perms() == [4]
    nobody = planned(op.run, op.env, "addWritePerm", ["-b", "broker-nobody"])[0]
    assert "broker broker-nobody is not registered: nothing to change" in nobody.out
    assert op.run("addWritePerm", "-b", "broker-a").code == 0
    assert perms() == [6]
