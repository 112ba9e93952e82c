"""Our stdout against the Java tool's recorded stdout, for every captured scenario of these commands.

Each scenario runs with the recorded arguments (the name server and broker addresses are ours) on
our name server and development broker, brought into the state the Java broker had (the same
topics, the same broker settings), in the order the scenarios were recorded. Then stdout must equal
the Java ``.out`` byte for byte after putting the recorded broker address back in place of ours and,
where the output holds live values, masking exactly those values:

- ``brokerStatus``: the values of the counters, rates, times and disk figures (and the store path in
  one key); the keys, their order, the layout and the fixed values are compared.
- ``getBrokerConfig``: the values of the settings that name a place on this machine (ports,
  paths, the name server list); every other key and value is compared.

The 4.9.8 scenarios (``s..``) were recorded with the 4.9.8 tool; we print what the 5.3.3 tool prints
(the reference release). Where those differ for the same state it is the release, not the state:
``updateTopic``'s ``TopicConfig`` line (``, attributes={}]`` and a final newline, see
:func:`as_533_topic_config`) and ``topicStatus``'s closing ``Topic Put TPS`` line. Those differences
are applied to the Java text, never to ours.

``v13_topicStatus`` is the 5.3.3 tool failing against a 4.9.8 broker (GET_TOPIC_CONFIG unsupported).
We do not fail: the same command through :class:`LegacyBrokerProxy` (a 4.x broker's answers) prints
what the 5.3.3 tool prints against a 5.x broker.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.admin_topic_broker.servers import (
    JAVA_BROKER,
    Cluster,
    LegacyBrokerProxy,
    as_533_topic_config,
    run,
)
from tests.cli.peers import register_broker, registration_frame
from tests.cli_harness import mask_settings, recorded_text
from tests.servers import NameServerProcess

V498 = "rocketmq-4.9.8"
V533 = "rocketmq-5.3.3"


@pytest.fixture(scope="module")
def java_like(tmp_path_factory: pytest.TempPathFactory, cli_env: dict[str, str]) -> Iterator[Cluster]:
    """Our broker with the settings the recorded Java broker had where they differ from the defaults."""
    root = tmp_path_factory.mktemp("java-like")
    store = root / "broker" / "store"
    c = Cluster(
        root,
        cli_env,
        fileReservedTime=48,
        mappedFileSizeConsumeQueue=600000,
        storePathCommitLog=store / "commitlog",
        rocketmqHome=root / "rocketmq-home",
    )
    try:
        yield c
    finally:
        c.stop()


def run_recorded(c: Cluster, scenario: str) -> tuple[str, str]:
    """(our stdout in the Java broker's address, the Java stdout) for a recorded scenario."""
    args, expected = recorded_text(scenario, namesrv=False)
    args = [a.replace(JAVA_BROKER, c.broker_addr) for a in args]
    r = c.mqadmin(*args)
    assert (r.code, r.err) == (0, ""), r.err
    return c.java_view(r.out), expected


# ------------------------------------------------------------------------------------- topics


def test_s03_update_topic(java_like: Cluster) -> None:
    ours, java = run_recorded(java_like, f"{V498}/s03_updateTopic")
    assert ours == as_533_topic_config(java)


def test_s05_topic_status(java_like: Cluster) -> None:
    """GoldenTopic as s03 left it: four empty queues."""
    ours, java = run_recorded(java_like, f"{V498}/s05_topicStatus")
    assert ours == java + "\nTopic Put TPS: 0.0\n"


def test_s25_update_topic_perm(java_like: Cluster) -> None:
    ours, java = run_recorded(java_like, f"{V498}/s25_updateTopicPerm")
    assert ours == java


def test_s26_update_topic_defaults(java_like: Cluster) -> None:
    ours, java = run_recorded(java_like, f"{V498}/s26_updateTopic2")
    assert ours == as_533_topic_config(java)


def test_s27_delete_topic(java_like: Cluster) -> None:
    ours, java = run_recorded(java_like, f"{V498}/s27_deleteTopic")
    assert ours == java


def test_v12_update_topic(java_like: Cluster) -> None:
    ours, java = run_recorded(java_like, f"{V533}/v12_updateTopic")
    assert ours == java


def test_v13_topic_status_of_a_4x_broker(java_like: Cluster, tmp_path: Path) -> None:
    """v13's command against a broker that refuses GET_TOPIC_CONFIG as 4.9.8 does: it works.

    A second name server holds the recorded 4.9.8 broker's full registration of the v12-v20 period
    (GoldenTopic5 included) under the proxy's address; the proxy forwards to our broker, which has
    GoldenTopic5 too (v12 made it).
    """
    proxy = LegacyBrokerProxy(java_like.broker_addr)
    ns = NameServerProcess(tmp_path / "namesrv-4x")
    try:
        register_broker(ns, registration_frame(f"{V533}/v18_getBrokerConfig", 9877), proxy.addr)
        args, java = recorded_text(f"{V533}/v13_topicStatus", namesrv=False)
        assert java == ""  # the Java 5.3.3 tool failed here: CODE: 3 request type 351 not supported
        r = run(java_like.env, args[0], "-n", ns.addr, *args[1:])
        assert (r.code, r.err) == (0, "")
        # the same four empty queues, as 4.9.8 printed them
        s05 = recorded_text(f"{V498}/s05_topicStatus", namesrv=False)[1]
        assert r.out == s05 + "\nTopic Put TPS: 0.0\n"
        assert 351 in proxy.seen and 21 in proxy.seen  # refused, then the older request
        assert proxy.seen.index(351) < proxy.seen.index(21)
    finally:
        ns.stop()
        proxy.stop()


def test_v21_delete_topic(java_like: Cluster) -> None:
    ours, java = run_recorded(java_like, f"{V533}/v21_deleteTopic")
    assert ours == java


# ------------------------------------------------------------------------------------- brokers

_LIVE_RUNTIME = frozenset(
    {
        "bootTimestamp",
        "commitLogDirCapacity",
        "commitLogDiskRatio",
        "commitLogMaxOffset",
        "commitLogMinOffset",
        "consumeQueueDiskRatio",
        "earliestMessageTimeStamp",
        "getFoundTps",
        "getMessageEntireTimeMax",
        "getMissTps",
        "getTotalTps",
        "getTransferedTps",
        "msgGetTotalTodayMorning",
        "msgGetTotalTodayNow",
        "msgGetTotalYesterdayMorning",
        "msgPutTotalTodayMorning",
        "msgPutTotalTodayNow",
        "msgPutTotalYesterdayMorning",
        "putMessageAverageSize",
        "putMessageDistributeTime",
        "putMessageEntireTimeMax",
        "putMessageSizeTotal",
        "putMessageTimesTotal",
        "putTps",
        "runtime",
    }
)
_RATIO_KEY = re.compile(r"^commitLogDiskRatio_/[^:\s]+")


def mask_runtime(text: str) -> str:
    out = []
    for line in text.splitlines(keepends=True):
        line = _RATIO_KEY.sub("commitLogDiskRatio_<store>/commitlog", line)
        key, sep, _ = line.partition(": ")
        if key.rstrip() in _LIVE_RUNTIME or key.startswith("commitLogDiskRatio_"):
            line = f"{key}{sep}<live>\n"
        out.append(line)
    return "".join(out)


@pytest.mark.parametrize("scenario", [f"{V498}/s06_brokerStatus", f"{V533}/v14_brokerStatus"])
def test_broker_status(java_like: Cluster, scenario: str) -> None:
    ours, java = run_recorded(java_like, scenario)
    assert mask_runtime(ours) == mask_runtime(java)
    assert mask_runtime(ours) != ours  # the mask found the live values where it expects them


_LOCAL_SETTINGS = frozenset(
    {"storePathRootDir", "storePathCommitLog", "rocketmqHome", "namesrvAddr", "listenPort", "haListenPort"}
)


def mask_config(text: str) -> str:
    return mask_settings(text, _LOCAL_SETTINGS, "<local>")


@pytest.mark.parametrize("scenario", [f"{V498}/s20_getBrokerConfig", f"{V533}/v18_getBrokerConfig"])
def test_get_broker_config(java_like: Cluster, scenario: str) -> None:
    ours, java = run_recorded(java_like, scenario)
    assert mask_config(ours) == mask_config(java)
    assert sum(line.endswith("<local>\n") for line in mask_config(ours).splitlines(keepends=True)) == 6


def test_s21_update_broker_config(java_like: Cluster) -> None:
    ours, java = run_recorded(java_like, f"{V498}/s21_updateBrokerConfig")
    assert ours == java
    props = java_like.admin(lambda a: a.brokers.get_broker_config(java_like.broker_addr))
    assert props["maxMessageSize"] == "4194304"
