"""Peers the doctor's live tests put beside our real name server and brokers.

- :class:`VanishingLink`: a relay between a broker and its name server that, when the broker's side
  ends, keeps the name server's side open, as a host that lost power or its network does (no FIN
  reaches the name server). A broker killed behind it stays registered until its registration
  expires (120 s), which a loopback connection never allows: the kernel closes a killed process's
  sockets and the name server drops the broker at once.
- :class:`LaggingBroker`: a broker whose GET_BROKER_RUNTIME_INFO says its consume queues lag behind
  its commit log by so many bytes (our broker dispatches inside the put: its ``dispatchBehindBytes``
  is always 0), registered with the name server on a connection held open.
"""

from __future__ import annotations

import socket
import threading

from mqadmin.protocol.bodies.kv import KVTable
from mqadmin.protocol.codes import RequestCode
from mqadmin.protocol.command import RemotingCommand
from tests.cli.peers import _ThreadServer, open_registration, registration_frame
from tests.servers import NameServerProcess

__all__ = ["LaggingBroker", "VanishingLink", "register"]

RECORDED = "rocketmq-5.3.3/v18_getBrokerConfig"


def register(ns: NameServerProcess, name: str, addr: str) -> socket.socket:
    """A recorded Java registration as broker ``name`` (id 0, ``DefaultCluster``) at ``addr``, on the
    connection returned: the broker stays listed while it is open."""
    ext = {"brokerName": name, "brokerAddr": addr}
    return open_registration(ns, registration_frame(RECORDED), ext)[0]


class LaggingBroker(_ThreadServer):
    """Answers GET_BROKER_RUNTIME_INFO with ``table`` (a real broker's, say) where
    ``dispatchBehindBytes`` is :attr:`behind`; every other request is not supported."""

    def __init__(self, table: dict[str, str], behind: int) -> None:
        self.table = dict(table)
        self.behind = behind
        super().__init__()

    def answer(self, cmd: RemotingCommand) -> RemotingCommand | None:
        if cmd.code != RequestCode.GET_BROKER_RUNTIME_INFO:
            return cmd.response(3, f" request type {cmd.code} not supported")
        table = {**self.table, "dispatchBehindBytes": str(self.behind)}
        return cmd.response(body=KVTable(table).encode())


class VanishingLink:
    """``127.0.0.1:PORT`` relaying every connection to ``upstream`` (see the module docstring)."""

    def __init__(self, upstream: str) -> None:
        host, port = upstream.rsplit(":", 1)
        self.upstream = (host, int(port))
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.addr = f"127.0.0.1:{self.listener.getsockname()[1]}"
        self.held: list[socket.socket] = []
        self._lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                near, _ = self.listener.accept()
            except OSError:
                return  # closed
            far = socket.create_connection(self.upstream, timeout=10)
            far.settimeout(None)
            with self._lock:
                self.held += [near, far]
            threading.Thread(target=self._pump, args=(near, far, False), daemon=True).start()
            threading.Thread(target=self._pump, args=(far, near, True), daemon=True).start()

    @staticmethod
    def _pump(src: socket.socket, dst: socket.socket, close_after: bool) -> None:
        """Bytes from ``src`` to ``dst``; when ``src`` ends, ``dst`` is closed only if ``close_after``
        (the name server's side going reaches the broker; the broker's going never does)."""
        try:
            while data := src.recv(65536):
                dst.sendall(data)
        except OSError:
            pass
        if close_after:
            dst.close()

    def close(self) -> None:
        """Stop relaying and close every connection: the name server sees its brokers' channels go."""
        self.listener.close()
        with self._lock:
            for s in self.held:
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
                s.close()
            self.held.clear()
