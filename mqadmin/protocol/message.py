"""Sans-IO codec for RocketMQ messages: commit-log records, pull bodies and batch bodies.

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
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import IntEnum
from typing import Final

from mqadmin.protocol.errors import ProtocolError
from mqadmin.protocol.msgid import create_offset_msg_id, host_to_bytes, java_host_address

__all__ = [
    "BLANK_MAGIC_CODE",
    "DEFAULT_MAX_INFLATED_SIZE",
    "MESSAGE_MAGIC_CODE",
    "MESSAGE_MAGIC_CODE_V2",
    "NAME_VALUE_SEPARATOR",
    "PROPERTY_SEPARATOR",
    "CompressionType",
    "Message",
    "MessageConst",
    "MessageExt",
    "MessageSysFlag",
    "body_crc32",
    "compress_body",
    "decode_batch",
    "decode_message",
    "decode_messages",
    "decode_properties",
    "decompress_body",
    "encode_batch",
    "encode_message",
    "magic_code_for_topic",
    "properties_to_string",
    "string_to_properties",
]

# --- constants ------------------------------------------------------------------------------------

MESSAGE_MAGIC_CODE: Final = -626843481  # 0xDAA320A7, topic length in 1 (signed) byte
MESSAGE_MAGIC_CODE_V2: Final = -626843477  # 0xDAA320AB (5.x), topic length in 2 bytes
BLANK_MAGIC_CODE: Final = -875286124  # 0xCBD43194, filler at the end of a commit-log file

NAME_VALUE_SEPARATOR: Final = "\x01"
PROPERTY_SEPARATOR: Final = "\x02"

#: Upper bound for an inflated body; Java has none, but a decoder fed by the network needs one.
DEFAULT_MAX_INFLATED_SIZE: Final = 64 * 1024 * 1024

_SHORT_MAX = 0x7FFF
_INT_MAX = 0x7FFFFFFF


class MessageConst:
    """Property names, with the identifiers of Java's ``MessageConst`` (4.9.8 and 5.3.3)."""

    PROPERTY_KEYS = "KEYS"
    PROPERTY_TAGS = "TAGS"
    PROPERTY_WAIT_STORE_MSG_OK = "WAIT"
    PROPERTY_DELAY_TIME_LEVEL = "DELAY"
    PROPERTY_RETRY_TOPIC = "RETRY_TOPIC"
    PROPERTY_REAL_TOPIC = "REAL_TOPIC"
    PROPERTY_REAL_QUEUE_ID = "REAL_QID"
    PROPERTY_TRANSACTION_PREPARED = "TRAN_MSG"
    PROPERTY_PRODUCER_GROUP = "PGROUP"
    PROPERTY_MIN_OFFSET = "MIN_OFFSET"
    PROPERTY_MAX_OFFSET = "MAX_OFFSET"
    PROPERTY_BUYER_ID = "BUYER_ID"
    PROPERTY_ORIGIN_MESSAGE_ID = "ORIGIN_MESSAGE_ID"
    PROPERTY_TRANSFER_FLAG = "TRANSFER_FLAG"
    PROPERTY_CORRECTION_FLAG = "CORRECTION_FLAG"
    PROPERTY_MQ2_FLAG = "MQ2_FLAG"
    PROPERTY_RECONSUME_TIME = "RECONSUME_TIME"
    PROPERTY_MSG_REGION = "MSG_REGION"
    PROPERTY_TRACE_SWITCH = "TRACE_ON"
    PROPERTY_UNIQ_CLIENT_MESSAGE_ID_KEYIDX = "UNIQ_KEY"
    PROPERTY_EXTEND_UNIQ_INFO = "EXTEND_UNIQ_INFO"  # 5.x
    PROPERTY_MAX_RECONSUME_TIMES = "MAX_RECONSUME_TIMES"
    PROPERTY_CONSUME_START_TIMESTAMP = "CONSUME_START_TIME"
    PROPERTY_INNER_NUM = "INNER_NUM"  # 5.x
    PROPERTY_INNER_BASE = "INNER_BASE"  # 5.x
    DUP_INFO = "DUP_INFO"  # 5.x
    PROPERTY_CHECK_IMMUNITY_TIME_IN_SECONDS = "CHECK_IMMUNITY_TIME_IN_SECONDS"
    PROPERTY_TRANSACTION_PREPARED_QUEUE_OFFSET = "TRAN_PREPARED_QUEUE_OFFSET"
    PROPERTY_TRANSACTION_ID = "__transactionId__"  # 5.x
    PROPERTY_TRANSACTION_CHECK_TIMES = "TRANSACTION_CHECK_TIMES"
    PROPERTY_INSTANCE_ID = "INSTANCE_ID"
    PROPERTY_CORRELATION_ID = "CORRELATION_ID"
    PROPERTY_MESSAGE_REPLY_TO_CLIENT = "REPLY_TO_CLIENT"
    PROPERTY_MESSAGE_TTL = "TTL"
    PROPERTY_REPLY_MESSAGE_ARRIVE_TIME = "ARRIVE_TIME"
    PROPERTY_PUSH_REPLY_TIME = "PUSH_REPLY_TIME"
    PROPERTY_CLUSTER = "CLUSTER"
    PROPERTY_MESSAGE_TYPE = "MSG_TYPE"
    PROPERTY_POP_CK = "POP_CK"  # 5.x from here on
    PROPERTY_POP_CK_OFFSET = "POP_CK_OFFSET"
    PROPERTY_FIRST_POP_TIME = "1ST_POP_TIME"
    PROPERTY_SHARDING_KEY = "__SHARDINGKEY"
    PROPERTY_FORWARD_QUEUE_ID = "PROPERTY_FORWARD_QUEUE_ID"
    PROPERTY_REDIRECT = "REDIRECT"
    PROPERTY_INNER_MULTI_DISPATCH = "INNER_MULTI_DISPATCH"
    PROPERTY_INNER_MULTI_QUEUE_OFFSET = "INNER_MULTI_QUEUE_OFFSET"
    PROPERTY_TRACE_CONTEXT = "TRACE_CONTEXT"
    PROPERTY_TIMER_DELAY_SEC = "TIMER_DELAY_SEC"
    PROPERTY_TIMER_DELIVER_MS = "TIMER_DELIVER_MS"
    PROPERTY_BORN_HOST = "__BORNHOST"
    PROPERTY_BORN_TIMESTAMP = "BORN_TIMESTAMP"
    PROPERTY_TRANSIENT_PREFIX = "__RMQ.TRANSIENT."
    PROPERTY_TRANSIENT_TOPIC_CONFIG = "__RMQ.TRANSIENT.TOPIC_SYS_FLAG"
    PROPERTY_TRANSIENT_GROUP_CONFIG = "__RMQ.TRANSIENT.GROUP_SYS_FLAG"
    PROPERTY_TIMER_ENQUEUE_MS = "TIMER_ENQUEUE_MS"
    PROPERTY_TIMER_DEQUEUE_MS = "TIMER_DEQUEUE_MS"
    PROPERTY_TIMER_ROLL_TIMES = "TIMER_ROLL_TIMES"
    PROPERTY_TIMER_OUT_MS = "TIMER_OUT_MS"
    PROPERTY_TIMER_DEL_UNIQKEY = "TIMER_DEL_UNIQKEY"
    PROPERTY_TIMER_DELAY_LEVEL = "TIMER_DELAY_LEVEL"
    PROPERTY_TIMER_DELAY_MS = "TIMER_DELAY_MS"
    PROPERTY_CRC32 = "__CRC32#"
    PROPERTY_DLQ_ORIGIN_TOPIC = "DLQ_ORIGIN_TOPIC"
    PROPERTY_DLQ_ORIGIN_MESSAGE_ID = "DLQ_ORIGIN_MESSAGE_ID"

    KEY_SEPARATOR = " "

    #: Names ``Message.putUserProperty`` refuses (Java's ``STRING_HASH_SET``, 5.3.3).
    STRING_HASH_SET: frozenset[str] = frozenset(
        {
            "TRACE_ON", "MSG_REGION", "KEYS", "TAGS", "WAIT", "DELAY", "RETRY_TOPIC", "REAL_TOPIC",
            "REAL_QID", "TRAN_MSG", "PGROUP", "MIN_OFFSET", "MAX_OFFSET", "BUYER_ID",
            "ORIGIN_MESSAGE_ID", "TRANSFER_FLAG", "CORRECTION_FLAG", "MQ2_FLAG", "RECONSUME_TIME",
            "UNIQ_KEY", "MAX_RECONSUME_TIMES", "CONSUME_START_TIME", "POP_CK", "POP_CK_OFFSET",
            "1ST_POP_TIME", "TRAN_PREPARED_QUEUE_OFFSET", "DUP_INFO", "EXTEND_UNIQ_INFO",
            "INSTANCE_ID", "CORRELATION_ID", "REPLY_TO_CLIENT", "TTL", "ARRIVE_TIME",
            "PUSH_REPLY_TIME", "CLUSTER", "MSG_TYPE", "INNER_MULTI_QUEUE_OFFSET", "TIMER_DELAY_MS",
            "TIMER_DELAY_SEC", "TIMER_DELIVER_MS", "TIMER_ENQUEUE_MS", "TIMER_DEQUEUE_MS",
            "TIMER_ROLL_TIMES", "TIMER_OUT_MS", "TIMER_DEL_UNIQKEY", "TIMER_DELAY_LEVEL",
            "__BORNHOST", "BORN_TIMESTAMP", "DLQ_ORIGIN_TOPIC", "DLQ_ORIGIN_MESSAGE_ID", "__CRC32#",
        }
    )  # fmt: skip


class CompressionType(IntEnum):
    """Body compression of 5.x, kept in sys-flag bits 8-10 (4.x always meant zlib)."""

    LZ4 = 1
    ZSTD = 2
    ZLIB = 3

    @classmethod
    def find_by_value(cls, value: int) -> CompressionType:
        """Like Java: 0 is zlib, for records written before the type bits existed."""
        if value == 0:
            return cls.ZLIB
        try:
            return cls(value)
        except ValueError:
            raise ProtocolError(f"unknown compression type value {value}") from None

    @property
    def compression_flag(self) -> int:
        return self.value << 8


class MessageSysFlag:
    """Bits of the record's SYSFLAG field (``org.apache.rocketmq.common.sysflag.MessageSysFlag``)."""

    COMPRESSED_FLAG = 0x1
    MULTI_TAGS_FLAG = 0x1 << 1
    TRANSACTION_NOT_TYPE = 0
    TRANSACTION_PREPARED_TYPE = 0x1 << 2
    TRANSACTION_COMMIT_TYPE = 0x2 << 2
    TRANSACTION_ROLLBACK_TYPE = 0x3 << 2
    BORNHOST_V6_FLAG = 0x1 << 4
    STOREHOSTADDRESS_V6_FLAG = 0x1 << 5
    NEED_UNWRAP_FLAG = 0x1 << 6  # 5.x
    INNER_BATCH_FLAG = 0x1 << 7  # 5.x
    COMPRESSION_LZ4_TYPE = 0x1 << 8  # 5.x
    COMPRESSION_ZSTD_TYPE = 0x2 << 8
    COMPRESSION_ZLIB_TYPE = 0x3 << 8
    COMPRESSION_TYPE_COMPARATOR = 0x7 << 8

    @staticmethod
    def get_transaction_value(flag: int) -> int:
        return flag & MessageSysFlag.TRANSACTION_ROLLBACK_TYPE

    @staticmethod
    def reset_transaction_value(flag: int, type_: int) -> int:
        return (flag & ~MessageSysFlag.TRANSACTION_ROLLBACK_TYPE) | type_

    @staticmethod
    def clear_compressed_flag(flag: int) -> int:
        return flag & ~MessageSysFlag.COMPRESSED_FLAG

    @staticmethod
    def get_compression_type(flag: int) -> CompressionType:
        return CompressionType.find_by_value((flag & MessageSysFlag.COMPRESSION_TYPE_COMPARATOR) >> 8)

    @staticmethod
    def check(flag: int, expected: int) -> bool:
        return (flag & expected) != 0


def magic_code_for_topic(topic: str) -> int:
    """The magic a 5.x store picks: v2 only when the topic does not fit a signed byte."""
    return MESSAGE_MAGIC_CODE_V2 if len(topic.encode("utf-8", "surrogatepass")) > 127 else MESSAGE_MAGIC_CODE


# --- properties -----------------------------------------------------------------------------------


def properties_to_string(
    properties: Mapping[str, str | None] | None, *, trailing_separator: bool = True
) -> str:
    """Join properties as ``MessageDecoder.messageProperties2String`` does.

    Entries with a ``None`` value are skipped; nothing is escaped. 5.x ends every entry with the
    property separator (``trailing_separator=True``); 4.x drops the last one. Order is the mapping's
    own (Java emits ``HashMap`` order; see :func:`mqadmin.protocol.javacoll.java_hash_order`).
    """
    if not properties:
        return ""
    text = "".join(
        f"{name}{NAME_VALUE_SEPARATOR}{value}{PROPERTY_SEPARATOR}"
        for name, value in properties.items()
        if value is not None
    )
    if not trailing_separator and text:
        text = text[:-1]
    return text


def string_to_properties(text: str | None) -> dict[str, str]:
    """Parse properties exactly like ``MessageDecoder.string2messageProperties``.

    Entries are split at PROPERTY_SEPARATOR; an entry is kept only when its first NAME_VALUE_SEPARATOR
    leaves a non-empty name and a non-empty value (so ``"k\\x01"`` and empty or trailing separators
    are silently dropped). The value may itself contain NAME_VALUE_SEPARATOR. A repeated name keeps
    the last value.
    """
    result: dict[str, str] = {}
    if not text:
        return result
    length = len(text)
    index = 0
    while index < length:
        end = text.find(PROPERTY_SEPARATOR, index)
        if end < 0:
            end = length
        if end - index >= 3:
            kv = text.find(NAME_VALUE_SEPARATOR, index)
            if index < kv < end - 1:
                result[text[index:kv]] = text[kv + 1 : end]
        index = end + 1
    return result


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


# --- message types --------------------------------------------------------------------------------


def _parse_java_int(value: str, name: str) -> int:
    """``Integer.parseInt`` semantics: ASCII digits with an optional sign, nothing else."""
    digits = value[1:] if value[:1] in ("+", "-") else value
    if not (digits.isascii() and digits.isdigit()):
        raise ProtocolError(f"property {name} is not a number: {value!r}")
    return int(value)


@dataclass(slots=True)
class Message:
    """What a producer sends: topic, flag, properties and body (``org.apache.rocketmq...Message``).

    Equal when the fields Java's record holds are equal, so ``transaction_id`` (Java keeps it beside
    the properties; it never travels in a record) is left out of equality but not of the repr.
    """

    topic: str = ""
    flag: int = 0
    properties: dict[str, str] = field(default_factory=dict)
    body: bytes = b""
    transaction_id: str | None = field(default=None, compare=False)

    def get_property(self, name: str) -> str | None:
        return self.properties.get(name)

    def put_property(self, name: str, value: str) -> None:
        self.properties[name] = value

    def clear_property(self, name: str) -> None:
        self.properties.pop(name, None)

    def put_user_property(self, name: str, value: str) -> None:
        """Add an application property; reserved names and blank values are refused as in Java."""
        if name in MessageConst.STRING_HASH_SET:
            raise ValueError(f"The Property<{name}> is used by system, input another please")
        if not name or not name.strip() or not value or not value.strip():
            raise ValueError("The name or value of property can not be null or blank string!")
        self.properties[name] = value

    @property
    def tags(self) -> str | None:
        return self.properties.get(MessageConst.PROPERTY_TAGS)

    @tags.setter
    def tags(self, value: str | None) -> None:
        self._set_or_clear(MessageConst.PROPERTY_TAGS, value)

    @property
    def keys(self) -> str | None:
        """The raw KEYS property: several keys are joined by a single space."""
        return self.properties.get(MessageConst.PROPERTY_KEYS)

    @keys.setter
    def keys(self, value: str | Iterable[str] | None) -> None:
        if value is not None and not isinstance(value, str):
            value = MessageConst.KEY_SEPARATOR.join(value)
        self._set_or_clear(MessageConst.PROPERTY_KEYS, value)

    @property
    def key_list(self) -> list[str]:
        """The individual keys, as the broker's index splits them."""
        return [k for k in (self.keys or "").split(MessageConst.KEY_SEPARATOR) if k]

    @property
    def unique_key(self) -> str | None:
        """The producer-made id (``UNIQ_KEY``); the Java tools print it as the message's MsgId."""
        return self.properties.get(MessageConst.PROPERTY_UNIQ_CLIENT_MESSAGE_ID_KEYIDX)

    @unique_key.setter
    def unique_key(self, value: str | None) -> None:
        self._set_or_clear(MessageConst.PROPERTY_UNIQ_CLIENT_MESSAGE_ID_KEYIDX, value)

    @property
    def delay_time_level(self) -> int:
        value = self.properties.get(MessageConst.PROPERTY_DELAY_TIME_LEVEL)
        return 0 if value is None else _parse_java_int(value, MessageConst.PROPERTY_DELAY_TIME_LEVEL)

    @delay_time_level.setter
    def delay_time_level(self, level: int) -> None:
        self.properties[MessageConst.PROPERTY_DELAY_TIME_LEVEL] = str(int(level))

    @property
    def wait_store_msg_ok(self) -> bool:
        """Absent means true; otherwise Java's ``Boolean.parseBoolean`` (only "true", any case)."""
        value = self.properties.get(MessageConst.PROPERTY_WAIT_STORE_MSG_OK)
        return True if value is None else value.lower() == "true"

    @wait_store_msg_ok.setter
    def wait_store_msg_ok(self, value: bool) -> None:
        self.properties[MessageConst.PROPERTY_WAIT_STORE_MSG_OK] = "true" if value else "false"

    @property
    def buyer_id(self) -> str | None:
        return self.properties.get(MessageConst.PROPERTY_BUYER_ID)

    @property
    def delay_time_sec(self) -> int:
        value = self.properties.get(MessageConst.PROPERTY_TIMER_DELAY_SEC)
        return 0 if value is None else _parse_java_int(value, MessageConst.PROPERTY_TIMER_DELAY_SEC)

    @property
    def delay_time_ms(self) -> int:
        value = self.properties.get(MessageConst.PROPERTY_TIMER_DELAY_MS)
        return 0 if value is None else _parse_java_int(value, MessageConst.PROPERTY_TIMER_DELAY_MS)

    @property
    def deliver_time_ms(self) -> int:
        value = self.properties.get(MessageConst.PROPERTY_TIMER_DELIVER_MS)
        return 0 if value is None else _parse_java_int(value, MessageConst.PROPERTY_TIMER_DELIVER_MS)

    def _set_or_clear(self, name: str, value: str | None) -> None:
        if value is None:
            self.properties.pop(name, None)
        else:
            self.properties[name] = value


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
        return _parse_java_int(value, "topic sys flag") if value else None

    @property
    def group_sys_flag(self) -> int | None:
        value = self.properties.get(MessageConst.PROPERTY_TRANSIENT_GROUP_CONFIG)
        return _parse_java_int(value, "group sys flag") if value else None

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
