"""Stand-ins the CLI tests talk to beside our real servers (``tests/servers.py``).

- :func:`register_broker` replays a recorded REGISTER_BROKER frame to our name server, optionally with another
  broker address, and keeps the connection open (a 5.x name server drops a broker whose channel
  closes).
- :class:`RecordedBroker` stands in for the broker port ONLY (the development broker does not exist
  yet): it answers each request with the response the real 4.9.8 broker gave to the same request
  in a capture (matched by request code and header fields, signatures ignored).
- :class:`SilentPeer` accepts connections and never answers (for timeouts).
"""

from __future__ import annotations

import asyncio
import socket
import threading
from collections.abc import Iterable

from mqadmin.protocol import frame
from mqadmin.protocol.command import FLAG_RESPONSE, RemotingCommand
from tests.captures import Frame, load_scenario, pairs
from tests.servers import NameServerProcess

__all__ = ["RecordedBroker", "SilentPeer", "register_broker", "registration_frame"]

_UNSIGNED = ("AccessKey", "Signature", "SecurityToken")


def _recv_frame(sock: socket.socket) -> RemotingCommand:
    def exact(n: int) -> bytes:
        buf = b""
        while len(buf) < n:
            chunk = sock.recv(n - len(buf))
            if not chunk:
                raise ConnectionError("closed")
            buf += chunk
        return buf

    head = exact(4)
    total = int.from_bytes(head, "big")
    return frame.decode(head + exact(total))


def registration_frame(scenario: str, server_port: int | None = None, index: int = -1) -> Frame:
    """A recorded REGISTER_BROKER request of a scenario (the last one by default)."""
    found = [
        f
        for f in load_scenario(scenario)
        if f.dir == "request"
        and f.header.get("code") == 103
        and (server_port is None or f.server_port == server_port)
    ]
    assert found, f"no REGISTER_BROKER in {scenario}"
    return found[index]


def open_registration(
    ns: NameServerProcess, recorded: Frame, ext: dict[str, str] | None = None
) -> tuple[socket.socket, RemotingCommand]:
    """Send a recorded registration to the name server, with ``ext`` over its ext fields (another
    broker name or address); the connection, still open (the broker stays listed while it is), and
    the accepting answer."""
    cmd = frame.decode(recorded.frame)
    if ext:
        assert cmd.ext_fields is not None
        cmd.ext_fields = {**cmd.ext_fields, **ext}
    host, port = ns.addr.rsplit(":", 1)
    sock = socket.create_connection((host, int(port)), timeout=10)
    sock.sendall(frame.encode(cmd))
    resp = _recv_frame(sock)
    assert resp.code == 0, f"registration refused: {resp.code} {resp.remark}"
    return sock, resp


def register_broker(
    ns: NameServerProcess, recorded: Frame, broker_addr: str | None = None
) -> RemotingCommand:
    """Send a recorded registration to the name server (optionally under another broker address)."""
    sock, resp = open_registration(ns, recorded, None if broker_addr is None else {"brokerAddr": broker_addr})
    ns.keep(sock)
    return resp


def _request_key(cmd: RemotingCommand) -> tuple[int, tuple[tuple[str, str], ...]]:
    fields = {k: v for k, v in (cmd.ext_fields or {}).items() if k not in _UNSIGNED}
    return cmd.code, tuple(sorted(fields.items()))


class _ThreadServer:
    """An asyncio server on its own thread (the CLI under test is another process)."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.port = 0
        ready = threading.Event()

        def run() -> None:
            asyncio.set_event_loop(self.loop)
            server = self.loop.run_until_complete(asyncio.start_server(self._client, "127.0.0.1", 0))
            self.port = server.sockets[0].getsockname()[1]
            self._server = server
            ready.set()
            self.loop.run_forever()

        self.thread = threading.Thread(target=run, daemon=True)
        self.thread.start()
        ready.wait(10)
        self.addr = f"127.0.0.1:{self.port}"
        self.requests: list[RemotingCommand] = []

    async def _client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        decoder = frame.FrameDecoder()
        try:
            while True:
                data = await reader.read(65536)
                if not data:
                    break
                for cmd in decoder.feed(data):
                    self.requests.append(cmd)
                    resp = self.answer(cmd)
                    if resp is not None:
                        writer.write(frame.encode(resp))
                await writer.drain()
        except (ConnectionError, asyncio.CancelledError):
            pass
        finally:
            writer.close()

    def answer(self, cmd: RemotingCommand) -> RemotingCommand | None:
        raise NotImplementedError

    def stop(self) -> None:
        async def close() -> None:
            self._server.close()
            tasks = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
            for t in tasks:  # client handlers still reading: end them before the loop goes
                t.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            self.loop.stop()

        self.loop.call_soon_threadsafe(lambda: self.loop.create_task(close()))
        self.thread.join(5)
        if not self.thread.is_alive():
            self.loop.close()


class RecordedBroker(_ThreadServer):
    """Answers as the recorded broker did (see the module docstring)."""

    def __init__(self, scenarios: Iterable[str], broker_port: int = 10911) -> None:
        self.answers: dict[tuple[int, tuple[tuple[str, str], ...]], RemotingCommand] = {}
        for name in scenarios:
            for req, resp in pairs(name):
                if req.server_port != broker_port or resp is None:
                    continue
                self.answers[_request_key(frame.decode(req.frame))] = frame.decode(resp.frame)
        super().__init__()

    def answer(self, cmd: RemotingCommand) -> RemotingCommand | None:
        recorded = self.answers.get(_request_key(cmd))
        if recorded is None:
            return cmd.response(3, f" request type {cmd.code} not supported")
        resp = frame.decode(frame.encode(recorded))
        resp.opaque = cmd.opaque
        resp.flag = FLAG_RESPONSE
        return resp


class SilentPeer(_ThreadServer):
    """Reads requests and never answers them."""

    def answer(self, cmd: RemotingCommand) -> RemotingCommand | None:
        return None
