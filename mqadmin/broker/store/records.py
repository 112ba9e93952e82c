"""Reading commit-log records in place: validation for recovery and what dispatch needs.

The full decoder (``protocol.message_record.decode_message``) builds a ``MessageExt``; recovery and
re-dispatch only need a handful of fields and a CRC check, so this module reads them with fixed
offsets (the layout is documented in ``protocol/message_record.py``).
"""

from __future__ import annotations

import struct
import zlib
from functools import lru_cache
from typing import NamedTuple

from mqadmin.protocol.errors import ProtocolError
from mqadmin.protocol.javacoll import java_string_hash
from mqadmin.protocol.message import (
    BLANK_MAGIC_CODE,
    MESSAGE_MAGIC_CODE,
    MESSAGE_MAGIC_CODE_V2,
    MessageSysFlag,
)
from mqadmin.protocol.message_record import decode_properties

SCHEDULE_TOPIC = "SCHEDULE_TOPIC_XXXX"
TRANS_OP_HALF_TOPIC = "RMQ_SYS_TRANS_OP_HALF_TOPIC"
LMQ_PREFIX = "%LMQ%"

# size, magic, body crc, queue id, flag, queue offset, commit-log offset, sys flag, born timestamp
HEAD = struct.Struct(">iiiiiqqiq")
SIZE_MAGIC = struct.Struct(">ii")
LONG = struct.Struct(">q")
INT = struct.Struct(">i")
SHORT = struct.Struct(">h")
PHYS_OFFSET_POS = 28  # PHYSICALOFFSET
QUEUE_OFFSET_POS = 20  # QUEUEOFFSET
SYSFLAG_POS = 36
BORN_HOST_POS = 48
MIN_RECORD = 48 + 8 + 8 + 8 + 4 + 8 + 4 + 1 + 2
BLANK_MARKER_SIZE = 8  # END_FILE_MIN_BLANK_LENGTH


@lru_cache(maxsize=4096)
def _tags_hash(tags: str) -> int:
    return java_string_hash(tags)


def tags_code(tags: str | None) -> int:
    """``tagsString2tagsCode``: the TAGS string's Java hash, 0 without tags (tags repeat: cached)."""
    return _tags_hash(tags) if tags else 0


def to_int32(value: int) -> int:
    """Java ``(int)`` narrowing of a long (the pull filter compares ``tagsCode.intValue()``)."""
    return ((value + 0x80000000) & 0xFFFFFFFF) - 0x80000000


def store_timestamp_pos(sys_flag: int) -> int:
    return 56 if not sys_flag & MessageSysFlag.BORNHOST_V6_FLAG else 68


class DispatchInfo(NamedTuple):
    """What consume queues and the index learn about one stored record (``DispatchRequest``)."""

    commit_log_offset: int
    size: int
    topic: str
    queue_id: int
    queue_offset: int
    store_timestamp: int
    sys_flag: int
    tags_code: int
    keys: str | None
    uniq_key: str | None


class Blank(NamedTuple):
    """The end-of-file filler: the rest of the segment holds nothing."""

    size: int


class Invalid(NamedTuple):
    """Where recovery stops: a torn, zeroed or corrupt record."""

    reason: str


def delay_tags_code(
    properties: dict[str, str], store_timestamp: int, delay_levels_ms: list[int]
) -> int | None:
    """A SCHEDULE_TOPIC_XXXX entry's tags code: the delivery time of its delay level."""
    text = properties.get("DELAY")
    if text is None:
        return None
    try:
        level = int(text)
    except ValueError:
        return None
    level = min(level, len(delay_levels_ms))
    if level <= 0:
        return None
    return store_timestamp + delay_levels_ms[level - 1]


def _layout(
    buf: bytes, pos: int, expected_offset: int, check_crc: bool
) -> tuple[int, int, int, int, int, int, int] | Blank | Invalid:
    """The checks both readers share: (size, queue id, queue offset, sys flag, store time, position of
    the topic length, topic length), or why the record at ``buf[pos:]`` is not one."""
    if len(buf) - pos < 8:
        return Invalid("no room for a record header")
    size, magic = SIZE_MAGIC.unpack_from(buf, pos)
    if magic == BLANK_MAGIC_CODE:
        return Blank(size)
    if magic not in (MESSAGE_MAGIC_CODE, MESSAGE_MAGIC_CODE_V2):
        return Invalid(f"bad magic 0x{magic & 0xFFFFFFFF:08X}" if size or magic else "end of data")
    if size < MIN_RECORD or size > len(buf) - pos:
        return Invalid(f"record size {size} does not fit")
    (_, _, crc, queue_id, _flag, queue_offset, phys, sys_flag, _born) = HEAD.unpack_from(buf, pos)
    if phys != expected_offset:
        return Invalid(f"record claims offset {phys}")
    p = pos + BORN_HOST_POS + (20 if sys_flag & MessageSysFlag.BORNHOST_V6_FLAG else 8)
    (store_ts,) = LONG.unpack_from(buf, p)
    p += 8 + (20 if sys_flag & MessageSysFlag.STOREHOSTADDRESS_V6_FLAG else 8) + 12
    end = pos + size
    if p + 4 > end:
        return Invalid("truncated header")
    (body_len,) = INT.unpack_from(buf, p)
    p += 4
    if body_len < 0 or p + body_len > end:
        return Invalid("body length out of range")
    if check_crc and zlib.crc32(memoryview(buf)[p : p + body_len]) & 0x7FFFFFFF != crc:
        return Invalid("body CRC mismatch")
    p += body_len
    if magic == MESSAGE_MAGIC_CODE:
        if p + 1 > end:
            return Invalid("truncated topic")
        topic_len = buf[p]
        p += 1
    else:
        if p + 2 > end:
            return Invalid("truncated topic")
        (topic_len,) = SHORT.unpack_from(buf, p)
        p += 2
    if topic_len < 0 or p + topic_len + 2 > end:
        return Invalid("topic length out of range")
    (props_len,) = SHORT.unpack_from(buf, p + topic_len)
    if props_len < 0 or p + topic_len + 2 + props_len != end:
        return Invalid("record size disagrees with its fields")
    return size, queue_id, queue_offset, sys_flag, store_ts, p, topic_len


def check_record(buf: bytes, pos: int, expected_offset: int, check_crc: bool) -> int | Blank | Invalid:
    """The size of the record at ``buf[pos:]`` if it is sound (its CRC too with ``check_crc``); topic
    and properties are not decoded. For re-checking records that were dispatched before."""
    found = _layout(buf, pos, expected_offset, check_crc)
    return found if isinstance(found, Blank | Invalid) else found[0]


def parse_record(
    buf: bytes, pos: int, expected_offset: int, check_crc: bool, delay_levels_ms: list[int]
) -> DispatchInfo | Blank | Invalid:
    """Check the record at ``buf[pos:]`` (``CommitLog.checkMessageAndReturnSize``).

    ``expected_offset`` is the absolute commit-log offset of ``pos``; a record whose PHYSICALOFFSET
    disagrees is stale data from before a truncation and counts as invalid.
    """
    found = _layout(buf, pos, expected_offset, check_crc)
    if isinstance(found, Blank | Invalid):
        return found
    size, queue_id, queue_offset, sys_flag, store_ts, p, topic_len = found
    try:
        topic = bytes(buf[p : p + topic_len]).decode("utf-8")
    except UnicodeDecodeError:
        return Invalid("topic is not UTF-8")
    p += topic_len + 2
    end = pos + size
    try:
        props = decode_properties(buf[p:end]) if p < end else {}
    except ProtocolError:
        return Invalid("properties are not UTF-8")
    code = tags_code(props.get("TAGS"))
    if topic == SCHEDULE_TOPIC:
        delivery = delay_tags_code(props, store_ts, delay_levels_ms)
        if delivery is not None:
            code = delivery
    return DispatchInfo(
        expected_offset, size, topic, queue_id, queue_offset, store_ts, sys_flag, code, props.get("KEYS"),
        props.get("UNIQ_KEY"),
    )  # fmt: skip
