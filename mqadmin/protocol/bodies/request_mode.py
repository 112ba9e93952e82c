"""Consume-mode bodies: SET_MESSAGE_REQUEST_MODE (401) sends one :class:`SetMessageRequestModeRequestBody`;
GET_ALL_MESSAGE_REQUEST_MODE (402) answers the broker's whole table, :class:`MessageRequestModeWrapper`
(Java's ``MessageRequestModeManager`` encoded: topic → group → body, both maps ``ConcurrentHashMap``).
Also :class:`CheckRocksdbCqWriteResult`, the answer of CHECK_ROCKSDB_CQ_WRITE_PROGRESS (354).

Each is declared once (:mod:`mqadmin.protocol.bodies.declared`); the table's reader and writer are
the quirks as data: string keys only, both maps in ``ConcurrentHashMap`` order.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mqadmin.protocol.bodies import fieldcheck as j
from mqadmin.protocol.bodies.declared import DeclaredBody, wire
from mqadmin.protocol.errors import ProtocolError
from mqadmin.protocol.javacoll import concurrent_hash_order

__all__ = [
    "CHECK_ERROR",
    "CHECK_IN_PROGRESS",
    "CHECK_NOT_OK",
    "CHECK_OK",
    "MESSAGE_REQUEST_MODES",
    "CheckRocksdbCqWriteResult",
    "MessageRequestModeWrapper",
    "SetMessageRequestModeRequestBody",
]

MESSAGE_REQUEST_MODES = ("PULL", "POP")
"""``MessageRequestMode`` constants, in enum order."""

CHECK_OK, CHECK_NOT_OK, CHECK_IN_PROGRESS, CHECK_ERROR = 0, 1, 2, 3
"""``CheckRocksdbCqWriteResult.CheckStatus`` values."""


def _mode(v: Any, what: str) -> str:
    """``MessageRequestMode``: PULL when absent, as Java's default."""
    if v is None:
        return "PULL"
    if v not in MESSAGE_REQUEST_MODES:
        raise ProtocolError(f"{what} is not one of {', '.join(MESSAGE_REQUEST_MODES)}")
    return str(v)


@dataclass(slots=True)
class SetMessageRequestModeRequestBody(DeclaredBody):
    """One group's consume mode on one topic; ``mode`` defaults to PULL, as in Java."""

    topic: str | None = wire(read=j.opt_str)
    consumer_group: str | None = wire(read=j.opt_str)
    mode: str = wire(default="PULL", read=_mode)
    pop_share_queue_num: int = wire(default=0, read=j.int32)


Table = dict[str, dict[str, SetMessageRequestModeRequestBody]]


def _read_table(v: Any, what: str) -> Table:
    table: Table = {}
    for topic, groups in (j.opt_obj(v, what) or {}).items():
        if type(topic) is not str:
            raise ProtocolError(f"a topic of {what} is not a string")
        inner: dict[str, SetMessageRequestModeRequestBody] = {}
        for group, body in j.obj(groups, f"the groups of {topic}").items():
            if type(group) is not str:
                raise ProtocolError(f"a group of {what} is not a string")
            inner[group] = SetMessageRequestModeRequestBody.from_json_obj(body)
        table[topic] = inner
    return table


def _write_table(table: Table, standard: bool) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for topic in concurrent_hash_order(table):
        groups = table[topic]
        out[topic] = {g: groups[g].to_json_obj(standard) for g in concurrent_hash_order(groups)}
    return out


@dataclass(slots=True)
class MessageRequestModeWrapper(DeclaredBody):
    """``{"messageRequestModeMap": {topic: {group: body}}}`` in Java's map orders."""

    table: Table = wire(factory=dict, java="messageRequestModeMap", read=_read_table, write=_write_table)


@dataclass(slots=True)
class CheckRocksdbCqWriteResult(DeclaredBody):
    """The check's status (:data:`CHECK_OK` ...) and its text (null while in progress)."""

    check_status: int = wire(default=0, read=j.int32)
    check_result: str | None = wire(read=j.opt_str)
