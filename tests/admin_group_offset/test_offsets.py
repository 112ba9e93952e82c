"""resetOffsetByTime (dry run, the queue-by-queue fallback of an offline group, one queue),
skipAccumulatedMessage, cloneGroupOffset and queryCq on our broker, with offsets the C++ consumer
committed; each test checks the offsets the broker holds afterwards."""

from __future__ import annotations

import datetime
import json

import pytest

from tests.admin_group_offset.servers import Cluster

TOPIC = "OffsetTopic"
GROUP = "OffsetCG"
QUEUES = 4


@pytest.fixture(scope="module")
def consumed(cluster: Cluster) -> Cluster:
    """OffsetCG consumed the 8 messages of OffsetTopic and went offline."""
    cluster.create_topic(TOPIC, QUEUES)
    cluster.produce(TOPIC, 8)
    cluster.consume(TOPIC, GROUP, 8)
    return cluster


def offsets(cluster: Cluster, group: str = GROUP, topic: str = TOPIC) -> list[int]:
    return [cluster.committed(group, topic, q) for q in range(QUEUES)]


def maxima(cluster: Cluster, topic: str = TOPIC) -> list[int]:
    return [cluster.max_offset(topic, q) for q in range(QUEUES)]


def table_rows(text: str, header: str) -> list[list[str]]:
    lines = text.split("\n")
    start = next(i for i, line in enumerate(lines) if line.startswith(header))
    return [line.split() for line in lines[start + 1 :] if line.strip()]


def test_dry_run_shows_old_and_new_offsets_and_changes_nothing(consumed: Cluster) -> None:
    before = offsets(consumed)
    assert before == maxima(consumed) and sum(before) == 8
    r = consumed.mqadmin("resetOffsetByTime", "-g", GROUP, "-t", TOPIC, "-s", "0", "--dry-run")
    assert (r.code, r.err) == (0, "")
    assert r.out.startswith(
        f"dry run, nothing changed: reset consumer offset by specified consumerGroup[{GROUP}], "
        f"topic[{TOPIC}], force[true], timestamp(string)[0], timestamp(long)[0]\n#brokerName "
    )
    rows = table_rows(r.out, "#brokerName")
    assert sorted(int(row[1]) for row in rows) == list(range(QUEUES))
    for name, qid, broker_off, consumer_off, ts_off, new in rows:
        assert name == "broker-a" and int(consumer_off) == before[int(qid)] == int(broker_off)
        assert (int(ts_off), int(new)) == (0, 0)
    assert offsets(consumed) == before

    doc = consumed.json("resetOffsetByTime", "-g", GROUP, "-t", TOPIC, "-s", "0", "--dry-run", "-f", "false")
    assert doc["mode"] == "dryRun" and doc["force"] is False
    assert {q["queueId"]: q["resetOffset"] for q in doc["queues"]} == {0: 0, 1: 0, 2: 0, 3: 0}
    assert offsets(consumed) == before


def test_reset_of_an_offline_group_falls_back_to_queue_by_queue(consumed: Cluster) -> None:
    """No consumer online: the broker answers 206 and the offsets are committed one queue at a time."""
    before = offsets(consumed)
    r = consumed.mqadmin("resetOffsetByTime", "-g", GROUP, "-t", TOPIC, "-s", "0")
    assert (r.code, r.err) == (0, "")
    assert r.out.split("\n")[0] == (
        f"reset consumer offset by specified consumerGroup[{GROUP}], topic[{TOPIC}], force[true], "
        "timestamp(string)[0], timestamp(long)[0]"
    )
    assert r.out.split("\n")[1].split() == [
        "#brokerName", "#queueId", "#brokerOffset", "#consumerOffset", "#timestampOffset", "#resetOffset",
    ]  # fmt: skip
    rows = table_rows(r.out, "#brokerName")
    assert {int(row[1]): (int(row[3]), int(row[5])) for row in rows} == {
        q: (before[q], 0) for q in range(QUEUES)
    }
    assert offsets(consumed) == [0] * QUEUES


def test_skip_accumulated_message_moves_to_the_end(consumed: Cluster) -> None:
    for q in range(QUEUES):
        consumed.commit(GROUP, TOPIC, q, 0)
    r = consumed.mqadmin("skipAccumulatedMessage", "-g", GROUP, "-t", TOPIC)
    assert (r.code, r.err) == (0, "")
    assert r.out.split("\n")[0].split()[-1] == "#rollbackOffset"  # both Java versions print this header here
    rows = table_rows(r.out, "#brokerName")
    assert {int(row[1]): int(row[5]) for row in rows} == dict(enumerate(maxima(consumed)))
    assert offsets(consumed) == maxima(consumed)
    doc = consumed.json("skipAccumulatedMessage", "-g", GROUP, "-t", TOPIC)
    assert doc["mode"] == "queueByQueue" and len(doc["queues"]) == QUEUES


def test_reset_one_queue_to_an_offset(consumed: Cluster) -> None:
    r = consumed.mqadmin(
        "resetOffsetByTime", "-g", GROUP, "-t", TOPIC, "-s", "now", "-b", consumed.addr, "-q", "1", "-o", "1"
    )
    assert (r.code, r.err) == (0, "")
    first, second, rest = r.out.split("\n", 2)
    assert first.startswith(
        f"start reset consumer offset by specified, group[{GROUP}], topic[{TOPIC}], queueId[1], "
        f"broker[{consumed.addr}], timestamp(string)[now], timestamp(long)["
    )
    assert (second, rest) == ("reset consumer offset to 1", "")
    assert consumed.committed(GROUP, TOPIC, 1) == 1


def test_reset_by_date_and_bad_timestamps(consumed: Cluster) -> None:
    for q in range(QUEUES):
        consumed.commit(GROUP, TOPIC, q, 0)
    r = consumed.mqadmin("resetOffsetByTime", "-g", GROUP, "-t", TOPIC, "-s", "2099-01-01#00:00:00:000")
    assert (r.code, r.err) == (0, "")
    when = int(datetime.datetime(2099, 1, 1, tzinfo=datetime.UTC).timestamp() * 1000)  # the tests run in UTC
    assert offsets(consumed) == [consumed.search_offset(TOPIC, q, when) for q in range(QUEUES)]
    assert offsets(consumed) != [0] * QUEUES
    for bad in ("yesterday", "2026-02-30T00:00:00Z", "9" * 30):
        r = consumed.mqadmin("resetOffsetByTime", "-g", GROUP, "-t", TOPIC, "-s", bad)
        assert (r.code, r.out) == (2, "") and r.err.count("\n") == 1 and "-s" in r.err
    r = consumed.mqadmin(
        "resetOffsetByTime", "-g", GROUP, "-t", TOPIC, "-s", "0", "-b", consumed.addr, "-q", "x"
    )
    assert (r.code, r.out) == (2, "")


def test_clone_group_offset(consumed: Cluster) -> None:
    for q, off in enumerate([1, 0, 2, 1]):
        consumed.commit(GROUP, TOPIC, q, off)
    r = consumed.mqadmin("cloneGroupOffset", "-s", GROUP, "-d", "CloneCG", "-t", TOPIC)
    assert (r.code, r.err) == (0, "")
    assert r.out == f"clone group offset success. srcGroup[{GROUP}], destGroup=[CloneCG], topic[{TOPIC}]"
    assert offsets(consumed, "CloneCG") == [1, 0, 2, 1]
    doc = consumed.json("cloneGroupOffset", "-s", GROUP, "-d", "CloneCG2", "-t", TOPIC)
    assert sorted((q["queueId"], q["offset"]) for q in doc["queues"] if q["topic"] == TOPIC) == [
        (0, 1), (1, 0), (2, 2), (3, 1),
    ]  # fmt: skip
    assert offsets(consumed, "CloneCG2") == [1, 0, 2, 1]
    r = consumed.mqadmin("cloneGroupOffset", "-s", "NoOffsetsCG", "-d", "X", "-t", TOPIC)
    assert (r.code, r.out) == (7, "") and r.err.count("\n") == 1


def test_query_cq(consumed: Cluster) -> None:
    count = consumed.max_offset(TOPIC, 0)
    r = consumed.mqadmin("queryCq", "-t", TOPIC, "-q", "0", "-i", "0")
    assert (r.code, r.err) == (0, "")
    sep = "=" * 38
    assert r.out.startswith(
        f"Queue data: \nmax: {count}, min: 0\n{sep}\nidx: 0\nConsumeQueueData{{physicOffset="
    )
    assert r.out.count("ConsumeQueueData{") == count and r.out.endswith(f"{sep}\n")
    assert "extendDataJson='null', bitMap='null', eval=false, msg='null'}" in r.out

    r = consumed.mqadmin(
        "queryCq", "-t", TOPIC, "-q", "0", "-i", "1", "-c", "1", "-g", GROUP, "-b", consumed.addr
    )
    assert r.code == 0
    assert r.out.startswith(f"Filter data: \n{GROUP}@{TOPIC} is not online!\n{sep}\n")  # the group is offline
    assert r.out.count("idx: 1\n") == 1 and r.out.count("ConsumeQueueData{") == 1

    doc = consumed.json("queryCq", "-t", TOPIC, "-q", "0", "-i", "0")
    assert doc["maxQueueIndex"] == count and [row["index"] for row in doc["queueData"]] == list(range(count))
    physics = [row["physicOffset"] for row in doc["queueData"]]
    assert physics == sorted(physics) and all(row["physicSize"] > 0 for row in doc["queueData"])
    json.dumps(doc)

    r = consumed.mqadmin("queryCq", "-t", TOPIC, "-q", "0", "-i", "99")
    assert (r.code, r.out) == (1, "") and "99" in r.err


def test_reset_results_come_in_java_hash_map_order() -> None:
    """The merged ``HashMap`` of the brokers' answers iterates as Java's does (checked against JDK 17)."""
    from mqadmin.cli.commands.offset_admin import _java_hash_map_after_put_alls
    from mqadmin.protocol.bodies.message_queue import MessageQueue

    def order(n: int) -> list[int]:
        table = {MessageQueue("GoldenTopic", "broker-a", q): 0 for q in range(n)}
        return [mq.queue_id for mq, _ in _java_hash_map_after_put_alls([table])]

    assert order(4) == [0, 2, 1, 3]
    assert order(16) == [15, 12, 11, 14, 13, 8, 7, 10, 9, 4, 3, 6, 5, 0, 2, 1]
