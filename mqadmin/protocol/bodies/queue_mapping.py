"""Static-topic queue mappings of RocketMQ 5.x (``statictopic`` package): the mapping values.

A 5.x broker reports, per topic, how logical queue ids map onto its physical queues; the name
server hands that on in route answers (``topicQueueMappingByBroker``). 4.x peers never send these.
The bodies of the static-topic tools, which hold topic configs beside them, are in
:mod:`mqadmin.protocol.bodies.static_topic`.

Each type is declared once (:mod:`mqadmin.protocol.bodies.declared`). The maps keyed by queue id
are ``ConcurrentHashMap``s: read with numeric keys, quoted or not, and written in that map's order
(sorted for MapSortField), which is also how the Java client's bean holds them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mqadmin.protocol.bodies import fieldcheck as j
from mqadmin.protocol.bodies.declared import DeclaredBody, wire
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


def _client_map(d: dict[int, Any] | None) -> dict[int, Any] | None:
    """How the Java client's bean holds such a map: a ``ConcurrentHashMap`` built by put."""
    return None if d is None else _int_map_json(d, False)


def _long_or_minus_one(v: Any, what: str) -> int:
    return j.int64(v, what, -1)


@dataclass(slots=True)
class TopicQueueMappingInfo(DeclaredBody):
    """Which logical queues of a static topic a broker currently leads (``TopicQueueMappingInfo``).

    ``curr_id_map``: logical queue id -> physical queue id (``ConcurrentHashMap<Integer, Integer>``;
    Java's default is an empty map, so an absent one reads as empty).
    """

    topic: str | None = wire(read=j.opt_str)
    scope: str | None = wire(default=METADATA_SCOPE_GLOBAL, absent=METADATA_SCOPE_GLOBAL, read=j.opt_str)
    total_queues: int = wire(default=0, read=j.int32)
    bname: str | None = wire(read=j.opt_str)
    epoch: int = wire(default=0, read=j.int64)
    dirty: bool = wire(default=False, read=j.boolean)
    curr_id_map: dict[int, int] | None = wire(
        factory=dict, absent={}, read=_int_int_map, write=_int_map_json, view=_client_map
    )


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
    return {k: [x.to_json_obj(standard) for x in v] for k, v in _int_map_json(d, standard).items()}


@dataclass(slots=True)
class TopicQueueMappingDetail(TopicQueueMappingInfo):
    """A broker's full mapping of a static topic, with the history of each logical queue.

    ``hosted_queues``: global (logical) queue id -> its generations (``ConcurrentHashMap<Integer,
    List<...>>``). Its fields are the info's and its own, in the constructor's order.
    """

    hosted_queues: dict[int, list[LogicQueueMappingItem]] | None = wire(
        factory=dict, absent={}, read=_hosted_queues, write=_hosted_json, view=_client_map
    )
