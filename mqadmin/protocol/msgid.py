"""RocketMQ message ids: offset ids (where a message is stored) and unique keys (who made it).

Two id kinds circulate, both upper-case hex:

* the *offset message id* a broker derives from its store address and the commit-log offset
  (``MessageDecoder.createMessageId`` / ``decodeMessageId``): 32 hex chars for an IPv4 store host
  (ip 4 + port 4 + offset 8 bytes), 56 for IPv6 (ip 16 + port 4 + offset 8);
* the *unique key* a producer puts in the ``UNIQ_KEY`` property (``MessageClientIDSetter``):
  ip (4 or 16 bytes), pid (2), class-loader hash (4), milliseconds since the start of the month (4),
  counter (2) -- 32 or 56 hex chars. This is the id the Java tools print as ``MsgId``.

The layouts are identical in RocketMQ 4.9.8 and 5.3.3 (5.x only dropped an unused constant).
"""

from __future__ import annotations

import os
import random
import struct
import threading
import time
from collections.abc import Callable
from datetime import datetime, tzinfo

from mqadmin.protocol.errors import ProtocolError

__all__ = [
    "UniqueIdFields",
    "UniqueIdGenerator",
    "UniqueIdInfo",
    "create_offset_msg_id",
    "decode_offset_msg_id",
    "decode_unique_id",
    "host_to_bytes",
    "java_host_address",
    "java_ip_string",
    "month_start_ms",
    "parse_unique_id",
]

_HEX_DIGITS = frozenset("0123456789abcdefABCDEF")


# --- addresses ------------------------------------------------------------------------------------


def java_host_address(packed: bytes) -> str:
    """Render raw address bytes the way Java's ``InetAddress.getHostAddress()`` does.

    Java turns an IPv4-mapped IPv6 address (``::ffff:a.b.c.d``) into an ``Inet4Address``, and writes
    IPv6 as eight groups without zero compression (``fd00:0:0:0:0:0:0:2``). Renderers that must
    match the Java tools' ``bornHost=/...`` text rely on this exact form.
    """
    if len(packed) == 4:
        return ".".join(str(b) for b in packed)
    if len(packed) == 16:
        if packed[:12] == b"\x00" * 10 + b"\xff\xff":
            return ".".join(str(b) for b in packed[12:])
        groups = struct.unpack(">8H", packed)
        return ":".join(f"{g:x}" for g in groups)
    raise ProtocolError(f"an IP address has 4 or 16 bytes, not {len(packed)}")


def java_ip_string(packed: bytes) -> str:
    """Render an id's IP bytes as ``UtilAll.ipToIPv4Str`` / ``ipToIPv6Str`` do (``getIPStrFromID``).

    Unlike :func:`java_host_address`, IPv6 groups are zero-padded to four digits and never mapped.
    """
    if len(packed) == 4:
        return ".".join(str(b) for b in packed)
    if len(packed) == 16:
        return ":".join(packed[i : i + 2].hex() for i in range(0, 16, 2))
    raise ProtocolError(f"an IP address has 4 or 16 bytes, not {len(packed)}")


#: Packed hosts by ``v6`` and host: the broker packs the same few hosts for every message it stores.
_HOST_BYTES: dict[bool | None, dict[str, bytes]] = {None: {}, True: {}, False: {}}
_HOST_BYTES_MAX = 1024


def host_to_bytes(host: str, *, v6: bool | None = None) -> bytes:
    """Pack a textual IP address into the 4 or 16 bytes the wire carries.

    ``v6=None`` picks the natural width as Java does (an IPv4-mapped IPv6 address counts as IPv4);
    ``v6=True`` forces 16 bytes (IPv4 hosts become ``::ffff:a.b.c.d``, which is what a record with the
    V6 sys-flag bit and a mapped address holds); ``v6=False`` demands an IPv4 address.

    Answers are remembered, up to 1024 hosts for each ``v6``.
    """
    try:
        return _HOST_BYTES[v6][host]
    except KeyError:
        pass
    packed = _host_to_bytes(host, v6)
    cache = _HOST_BYTES.get(v6)
    if cache is not None:
        if len(cache) >= _HOST_BYTES_MAX:
            cache.clear()
        cache[host] = packed
    return packed


def _ipv4_bytes(text: str) -> bytes | None:
    """The four bytes of a dotted quad as :mod:`ipaddress` accepts it (decimal octets of at most three
    ASCII digits, no leading zero, at most 255), else None."""
    parts = text.split(".")
    if len(parts) != 4:
        return None
    octets = []
    for part in parts:
        if not (0 < len(part) <= 3 and part.isascii() and part.isdigit()):
            return None
        if part[0] == "0" and len(part) > 1:
            return None
        value = int(part)
        if value > 255:
            return None
        octets.append(value)
    return bytes(octets)


def _host_to_bytes(host: str, v6: bool | None) -> bytes:
    if not isinstance(host, str):
        raise ProtocolError(f"an IP address must be a string, not {type(host).__name__}")
    text = host.strip("[]")
    packed = _ipv4_bytes(text)
    if packed is not None:  # the usual case, without importing ipaddress (functools, re)
        return b"\x00" * 10 + b"\xff\xff" + packed if v6 else packed
    import ipaddress

    try:
        addr = ipaddress.ip_address(text)
    except ValueError as exc:
        raise ProtocolError(f"not an IP address: {host!r}") from exc
    if isinstance(addr, ipaddress.IPv6Address) and addr.ipv4_mapped is not None and v6 is not True:
        addr = addr.ipv4_mapped
    if isinstance(addr, ipaddress.IPv4Address):
        if v6:
            return b"\x00" * 10 + b"\xff\xff" + addr.packed
        return addr.packed
    if v6 is False:
        raise ProtocolError(f"IPv6 address {host!r} where the sys flag says IPv4")
    return addr.packed


def _hex_to_bytes(text: str, what: str, lengths: tuple[int, ...]) -> bytes:
    if not isinstance(text, str):
        raise ProtocolError(f"{what} must be a string, not {type(text).__name__}")
    if len(text) not in lengths:
        allowed = " or ".join(str(n) for n in lengths)
        raise ProtocolError(f"{what} must have {allowed} hex characters, got {len(text)}: {text!r}")
    if not _HEX_DIGITS.issuperset(text):
        raise ProtocolError(f"{what} is not hexadecimal: {text!r}")
    return bytes.fromhex(text)


# --- offset message ids -----------------------------------------------------------------------------


def create_offset_msg_id(host: str, port: int, commit_log_offset: int) -> str:
    """The id a broker returns as ``msgId`` in SEND responses and Java shows as ``offsetMsgId``."""
    ip = host_to_bytes(host)
    try:
        tail = struct.pack(">iq", _to_int32(port), commit_log_offset)
    except struct.error as exc:
        raise ProtocolError(f"commit-log offset out of range: {commit_log_offset}") from exc
    return (ip + tail).hex().upper()


def decode_offset_msg_id(msg_id: str) -> tuple[str, int, int]:
    """Split an offset message id into (store host, store port, commit-log offset).

    The host is rendered like Java's ``InetAddress.getHostAddress()``.
    """
    raw = _hex_to_bytes(msg_id, "offset message id", (32, 56))
    ip_len = 4 if len(raw) == 16 else 16
    port, offset = struct.unpack_from(">iq", raw, ip_len)
    return java_host_address(raw[:ip_len]), port, offset


def _to_int32(value: int) -> int:
    """Wrap like a Java ``(int)`` cast so the packed field matches ``ByteBuffer.putInt``."""
    if not isinstance(value, int):
        raise ProtocolError(f"expected an int, got {type(value).__name__}")
    value &= 0xFFFFFFFF
    return value - (1 << 32) if value >= 1 << 31 else value


# --- unique keys ------------------------------------------------------------------------------------


def _item_getter(i: int) -> Callable[[tuple[object, ...]], object]:
    def get(self: tuple[object, ...]) -> object:
        return self[i]

    return get


class _Fields(tuple):  # type: ignore[type-arg]
    """A named tuple without :mod:`typing` or :mod:`collections`: a subclass names its fields in
    ``_fields`` (each becomes a read-only attribute) and annotates their types for the type checker."""

    __slots__ = ()
    _fields: tuple[str, ...] = ()

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        for i, name in enumerate(cls._fields):
            setattr(cls, name, property(_item_getter(i)))

    def __repr__(self) -> str:
        values = ", ".join(f"{name}={value!r}" for name, value in zip(self._fields, self, strict=True))
        return f"{type(self).__name__}({values})"

    def _asdict(self) -> dict[str, object]:
        return dict(zip(self._fields, self, strict=True))

    def __getnewargs__(self) -> tuple[object, ...]:
        return tuple(self)


class UniqueIdFields(_Fields):
    """The raw fields of a unique key, as laid out by ``MessageClientIDSetter``."""

    __slots__ = ()
    _fields = ("ip", "pid", "class_loader_hash", "time_span_ms", "counter")
    ip: bytes
    pid: int
    class_loader_hash: int
    time_span_ms: int  # unsigned milliseconds since the start of the producer's month
    counter: int

    def __new__(
        cls, ip: bytes, pid: int, class_loader_hash: int, time_span_ms: int, counter: int
    ) -> UniqueIdFields:
        return tuple.__new__(cls, (ip, pid, class_loader_hash, time_span_ms, counter))


class UniqueIdInfo(_Fields):
    """What the Java tools derive from a unique key (``getIPStrFromID``, pid, ``getNearlyTimeFromID``)."""

    __slots__ = ()
    _fields = ("ip", "pid", "timestamp_ms", "counter")
    ip: str
    pid: int
    timestamp_ms: int
    counter: int

    def __new__(cls, ip: str, pid: int, timestamp_ms: int, counter: int) -> UniqueIdInfo:
        return tuple.__new__(cls, (ip, pid, timestamp_ms, counter))


def decode_unique_id(unique_id: str) -> UniqueIdFields:
    """Split a unique key into its fields; 32 hex chars mean an IPv4 producer, 56 IPv6."""
    raw = _hex_to_bytes(unique_id, "unique message id", (32, 56))
    ip_len = 4 if len(raw) == 16 else 16
    pid, loader, span, counter = struct.unpack_from(">HiIH", raw, ip_len)
    return UniqueIdFields(raw[:ip_len], pid, loader, span, counter)


def month_start_ms(ms: int, tz: tzinfo | None = None, *, months: int = 0) -> int:
    """Epoch ms of midnight on the 1st of the month containing ``ms``, shifted by ``months``.

    ``tz=None`` uses the local zone, like Java's default ``Calendar``; ids carry no zone, so the
    producer's and the reader's zones must agree for the time to be right (as in Java).
    """
    dt = datetime.fromtimestamp(ms / 1000, tz)
    index = dt.year * 12 + (dt.month - 1) + months
    first = dt.replace(year=index // 12, month=index % 12 + 1, day=1)
    start = first.replace(hour=0, minute=0, second=0, microsecond=0)
    return round(start.timestamp() * 1000)


def parse_unique_id(unique_id: str, *, now_ms: int | None = None, tz: tzinfo | None = None) -> UniqueIdInfo:
    """Decode a unique key the way ``MessageClientIDSetter`` reads it back.

    The id only holds the time since the start of *some* month; like Java's ``getNearlyTimeFromID``
    we assume the current month, or the previous one if that would put the time in the future.
    """
    fields = decode_unique_id(unique_id)
    now = time.time_ns() // 1_000_000 if now_ms is None else now_ms
    start = month_start_ms(now, tz)
    if start + fields.time_span_ms >= now:
        start = month_start_ms(now, tz, months=-1)
    return UniqueIdInfo(java_ip_string(fields.ip), fields.pid, start + fields.time_span_ms, fields.counter)


def _fake_ip(now_ms: int) -> bytes:
    """Java's fallback when no address is known: the low four bytes of the current time."""
    return struct.pack(">q", now_ms)[4:]


class UniqueIdGenerator:
    """Makes ``UNIQ_KEY`` values with the layout of Java's ``MessageClientIDSetter.createUniqID``.

    Everything environmental is injectable (ip, pid, hash, clock, zone) so the generator stays
    deterministic under test and free of I/O: without an ``ip`` it uses Java's fallback fake IP.
    Thread-safe; the counter wraps at 16 bits as in Java.
    """

    def __init__(
        self,
        ip: str | bytes | None = None,
        *,
        pid: int | None = None,
        class_loader_hash: int | None = None,
        clock: Callable[[], int] | None = None,
        tz: tzinfo | None = None,
        counter: int = 0,
    ) -> None:
        self._clock = clock or (lambda: time.time_ns() // 1_000_000)
        self._tz = tz
        if ip is None:
            ip_bytes = _fake_ip(self._clock())
        elif isinstance(ip, bytes):
            if len(ip) not in (4, 16):
                raise ProtocolError(f"an IP address has 4 or 16 bytes, not {len(ip)}")
            ip_bytes = ip
        else:
            ip_bytes = host_to_bytes(ip)
        pid_value = (os.getpid() if pid is None else pid) & 0xFFFF
        loader = random.getrandbits(32) if class_loader_hash is None else class_loader_hash
        self._prefix = (ip_bytes + struct.pack(">HI", pid_value, loader & 0xFFFFFFFF)).hex().upper()
        self._lock = threading.Lock()
        self._counter = counter
        self._start = 0
        self._next_start = 0
        self._set_start(self._clock())

    @property
    def prefix(self) -> str:
        """The fixed part (ip, pid, class-loader hash) shared by every id of this generator."""
        return self._prefix

    def _set_start(self, now: int) -> None:
        self._start = month_start_ms(now, self._tz)
        self._next_start = month_start_ms(now, self._tz, months=1)

    def next_id(self) -> str:
        """A new unique key."""
        with self._lock:
            now = self._clock()
            if now >= self._next_start:
                self._set_start(now)
            diff = _to_int32(now - self._start)
            if -1_000_000 < diff < 0:  # clock stepped back a little (NTP): Java pins it at zero
                diff = 0
            counter = self._counter
            self._counter += 1
        return f"{self._prefix}{diff & 0xFFFFFFFF:08X}{counter & 0xFFFF:04X}"

    __call__ = next_id
