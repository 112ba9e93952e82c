"""consumerProgress as a check (unknown group, --max-lag, --stuck-after) and the fan-out commands with
one of two brokers frozen (SIGSTOP): partial data, exit 6, each failure said once.

Our name server and two of our brokers (``broker-a``, ``broker-b`` in ``DefaultCluster``) run as
processes; the installed ``mqadmin`` is run against them as a subprocess.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.admin_group_offset.servers import Cluster
from tests.cli_harness import MQADMIN
from tests.servers import BrokerProcess

TOPIC = "Orders"
GROUP = "BillingGroup"
IDLE_GROUP = "IdleGroup"  # created, never consumed


class TwoBrokers(Cluster):
    other: BrokerProcess


@pytest.fixture(scope="module")
def two(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TwoBrokers]:
    root = tmp_path_factory.mktemp("two-brokers")
    c = TwoBrokers(root)
    try:
        c.other = c.add_broker("broker-b", brokerName="broker-b")
        deadline = time.monotonic() + 20
        while "broker-b" not in c.mqadmin("clusterList").out:  # registered with the name server
            assert time.monotonic() < deadline, "broker-b did not register"
            time.sleep(0.2)
        for args in (
            ["updateTopic", "-c", "DefaultCluster", "-t", TOPIC, "-r", "2", "-w", "2"],
            ["updateSubGroup", "-c", "DefaultCluster", "-g", GROUP],
            ["updateSubGroup", "-c", "DefaultCluster", "-g", IDLE_GROUP],
            # the retry topics a consumer's heartbeat would create: how consumerProgress lists groups
            ["updateTopic", "-c", "DefaultCluster", "-t", f"%RETRY%{GROUP}", "-r", "1", "-w", "1"],
            ["updateTopic", "-c", "DefaultCluster", "-t", f"%RETRY%{IDLE_GROUP}", "-r", "1", "-w", "1"],
        ):
            r = c.mqadmin(*args)
            assert r.code == 0, r.err
        for i in range(6):  # three messages on each queue of broker-a
            r = c.mqadmin(
                "sendMessage", "-t", TOPIC, "-p", f"m{i}", "-k", f"key{i}", "-b", "broker-a", "-i", str(i % 2)
            )
            assert r.code == 0, r.err
        c.commit(GROUP, TOPIC, 0, 3)  # queue 0 consumed, queue 1 not: lag 3
        yield c
    finally:
        c.stop()  # broker-b too


def one_line(err: str, command: str) -> str:
    assert err.count("\n") == 1, err
    assert err.startswith(f"mqadmin {command}: "), err
    return err


# ------------------------------------------------------------------------------------ unknown group


def test_unknown_group_is_not_found(two: TwoBrokers) -> None:
    for extra in (["-t", TOPIC], []):
        r = two.mqadmin("consumerProgress", "-g", "NoSuchGroup", *extra)
        assert (r.code, r.out) == (7, ""), (extra, r.err)
        assert "no broker knows the consumer group NoSuchGroup" in one_line(r.err, "consumerProgress")
    j = two.mqadmin("consumerProgress", "-g", "NoSuchGroup", "-t", TOPIC, "--json")
    assert j.code == 7 and json.loads(j.out)["error"]["exitCode"] == 7


def test_known_groups_still_show_their_lag(two: TwoBrokers) -> None:
    idle = two.mqadmin("consumerProgress", "-g", IDLE_GROUP, "-t", TOPIC)
    assert idle.code == 0, idle.err
    assert "Consume Diff Total: 6" in idle.out  # a created group that never consumed: all is lag
    r = two.json("consumerProgress", "-g", GROUP, "-t", TOPIC)
    assert r["diffTotal"] == 3 and "alerts" not in r


# ------------------------------------------------------------------------------------------- alerts


def test_max_lag_trips_and_clears(two: TwoBrokers) -> None:
    ok = two.mqadmin("consumerProgress", "-g", GROUP, "-t", TOPIC, "--max-lag", "3")
    assert (ok.code, ok.err) == (0, "")
    over = two.mqadmin("consumerProgress", "-g", GROUP, "-t", TOPIC, "--max-lag", "2")
    assert over.code == 8
    assert "Consume Diff Total: 3" in over.out  # the usual output is still printed
    assert "ALERT: group BillingGroup has 3 messages not consumed, more than --max-lag 2" in one_line(
        over.err, "consumerProgress"
    )
    doc = two.json("consumerProgress", "-g", GROUP, "-t", TOPIC, "--max-lag", "3")
    assert doc["alerts"] == []
    j = two.mqadmin("consumerProgress", "-g", GROUP, "-t", TOPIC, "--max-lag", "2", "--json")
    doc = json.loads(j.out)
    assert doc["alerts"] == ["group BillingGroup has 3 messages not consumed, more than --max-lag 2"]
    # every group at once (without -g): the idle group has no offset, so no topic and no lag (as Java)
    every = two.mqadmin("consumerProgress", "--max-lag", "2")
    assert every.code == 8 and "group BillingGroup has 3" in one_line(every.err, "consumerProgress")
    two.commit(GROUP, TOPIC, 1, 3)  # consumed: the alarm clears
    try:
        cleared = two.mqadmin("consumerProgress", "-g", GROUP, "-t", TOPIC, "--max-lag", "2")
        assert (cleared.code, cleared.err) == (0, "")
    finally:
        two.commit(GROUP, TOPIC, 1, 0)


def test_stuck_after(two: TwoBrokers) -> None:
    # queue 1 has messages waiting and its committed offset does not move while the command watches
    r = two.mqadmin("consumerProgress", "-g", GROUP, "-t", TOPIC, "--stuck-after", "2")
    assert r.code == 8 and "is stuck on 1 queue(s) (Orders@broker-a#1)" in one_line(r.err, "consumerProgress")
    bad = two.mqadmin("consumerProgress", "-g", GROUP, "--max-lag", "-1")
    assert bad.code == 2 and "--max-lag" in one_line(bad.err, "consumerProgress")


# ----------------------------------------------------------------------------------- frozen broker


@pytest.fixture
def frozen(two: TwoBrokers) -> Iterator[TwoBrokers]:
    proc = two.other.proc
    assert proc is not None
    os.kill(proc.pid, signal.SIGSTOP)
    try:
        yield two
    finally:
        os.kill(proc.pid, signal.SIGCONT)


def test_frozen_broker_gives_partial_data_everywhere(frozen: TwoBrokers) -> None:
    b = frozen.other.addr
    started = time.monotonic()
    status = frozen.mqadmin("topicStatus", "-t", TOPIC, "--timeout", "0.5")
    assert status.code == 6, status.err
    assert b in one_line(status.err, "topicStatus") and "within 0.5 s" in status.err
    rows = [line.split() for line in status.out.splitlines()[1:] if line.strip() and "TPS" not in line]
    assert {(r[0], r[1]) for r in rows} == {("broker-a", "0"), ("broker-a", "1")}

    progress = frozen.mqadmin("consumerProgress", "-g", GROUP, "-t", TOPIC, "--timeout", "0.5")
    assert progress.code == 6, progress.err
    assert b in one_line(progress.err, "consumerProgress")
    assert "Consume Diff Total: 3" in progress.out and "broker-b" not in progress.out
    j = frozen.mqadmin("consumerProgress", "-g", GROUP, "-t", TOPIC, "--timeout", "0.5", "--json")
    doc = json.loads(j.out)
    assert doc["diffTotal"] == 3 and doc["errors"][0]["addr"] == b

    every = frozen.mqadmin("consumerProgress", "--timeout", "0.5")
    assert every.code == 6 and one_line(every.err, "consumerProgress")  # one line for all the groups
    assert GROUP in every.out

    listing = frozen.mqadmin("topicList", "-c", "--timeout", "0.5")
    assert listing.code == 6
    assert b in one_line(listing.err, "topicList")  # each error once, not once per topic
    orders = [line.split() for line in listing.out.splitlines() if f" {TOPIC} " in f" {line} "]
    assert orders and all(r[0] == "DefaultCluster" for r in orders)  # cluster kept
    assert GROUP in {r[-1] for r in orders}  # groups answered by the healthy broker

    cluster = frozen.mqadmin("clusterList", "--timeout", "0.5")
    assert cluster.code == 6 and b in one_line(cluster.err, "clusterList")
    assert time.monotonic() - started < 40


FAN_OUT = {  # every command that asks all the brokers of the cluster, read-only first
    "clusterList": [],
    "topicList": ["-c"],
    "topicStatus": ["-t", TOPIC],
    "consumerProgress": ["-g", GROUP, "-t", TOPIC],
    "brokerStatus": ["-c", "DefaultCluster"],
    "getBrokerConfig": ["-c", "DefaultCluster"],
    "getConsumerConfig": ["-g", GROUP],
    "statsAll": [],
    "exportConfigs": ["-c", "DefaultCluster", "-f", "{tmp}/configs"],
    "exportMetrics": ["-c", "DefaultCluster", "-f", "{tmp}/metrics"],
    "exportMetadata": ["-c", "DefaultCluster", "-f", "{tmp}/metadata"],
    "queryMsgByKey": ["-t", TOPIC, "-k", "key1"],
    "updateTopic": ["-c", "DefaultCluster", "-t", "FrozenTopic"],
    "updateSubGroup": ["-c", "DefaultCluster", "-g", "FrozenGroup"],
    "cleanExpiredCQ": ["-c", "DefaultCluster"],
    "deleteExpiredCommitLog": ["-c", "DefaultCluster"],
    "cleanUnusedTopic": ["-c", "DefaultCluster"],
}


def test_every_fan_out_command_is_partial_with_a_frozen_broker(frozen: TwoBrokers, tmp_path: Path) -> None:
    """All at once (they spend their time waiting for the frozen broker): exit 6, the frozen broker
    named on stderr, and something printed for the healthy one."""
    b = frozen.other.addr
    procs = {}
    for name, args in FAN_OUT.items():
        argv = [a.replace("{tmp}", str(tmp_path)) for a in args]
        procs[name] = subprocess.Popen(
            [MQADMIN, name, "-n", frozen.namesrv, *argv, "--timeout", "1"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=frozen.env,
            cwd=frozen.cwd,
        )
    results = {name: (p.wait(60), *p.communicate()) for name, p in procs.items()}
    bad = {n: (code, err) for n, (code, out, err) in results.items() if code != 6 or b not in err}
    assert not bad, bad
    empty = [n for n, (code, out, err) in results.items() if not out.strip()]
    assert not empty, empty
