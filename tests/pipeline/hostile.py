"""A hostile broker for the tests: a peer that misbehaves as real ones may, its answers chosen per
request by the test.

It registers with our real name server (in this process, on a background loop, as :mod:`.wire`
does) as ``broker-h`` holding one topic; GET_MIN_OFFSET and GET_MAX_OFFSET answer the queue's
planned bounds, PULL_MESSAGE is answered by the test's ``pull`` function (:func:`found` builds an
honest answer, the test bends it), and SEND_BATCH_MESSAGE / SEND_MESSAGE_V2 by its ``send``
function (:func:`accept` stores and acknowledges; a test may refuse, stay silent, or store and hang
up). It stands for a broker that lags, restarts or has a bug, never for our own broker.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Coroutine, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mqadmin.protocol.codes import RequestCode, ResponseCode
from mqadmin.protocol.command import RemotingCommand
from mqadmin.protocol.message import Message, string_to_properties
from mqadmin.protocol.message_record import MessageExt, body_crc32, decode_batch, encode_message
from mqadmin.remoting.client import Connection, RemotingClient
from mqadmin.remoting.server import RemotingServer
from tests.pipeline.wire import register_command, start_namesrv

NAME = "broker-h"
PULL_NOT_FOUND = 19
"""No message at the offset asked (a lagging consume queue, a broker restarting)."""


@dataclass(frozen=True, slots=True)
class Pull:
    """One PULL_MESSAGE as the hostile broker got it; ``n`` counts the pulls of the queue so far."""

    queue_id: int
    offset: int
    max_nums: int
    n: int


def record(topic: str, queue_id: int, offset: int) -> MessageExt:
    body = f"m{queue_id}-{offset}".encode()
    return MessageExt(
        topic=topic, properties={"UNIQ_KEY": f"H{queue_id:03d}{offset:028d}"}, body=body,
        queue_id=queue_id, queue_offset=offset, born_timestamp=1_700_000_000_000 + offset,
        born_host="127.0.0.1", born_port=40000, store_timestamp=1_700_000_000_500 + offset,
        store_host="127.0.0.1", store_port=10911, commit_log_offset=1000 * offset, body_crc=body_crc32(body),
    )  # fmt: skip


@dataclass
class Hostile:
    """The broker's state: the queues' bounds, the test's answer functions and what it saw."""

    topic: str
    queues: list[tuple[int, int]]
    pull: Callable[[Hostile, RemotingCommand, Pull], RemotingCommand] | None = None
    send: Callable[[Hostile, Connection, RemotingCommand, int], Any] | None = None
    pulls: list[Pull] = field(default_factory=list)
    stored: list[Message] = field(default_factory=list)
    sends: int = 0
    acked: list[str] = field(default_factory=list)
    """The UNIQ_KEYs of the messages acknowledged."""

    def handle(self, conn: Connection, cmd: RemotingCommand) -> Any:
        if cmd.code in (RequestCode.GET_MIN_OFFSET, RequestCode.GET_MAX_OFFSET):
            lo, hi = self.queues[int(cmd.ext("queueId") or 0)]
            return cmd.response(
                ext_fields={"offset": str(lo if cmd.code == RequestCode.GET_MIN_OFFSET else hi)}
            )
        if cmd.code == RequestCode.PULL_MESSAGE:
            qid, offset = int(cmd.ext("queueId") or 0), int(cmd.ext("queueOffset") or 0)
            ask = Pull(
                qid, offset, int(cmd.ext("maxMsgNums") or 32), sum(p.queue_id == qid for p in self.pulls)
            )
            self.pulls.append(ask)
            assert self.pull is not None, "this test pulls nothing"
            return self.pull(self, cmd, ask)
        if cmd.code in (RequestCode.SEND_BATCH_MESSAGE, RequestCode.SEND_MESSAGE_V2):
            self.sends += 1
            assert self.send is not None, "this test sends nothing"
            return self.send(self, conn, cmd, self.sends)
        return cmd.response(ResponseCode.REQUEST_CODE_NOT_SUPPORTED, f"request type {cmd.code} not supported")

    def found(self, cmd: RemotingCommand, ask: Pull, offsets: list[int] | None = None,
              next_begin: int | None = None) -> RemotingCommand:  # fmt: skip
        """An honest answer (the offsets asked for, up to the queue's end), or one with ``offsets``
        and ``next_begin`` as the test bends them."""
        lo, hi = self.queues[ask.queue_id]
        if offsets is None:
            offsets = list(range(ask.offset, min(hi, ask.offset + min(ask.max_nums, 32))))
        if not offsets:
            return answer(cmd, PULL_NOT_FOUND, ask.offset, lo, hi)
        body = b"".join(encode_message(record(self.topic, ask.queue_id, o)) for o in offsets)
        nxt = offsets[-1] + 1 if next_begin is None else next_begin
        return answer(cmd, ResponseCode.SUCCESS, nxt, lo, hi, body)

    def accept(self, cmd: RemotingCommand) -> RemotingCommand:
        """Store the request's messages and acknowledge them."""
        msgs = self.messages(cmd)
        self.stored.extend(msgs)
        self.acked.extend(m.unique_key or "" for m in msgs)
        qid = int(cmd.ext("queueId") or cmd.ext("e") or 0)
        return cmd.response(
            ext_fields={"msgId": "", "queueId": str(qid), "queueOffset": str(len(self.stored))}
        )

    def messages(self, cmd: RemotingCommand) -> list[Message]:
        if cmd.code == RequestCode.SEND_BATCH_MESSAGE:
            return decode_batch(cmd.body or b"")
        msg = Message(self.topic, body=cmd.body or b"")
        msg.properties.update(string_to_properties(cmd.ext("i")))
        return [msg]


def answer(
    cmd: RemotingCommand, code: int, next_begin: int, lo: int, hi: int, body: bytes | None = None
) -> RemotingCommand:
    ext = {
        "nextBeginOffset": str(next_begin),
        "minOffset": str(lo),
        "maxOffset": str(hi),
        "suggestWhichBrokerId": "0",
    }
    return cmd.response(code, None if code == 0 else "hostile", ext, body)


@dataclass
class HostileCluster:
    namesrv: str
    addr: str
    broker: Hostile
    loop: asyncio.AbstractEventLoop

    def call(self, coro: Coroutine[Any, Any, Any], timeout: float = 60.0) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)


@contextmanager
def hostile_cluster(tmp_path: Path, topic: str, queues: list[tuple[int, int]]) -> Iterator[HostileCluster]:
    """Our name server and the hostile broker holding ``topic`` with queues of these bounds."""
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, name="hostile-broker", daemon=True)
    thread.start()
    broker = Hostile(topic, list(queues))
    state: dict[str, Any] = {}

    async def start() -> HostileCluster:
        ns = await start_namesrv(tmp_path)
        server = RemotingServer()
        server.register_default_handler(broker.handle)
        port = await server.start("127.0.0.1", 0)
        addr = f"127.0.0.1:{port}"
        client = RemotingClient()
        # two topics: a name server takes a registration of one topic as an update of a known broker
        held = {topic: len(queues), "HostileSpare": 1}
        resp = await client.invoke(ns.address, register_command(NAME, addr, held), 5.0)
        assert resp.code == 0, resp
        state.update(ns=ns, server=server, client=client)
        return HostileCluster(ns.address, addr, broker, loop)

    cluster = asyncio.run_coroutine_threadsafe(start(), loop).result(20)
    try:
        yield cluster
    finally:

        async def stop() -> None:
            await state["client"].close()
            await state["server"].stop(grace=0.5)
            await state["ns"].shutdown(grace=0.5)

        asyncio.run_coroutine_threadsafe(stop(), loop).result(20)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(5)
        loop.close()
