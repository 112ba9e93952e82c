"""A topic change waits for its own registration, whatever other changes start meanwhile.

The name server here is a real remoting server on a loopback port that holds each REGISTER_BROKER
until the test releases it, so the order of the answers is the test's to choose.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from mqadmin.broker.config import BrokerSettings
from mqadmin.broker.registration import Registrar
from mqadmin.broker.topics import TopicManager
from mqadmin.protocol.bodies.topic import TopicConfig
from mqadmin.protocol.codes import RequestCode, ResponseCode
from mqadmin.protocol.command import RemotingCommand
from mqadmin.remoting.client import Connection, RemotingClient
from mqadmin.remoting.server import RemotingServer


class HeldNameServer:
    """Answers each REGISTER_BROKER when :meth:`release` is called for it (arrival order)."""

    def __init__(self, code: int = ResponseCode.SUCCESS) -> None:
        self.code = code
        self.arrived: list[asyncio.Event] = []
        self.some_arrived = asyncio.Event()

    async def register(self, conn: Connection, cmd: RemotingCommand) -> RemotingCommand:
        gate = asyncio.Event()
        self.arrived.append(gate)
        self.some_arrived.set()
        await gate.wait()
        return cmd.response(self.code, None if self.code == ResponseCode.SUCCESS else "refused")

    async def wait_for(self, n: int) -> None:
        while len(self.arrived) < n:
            self.some_arrived.clear()
            await asyncio.wait_for(self.some_arrived.wait(), 5)

    def release(self, i: int) -> None:
        self.arrived[i].set()


@asynccontextmanager
async def registrar(tmp_path: Path, ns: HeldNameServer) -> AsyncIterator[Registrar]:
    server = RemotingServer()
    server.register_handler(RequestCode.REGISTER_BROKER, ns.register)
    port = await server.start("127.0.0.1", 0)
    s = BrokerSettings()
    s.broker.broker_ip1 = s.broker.broker_ip2 = "127.0.0.1"
    s.broker.namesrv_addr = f"127.0.0.1:{port}"
    s.store.store_path_root_dir = str(tmp_path / "store")
    s.fix_up()
    s.store.config_dir.mkdir(parents=True)
    client = RemotingClient()
    topics = TopicManager(s.broker, s.store.config_dir)
    for name in ("A", "B"):
        topics.update(TopicConfig(name, 4, 4, 6))
    reg = Registrar(s, topics, client)
    try:
        yield reg
    finally:
        for gate in ns.arrived:
            gate.set()
        await reg.close()
        await client.close()
        await server.stop(0)


def test_each_change_waits_for_its_own_registration(tmp_path: Path) -> None:
    async def go() -> None:
        ns = HeldNameServer()
        async with registrar(tmp_path, ns) as reg:
            first = reg.topic_changed("A")
            await ns.wait_for(1)
            second = reg.topic_changed("B")
            await ns.wait_for(2)
            ns.release(1)  # the later change is registered first
            await asyncio.wait_for(second, 5)
            assert not first.done()  # the earlier change still waits for its own
            ns.release(0)
            await asyncio.wait_for(first, 5)

    asyncio.run(go())


def test_a_refused_or_abandoned_registration_still_lets_the_change_answer(tmp_path: Path) -> None:
    async def go() -> None:
        ns = HeldNameServer(code=ResponseCode.SYSTEM_ERROR)
        async with registrar(tmp_path, ns) as reg:
            refused = reg.topic_changed("A")
            await ns.wait_for(1)
            ns.release(0)
            assert await asyncio.wait_for(refused, 5) is None  # logged, not raised into the handler
            pending = reg.topic_changed("B")
            await ns.wait_for(2)
            await reg.close()  # shutdown: the registration still running is cancelled
            await asyncio.sleep(0)
            assert pending.cancelled()

    asyncio.run(go())
