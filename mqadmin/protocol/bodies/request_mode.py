"""Consume-mode bodies: SET_MESSAGE_REQUEST_MODE (401) sends one :class:`SetMessageRequestModeRequestBody`;
GET_ALL_MESSAGE_REQUEST_MODE (402) answers the broker's whole table, :class:`MessageRequestModeWrapper`
(Java's ``MessageRequestModeManager`` encoded: topic → group → body, both maps ``ConcurrentHashMap``).
Also :class:`CheckRocksdbCqWriteResult`, the answer of CHECK_ROCKSDB_CQ_WRITE_PROGRESS (354).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Self

from mqadmin.protocol.bodies import fieldcheck as j
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


@dataclass(slots=True)
class SetMessageRequestModeRequestBody(j.JsonBody):
    """One group's consume mode on one topic; ``mode`` defaults to PULL, as in Java."""

    topic: str | None = None
    consumer_group: str | None = None
    mode: str = "PULL"
    pop_share_queue_num: int = 0

    @classmethod
    def from_json_obj(cls, o: Any) -> Self:
        o = j.obj(o, "SetMessageRequestModeRequestBody")
        mode = o.get("mode")
        if mode is None:
            mode = "PULL"
        if mode not in MESSAGE_REQUEST_MODES:
            raise ProtocolError(f"mode is not one of {', '.join(MESSAGE_REQUEST_MODES)}")
        return cls(
            j.opt_str(o.get("topic"), "topic"),
            j.opt_str(o.get("consumerGroup"), "consumerGroup"),
            mode,
            j.int32(o.get("popShareQueueNum"), "popShareQueueNum"),
        )

    def to_json_obj(self, standard: bool = False) -> dict[str, Any]:
        return j.drop_none(
            {
                "consumerGroup": self.consumer_group,
                "mode": self.mode,
                "popShareQueueNum": self.pop_share_queue_num,
                "topic": self.topic,
            }
        )


@dataclass(slots=True)
class MessageRequestModeWrapper(j.JsonBody):
    """``{"messageRequestModeMap": {topic: {group: body}}}`` in Java's map orders."""

    table: dict[str, dict[str, SetMessageRequestModeRequestBody]] = field(default_factory=dict)

    @classmethod
    def from_json_obj(cls, o: Any) -> Self:
        o = j.obj(o, "MessageRequestModeManager")
        table: dict[str, dict[str, SetMessageRequestModeRequestBody]] = {}
        topics = j.opt_obj(o.get("messageRequestModeMap"), "messageRequestModeMap") or {}
        for topic, groups in topics.items():
            if type(topic) is not str:
                raise ProtocolError("a topic of messageRequestModeMap is not a string")
            inner: dict[str, SetMessageRequestModeRequestBody] = {}
            for group, body in j.obj(groups, f"the groups of {topic}").items():
                if type(group) is not str:
                    raise ProtocolError("a group of messageRequestModeMap is not a string")
                inner[group] = SetMessageRequestModeRequestBody.from_json_obj(body)
            table[topic] = inner
        return cls(table)

    def to_json_obj(self, standard: bool = False) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for topic in concurrent_hash_order(self.table):
            groups = self.table[topic]
            out[topic] = {g: groups[g].to_json_obj() for g in concurrent_hash_order(groups)}
        return {"messageRequestModeMap": out}


@dataclass(slots=True)
class CheckRocksdbCqWriteResult(j.JsonBody):
    """The check's status (:data:`CHECK_OK` ...) and its text (null while in progress)."""

    check_status: int = 0
    check_result: str | None = None

    @classmethod
    def from_json_obj(cls, o: Any) -> Self:
        o = j.obj(o, "CheckRocksdbCqWriteResult")
        status = j.int32(o.get("checkStatus"), "checkStatus")
        return cls(status, j.opt_str(o.get("checkResult"), "checkResult"))

    def to_json_obj(self, standard: bool = False) -> dict[str, Any]:
        return j.drop_none({"checkResult": self.check_result, "checkStatus": self.check_status})
