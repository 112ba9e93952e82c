"""Export commands against our name server and development broker: the files they write.

``s35_exportMetadata`` is reproduced first, on a fresh broker brought to the recorded state (user
topics LoadTopic, T1, GoldenTopic; user groups GoldenGroup and CG1): stdout equals the Java ``.out``
and ``metadata.json`` equals the recorded file but for ``exportTime`` (the time of the run) and the
properties only the 5.3.3 beans have (the recorded file was written by the 4.9.8 tool; we write the
5.3.3 format: ``attributes`` of topics and groups, and ``consumeMessageOrderly``,
``consumeTimeoutMinute``, ``groupRetryPolicy``, ``groupSysFlag`` of groups, at their defaults).
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import pytest

from mqadmin.protocol.bodies.group import SubscriptionGroupConfig
from mqadmin.protocol.codes import RequestCode
from mqadmin.protocol.javacoll import properties_order
from tests.admin_topic_broker.servers import Cluster
from tests.broker.peers import cpp_start
from tests.captures import captures_dir
from tests.cli_harness import recorded_text, unwrap

S35 = "rocketmq-4.9.8/s35_exportMetadata"

_ONLY_533 = re.compile(
    r'^\t+"(?:attributes":\{\}|consumeMessageOrderly":false|consumeTimeoutMinute":15|groupSysFlag":0'
    r'|groupRetryPolicy":\{\n\t+"type":"CUSTOMIZED"\n\t+\}),\n',
    re.M,
)
_EXPORT_TIME = re.compile(r'"exportTime":\d+')


def as_498_file(text: str) -> str:
    """Our 5.3.3-format metadata without the 5.3.3-only properties at their defaults."""
    return _ONLY_533.sub("", text)


def create_group(c: Cluster, config: SubscriptionGroupConfig) -> None:
    async def go(admin) -> None:  # type: ignore[no-untyped-def]
        await admin.core.invoke(
            c.broker_addr, RequestCode.UPDATE_AND_CREATE_SUBSCRIPTIONGROUP, body=config.encode()
        )

    c.admin(go)


def keys_in_order(text: str) -> list[str]:
    return re.findall(r'^\t*"([^"]+)":', text, re.M)


@pytest.fixture(scope="module")
def s35_state(cluster: Cluster) -> Cluster:
    for name, queues in (("LoadTopic", "8"), ("T1", "8"), ("GoldenTopic", "4")):
        r = cluster.mqadmin("updateTopic", "-b", cluster.broker_addr, "-t", name, "-r", queues, "-w", queues)
        assert r.code == 0, r.err
    create_group(
        cluster,
        SubscriptionGroupConfig("GoldenGroup", consume_broadcast_enable=False, consume_from_min_enable=False),
    )
    create_group(cluster, SubscriptionGroupConfig("CG1"))
    return cluster


def test_s35_export_metadata_of_the_cluster(s35_state: Cluster, out_dir: Path) -> None:
    args, java_out = recorded_text(S35, namesrv=False)
    args = [str(out_dir) if a == "/tmp/export" else a for a in args]
    r = s35_state.mqadmin(*args)
    assert (r.code, r.err) == (0, "")
    assert r.out.replace(str(out_dir), "/tmp/export") == java_out
    ours = (out_dir / "metadata.json").read_text()
    java_file = (captures_dir() / f"{S35}.metadata.json").read_text()
    assert _EXPORT_TIME.sub('"exportTime":<now>', as_498_file(ours)) == _EXPORT_TIME.sub(
        '"exportTime":<now>', java_file
    )
    assert ours.count('"attributes":{}') == 5  # what the mask took away: 3 topics, 2 groups
    assert abs(json.loads(ours)["exportTime"] - time.time() * 1000) < 60_000
    assert [p.name for p in out_dir.iterdir()] == ["metadata.json"]  # no temporary file left behind


def test_export_metadata_of_one_broker(s35_state: Cluster, out_dir: Path) -> None:
    c = s35_state
    assert (
        c.mqadmin("updateTopic", "-b", c.broker_addr, "-t", "%RETRY%GoldenGroup", "-r", "1", "-w", "1").code
        == 0
    )

    r = c.mqadmin("exportMetadata", "-b", c.broker_addr, "-t", "-f", str(out_dir))
    assert (r.code, r.out) == (0, f"export {out_dir}/topic.json success")
    doc = json.loads((out_dir / "topic.json").read_text())
    assert sorted(doc["topicConfigTable"]) == ["GoldenTopic", "LoadTopic", "T1"]
    assert list(doc["dataVersion"]) == ["counter", "stateVersion", "timestamp"]
    wrapper = c.admin(lambda a: a.topics.get_all_topic_config(c.broker_addr))
    assert doc["dataVersion"]["counter"] == wrapper.data_version.counter
    assert doc["topicConfigTable"]["GoldenTopic"]["writeQueueNums"] == 4

    r = c.mqadmin("exportMetadata", "-b", c.broker_addr, "-t", "-s", "-f", str(out_dir), "--json")
    assert unwrap(json.loads(r.out)) == {
        "path": f"{out_dir}/topic.json",
        "topics": 4,
        "brokers": [{"addr": c.broker_addr}],
    }
    doc = json.loads((out_dir / "topic.json").read_text())
    assert "%RETRY%GoldenGroup" in doc["topicConfigTable"]

    r = c.mqadmin("exportMetadata", "-b", c.broker_addr, "-g", "-f", str(out_dir))
    assert (r.code, r.out) == (0, f"export {out_dir}/subscriptionGroup.json success")
    text = (out_dir / "subscriptionGroup.json").read_text()
    doc = json.loads(text)
    assert sorted(doc["subscriptionGroupTable"]) == ["CG1", "GoldenGroup"]
    golden = doc["subscriptionGroupTable"]["GoldenGroup"]
    assert (golden["consumeBroadcastEnable"], golden["consumeFromMinEnable"]) == (False, False)
    assert golden["groupRetryPolicy"] == {"type": "CUSTOMIZED"}
    assert not text.endswith("\n")

    r = c.mqadmin("exportMetadata", "-b", c.broker_addr, "-f", str(out_dir))
    assert (r.code, r.out) == (2, "") and r.err.count("\n") == 1

    r = c.mqadmin("exportMetadata", "-c", "DefaultCluster", "-g", "-f", str(out_dir))
    assert (r.code, r.out) == (0, f"export {out_dir}/subscriptionGroup.json success\n")
    doc = json.loads((out_dir / "subscriptionGroup.json").read_text())
    assert list(doc) == ["exportTime", "subscriptionGroupTable"]


_CONFIG_ORDER = [
    "brokerId", "traceOn", "flushDiskType", "msgTraceTopicName", "traceTopicEnable", "messageDelayLevel",
    "autoCreateTopicEnable", "brokerRole", "slaveReadEnable", "fileReservedTime", "brokerClusterName",
    "brokerName", "filterServerNums", "maxMessageSize", "useTLS", "autoCreateSubscriptionGroup",
]  # fmt: skip
"""The Java Properties order of the kept broker settings (cli_broker notes, §4.2)."""


def test_export_configs(cluster: Cluster, out_dir: Path) -> None:
    r = cluster.mqadmin("exportConfigs", "-c", "DefaultCluster", "-f", str(out_dir))
    assert (r.code, r.err, r.out) == (0, "", f"export {out_dir}/configs.json success")
    text = (out_dir / "configs.json").read_text()
    doc = json.loads(text)
    assert doc["clusterScale"] == {"namesrvSize": 1, "masterBrokerSize": 1, "slaveBrokerSize": 0}
    props = cluster.admin(lambda a: a.brokers.get_broker_config(cluster.broker_addr))
    kept = doc["brokerConfigs"]["broker-a"]
    assert kept == {k: props[k] for k in _CONFIG_ORDER}
    assert keys_in_order(text) == [
        "clusterScale", "namesrvSize", "slaveBrokerSize", "masterBrokerSize", "brokerConfigs", "broker-a",
        *_CONFIG_ORDER,
    ]  # fmt: skip
    from mqadmin.cli.commands.export import _CONFIG_KEYS

    assert properties_order(list(_CONFIG_KEYS)) == _CONFIG_ORDER
    assert text.startswith('{\n\t"clusterScale":{\n\t\t"namesrvSize":1,\n')

    r = cluster.mqadmin("exportConfigs", "-c", "NoSuchCluster", "-f", str(out_dir / "x"))
    assert (r.code, r.out) == (7, "") and not (out_dir / "x").exists()


def test_export_metrics_with_a_consumer_online(s35_state: Cluster, out_dir: Path) -> None:
    c = s35_state
    consumer = cpp_start("consume", c.ns_addr, "LoadTopic", "CG1", "--expect", "1000000", "--timeout", "20")
    try:
        deadline = time.monotonic() + 15
        clients = None
        while time.monotonic() < deadline:
            try:
                clients = c.admin(lambda a: a.brokers.fetch_consumer_client_versions("CG1"))
                break
            except Exception:
                time.sleep(0.2)
        assert clients, "the C++ consumer did not come online"
        r = c.mqadmin("exportMetrics", "-c", "DefaultCluster", "-f", str(out_dir))
    finally:
        consumer.terminate()
        consumer.wait(10)
    assert (r.code, r.err, r.out) == (0, "", f"export {out_dir}/metrics.json success")
    text = (out_dir / "metrics.json").read_text()
    doc = json.loads(text)
    broker = doc["evaluateReport"]["broker-a"]
    from mqadmin.protocol.version import version_name

    assert broker["runtimeVersion"] == {
        "rocketmqVersion": "V5_3_3",
        "clientInfo": sorted({f"{lang}%{version_name(v)}" for lang, v in clients}),
    }
    quota = broker["runtimeQuota"]
    assert (quota["topicSize"], quota["groupSize"]) == (3, 2)  # LoadTopic, T1, GoldenTopic; GoldenGroup, CG1
    table = c.admin(lambda a: a.broker.fetch_broker_runtime_stats(c.broker_addr))
    assert quota["diskRatio"]["commitLogDiskRatio"] == table["commitLogDiskRatio"]
    props = c.admin(lambda a: a.brokers.get_broker_config(c.broker_addr))
    assert broker["runtimeEnv"] == {"cpuNum": props["clientCallbackExecutorThreads"]}
    assert keys_in_order(text) == [
        "totalData", "totalOneDayNum", "transOneDayInNum", "scheduleOneDayInNum", "normalOneDayOutNum",
        "normalOneDayInNum", "totalTps", "totalScheduleInTps", "totalNormalInTps", "totalTransInTps",
        "totalNormalOutTps", "evaluateReport", "broker-a", "runtimeVersion", "rocketmqVersion", "clientInfo",
        "runtimeQuota", "diskRatio", "commitLogDiskRatio", "consumeQueueDiskRatio", "topicSize", "tps",
        "scheduleInTps", "normalInTps", "normalOutTps", "transInTps", "groupSize", "oneDayNum",
        "transOneDayInNum", "scheduleOneDayInNum", "normalOneDayOutNum", "normalOneDayInNum",
        "messageAverageSize", "runtimeEnv", "cpuNum",
    ]  # fmt: skip
    assert '"totalNormalInTps":0.0' in text or re.search(r'"totalNormalInTps":\d+\.\d', text)
