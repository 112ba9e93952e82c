"""Peers that send garbage: their connection is closed or told off, everyone else is served, and the
route tables do not move."""

from __future__ import annotations

import asyncio
import json
import random
import struct
from pathlib import Path
from typing import Any

from mqadmin.namesrv.server import NamesrvController
from mqadmin.protocol.frame import MAX_FRAME, encode
from tests.namesrv.support import (
    Wire,
    register,
    register_body,
    register_request,
    request,
    route_query,
    topic_config,
    with_namesrv,
)

TOPICS = [topic_config("T1"), topic_config("T2")]
ADDR = "10.3.0.1:10911"


async def _registered_broker(ctl: NamesrvController) -> Wire:
    """A broker's connection, over which it registered T1 and T2."""
    broker = await Wire.open(ctl.port)
    await register(broker, "C", "b", 0, ADDR, TOPICS)
    return broker


def _snapshot(ctl: NamesrvController) -> Any:
    routes = ctl.routes
    return (
        routes.cluster_info_body(),
        sorted(routes.all_topics()),
        [routes.route_body(t, True) for t in ("T1", "T2")],
        sorted(routes.broker_live_table),
        ctl.kv.to_json(),
    )


async def _serving(ctl: NamesrvController) -> None:
    """A well-behaved client still gets its route."""
    w = await Wire.open(ctl.port)
    reply = await w.call(route_query("T1"))
    assert reply.code == 0 and json.loads(reply.body)["queueDatas"]
    await w.close()


def _frame(header: bytes, body: bytes = b"", kind: int = 0) -> bytes:
    return struct.pack(">ii", 4 + len(header) + len(body), (kind << 24) | len(header)) + header + body


BROKEN_FRAMES = {
    "header length beyond the frame": struct.pack(">ii", 8, 200) + b"{}{}",
    "header not JSON": _frame(b"{code:105, what"),
    "header a JSON list": _frame(b"[1,2,3]"),
    "code not a number": _frame(b'{"code":"x","flag":0,"opaque":1}'),
    "unknown serialize type": _frame(b"{}", kind=7),
    "binary header truncated": _frame(b"\x00\x69\x00", kind=1),
    "negative length": struct.pack(">i", -5) + b"\x00" * 8,
    "length below the header field": struct.pack(">i", 2) + b"\x00\x00",
    "16 MiB + 1": struct.pack(">i", MAX_FRAME - 3),
}


def test_malformed_frames_close_only_that_connection(tmp_path: Path) -> None:
    async def body(ctl: NamesrvController) -> None:
        broker = await _registered_broker(ctl)
        before = _snapshot(ctl)
        for what, frame in BROKEN_FRAMES.items():
            w = await Wire.open(ctl.port)
            await w.send(frame)
            assert await w.closed_by_peer(), what
            await w.close()
            await _serving(ctl)
            assert _snapshot(ctl) == before, what
        # the broker's own connection was not disturbed
        assert (await broker.call(route_query("T2"))).code == 0
        await broker.close()

    with_namesrv(tmp_path, body)


def test_bad_bodies_are_answered_with_errors(tmp_path: Path) -> None:
    async def body(ctl: NamesrvController) -> None:
        broker = await _registered_broker(ctl)
        before = _snapshot(ctl)
        w = await Wire.open(ctl.port)
        bad = [
            register_request("C", "b", 0, ADDR, b"\xff\xfe not json at all"),
            register_request("C", "b", 0, ADDR, b'{"topicConfigSerializeWrapper":[1,2]}'),
            register_request("C", "b", 0, ADDR, b"\x78\xda garbage", extra={"compressed": "true"}),
            register_request("C", "b", 0, ADDR, register_body(TOPICS), crc=False, extra={"bodyCrc32": "1"}),
            request(217, {"topic": "T1"}, b"not a route"),
            request(322, {"clusterName": "C", "brokerAddr": ADDR}, b"[oops"),
        ]
        for req in bad:
            reply = await w.call(req)
            assert reply.code == 1, reply.header
            assert _snapshot(ctl) == before
        truncated = register_body(TOPICS)[:-10]
        reply = await w.call(register_request("C", "b", 0, ADDR, truncated))
        assert reply.code == 1 and _snapshot(ctl) == before
        await _serving(ctl)
        await w.close()
        await broker.close()

    with_namesrv(tmp_path, body)


def test_silent_and_vanishing_clients(tmp_path: Path) -> None:
    async def body(ctl: NamesrvController) -> None:
        broker = await _registered_broker(ctl)
        before = _snapshot(ctl)
        silent = await Wire.open(ctl.port)
        # half a frame, then gone: the rest of the server does not notice
        for cut in (2, 7, 30):
            w = await Wire.open(ctl.port)
            await w.send(encode(route_query("T1"))[:cut])
            await w.close()
        partial = await Wire.open(ctl.port)
        await partial.send(encode(route_query("T1"))[:-3])
        await _serving(ctl)
        assert _snapshot(ctl) == before
        # the idle limit (serverChannelMaxIdleTimeSeconds) closes the silent one and the stuck one
        assert await silent.closed_by_peer(timeout=4.0)
        assert await partial.closed_by_peer(timeout=4.0)
        await silent.close()
        await partial.close()
        # the broker went idle too: its connection closed, so its routes went with it
        assert await broker.closed_by_peer(timeout=4.0)
        await asyncio.sleep(0.05)
        assert not ctl.routes.broker_live_table and not ctl.routes.topic_queue_table
        await broker.close()

    with_namesrv(tmp_path, body, server_channel_max_idle_time_seconds=1)


def test_random_garbage_never_hurts_the_server(tmp_path: Path) -> None:
    async def body(ctl: NamesrvController) -> None:
        rng = random.Random(2024)
        broker = await _registered_broker(ctl)
        before = _snapshot(ctl)
        good = encode(route_query("T1"))
        code_at = good.index(b'"code":') + 7
        spots = [i for i in range(len(good)) if not code_at <= i < code_at + 3]  # stays a read
        for _ in range(60):
            w = await Wire.open(ctl.port)
            blob = bytearray(good)
            for _ in range(rng.randint(1, 6)):
                blob[rng.choice(spots)] = rng.randrange(256)
            await w.send(bytes(blob) + bytes(rng.randrange(256) for _ in range(rng.randint(0, 40))))
            # answered or closed, or (a length that waits for more) left alone: never a crash
            try:
                await asyncio.wait_for(w.reader.read(1 << 16), 0.05)
            except (TimeoutError, ConnectionError):
                pass
            await w.close()
        await _serving(ctl)
        assert _snapshot(ctl) == before
        await broker.close()

    with_namesrv(tmp_path, body)
