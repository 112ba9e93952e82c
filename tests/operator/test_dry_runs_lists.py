"""``--dry-run`` on the batch and static-topic commands (updateTopicList, updateSubGroupList,
updateStaticTopic, remappingStaticTopic) and the cold-read thresholds: the plan in text and JSON
(valid against the command's published schema), nothing changed on our real name server and two
brokers behaving as 5.3.3 (static topics and cold-read thresholds are a 5.x broker's), and the real
run, without a terminal, changing what the plan said."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from mqadmin.protocol.staticmapping import leader_id_map
from tests import servers
from tests.cli.test_safe_destructive import on_pty
from tests.cli_harness import clean_env, with_admin
from tests.operator.conftest import Operator
from tests.operator.dryrun import planned

CLUSTER = "DefaultCluster"
V5 = "5.3.3"


@pytest.fixture(scope="module")
def op(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Operator]:
    root = tmp_path_factory.mktemp("dry-lists")
    brokers = {name: {"brokerName": f"broker-{name}", "rocketmqVersion": V5} for name in "ab"}
    cluster = servers.Cluster(root / "cluster", brokers)
    try:
        env = clean_env(root / "home", root / "config")
        env["NAMESRV_ADDR"] = cluster.ns_addr
        yield Operator(cluster, env)
    finally:
        cluster.stop()


@pytest.fixture(scope="module")
def files(op: Operator, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The batch files, and what the plans change from: a topic of 4 queues, a group with 3 retries,
    a cold-read threshold of 2048 bytes, a static topic of 4 queues on both brokers."""
    op.topic("ListOld", 4)
    done = [
        op.run("updateSubGroup", "-c", CLUSTER, "-g", "ListGroupOld", "-r", "3"),
        op.run("updateColdDataFlowCtrGroupConfig", "-c", CLUSTER, "-g", "ColdOld", "-v", "2048"),
        op.run("updateStaticTopic", "-c", CLUSTER, "-t", "StaticR", "-qn", "4"),
    ]
    assert all(r.code == 0 for r in done), [r.err for r in done]
    folder = tmp_path_factory.mktemp("batches")
    topics, groups = folder / "topics.json", folder / "groups.json"
    topics.write_text(
        json.dumps(
            [
                {"topicName": "ListNew", "readQueueNums": 2, "writeQueueNums": 2, "perm": 6},
                {"topicName": "ListOld", "readQueueNums": 2, "writeQueueNums": 2, "perm": 6},
            ]
        )
    )
    groups.write_text(
        json.dumps([{"groupName": "ListGroupNew"}, {"groupName": "ListGroupOld", "retryMaxTimes": 5}])
    )
    return {"topics": topics, "groups": groups}


def state(op: Operator) -> dict[str, Any]:
    """What the commands below could change, read from the brokers themselves, and the plan files."""

    async def read(admin: Any) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for addr in (b.addr for b in op.cluster.brokers):
            topics = (await admin.topics.get_all_topic_config(addr)).topic_config_table or {}
            groups = (await admin.groups.get_all_subscription_group(addr)).subscription_group_table or {}
            out[addr] = {
                "topics": {t: (c.read_queue_nums, c.write_queue_nums, c.perm) for t, c in topics.items()},
                "groups": {g: c.retry_max_times for g, c in groups.items()},
                "cold": await admin.cold_data.get_cold_data_flow_ctr_info(addr),
            }
        for topic in ("StaticR", "StaticNew"):
            mapped = await admin.static_topics.examine_topic_config_all(topic)
            out[topic] = {
                b: (cm.mapping_detail.epoch, leader_id_map(cm.mapping_detail))
                for b, cm in mapped.items()
                if cm.mapping_detail is not None
            }
        return out

    return {**with_admin(op.ns, read), "planFiles": sorted(os.listdir(op.env["TMPDIR"]))}


CASES = {
    "updateTopicList": ["-c", CLUSTER, "-f", "{topics}"],
    "updateSubGroupList": ["-c", CLUSTER, "-f", "{groups}"],
    "updateStaticTopic": ["-c", CLUSTER, "-t", "StaticNew", "-qn", "4"],
    "remappingStaticTopic": ["-b", "broker-a", "-t", "StaticR"],
    "updateColdDataFlowCtrGroupConfig": ["-c", CLUSTER, "-g", "ColdNew", "-v", "1024"],
    "removeColdDataFlowCtrGroupConfig": ["-c", CLUSTER, "-g", "ColdOld"],
}


def args_of(command: str, files: dict[str, Path]) -> list[str]:
    return [a.format(**{k: str(v) for k, v in files.items()}) for a in CASES[command]]


@pytest.mark.parametrize("command", list(CASES))
def test_a_dry_run_plans_and_changes_nothing(op: Operator, files: dict[str, Path], command: str) -> None:
    args = args_of(command, files)
    before = state(op)
    doc = planned(op.run, op.env, command, args)[2]
    assert doc["dryRun"] is True and doc["plan"], doc
    assert all(b.get("ok") is None for b in doc["brokers"]), doc  # not asked
    assert state(op) == before


def test_the_plans_say_what_would_change(op: Operator, files: dict[str, Path]) -> None:
    a, b = (x.addr for x in op.cluster.brokers)
    topics = op.run("updateTopicList", *args_of("updateTopicList", files), "--dry-run").out
    for addr in (a, b):
        assert f"broker {addr}: create topic ListNew (2 read/2 write queues, RW-)" in topics
        want = (
            "update topic ListOld: readQueueNums 4 -> 2 (fewer queues), writeQueueNums 4 -> 2 (fewer queues)"
        )
        assert f"broker {addr}: {want}" in topics
    groups = op.run("updateSubGroupList", *args_of("updateSubGroupList", files), "--dry-run").out
    assert f"broker {a}: create subscription group ListGroupNew" in groups
    assert "update subscription group ListGroupOld: " in groups and "retryMaxTimes 3 -> 5" in groups
    cold = op.run(
        "updateColdDataFlowCtrGroupConfig", *args_of("updateColdDataFlowCtrGroupConfig", files), "--dry-run"
    )
    assert f"broker {a}: threshold of ColdNew: not set -> 1024 bytes" in cold.out
    gone = json.loads(
        op.run("removeColdDataFlowCtrGroupConfig", "-b", a, "-g", "ColdNever", "--dry-run", "--json").out
    )
    assert [(s["addr"], s["changes"]) for s in gone["plan"]] == [(a, False)]
    remap = json.loads(
        op.run("remappingStaticTopic", *args_of("remappingStaticTopic", files), "--dry-run", "--json").out
    )
    assert (remap["brokerToMapIn"], remap["brokerToMapOut"]) == (["broker-a"], ["broker-b"])
    leads = {x["brokerName"]: sorted(x["leaderOf"]) for x in remap["brokers"]}
    assert leads == {"broker-a": ["0", "1", "2", "3"], "broker-b": []}
    assert "oldMappingFile" not in remap and "newMappingFile" not in remap


def test_bad_input_is_a_usage_error_before_anything_is_sent(op: Operator, files: dict[str, Path]) -> None:
    before = state(op)
    for args in (
        ["updateColdDataFlowCtrGroupConfig", "-c", CLUSTER, "-g", "ColdNew", "-v", "-1"],
        ["updateStaticTopic", "-c", CLUSTER, "-t", "StaticNew", "-qn", "0"],
        ["updateTopicList", "-f", str(files["topics"])],
    ):
        r = op.run(*args, "--dry-run")
        assert (r.code, r.out) == (2, ""), (args, r.err)
    assert state(op) == before


def test_without_a_terminal_each_command_acts_at_once(op: Operator, files: dict[str, Path]) -> None:
    a, b = (x.addr for x in op.cluster.brokers)
    for command in CASES:
        r = op.run(command, *args_of(command, files))
        assert r.code == 0 and "Go ahead?" not in r.out + r.err, (command, r.err)
    now = state(op)
    for addr in (a, b):
        assert now[addr]["topics"]["ListNew"] == (2, 2, 6) and now[addr]["topics"]["ListOld"][:2] == (2, 2)
        assert now[addr]["groups"]["ListGroupOld"] == 5 and "ListGroupNew" in now[addr]["groups"]
        table = json.loads(now[addr]["cold"])["configTable"]
        assert table.get("ColdNew") == 1024 and "ColdOld" not in table
    assert sorted(now["StaticNew"]) == ["broker-a", "broker-b"]
    assert leader_id_map_sizes(now["StaticR"]) == {"broker-a": 4, "broker-b": 0}
    assert now["planFiles"]  # the real runs write Java's plan files


def leader_id_map_sizes(mapped: dict[str, tuple[int, dict[int, int]]]) -> dict[str, int]:
    return {broker: len(leads) for broker, (_, leads) in mapped.items()}


def test_a_terminal_is_asked_and_a_no_changes_nothing(op: Operator, tmp_path: Path) -> None:
    batch = tmp_path / "asked.json"
    batch.write_text(json.dumps([{"groupName": "AskedGroup"}]))
    args = ["updateSubGroupList", "-c", CLUSTER, "-f", str(batch)]
    before = state(op)
    code, screen = on_pty(args, op.env, "n")
    assert code == 1, screen
    assert f"broker {op.broker}: create subscription group AskedGroup" in screen
    assert "nothing was changed (not confirmed" in screen and state(op) == before
    code, screen = on_pty(args, op.env, "y")
    assert code == 0 and "Go ahead? [y/N]" in screen, screen
    assert "AskedGroup" in state(op)[op.broker]["groups"]
    code, screen = on_pty(
        ["removeColdDataFlowCtrGroupConfig", "-c", CLUSTER, "-g", "ColdNew", "--yes"], op.env, None
    )
    assert code == 0 and "Go ahead?" not in screen, screen
    assert "ColdNew" not in json.loads(state(op)[op.broker]["cold"])["configTable"]


def test_a_static_topic_plan_refused_on_a_terminal_writes_no_broker(op: Operator) -> None:
    args = ["updateStaticTopic", "-c", CLUSTER, "-t", "StaticAsked", "-qn", "2"]
    code, screen = on_pty(args, op.env, "n")
    assert code == 1, screen
    assert (
        "create static topic StaticAsked on broker-a: 1 read/1 write queues, leads logical queues" in screen
    )
    assert "nothing was changed (not confirmed" in screen
    assert "The new mapping data is written to file" in screen  # the plan files Java writes first

    async def mapped(admin: Any) -> dict[str, Any]:
        found: dict[str, Any] = await admin.static_topics.examine_topic_config_all("StaticAsked")
        return found

    assert with_admin(op.ns, mapped) == {}
