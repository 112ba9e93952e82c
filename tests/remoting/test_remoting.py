"""Client and server against each other over real loopback sockets, plus raw peers that misbehave."""

from __future__ import annotations

import asyncio
import random
import socket
import ssl
import struct
import subprocess
from collections.abc import Callable, Coroutine
from typing import Any

import pytest

from mqadmin.protocol.codes import RequestCode, ResponseCode
from mqadmin.protocol.command import RemotingCommand, SerializeType
from mqadmin.protocol.frame import FrameDecoder, encode
from mqadmin.protocol.headers.base import HeaderError
from mqadmin.remoting.client import Connection, RemotingClient, parse_addr
from mqadmin.remoting.errors import (
    RemoteCommandError,
    RemotingClosedError,
    RemotingConnectError,
    RemotingSendError,
    RemotingTimeoutError,
)
from mqadmin.remoting.server import RemotingServer

ECHO = 30100
SLOW = 30101
FAIL = 30102
FAIL_ASYNC = 30103
REFUSE = 30106
REFUSE_LATER = 30107
ONEWAY = 30104
SYNC_ECHO = 30105


def run(coro: Coroutine[Any, Any, None], limit: float = 8.0) -> None:
    """Each test body in a fresh loop, bounded so a bug fails the test instead of hanging it."""

    async def bounded() -> None:
        await asyncio.wait_for(coro, limit)

    asyncio.run(bounded())


async def echo(conn: Connection, cmd: RemotingCommand) -> RemotingCommand:
    # a little jitter so answers come back out of order
    await asyncio.sleep(random.random() * 0.002)
    return cmd.response(0, ext_fields=dict(cmd.ext_fields or {}), body=cmd.body)


def sync_echo(conn: Connection, cmd: RemotingCommand) -> RemotingCommand:
    return cmd.response(0, ext_fields=dict(cmd.ext_fields or {}), body=cmd.body)


async def slow(conn: Connection, cmd: RemotingCommand) -> RemotingCommand:
    await asyncio.sleep(1.0)
    return cmd.response(0)


def fail(conn: Connection, cmd: RemotingCommand) -> RemotingCommand:
    raise ValueError("boom")


async def fail_async(conn: Connection, cmd: RemotingCommand) -> RemotingCommand:
    await asyncio.sleep(0)
    raise KeyError("missing")


async def started_server(**kwargs: Any) -> RemotingServer:
    server = RemotingServer(**kwargs)
    server.register_handler(ECHO, echo)
    server.register_handler(SYNC_ECHO, sync_echo)
    server.register_handler(SLOW, slow)
    server.register_handler(FAIL, fail)
    server.register_handler(FAIL_ASYNC, fail_async)
    await server.start("127.0.0.1", 0)
    return server


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def read_frame(reader: asyncio.StreamReader) -> RemotingCommand:
    decoder = FrameDecoder()
    while True:
        data = await reader.read(65536)
        assert data, "peer closed before a whole frame"
        cmds = decoder.feed(data)
        if cmds:
            assert len(cmds) == 1
            return cmds[0]


async def until(cond: Callable[[], bool], limit: float = 2.0) -> None:
    loop = asyncio.get_running_loop()
    end = loop.time() + limit
    while not cond():
        assert loop.time() < end, "condition not reached in time"
        await asyncio.sleep(0.01)


# --------------------------------------------------------------------------------------- matching


@pytest.mark.parametrize("code", [ECHO, SYNC_ECHO])
def test_thousand_in_flight_on_ten_connections(code: int) -> None:
    async def body() -> None:
        server = await started_server()
        clients = [RemotingClient() for _ in range(10)]
        try:

            async def one(client: RemotingClient, c: int, i: int) -> None:
                tag = f"{c}-{i}"
                cmd = RemotingCommand.request(code, {"tag": tag}, body=tag.encode())
                resp = await client.invoke(server.address, cmd, 5.0)
                assert resp.code == 0
                assert resp.opaque == cmd.opaque
                assert resp.ext("tag") == tag
                assert resp.body == tag.encode()

            await asyncio.gather(*(one(cl, c, i) for c, cl in enumerate(clients) for i in range(100)))
            assert len(server.connections) == 10
            assert all(len(cl.connections) == 1 for cl in clients)
        finally:
            for cl in clients:
                await cl.close()
            await server.stop()

    run(body())


def test_concurrent_first_calls_share_one_connect() -> None:
    async def body() -> None:
        server = await started_server()
        opened: list[Connection] = []
        server.on_connect.append(opened.append)
        async with RemotingClient() as client:
            cmds = [RemotingCommand.request(SYNC_ECHO) for _ in range(50)]
            resps = await asyncio.gather(*(client.invoke(server.address, c, 2.0) for c in cmds))
            assert [r.opaque for r in resps] == [c.opaque for c in cmds]
        assert len(opened) == 1
        await server.stop()

    run(body())


def test_rpc_hooks_see_every_request() -> None:
    async def body() -> None:
        server = await started_server()

        def hook(cmd: RemotingCommand) -> None:
            cmd.ext_fields = {**(cmd.ext_fields or {}), "AccessKey": "ak"}

        async with RemotingClient(rpc_hooks=[hook]) as client:
            resp = await client.invoke(server.address, RemotingCommand.request(ECHO, {"a": "1"}), 2.0)
            assert resp.ext_fields == {"a": "1", "AccessKey": "ak"}
        await server.stop()

    run(body())


# --------------------------------------------------------------------------------------- timeouts


def test_timeout_fails_only_that_call() -> None:
    async def body() -> None:
        server = await started_server()
        async with RemotingClient() as client:
            addr = server.address
            slow_call = asyncio.ensure_future(client.invoke(addr, RemotingCommand.request(SLOW), 0.2))
            fast = [client.invoke(addr, RemotingCommand.request(ECHO, {"i": str(i)}), 2.0) for i in range(20)]
            resps = await asyncio.gather(*fast)
            assert [r.ext("i") for r in resps] == [str(i) for i in range(20)]
            with pytest.raises(RemotingTimeoutError) as ei:
                await slow_call
            err = ei.value
            assert err.addr == addr
            assert err.timeout == 0.2
            assert err.request_code == SLOW
            assert str(err) == f"no response from {addr} to request code {SLOW} within 0.2 s"
            conn = client.connections[addr]
            assert conn.pending == 0
            # the connection survives the timeout
            resp = await client.invoke(addr, RemotingCommand.request(ECHO), 2.0)
            assert resp.code == 0
            assert client.connections[addr] is conn
        await server.stop(grace=0.1)

    run(body())


def test_slow_async_handler_does_not_block_the_connection() -> None:
    async def body() -> None:
        server = await started_server()
        async with RemotingClient() as client:
            loop = asyncio.get_running_loop()
            slow_call = asyncio.ensure_future(client.invoke(server.address, RemotingCommand.request(SLOW), 5))
            await asyncio.sleep(0.05)
            start = loop.time()
            await client.invoke(server.address, RemotingCommand.request(SYNC_ECHO), 2.0)
            assert loop.time() - start < 0.5
            assert not slow_call.done()
            slow_call.cancel()
        await server.stop(grace=0.1)

    run(body())


# --------------------------------------------------------------------------------------- closing


def test_close_mid_response_fails_pending_and_next_call_reconnects() -> None:
    async def body() -> None:
        accepted = 0

        async def peer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            nonlocal accepted
            accepted += 1
            first = accepted == 1
            decoder = FrameDecoder()
            got: list[RemotingCommand] = []
            while data := await reader.read(65536):
                for cmd in decoder.feed(data):
                    if not first:
                        writer.write(encode(cmd.response(0, remark="second life")))
                        continue
                    got.append(cmd)
                    if len(got) == 3:
                        frame = encode(got[0].response(0, body=b"x" * 100))
                        writer.write(frame[: len(frame) // 2])
                        await writer.drain()
                        writer.close()
                        return
            writer.close()

        raw = await asyncio.start_server(peer, "127.0.0.1", 0)
        addr = f"127.0.0.1:{raw.sockets[0].getsockname()[1]}"
        async with RemotingClient() as client:
            calls = [client.invoke(addr, RemotingCommand.request(ECHO), 3.0) for _ in range(3)]
            results = await asyncio.gather(*calls, return_exceptions=True)
            assert all(isinstance(r, RemotingClosedError) for r in results), results
            err = results[0]
            assert isinstance(err, RemotingClosedError)
            assert err.mid_response and err.addr == addr
            assert "mid-response" in str(err) and addr in str(err)
            assert isinstance(err, RemotingSendError)
            assert addr not in client.connections
            resp = await client.invoke(addr, RemotingCommand.request(ECHO), 3.0)
            assert resp.remark == "second life"
            assert accepted == 2
        raw.close()
        await raw.wait_closed()

    run(body())


def test_malformed_frame_from_server_closes_client_connection() -> None:
    async def body() -> None:
        async def peer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            await reader.read(65536)
            writer.write(struct.pack(">i", 2) + b"\0\0")  # a frame too short to hold its header length
            await writer.drain()
            await reader.read(65536)
            writer.close()

        raw = await asyncio.start_server(peer, "127.0.0.1", 0)
        addr = f"127.0.0.1:{raw.sockets[0].getsockname()[1]}"
        async with RemotingClient() as client:
            with pytest.raises(RemotingClosedError, match="malformed frame"):
                await client.invoke(addr, RemotingCommand.request(ECHO), 3.0)
            assert addr not in client.connections
        raw.close()
        await raw.wait_closed()

    run(body())


@pytest.mark.parametrize(
    "garbage",
    [
        b"\xff\xff\xff\xff" + random.Random(1).randbytes(200),  # negative length
        struct.pack(">ii", 64, 0x00FFFFFF) + random.Random(2).randbytes(60),  # header overruns the frame
        struct.pack(">ii", 12, 8) + b"not json",  # JSON header that is not JSON
        struct.pack(">ii", 12, 0x05000008) + b"\0" * 8,  # unknown serialize type
    ],
)
def test_garbage_peer_is_dropped_and_others_are_served(garbage: bytes) -> None:
    async def body() -> None:
        server = await started_server()
        closed: list[Connection] = []
        server.on_close.append(closed.append)
        async with RemotingClient() as client:
            assert (await client.invoke(server.address, RemotingCommand.request(ECHO), 2.0)).code == 0
            reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
            writer.write(garbage)
            await writer.drain()
            assert await asyncio.wait_for(reader.read(), 2.0) == b""  # the server hung up
            writer.close()
            await until(lambda: len(closed) == 1)
            assert "malformed frame" in (closed[0].close_reason or "")
            assert server.serving
            for _ in range(3):
                assert (await client.invoke(server.address, RemotingCommand.request(ECHO), 2.0)).code == 0
            assert len(server.connections) == 1
        await server.stop()

    run(body())


def test_idle_connection_closed_by_server_and_client_reconnects() -> None:
    async def body() -> None:
        server = await started_server(idle_timeout=0.2)
        async with RemotingClient() as client:
            await client.invoke(server.address, RemotingCommand.request(ECHO), 2.0)
            assert server.address in client.connections
            await until(lambda: server.address not in client.connections)
            assert (await client.invoke(server.address, RemotingCommand.request(ECHO), 2.0)).code == 0
        await server.stop()

    run(body())


def test_server_on_close_hook_and_graceful_stop() -> None:
    async def body() -> None:
        server = await started_server()
        closed: list[str] = []
        server.on_close.append(lambda conn: closed.append(conn.remote_addr))
        client = RemotingClient()
        slow_call = asyncio.ensure_future(client.invoke(server.address, RemotingCommand.request(SLOW), 3.0))
        await until(lambda: len(server.connections) == 1)
        await asyncio.sleep(0.05)
        await server.stop(grace=2.0)
        assert (await slow_call).code == 0  # the running handler was allowed to finish
        assert len(closed) == 1
        await until(lambda: not client.connections)  # the client saw the hang-up
        with pytest.raises(RemotingConnectError):
            await client.invoke(server.address, RemotingCommand.request(ECHO), 1.0)
        await client.close()

    run(body())


# --------------------------------------------------------------------------------------- answers


def test_unknown_code_gets_java_remark() -> None:
    async def body() -> None:
        server = await started_server()
        async with RemotingClient() as client:
            resp = await client.invoke(server.address, RemotingCommand.request(351), 2.0)
            assert resp.code == ResponseCode.REQUEST_CODE_NOT_SUPPORTED == 3
            assert resp.remark == " request type 351 not supported"
            assert resp.is_response
        await server.stop()

    run(body())


def test_default_handler_takes_unregistered_codes() -> None:
    async def body() -> None:
        server = await started_server()
        server.register_default_handler(lambda conn, cmd: cmd.response(0, remark=f"default {cmd.code}"))
        async with RemotingClient() as client:
            resp = await client.invoke(server.address, RemotingCommand.request(351), 2.0)
            assert (resp.code, resp.remark) == (0, "default 351")
        await server.stop()

    run(body())


@pytest.mark.parametrize(
    ("code", "remark"), [(FAIL, "ValueError: boom"), (FAIL_ASYNC, "KeyError: 'missing'")]
)
def test_handler_exception_becomes_system_error(code: int, remark: str) -> None:
    async def body() -> None:
        server = await started_server()
        async with RemotingClient() as client:
            resp = await client.invoke(server.address, RemotingCommand.request(code), 2.0)
            assert resp.code == ResponseCode.SYSTEM_ERROR
            assert resp.remark == remark
            with pytest.raises(RemoteCommandError) as ei:
                await client.call(server.address, RemotingCommand.request(code), 2.0)
            err = ei.value
            assert (err.code, err.code_name, err.remark) == (1, "SYSTEM_ERROR", remark)
            assert err.request_code == code
            assert str(err) == f"CODE: 1 (SYSTEM_ERROR) from {server.address}: {remark}"
            ok = await client.call(server.address, RemotingCommand.request(code), 2.0, ok_codes={0, 1})
            assert ok.code == 1
        await server.stop()

    run(body())


def test_the_tables_error_policy_writes_every_refusal_and_failure() -> None:
    """One error policy per server: a refusal (a HeaderError, raised now or awaited) and a failure
    (any other exception, now or awaited) are all answered by the table's ``error_answer``; a handler
    that answers normally is not touched by it."""

    def refuse(conn: Connection, cmd: RemotingCommand) -> RemotingCommand:
        raise HeaderError("no such thing", 17)

    async def refuse_later(conn: Connection, cmd: RemotingCommand) -> RemotingCommand:
        await asyncio.sleep(0)
        raise HeaderError("not now", 17)

    def as_release(req: RemotingCommand, code: int, remark: str) -> RemotingCommand:
        resp = req.response(code, f"[policy] {remark}")
        resp.version = 409
        return resp

    async def body() -> None:
        server = await started_server()
        server.register_handler(REFUSE, refuse)
        server.register_handler(REFUSE_LATER, refuse_later)
        server.handlers.error_answer = as_release
        async with RemotingClient() as client:
            seen = {}
            for code in (FAIL, FAIL_ASYNC, REFUSE, REFUSE_LATER, ECHO):
                resp = await client.invoke(server.address, RemotingCommand.request(code), 2.0)
                seen[code] = (resp.code, resp.remark, resp.version)
        await server.stop()
        assert seen[FAIL] == (1, "[policy] ValueError: boom", 409)
        assert seen[FAIL_ASYNC] == (1, "[policy] KeyError: 'missing'", 409)
        assert seen[REFUSE] == (17, "[policy] no such thing", 409)
        assert seen[REFUSE_LATER] == (17, "[policy] not now", 409)
        assert seen[ECHO][0] == 0 and seen[ECHO][2] != 409  # an answer is the handler's own

    run(body())


def test_call_error_names_code_and_address() -> None:
    async def body() -> None:
        server = await started_server()
        remark = (
            "No topic route info in name server for the topic: T\nSee http://rocketmq.apache.org/docs/faq/"
        )
        server.register_handler(
            RequestCode.GET_ROUTEINFO_BY_TOPIC, lambda conn, cmd: cmd.response(17, remark=remark)
        )
        async with RemotingClient() as client:
            with pytest.raises(RemoteCommandError) as ei:
                cmd = RemotingCommand.request(RequestCode.GET_ROUTEINFO_BY_TOPIC, {"topic": "T"})
                await client.call(server.address, cmd, 2.0)
            text = str(ei.value)
            assert text.startswith(f"CODE: 17 (TOPIC_NOT_EXIST) from {server.address}: No topic route info")
            assert "\n" not in text
            assert ei.value.remark == remark
        await server.stop()

    run(body())


def test_rocketmq_serialized_request_gets_rocketmq_response() -> None:
    async def body() -> None:
        server = await started_server()
        try:
            async with RemotingClient() as client:
                for code in (ECHO, SYNC_ECHO, 351, FAIL):
                    cmd = RemotingCommand.request(code, {"k": "v"})
                    cmd.serialize_type = SerializeType.ROCKETMQ
                    resp = await client.invoke(server.address, cmd, 2.0)
                    assert resp.serialize_type is SerializeType.ROCKETMQ
            # and on the wire: the serialize-type byte of the answer
            reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
            cmd = RemotingCommand.request(SYNC_ECHO, {"k": "v"})
            cmd.serialize_type = SerializeType.ROCKETMQ
            writer.write(encode(cmd))
            head = await reader.readexactly(8)
            assert head[4] == 1
            writer.close()
        finally:
            await server.stop()

    run(body())


# --------------------------------------------------------------------------------------- oneway


def test_oneway_client_to_server_gets_no_answer() -> None:
    async def body() -> None:
        server = await started_server()
        seen: asyncio.Queue[RemotingCommand] = asyncio.Queue()

        def on_oneway(conn: Connection, cmd: RemotingCommand) -> RemotingCommand:
            seen.put_nowait(cmd)
            return cmd.response(0)  # must not reach the wire: the request is oneway

        server.register_handler(ONEWAY, on_oneway)
        async with RemotingClient() as client:
            await client.invoke_oneway(server.address, RemotingCommand.request(ONEWAY, {"x": "1"}))
            got = await asyncio.wait_for(seen.get(), 2.0)
            assert got.is_oneway and got.ext("x") == "1"
        # raw peer: a oneway request followed by a normal one gets exactly one answer, the second's
        reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
        normal = RemotingCommand.request(SYNC_ECHO)
        writer.write(encode(RemotingCommand.request(ONEWAY, oneway=True)) + encode(normal))
        resp = await read_frame(reader)
        assert resp.opaque == normal.opaque
        await asyncio.wait_for(seen.get(), 2.0)
        writer.close()
        await server.stop()

    run(body())


def test_server_to_client_notification_and_request() -> None:
    async def body() -> None:
        server = await started_server()
        channels: list[Connection] = []

        def heartbeat(conn: Connection, cmd: RemotingCommand) -> RemotingCommand:
            channels.append(conn)
            return cmd.response(0)

        server.register_handler(RequestCode.HEART_BEAT, heartbeat)
        notified: asyncio.Queue[RemotingCommand] = asyncio.Queue()

        def on_notify(conn: Connection, cmd: RemotingCommand) -> None:
            notified.put_nowait(cmd)

        async def running_info(conn: Connection, cmd: RemotingCommand) -> RemotingCommand:
            return cmd.response(0, body=b'{"properties":{}}')

        async with RemotingClient() as client:
            client.register_handler(RequestCode.NOTIFY_CONSUMER_IDS_CHANGED, on_notify)
            client.register_handler(RequestCode.GET_CONSUMER_RUNNING_INFO, running_info)
            await client.call(server.address, RemotingCommand.request(RequestCode.HEART_BEAT), 2.0)
            (conn,) = channels
            notify = RemotingCommand.request(RequestCode.NOTIFY_CONSUMER_IDS_CHANGED, {"consumerGroup": "G"})
            conn.send(notify)
            got = await asyncio.wait_for(notified.get(), 2.0)
            assert got.is_oneway and got.ext("consumerGroup") == "G"
            resp = await conn.invoke(RemotingCommand.request(RequestCode.GET_CONSUMER_RUNNING_INFO), 2.0)
            assert resp.code == 0 and resp.body == b'{"properties":{}}'
            # a code the client has no handler for: answered like the Java client does
            resp = await conn.invoke(RemotingCommand.request(RequestCode.CHECK_TRANSACTION_STATE), 2.0)
            assert resp.code == 3
        await server.stop()

    run(body())


# --------------------------------------------------------------------------------------- connecting


def test_connect_refused_names_the_address() -> None:
    async def body() -> None:
        port = free_port()
        addr = f"127.0.0.1:{port}"
        async with RemotingClient() as client:
            with pytest.raises(RemotingConnectError) as ei:
                await client.invoke(addr, RemotingCommand.request(ECHO), 2.0)
            assert ei.value.addr == addr
            assert str(ei.value) == f"connect to {addr} failed: Connection refused"
            # concurrent callers share the failure; nothing is left half-open
            results = await asyncio.gather(
                *(client.invoke(addr, RemotingCommand.request(ECHO), 2.0) for _ in range(5)),
                return_exceptions=True,
            )
            assert all(isinstance(r, RemotingConnectError) for r in results)
            assert client.connections == {}

    run(body())


def test_connect_timeout_names_the_address() -> None:
    async def body() -> None:
        # a listener that never accepts, its queue already full: further SYNs go unanswered
        with socket.socket() as listener:
            listener.bind(("127.0.0.1", 0))
            listener.listen(0)
            port = listener.getsockname()[1]
            fillers = []
            for _ in range(4):
                s = socket.socket()
                s.setblocking(False)
                s.connect_ex(("127.0.0.1", port))
                fillers.append(s)
            await asyncio.sleep(0.05)
            try:
                async with RemotingClient(connect_timeout=0.3) as client:
                    with pytest.raises(RemotingConnectError) as ei:
                        await client.invoke(f"127.0.0.1:{port}", RemotingCommand.request(ECHO), 5.0)
                assert ei.value.timeout == 0.3
                assert str(ei.value) == f"connect to 127.0.0.1:{port} failed: timed out after 0.3 s"
            finally:
                for s in fillers:
                    s.close()

    run(body())


def test_bad_address() -> None:
    async def body() -> None:
        async with RemotingClient() as client:
            with pytest.raises(RemotingConnectError, match="bad address"):
                await client.invoke("nohost", RemotingCommand.request(ECHO), 1.0)

    run(body())


def test_parse_addr() -> None:
    assert parse_addr("127.0.0.1:9876") == ("127.0.0.1", 9876)
    assert parse_addr("[::1]:9876") == ("::1", 9876)
    assert parse_addr("::1:9876") == ("::1", 9876)
    for bad in ("", "host", "host:", ":9876", "host:x", "host:70000"):
        with pytest.raises(RemotingConnectError):
            parse_addr(bad)


def test_calls_after_close_are_refused() -> None:
    async def body() -> None:
        server = await started_server()
        client = RemotingClient()
        await client.invoke(server.address, RemotingCommand.request(ECHO), 2.0)
        await client.close()
        with pytest.raises(RemotingConnectError, match="client is closed"):
            await client.invoke(server.address, RemotingCommand.request(ECHO), 2.0)
        await server.stop()

    run(body())


def test_cancelled_call_leaves_nothing_pending() -> None:
    async def body() -> None:
        server = await started_server()
        async with RemotingClient() as client:
            call = asyncio.ensure_future(client.invoke(server.address, RemotingCommand.request(SLOW), 5.0))
            await until(lambda: server.address in client.connections)
            conn = client.connections[server.address]
            await until(lambda: conn.pending == 1)
            call.cancel()
            with pytest.raises(asyncio.CancelledError):
                await call
            assert conn.pending == 0
        await server.stop(grace=0.1)

    run(body())


def test_connect_reason_for_names_with_several_addresses() -> None:
    from mqadmin.remoting.client import _os_reason

    joined = OSError(
        "Multiple exceptions: [Errno 111] Connect call failed ('::1', 9876, 0, 0), "
        "[Errno 111] Connect call failed ('127.0.0.1', 9876)"
    )
    assert _os_reason(joined) == "Connection refused"
    assert _os_reason(ConnectionRefusedError(111, "Connect call failed ('127.0.0.1', 9876)")) == (
        "Connection refused"
    )


# --------------------------------------------------------------------------------------- TLS


def _tls_contexts(tmp_path: Any) -> tuple[ssl.SSLContext, ssl.SSLContext]:
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(
        [
            "openssl",
            "req",
            "-x509",
            "-newkey",
            "ec",
            "-pkeyopt",
            "ec_paramgen_curve:prime256v1",
            "-nodes",
            "-keyout",
            str(key),
            "-out",
            str(cert),
            "-days",
            "1",
            "-subj",
            "/CN=127.0.0.1",
            "-addext",
            "subjectAltName=IP:127.0.0.1",
        ],
        check=True,
        capture_output=True,
    )
    server_ctx = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    server_ctx.load_cert_chain(cert, key)
    client_ctx = ssl.create_default_context(cafile=str(cert))
    return server_ctx, client_ctx


def test_tls_round_trip(tmp_path: Any) -> None:
    server_ctx, client_ctx = _tls_contexts(tmp_path)

    async def body() -> None:
        server = await started_server(ssl=server_ctx)
        async with RemotingClient(ssl=client_ctx) as client:
            cmds = [RemotingCommand.request(ECHO, {"i": str(i)}) for i in range(50)]
            resps = await asyncio.gather(*(client.invoke(server.address, c, 2.0) for c in cmds))
            assert [r.ext("i") for r in resps] == [str(i) for i in range(50)]
        # a plain-text client cannot talk to it, and the TLS server survives that
        async with RemotingClient() as plain:
            with pytest.raises((RemotingClosedError, RemotingTimeoutError)):
                await plain.invoke(server.address, RemotingCommand.request(ECHO), 1.0)
        async with RemotingClient(ssl=client_ctx) as client:
            assert (await client.invoke(server.address, RemotingCommand.request(ECHO), 2.0)).code == 0
        await server.stop()

    run(body())


def test_tls_client_against_plain_server(tmp_path: Any) -> None:
    _, client_ctx = _tls_contexts(tmp_path)

    async def body() -> None:
        server = await started_server()
        async with RemotingClient(ssl=client_ctx) as client:
            with pytest.raises(RemotingConnectError) as ei:
                await client.invoke(server.address, RemotingCommand.request(ECHO), 2.0)
            assert ei.value.addr == server.address
        await server.stop()

    run(body())
