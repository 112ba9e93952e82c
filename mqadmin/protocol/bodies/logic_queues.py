"""A broker's full static-topic mapping of RocketMQ 5.x: ``TopicQueueMappingDetail``, the mapping a
route carries (:mod:`mqadmin.protocol.bodies.queue_mapping`) with the generations of each logical
queue (``LogicQueueMappingItem``). Brokers keep and forward by it; the static-topic tools read it.

The maps keyed by queue id are ``ConcurrentHashMap``s, as in the mapping a route carries.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mqadmin.protocol.bodies import fieldcheck as j
from mqadmin.protocol.bodies.declared import DeclaredBody, wire
from mqadmin.protocol.bodies.queue_mapping import TopicQueueMappingInfo, client_map, int_map_json

__all__ = ["LogicQueueMappingItem", "TopicQueueMappingDetail"]


def _long_or_minus_one(v: Any, what: str) -> int:
    return j.int64(v, what, -1)


@dataclass(slots=True)
class LogicQueueMappingItem(DeclaredBody):
    """One generation of a logical queue on a physical queue (``LogicQueueMappingItem``)."""

    gen: int = wire(default=0, read=j.int32)
    queue_id: int = wire(default=0, read=j.int32)
    bname: str | None = wire(read=j.opt_str)
    logic_offset: int = wire(default=0, read=j.int64)
    start_offset: int = wire(default=0, read=j.int64)
    end_offset: int = wire(default=-1, read=_long_or_minus_one)
    time_of_start: int = wire(default=-1, read=_long_or_minus_one)
    time_of_end: int = wire(default=-1, read=_long_or_minus_one)


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


def _hosted_json(d: dict[int, list[LogicQueueMappingItem]], standard: bool) -> dict[int, Any]:
    return {k: [x.to_json_obj(standard) for x in v] for k, v in int_map_json(d, standard).items()}


@dataclass(slots=True)
class TopicQueueMappingDetail(TopicQueueMappingInfo):
    """A broker's full mapping of a static topic, with the history of each logical queue.

    ``hosted_queues``: global (logical) queue id -> its generations (``ConcurrentHashMap<Integer,
    List<...>>``). Its fields are the info's and its own, in the constructor's order.
    """

    hosted_queues: dict[int, list[LogicQueueMappingItem]] | None = wire(
        factory=dict, absent={}, read=_hosted_queues, write=_hosted_json, view=client_map
    )
