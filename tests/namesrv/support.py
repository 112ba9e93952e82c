"""Helpers for the name server tests: an in-process server on a free port and a raw wire client.

``MQADMIN_TEST_NAMESRV_WORKERS`` (default 1) is the number of processes every name server these
tests start runs with: ``MQADMIN_TEST_NAMESRV_WORKERS=2 pytest tests/namesrv`` runs them all
against the multi-process server (worker processes answering beside the in-process primary).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import struct
import zlib
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mqadmin.namesrv.config import NamesrvConfig, NettyServerConfig
from mqadmin.namesrv.server import NamesrvController
from mqadmin.protocol.command import RemotingCommand
from mqadmin.protocol.frame import encode

_LEN = struct.Struct(">i")

WORKERS = int(os.environ.get("MQADMIN_TEST_NAMESRV_WORKERS", "1"))
"""Processes per name server started by these tests."""


def run(coro: Coroutine[Any, Any, Any], limit: float = 20.0) -> Any:
    """One test body in a fresh loop, bounded so a bug fails instead of hanging."""

    async def bounded() -> Any:
        return await asyncio.wait_for(coro, limit)

    return asyncio.run(bounded())


@contextlib.asynccontextmanager
async def namesrv(tmp_path: Path, **settings: Any) -> AsyncIterator[NamesrvController]:
    """A started name server on 127.0.0.1 and a free port; ``settings`` are NamesrvConfig fields
    or NettyServerConfig fields (by their Python names)."""
    ns = NamesrvConfig(
        rocketmq_home=None,
        kv_config_path=str(tmp_path / "namesrv" / "kvConfig.json"),
        config_store_path=str(tmp_path / "namesrv" / "namesrv.properties"),
    )
    server = NettyServerConfig(bind_address="127.0.0.1", listen_port=0)
    file_properties = settings.pop("file_properties", None)
    workers = settings.pop("workers", WORKERS)
    for k, v in settings.items():
        if hasattr(ns, k):
            setattr(ns, k, v)
        elif hasattr(server, k):
            setattr(server, k, v)
        else:
            raise TypeError(f"unknown setting {k}")
    ctl = NamesrvController(ns, server, file_properties=file_properties, workers=workers)
    await ctl.start()
    try:
        yield ctl
    finally:
        await ctl.shutdown(grace=1.0)


def with_namesrv(
    tmp_path: Path, test: Callable[[NamesrvController], Awaitable[None]], **settings: Any
) -> None:
    """Run ``test`` against a name server started for it (see :func:`namesrv`), bounded like :func:`run`."""

    async def body() -> None:
        async with namesrv(tmp_path, **settings) as ctl:
            await test(ctl)

    run(body())


@dataclass
class Reply:
    """One response frame as it came off the wire."""

    header_raw: str
    header: dict[str, Any]
    body: bytes
    frame: bytes

    @property
    def code(self) -> int:
        return int(self.header["code"])

    @property
    def ext(self) -> dict[str, str] | None:
        return self.header.get("extFields")


class Wire:
    """A raw client: whole frames out, whole frames in, nothing interpreted on the way."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer
        self._early: dict[int, Reply] = {}

    @classmethod
    async def open(cls, port: int, host: str = "127.0.0.1") -> Wire:
        reader, writer = await asyncio.open_connection(host, port)
        return cls(reader, writer)

    async def send(self, frame: bytes) -> None:
        self.writer.write(frame)
        await self.writer.drain()

    async def recv(self, timeout: float = 5.0) -> Reply:
        head = await asyncio.wait_for(self.reader.readexactly(4), timeout)
        (total,) = _LEN.unpack(head)
        payload = await asyncio.wait_for(self.reader.readexactly(total), timeout)
        mark = _LEN.unpack_from(payload, 0)[0]
        hlen = mark & 0xFFFFFF
        raw = payload[4 : 4 + hlen].decode("utf-8")
        return Reply(raw, json.loads(raw), payload[4 + hlen :], head + payload)

    async def recv_opaque(self, opaque: int, timeout: float = 5.0) -> Reply:
        """The response with this opaque (others that arrive first are kept for later)."""
        if opaque in self._early:
            return self._early.pop(opaque)
        while True:
            reply = await self.recv(timeout)
            if reply.header.get("opaque") == opaque:
                return reply
            self._early[reply.header.get("opaque")] = reply  # type: ignore[index]

    async def call(self, cmd: RemotingCommand | bytes, timeout: float = 5.0) -> Reply:
        frame = cmd if isinstance(cmd, bytes) else encode(cmd)
        opaque = json.loads(frame[8 : 8 + (_LEN.unpack_from(frame, 4)[0] & 0xFFFFFF)])["opaque"]
        await self.send(frame)
        return await self.recv_opaque(opaque, timeout)

    async def closed_by_peer(self, timeout: float = 3.0) -> bool:
        """True once the server has closed (or reset) this connection."""
        try:
            data = await asyncio.wait_for(self.reader.read(1 << 16), timeout)
        except (ConnectionError, asyncio.IncompleteReadError):
            return True
        except TimeoutError:
            return False
        return data == b""

    async def close(self) -> None:
        self.writer.close()
        with contextlib.suppress(Exception):
            await self.writer.wait_closed()


_opaque = iter(range(1, 1 << 30))


def request(
    code: int,
    ext: dict[str, str] | None = None,
    body: bytes | None = None,
    *,
    version: int = 479,
    oneway: bool = False,
) -> RemotingCommand:
    cmd = RemotingCommand(
        code=code, opaque=next(_opaque), flag=2 if oneway else 0, version=version, ext_fields=ext, body=body
    )
    return cmd


def topic_config(
    name: str, read: int = 4, write: int = 4, perm: int = 6, sys_flag: int = 0
) -> dict[str, Any]:
    return {
        "order": False,
        "perm": perm,
        "readQueueNums": read,
        "topicFilterType": "SINGLE_TAG",
        "topicName": name,
        "topicSysFlag": sys_flag,
        "writeQueueNums": write,
    }


def register_body(
    topics: Iterable[dict[str, Any]],
    counter: int = 1,
    timestamp: int = 1700000000000,
    state_version: int | None = None,
    filters: list[str] | None = None,
) -> bytes:
    """A 4.x-style (or, with ``state_version``, 5.x-style) REGISTER_BROKER JSON body."""
    dv: dict[str, Any] = {"counter": counter, "timestamp": timestamp}
    if state_version is not None:
        dv["stateVersion"] = state_version
    body = {
        "filterServerList": filters or [],
        "topicConfigSerializeWrapper": {
            "dataVersion": dv,
            "topicConfigTable": {t["topicName"]: t for t in topics},
        },
    }
    return json.dumps(body, separators=(",", ":")).encode()


def register_request(
    cluster: str,
    name: str,
    broker_id: int,
    addr: str,
    body: bytes,
    *,
    version: int = 409,
    ha: str | None = None,
    crc: bool = True,
    extra: dict[str, str] | None = None,
    oneway: bool = False,
) -> RemotingCommand:
    ext = {
        "brokerId": str(broker_id),
        "clusterName": cluster,
        "brokerAddr": addr,
        "haServerAddr": ha or addr.replace(":1", ":2", 1),
        "compressed": "false",
        "brokerName": name,
    }
    if crc:
        ext["bodyCrc32"] = str(zlib.crc32(body) & 0x7FFFFFFF)
    ext.update(extra or {})
    return request(103, ext, body, version=version, oneway=oneway)


async def register(
    w: Wire, cluster: str, name: str, broker_id: int, addr: str, topics: Iterable[dict[str, Any]], **kw: Any
) -> Reply:
    """Register a broker with the topics (a 4.x-style body) over ``w``; it must be accepted."""
    reply = await w.call(register_request(cluster, name, broker_id, addr, register_body(topics), **kw))
    assert reply.code == 0, reply.header
    return reply


def route_query(topic: str, version: int = 479) -> RemotingCommand:
    return request(105, {"topic": topic}, version=version)
