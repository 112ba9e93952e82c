"""Sans-IO codec for stored RocketMQ messages: :class:`MessageExt`, commit-log records, pull bodies
and batch bodies (the messages themselves and their properties are :mod:`mqadmin.protocol.message`).

A *record* (``decode_message`` / ``encode_message``) is the commit-log layout that PULL_MESSAGE
and QUERY_MESSAGE response bodies carry back to back. All integers are big-endian and signed, as
Java's ``ByteBuffer`` writes them::

    int   TOTALSIZE       whole record, this field included
    int   MAGICCODE       MESSAGE_MAGIC_CODE (v1: 1-byte topic length) or _V2 (2-byte topic length)
    int   BODYCRC         crc32(body) & 0x7FFFFFFF of the stored (possibly compressed) body
    int   QUEUEID
    int   FLAG
    long  QUEUEOFFSET
    long  PHYSICALOFFSET  commit-log offset
    int   SYSFLAG         see MessageSysFlag; decides the host widths below
    long  BORNTIMESTAMP
    4|16  BORNHOST ip, int port
    long  STORETIMESTAMP
    4|16  STOREHOST ip, int port
    int   RECONSUMETIMES
    long  PREPARED TRANSACTION OFFSET
    int   body length, body
    byte|short topic length, topic (UTF-8)
    short properties length, properties (UTF-8, see properties_to_string)

A *batch* body (SEND_BATCH_MESSAGE, ``encode_batch`` / ``decode_batch``) is a run of short entries:
``int TOTALSIZE, int MAGICCODE (0), int BODYCRC (0), int FLAG, int body length, body,
short properties length, properties``.

Decoders raise :class:`ProtocolError` for every malformed input and never read or allocate past the
record's own bytes (zlib inflation is bounded separately by ``max_inflated_size``).
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Final

from mqadmin.protocol.errors import ProtocolError
from mqadmin.protocol.message import (
    BLANK_MAGIC_CODE,
    MESSAGE_MAGIC_CODE,
    MESSAGE_MAGIC_CODE_V2,
    PROPERTY_SEPARATOR,
    CompressionType,
    Message,
    MessageConst,
    MessageSysFlag,
    parse_int_property,
    properties_to_string,
    string_to_properties,
)
from mqadmin.protocol.msgid import create_offset_msg_id, host_to_bytes, java_host_address

__all__ = [
    "DEFAULT_MAX_INFLATED_SIZE",
    "MessageExt",
    "body_crc32",
    "compress_body",
    "decode_batch",
    "decode_message",
    "decode_messages",
    "decode_properties",
    "decompress_body",
    "encode_batch",
    "encode_message",
]

#: Upper bound for an inflated body; Java has none, but a decoder fed by the network needs one.
DEFAULT_MAX_INFLATED_SIZE: Final = 64 * 1024 * 1024

_SHORT_MAX = 0x7FFF
_INT_MAX = 0x7FFFFFFF


def decode_properties(data: bytes | bytearray | memoryview) -> dict[str, str]:
    """Properties from their UTF-8 bytes; invalid UTF-8 is a ProtocolError (Java would substitute)."""
    return string_to_properties(_utf8(data, "properties"))


# --- compression ----------------------------------------------------------------------------------


def _zstd_module():  # pragma: no cover - only on Python 3.14+
    try:
        from compression import zstd  # type: ignore[import-not-found]
    except ImportError:
        return None
    return zstd


def compress_body(body: bytes, sys_flag: int, level: int = 5) -> bytes:
    """Compress a body with the algorithm named by the sys flag's type bits (Java uses level 5)."""
    kind = MessageSysFlag.get_compression_type(sys_flag)
    if kind is CompressionType.ZLIB:
        return zlib.compress(body, level)
    if kind is CompressionType.ZSTD and (zstd := _zstd_module()) is not None:  # pragma: no cover
        return zstd.compress(body, level)
    raise ProtocolError(f"unsupported compression {kind.name}: the Python standard library cannot write it")


def decompress_body(data: bytes, sys_flag: int, *, max_size: int = DEFAULT_MAX_INFLATED_SIZE) -> bytes:
    """Inflate a stored body; refuses output beyond ``max_size`` so a small record cannot explode."""
    kind = MessageSysFlag.get_compression_type(sys_flag)
    if kind is CompressionType.ZLIB:
        inflater = zlib.decompressobj()
        try:
            out = inflater.decompress(data, max_size + 1)
        except zlib.error as exc:
            raise ProtocolError(f"corrupt zlib body: {exc}") from exc
        if len(out) > max_size:
            raise ProtocolError(f"inflated body exceeds {max_size} bytes")
        if not inflater.eof:
            raise ProtocolError("truncated zlib body")
        return out
    if kind is CompressionType.ZSTD and (zstd := _zstd_module()) is not None:  # pragma: no cover
        try:
            out = zstd.ZstdDecompressor().decompress(data, max_length=max_size + 1)
        except zstd.ZstdError as exc:
            raise ProtocolError(f"corrupt zstd body: {exc}") from exc
        if len(out) > max_size:
            raise ProtocolError(f"inflated body exceeds {max_size} bytes")
        return out
    raise ProtocolError(f"unsupported compression {kind.name}: the Python standard library cannot read it")


def body_crc32(body: bytes) -> int:
    """The BODYCRC value a broker stores: ``UtilAll.crc32`` keeps the low 31 bits."""
    return zlib.crc32(body) & 0x7FFFFFFF


@dataclass(slots=True)
class MessageExt(Message):
    """A stored message: every commit-log field plus what the decoder derives.

    ``sys_flag`` follows Java's decoder: when the body was inflated the COMPRESSED bit is cleared and
    the bytes as stored are kept in ``raw_body``, so :func:`encode_message` can write the record back
    byte for byte. Hosts are textual (Java's ``getHostAddress`` form); which width they take on the
    wire is decided by the V6 bits of ``sys_flag``.

    Equality leaves out ``transaction_id``, ``broker_name`` (set by the client after a pull, 5.x;
    never part of a record), ``raw_body`` and what the decoder keeps for re-encoding; the repr leaves
    out the last two.
    """

    queue_id: int = 0
    store_size: int = 0
    queue_offset: int = 0
    sys_flag: int = 0
    born_timestamp: int = 0
    born_host: str = "0.0.0.0"
    born_port: int = 0
    store_timestamp: int = 0
    store_host: str = "0.0.0.0"
    store_port: int = 0
    commit_log_offset: int = 0
    body_crc: int = 0
    reconsume_times: int = 0
    prepared_transaction_offset: int = 0
    magic_code: int = MESSAGE_MAGIC_CODE
    broker_name: str | None = field(default=None, compare=False)
    raw_body: bytes | None = field(default=None, compare=False, repr=False)
    """The stored (compressed) body when ``body`` holds its inflated form, else None."""
    _inflated_body: bytes | None = field(default=None, init=False, compare=False, repr=False)
    _raw_properties: bytes | None = field(default=None, init=False, compare=False, repr=False)
    _raw_properties_map: dict[str, str] | None = field(default=None, init=False, compare=False, repr=False)
    _body_skipped: bool = field(default=False, init=False, compare=False, repr=False)

    @property
    def msg_id(self) -> str:
        """The offset message id, as Java's decoder sets ``msgId`` (store address + commit offset).

        A V6-flagged store host that is an IPv4-mapped address comes out as Java computes it: the
        IPv4 id followed by 24 zero digits (Java hex-dumps its whole 28-byte scratch buffer).
        """
        msg_id = create_offset_msg_id(self.store_host, self.store_port, self.commit_log_offset)
        if len(msg_id) == 32 and self.sys_flag & MessageSysFlag.STOREHOSTADDRESS_V6_FLAG:
            msg_id += "0" * 24
        return msg_id

    @property
    def offset_msg_id(self) -> str:
        return self.msg_id

    @property
    def client_msg_id(self) -> str:
        """What a Java consumer's ``getMsgId()`` returns: the unique key if any, else the offset id."""
        return self.unique_key or self.msg_id

    @property
    def born_address(self) -> str:
        return f"{self.born_host}:{self.born_port}"

    @property
    def store_address(self) -> str:
        return f"{self.store_host}:{self.store_port}"

    @property
    def topic_sys_flag(self) -> int | None:
        value = self.properties.get(MessageConst.PROPERTY_TRANSIENT_TOPIC_CONFIG)
        return parse_int_property(value, "topic sys flag") if value else None

    @property
    def group_sys_flag(self) -> int | None:
        value = self.properties.get(MessageConst.PROPERTY_TRANSIENT_GROUP_CONFIG)
        return parse_int_property(value, "group sys flag") if value else None

    def stored_body(self) -> tuple[bytes, int]:
        """The body bytes and sys flag a record of this message holds.

        An inflated body that was not replaced goes back as its original compressed bytes; a replaced
        one is compressed again with the type in ``sys_flag`` (as Java's ``encode(msg, true)``).
        """
        if self._body_skipped:
            raise ProtocolError("cannot encode a message decoded with read_body=False")
        if self.raw_body is None:
            return self.body, self.sys_flag
        flag = self.sys_flag | MessageSysFlag.COMPRESSED_FLAG
        if self.body is self._inflated_body or self.body == self._inflated_body:
            return self.raw_body, flag
        return compress_body(self.body, flag), flag


# --- record codec ---------------------------------------------------------------------------------

# size, magic, body crc, queue id, flag, queue offset, commit-log offset, sys flag, born timestamp
_HEAD = struct.Struct(">iiiiiqqiq")
_PORT = struct.Struct(">i")
_LONG = struct.Struct(">q")
_INT = struct.Struct(">i")
_SHORT = struct.Struct(">h")
_BYTE = struct.Struct(">b")
_TAIL_FIXED = struct.Struct(">iq")  # reconsume times, prepared transaction offset
_MIN_RECORD = _HEAD.size + 8 + 8 + 8 + _TAIL_FIXED.size + 4 + 1 + 2

_MAGIC_NAMES = {MESSAGE_MAGIC_CODE: "v1", MESSAGE_MAGIC_CODE_V2: "v2"}


class _Cursor:
    """Bounded reader: every read past ``end`` becomes a ProtocolError naming the field."""

    __slots__ = ("buf", "end", "pos")

    def __init__(self, buf: memoryview, pos: int, end: int) -> None:
        self.buf = buf
        self.pos = pos
        self.end = end

    def need(self, n: int, what: str) -> None:
        if n < 0:
            raise ProtocolError(f"negative {what} length {n} at offset {self.pos}")
        if self.pos + n > self.end:
            raise ProtocolError(
                f"truncated message: {what} needs {n} bytes at offset {self.pos}, "
                f"only {self.end - self.pos} left"
            )

    def take(self, n: int, what: str) -> bytes:
        self.need(n, what)
        data = bytes(self.buf[self.pos : self.pos + n])
        self.pos += n
        return data

    def unpack(self, st: struct.Struct, what: str) -> tuple:
        self.need(st.size, what)
        values = st.unpack_from(self.buf, self.pos)
        self.pos += st.size
        return values


def _utf8(data: bytes | bytearray | memoryview, what: str) -> str:
    try:
        return bytes(data).decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ProtocolError(f"{what} is not valid UTF-8: {exc}") from None


def _as_view(buf: bytes | bytearray | memoryview) -> memoryview:
    if not isinstance(buf, bytes | bytearray | memoryview):
        raise ProtocolError(f"expected bytes, got {type(buf).__name__}")
    view = memoryview(buf)
    if view.ndim != 1 or view.itemsize != 1:
        view = view.cast("B")
    return view


def decode_message(
    buf: bytes | bytearray | memoryview,
    offset: int = 0,
    *,
    read_body: bool = True,
    decompress: bool = True,
    max_inflated_size: int = DEFAULT_MAX_INFLATED_SIZE,
) -> tuple[MessageExt, int]:
    """Decode the record at ``offset``; returns it and the offset just past it.

    Stricter than Java's decoder, which returns null (and the pull consumer silently drops the rest)
    on any failure: here a bad magic, a negative length, a record size that disagrees with its
    fields (the store's own consistency check) or invalid UTF-8 raise ProtocolError.
    """
    view = _as_view(buf)
    if offset < 0 or offset > len(view):
        raise ProtocolError(f"offset {offset} outside a buffer of {len(view)} bytes")
    if len(view) - offset < 4:
        raise ProtocolError(f"truncated message: {len(view) - offset} bytes where a record size was expected")
    (store_size,) = _INT.unpack_from(view, offset)
    if len(view) - offset >= 8:
        (magic,) = _INT.unpack_from(view, offset + 4)
        if magic == BLANK_MAGIC_CODE:
            raise ProtocolError(f"blank record (end-of-file filler, magic 0xCBD43194) at offset {offset}")
        if magic not in _MAGIC_NAMES:
            raise ProtocolError(f"bad magic code 0x{magic & 0xFFFFFFFF:08X} at offset {offset}")
    if store_size < _MIN_RECORD:
        raise ProtocolError(f"record size {store_size} at offset {offset} is below the minimum {_MIN_RECORD}")
    if store_size > len(view) - offset:
        raise ProtocolError(
            f"truncated message: record at offset {offset} claims {store_size} bytes, "
            f"only {len(view) - offset} present"
        )
    cur = _Cursor(view, offset, offset + store_size)
    (_, magic, body_crc, queue_id, flag, queue_offset, commit_log_offset, sys_flag, born_ts) = cur.unpack(
        _HEAD, "header"
    )
    born_len = 16 if sys_flag & MessageSysFlag.BORNHOST_V6_FLAG else 4
    born_ip = cur.take(born_len, "born host")
    (born_port,) = cur.unpack(_PORT, "born port")
    (store_ts,) = cur.unpack(_LONG, "store timestamp")
    store_len = 16 if sys_flag & MessageSysFlag.STOREHOSTADDRESS_V6_FLAG else 4
    store_ip = cur.take(store_len, "store host")
    (store_port,) = cur.unpack(_PORT, "store port")
    reconsume_times, prepared_offset = cur.unpack(_TAIL_FIXED, "reconsume times")

    (body_len,) = cur.unpack(_INT, "body length")
    body = b""
    raw_body: bytes | None = None
    skipped = False
    if read_body:
        body = cur.take(body_len, "body")
        if body_len > 0 and decompress and sys_flag & MessageSysFlag.COMPRESSED_FLAG:
            raw_body = body
            body = decompress_body(raw_body, sys_flag, max_size=max_inflated_size)
            sys_flag &= ~MessageSysFlag.COMPRESSED_FLAG
    else:
        cur.need(body_len, "body")
        cur.pos += body_len
        skipped = body_len > 0

    (topic_len,) = cur.unpack(_BYTE if magic == MESSAGE_MAGIC_CODE else _SHORT, "topic length")
    topic = _utf8(cur.take(topic_len, "topic"), "topic")
    (props_len,) = cur.unpack(_SHORT, "properties length")
    raw_props = cur.take(props_len, "properties")
    if cur.pos != cur.end:
        raise ProtocolError(
            f"record at offset {offset} declares {store_size} bytes "
            f"but its fields end after {cur.pos - offset}"
        )
    properties = decode_properties(raw_props)

    msg = MessageExt(
        topic=topic,
        flag=flag,
        properties=properties,
        body=body,
        queue_id=queue_id,
        store_size=store_size,
        queue_offset=queue_offset,
        sys_flag=sys_flag,
        born_timestamp=born_ts,
        born_host=java_host_address(born_ip),
        born_port=born_port,
        store_timestamp=store_ts,
        store_host=java_host_address(store_ip),
        store_port=store_port,
        commit_log_offset=commit_log_offset,
        body_crc=body_crc,
        reconsume_times=reconsume_times,
        prepared_transaction_offset=prepared_offset,
        magic_code=magic,
        raw_body=raw_body,
    )
    msg._inflated_body = body if raw_body is not None else None
    msg._raw_properties = raw_props
    msg._raw_properties_map = dict(properties)
    msg._body_skipped = skipped
    return msg, cur.end


def decode_messages(
    buf: bytes | bytearray | memoryview,
    *,
    read_body: bool = True,
    decompress: bool = True,
    max_inflated_size: int = DEFAULT_MAX_INFLATED_SIZE,
) -> list[MessageExt]:
    """Every record of a buffer holding them back to back (PULL_MESSAGE / QUERY_MESSAGE bodies)."""
    view = _as_view(buf)
    messages: list[MessageExt] = []
    pos = 0
    while pos < len(view):
        msg, pos = decode_message(
            view, pos, read_body=read_body, decompress=decompress, max_inflated_size=max_inflated_size
        )
        messages.append(msg)
    return messages


def _encode_text(text: str, what: str) -> bytes:
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise ProtocolError(f"{what} cannot be encoded as UTF-8: {exc}") from None


def _properties_bytes(msg: Message, trailing_separator: bool) -> bytes:
    raw = getattr(msg, "_raw_properties", None)
    if raw is not None:
        if msg.properties == msg._raw_properties_map:  # type: ignore[attr-defined]
            return raw
        if raw:  # keep the style of the record it came from
            trailing_separator = raw.endswith(PROPERTY_SEPARATOR.encode())
    text = properties_to_string(msg.properties, trailing_separator=trailing_separator)
    data = _encode_text(text, "properties")
    if len(data) > _SHORT_MAX:
        raise ProtocolError(f"properties take {len(data)} bytes, more than the {_SHORT_MAX} a record allows")
    return data


def _pack(st: struct.Struct, what: str, *values: int) -> bytes:
    try:
        return st.pack(*values)
    except struct.error as exc:
        raise ProtocolError(f"{what} out of range: {values}") from exc


def encode_message(msg: MessageExt, *, trailing_separator: bool = True) -> bytes:
    """The commit-log record of ``msg`` (the inverse of :func:`decode_message`).

    TOTALSIZE is always computed from the content (``store_size`` is ignored). Properties decoded
    from a record and left unchanged are written back as their original bytes; otherwise they are
    serialised in dict order, ending with a separator as 5.x does unless ``trailing_separator`` is
    false (4.x). Fields are written as given: after changing the body, update ``body_crc`` yourself
    (:func:`body_crc32`).
    """
    magic = msg.magic_code
    if magic not in _MAGIC_NAMES:
        raise ProtocolError(f"bad magic code 0x{magic & 0xFFFFFFFF:08X}")
    topic = _encode_text(msg.topic, "topic")
    if magic == MESSAGE_MAGIC_CODE and len(topic) > 127:
        raise ProtocolError(
            f"topic of {len(topic)} bytes needs MESSAGE_MAGIC_CODE_V2 (see magic_code_for_topic)"
        )
    if len(topic) > _SHORT_MAX:
        raise ProtocolError(f"topic of {len(topic)} bytes is too long")
    body, sys_flag = msg.stored_body()
    if len(body) > _INT_MAX:
        raise ProtocolError("body too large")
    props = _properties_bytes(msg, trailing_separator)
    born_ip = host_to_bytes(msg.born_host, v6=bool(sys_flag & MessageSysFlag.BORNHOST_V6_FLAG))
    store_ip = host_to_bytes(msg.store_host, v6=bool(sys_flag & MessageSysFlag.STOREHOSTADDRESS_V6_FLAG))
    topic_len = _pack(_BYTE if magic == MESSAGE_MAGIC_CODE else _SHORT, "topic length", len(topic))
    size = (
        _HEAD.size + len(born_ip) + 4 + 8 + len(store_ip) + 4 + _TAIL_FIXED.size
        + 4 + len(body) + len(topic_len) + len(topic) + 2 + len(props)
    )  # fmt: skip
    if size > _INT_MAX:
        raise ProtocolError("record too large")
    return b"".join(
        (
            _pack(
                _HEAD, "record header", size, magic, msg.body_crc, msg.queue_id, msg.flag, msg.queue_offset,
                msg.commit_log_offset, sys_flag, msg.born_timestamp,
            ),
            born_ip,
            _pack(_PORT, "born port", msg.born_port),
            _pack(_LONG, "store timestamp", msg.store_timestamp),
            store_ip,
            _pack(_PORT, "store port", msg.store_port),
            _pack(_TAIL_FIXED, "reconsume times / prepared offset", msg.reconsume_times,
                  msg.prepared_transaction_offset),
            _INT.pack(len(body)),
            body,
            topic_len,
            topic,
            _SHORT.pack(len(props)),
            props,
        )
    )  # fmt: skip


# --- batch bodies ---------------------------------------------------------------------------------

_BATCH_HEAD = struct.Struct(">iiiii")  # size, magic (0), body crc (0), flag, body length
_MIN_BATCH_ENTRY = _BATCH_HEAD.size + 2


def encode_batch(messages: Iterable[Message], *, trailing_separator: bool = True) -> bytes:
    """A SEND_BATCH_MESSAGE body, as ``MessageDecoder.encodeMessages`` builds it.

    Topic and queue travel in the request header, so entries hold only flag, body and properties.
    ``trailing_separator=False`` gives what a 4.x client sends.
    """
    parts: list[bytes] = []
    for msg in messages:
        text = properties_to_string(msg.properties, trailing_separator=trailing_separator)
        props = _encode_text(text, "properties")
        if len(props) > _SHORT_MAX:
            raise ProtocolError(f"properties take {len(props)} bytes, more than the {_SHORT_MAX} allowed")
        size = _BATCH_HEAD.size + len(msg.body) + 2 + len(props)
        if size > _INT_MAX:
            raise ProtocolError("batch entry too large")
        parts.append(_pack(_BATCH_HEAD, "batch entry", size, 0, 0, msg.flag, len(msg.body)))
        parts.append(msg.body)
        parts.append(_SHORT.pack(len(props)))
        parts.append(props)
    return b"".join(parts)


def decode_batch(body: bytes | bytearray | memoryview) -> list[Message]:
    """The messages of a SEND_BATCH_MESSAGE body (or of a 5.x inner-batch record's body).

    Like the broker, magic and CRC are ignored; unlike it, an entry whose TOTALSIZE disagrees with
    its fields is refused rather than read out of step.
    """
    view = _as_view(body)
    result: list[Message] = []
    pos = 0
    while pos < len(view):
        cur = _Cursor(view, pos, len(view))
        size, _magic, _crc, flag, body_len = cur.unpack(_BATCH_HEAD, "batch entry header")
        if size < _MIN_BATCH_ENTRY or size > len(view) - pos:
            raise ProtocolError(f"batch entry at offset {pos} has an impossible size {size}")
        cur.end = pos + size
        data = cur.take(body_len, "batch entry body")
        (props_len,) = cur.unpack(_SHORT, "batch entry properties length")
        props = decode_properties(cur.take(props_len, "batch entry properties"))
        if cur.pos != cur.end:
            raise ProtocolError(
                f"batch entry at offset {pos} declares {size} bytes but holds {cur.pos - pos}"
            )
        result.append(Message(flag=flag, properties=props, body=data))
        pos = cur.end
    return result
