"""Static-topic queue mappings of RocketMQ 5.x (``statictopic`` package): the mapping values.

A 5.x broker reports, per topic, how logical queue ids map onto its physical queues; the name
server hands that on in route answers (``topicQueueMappingByBroker``). 4.x peers never send these.
The bodies of the static-topic tools, which hold topic configs beside them, are in
:mod:`mqadmin.protocol.bodies.static_topic`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Self

from mqadmin.protocol.bodies import fieldcheck as j
from mqadmin.protocol.javacoll import chm_capacity, hash_ordered, tree_ordered

__all__ = [
    "METADATA_SCOPE_GLOBAL",
    "LogicQueueMappingItem",
    "TopicQueueMappingDetail",
    "TopicQueueMappingInfo",
]

METADATA_SCOPE_GLOBAL = "__global__"
"""``MixAll.METADATA_SCOPE_GLOBAL``, the default ``scope``."""


def _int_int_map(v: Any, what: str) -> dict[int, int] | None:
    """``ConcurrentMap<Integer, Integer>``: numeric keys, unquoted or quoted."""
    if v is None:
        return None
    d = j.obj(v, what)
    out: dict[int, int] = {}
    for k, x in d.items():
        if x is None:
            continue
        out[j.numeric_key(k, what, j.INT_MIN, j.INT_MAX)] = j.int32(x, f"{what}[{k}]")
    return out


def _int_map_json(d: dict[int, Any], standard: bool) -> dict[int, Any]:
    """A ``ConcurrentHashMap<Integer, ...>`` built by put (default size), or sorted for MapSortField."""
    return tree_ordered(d) if standard else hash_ordered(d, chm_capacity(len(d)))


@dataclass(slots=True)
class TopicQueueMappingInfo(j.JsonBody):
    """Which logical queues of a static topic a broker currently leads (``TopicQueueMappingInfo``).

    ``curr_id_map``: logical queue id → physical queue id (``ConcurrentHashMap<Integer, Integer>``).
    """

    topic: str | None = None
    scope: str | None = METADATA_SCOPE_GLOBAL
    total_queues: int = 0
    bname: str | None = None
    epoch: int = 0
    dirty: bool = False
    curr_id_map: dict[int, int] | None = field(default_factory=dict)

    @classmethod
    def from_json_obj(cls, obj: Any, what: str = "TopicQueueMappingInfo") -> Self:
        d = j.obj(obj, what)
        return cls(
            topic=j.opt_str(d.get("topic"), "topic"),
            scope=j.opt_str(d.get("scope", METADATA_SCOPE_GLOBAL), "scope"),
            total_queues=j.int32(d.get("totalQueues"), "totalQueues"),
            bname=j.opt_str(d.get("bname"), "bname"),
            epoch=j.int64(d.get("epoch"), "epoch"),
            dirty=j.boolean(d.get("dirty"), "dirty"),
            curr_id_map=_int_int_map(d.get("currIdMap", {}), "currIdMap"),
        )

    def to_json_obj(self, standard: bool = False) -> dict[str, Any]:
        return j.drop_none(
            {
                "bname": self.bname,
                "currIdMap": None if self.curr_id_map is None else _int_map_json(self.curr_id_map, standard),
                "dirty": self.dirty,
                "epoch": self.epoch,
                "scope": self.scope,
                "topic": self.topic,
                "totalQueues": self.total_queues,
            }
        )


@dataclass(slots=True)
class LogicQueueMappingItem:
    """One generation of a logical queue on a physical queue (``LogicQueueMappingItem``)."""

    gen: int = 0
    queue_id: int = 0
    bname: str | None = None
    logic_offset: int = 0
    start_offset: int = 0
    end_offset: int = -1
    time_of_start: int = -1
    time_of_end: int = -1

    @classmethod
    def from_json_obj(cls, obj: Any, what: str = "LogicQueueMappingItem") -> Self:
        d = j.obj(obj, what)
        return cls(
            gen=j.int32(d.get("gen"), "gen"),
            queue_id=j.int32(d.get("queueId"), "queueId"),
            bname=j.opt_str(d.get("bname"), "bname"),
            logic_offset=j.int64(d.get("logicOffset"), "logicOffset"),
            start_offset=j.int64(d.get("startOffset"), "startOffset"),
            end_offset=j.int64(d.get("endOffset"), "endOffset", -1),
            time_of_start=j.int64(d.get("timeOfStart"), "timeOfStart", -1),
            time_of_end=j.int64(d.get("timeOfEnd"), "timeOfEnd", -1),
        )

    def to_json_obj(self, standard: bool = False) -> dict[str, Any]:
        return j.drop_none(
            {
                "bname": self.bname,
                "endOffset": self.end_offset,
                "gen": self.gen,
                "logicOffset": self.logic_offset,
                "queueId": self.queue_id,
                "startOffset": self.start_offset,
                "timeOfEnd": self.time_of_end,
                "timeOfStart": self.time_of_start,
            }
        )


def _hosted_queues(v: Any, what: str) -> dict[int, list[LogicQueueMappingItem]] | None:
    if v is None:
        return None
    d = j.obj(v, what)
    out: dict[int, list[LogicQueueMappingItem]] = {}
    for k, x in d.items():
        if x is None:
            continue
        items = j.req_list_of(x, f"{what}[{k}]", LogicQueueMappingItem.from_json_obj)
        out[j.numeric_key(k, what, j.INT_MIN, j.INT_MAX)] = items
    return out


@dataclass(slots=True)
class TopicQueueMappingDetail(TopicQueueMappingInfo):
    """A broker's full mapping of a static topic, with the history of each logical queue.

    ``hosted_queues``: global (logical) queue id → its generations (``ConcurrentHashMap<Integer,
    List<...>>``). Its fields are the info's and its own, in the constructor's order.
    """

    hosted_queues: dict[int, list[LogicQueueMappingItem]] | None = field(default_factory=dict)

    @classmethod
    def from_json_obj(cls, obj: Any, what: str = "TopicQueueMappingDetail") -> Self:
        info = TopicQueueMappingInfo.from_json_obj(obj, what)
        hosted = _hosted_queues(obj.get("hostedQueues", {}), "hostedQueues")
        return cls(
            topic=info.topic,
            scope=info.scope,
            total_queues=info.total_queues,
            bname=info.bname,
            epoch=info.epoch,
            dirty=info.dirty,
            curr_id_map=info.curr_id_map,
            hosted_queues=hosted,
        )

    def to_json_obj(self, standard: bool = False) -> dict[str, Any]:
        out = TopicQueueMappingInfo.to_json_obj(self, standard)
        if self.hosted_queues is not None:
            hosted = _int_map_json(self.hosted_queues, standard)
            out["hostedQueues"] = {k: [x.to_json_obj(standard) for x in v] for k, v in hosted.items()}
        return dict(sorted(out.items()))
