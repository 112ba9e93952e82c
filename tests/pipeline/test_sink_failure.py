"""The sink against a broker that refuses, stays silent or dies mid-write (the hostile broker).

A refusal Java's producer retries (codes 1, 2, 14, 17) that passes is retried until stored; one
that lasts, or a broker that never answers, fails the task after bounded retries with an error
naming the topic, the queue and the broker's answer; an answer no retry changes fails at once. A
broker that stores a request and hangs up before acknowledging it gets it again: the rows are
stored twice, with the same ``UNIQ_KEY``. Through Spark, a stream whose sink failed is restarted
from its checkpoint: every row is stored at least once and the duplicates are counted by key. And
our own broker, killed with ``kill -9`` mid-write and started again: the task fails clearly (or
goes on), the task run again stores every row, each key's copies one row.
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pyarrow as pa
import pytest

from mqadmin.pipeline.stream.sink import SinkError, SinkOptions, SinkSent, send_rows, uniq_key
from mqadmin.protocol.command import RemotingCommand
from mqadmin.remoting.client import Connection
from tests.pipeline.hostile import NAME, Hostile, HostileCluster, hostile_cluster

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

TOPIC = "SinkH"
ROWS = 300
BATCH = 50


@pytest.fixture
def hostile(tmp_path: Path) -> Iterator[HostileCluster]:
    with hostile_cluster(tmp_path, TOPIC, [(0, 0)]) as c:
        yield c


def send(c: HostileCluster, write_id: str = "w", **options: str) -> SinkSent:
    opts = SinkOptions.parse({"namesrv": c.namesrv, "topic": TOPIC, "batchSize": str(BATCH), **options})
    rows = pa.record_batch({"body": pa.array([f"r{i}" for i in range(ROWS)], pa.string())})
    return asyncio.run(send_rows(opts, iter([rows]), write_id, 0, 0))


def keys(b: Hostile) -> Counter[str]:
    return Counter(m.unique_key or "" for m in b.stored)


@pytest.mark.parametrize("code", [1, 2, 14, 17])
def test_a_passing_refusal_is_retried_until_stored(hostile: HostileCluster, code: int) -> None:
    def refuse_twice(b: Hostile, conn: Connection, cmd: RemotingCommand, n: int) -> RemotingCommand:
        return cmd.response(code, "busy, try later") if n <= 2 else b.accept(cmd)

    hostile.broker.send = refuse_twice
    sent = send(hostile)
    assert sent.messages == ROWS and sent.retries == 2
    assert keys(hostile.broker) == Counter({uniq_key("w", 0, 0, r): 1 for r in range(ROWS)})


def test_a_lasting_refusal_fails_after_bounded_retries_naming_queue_and_answer(
    hostile: HostileCluster,
) -> None:
    def first_then_refuse(b: Hostile, conn: Connection, cmd: RemotingCommand, n: int) -> RemotingCommand:
        return b.accept(cmd) if n == 1 else cmd.response(14, "service not available now")

    hostile.broker.send = first_then_refuse
    with pytest.raises(SinkError) as e:
        send(hostile, retries="2", maxInFlight="1")
    said = str(e.value)
    assert f"{TOPIC} {NAME}:0" in said and "after 3 attempt(s)" in said and "CODE: 14" in said
    assert hostile.addr in said and "service not available now" in said
    assert hostile.broker.sends == 1 + 3  # the acknowledged request, then one request tried three times
    assert set(hostile.broker.acked) <= set(keys(hostile.broker)) and len(hostile.broker.acked) == BATCH


def test_an_answer_no_retry_changes_fails_at_once(hostile: HostileCluster) -> None:
    hostile.broker.send = lambda b, conn, cmd, n: cmd.response(13, "the message is illegal")
    with pytest.raises(SinkError, match=r"after 1 attempt\(s\): CODE: 13"):
        send(hostile, maxInFlight="1")
    assert hostile.broker.sends == 1


def test_a_silent_broker_fails_after_bounded_retries(hostile: HostileCluster) -> None:
    async def silent(b: Hostile, conn: Connection, cmd: RemotingCommand, n: int) -> None:
        await asyncio.sleep(5)

    hostile.broker.send = silent
    with pytest.raises(SinkError, match=r"not stored after 2 attempt\(s\)"):
        send(hostile, timeout="500ms", retries="1", maxInFlight="1")
    assert hostile.broker.sends == 2


def test_a_broker_dying_mid_write_gets_the_request_again_with_the_same_keys(hostile: HostileCluster) -> None:
    def store_and_hang_up(
        b: Hostile, conn: Connection, cmd: RemotingCommand, n: int
    ) -> RemotingCommand | None:
        if n == 2:
            b.stored.extend(b.messages(cmd))  # stored, never acknowledged
            conn.abort("the broker died")
            return None
        return b.accept(cmd)

    hostile.broker.send = store_and_hang_up
    sent = send(hostile, maxInFlight="1")
    assert sent.messages == ROWS and sent.retries == 1
    counted = keys(hostile.broker)
    assert set(counted) == {uniq_key("w", 0, 0, r) for r in range(ROWS)}
    assert Counter(counted.values()) == {1: ROWS - BATCH, 2: BATCH}  # one request's rows stored twice
    bodies: dict[str, set[bytes]] = {}
    for m in hostile.broker.stored:
        bodies.setdefault(m.unique_key or "", set()).add(bytes(m.body))
    assert all(len(b) == 1 for b in bodies.values())  # a key's copies are the same row


def test_a_stream_restarted_after_its_sink_failed_stores_every_row_at_least_once(
    spark: SparkSession, hostile: HostileCluster, tmp_path: Path
) -> None:
    import mqadmin.spark

    mqadmin.spark.register(spark)
    rows = tmp_path / "in"
    rows.mkdir()
    (rows / "rows.json").write_text("".join(json.dumps({"body": f"r{i}"}) + "\n" for i in range(ROWS)))
    state: dict[str, Any] = {"up": False}

    def failing(b: Hostile, conn: Connection, cmd: RemotingCommand, n: int) -> RemotingCommand | None:
        if state["up"] or n <= 2:
            return b.accept(cmd)
        if n == 3:
            b.stored.extend(b.messages(cmd))  # stored, and the broker dies before the answer
            conn.abort("the broker died")
            return None
        return cmd.response(14, "service not available now")

    hostile.broker.send = failing

    def run() -> Any:
        q = (
            spark.readStream.format("json").schema("body string").load(str(rows)).writeStream
            .format(mqadmin.spark.FORMAT).option("namesrv", hostile.namesrv).option("topic", TOPIC)
            .option("batchSize", str(BATCH)).option("maxInFlight", "1").option("retries", "2")
            .option("checkpointLocation", str(tmp_path / "ck")).trigger(availableNow=True).start()
        )  # fmt: skip
        try:
            q.awaitTermination(120)
        except Exception as e:
            return q, e
        return q, None

    q, failure = run()
    assert failure is not None and "SinkError" in str(failure) and "CODE: 14" in str(failure)
    first = keys(hostile.broker)
    assert sum(first.values()) == 3 * BATCH  # two acknowledged requests, one stored unacknowledged

    state["up"] = True  # the broker is back: the query restarts from its checkpoint, batch 0 again
    q2, failure = run()
    assert failure is None and q2.id == q.id
    counted = keys(hostile.broker)
    assert set(counted) == {uniq_key(str(q.id), 0, 0, r) for r in range(ROWS)}
    duplicated = {k for k, n in counted.items() if n > 1}
    assert duplicated == set(first) and len(duplicated) == 3 * BATCH
    assert Counter(counted.values()) == {1: ROWS - 3 * BATCH, 2: 3 * BATCH}


def test_our_broker_killed_mid_write_then_the_task_again_stores_every_row(tmp_path: Path) -> None:
    """Our broker, ``kill -9`` while a task sends, started again on its files; the task is run again
    (as Spark runs a failed one): every row is in the topic, a row stored twice under one key."""
    from mqadmin.pipeline.export.inprocess import pull_all
    from mqadmin.pipeline.export.plan import ExportOptions, plan
    from tests.broker.peers import create_topic
    from tests.servers import Cluster as Servers

    count = 40000
    with Servers(tmp_path / "cluster") as servers:
        create_topic(servers.broker_addr, "SinkKill", queues=2)
        opts = SinkOptions.parse(
            {"namesrv": servers.ns_addr, "topic": "SinkKill", "batchSize": "20", "maxInFlight": "2"}
        )
        rows = pa.record_batch({"body": pa.array([f"k{i}" for i in range(count)], pa.string())})
        outcome: dict[str, object] = {}

        def task() -> None:
            try:
                outcome["sent"] = asyncio.run(send_rows(opts, iter([rows]), "killed", 0, 0))
            except SinkError as e:
                outcome["failed"] = e

        worker = threading.Thread(target=task)
        worker.start()
        time.sleep(0.2)
        assert worker.is_alive(), "the task ended before the kill"
        servers.broker.kill()
        time.sleep(1.0)
        servers.broker.start()
        worker.join(120)
        assert outcome, "the task neither finished nor failed"
        if "failed" in outcome:  # the broker was down longer than the retries: a clear error
            assert "SinkKill broker-a:" in str(outcome["failed"]) and "not stored after 4 attempt(s)" in str(
                outcome["failed"]
            )
        again = asyncio.run(send_rows(opts, iter([rows]), "killed", 0, 0))  # Spark's retry of the task
        assert again.messages == count

        options = ExportOptions.parse({"namesrv": servers.ns_addr, "topic": "SinkKill"})
        table = asyncio.run(pull_all(options.settings, plan(options)))
    got = Counter(table.column("msg_id").to_pylist())
    assert set(got) == {uniq_key("killed", 0, 0, r) for r in range(count)}  # every row stored
    assert min(got.values()) >= 2 - ("failed" in outcome) and max(got.values()) <= 3
    by_key: dict[str, set[bytes]] = {}
    for key, body in zip(table.column("msg_id").to_pylist(), table.column("body").to_pylist(), strict=True):
        by_key.setdefault(key, set()).add(body)
    assert all(len(b) == 1 for b in by_key.values())  # a key's copies are one row
