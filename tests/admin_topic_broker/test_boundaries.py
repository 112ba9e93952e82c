"""Topic and broker commands refuse bad names and numbers before any request: one line, exit 2.

Issue 11, reproducer 11 (``updateTopic -r -5 -w -5`` and ``-r 99999999`` created the topic) and the
command side of reproducer 6 (a config value on two lines). Each refusal is checked twice: against
an address where nothing listens (a request would end in exit 4, not 2, so none was made), and
against our name server and broker, whose topic table, routes and config stay as they were.
"""

from __future__ import annotations

import json
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from mqadmin.remoting.errors import RemoteCommandError
from tests.admin_topic_broker.servers import Cluster, run

NOWHERE = "127.0.0.1:1"

REFUSED = [
    # reproducer 11
    (["updateTopic", "-b", "{b}", "-t", "Neg", "-r", "-5", "-w", "-5"], "readQueueNums -5 is out of range"),
    (["updateTopic", "-c", "DefaultCluster", "-t", "Huge", "-r", "99999999"], "readQueueNums 99999999"),
    (["updateTopic", "-b", "{b}", "-t", "Zero", "-w", "0"], "writeQueueNums 0 is out of range"),
    (["updateTopic", "-b", "{b}", "-t", "Big", "-r", "2147483648"], "-r takes a whole number"),
    (["updateTopic", "-b", "{b}", "-t", "Perm", "-p", "8"], "topicPermission value: 8 is invalid."),
    (["updateTopic", "-b", "{b}", "-t", "a/b"], "illegal characters"),
    (["updateTopic", "-b", "{b}", "-t", "T" * 128], "longer than topic max length"),
    (["updateTopic", "-b", "{b}", "-t", "Mixed", "-a", "+message.type=MIXED"], "MIXED message type"),
    (["deleteTopic", "-c", "DefaultCluster", "-t", "../../x"], "illegal characters"),
    (["updateTopicPerm", "-b", "{b}", "-t", "T1", "-p", "9"], "topicPermission value: 9 is invalid."),
    (["updateTopicPerm", "-c", "DefaultCluster", "-t", "T1", "-p", "rw"], "-p takes a whole number"),
    (["updateTopicPerm", "-b", "{b}", "-t", "a\tb", "-p", "6"], "illegal characters"),
    (["updateOrderConf", "-t", "T1", "-m", "put", "-v", "broker-a:x"], "NumberFormatException"),
    (["updateOrderConf", "-t", "T1", "-m", "put", "-v", "broker-a"], "is not name:num"),
    (["updateOrderConf", "-t", "T1", "-m", "put", "-v", "a/b:4"], "not a valid file name"),
    (["updateOrderConf", "-t", "T1", "-m", "put", "-v", "broker-a:0"], "out of range"),
    (["updateOrderConf", "-t", "a b", "-m", "get"], "illegal characters"),
    # reproducer 6, command side: the value would reach a Java broker as two lines
    (
        ["updateBrokerConfig", "-b", "{b}", "-k", "msgTraceTopicName", "-v", "X\nconfigBlackList=nothing"],
        "contains a line break",
    ),
    (["updateBrokerConfig", "-c", "DefaultCluster", "-k", "a=b", "-v", "1"], "is not a property name"),
    (["updateBrokerConfig", "-b", "{b}", "-k", "brokerPermission", "-v", "x"], "brokerPermission value"),
    (["clusterList", "-i", "1.5"], "-i takes a whole number"),
    # cluster names and topics looked up before anything else
    (["clusterList", "-c", "a/b"], "the cluster name [a/b] is not a valid file name"),
    (["brokerStatus", "-c", "../c"], "is not a valid file name"),
    (["cleanUnusedTopic", "-c", "a\tb"], "the cluster name contains a control character"),
    (["updateTopic", "-c", "a/b", "-t", "T1"], "is not a valid file name"),
    (["updateTopicPerm", "-c", "a/b", "-t", "T1", "-p", "6"], "is not a valid file name"),
    (["getBrokerConfig", "-c", "a/b"], "is not a valid file name"),
    (["topicClusterList", "-t", "a/b"], "path separator"),
]


async def _route(admin: Any, topic: str) -> Any:
    return await admin.namesrv.examine_topic_route_info(topic)


def _args(args: list[str], broker: str) -> list[str]:
    return [a.replace("{b}", broker) for a in args]


@pytest.mark.parametrize(("args", "text"), REFUSED, ids=[" ".join(a[:1] + a[-2:]) for a, _ in REFUSED])
def test_refused_before_any_request(cli_env: dict[str, str], args: list[str], text: str) -> None:
    r = run(cli_env, args[0], "-n", NOWHERE, *_args(args[1:], NOWHERE))
    assert (r.code, r.out) == (2, ""), r.err
    assert r.err.count("\n") == 1 and r.err.startswith(f"mqadmin {args[0]}: ") and text in r.err, r.err


def test_refused_changes_nothing_on_our_servers(cluster: Cluster, tmp_path: Path) -> None:
    def topics() -> dict:
        return (
            cluster.admin(lambda a: a.topics.get_all_topic_config(cluster.broker_addr)).topic_config_table
            or {}
        )

    def config() -> dict[str, str]:
        return cluster.admin(lambda a: a.brokers.get_broker_config(cluster.broker_addr))

    r = cluster.mqadmin("updateTopic", "-b", cluster.broker_addr, "-t", "T1", "-r", "2", "-w", "2")
    assert r.code == 0, r.err
    table, settings = topics(), config()
    for args, text in REFUSED:
        r = cluster.mqadmin(*_args(args, cluster.broker_addr))
        assert (r.code, r.out) == (2, "") and text in r.err, (args, r.err)
    batch = tmp_path / "topics.json"
    batch.write_text(json.dumps([{"topicName": "ListBad", "readQueueNums": -5, "writeQueueNums": 4}]))
    r = cluster.mqadmin("updateTopicList", "-b", cluster.broker_addr, "-f", str(batch))
    assert (r.code, r.out) == (2, "") and "readQueueNums -5" in r.err, r.err

    assert topics() == table and config() == settings
    for topic in ("Neg", "Huge", "Zero", "Perm", "ListBad"):
        with pytest.raises(RemoteCommandError):
            cluster.admin(partial(_route, topic=topic))
    # the same commands with good values still work
    r = cluster.mqadmin("updateTopic", "-c", "DefaultCluster", "-t", "Fine", "-r", "1024", "-w", "1")
    assert r.code == 0, r.err
    assert (topics()["Fine"].read_queue_nums, topics()["T1"].perm) == (1024, 6)
