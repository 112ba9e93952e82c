"""What listens on an address: a RocketMQ name server or broker, an HTTP or TLS server, or nothing.

Used after a request failed in a way a wrong address explains (a request the server does not know, a
connection closed at once, no answer at all), so the error can say "127.0.0.1:10911 is a broker, not
a name server" instead of the symptom. Blocking sockets with a short budget: it runs once, after the
command has already failed, and needs no event loop.
"""

from __future__ import annotations

import socket
import struct
from enum import Enum

from mqadmin.protocol.codes import RequestCode, ResponseCode
from mqadmin.protocol.command import RemotingCommand
from mqadmin.protocol.errors import ProtocolError
from mqadmin.protocol.frame import decode, encode

__all__ = ["Kind", "identify", "probe_http", "probe_remoting", "probe_tls"]

_HTTP_PROBE = b"GET / HTTP/1.0\r\n\r\n"
"""An HTTP request: an HTTP server answers ``HTTP/...``; a RocketMQ server reads an impossible frame
length (``GET `` is 1195725856 bytes) and closes the connection, changing nothing."""


class Kind(Enum):
    NAME_SERVER = "a name server"
    BROKER = "a broker"
    REMOTING = "a RocketMQ server (neither a name server nor a broker)"
    HTTP = "an HTTP server"
    TLS = "a TLS server"
    CLOSED = "a closed port (connection refused)"
    SILENT = "silent (it accepts connections and answers nothing)"
    OTHER = "not a RocketMQ server"


def _split(addr: str) -> tuple[str, int]:
    host, _, port = addr.rpartition(":")
    return host.strip("[]"), int(port)


def _connect(addr: str, timeout: float) -> socket.socket:
    return socket.create_connection(_split(addr), timeout=timeout)


def _first_bytes(sock: socket.socket, timeout: float) -> bytes | None:
    """What the peer sends first (b"" when it closes, None when it sends nothing in time)."""
    sock.settimeout(timeout)
    try:
        return sock.recv(8)
    except TimeoutError:
        return None
    except OSError:  # reset
        return b""


def _read_frame(sock: socket.socket, first: bytes, timeout: float) -> RemotingCommand | None:
    """The rest of the frame ``first`` begins, decoded; None when it is not one."""
    if len(first) < 4:
        return None
    total = struct.unpack(">i", first[:4])[0]
    if not 4 <= total <= 1 << 20:
        return None
    data = bytearray(first)
    sock.settimeout(timeout)
    try:
        while len(data) < total + 4:
            chunk = sock.recv(total + 4 - len(data))
            if not chunk:
                return None
            data += chunk
        return decode(bytes(data))
    except (OSError, ProtocolError):
        return None


def _ask(sock: socket.socket, code: int, timeout: float) -> RemotingCommand | bytes | None:
    """One RocketMQ request: the answer, or the first bytes that were not one (None: nothing)."""
    sock.sendall(encode(RemotingCommand.request(code)))
    first = _first_bytes(sock, timeout)
    if not first:
        return first
    answer = _read_frame(sock, first, timeout)
    return answer if answer is not None else first


def _kind_of_bytes(first: bytes) -> Kind:
    if first.startswith(b"HTTP/"):
        return Kind.HTTP
    if len(first) >= 2 and first[0] in (0x15, 0x16) and first[1] == 0x03:  # a TLS alert or handshake
        return Kind.TLS
    return Kind.OTHER


def probe_remoting(addr: str, timeout: float = 1.0) -> Kind | None:
    """Ask GET_BROKER_CLUSTER_INFO (a name server answers it) and GET_BROKER_RUNTIME_INFO (a broker
    does). None when the peer sent nothing or closed the connection."""
    try:
        with _connect(addr, timeout) as sock:
            answer = _ask(sock, RequestCode.GET_BROKER_CLUSTER_INFO, timeout)
            if answer is None:  # an HTTP server waits for the end of a line: give it one
                sock.sendall(_HTTP_PROBE)
                answer = _first_bytes(sock, timeout)
                return Kind.SILENT if answer is None else _kind_of_bytes(answer) if answer else None
            if not isinstance(answer, RemotingCommand):
                return _kind_of_bytes(answer) if answer else None
            if answer.code == ResponseCode.SUCCESS:
                return Kind.NAME_SERVER
            again = _ask(sock, RequestCode.GET_BROKER_RUNTIME_INFO, timeout)
            if isinstance(again, RemotingCommand) and again.code == ResponseCode.SUCCESS:
                return Kind.BROKER
            return Kind.REMOTING
    except ConnectionRefusedError:
        return Kind.CLOSED
    except OSError:
        return None


def probe_http(addr: str, timeout: float = 1.0) -> Kind | None:
    """Send an HTTP request: Kind.HTTP when the answer is HTTP, Kind.SILENT when nothing comes."""
    try:
        with _connect(addr, timeout) as sock:
            sock.sendall(_HTTP_PROBE)
            first = _first_bytes(sock, timeout)
    except ConnectionRefusedError:
        return Kind.CLOSED
    except OSError:
        return None
    if first is None:
        return Kind.SILENT
    return _kind_of_bytes(first) if first else None


def probe_tls(addr: str, timeout: float = 1.0) -> bool:
    """True when a TLS handshake succeeds there (any certificate: this only asks what it speaks)."""
    import ssl  # only this probe speaks TLS

    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    ctx.check_hostname = False
    ctx.verify_mode = ssl.CERT_NONE
    try:
        with _connect(addr, timeout) as raw, ctx.wrap_socket(raw) as tls:
            return tls.version() is not None
    except (OSError, ssl.SSLError, ValueError):
        return False


def identify(addr: str, timeout: float = 1.0, *, remoting: bool = True) -> Kind | None:
    """What answers at ``addr`` (None when it cannot be told): RocketMQ requests first (an HTTP
    request when nothing answers them), then a TLS handshake when the peer closed the connection.
    ``remoting=False`` sends no RocketMQ request (after a timeout: the peer may be a busy server)."""
    try:
        _split(addr)
    except ValueError:
        return None
    kind = probe_remoting(addr, timeout) if remoting else probe_http(addr, timeout)
    if kind is not None:
        return kind
    return Kind.TLS if probe_tls(addr, timeout) else None
