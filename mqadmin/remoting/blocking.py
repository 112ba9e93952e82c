"""A blocking remoting client, for commands that send a handful of requests and need no event loop.

``mqadmin topicRoute`` sends one request; an event loop is more than it needs. This client drives
the same sans-IO channel (:class:`mqadmin.protocol.channel.Channel`) as the asyncio connection, and
raises the same errors (:mod:`mqadmin.remoting.errors`) with the same timeouts as
:class:`mqadmin.remoting.client.RemotingClient`, over plain sockets:

- a connect stops at ``connect_timeout`` (TLS handshake included), a call at its timeout counted
  from the connect's start, as there;
- one connection per address, reused; one found closed while idle is replaced, as the pool does;
- the answer is the frame whose opaque matches; requests the peer sends are answered
  REQUEST_CODE_NOT_SUPPORTED, as a client with no handlers answers them.

Its :meth:`~BlockingClient.call` is a coroutine that never suspends, so the admin API's methods run
unchanged on either client; :func:`run_sync` drives such a coroutine to its end without a loop.
Calls from several threads at once are safe: each connection is used by one thread at a time.
"""

from __future__ import annotations

import os
import re
import socket
import threading
import time
from collections.abc import Awaitable, Callable, Container, Iterable
from typing import TYPE_CHECKING, TypeVar

from mqadmin.protocol.channel import Answer, Broken, Channel, PeerRequest
from mqadmin.protocol.command import RemotingCommand
from mqadmin.protocol.errors import ProtocolError
from mqadmin.remoting.errors import (
    RemotingClosedError,
    RemotingConnectError,
    RemotingSendError,
    RemotingTimeoutError,
    accepted,
)

if TYPE_CHECKING:  # ssl is imported where a TLS context is used (--tls), not by every command
    import ssl as _ssl

T = TypeVar("T")

__all__ = ["BlockingClient", "host_name", "os_reason", "parse_addr", "run_sync"]

_SUCCESS = 0
_READ = 65536
_ERRNO = re.compile(r"\[Errno (\d+)\]")


def parse_addr(addr: str) -> tuple[str, int]:
    """``host:port`` (IPv6 hosts may be bracketed) as a (host, port) pair.

    Java splits at the last colon; so do we, so ``::1:9876`` and ``[::1]:9876`` both work.
    """
    host, sep, port = addr.strip().rpartition(":")
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise RemotingConnectError(addr, "bad address, expected host:port")
    return host, int(port)


def os_reason(exc: OSError, *, tls: bool = False) -> str:
    """The short reason for a failed connect: ``Connection refused`` rather than the OS call's wording.

    ``tls``: the connect included a TLS handshake, whose errors carry TLS's error numbers, not the OS's.
    """
    if isinstance(exc, socket.gaierror):
        return exc.strerror or str(exc)
    if tls:
        import ssl

        if isinstance(exc, ssl.SSLError):
            return exc.strerror or str(exc)
    if exc.errno:
        return os.strerror(exc.errno)
    text = str(exc)
    # a name with several addresses (localhost: ::1 and 127.0.0.1) fails with one joined message
    errnos = set(_ERRNO.findall(text))
    if len(errnos) == 1:
        return os.strerror(int(errnos.pop()))
    return text or type(exc).__name__


def _is_want_read(exc: OSError) -> bool:
    """A TLS socket with nothing to read yet (not an error; a TLS record may have been all there was)."""
    import ssl  # a TLS socket's error: its context brought ssl

    return isinstance(exc, ssl.SSLWantReadError)


def run_sync(awaitable: Awaitable[T]) -> T:
    """The result of a coroutine that never suspends (one that awaits only :class:`BlockingClient`)."""
    steps = awaitable.__await__()
    try:
        next(steps)
    except StopIteration as done:
        return done.value  # type: ignore[no-any-return]
    close = getattr(steps, "close", None)
    if close is not None:
        close()
    raise RuntimeError("a command run without an event loop awaited one")


def _open_socket(host: str, port: int, timeout: float) -> socket.socket:
    """A connected TCP socket: each address of ``host`` in turn, all within ``timeout`` seconds.

    As ``socket.create_connection``, with the timeout shared by all the addresses: the same errors
    (ConnectionRefusedError, TimeoutError, an OSError with its errno, or one naming every address's
    failure).
    """
    deadline = time.monotonic() + timeout
    errors: list[OSError] = []
    for family, kind, proto, _, sockaddr in socket.getaddrinfo(host_name(host), port, 0, socket.SOCK_STREAM):
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError
        sock = socket.socket(family, kind, proto)
        try:
            sock.settimeout(left)
            sock.connect(sockaddr)
        except TimeoutError:
            sock.close()
            raise
        except OSError as e:
            sock.close()
            errors.append(e)
            continue
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        return sock
    if len(errors) == 1:
        raise errors[0]
    raise OSError("Multiple exceptions: " + ", ".join(str(e) for e in errors))


def host_name(host: str) -> str | bytes:
    """``host`` as ``getaddrinfo`` takes it without loading the IDNA codec (which costs more than the
    rest of the lookup, and brings ``re``): an ASCII name is the bytes the codec would make of it.

    A name the codec would refuse (an empty or over-long label) or change (not ASCII) stays text,
    so that ``getaddrinfo`` encodes it, or refuses it, exactly as before.
    """
    if not host.isascii():
        return host
    name = host.encode("ascii")
    labels = name.split(b".")
    if len(labels[-1]) >= 64 or not all(0 < len(label) < 64 for label in labels[:-1]):
        return host
    return name


class _Connection:
    """One connection: a socket, the protocol channel it drives, and the lock that gives it to one
    call at a time."""

    __slots__ = ("addr", "broken_reason", "channel", "closed", "lock", "sock", "tls")

    def __init__(self, addr: str, sock: socket.socket, *, tls: bool = False) -> None:
        self.addr = addr
        self.sock = sock
        self.tls = tls
        self.channel = Channel()
        self.lock = threading.Lock()
        self.closed = False
        self.broken_reason = ""

    def close(self) -> None:
        self.closed = True
        try:
            self.sock.close()
        except OSError:
            pass

    def still_open(self) -> bool:
        """False when the peer closed the connection while it was idle (what is waiting is read)."""
        sock = self.sock
        try:
            sock.setblocking(False)
            while True:
                data = sock.recv(_READ)
                if not data:
                    return False
                self._received(data, None)
                if self.channel.broken:
                    return False
        except BlockingIOError:
            return True
        except OSError as e:
            return self.tls and _is_want_read(e)

    def exchange(self, cmd: RemotingCommand, timeout: float) -> RemotingCommand:
        """Write ``cmd`` and read frames until the one answering it; ``timeout`` counts from the write."""
        channel = self.channel
        try:
            data = channel.send_request(cmd)
        except ProtocolError as e:
            raise RemotingSendError(self.addr, str(e), cmd.code) from e
        sock = self.sock
        try:
            sock.settimeout(timeout)
            sock.sendall(data)
        except TimeoutError:
            channel.forget(cmd.opaque)
            raise RemotingTimeoutError(self.addr, timeout, cmd.code) from None
        except OSError as e:
            self.close()
            raise RemotingClosedError(self.addr, cmd.code, reason=str(e)) from None
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            try:
                if left <= 0:
                    raise TimeoutError
                sock.settimeout(left)
                data = sock.recv(_READ)
            except TimeoutError:
                channel.forget(cmd.opaque)
                raise RemotingTimeoutError(self.addr, timeout, cmd.code) from None
            except OSError as e:
                self.close()
                raise RemotingClosedError(self.addr, cmd.code, reason=str(e)) from None
            if not data:
                mid = channel.buffered > 0
                self.close()
                raise RemotingClosedError(self.addr, cmd.code, mid_response=mid)
            answer = self._received(data, cmd.opaque)
            if channel.broken:
                self.close()
                reason = f"malformed frame: {self.broken_reason}"
                raise RemotingClosedError(self.addr, cmd.code, reason=reason)
            if answer is not None:
                return answer

    def _received(self, data: bytes, opaque: int | None) -> RemotingCommand | None:
        """The answer with ``opaque`` among the events of ``data``; the peer's requests are answered
        as a client without handlers answers them, late answers to other calls are dropped."""
        answer = None
        for event in self.channel.receive(data):
            if isinstance(event, Answer):
                if event.cmd.opaque == opaque:
                    answer = event.cmd
            elif isinstance(event, PeerRequest):
                reply = self.channel.not_supported(event.cmd)
                if reply is not None:
                    self.sock.sendall(reply)
            elif isinstance(event, Broken):
                self.broken_reason = str(event.error)
        return answer


class BlockingClient:
    """Calls to many peers on blocking sockets, one connection per address, opened on first use.

    The counterpart of :class:`~mqadmin.remoting.client.RemotingClient` for the calls
    :class:`~mqadmin.admin.core.AdminCore` makes (:meth:`call`, :meth:`close`, :attr:`connections`).
    """

    def __init__(
        self,
        *,
        connect_timeout: float,
        ssl: _ssl.SSLContext | None = None,
        rpc_hooks: Iterable[Callable[[RemotingCommand], object]] = (),
    ) -> None:
        self.connect_timeout = connect_timeout
        self.rpc_hooks = list(rpc_hooks)
        self._ssl = ssl
        self._channels: dict[str, _Connection] = {}
        self._connecting: dict[str, threading.Lock] = {}
        self._lock = threading.Lock()
        self._closed = False

    @property
    def connections(self) -> dict[str, _Connection]:
        """Open connections by address (a copy)."""
        return {a: c for a, c in self._channels.items() if not c.closed}

    def invoke_blocking(self, addr: str, cmd: RemotingCommand, timeout: float) -> RemotingCommand:
        """Send ``cmd`` to ``addr`` and return the response whatever its code (the async client's
        ``invoke``): ``timeout`` covers the whole call, a connect also stops at ``connect_timeout``."""
        start = time.monotonic()
        while True:
            channel, fresh = self._channel(addr)
            with channel.lock:
                if not fresh and (channel.closed or not channel.still_open()):
                    self._drop(channel)  # the peer closed it while idle: connect again
                    continue
                left = timeout - (time.monotonic() - start)
                if left <= 0:
                    raise RemotingTimeoutError(addr, timeout, cmd.code)
                for hook in self.rpc_hooks:
                    hook(cmd)
                try:
                    return channel.exchange(cmd, left)
                except RemotingTimeoutError:
                    raise RemotingTimeoutError(addr, timeout, cmd.code) from None
                finally:
                    if channel.closed:
                        self._drop(channel)

    async def invoke(self, addr: str, cmd: RemotingCommand, timeout: float) -> RemotingCommand:
        """:meth:`invoke_blocking`, awaitable (it never suspends)."""
        return self.invoke_blocking(addr, cmd, timeout)

    async def call(
        self,
        addr: str,
        cmd: RemotingCommand,
        timeout: float,
        *,
        ok_codes: Container[int] = (_SUCCESS,),
    ) -> RemotingCommand:
        """:meth:`invoke`, raising :class:`RemoteCommandError` unless the code is in ``ok_codes``."""
        return accepted(addr, cmd, self.invoke_blocking(addr, cmd, timeout), ok_codes)

    async def close(self) -> None:
        """Close every connection and refuse further calls."""
        self._closed = True
        with self._lock:
            channels = list(self._channels.values())
            self._channels.clear()
        for channel in channels:
            channel.close()

    # ------------------------------------------------------------------------------ connecting

    def _channel(self, addr: str) -> tuple[_Connection, bool]:
        """The pooled connection to ``addr``, and whether it was opened for this call."""
        with self._lock:
            channel = self._channels.get(addr)
            if channel is not None:
                return channel, False
            lock = self._connecting.setdefault(addr, threading.Lock())
        with lock:  # one connect per address: a second caller waits for it and shares it
            with self._lock:
                channel = self._channels.get(addr)
            if channel is not None:
                return channel, False
            channel = self._connect(addr)
            with self._lock:
                self._channels[addr] = channel
            return channel, True

    def _drop(self, channel: _Connection) -> None:
        channel.close()
        with self._lock:
            if self._channels.get(channel.addr) is channel:
                del self._channels[channel.addr]

    def _connect(self, addr: str) -> _Connection:
        if self._closed:
            raise RemotingConnectError(addr, "client is closed")
        host, port = parse_addr(addr)
        deadline = time.monotonic() + self.connect_timeout
        try:
            sock = _open_socket(host, port, self.connect_timeout)
            if self._ssl is not None:  # the handshake is part of the connect, and of its timeout
                sock = _handshake(self._ssl, sock, host, deadline)
        except TimeoutError:
            raise RemotingConnectError(addr, "timed out", timeout=self.connect_timeout) from None
        except OSError as e:
            raise RemotingConnectError(addr, os_reason(e, tls=self._ssl is not None)) from e
        return _Connection(addr, sock, tls=self._ssl is not None)


def _handshake(ctx: _ssl.SSLContext, sock: socket.socket, host: str, deadline: float) -> _ssl.SSLSocket:
    """``sock`` over TLS by ``deadline``; a peer that hangs up meanwhile (a plain RocketMQ port reads
    the hello as a frame too long and closes) is ConnectionResetError, as asyncio reports it."""
    try:
        sock.settimeout(max(deadline - time.monotonic(), 0.001))
        return ctx.wrap_socket(sock, server_hostname=host)
    except OSError as e:
        sock.close()
        import ssl

        if isinstance(e, ConnectionError | ssl.SSLEOFError):
            raise ConnectionResetError from None
        raise
