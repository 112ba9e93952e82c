"""The asyncio remoting server: accept connections, dispatch requests by code, answer them.

Behaviour follows Java's ``NettyRemotingServer`` where a peer can see it: an unknown code gets
REQUEST_CODE_NOT_SUPPORTED with Java's remark, a failing handler SYSTEM_ERROR with the exception's
class and message, oneway requests no answer, and a malformed frame closes only that connection.
Connections silent for ``idle_timeout`` seconds are closed (Java's serverChannelMaxIdleTimeSeconds).

Running out is survived rather than spun on (see :mod:`mqadmin.remoting.limits`). The server accepts
with its own loop, not ``loop.create_server``: asyncio's accept loop keeps calling ``accept()`` after
EMFILE and logs a traceback for each call. Here an accept failing for want of descriptors or memory
stops accepting for :data:`ACCEPT_BACKOFF` seconds with one log line per interval; beyond
``max_connections`` (by default below ``RLIMIT_NOFILE``, so the process keeps descriptors for its
files) new connections are accepted and closed at once; and unfinished frames of all connections
together are capped by a :class:`PartialFrameBudget`. Open connections are served throughout. Each
connection's unsent answers are capped too (``output_budget``, see :mod:`mqadmin.remoting.connection`).
"""

from __future__ import annotations

import asyncio
import errno
import logging
import socket
import ssl as _ssl
from collections.abc import Callable
from typing import Any

from mqadmin.remoting.connection import (
    DEFAULT_DRAIN_TIMEOUT,
    DEFAULT_OUTPUT_BUDGET,
    CloseCallback,
    Connection,
    Handler,
    HandlerResult,
    HandlerTable,
    exception_remark,
    run_callbacks,
)
from mqadmin.remoting.limits import (
    DEFAULT_PARTIAL_FRAME_BUDGET,
    PartialFrameBudget,
    accept_ready,
    connection_limit,
)
from mqadmin.remoting.logthrottle import ThrottledLog

__all__ = [
    "ACCEPT_BACKOFF",
    "DEFAULT_IDLE_TIMEOUT",
    "Connection",
    "Handler",
    "HandlerResult",
    "HandlerTable",
    "RemotingServer",
    "exception_remark",
]

log = logging.getLogger("mqadmin.remoting")

#: Java's ``serverChannelMaxIdleTimeSeconds`` default.
DEFAULT_IDLE_TIMEOUT = 120.0

#: Seconds without accepting after ``accept()`` failed for want of descriptors or memory.
ACCEPT_BACKOFF = 0.1
_OUT_OF_RESOURCES = frozenset({errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM})


class RemotingServer:
    """A listening socket whose connections share one :class:`HandlerTable`.

    ``on_connect`` and ``on_close`` callbacks get the :class:`Connection`; the name server uses
    ``on_close`` to drop the routes of a broker whose channel went away (Java's onChannelDestroy).
    ``max_connections`` None derives the cap from ``RLIMIT_NOFILE`` at :meth:`start`, 0 sets none;
    ``partial_frame_budget`` caps the bytes of unfinished frames held for all peers together;
    ``output_budget`` the answers queued for one peer, which has ``drain_timeout`` s to take them.
    ``reuse_port`` sets SO_REUSEPORT, so several processes can accept on one port (the kernel
    spreads the connections over them).
    """

    def __init__(
        self,
        *,
        ssl: _ssl.SSLContext | None = None,
        idle_timeout: float | None = DEFAULT_IDLE_TIMEOUT,
        backlog: int = 1024,
        max_connections: int | None = None,
        partial_frame_budget: int = DEFAULT_PARTIAL_FRAME_BUDGET,
        reuse_port: bool = False,
        output_budget: int = DEFAULT_OUTPUT_BUDGET,
        drain_timeout: float = DEFAULT_DRAIN_TIMEOUT,
    ) -> None:
        self.handlers = HandlerTable()
        self.handlers.budgets = True  # every server of ours refuses a body over its declared budget
        #: What a new connection is made with (a :class:`Connection` subclass, or a partial of one).
        self.connection_factory: Callable[..., Connection] = Connection
        self.on_connect: list[Callable[[Connection], object]] = []
        self.on_close: list[CloseCallback] = []
        self.host: str | None = None
        self.port: int | None = None
        self._ssl = ssl
        self._idle_timeout = idle_timeout
        self._backlog = backlog
        self._reuse_port = reuse_port
        self._output_budget = output_budget
        self._drain_timeout = drain_timeout
        self._max_connections = max_connections
        self._limit: int | None = None  # the cap in force, set at start
        self.frame_budget = PartialFrameBudget(partial_frame_budget)
        self._listeners: list[socket.socket] = []
        self._accepting: set[asyncio.Task[None]] = set()
        self._resume: asyncio.TimerHandle | None = None
        self._limits_log = ThrottledLog(log, burst=1)
        self._accept_failures = 0
        self._connections: set[Connection] = set()

    def register_handler(self, code: int, handler: Handler) -> None:
        """Answer requests with ``code``: plain functions run inline, coroutines as tasks."""
        self.handlers.register(code, handler)

    def register_default_handler(self, handler: Handler | None) -> None:
        """Handler for codes with none of their own (Java's default processor)."""
        self.handlers.default = handler

    @property
    def connections(self) -> frozenset[Connection]:
        return frozenset(self._connections)

    @property
    def address(self) -> str:
        """``host:port`` as bound (after :meth:`start`)."""
        return f"{self.host}:{self.port}"

    @property
    def serving(self) -> bool:
        return bool(self._listeners)

    @property
    def max_connections(self) -> int | None:
        """The connection cap in force (after :meth:`start`); None for no cap."""
        return self._limit

    async def start(self, host: str = "0.0.0.0", port: int = 0) -> int:
        """Listen on ``host:port`` (port 0 picks a free one) and return the bound port.

        ``host`` is resolved like ``loop.create_server`` does: every address it names is bound (an
        empty host: all interfaces), all on the port the first one got.
        """
        if self._listeners:
            raise RuntimeError("server already started")
        loop = asyncio.get_running_loop()
        infos = await loop.getaddrinfo(host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
        seen: set[tuple[int, object]] = set()
        try:
            for family, kind, proto, _, sockaddr in infos:
                if (family, sockaddr) in seen:
                    continue
                seen.add((family, sockaddr))
                if self._listeners and port == 0:  # the other addresses on the port the first one got
                    sockaddr = (sockaddr[0], self._listeners[0].getsockname()[1], *sockaddr[2:])
                self._listeners.append(self._listen(family, kind, proto, sockaddr))
        except BaseException:
            for sock in self._listeners:
                sock.close()
            self._listeners = []
            raise
        if not self._listeners:
            raise OSError(errno.EADDRNOTAVAIL, f"no address to listen on for {host!r}")
        cap = connection_limit() if self._max_connections is None else self._max_connections
        self._limit = cap or None
        self._watch_listeners(True)
        self.host, self.port = host, int(self._listeners[0].getsockname()[1])
        log.info(
            "remoting server listening on %s (%s)",
            self.address,
            f"at most {self._limit} connections" if self._limit else "no connection limit",
        )
        return self.port

    def _listen(self, family: int, kind: int, proto: int, sockaddr: tuple[Any, ...]) -> socket.socket:
        sock = socket.socket(family, kind, proto)
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if self._reuse_port:
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
            if family == socket.AF_INET6 and hasattr(socket, "IPPROTO_IPV6"):
                sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
            sock.bind(sockaddr)
            sock.listen(self._backlog)
            sock.setblocking(False)
        except BaseException:
            sock.close()
            raise
        return sock

    def _stop_listening(self) -> None:
        if self._resume is not None:
            self._resume.cancel()
            self._resume = None
        self._watch_listeners(False)
        for sock in self._listeners:
            sock.close()
        self._listeners = []

    async def stop(self, grace: float = 5.0) -> None:
        """Stop accepting, let running handlers finish (up to ``grace`` s), then close every connection."""
        if not self._listeners:
            return
        self._stop_listening()
        for task in list(self._accepting):
            task.cancel()
        if self._accepting:
            await asyncio.wait(list(self._accepting), timeout=1.0)
        tasks = {t for conn in self._connections for t in conn.handler_tasks()}
        if tasks:
            _, late = await asyncio.wait(tasks, timeout=grace)
            for t in late:
                t.cancel()
        conns = list(self._connections)
        for conn in conns:
            conn.close("server stopping")
        if conns:
            waits = {asyncio.ensure_future(c.wait_closed()): c for c in conns}
            _, stuck = await asyncio.wait(waits, timeout=grace)
            for w in stuck:  # peers that never read what we still had to flush
                waits[w].abort("server stopping")
            if stuck:
                await asyncio.wait(stuck, timeout=1.0)
        log.info("remoting server on %s stopped", self.address)

    async def __aenter__(self) -> RemotingServer:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    # ------------------------------------------------------------------------------ accepting

    def _accept(self, listener: socket.socket) -> None:
        """The listening socket is readable: take the waiting connections (a batch at most)."""
        loop = asyncio.get_running_loop()
        for sock in accept_ready(listener, self._accept_failed):
            if self._accept_failures:
                log.warning("accepting connections again on %s", self.address)
                self._accept_failures = 0
            taken = len(self._connections) + len(self._accepting)
            if self._limit is not None and taken >= self._limit:
                sock.close()
                self._limits_log.warning(
                    "connection limit",
                    "refusing connections on %s: %d open, the limit is %d (RLIMIT_NOFILE leaves room "
                    "for the server's own files)",
                    self.address,
                    taken,
                    self._limit,
                )
                continue
            task = loop.create_task(self._connect_accepted(sock))
            self._accepting.add(task)
            task.add_done_callback(self._accepting.discard)

    def _accept_failed(self, exc: OSError) -> None:
        """``accept()`` failed: stop accepting for a while instead of retrying at once (the socket
        stays readable, so retrying at once spins), and say so once per interval."""
        self._accept_failures += 1
        kind = "out of resources" if exc.errno in _OUT_OF_RESOURCES else "failed"
        self._limits_log.warning(
            "accept failed",
            "accept() on %s %s (%s): not accepting for %g s; open connections are served",
            self.address,
            kind,
            exc.strerror or exc,
            ACCEPT_BACKOFF,
        )
        self._watch_listeners(False)
        loop = asyncio.get_running_loop()
        if self._resume is None:
            self._resume = loop.call_later(ACCEPT_BACKOFF, self._resume_accepting)

    def _resume_accepting(self) -> None:
        self._resume = None
        self._watch_listeners(True)

    def _watch_listeners(self, on: bool) -> None:
        """Accept when a listening socket is readable (``on``), or stop watching them."""
        loop = asyncio.get_running_loop()
        for sock in self._listeners:
            if on:
                loop.add_reader(sock.fileno(), self._accept, sock)
            else:
                loop.remove_reader(sock.fileno())

    async def _connect_accepted(self, sock: socket.socket) -> None:
        loop = asyncio.get_running_loop()
        try:
            await loop.connect_accepted_socket(self._new_connection, sock, ssl=self._ssl)
        except asyncio.CancelledError:
            sock.close()
            raise
        except Exception as e:  # a failed TLS handshake, a peer gone at once
            sock.close()
            log.debug("connection on %s failed before it opened: %s", self.address, e)

    # ------------------------------------------------------------------------------ connections

    def _new_connection(self) -> Connection:
        conn = self.connection_factory(
            self.handlers,
            idle_timeout=self._idle_timeout,
            pause_reading_on_backpressure=True,
            on_open=self._opened,
            frame_budget=self.frame_budget,
            output_budget=self._output_budget,
            drain_timeout=self._drain_timeout,
        )
        conn.on_close.append(self._closed)
        return conn

    def _opened(self, conn: Connection) -> None:
        self._connections.add(conn)
        log.debug("connection from %s", conn.addr)
        run_callbacks(self.on_connect, conn)

    def _closed(self, conn: Connection) -> None:
        self._connections.discard(conn)
        log.debug("connection from %s closed: %s", conn.addr, conn.close_reason or "by peer")
        run_callbacks(self.on_close, conn)
