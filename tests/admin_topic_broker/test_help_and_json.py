"""The Java help text of every command here, and ``--json`` output that parses, in its documented shape."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mqadmin.cli.registry import BY_NAME
from tests.admin_topic_broker.servers import Cluster, run
from tests.cli.java_help_ref import REFERENCE as JAVA_HELP

# The Java 5.3.3 ``mqadmin help CMD`` output of the topic, broker and export commands.
REFERENCE = {
    name: JAVA_HELP[name]
    for name in (
        "updateTopic",
        "updateTopicList",
        "deleteTopic",
        "updateTopicPerm",
        "topicStatus",
        "updateOrderConf",
        "updateBrokerConfig",
        "brokerStatus",
        "cleanExpiredCQ",
        "deleteExpiredCommitLog",
        "cleanUnusedTopic",
        "getBrokerConfig",
        "exportMetadata",
        "exportConfigs",
        "exportMetrics",
    )
}


@pytest.mark.parametrize("name", sorted(REFERENCE))
def test_help_is_the_java_help(cli_env: dict[str, str], name: str) -> None:
    r = run(cli_env, name, "-h")
    assert r.code == 0
    assert r.out.startswith(REFERENCE[name]), r.out
    assert BY_NAME[name].java and BY_NAME[name].module in (
        "topic_admin",
        "broker_admin",
        "broker_info",
        "export",
    )


def test_json_doc_for_every_command() -> None:
    from mqadmin.cli.docmodel import load_command

    for name in REFERENCE:
        cmd = load_command(BY_NAME[name])
        assert cmd.json_doc.startswith("{"), name  # type: ignore[attr-defined]


def test_json_outputs(cluster: Cluster, tmp_path: Path) -> None:
    """Every command once with --json: a JSON document with the keys its json_doc names."""
    b, out = cluster.broker_addr, str(tmp_path)
    assert cluster.mqadmin("updateTopic", "-b", b, "-t", "JsonTopic", "-r", "2", "-w", "2").code == 0
    runs = {
        ("updateTopicPerm", "-b", b, "-t", "JsonTopic", "-p", "4"): {
            "topic", "perm", "changed", "brokers", "topicConfig",
        },
        ("updateTopicPerm", "-c", "DefaultCluster", "-t", "JsonTopic", "-p", "6"): {
            "topic", "perm", "changed", "brokers",
        },
        ("updateOrderConf", "-t", "JsonTopic", "-m", "put", "-v", "broker-a:2"): {
            "topic", "method", "orderConf", "nameServers",
        },
        ("updateOrderConf", "-t", "JsonTopic", "-m", "delete"): {"topic", "method", "nameServers"},
        ("brokerStatus", "-c", "DefaultCluster"): {"brokers"},
        ("getBrokerConfig", "-b", b): {"brokers"},
        ("exportMetadata", "-c", "DefaultCluster", "-f", out): {"path", "topics", "groups", "brokers"},
        ("exportMetadata", "-b", b, "-g", "-f", out): {"path", "groups", "brokers"},
        ("exportConfigs", "-c", "DefaultCluster", "-f", out): {"path", "clusterScale", "brokers"},
        ("exportMetrics", "-c", "DefaultCluster", "-f", out): {
            "path", "brokers", "totalTps", "totalOneDayNum",
        },
    }  # fmt: skip
    for args, keys in runs.items():
        r = cluster.mqadmin(*args, "--json")
        assert (r.code, r.err) == (0, ""), args
        doc = json.loads(r.out)
        assert set(doc) == keys | {"apiVersion"}, (args, doc)
    perm = json.loads(cluster.mqadmin("updateTopicPerm", "-b", b, "-t", "JsonTopic", "-p", "2", "--json").out)
    assert (
        perm["brokers"]
        == [
            {
                "cluster": "DefaultCluster",
                "brokerName": "broker-a",
                "brokerId": 0,
                "addr": b,
                "oldPerm": 6,
                "ok": True,
            }
        ]
        and perm["changed"] is True
    )
    assert perm["topicConfig"]["perm"] == 2


def test_json_error_document(cluster: Cluster) -> None:
    r = cluster.mqadmin("topicStatus", "-t", "NoSuchTopic", "--json")
    assert r.code == 7
    err = json.loads(r.out)["error"]
    assert (err["kind"], err["code"], err["exitCode"]) == ("remote", 17, 7)
