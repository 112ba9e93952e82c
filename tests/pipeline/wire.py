"""A live name server (ours) and a stub broker on loopback, in a background event loop.

The stub broker answers the four broker requests the collector sends with bodies built by
:mod:`mqadmin.protocol.bodies` (the real broker comes later); it registers with the name server over
the wire like a broker does, and so does a second broker whose address has nothing listening, to
play a broker that is down.
"""

from __future__ import annotations

import asyncio
import json
import socket
import threading
import zlib
from collections.abc import Coroutine, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mqadmin.namesrv.config import NamesrvConfig, NettyServerConfig
from mqadmin.namesrv.server import NamesrvController
from mqadmin.protocol.bodies import (
    ConsumeStats,
    KVTable,
    MessageQueue,
    OffsetWrapper,
    SubscriptionGroupConfig,
    SubscriptionGroupWrapper,
    TopicOffset,
    TopicStatsTable,
)
from mqadmin.protocol.codes import RequestCode, ResponseCode
from mqadmin.protocol.command import RemotingCommand
from mqadmin.remoting.client import Connection, RemotingClient
from mqadmin.remoting.server import RemotingServer

CLUSTER = "WireCluster"
UP = "broker-up"
DOWN = "broker-down"


@dataclass
class StubBroker:
    """Offsets that tests may change between runs; answers like a 4.9.8 broker."""

    name: str = UP
    topics: dict[str, list[int]] = field(default_factory=lambda: {"Orders": [10, 20, 30, 0], "Quiet": [5, 5]})
    groups: dict[str, dict[str, list[int]]] = field(
        default_factory=lambda: {"G1": {"Orders": [8, 20, 25, 0]}}
    )
    known_groups: tuple[str, ...] = ("G1", "G-none", "TOOLS_CONSUMER")
    runtime: dict[str, str] = field(
        default_factory=lambda: {"brokerVersionDesc": "V4_9_8", "putTps": "1.0 2.0 3.0"}
    )
    calls: list[int] = field(default_factory=list)

    def handle(self, conn: Connection, cmd: RemotingCommand) -> RemotingCommand:
        self.calls.append(cmd.code)
        if cmd.code == RequestCode.GET_BROKER_RUNTIME_INFO:
            return cmd.response(body=KVTable(dict(self.runtime)).encode())
        if cmd.code == RequestCode.GET_TOPIC_STATS_INFO:
            topic = cmd.ext("topic") or ""
            if topic not in self.topics:
                return cmd.response(ResponseCode.TOPIC_NOT_EXIST, f"topic[{topic}] not exist")
            table = {
                MessageQueue(topic, self.name, q): TopicOffset(0, off, 1714600000000 + off if off else 0)
                for q, off in enumerate(self.topics[topic])
            }
            return cmd.response(body=TopicStatsTable(table).encode())
        if cmd.code == RequestCode.GET_ALL_SUBSCRIPTIONGROUP_CONFIG:
            groups = {g: SubscriptionGroupConfig(group_name=g) for g in self.known_groups}
            return cmd.response(body=SubscriptionGroupWrapper(groups).encode())
        if cmd.code == RequestCode.GET_CONSUME_STATS:
            group = cmd.ext("consumerGroup") or ""
            table = {}
            for topic, consumed in self.groups.get(group, {}).items():
                for q, c in enumerate(consumed):
                    b = self.topics[topic][q]
                    table[MessageQueue(topic, self.name, q)] = OffsetWrapper(
                        b, c, 1714600000000 + c if c else 0
                    )
            return cmd.response(body=ConsumeStats(table, 0.0).encode())
        return cmd.response(
            ResponseCode.REQUEST_CODE_NOT_SUPPORTED, f" request type {cmd.code} not supported"
        )


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _topic_config(name: str, queues: int) -> dict[str, Any]:
    return {
        "order": False, "perm": 6, "readQueueNums": queues, "topicFilterType": "SINGLE_TAG",
        "topicName": name, "topicSysFlag": 0, "writeQueueNums": queues,
    }  # fmt: skip


def register_command(broker: str, addr: str, topics: dict[str, int]) -> RemotingCommand:
    body = json.dumps(
        {
            "filterServerList": [],
            "topicConfigSerializeWrapper": {
                "dataVersion": {"counter": 1, "timestamp": 1714600000000},
                "topicConfigTable": {t: _topic_config(t, n) for t, n in topics.items()},
            },
        },
        separators=(",", ":"),
    ).encode()
    ext = {
        "brokerId": "0", "clusterName": CLUSTER, "brokerAddr": addr, "haServerAddr": addr,
        "compressed": "false", "brokerName": broker, "bodyCrc32": str(zlib.crc32(body) & 0x7FFFFFFF),
    }  # fmt: skip
    return RemotingCommand.request(RequestCode.REGISTER_BROKER, ext, body, version=409)


@dataclass
class WireCluster:
    namesrv: str
    broker_addr: str
    down_addr: str
    broker: StubBroker
    loop: asyncio.AbstractEventLoop

    def call(self, coro: Coroutine[Any, Any, Any], timeout: float = 20.0) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)


async def start_namesrv(tmp_path: Path) -> NamesrvController:
    """Our name server in this event loop, on a loopback port picked at run time, files in ``tmp_path``."""
    ns = NamesrvController(
        NamesrvConfig(
            rocketmq_home=None,
            kv_config_path=str(tmp_path / "kvConfig.json"),
            config_store_path=str(tmp_path / "namesrv.properties"),
        ),
        NettyServerConfig(bind_address="127.0.0.1", listen_port=0),
    )
    await ns.start()
    return ns


@contextmanager
def wire_cluster(tmp_path: Path) -> Iterator[WireCluster]:
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, name="wire-cluster", daemon=True)
    thread.start()
    stub = StubBroker()
    state: dict[str, Any] = {}

    async def start() -> WireCluster:
        ns = await start_namesrv(tmp_path)
        server = RemotingServer()
        server.register_default_handler(stub.handle)
        port = await server.start("127.0.0.1", 0)
        up, down = f"127.0.0.1:{port}", f"127.0.0.1:{_free_port()}"
        client = RemotingClient()
        for name, addr, topics in (
            (UP, up, {t: len(q) for t, q in stub.topics.items()}),
            (DOWN, down, {"Orders": 4, "OnlyDown": 2}),
        ):
            resp = await client.invoke(ns.address, register_command(name, addr, topics), 5.0)
            assert resp.code == 0, resp
        state.update(ns=ns, server=server, client=client)
        return WireCluster(ns.address, up, down, stub, loop)

    cluster = asyncio.run_coroutine_threadsafe(start(), loop).result(20)
    try:
        yield cluster
    finally:

        async def stop() -> None:
            await state["client"].close()
            await state["server"].stop(grace=1.0)
            await state["ns"].shutdown(grace=1.0)

        asyncio.run_coroutine_threadsafe(stop(), loop).result(20)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(5)
        loop.close()
