"""Commands about online clients, against a C++ push consumer and a producer group that are connected:
consumerConnection, consumerStatus, consumer, consumerProgress, producerConnection, producer, and a
reset of offsets the online consumer acts on."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.admin_group_offset.servers import Cluster, HeartbeatClient, OnlineConsumer

TOPIC = "OnlineTopic"
GROUP = "OnlineCG"
SENT = 8


@pytest.fixture(scope="module")
def online(cluster: Cluster) -> Iterator[OnlineConsumer]:
    """OnlineCG consumes 8 messages of OnlineTopic and stays connected; its offsets are committed."""
    cluster.create_topic(TOPIC, 4)
    cluster.produce(TOPIC, SENT)
    consumer = OnlineConsumer(cluster.namesrv, TOPIC, GROUP, SENT)
    try:
        consumer.wait_received(SENT)
        deadline = time.monotonic() + 20
        while sum(max(cluster.committed(GROUP, TOPIC, q), 0) for q in range(4)) < SENT:
            assert time.monotonic() < deadline, "the C++ consumer did not commit its offsets"
            time.sleep(0.2)
        yield consumer
    finally:
        consumer.stop()


@pytest.fixture(scope="module")
def client_id(cluster: Cluster, online: OnlineConsumer) -> str:
    doc = cluster.json("consumerConnection", "-g", GROUP)
    return str(doc["connections"][0]["clientId"])


def test_consumer_connection(cluster: Cluster, online: OnlineConsumer, client_id: str) -> None:
    r = cluster.mqadmin("consumerConnection", "-g", GROUP)
    assert (r.code, r.err) == (0, "")
    lines = r.out.split("\n")
    assert lines[0] == "#ClientId                            #ClientAddr            #Language  #Version"
    assert re.fullmatch(rf"{re.escape(client_id)} +127\.0\.0\.1:\d+ +CPP +V3_1_8", lines[1])
    assert lines[2:5] == ["", "Below is subscription:", "#Topic               #SubExpression"]
    assert sorted(lines[5:7]) == sorted([f"{'%RETRY%' + GROUP:<20} *", f"{TOPIC:<20} *"])
    assert lines[7:] == [
        "",
        "ConsumeType: CONSUME_PASSIVELY",
        "MessageModel: CLUSTERING",
        "ConsumeFromWhere: CONSUME_FROM_LAST_OFFSET",
        "",
    ]
    assert cluster.mqadmin("consumerConnection", "-g", GROUP, "-b", cluster.addr).out == r.out
    doc = cluster.json("consumerConnection", "-g", GROUP)
    assert doc["connections"][0]["language"] == "CPP" and doc["messageModel"] == "CLUSTERING"
    assert {s["topic"] for s in doc["subscriptions"]} == {TOPIC, f"%RETRY%{GROUP}"}


def test_consumer_status_writes_each_clients_running_info(cluster: Cluster, client_id: str) -> None:
    r = cluster.mqadmin("consumerStatus", "-g", GROUP, "--save", ".")  # Java writes there unasked
    assert (r.code, r.err) == (0, "")
    lines = r.out.split("\n")
    assert lines[0] == f"{'#Index':<10} {'#ClientId':<40} {'#Version':<20} #ConsumerRunningInfoFile"
    index, cid, version, path = lines[1].split()
    assert (index, cid, version) == ("1", client_id, "V3_1_8") and re.fullmatch(
        rf"(\./)?\d+/{re.escape(cid)}", path
    )
    assert r.out.endswith("\n\nSame subscription in the same group of consumer\n\nRebalance OK\n")
    saved = (cluster.cwd / path).read_text()
    assert saved.startswith("#Consumer Properties#\n") and "PROP_CONSUME_TYPE" in saved
    offsets = saved.split("#Consumer Offset#\n")[1].split("\n\n\n")[0].splitlines()[1:]
    # the topic's four queues; the group's retry queue shows up too once the client has rebalanced it
    offsets = [x for x in offsets if x.split()[0] == TOPIC]
    assert len(offsets) == 4 and sum(int(x.split()[3]) for x in offsets) == SENT

    one = cluster.mqadmin("consumerStatus", "-g", GROUP, "-i", client_id)
    assert one.code == 0 and one.out.startswith("#Consumer Properties#\n")
    for section in ("Subscription", "Offset", "MQ Detail", "Pop Detail", "RT&TPS"):
        assert f"\n\n#Consumer {section}#\n" in one.out
    assert f"Topic: {TOPIC:<40} ClassFilter: false    SubExpression: *" in one.out

    doc = cluster.json("consumerStatus", "-g", GROUP, "--save", ".")
    assert doc["consumers"][0]["clientId"] == client_id and doc["sameSubscription"] is True
    assert (cluster.cwd / doc["consumers"][0]["file"]).is_file()
    doc = cluster.json("consumerStatus", "-g", GROUP, "-i", client_id)
    assert len([q for q in doc["runningInfo"]["mqTable"] if q["topic"] == TOPIC]) == 4


def test_consumer_is_the_unregistered_java_command(cluster: Cluster, client_id: str) -> None:
    r = cluster.mqadmin("consumer", "-g", GROUP, "--save", ".")
    assert (r.code, r.err) == (0, "")
    first = r.out.split("\n")[0]
    assert first.startswith(f"001  {client_id:<40} {'V3_1_8':<20} ")  # Java: "%03d  %-40s %-20s %s%n"
    assert re.fullmatch(rf"(\./)?\d+/{re.escape(client_id)}", first.split()[-1])
    path = first.split()[-1]
    assert (cluster.cwd / path).read_text().startswith("#Consumer Properties#")
    assert r.out.endswith("\n\nSame subscription in the same group of consumer\n\nRebalance OK\n")
    doc = cluster.json("consumer", "-g", GROUP)
    assert doc["consumers"][0]["index"] == 1 and doc["consumers"][0]["version"] == "V3_1_8"


def test_consumer_progress_of_an_online_group(cluster: Cluster, client_id: str) -> None:
    r = cluster.mqadmin("consumerProgress", "-g", GROUP, "-s", "true")
    assert (r.code, r.err) == (0, "")
    rows = [line for line in r.out.split("\n")[1:] if line.startswith(TOPIC)]
    assert len(rows) == 4
    ip = client_id.split("@")[0]
    assert all(row.split()[5] == ip and row.split()[6] == "0" for row in rows)
    assert "Consume Diff Total: 0\n" in r.out

    r = cluster.mqadmin("consumerProgress")
    row = next(line for line in r.out.split("\n") if line.startswith(GROUP + " "))
    assert row.split()[:5] == [GROUP, "1", "V3_1_8", "PUSH", "CLUSTERING"] and row.split()[-1] == "0"
    doc = cluster.json("consumerProgress")
    mine = next(g for g in doc["groups"] if g["group"] == GROUP)
    assert (mine["count"], mine["type"], mine["model"], mine["diffTotal"]) == (1, "PUSH", "CLUSTERING", 0)


def test_producer_connection_and_producer(cluster: Cluster, online: OnlineConsumer) -> None:
    hb = HeartbeatClient(cluster.addr, "127.0.0.1@hb-producer", producer_groups=("PGX",))
    try:
        r = cluster.mqadmin("producerConnection", "-g", "PGX", "-t", TOPIC)
        assert (r.code, r.err) == (0, "")
        assert re.fullmatch(r"0001  127\.0\.0\.1@hb-producer +127\.0\.0\.1:\d+ +JAVA +V5_3_3\n", r.out)
        doc = cluster.json("producerConnection", "-g", "PGX", "-t", TOPIC)
        assert doc["connections"][0]["clientId"] == "127.0.0.1@hb-producer"

        r = cluster.mqadmin("producer", "-b", cluster.addr)
        assert (r.code, r.err) == (0, "")
        assert re.search(
            r"^producer group \(PGX\) instance : clientId=127\.0\.0\.1@hb-producer,"
            r"remoteIP=/127\.0\.0\.1:\d+, "
            r"language=JAVA, version=479, lastUpdateTimestamp=\d+$",
            r.out,
            re.M,
        )
        doc = cluster.json("producer", "-b", cluster.addr)
        pgx = next(g for g in doc["groups"] if g["group"] == "PGX")
        assert pgx["producers"][0]["language"] == "JAVA"
    finally:
        hb.close()
    deadline = time.monotonic() + 10
    while cluster.mqadmin("producerConnection", "-g", "PGX", "-t", TOPIC).code == 0:
        assert time.monotonic() < deadline, "the producer stayed registered after its connection closed"
        time.sleep(0.2)


def test_reset_offset_of_an_online_cpp_consumer_redelivers(cluster: Cluster, online: OnlineConsumer) -> None:
    """The broker computes the offsets and tells the consumer, which consumes everything again."""
    before = len(online.received())
    r = cluster.mqadmin("resetOffsetByTime", "-g", GROUP, "-t", TOPIC, "-s", "0")
    assert (r.code, r.err) == (0, "")
    lines = r.out.split("\n")
    assert lines[0] == (
        f"start reset consumer offset by specified, group[{GROUP}], topic[{TOPIC}], force[true], "
        "timestamp(string)[0], timestamp(long)[0]"
    )
    assert lines[1] == f"{'#brokerName':<40}  {'#queueId':<40}  {'#offset':<40}"
    assert sorted(int(x.split()[1]) for x in lines[2:6]) == [0, 1, 2, 3]
    assert all(x.split()[2] == "0" for x in lines[2:6]) and lines[6:] == [""]
    online.wait_received(before + SENT)


def test_consumer_commands_of_an_offline_group(cluster: Cluster, tmp_path: Path) -> None:
    for cmd in (["consumerStatus", "-g", "NobodyCG"], ["consumer", "-g", "NobodyCG"]):
        r = cluster.mqadmin(*cmd)
        assert (r.code, r.out) == (3, "") and r.err.count("\n") == 1 and "NobodyCG" in r.err
