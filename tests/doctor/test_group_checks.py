"""The group checks on our broker with real clients: two C++ consumers of one group subscribing to
different tags, a lag that grows while nobody (or a client that never pulls) is online, a message
sent back into the group's DLQ."""

from __future__ import annotations

import json
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.admin_group_offset.servers import Cluster, HeartbeatClient
from tests.broker.peers import cpp_start
from tests.cli_harness import MQADMIN
from tests.doctor.support import Doctor, findings


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[Cluster]:
    c = Cluster(tmp_path / "cluster")
    try:
        yield c
    finally:
        c.stop()


def consumer(c: Cluster, topic: str, group: str, expression: str) -> subprocess.Popen[str]:
    return cpp_start(
        "consume", c.namesrv, topic, group, "--expect", "1", "--timeout", "60", "--idle", "55",
        "--expression", expression,
    )  # fmt: skip


def online(c: Cluster, group: str, clients: int, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        r = c.mqadmin("consumerConnection", "-g", group, "--json")
        if r.code == 0 and len(json.loads(r.out).get("connections", [])) >= clients:
            return
        time.sleep(0.5)
    raise AssertionError(f"{group}: not {clients} clients online")


def test_clients_of_a_group_subscribing_to_different_tags(cluster: Cluster, doctor: Doctor) -> None:
    cluster.create_topic("SubT")
    procs = [
        consumer(cluster, "SubT", "MixedG", "tagA"),
        consumer(cluster, "SubT", "MixedG", "tagB"),
        consumer(cluster, "SubT", "SameG", "tagA || tagB"),
        consumer(cluster, "SubT", "SameG", "tagA || tagB"),
    ]
    try:
        online(cluster, "MixedG", 2)
        online(cluster, "SameG", 2)
        code, doc = doctor.json(cluster.namesrv, "--check", "subscription-differs")
        assert code == 8, doc
        (mixed,) = findings(doc, "subscription-differs")  # SameG's clients agree: nothing on it
        assert mixed["resource"] == "group MixedG" and mixed["severity"] == "critical"
        assert sorted(mixed["evidence"]["subscriptions"].values()) == [["SubT@tagA"], ["SubT@tagB"]]
        assert mixed["command"] == "mqadmin consumerStatus -g MixedG"
    finally:
        for p in procs:
            p.terminate()
        for p in procs:
            p.wait(20)


def test_lag_growing_with_no_consumer_and_with_an_idle_one(cluster: Cluster, doctor: Doctor) -> None:
    cluster.create_topic("LagT", queues=2)
    for group in ("NobodyG", "IdleG"):
        assert cluster.mqadmin("updateSubGroup", "-b", cluster.addr, "-g", group).code == 0
        for q in range(2):
            cluster.commit(group, "LagT", q, 0)
    idle = HeartbeatClient(cluster.addr, "idle-client", consumer_groups=(("IdleG", "LagT"),))
    try:
        args = ["--check", "lag-no-consumer", "--check", "lag-growing", "--json", "--set", "lag_window=8"]
        proc = subprocess.Popen(
            [MQADMIN, "doctor", "-n", cluster.namesrv, *args],
            env=doctor.env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        time.sleep(1.5)  # its first look at the lag is taken
        cluster.produce("LagT", 12)
        out, err = proc.communicate(timeout=60)
    finally:
        idle.close()
    assert proc.returncode == 8, err
    doc = json.loads(out)
    (nobody,) = findings(doc, "lag-no-consumer")
    assert nobody["resource"] == "group NobodyG" and nobody["severity"] == "critical"
    ev = nobody["evidence"]
    assert (ev["topic"], ev["lagBefore"], ev["lagNow"], ev["clients"]) == ("LagT", 0, 12, 0)
    assert nobody["command"] == "mqadmin consumerConnection -g NobodyG"
    (growing,) = findings(doc, "lag-growing")
    assert growing["resource"] == "group IdleG" and growing["severity"] == "warning"
    ev = growing["evidence"]
    assert (ev["lagBefore"], ev["lagNow"], ev["consumed"], ev["clients"]) == (0, 12, 0, 1)
    # the same groups a window later, nothing more produced: the lag stands but does not grow
    code, doc = doctor.json(cluster.namesrv, "--check", "lag-no-consumer", "--check", "lag-growing")
    assert (code, doc["findings"]) == (0, []), doc


def test_a_message_in_the_dlq(cluster: Cluster, doctor: Doctor) -> None:
    cluster.create_topic("DlqT", queues=1)
    assert cluster.mqadmin("updateSubGroup", "-b", cluster.addr, "-g", "DlqG").code == 0
    code, doc = doctor.json(cluster.namesrv, "--check", "dlq-messages")
    assert (code, doc["findings"]) == (0, []), doc
    (sent,) = cluster.produce("DlqT", 1)
    stored = cluster.json("queryMsgByOffset", "-t", "DlqT", "-b", "broker-a", "-i", "0", "-o", "0")["message"]
    offset = stored["commitLogOffset"]
    fields = {"offset": str(offset), "group": "DlqG", "delayLevel": "-1", "originMsgId": sent["msg_id"]}
    resp = cluster.request(36, fields)  # CONSUMER_SEND_MSG_BACK past its retries: into %DLQ%DlqG
    assert resp.code == 0, resp.remark
    deadline = time.monotonic() + 30
    while True:
        code, doc = doctor.json(cluster.namesrv, "--check", "dlq-messages")
        if code == 8 or time.monotonic() > deadline:
            break
        time.sleep(1)  # the DLQ topic reaches the name server with the broker's next registration
    assert code == 8, doc
    (dlq,) = findings(doc, "dlq-messages")
    assert dlq["resource"] == "group DlqG" and dlq["evidence"] == {"topic": "%DLQ%DlqG", "messages": 1}
    assert dlq["command"] == "mqadmin printMsg -t %DLQ%DlqG"


def test_a_retry_topic_taking_messages(cluster: Cluster, doctor: Doctor) -> None:
    retry = "%RETRY%FailingG"
    assert cluster.mqadmin("updateSubGroup", "-b", cluster.addr, "-g", "FailingG").code == 0
    cluster.create_topic(retry, queues=1)
    cluster.commit("FailingG", retry, 0, 0)  # its consumer reads its retry topic, as every one does
    args = ["--check", "retry-growing", "--json", "--set", "lag_window=8"]
    proc = subprocess.Popen(
        [MQADMIN, "doctor", "-n", cluster.namesrv, *args],
        env=doctor.env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    time.sleep(1.5)
    cluster.produce(retry, 3)  # what a failing consumer sends back lands there
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 8, err
    (growing,) = findings(json.loads(out), "retry-growing")
    assert growing["resource"] == "group FailingG" and growing["severity"] == "warning"
    assert (growing["evidence"]["topic"], growing["evidence"]["sentBack"]) == (retry, 3)
    assert growing["command"] == "mqadmin consumerStatus -g FailingG"
