"""What the name server does on its own: expiry scans, lost connections, notifications."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from mqadmin.namesrv.server import NamesrvController
from mqadmin.protocol.frame import FrameDecoder
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
    with_namesrv,
)

TOPICS = [topic_config("T1"), topic_config("T2")]


def test_silent_broker_expires_and_its_channel_is_closed(tmp_path: Path) -> None:
    async def body(ctl: NamesrvController) -> None:
        broker = await Wire.open(ctl.port)
        req = register_request(
            "C", "b", 0, "10.6.0.1:10911", register_body(TOPICS, state_version=0),
            version=479, extra={"heartbeatTimeoutMillis": "300", "enableActingMaster": "false"},
        )  # fmt: skip
        assert (await broker.call(req)).code == 0
        client = await Wire.open(ctl.port)
        assert (await client.call(route_query("T1"))).code == 0
        ext = {"clusterName": "C", "brokerAddr": "10.6.0.1:10911", "brokerName": "b", "brokerId": "0"}
        for _ in range(4):  # heartbeats keep it alive past its timeout
            await asyncio.sleep(0.15)
            assert (await broker.call(request(904, ext))).code == 0
        assert (await client.call(route_query("T1"))).code == 0
        assert await broker.closed_by_peer(timeout=2.0)  # silent: expired, channel closed
        assert (await client.call(route_query("T1"))).code == 17
        assert json.loads((await client.call(request(106))).body) == {
            "brokerAddrTable": {},
            "clusterAddrTable": {},
        }
        await client.close()
        await broker.close()

    with_namesrv(tmp_path, body, scan_not_active_broker_interval=50)


def test_closed_broker_connection_takes_its_routes(tmp_path: Path) -> None:
    async def body(ctl: NamesrvController) -> None:
        a = await Wire.open(ctl.port)
        b = await Wire.open(ctl.port)
        await register(a, "C", "a", 0, "10.6.1.1:10911", TOPICS)
        await register(b, "C", "b", 0, "10.6.1.2:10911", [topic_config("T2"), topic_config("T3")])
        await a.close()
        await asyncio.sleep(0.1)
        client = await Wire.open(ctl.port)
        assert (await client.call(route_query("T1"))).code == 17
        t2 = json.loads((await client.call(route_query("T2"))).body)
        assert [q["brokerName"] for q in t2["queueDatas"]] == ["b"]
        await client.close()
        await b.close()

    with_namesrv(tmp_path, body)


def test_min_broker_id_change_is_notified(tmp_path: Path) -> None:
    async def body() -> None:
        received: asyncio.Queue[bytes] = asyncio.Queue()

        async def slave(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            decoder = FrameDecoder()
            while data := await reader.read(4096):
                for cmd in decoder.feed(data):
                    await received.put(json.dumps([cmd.code, cmd.flag, cmd.ext_fields]).encode())
            writer.close()

        listener = await asyncio.start_server(slave, "127.0.0.1", 0)
        slave_addr = f"127.0.0.1:{listener.sockets[0].getsockname()[1]}"
        async with namesrv(tmp_path, notify_min_broker_id_changed=True) as ctl:
            w = await Wire.open(ctl.port)
            five = {"enableActingMaster": "true"}
            req = register_request(
                "C", "b", 1, slave_addr, register_body(TOPICS, state_version=0), version=479, extra=five
            )
            assert (await w.call(req)).code == 0
            req = register_request(
                "C", "b", 0, "127.0.0.1:1", register_body(TOPICS, state_version=0), version=479, extra=five
            )
            assert (await w.call(req)).code == 0
            code, flag, ext = json.loads(await asyncio.wait_for(received.get(), 3))
            assert (code, flag & 2) == (905, 2)
            assert ext["minBrokerId"] == "0" and ext["minBrokerAddr"] == "127.0.0.1:1"
            await w.close()
        listener.close()

    run(body())
