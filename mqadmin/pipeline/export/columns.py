"""PULL_MESSAGE bodies straight into Arrow columns, without a message object per record.

A pull answer holds commit-log records back to back. The common record (IPv4 hosts, body not
compressed) is read with one ``struct`` call and appended to column lists; any other record (IPv6
hosts, a compressed body) and any record that does not add up goes through the protocol's own
decoder, so the rules (and the ProtocolError on bad input) stay those of
:func:`mqadmin.protocol.message_record.decode_message`. Either way a record is kept only once the
chunk's :class:`~mqadmin.pipeline.export.checks.Cursor` admits it (the one rule of what an answer may
hold), judged after everything that could still send it to the full decoder.
"""

from __future__ import annotations

import socket
import struct
from dataclasses import dataclass, field

import pyarrow as pa

from mqadmin.pipeline.export.checks import Cursor
from mqadmin.pipeline.export.rows import MESSAGE_SCHEMA
from mqadmin.protocol.message import (
    MESSAGE_MAGIC_CODE,
    MESSAGE_MAGIC_CODE_V2,
    NAME_VALUE_SEPARATOR,
    PROPERTY_SEPARATOR,
    MessageConst,
    MessageSysFlag,
)
from mqadmin.protocol.message_record import decode_message

__all__ = ["Columns"]

_FIXED = struct.Struct(">iiiiiqqiq4siq4siiqi")
"""Size, magic, body CRC, queue id, flag, queue offset, commit-log offset, sys flag, born time, born
IPv4 and port, store time, store IPv4 and port, reconsume times, prepared offset, body length."""
_SLOW_FLAGS = (
    MessageSysFlag.BORNHOST_V6_FLAG | MessageSysFlag.STOREHOSTADDRESS_V6_FLAG | MessageSysFlag.COMPRESSED_FLAG
)
_UNIQ = MessageConst.PROPERTY_UNIQ_CLIENT_MESSAGE_ID_KEYIDX
_KEYS = MessageConst.PROPERTY_KEYS
_TAGS = MessageConst.PROPERTY_TAGS
_PULL_ONLY = (MessageConst.PROPERTY_MIN_OFFSET, MessageConst.PROPERTY_MAX_OFFSET)
_TS = pa.timestamp("us", tz="UTC")


@dataclass(slots=True)
class Columns:
    """Rows of :data:`~mqadmin.pipeline.export.rows.MESSAGE_SCHEMA` being gathered for one queue."""

    broker: str
    include_properties: bool = True
    topic: list[str] = field(default_factory=list)
    queue_id: list[int] = field(default_factory=list)
    queue_offset: list[int] = field(default_factory=list)
    msg_id: list[str] = field(default_factory=list)
    offset_msg_id: list[str] = field(default_factory=list)
    keys: list[str | None] = field(default_factory=list)
    tags: list[str | None] = field(default_factory=list)
    born_ms: list[int] = field(default_factory=list)
    born_host: list[str] = field(default_factory=list)
    store_ms: list[int] = field(default_factory=list)
    store_host: list[str] = field(default_factory=list)
    reconsume_times: list[int] = field(default_factory=list)
    properties: list[dict[str, str] | None] = field(default_factory=list)
    body: list[bytes] = field(default_factory=list)
    _hosts: dict[tuple[bytes, int], str] = field(default_factory=dict)
    _topics: dict[bytes, str] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.queue_offset)

    def add_body(self, data: bytes, cursor: Cursor) -> int:
        """Append the records of a pull answer that ``cursor`` admits (those of its chunk; one that
        breaks its rule raises); returns the first queue offset seen (-1 when the answer holds none)."""
        view = memoryview(data)
        pos, end, first = 0, len(view), -1
        while pos < end:
            try:
                pos, offset = self._fast(view, pos, cursor)
            except (struct.error, ValueError, IndexError, _Slow):
                pos, offset = self._slow(view, pos, cursor)
            if first < 0:
                first = offset
        return first

    def _fast(self, view: memoryview, pos: int, cursor: Cursor) -> tuple[int, int]:
        (size, magic, _crc, qid, _flag, qoff, cl_off, sys_flag, born, b_ip, b_port, stored, s_ip, s_port,
         reconsume, _prep, body_len) = _FIXED.unpack_from(view, pos)  # fmt: skip
        if sys_flag & _SLOW_FLAGS or size < _FIXED.size or body_len < 0:
            raise _Slow
        p = pos + _FIXED.size + body_len
        if magic == MESSAGE_MAGIC_CODE:
            topic_len, p = view[p], p + 1
            if topic_len > 127:
                raise _Slow
        elif magic == MESSAGE_MAGIC_CODE_V2:
            topic_len, p = (view[p] << 8) | view[p + 1], p + 2
            if topic_len > 0x7FFF:
                raise _Slow
        else:
            raise _Slow
        topic_at, p = p, p + topic_len
        props_len = (view[p] << 8) | view[p + 1]
        if props_len > 0x7FFF or p + 2 + props_len != pos + size or pos + size > len(view):
            raise _Slow
        props = _properties(str(view[p + 2 : p + 2 + props_len], "utf-8"))
        hosts = self._hosts
        born_host = hosts.get((b_ip, b_port)) or hosts.setdefault((b_ip, b_port), _host(b_ip, b_port))
        store_host = hosts.get((s_ip, s_port)) or hosts.setdefault((s_ip, s_port), _host(s_ip, s_port))
        raw_topic = bytes(view[topic_at : topic_at + topic_len])
        topic = self._topics.get(raw_topic) or self._topics.setdefault(raw_topic, str(raw_topic, "utf-8"))
        offset_id = _ID.pack(s_ip, s_port, cl_off).hex().upper()
        # judged last: nothing after this may send the record to the full decoder (and judge it twice)
        if not cursor.admit(raw_topic, qid, qoff):
            return pos + size, qoff
        self.topic.append(topic)
        self.queue_id.append(qid)
        self.queue_offset.append(qoff)
        self.msg_id.append(props.get(_UNIQ) or offset_id)
        self.offset_msg_id.append(offset_id)
        self.keys.append(props.get(_KEYS))
        self.tags.append(props.get(_TAGS))
        self.born_ms.append(born)
        self.born_host.append(born_host)
        self.store_ms.append(stored)
        self.store_host.append(store_host)
        self.reconsume_times.append(reconsume)
        self.properties.append(_pairs(props) if self.include_properties else None)
        self.body.append(bytes(view[pos + _FIXED.size : pos + _FIXED.size + body_len]))
        return pos + size, qoff

    def _slow(self, view: memoryview, pos: int, cursor: Cursor) -> tuple[int, int]:
        m, nxt = decode_message(view, pos)
        if cursor.admit(m.topic.encode("utf-8"), m.queue_id, m.queue_offset):
            self._append(
                m.topic, m.queue_id, m.queue_offset, m.properties, m.msg_id, m.born_timestamp,
                m.born_address, m.store_timestamp, m.store_address, m.reconsume_times, bytes(m.body),
            )  # fmt: skip
        return nxt, m.queue_offset

    def _append(
        self,
        topic: str,
        qid: int,
        qoff: int,
        props: dict[str, str],
        offset_id: str,
        born: int,
        born_host: str,
        stored: int,
        store_host: str,
        reconsume: int,
        body: bytes,
    ) -> None:
        self.topic.append(topic)
        self.queue_id.append(qid)
        self.queue_offset.append(qoff)
        self.msg_id.append(props.get(_UNIQ) or offset_id)
        self.offset_msg_id.append(offset_id)
        self.keys.append(props.get(_KEYS))
        self.tags.append(props.get(_TAGS))
        self.born_ms.append(born)
        self.born_host.append(born_host)
        self.store_ms.append(stored)
        self.store_host.append(store_host)
        self.reconsume_times.append(reconsume)
        self.properties.append(_pairs(props) if self.include_properties else None)
        self.body.append(body)

    def drain(self) -> pa.RecordBatch:
        """The gathered rows as one record batch; the lists start empty again."""
        n = len(self)
        batch = pa.RecordBatch.from_arrays(
            [
                pa.array(self.topic, pa.string()),
                pa.array([self.broker] * n, pa.string()),
                pa.array(self.queue_id, pa.int32()),
                pa.array(self.queue_offset, pa.int64()),
                pa.array(self.msg_id, pa.string()),
                pa.array(self.offset_msg_id, pa.string()),
                pa.array(self.keys, pa.string()),
                pa.array(self.tags, pa.string()),
                _micros(self.born_ms),
                pa.array(self.born_host, pa.string()),
                _micros(self.store_ms),
                pa.array(self.store_host, pa.string()),
                pa.array(self.reconsume_times, pa.int32()),
                pa.array(self.properties, MESSAGE_SCHEMA.field("properties").type),
                pa.array(self.body, pa.binary()),
            ],
            schema=MESSAGE_SCHEMA,
        )
        for name in self.__slots__:  # type: ignore[attr-defined]
            value = getattr(self, name)
            if isinstance(value, list):
                value.clear()
        return batch


class _Slow(Exception):
    """This record needs the full decoder."""


_ID = struct.Struct(">4siq")
"""An offset message id's bytes: store IPv4, port, commit-log offset."""


def _host(ip: bytes, port: int) -> str:
    return f"{socket.inet_ntoa(ip)}:{port}"


def _properties(text: str) -> dict[str, str]:
    """``MessageDecoder.string2messageProperties`` (as :func:`~mqadmin.protocol.message.string_to_properties`:
    an entry needs a name and a value before and after its first separator; the last one wins), by
    ``str.split``, which is what makes it quicker."""
    out: dict[str, str] = {}
    for entry in text.split(PROPERTY_SEPARATOR):
        name, sep, value = entry.partition(NAME_VALUE_SEPARATOR)
        if sep and name and value:
            out[name] = value
    return out


def _pairs(props: dict[str, str]) -> dict[str, str]:
    """The map column's entries (pyarrow takes a dict): what the broker stored, not what a pull adds."""
    if _PULL_ONLY[0] in props or _PULL_ONLY[1] in props:
        return {k: v for k, v in props.items() if k not in _PULL_ONLY}
    return props


def _micros(ms: list[int]) -> pa.Array:
    import pyarrow.compute as pc  # here: the stream's driver imports this module and never decodes

    return pc.multiply(pa.array(ms, pa.int64()), 1000).cast(_TS)
