"""An in-process name server and broker on loopback ports picked at run time, for fast request tests."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from pathlib import Path

from mqadmin.broker.config import BrokerSettings
from mqadmin.broker.server import BrokerController
from mqadmin.namesrv.config import NamesrvConfig, NettyServerConfig
from mqadmin.namesrv.server import NamesrvController
from mqadmin.protocol.command import RemotingCommand
from mqadmin.remoting.client import RemotingClient


def settings(root: Path, namesrv: str | None, **store: object) -> BrokerSettings:
    s = BrokerSettings()
    s.broker.broker_ip1 = s.broker.broker_ip2 = "127.0.0.1"
    s.broker.broker_name = "broker-a"
    s.broker.namesrv_addr = namesrv
    s.server.listen_port = 0
    s.store.store_path_root_dir = str(root / "store")
    for k, v in store.items():
        setattr(s.store, k, v)
    return s


class Env:
    """The broker, the name server and a client; :meth:`req` sends one request to the broker."""

    def __init__(self, broker: BrokerController, ns: NamesrvController, client: RemotingClient) -> None:
        self.broker = broker
        self.ns = ns
        self.client = client

    @property
    def addr(self) -> str:
        return self.broker.address

    async def req(
        self, code: int, ext: dict[str, str] | None = None, body: bytes | None = None
    ) -> RemotingCommand:
        return await self.client.invoke(self.addr, RemotingCommand.request(code, ext or {}, body), 10)

    async def create_topic(self, topic: str, queues: int = 4) -> RemotingCommand:
        return await self.req(
            17,
            {
                "topic": topic,
                "defaultTopic": "TBW102",
                "readQueueNums": str(queues),
                "writeQueueNums": str(queues),
                "perm": "6",
                "topicFilterType": "SINGLE_TAG",
                "topicSysFlag": "0",
                "order": "false",
            },
        )

    async def send(
        self, topic: str, body: bytes, queue_id: int = 0, props: str = "TAGS\x01t\x02"
    ) -> RemotingCommand:
        return await self.req(
            310,
            {
                "a": "PG",
                "b": topic,
                "c": "TBW102",
                "d": "4",
                "e": str(queue_id),
                "f": "0",
                "g": "1700000000000",
                "h": "0",
                "i": props,
                "j": "0",
                "k": "false",
                "m": "false",
            },
            body,
        )

    async def pull(
        self,
        topic: str,
        queue_id: int,
        offset: int,
        group: str = "G",
        sys_flag: int = 4,
        suspend_ms: int = 0,
        sub: str = "*",
    ) -> RemotingCommand:
        return await self.req(
            11,
            {
                "consumerGroup": group,
                "topic": topic,
                "queueId": str(queue_id),
                "queueOffset": str(offset),
                "maxMsgNums": "32",
                "sysFlag": str(sys_flag),
                "commitOffset": "0",
                "suspendTimeoutMillis": str(suspend_ms),
                "subVersion": "0",
                "subscription": sub,
            },
        )


@contextlib.asynccontextmanager
async def running(tmp_path: Path, **store: object) -> AsyncIterator[Env]:
    ns = NamesrvController(
        NamesrvConfig(
            kv_config_path=str(tmp_path / "kv.json"), config_store_path=str(tmp_path / "ns.properties")
        ),
        NettyServerConfig(listen_port=0, bind_address="127.0.0.1"),
    )
    await ns.start()
    broker = BrokerController(settings(tmp_path, ns.address, **store), bind_address="127.0.0.1")
    client = RemotingClient()
    try:
        await broker.start()
        yield Env(broker, ns, client)
    finally:
        await client.close()
        await broker.shutdown()
        await ns.shutdown()
