"""The asyncio remoting client: calls to many peers over pooled :class:`Connection` objects.

:class:`RemotingClient` keeps one lazily opened connection per address, like ``NettyRemotingClient``;
the connection itself (opaque matching, timeouts, the handlers of the peer's requests) is
:mod:`mqadmin.remoting.connection`'s, shared with the servers.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import ssl as _ssl
from collections.abc import Callable, Container, Iterable
from typing import TypeAlias

from mqadmin.protocol.command import RemotingCommand
from mqadmin.remoting.blocking import os_reason as _os_reason
from mqadmin.remoting.blocking import parse_addr
from mqadmin.remoting.connection import (
    CloseCallback,
    Connection,
    ErrorAnswer,
    FramePrefilter,
    Handler,
    HandlerResult,
    HandlerTable,
    exception_remark,
    plain_error_answer,
    run_callbacks,
)
from mqadmin.remoting.errors import (
    RemotingConnectError,
    RemotingTimeoutError,
    accepted,
)

__all__ = [
    "DEFAULT_CONNECT_TIMEOUT",
    "CloseCallback",
    "Connection",
    "ErrorAnswer",
    "FramePrefilter",
    "Handler",
    "HandlerResult",
    "HandlerTable",
    "RemotingClient",
    "RpcHook",
    "exception_remark",
    "parse_addr",
    "plain_error_answer",
    "run_callbacks",
]

log = logging.getLogger("mqadmin.remoting")

#: Java's ``connectTimeoutMillis`` default (3000 ms).
DEFAULT_CONNECT_TIMEOUT = 3.0

_SUCCESS = 0

RpcHook: TypeAlias = Callable[[RemotingCommand], object]
"""Called with every outgoing request just before it is written (ACL signing, tracing)."""


class RemotingClient:
    """Calls to many peers, one shared connection per address, opened on first use.

    Concurrent first calls to an address share one connect attempt. A connection that closes
    (peer gone, malformed frame, idle) is dropped from the pool, so the next call reconnects.
    ``handlers`` answers requests the servers send us (NOTIFY_CONSUMER_IDS_CHANGED,
    GET_CONSUMER_RUNNING_INFO, ...); unknown codes get REQUEST_CODE_NOT_SUPPORTED, as in Java.
    """

    def __init__(
        self,
        *,
        connect_timeout: float = DEFAULT_CONNECT_TIMEOUT,
        ssl: _ssl.SSLContext | None = None,
        rpc_hooks: Iterable[RpcHook] = (),
        idle_timeout: float | None = None,
    ) -> None:
        self.connect_timeout = connect_timeout
        self.rpc_hooks: list[RpcHook] = list(rpc_hooks)
        self.handlers = HandlerTable()
        self._ssl = ssl
        self._idle_timeout = idle_timeout
        self._conns: dict[str, Connection] = {}
        self._connecting: dict[str, asyncio.Task[Connection]] = {}
        self._closed = False

    async def __aenter__(self) -> RemotingClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    def register_handler(self, code: int, handler: Handler) -> None:
        """Answer requests with ``code`` that a server sends over our connections."""
        self.handlers.register(code, handler)

    def register_default_handler(self, handler: Handler | None) -> None:
        self.handlers.default = handler

    @property
    def connections(self) -> dict[str, Connection]:
        """Open connections by address (a copy)."""
        return {a: c for a, c in self._conns.items() if not c.closed}

    async def connection(self, addr: str) -> Connection:
        """The pooled connection to ``addr``, opening it if needed."""
        conn = self._conns.get(addr)
        if conn is not None and not conn.closed:
            return conn
        return await self._open(addr)

    async def invoke(self, addr: str, cmd: RemotingCommand, timeout: float) -> RemotingCommand:
        """Send ``cmd`` to ``addr`` and return the response whatever its code.

        ``timeout`` covers the whole call; a connect also stops at ``connect_timeout``.
        """
        conn = self._conns.get(addr)
        if conn is None or conn.closed:
            loop = asyncio.get_running_loop()
            start = loop.time()
            conn = await self._open(addr)
            left = timeout - (loop.time() - start)
            if left <= 0:
                raise RemotingTimeoutError(addr, timeout, cmd.code)
            for hook in self.rpc_hooks:
                hook(cmd)
            try:
                return await conn.invoke(cmd, left)
            except RemotingTimeoutError:
                raise RemotingTimeoutError(addr, timeout, cmd.code) from None
        for hook in self.rpc_hooks:
            hook(cmd)
        return await conn.invoke(cmd, timeout)

    async def call(
        self,
        addr: str,
        cmd: RemotingCommand,
        timeout: float,
        *,
        ok_codes: Container[int] = (_SUCCESS,),
    ) -> RemotingCommand:
        """:meth:`invoke`, raising :class:`RemoteCommandError` unless the code is in ``ok_codes``."""
        return accepted(addr, cmd, await self.invoke(addr, cmd, timeout), ok_codes)

    async def invoke_oneway(self, addr: str, cmd: RemotingCommand) -> None:
        """Send ``cmd`` marked oneway; returns once it is handed to the socket (waits if backed up)."""
        conn = await self.connection(addr)
        for hook in self.rpc_hooks:
            hook(cmd)
        await conn.drain()
        conn.send(cmd)

    async def close_connection(self, addr: str) -> None:
        """Drop the connection to ``addr`` (its waiting calls fail); the next call reconnects."""
        conn = self._conns.pop(addr, None)
        if conn is not None:
            conn.close()
            await conn.wait_closed()

    async def close(self) -> None:
        """Close every connection and refuse further calls."""
        self._closed = True
        for task in list(self._connecting.values()):
            task.cancel()
        conns = list(self._conns.values())
        self._conns.clear()
        for conn in conns:
            conn.close("client closed")
        if conns:
            await asyncio.gather(*(c.wait_closed() for c in conns), return_exceptions=True)

    # ------------------------------------------------------------------------------ connecting

    async def _open(self, addr: str) -> Connection:
        if self._closed:
            raise RemotingConnectError(addr, "client is closed")
        task = self._connecting.get(addr)
        if task is None:
            task = asyncio.get_running_loop().create_task(self._connect(addr))
            self._connecting[addr] = task
            task.add_done_callback(functools.partial(self._connect_done, addr))
        # shielded: one caller giving up must not cancel the connect the others wait for
        return await asyncio.shield(task)

    def _connect_done(self, addr: str, task: asyncio.Task[Connection]) -> None:
        if self._connecting.get(addr) is task:
            del self._connecting[addr]
        if not task.cancelled():
            task.exception()  # retrieved here, so an abandoned failure logs nothing

    async def _connect(self, addr: str) -> Connection:
        host, port = parse_addr(addr)
        loop = asyncio.get_running_loop()

        def factory() -> Connection:
            return Connection(self.handlers, addr=addr, idle_timeout=self._idle_timeout)

        try:
            async with asyncio.timeout(self.connect_timeout):
                _, conn = await loop.create_connection(factory, host, port, ssl=self._ssl)
        except TimeoutError:
            raise RemotingConnectError(addr, "timed out", timeout=self.connect_timeout) from None
        except OSError as e:
            raise RemotingConnectError(addr, _os_reason(e, tls=self._ssl is not None)) from e
        if self._closed:
            conn.close("client closed")
            raise RemotingConnectError(addr, "client is closed")
        if conn.closed:  # the peer hung up before we got here
            raise RemotingConnectError(addr, conn.close_reason or "connection closed at once")
        conn.on_close.append(self._forget)
        self._conns[addr] = conn
        log.debug("connected to %s (%s)", addr, conn.remote_addr)
        return conn

    def _forget(self, conn: Connection) -> None:
        if self._conns.get(conn.addr) is conn:
            del self._conns[conn.addr]
