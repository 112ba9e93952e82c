"""RocketMQ messages as a producer builds them: :class:`Message` and its properties
(``MessageDecoder.messageProperties2String`` / ``string2messageProperties``), the property names of
``MessageConst``, the record's sys-flag bits and magic codes.

A stored message (``MessageExt``) and the byte layouts, the commit-log record that pulls and queries
return and the batch body a producer sends, are :mod:`mqadmin.protocol.message_record`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import IntEnum
from typing import Final

from mqadmin.protocol.errors import ProtocolError

__all__ = [
    "BLANK_MAGIC_CODE",
    "MESSAGE_MAGIC_CODE",
    "MESSAGE_MAGIC_CODE_V2",
    "NAME_VALUE_SEPARATOR",
    "PROPERTY_SEPARATOR",
    "CompressionType",
    "Message",
    "MessageConst",
    "MessageSysFlag",
    "magic_code_for_topic",
    "parse_int_property",
    "properties_to_string",
    "string_to_properties",
]

# --- constants ------------------------------------------------------------------------------------

MESSAGE_MAGIC_CODE: Final = -626843481  # 0xDAA320A7, topic length in 1 (signed) byte
MESSAGE_MAGIC_CODE_V2: Final = -626843477  # 0xDAA320AB (5.x), topic length in 2 bytes
BLANK_MAGIC_CODE: Final = -875286124  # 0xCBD43194, filler at the end of a commit-log file

NAME_VALUE_SEPARATOR: Final = "\x01"
PROPERTY_SEPARATOR: Final = "\x02"


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


# --- message types --------------------------------------------------------------------------------


def parse_int_property(value: str, name: str) -> int:
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
        return 0 if value is None else parse_int_property(value, MessageConst.PROPERTY_DELAY_TIME_LEVEL)

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
        return 0 if value is None else parse_int_property(value, MessageConst.PROPERTY_TIMER_DELAY_SEC)

    @property
    def delay_time_ms(self) -> int:
        value = self.properties.get(MessageConst.PROPERTY_TIMER_DELAY_MS)
        return 0 if value is None else parse_int_property(value, MessageConst.PROPERTY_TIMER_DELAY_MS)

    @property
    def deliver_time_ms(self) -> int:
        value = self.properties.get(MessageConst.PROPERTY_TIMER_DELIVER_MS)
        return 0 if value is None else parse_int_property(value, MessageConst.PROPERTY_TIMER_DELIVER_MS)

    def _set_or_clear(self, name: str, value: str | None) -> None:
        if value is None:
            self.properties.pop(name, None)
        else:
            self.properties[name] = value
