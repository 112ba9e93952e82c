"""Registration with the name servers (Java ``BrokerOuterAPI.registerBrokerAll``/``unregisterBrokerAll``).

REGISTER_BROKER (103) carries the whole topic table and its DataVersion as a ``RegisterBrokerBody``
with ``bodyCrc32 = crc32(body) & 0x7FFFFFFF``; it goes to every configured name server in
parallel. Boot, periodic and post-UPDATE_AND_CREATE_TOPIC registrations wait for the answers
(and honour the ORDER_TOPIC_CONFIG table a 4.x name server returns); a registration right after an
automatic topic creation is sent oneway, and the oneway registrations asked for while the event
loop runs one round of callbacks go out as one (the body, the whole table, is built once).
UNREGISTER_BROKER (104) is sent at shutdown. Both carry the declared headers the name server reads
(:mod:`mqadmin.protocol.headers.namesrv`), their fields in the HashMap order a Java broker sends
them in.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import zlib
from collections.abc import Coroutine
from typing import Any

from mqadmin.broker.config import BrokerSettings
from mqadmin.broker.topics import TopicManager
from mqadmin.broker.version import broker_version
from mqadmin.protocol.bodies.kv import KVTable
from mqadmin.protocol.bodies.register import RegisterBrokerBody
from mqadmin.protocol.bodies.topic import (
    TopicConfig,
    TopicConfigAndMappingSerializeWrapper,
    TopicConfigSerializeWrapper,
)
from mqadmin.protocol.codes import RequestCode, ResponseCode
from mqadmin.protocol.command import RemotingCommand
from mqadmin.protocol.errors import ProtocolError
from mqadmin.protocol.headers.namesrv.registration import (
    RegisterBrokerRequestHeader,
    UnRegisterBrokerRequestHeader,
)
from mqadmin.protocol.javacoll import java_hash_dict
from mqadmin.protocol.perm import PERM_READ, PERM_WRITE
from mqadmin.remoting.client import RemotingClient

__all__ = ["Registrar", "body_crc32"]

log = logging.getLogger("mqadmin.broker")

UNREGISTER_TIMEOUT_S = 3.0


def body_crc32(body: bytes) -> int:
    """``UtilAll.crc32``: CRC32 keeping the low 31 bits."""
    return zlib.crc32(body) & 0x7FFFFFFF


class Registrar:
    """Sends the broker's registration to every name server named in ``namesrvAddr``."""

    def __init__(self, settings: BrokerSettings, topics: TopicManager, client: RemotingClient) -> None:
        self.settings = settings
        behaviour = broker_version(settings.file_properties)
        self.version = behaviour.ordinal
        """The version the frames say (``rocketmqVersion``, :mod:`mqadmin.broker.version`)."""
        self.acting_master: bool | None = False if behaviour.five_x else None
        """5.x's ``enableActingMaster`` (off by default); a 4.9.8 broker has no such field."""
        self.topics = topics
        self.client = client
        self._oneway_tasks: set[asyncio.Task[None]] = set()
        self._oneway_queued = False
        self._changes: set[asyncio.Task[None]] = set()

    @property
    def namesrv_addrs(self) -> list[str]:
        return self.settings.broker.namesrv_list

    def _wrapper(self, only: str | None) -> TopicConfigSerializeWrapper:
        w = self.topics.wrapper(only)
        perm = self.settings.broker.broker_permission
        if not (perm & PERM_READ and perm & PERM_WRITE):
            w.topic_config_table = {
                name: TopicConfig(name, tc.read_queue_nums, tc.write_queue_nums, perm)
                for name, tc in (w.topic_config_table or {}).items()
            }
        return w

    def _request(self, body: bytes, oneway: bool) -> RemotingCommand:
        b = self.settings.broker
        header = RegisterBrokerRequestHeader(
            broker_name=b.broker_name,
            broker_addr=self.settings.broker_addr,
            cluster_name=b.broker_cluster_name,
            ha_server_addr=self.settings.ha_server_addr,
            broker_id=b.broker_id,
            enable_acting_master=self.acting_master,
            compressed=b.compressed_register,
            body_crc32=body_crc32(body),
        )
        ext = java_hash_dict(header.to_ext())
        return RemotingCommand.request(
            RequestCode.REGISTER_BROKER, ext, body, oneway=oneway, version=self.version
        )

    def _body(self, only: str | None) -> bytes:
        wrapper = self._wrapper(only)
        infos = self.topics.mappings.infos(only)
        if infos:  # static topics: a 5.x body with each one's topicQueueMappingInfo
            wrapper = TopicConfigAndMappingSerializeWrapper(
                wrapper.topic_config_table, wrapper.data_version, topic_queue_mapping_info_map=infos
            )
        body = RegisterBrokerBody(wrapper, [])
        return body.encode(compress=self.settings.broker.compressed_register)

    async def register_all(self, *, check_order: bool = True, only: str | None = None) -> None:
        """A synchronous registration (boot, periodic, after UPDATE_AND_CREATE_TOPIC)."""
        addrs = self.namesrv_addrs
        if not addrs:
            return
        body = self._body(only)
        timeout = self.settings.broker.register_broker_timeout_mills / 1000
        results = await asyncio.gather(*(self._register_one(a, body, timeout) for a in addrs))
        first = next((r for r in results if r is not None), None)
        if check_order and first is not None and first.body:
            try:
                table = KVTable.decode(first.body).table
            except ProtocolError as e:
                log.warning("bad ORDER_TOPIC_CONFIG table from a name server: %s", e)
                return
            if table is not None:
                self.topics.update_order_topics(set(table))

    async def _register_one(self, addr: str, body: bytes, timeout: float) -> RemotingCommand | None:
        req = self._request(body, oneway=False)
        try:
            resp = await self.client.invoke(addr, req, timeout)
        except Exception as e:
            log.warning("register broker to name server %s failed: %s", addr, e)
            return None
        if resp.code != ResponseCode.SUCCESS:
            log.warning("register broker to name server %s: code %d %s", addr, resp.code, resp.remark)
            return None
        log.info("register broker[%d] to name server %s OK", self.settings.broker.broker_id, addr)
        return resp

    def topic_changed(self, topic: str | None) -> asyncio.Future[None]:
        """After a topic change (17, 18, 513): register just ``topic`` (with the full DataVersion), or
        the whole table once when ``None``. The future is *this* change's registration: a handler that
        answers after it (Java registers before answering) is not moved by other requests."""
        return asyncio.shield(self._track(self.register_all(only=topic)))

    def permission_changed(self) -> None:
        """A new ``brokerPermission`` (UPDATE_BROKER_CONFIG): registered at once, a new DataVersion."""
        self.topics.data_version.next_version()
        self._track(self.register_all(check_order=False))

    def _track(self, registration: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
        task = asyncio.get_running_loop().create_task(self._quietly(registration))
        self._changes.add(task)
        task.add_done_callback(self._changes.discard)
        return task

    @staticmethod
    async def _quietly(registration: Coroutine[Any, Any, None]) -> None:
        try:
            await registration
        except Exception as e:  # each name server's failure is logged where it happens
            log.warning("register broker after a change failed: %s", e)

    async def close(self) -> None:
        """Cancel the registrations still running (shutdown)."""
        for task in list(self._changes):
            task.cancel()
        for task in list(self._changes):
            with contextlib.suppress(BaseException):
                await task

    def register_oneway(self) -> None:
        """``registerBrokerAll(false, true, true)``: the full table, oneway, without waiting.

        The registration is built on the loop's next round, so that asking again before then
        adds nothing: many creations cost one body and one frame per name server.
        """
        if self._oneway_queued or not self.namesrv_addrs:
            return
        self._oneway_queued = True
        asyncio.get_running_loop().call_soon(self._register_oneway_now)

    def _register_oneway_now(self) -> None:
        self._oneway_queued = False
        addrs = self.namesrv_addrs
        if not addrs:
            return
        try:
            body = self._body(None)
        except Exception as e:  # a loop callback: nobody above to tell; the periodic one follows
            log.warning("oneway register broker: cannot build the body: %s", e)
            return
        for addr in addrs:
            task = asyncio.get_running_loop().create_task(self._send_oneway(addr, body))
            self._oneway_tasks.add(task)
            task.add_done_callback(self._oneway_tasks.discard)

    async def _send_oneway(self, addr: str, body: bytes) -> None:
        try:
            await asyncio.wait_for(self.client.invoke_oneway(addr, self._request(body, oneway=True)), 3.0)
        except Exception as e:
            log.warning("oneway register broker to name server %s failed: %s", addr, e)

    async def unregister_all(self) -> None:
        """UNREGISTER_BROKER to every name server, each waited for up to 3 s."""
        b = self.settings.broker
        header = UnRegisterBrokerRequestHeader(
            broker_name=b.broker_name,
            broker_addr=self.settings.broker_addr,
            cluster_name=b.broker_cluster_name,
            broker_id=b.broker_id,
        )
        ext = java_hash_dict(header.to_ext())

        async def one(addr: str) -> None:
            req = RemotingCommand.request(RequestCode.UNREGISTER_BROKER, dict(ext), version=self.version)
            try:
                resp = await self.client.invoke(addr, req, UNREGISTER_TIMEOUT_S)
                log.info("unregister broker from name server %s: code %d", addr, resp.code)
            except Exception as e:
                log.warning("unregister broker from name server %s failed: %s", addr, e)

        await asyncio.gather(*(one(a) for a in self.namesrv_addrs))
