"""A blocking remoting client, for commands that send a handful of requests and need no event loop.

``mqadmin topicRoute`` sends one request; importing asyncio (and the ssl, logging and
concurrent.futures it pulls in) took longer than the call itself. This client speaks the same frames
(:mod:`mqadmin.protocol.frame`), raises the same errors (:mod:`mqadmin.remoting.errors`) with the
same timeouts as :class:`mqadmin.remoting.client.RemotingClient`, over plain sockets:

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

import _socket
import _thread
import os
import sys
import time

from mqadmin.protocol.command import FLAG_ONEWAY, FLAG_RESPONSE
from mqadmin.protocol.errors import ProtocolError
from mqadmin.protocol.frame import FrameDecoder, encode
from mqadmin.remoting.errors import (
    RemoteCommandError,
    RemotingClosedError,
    RemotingConnectError,
    RemotingSendError,
    RemotingTimeoutError,
)

# Start-up: ``socket`` (enum, selectors), ``ssl``, ``threading`` and ``re`` each cost a one-request
# command more than its request. A plain connection is made with ``_socket`` (what ``socket`` wraps),
# a lock is ``_thread``'s; ``socket`` and ``ssl`` are loaded for a TLS connection only.
TYPE_CHECKING = False
if TYPE_CHECKING:
    import ssl as _ssl
    from collections.abc import Awaitable, Callable, Container, Iterable
    from typing import TypeVar

    from mqadmin.protocol.command import RemotingCommand

    T = TypeVar("T")

__all__ = ["BlockingClient", "host_name", "os_reason", "parse_addr", "run_sync"]

_SUCCESS = 0
_REQUEST_CODE_NOT_SUPPORTED = 3
_READ = 65536


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


def os_reason(exc: OSError) -> str:
    """The short reason for a failed connect: ``Connection refused`` rather than the OS call's wording."""
    if isinstance(exc, _socket.gaierror) or _is_ssl_error(exc):
        return exc.strerror or str(exc)
    if exc.errno:
        return os.strerror(exc.errno)
    text = str(exc)
    # a name with several addresses (localhost: ::1 and 127.0.0.1) fails with one joined message
    errnos = _errnos(text)
    if len(errnos) == 1:
        return os.strerror(int(errnos.pop()))
    return text or type(exc).__name__


def _errnos(text: str) -> set[str]:
    r"""The N of every ``[Errno N]`` in ``text``: ``set(re.findall(r"\[Errno (\d+)\]", text))``
    without ``re`` (``\d`` is a Unicode decimal digit, as ``str.isdecimal`` tells)."""
    found: set[str] = set()
    end = len(text)
    at = text.find("[Errno ")
    while at >= 0:
        first = stop = at + 7
        while stop < end and text[stop].isdecimal():
            stop += 1
        if stop > first and stop < end and text[stop] == "]":
            found.add(text[first:stop])
            at = text.find("[Errno ", stop + 1)
        else:
            at = text.find("[Errno ", at + 1)
    return found


def _is_ssl_error(exc: OSError) -> bool:
    """Without importing ssl: an SSL error can only come from a process that loaded it."""
    ssl = sys.modules.get("ssl")
    return ssl is not None and isinstance(exc, ssl.SSLError)


def _is_want_read(exc: OSError) -> bool:
    """A TLS socket with nothing to read yet (not an error; a TLS record may have been all there was)."""
    ssl = sys.modules.get("ssl")
    return ssl is not None and isinstance(exc, ssl.SSLWantReadError)


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


def _open_socket(host: str, port: int, timeout: float) -> _socket.socket:
    """A connected TCP socket: each address of ``host`` in turn, all within ``timeout`` seconds.

    ``socket.create_connection`` on ``_socket``: the same errors (ConnectionRefusedError,
    TimeoutError, an OSError with its errno, or one naming every address's failure).
    """
    deadline = time.monotonic() + timeout
    errors: list[OSError] = []
    for family, kind, proto, _, sockaddr in _socket.getaddrinfo(
        host_name(host), port, 0, _socket.SOCK_STREAM
    ):
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError
        sock = _socket.socket(family, kind, proto)
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
        sock.setsockopt(_socket.IPPROTO_TCP, _socket.TCP_NODELAY, 1)
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


class _Channel:
    """One connection: a socket, its frame decoder and the lock that gives it to one call at a time."""

    __slots__ = ("addr", "closed", "decoder", "lock", "sock")

    def __init__(self, addr: str, sock: _socket.socket) -> None:
        self.addr = addr
        self.sock = sock
        self.decoder = FrameDecoder()
        self.lock = _thread.allocate_lock()
        self.closed = False

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
                self._received(self.decoder.feed(data), None)
        except BlockingIOError:
            return True
        except OSError as e:
            return _is_want_read(e)
        except ProtocolError:
            return False

    def exchange(self, cmd: RemotingCommand, timeout: float) -> RemotingCommand:
        """Write ``cmd`` and read frames until the one answering it; ``timeout`` counts from the write."""
        try:
            data = encode(cmd)
        except ProtocolError as e:
            raise RemotingSendError(self.addr, str(e), cmd.code) from e
        sock = self.sock
        try:
            sock.settimeout(timeout)
            sock.sendall(data)
        except TimeoutError:
            raise RemotingTimeoutError(self.addr, timeout, cmd.code) from None
        except OSError as e:
            self.close()
            raise RemotingClosedError(self.addr, cmd.code, reason=str(e)) from None
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise RemotingTimeoutError(self.addr, timeout, cmd.code)
            try:
                sock.settimeout(left)
                data = sock.recv(_READ)
            except TimeoutError:
                raise RemotingTimeoutError(self.addr, timeout, cmd.code) from None
            except OSError as e:
                self.close()
                raise RemotingClosedError(self.addr, cmd.code, reason=str(e)) from None
            if not data:
                mid = self.decoder.buffered > 0
                self.close()
                raise RemotingClosedError(self.addr, cmd.code, mid_response=mid)
            try:
                frames = self.decoder.feed(data)
            except ProtocolError as e:
                self.close()
                raise RemotingClosedError(self.addr, cmd.code, reason=f"malformed frame: {e}") from None
            answer = self._received(frames, cmd.opaque)
            if answer is not None:
                return answer

    def _received(self, frames: list[RemotingCommand], opaque: int | None) -> RemotingCommand | None:
        """The response with ``opaque`` among ``frames``; the peer's requests are answered, as a
        client without handlers answers them, and late responses to other calls are dropped."""
        answer = None
        for frame in frames:
            if frame.flag & FLAG_RESPONSE:
                if opaque is not None and frame.opaque == opaque and answer is None:
                    answer = frame
            elif not frame.flag & FLAG_ONEWAY:
                remark = f" request type {frame.code} not supported"
                self.sock.sendall(encode(frame.response(_REQUEST_CODE_NOT_SUPPORTED, remark)))
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
        self._channels: dict[str, _Channel] = {}
        self._connecting: dict[str, _thread.LockType] = {}
        self._lock = _thread.allocate_lock()
        self._closed = False

    @property
    def connections(self) -> dict[str, _Channel]:
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
        resp = self.invoke_blocking(addr, cmd, timeout)
        if resp.code not in ok_codes:
            raise RemoteCommandError(
                addr, resp.code, resp.remark, cmd.code, version=resp.version, response=resp
            )
        return resp

    async def close(self) -> None:
        """Close every connection and refuse further calls."""
        self._closed = True
        with self._lock:
            channels = list(self._channels.values())
            self._channels.clear()
        for channel in channels:
            channel.close()

    # ------------------------------------------------------------------------------ connecting

    def _channel(self, addr: str) -> tuple[_Channel, bool]:
        """The pooled connection to ``addr``, and whether it was opened for this call."""
        with self._lock:
            channel = self._channels.get(addr)
            if channel is not None:
                return channel, False
            lock = self._connecting.setdefault(addr, _thread.allocate_lock())
        with lock:  # one connect per address: a second caller waits for it and shares it
            with self._lock:
                channel = self._channels.get(addr)
            if channel is not None:
                return channel, False
            channel = self._connect(addr)
            with self._lock:
                self._channels[addr] = channel
            return channel, True

    def _drop(self, channel: _Channel) -> None:
        channel.close()
        with self._lock:
            if self._channels.get(channel.addr) is channel:
                del self._channels[channel.addr]

    def _connect(self, addr: str) -> _Channel:
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
            raise RemotingConnectError(addr, os_reason(e)) from e
        return _Channel(addr, sock)


def _handshake(ctx: _ssl.SSLContext, raw: _socket.socket, host: str, deadline: float) -> _ssl.SSLSocket:
    """``raw`` over TLS by ``deadline``; a peer that hangs up meanwhile (a plain RocketMQ port reads
    the hello as a frame too long and closes) is ConnectionResetError, as asyncio reports it."""
    import socket  # TLS wraps a ``socket.socket``: only a TLS connection loads the module
    import ssl

    sock = socket.socket(raw.family, raw.type, raw.proto, raw.detach())
    try:
        sock.settimeout(max(deadline - time.monotonic(), 0.001))
        return ctx.wrap_socket(sock, server_hostname=host)
    except OSError as e:
        sock.close()
        if isinstance(e, ConnectionError | ssl.SSLEOFError):
            raise ConnectionResetError from None
        raise
