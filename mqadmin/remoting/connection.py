"""One remoting connection, client or server side, and the table of request handlers it serves.

A :class:`Connection` is one duplex channel, as in Java's Netty remoting: either side may send
requests and must answer the other's. Responses are matched to waiting callers by opaque, so any
number of calls share one connection; requests from the peer go to a :class:`HandlerTable`.

The connection is an ``asyncio.Protocol`` feeding the sans-IO :class:`~mqadmin.protocol.channel.Channel`
straight from ``data_received`` and writing what it gives back: no stream reader task per connection
and no copy beyond the decoder's own. Matching answers by opaque, answering what nobody handles and
closing on a bad frame are the channel's; waiting, timers, handlers and budgets are the connection's.

On a server, each connection has an output budget: once the answers queued and not yet taken by
the peer pass ``output_budget`` bytes, nothing more of its requests is read or dispatched until they
drain, and a connection that does not drain within ``drain_timeout`` seconds is closed (its queued
answers are dropped with it). A read holding many frames is worked through :data:`WORK_BATCH` frames at
a time, the loop serving the other connections between batches.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
from collections import deque
from collections.abc import Awaitable, Callable, Iterable
from typing import Any, TypeAlias

from mqadmin.protocol.bodybudget import over_budget
from mqadmin.protocol.channel import Answer, Broken, Channel, Event, Late, PeerRequest, not_supported_remark
from mqadmin.protocol.codes import request_name
from mqadmin.protocol.command import FLAG_ONEWAY, RemotingCommand
from mqadmin.protocol.errors import ProtocolError
from mqadmin.protocol.headers.base import HeaderError
from mqadmin.remoting.errors import (
    RemotingClosedError,
    RemotingSendError,
    RemotingTimeoutError,
)
from mqadmin.remoting.limits import PartialFrameBudget
from mqadmin.remoting.logthrottle import ThrottledLog

__all__ = [
    "DEFAULT_DRAIN_TIMEOUT",
    "DEFAULT_OUTPUT_BUDGET",
    "WORK_BATCH",
    "CloseCallback",
    "Connection",
    "ErrorAnswer",
    "FramePrefilter",
    "Handler",
    "HandlerResult",
    "HandlerTable",
    "exception_remark",
    "plain_error_answer",
    "run_callbacks",
]

log = logging.getLogger("mqadmin.remoting")
_peer_log = ThrottledLog(log)  # lines a remote peer can cause: a few per interval

DEFAULT_OUTPUT_BUDGET = 2 * 1024 * 1024
"""Bytes of answers a server queues for one connection before it stops reading that connection."""
DEFAULT_DRAIN_TIMEOUT = 30.0
"""Seconds a connection over its output budget has to drain before it is closed."""
WORK_BATCH = 32
"""Frames (or fast-path answers) of one connection worked through before the loop serves the others."""

# plain ints: the codes go straight into headers and comparisons on the hot path
_SYSTEM_ERROR = 1

HandlerResult: TypeAlias = RemotingCommand | None
Handler: TypeAlias = Callable[["Connection", RemotingCommand], HandlerResult | Awaitable[HandlerResult]]
"""Answers one request from the peer: a response, ``None`` for no answer, or an awaitable of either.

Plain functions run inline as the frame is decoded (cheapest, for quick answers); ``async def``
handlers run as tasks, so a slow one never holds up the other requests on the same connection.
"""
CloseCallback: TypeAlias = Callable[["Connection"], object]
FramePrefilter: TypeAlias = Callable[[bytes, int], tuple[int, bytes | None]]
"""Answers requests straight from the bytes of a read, before anything is decoded (a server's hot path).

Given the bytes of one read and where to start in them, it returns where it stopped (after whole frames
it took) and what to write back for them (in one write), or ``(start, None)`` to leave them all. It
takes a bounded batch at a time, so the connection can check its output budget between batches. The
connection calls it only when nothing read before waits (no partial frame held, no decoded request
queued, no handler of this connection still at work), so the answers keep the requests' order; what it
leaves goes down the ordinary path, decoded and dispatched. It holds every frame to the same header
budget as the ordinary path, leaving any frame over it to that path's refusal.
"""

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
        output_budget: int | None = None,
        drain_timeout: float = DEFAULT_DRAIN_TIMEOUT,
    ) -> None:
        self.addr = addr or ""
        self.remote_addr = ""
        self.local_addr = ""
        self.attrs: dict[str, Any] = {}
        self.on_close: list[CloseCallback] = []
        self._handlers = handlers
        # a server's table holds requests to their declared budgets: headers as the frames are cut
        self._channel = Channel(header_budget=handlers.budgets)
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
        # what was read and not yet worked through (reading is paused while any is left)
        self._stash = b""
        self._stash_at = 0
        self._inbox: deque[Event] = deque()
        self._reading = True
        self._work_soon: asyncio.Handle | None = None
        # the answers this connection may queue before it is no longer read (a server's), and the
        # timer that closes it if they are not taken in time
        self._output_budget = output_budget
        self._drain_timeout = drain_timeout
        self._drain_timer: asyncio.TimerHandle | None = None

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
        if self._output_budget is not None:
            transport.set_write_buffer_limits(high=self._output_budget)  # type: ignore[attr-defined]
        self._last_active = self._loop.time()
        if self._idle_timeout is not None and self._idle_timeout > 0:
            self._idle_handle = self._loop.call_at(self._last_active + self._idle_timeout, self._check_idle)
        if self._on_open is not None:
            run_callbacks((self._on_open,), self)

    def data_received(self, data: bytes) -> None:
        if self._closed:
            return
        self._last_active = self._loop.time()
        if self._stash_at < len(self._stash):  # read while reading was being paused: keep the order
            self._stash = self._stash[self._stash_at :] + data
        else:
            self._stash = data
        self._stash_at = 0
        if self._work_soon is None:
            self._work()

    def _work(self) -> None:
        """Work through what was read, :data:`WORK_BATCH` steps at a time: decoded requests and
        responses first, then the bytes still unread (the fast path's, then the decoder's). Stops
        while the connection is over its output budget; reading is paused while anything is left."""
        self._work_soon = None
        steps = WORK_BATCH
        inbox = self._inbox
        budgeted = self._output_budget is not None
        while not self._closed:
            if budgeted and self._write_paused:
                break  # resume_writing goes on
            if steps <= 0:
                self._work_soon = self._loop.call_soon(self._work)
                break
            if inbox:
                steps -= 1
                event = inbox.popleft()
                if type(event) is PeerRequest:  # nearly every event a server sees
                    self._dispatch(event.cmd)
                else:
                    self._handle(event)
                continue
            data, at = self._stash, self._stash_at
            if at >= len(data):
                self._stash, self._stash_at = b"", 0
                break
            prefilter = self._prefilter
            if prefilter is not None and not self._channel.buffered and not self._tasks:
                stop, answer = prefilter(data, at)
                if answer:
                    steps -= 1
                    self._write(answer)
                if stop > at:
                    self._stash_at = stop
                    continue
            self._stash, self._stash_at = b"", 0
            events = self._feed(data if at == 0 else memoryview(data)[at:])
            if len(events) == 1:  # most reads hold one frame: handled as it is
                steps -= 1
                event = events[0]
                if type(event) is PeerRequest:
                    self._dispatch(event.cmd)
                else:
                    self._handle(event)
            elif events:
                inbox.extend(events)
        if not self._reading or inbox or self._write_paused or self._work_soon is not None:
            self._update_reading()  # else it reads, and should: nothing is left

    def _feed(self, data: bytes | memoryview) -> list[Event]:
        """The events in ``data`` (none once a malformed frame closed the connection)."""
        channel = self._channel
        events = channel.receive(data)
        if channel.broken:
            e = next(ev.error for ev in events if isinstance(ev, Broken))
            _peer_log.warning(
                "malformed frame", "malformed frame from %s, closing the connection: %s", self.addr, e
            )
            self._teardown(f"malformed frame: {e}", abort=True)
            return []
        if self._budget is not None:
            held = channel.buffered
            if held or self._partial:
                self._partial = held
                self._budget.update(self, held)
                if self._closed:  # this connection held the most when the budget ran out
                    return []
        return events

    def _handle(self, event: Event) -> None:
        """One event: an answer goes to the call waiting for it, a request to its handler."""
        if isinstance(event, PeerRequest):
            self._dispatch(event.cmd)
            return
        if isinstance(event, Answer):
            entry = self._pending.pop(event.cmd.opaque, None)
            if entry is not None and not entry[0].done():
                entry[0].set_result(event.cmd)
                return
            event = Late(event.cmd)
        if isinstance(event, Late):
            cmd = event.cmd
            log.info(
                "response from %s matches no waiting request (opaque %d, code %d): late?",
                self.addr,
                cmd.opaque,
                cmd.code,
            )

    def _update_reading(self) -> None:
        """Read while nothing read waits and (on a server) the answers are within budget."""
        transport = self._transport
        if transport is None or self._closed:
            return
        want = self._stash_at >= len(self._stash) and not self._inbox
        if self._pause_reading and self._write_paused:
            want = False
        if want != self._reading:
            self._reading = want
            if want:
                transport.resume_reading()
            else:
                transport.pause_reading()

    def eof_received(self) -> bool | None:
        return None  # let the transport close; connection_lost does the rest

    def connection_lost(self, exc: Exception | None) -> None:
        if not self._closed:
            self._lost_mid_frame = self._channel.buffered > 0
            self._teardown(str(exc) if exc else None)
        if not self._closed_fut.done():
            self._closed_fut.set_result(None)

    def pause_writing(self) -> None:
        self._write_paused = True
        # a peer that does not read our answers gets no more of its requests read
        self._update_reading()
        if self._output_budget is not None and self._drain_timer is None and not self._closed:
            self._drain_timer = self._loop.call_later(self._drain_timeout, self._not_drained)

    def resume_writing(self) -> None:
        self._write_paused = False
        if self._drain_timer is not None:
            self._drain_timer.cancel()
            self._drain_timer = None
        self._wake_drain_waiters()
        if not self._closed and self._work_soon is None and (self._inbox or self._stash):
            self._work_soon = self._loop.call_soon(self._work)
        self._update_reading()

    def _not_drained(self) -> None:
        self._drain_timer = None
        if self._closed or not self._write_paused:
            return
        queued = self._transport.get_write_buffer_size() if self._transport is not None else 0
        _peer_log.warning(
            "output budget",
            "closing %s: %d bytes of answers not taken within %g s",
            self.addr,
            queued,
            self._drain_timeout,
        )
        self._teardown(f"answers not read within {self._drain_timeout:g} s", abort=True)

    @property
    def queued(self) -> int:
        """Bytes written and not yet taken by the peer."""
        return self._transport.get_write_buffer_size() if self._transport is not None else 0

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
        try:
            data = self._channel.send_request(cmd)  # a command sent twice at once gets its own opaque
        except ProtocolError as e:
            raise RemotingSendError(self.addr, str(e), cmd.code) from e
        opaque = cmd.opaque
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
                self._channel.forget(opaque)
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
            data = self._channel.send_request(cmd)
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
            _peer_log.warning("request code not supported", "%s%s", self.addr, not_supported_remark(cmd.code))
            answer = self._channel.not_supported(cmd)
            if answer is not None and not self._closed:
                self._write(answer)
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
            "refused request %s from %s: %s",
            request_name(cmd.code),
            self.addr,
            ascii(exc.remark)[1:-1],
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
        channel = self._channel
        try:
            data = channel.send_answer(req, resp)
        except Exception as e:
            log.error("cannot encode the response to %s for %s: %s", request_name(req.code), self.addr, e)
            data = channel.send_answer(req, req.response(_SYSTEM_ERROR, exception_remark(e)))
        if data is not None:
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
            self._channel.forget(opaque)
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
        for handle in (self._idle_handle, self._timer, self._drain_timer, self._work_soon):
            if handle is not None:
                handle.cancel()
        self._idle_handle = self._timer = self._drain_timer = None
        self._work_soon = None
        self._inbox.clear()
        self._stash, self._stash_at = b"", 0
        self._timer_at = _NEVER
        pending, self._pending = self._pending, {}
        for fut, _ in pending.values():
            if not fut.done():
                fut.set_result(_CLOSED)
        self._wake_drain_waiters()
        if self._budget is not None:
            self._budget.release(self)
            self._partial = 0
        self._channel.close()  # a partial frame is never finished now: freed
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
