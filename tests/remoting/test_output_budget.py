"""A connection's output budget and drain deadline, on a real :class:`RemotingServer` on loopback.

A peer that takes its answers slowly gets every one of them, in order; a peer that stops taking them
is no longer read past the budget, and is closed once the deadline passes without a drain. The
name-server and broker processes under a crowd of such peers are in ``test_budgets_live``.
"""

from __future__ import annotations

import asyncio
import socket
import struct
import time

from mqadmin.protocol.codes import ResponseCode
from mqadmin.protocol.command import RemotingCommand
from mqadmin.protocol.frame import decode, encode
from mqadmin.remoting.connection import Connection
from mqadmin.remoting.server import RemotingServer

CODE = 9_000
ANSWER = b"a" * 100_000
BUDGET = 256 * 1024


def _big(conn: Connection, cmd: RemotingCommand) -> RemotingCommand:
    return cmd.response(ResponseCode.SUCCESS, body=ANSWER)


async def _server(drain_timeout: float) -> RemotingServer:
    server = RemotingServer(output_budget=BUDGET, drain_timeout=drain_timeout)
    server.register_handler(CODE, _big)
    await server.start("127.0.0.1", 0)
    return server


def _small_buffers(sock: socket.socket) -> None:
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 32 * 1024)


async def _read_frame(reader: asyncio.StreamReader) -> RemotingCommand:
    head = await reader.readexactly(4)
    (total,) = struct.unpack(">i", head)
    return decode(head + await reader.readexactly(total))


def test_a_slow_reader_gets_every_answer_in_order() -> None:
    async def body() -> None:
        server = await _server(drain_timeout=5.0)
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
            _small_buffers(writer.get_extra_info("socket"))
            requests = [RemotingCommand.request(CODE) for _ in range(200)]  # 20 MB of answers
            writer.write(b"".join(encode(r) for r in requests))
            await writer.drain()
            for r in requests:
                answer = await _read_frame(reader)
                assert answer.opaque == r.opaque and answer.body == ANSWER
                await asyncio.sleep(0.001)
            writer.close()
        finally:
            await server.stop(grace=0.1)

    asyncio.run(asyncio.wait_for(body(), 30))


def test_a_peer_that_stops_reading_is_held_to_the_budget_then_closed() -> None:
    async def body() -> None:
        server = await _server(drain_timeout=1.0)
        try:
            sock = socket.socket()
            _small_buffers(sock)
            sock.connect(("127.0.0.1", server.port))
            sock.setblocking(False)
            frame = encode(RemotingCommand.request(CODE))
            sent = blocked = 0
            while blocked < 10:  # answers asked for until the server stops reading, none read
                try:
                    sent += sock.send(frame * 16)
                    blocked = 0
                except BlockingIOError:  # the server stopped reading us
                    blocked += 1
                    await asyncio.sleep(0.01)
            (conn,) = server.connections
            # not read past the budget: what it holds is the budget and one batch of answers at most
            assert conn.queued <= BUDGET + 32 * len(ANSWER), conn.queued
            assert sent * len(ANSWER) // len(frame) > 10 * BUDGET  # asked for much more than it holds
            started = time.monotonic()
            while server.connections and time.monotonic() - started < 5:
                await asyncio.sleep(0.05)
            assert not server.connections, "an undrained connection outlived its deadline"
            assert conn.closed and "not read within" in (conn.close_reason or "")
            sock.close()
            # the server goes on serving
            reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
            request = RemotingCommand.request(CODE)
            writer.write(encode(request))
            assert (await _read_frame(reader)).opaque == request.opaque
            writer.close()
        finally:
            await server.stop(grace=0.1)

    asyncio.run(asyncio.wait_for(body(), 30))
