"""The asyncio remoting server: accept connections, dispatch requests by code, answer them.

Behaviour follows Java's ``NettyRemotingServer`` where a peer can see it: an unknown code gets
REQUEST_CODE_NOT_SUPPORTED with Java's remark, a failing handler SYSTEM_ERROR with the exception's
class and message, oneway requests no answer, and a malformed frame closes only that connection.
Connections silent for ``idle_timeout`` seconds are closed (Java's serverChannelMaxIdleTimeSeconds).
"""

from __future__ import annotations

import asyncio
import logging
import ssl as _ssl
from collections.abc import Callable

from mqadmin.remoting.client import (
    CloseCallback,
    Connection,
    Handler,
    HandlerResult,
    HandlerTable,
    exception_remark,
    run_callbacks,
)

__all__ = [
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


class RemotingServer:
    """A listening socket whose connections share one :class:`HandlerTable`.

    ``on_connect`` and ``on_close`` callbacks get the :class:`Connection`; the name server uses
    ``on_close`` to drop the routes of a broker whose channel went away (Java's onChannelDestroy).
    """

    def __init__(
        self,
        *,
        ssl: _ssl.SSLContext | None = None,
        idle_timeout: float | None = DEFAULT_IDLE_TIMEOUT,
        backlog: int = 1024,
    ) -> None:
        self.handlers = HandlerTable()
        self.on_connect: list[Callable[[Connection], object]] = []
        self.on_close: list[CloseCallback] = []
        self.host: str | None = None
        self.port: int | None = None
        self._ssl = ssl
        self._idle_timeout = idle_timeout
        self._backlog = backlog
        self._server: asyncio.Server | None = None
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
        return self._server is not None and self._server.is_serving()

    async def start(self, host: str = "0.0.0.0", port: int = 0) -> int:
        """Listen on ``host:port`` (port 0 picks a free one) and return the bound port."""
        if self._server is not None:
            raise RuntimeError("server already started")
        loop = asyncio.get_running_loop()
        self._server = await loop.create_server(
            self._new_connection, host, port, ssl=self._ssl, backlog=self._backlog, reuse_address=True
        )
        sockname = self._server.sockets[0].getsockname()
        self.host, self.port = host, int(sockname[1])
        log.info("remoting server listening on %s", self.address)
        return self.port

    async def stop(self, grace: float = 5.0) -> None:
        """Stop accepting, let running handlers finish (up to ``grace`` s), then close every connection."""
        server, self._server = self._server, None
        if server is None:
            return
        server.close()
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
        await server.wait_closed()
        log.info("remoting server on %s stopped", self.address)

    async def __aenter__(self) -> RemotingServer:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    # ------------------------------------------------------------------------------ connections

    def _new_connection(self) -> Connection:
        conn = Connection(
            self.handlers,
            idle_timeout=self._idle_timeout,
            pause_reading_on_backpressure=True,
            on_open=self._opened,
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
