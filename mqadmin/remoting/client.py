"""The asyncio remoting client, and the connection both client and server are built on.

A :class:`Connection` is one duplex channel, as in Java's Netty remoting: either side may send
requests and must answer the other's. Responses are matched to waiting callers by opaque, so any
number of calls share one connection; requests from the peer go to a :class:`HandlerTable`.
:class:`RemotingClient` keeps one lazily opened connection per address, like ``NettyRemotingClient``.

The connection is an ``asyncio.Protocol`` feeding the sans-IO :class:`FrameDecoder` straight from
``data_received``: no stream reader task per connection and no copy beyond the decoder's own.
"""

from __future__ import annotations

import asyncio
import functools
import inspect
import logging
import ssl as _ssl
from collections.abc import Awaitable, Callable, Container, Iterable
from typing import Any, TypeAlias

from mqadmin.protocol.bodybudget import over_budget
from mqadmin.protocol.codes import request_name
from mqadmin.protocol.command import FLAG_ONEWAY, FLAG_RESPONSE, RemotingCommand, next_opaque
from mqadmin.protocol.errors import ProtocolError
from mqadmin.protocol.frame import FrameDecoder, encode
from mqadmin.protocol.header import read_headers_fast
from mqadmin.protocol.headers.base import HeaderError
from mqadmin.remoting.blocking import os_reason as _os_reason
from mqadmin.remoting.blocking import parse_addr
from mqadmin.remoting.errors import (
    RemoteCommandError,
    RemotingClosedError,
    RemotingConnectError,
    RemotingSendError,
    RemotingTimeoutError,
)
from mqadmin.remoting.limits import PartialFrameBudget
from mqadmin.remoting.logthrottle import ThrottledLog

read_headers_fast()  # servers and the asyncio client read many headers: orjson first

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
]

log = logging.getLogger("mqadmin.remoting")
_peer_log = ThrottledLog(log)  # lines a remote peer can cause: a few per interval

#: Java's ``connectTimeoutMillis`` default (3000 ms).
DEFAULT_CONNECT_TIMEOUT = 3.0

# plain ints: the codes go straight into headers and comparisons on the hot path
_SUCCESS = 0
_SYSTEM_ERROR = 1
_REQUEST_CODE_NOT_SUPPORTED = 3

HandlerResult: TypeAlias = RemotingCommand | None
Handler: TypeAlias = Callable[["Connection", RemotingCommand], HandlerResult | Awaitable[HandlerResult]]
"""Answers one request from the peer: a response, ``None`` for no answer, or an awaitable of either.

Plain functions run inline as the frame is decoded (cheapest, for quick answers); ``async def``
handlers run as tasks, so a slow one never holds up the other requests on the same connection.
"""
CloseCallback: TypeAlias = Callable[["Connection"], object]
FramePrefilter: TypeAlias = Callable[[bytes], tuple[int, bytes | None]]
"""Answers requests straight from the bytes of a read, before anything is decoded (a server's hot path).

Given the bytes of one read, it returns how many leading bytes it took (whole frames) and what to write
back for them (in one write), or ``(0, None)`` to leave them all. The connection calls it only when
nothing read before waits (no partial frame held, no handler of this connection still at work), so the
answers keep the requests' order; what it leaves goes down the ordinary path, decoded and dispatched.
"""
RpcHook: TypeAlias = Callable[[RemotingCommand], object]
"""Called with every outgoing request just before it is written (ACL signing, tracing)."""

# results a waiting future may get besides the response
_TIMED_OUT: Any = object()
_CLOSED: Any = object()
_NEVER = float("inf")


_background: set[asyncio.Task[Any]] = set()


def run_callbacks(callbacks: Iterable[Callable[[Connection], object]], conn: Connection) -> None:
    """Call each connection callback; one that fails is logged and the others still run.

    A callback may be a coroutine function: it is scheduled, with a reference kept until it ends.
    """
    for cb in callbacks:
        try:
            result = cb(conn)
            if asyncio.iscoroutine(result):
                task = asyncio.get_running_loop().create_task(result)
                _background.add(task)
                task.add_done_callback(_background.discard)
        except Exception:
            log.exception("connection callback failed for %s", conn.addr)


def exception_remark(exc: BaseException) -> str:
    """The SYSTEM_ERROR remark for a failed handler: like Java's ``Throwable.toString``, no trace."""
    text = str(exc)
    name = type(exc).__name__
    return f"{name}: {text}" if text else name


def _format_sockaddr(sa: Any) -> str:
    if isinstance(sa, tuple) and len(sa) >= 2:
        host, port = sa[0], sa[1]
        return f"[{host}]:{port}" if ":" in str(host) else f"{host}:{port}"
    return str(sa) if sa else ""


ErrorAnswer: TypeAlias = Callable[[RemotingCommand, int, str], RemotingCommand]
"""How a server writes the answer to a refused request or a failed handler: (request, code, remark)."""


def plain_error_answer(req: RemotingCommand, code: int, remark: str) -> RemotingCommand:
    return req.response(code, remark)


class HandlerTable:
    """Request handlers by request code, with an optional default (Java's processor table), and the
    one error policy of them all: a :class:`HeaderError` a handler raises (now or awaited) is answered
    with its code and remark, any other exception with SYSTEM_ERROR and its ``toString``, both
    written by :attr:`error_answer` (a server that answers as a given Java release sets its own)."""

    __slots__ = ("_by_code", "budgets", "default", "error_answer")

    def __init__(self) -> None:
        self._by_code: dict[int, Handler] = {}
        self.default: Handler | None = None
        #: Refuse a body over its code's declared budget before any handler (a server's table).
        self.budgets = False
        self.error_answer: ErrorAnswer = plain_error_answer

    def register(self, code: int, handler: Handler) -> None:
        """Route requests with ``code`` to ``handler``, replacing any earlier one."""
        self._by_code[int(code)] = handler

    def unregister(self, code: int) -> None:
        self._by_code.pop(int(code), None)

    def get(self, code: int) -> Handler | None:
        """The handler for ``code``, else the default, else None (answered with code 3)."""
        return self._by_code.get(code, self.default)

    def __contains__(self, code: object) -> bool:
        return code in self._by_code

    def codes(self) -> frozenset[int]:
        """The codes with a handler of their own (what a registry check walks)."""
        return frozenset(self._by_code)


class Connection(asyncio.Protocol):
    """One connection, client or server side: opaque-matched calls out, dispatched requests in.

    ``addr`` is how errors name the peer: the address the client dialled, or the peer's
    ``ip:port`` on the server side. ``attrs`` is free per-connection state for handlers (a client
    id, the broker this channel belongs to). ``on_close`` callbacks run once, when the connection is
    gone for whatever reason (Java's onChannelClose/Exception/Idle all end there). ``prefilter``
    (a :data:`FramePrefilter`) sees each read first and may answer its leading frames itself.
    """

    def __init__(
        self,
        handlers: HandlerTable,
        *,
        addr: str | None = None,
        idle_timeout: float | None = None,
        pause_reading_on_backpressure: bool = False,
        on_open: Callable[[Connection], object] | None = None,
        frame_budget: PartialFrameBudget | None = None,
        prefilter: FramePrefilter | None = None,
    ) -> None:
        self.addr = addr or ""
        self.remote_addr = ""
        self.local_addr = ""
        self.attrs: dict[str, Any] = {}
        self.on_close: list[CloseCallback] = []
        self._handlers = handlers
        self._decoder = FrameDecoder()
        # a server's cap on unfinished frames of all its connections; what this one last reported
        self._budget = frame_budget
        self._partial = 0
        # opaque -> (future, deadline); one timer per connection fires at the earliest deadline
        self._pending: dict[int, tuple[asyncio.Future[Any], float]] = {}
        self._timer: asyncio.TimerHandle | None = None
        self._timer_at = _NEVER
        self._tasks: set[asyncio.Task[None]] = set()
        self._transport: asyncio.Transport | None = None
        self._loop = asyncio.get_running_loop()
        self._closed = False
        self._close_reason: str | None = None
        self._lost_mid_frame = False
        self._closed_fut: asyncio.Future[None] = self._loop.create_future()
        self._write_paused = False
        self._drain_waiters: list[asyncio.Future[None]] = []
        self._pause_reading = pause_reading_on_backpressure
        self._on_open = on_open
        self._idle_timeout = idle_timeout
        self._idle_handle: asyncio.TimerHandle | None = None
        self._last_active = self._loop.time()
        self._prefilter = prefilter

    # ------------------------------------------------------------------------------ state

    @property
    def closed(self) -> bool:
        """True once closing started; no more requests can be sent."""
        return self._closed

    @property
    def pending(self) -> int:
        """Calls on this connection still waiting for their response."""
        return len(self._pending)

    @property
    def close_reason(self) -> str | None:
        return self._close_reason

    def __repr__(self) -> str:
        state = "closed" if self._closed else "open"
        return f"<Connection {self.addr or self.remote_addr} {state} pending={len(self._pending)}>"

    # ------------------------------------------------------------------------------ asyncio.Protocol

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        # uvloop's transports are not asyncio.Transport subclasses but offer the same methods
        self._transport = transport  # type: ignore[assignment]
        self.remote_addr = _format_sockaddr(transport.get_extra_info("peername"))
        self.local_addr = _format_sockaddr(transport.get_extra_info("sockname"))
        if not self.addr:
            self.addr = self.remote_addr
        self._last_active = self._loop.time()
        if self._idle_timeout is not None and self._idle_timeout > 0:
            self._idle_handle = self._loop.call_at(self._last_active + self._idle_timeout, self._check_idle)
        if self._on_open is not None:
            run_callbacks((self._on_open,), self)

    def data_received(self, data: bytes) -> None:
        if self._closed:
            return
        if self._prefilter is not None and not self._decoder.buffered and not self._tasks:
            taken, answer = self._prefilter(data)
            if answer:
                self._write(answer)  # the connection is active as of now
                if self._closed or taken >= len(data):
                    return
            if taken:
                data = data[taken:]
        self._last_active = self._loop.time()
        try:
            cmds = self._decoder.feed(data)
        except ProtocolError as e:
            _peer_log.warning(
                "malformed frame", "malformed frame from %s, closing the connection: %s", self.addr, e
            )
            self._teardown(f"malformed frame: {e}", abort=True)
            return
        if self._budget is not None:
            held = self._decoder.buffered
            if held or self._partial:
                self._partial = held
                self._budget.update(self, held)
                if self._closed:  # this connection held the most when the budget ran out
                    return
        pending = self._pending
        for cmd in cmds:
            if cmd.flag & FLAG_RESPONSE:
                entry = pending.pop(cmd.opaque, None)
                if entry is None or entry[0].done():
                    log.info(
                        "response from %s matches no waiting request (opaque %d, code %d): late?",
                        self.addr,
                        cmd.opaque,
                        cmd.code,
                    )
                else:
                    entry[0].set_result(cmd)
            else:
                self._dispatch(cmd)
                if self._closed:  # a handler closed us
                    return

    def eof_received(self) -> bool | None:
        return None  # let the transport close; connection_lost does the rest

    def connection_lost(self, exc: Exception | None) -> None:
        if not self._closed:
            self._lost_mid_frame = self._decoder.buffered > 0
            self._teardown(str(exc) if exc else None)
        if not self._closed_fut.done():
            self._closed_fut.set_result(None)

    def pause_writing(self) -> None:
        self._write_paused = True
        if self._pause_reading and self._transport is not None:
            # a peer that does not read our answers gets no more of its requests read
            self._transport.pause_reading()

    def resume_writing(self) -> None:
        self._write_paused = False
        if self._pause_reading and self._transport is not None and not self._closed:
            self._transport.resume_reading()
        self._wake_drain_waiters()

    # ------------------------------------------------------------------------------ outgoing

    async def invoke(self, cmd: RemotingCommand, timeout: float) -> RemotingCommand:
        """Send a request and wait up to ``timeout`` seconds for its response, whatever its code.

        A timeout fails only this call; the connection stays open for the others.
        """
        if self._closed:
            raise RemotingSendError(self.addr, self._close_reason or "connection is closed", cmd.code)
        if self._write_paused:
            await self._drain()
            if self._closed:
                raise RemotingSendError(self.addr, self._close_reason or "connection is closed", cmd.code)
        pending = self._pending
        opaque = cmd.opaque
        if opaque in pending:  # the same command sent twice at once: give this one its own id
            opaque = cmd.opaque = next_opaque()
        try:
            data = encode(cmd)
        except ProtocolError as e:
            raise RemotingSendError(self.addr, str(e), cmd.code) from e
        loop = self._loop
        fut = loop.create_future()
        self._write(data)
        deadline = self._last_active + timeout
        pending[opaque] = (fut, deadline)
        if deadline < self._timer_at:
            self._arm_timer(deadline)
        try:
            result = await fut
        except BaseException:  # cancelled by the caller
            entry = pending.get(opaque)
            if entry is not None and entry[0] is fut:
                del pending[opaque]
            raise
        if result is _TIMED_OUT:
            raise RemotingTimeoutError(self.addr, timeout, cmd.code)
        if result is _CLOSED:
            raise RemotingClosedError(
                self.addr, cmd.code, mid_response=self._lost_mid_frame, reason=self._close_reason
            )
        return result  # type: ignore[no-any-return]

    def send(self, cmd: RemotingCommand) -> None:
        """Write a oneway request (no answer expected), e.g. NOTIFY_CONSUMER_IDS_CHANGED to a client."""
        if self._closed:
            raise RemotingSendError(self.addr, self._close_reason or "connection is closed", cmd.code)
        cmd.flag |= FLAG_ONEWAY
        try:
            data = encode(cmd)
        except ProtocolError as e:
            raise RemotingSendError(self.addr, str(e), cmd.code) from e
        self._write(data)

    async def drain(self) -> None:
        """Wait until the write buffer is below its high-water mark (after many :meth:`send`)."""
        if self._write_paused and not self._closed:
            await self._drain()

    def close(self, reason: str | None = None) -> None:
        """Close after flushing what is already written; waiting calls fail with RemotingClosedError."""
        self._teardown(reason or "closed locally", abort=False)

    def abort(self, reason: str | None = None) -> None:
        """Close at once, dropping unsent data."""
        self._teardown(reason or "aborted locally", abort=True)

    async def wait_closed(self) -> None:
        """Return when the transport is gone (``connection_lost`` ran)."""
        await asyncio.shield(self._closed_fut)

    # ------------------------------------------------------------------------------ incoming requests

    def _dispatch(self, cmd: RemotingCommand) -> None:
        handler = self._handlers.get(cmd.code)
        if handler is None:
            remark = f" request type {cmd.code} not supported"
            _peer_log.warning("request code not supported", "%s%s", self.addr, remark)
            self._respond(cmd, cmd.response(_REQUEST_CODE_NOT_SUPPORTED, remark))
            return
        if cmd.bad_text is not None:  # refused before any handler can keep it
            self._refuse(cmd, HeaderError(f"request refused: {cmd.bad_text}"))
            return
        body = cmd.body
        if body is not None and self._handlers.budgets:
            most = over_budget(cmd.code, len(body))
            if most is not None:
                over = f"a body of {len(body)} bytes is over its limit of {most} bytes"
                self._refuse(cmd, HeaderError(f"request code {cmd.code}: {over}"))
                return
        try:
            result = handler(self, cmd)
        except HeaderError as e:
            self._refuse(cmd, e)
            return
        except Exception as e:
            self._handler_failed(cmd, e)
            return
        if result is None or isinstance(result, RemotingCommand) or not inspect.isawaitable(result):
            self._respond(cmd, result)
        else:
            task = self._loop.create_task(self._finish(cmd, result))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _finish(self, cmd: RemotingCommand, pending: Awaitable[HandlerResult]) -> None:
        try:
            result = await pending
        except asyncio.CancelledError:
            raise
        except HeaderError as e:
            self._refuse(cmd, e)
            return
        except Exception as e:
            self._handler_failed(cmd, e)
            return
        self._respond(cmd, result)

    def _refuse(self, cmd: RemotingCommand, exc: HeaderError) -> None:
        """Answer a request refused at the boundary: its code and remark, one log line, nothing kept."""
        _peer_log.warning(
            "refused request",
            "refused request %s from %s: %s", request_name(cmd.code), self.addr, ascii(exc.remark)[1:-1]
        )
        self._respond(cmd, self._handlers.error_answer(cmd, exc.code, exc.remark))

    def _handler_failed(self, cmd: RemotingCommand, exc: Exception) -> None:
        _peer_log.error(
            "handler failed",
            "handler for request %s from %s failed",
            request_name(cmd.code),
            self.addr,
            exc_info=exc,
        )
        self._respond(cmd, self._handlers.error_answer(cmd, _SYSTEM_ERROR, exception_remark(exc)))

    def _respond(self, req: RemotingCommand, resp: object) -> None:
        """Write ``resp`` as the answer to ``req``: same opaque, same serialization, response flag."""
        if resp is None or req.flag & FLAG_ONEWAY:
            return
        if not isinstance(resp, RemotingCommand):
            self._handler_failed(
                req, TypeError(f"handler returned {type(resp).__name__}, not a RemotingCommand")
            )
            return
        if self._closed:
            log.debug("response to %s dropped: %s is closed", request_name(req.code), self.addr)
            return
        resp.opaque = req.opaque
        resp.flag |= FLAG_RESPONSE
        if resp.serialize_type is not req.serialize_type:
            resp.serialize_type = req.serialize_type
        try:
            data = encode(resp)
        except Exception as e:
            log.error("cannot encode the response to %s for %s: %s", request_name(req.code), self.addr, e)
            data = encode(req.response(_SYSTEM_ERROR, exception_remark(e)))
        self._write(data)

    # ------------------------------------------------------------------------------ writing and timers

    def _write(self, data: bytes) -> None:
        """Write a frame at once.

        Measured on loopback: holding frames to send a batch in one syscall (per loop iteration,
        or per read) lost throughput, since the peer then waits for the batch instead of working
        on the first frames while we produce the rest.
        """
        self._transport.write(data)  # type: ignore[union-attr]
        self._last_active = self._loop.time()

    def _arm_timer(self, at: float) -> None:
        if self._timer is not None:
            self._timer.cancel()
        self._timer = self._loop.call_at(at, self._expire_due)
        self._timer_at = at

    def _expire_due(self) -> None:
        """Fail the calls whose deadline passed, then sleep until the next deadline."""
        self._timer = None
        self._timer_at = _NEVER
        now = self._loop.time()
        pending = self._pending
        due = [opaque for opaque, (_, deadline) in pending.items() if deadline <= now]
        for opaque in due:
            fut = pending.pop(opaque)[0]
            if not fut.done():
                fut.set_result(_TIMED_OUT)
        if pending:
            self._arm_timer(min(deadline for _, deadline in pending.values()))

    # ------------------------------------------------------------------------------ closing

    def _teardown(self, reason: str | None, *, abort: bool = False) -> None:
        if self._closed:
            return
        transport = self._transport
        self._closed = True
        self._close_reason = reason
        for handle in (self._idle_handle, self._timer):
            if handle is not None:
                handle.cancel()
        self._idle_handle = self._timer = None
        self._timer_at = _NEVER
        pending, self._pending = self._pending, {}
        for fut, _ in pending.values():
            if not fut.done():
                fut.set_result(_CLOSED)
        self._wake_drain_waiters()
        if self._budget is not None:
            self._budget.release(self)
            self._partial = 0
        if self._decoder.buffered:
            self._decoder = FrameDecoder()  # a partial frame is never finished now: free it
        if transport is not None:
            if abort:
                transport.abort()
            else:
                transport.close()
        run_callbacks(self.on_close, self)

    def _check_idle(self) -> None:
        self._idle_handle = None
        if self._closed or self._idle_timeout is None:
            return
        now = self._loop.time()
        deadline = self._last_active + self._idle_timeout
        if now >= deadline and not self._pending:
            log.info("closing %s: idle for %g s", self.addr, self._idle_timeout)
            self._teardown(f"idle for {self._idle_timeout:g} s")
            return
        self._idle_handle = self._loop.call_at(max(deadline, now + 1.0), self._check_idle)

    async def _drain(self) -> None:
        fut: asyncio.Future[None] = self._loop.create_future()
        self._drain_waiters.append(fut)
        await fut

    def _wake_drain_waiters(self) -> None:
        waiters, self._drain_waiters = self._drain_waiters, []
        for fut in waiters:
            if not fut.done():
                fut.set_result(None)

    def handler_tasks(self) -> set[asyncio.Task[None]]:
        """The async handlers still running for this connection (for a graceful stop)."""
        return set(self._tasks)


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
        resp = await self.invoke(addr, cmd, timeout)
        if resp.code not in ok_codes:
            raise RemoteCommandError(
                addr, resp.code, resp.remark, cmd.code, version=resp.version, response=resp
            )
        return resp

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
            raise RemotingConnectError(addr, _os_reason(e)) from e
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
