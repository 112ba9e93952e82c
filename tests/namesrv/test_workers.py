"""``--workers``: route queries answered by several processes, and every one of them current.

A name server with two processes (the primary in this test's loop, one worker process) and many
client connections spread by the kernel over both. Registrations, unregistrations, channel closes
and expiry must reach the queries of every connection within :data:`BOUND` seconds, a connection
must never see a route older than one it saw before, and a worker killed with SIGKILL is started
again and serves again without losing a route.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import time
from pathlib import Path
from typing import Any

import pytest

from mqadmin.namesrv.server import NamesrvController
from tests.namesrv.support import (
    Wire,
    namesrv,
    register,
    register_body,
    register_request,
    request,
    route_query,
    run,
    topic_config,
)

BOUND = 0.1
"""Seconds within which a change must be seen on every connection (the promise)."""
SLACK = 0.5
"""What the tests allow on a loaded machine; the measured worst case is reported on failure."""
CLUSTER = "C"
A0 = "10.0.0.1:10911"
FILLER = topic_config("Filler")
"""A second topic: a first registration with a single topic is one Java refuses (a topic update)."""


async def _spread(ctl: NamesrvController, want: int = 12) -> tuple[list[Wire], list[Wire]]:
    """Connections until at least a few land on each process: (on the primary, on the worker)."""
    assert ctl.server is not None
    primary: list[Wire] = []
    worker: list[Wire] = []
    for _ in range(200):
        w = await Wire.open(ctl.port)
        await w.call(route_query("NoSuchTopicYet"))  # the connection is accepted by now
        local = w.writer.get_extra_info("sockname")
        mine = {c.remote_addr for c in ctl.server.connections}
        (primary if f"{local[0]}:{local[1]}" in mine else worker).append(w)
        if len(primary) >= want // 2 and len(worker) >= want // 2:
            return primary, worker
    raise AssertionError(f"connections did not spread: {len(primary)} on the primary, {len(worker)} not")


def _queues(reply: Any, broker: str = "b0") -> int | None:
    """readQueueNums of ``broker`` in a route answer; None when the topic has no route."""
    if reply.code != 0:
        assert reply.code == 17, reply.header
        return None
    route = json.loads(reply.body)
    for q in route["queueDatas"]:
        if q["brokerName"] == broker:
            return int(q["readQueueNums"])
    return None


async def _until_all(wires: list[Wire], topic: str, want: int | None, started: float) -> float:
    """Query ``topic`` on every connection until each answers ``want``; the slowest one's delay."""
    worst = 0.0
    for w in wires:
        while True:
            got = _queues(await w.call(route_query(topic)))
            if got == want:
                break
            if time.monotonic() - started > 5:
                raise AssertionError(f"{topic}: still {got}, want {want} after 5 s")
            await asyncio.sleep(0.002)
        worst = max(worst, time.monotonic() - started)
    return worst


async def _close_all(wires: list[Wire]) -> None:
    for w in wires:
        await w.close()


def test_changes_reach_every_process_in_time(tmp_path: Path) -> None:
    async def body() -> None:
        async with namesrv(tmp_path, workers=2, scan_not_active_broker_interval=20) as ctl:
            primary, worker = await _spread(ctl)
            every = primary + worker
            broker = await Wire.open(ctl.port)
            delays: dict[str, float] = {}

            # registration
            started = time.monotonic()
            await register(broker, CLUSTER, "b0", 0, A0, [topic_config("T", read=4), FILLER])
            delays["register"] = await _until_all(every, "T", 4, started)

            # a changed registration
            started = time.monotonic()
            body2 = register_body([topic_config("T", read=6), FILLER], counter=2)
            assert (await broker.call(register_request(CLUSTER, "b0", 0, A0, body2))).code == 0
            delays["change"] = await _until_all(every, "T", 6, started)

            # unregistration
            ext = {"brokerName": "b0", "brokerAddr": A0, "clusterName": CLUSTER, "brokerId": "0"}
            started = time.monotonic()
            assert (await broker.call(request(104, ext))).code == 0
            delays["unregister"] = await _until_all(every, "T", None, started)

            # channel close
            await register(broker, CLUSTER, "b0", 0, A0, [topic_config("T", read=4), FILLER])
            await _until_all(every, "T", 4, time.monotonic())
            started = time.monotonic()
            await broker.close()
            delays["close"] = await _until_all(every, "T", None, started)

            # expiry (5.x heartbeat timeout, scanned every 20 ms)
            late = await Wire.open(ctl.port)
            extra = {"heartbeatTimeoutMillis": "200", "enableActingMaster": "false"}
            req = register_request(
                CLUSTER, "b0", 0, A0, register_body([topic_config("T"), FILLER]), version=479, extra=extra
            )
            assert (await late.call(req)).code == 0
            await _until_all(every, "T", 4, time.monotonic())
            started = time.monotonic() + 0.2 + 0.02  # timeout, then at most one scan interval
            await asyncio.sleep(0.2)
            delays["expiry"] = max(0.0, await _until_all(every, "T", None, started))
            assert await late.closed_by_peer(), "an expired broker's channel is closed"

            await _close_all(every)
            assert max(delays.values()) < SLACK, delays

    run(body(), limit=60)


def test_a_connection_never_sees_an_older_route(tmp_path: Path) -> None:
    """Churn: a broker re-registers with ever more queues while another comes and goes; every
    connection keeps asking, and the queue count it sees never goes down."""

    async def body() -> None:
        async with namesrv(tmp_path, workers=2) as ctl:
            primary, worker = await _spread(ctl, want=16)
            every = primary + worker
            stop = asyncio.Event()
            seen: dict[int, list[int]] = {i: [] for i in range(len(every))}

            async def ask(i: int, w: Wire) -> None:
                while not stop.is_set():
                    replies = []
                    for _ in range(4):  # pipelined, as clients do
                        q = route_query("Churn")
                        await w.send(_frame(q))
                        replies.append(q.opaque)
                    for opaque in replies:
                        got = _queues(await w.recv_opaque(opaque))
                        if got is not None:
                            seen[i].append(got)

            async def churn() -> Wire:
                b0 = await Wire.open(ctl.port)
                for n in range(1, 41):
                    body = register_body([topic_config("Churn", read=n), topic_config("Other")], counter=n)
                    assert (await b0.call(register_request(CLUSTER, "b0", 0, A0, body))).code == 0
                    b1 = await Wire.open(ctl.port)  # another broker comes and goes with its channel
                    await register(b1, CLUSTER, "b1", 0, "10.0.0.2:10911", [topic_config("Churn"), FILLER])
                    await b1.close()
                    await asyncio.sleep(0.005)
                return b0

            askers = [asyncio.ensure_future(ask(i, w)) for i, w in enumerate(every)]
            b0 = await churn()
            stop.set()
            await asyncio.gather(*askers)
            # and, the churn over, every connection sees the last registration
            assert await _until_all(every, "Churn", 40, time.monotonic()) < SLACK
            await b0.close()
            for i, counts in seen.items():
                assert counts, f"connection {i} saw no route at all"
                assert counts == sorted(counts), f"connection {i} went back in time: {counts}"
            assert any(c and c[-1] >= 30 for c in seen.values())
            await _close_all(every)

    run(body(), limit=90)


def _frame(cmd: Any) -> bytes:
    from mqadmin.protocol.frame import encode

    return bytes(encode(cmd))


def test_a_killed_worker_is_started_again_and_serves(tmp_path: Path) -> None:
    async def body() -> None:
        async with namesrv(tmp_path, workers=2) as ctl:
            assert ctl.pool is not None
            first, worker = await _spread(ctl, want=6)
            broker = first[0]  # on the primary: a broker on the killed worker would lose its routes
            topics = [topic_config(f"K{i}", read=3) for i in range(50)]
            await register(broker, CLUSTER, "b0", 0, A0, topics)
            for w in worker:
                assert _queues(await w.call(route_query("K7"))) == 3
            (pid,) = ctl.pool.pids
            os.kill(pid, signal.SIGKILL)
            for w in worker:
                assert await w.closed_by_peer(timeout=5), "connections of the killed worker end"
            deadline = time.monotonic() + 20
            while not (ctl.pool.restarts == 1 and ctl.pool.pids and ctl.pool.pids[0] != pid):
                assert time.monotonic() < deadline, "the worker was not started again"
                await asyncio.sleep(0.05)
            # the new worker serves, and knows every route
            primary, worker = await _spread(ctl, want=6)
            for w in worker:
                for t in ("K0", "K49"):
                    assert _queues(await w.call(route_query(t))) == 3
            # registrations still reach it
            body2 = register_body([topic_config("K0", read=5), FILLER], counter=2)
            assert (await broker.call(register_request(CLUSTER, "b0", 0, A0, body2))).code == 0
            await _until_all(worker, "K0", 5, time.monotonic())
            # and it passes on what it does not answer itself, on the broker's own channel
            b2 = worker[0]
            await register(b2, CLUSTER, "b2", 0, "10.0.0.3:10911", [topic_config("K2", read=1), FILLER])
            assert _queues(await b2.call(route_query("K2")), "b2") == 1
            await _close_all([*first, *primary, *worker])

    run(body(), limit=90)


@pytest.mark.parametrize("workers", [1, 2])
def test_route_answers_are_the_same_bytes_on_every_process(tmp_path: Path, workers: int) -> None:
    """Fast path, generic path and worker answer alike: JSON forms, versions, unknown topics."""

    async def body() -> None:
        async with namesrv(tmp_path, workers=workers) as ctl:
            broker = await Wire.open(ctl.port)
            await register(broker, CLUSTER, "b0", 0, A0, [topic_config("Same", read=2), FILLER])
            primary, worker = await _spread(ctl, want=4) if workers > 1 else ([broker], [])
            answers: set[tuple[str, bytes]] = set()
            for w in primary + worker:
                for version, extra in ((479, {}), (400, {}), (400, {"acceptStandardJsonOnly": "true"})):
                    q = request(105, {"topic": "Same", **extra}, version=version)
                    r = await w.call(q)
                    answers.add((r.header_raw.replace(f'"opaque":{q.opaque}', '"opaque":0'), r.body))
                missing = await w.call(route_query("Missing"))
                assert missing.code == 17
                assert "No topic route info in name server for the topic: Missing" in missing.header["remark"]
            assert len(answers) == 2, answers  # legacy and standard JSON, nothing else
            await _close_all([broker, *primary, *worker])

    run(body(), limit=60)


def test_order_configs_and_zones_are_answered_alike_by_every_process(tmp_path: Path) -> None:
    """Route queries a worker cannot answer from its copy (orderMessageEnable splices the KV order
    config in; zone mode filters brokers) are passed on: the same bytes from every process, and a
    KV change is seen at once."""

    async def body() -> None:
        async with namesrv(tmp_path, workers=2, order_message_enable=True) as ctl:
            primary, worker = await _spread(ctl, want=4)
            broker = primary[0]
            topics = [topic_config("Z"), FILLER]
            await register(broker, CLUSTER, "ba", 0, A0, topics, extra={"__ZONE_NAME": "za"})
            await register(broker, CLUSTER, "bb", 0, "10.0.0.2:10911", topics, extra={"__ZONE_NAME": "zb"})
            kv = {"namespace": "ORDER_TOPIC_CONFIG", "key": "Z", "value": "ba:4;bb:4"}
            assert (await worker[0].call(request(100, kv))).code == 0  # passed on to the primary
            queries = [
                {"topic": "Z"},
                {"topic": "Z", "__ZONE_MODE": "true", "__ZONE_NAME": "zb"},
            ]
            for ext in queries:
                bodies = {(await w.call(request(105, ext))).body for w in primary + worker}
                assert len(bodies) == 1, ext
                route = bodies.pop()  # zone-filtered routes are in legacy JSON (numeric keys bare)
                assert b'"orderTopicConf":"ba:4;bb:4"' in route
                assert b'"brokerName":"bb"' in route
                assert (b'"brokerName":"ba"' in route) is ("__ZONE_MODE" not in ext)
            await _close_all(primary + worker)

    run(body(), limit=60)
