"""Static-topic queue mappings of RocketMQ 5.x (``statictopic`` package): the mapping a route carries.

A 5.x broker reports, per topic, how logical queue ids map onto its physical queues; the name
server hands that on in route answers (``topicQueueMappingByBroker``). 4.x peers never send these.
A broker's own detail, with the history of each logical queue, is in
:mod:`mqadmin.protocol.bodies.logic_queues`; the bodies of the static-topic tools, which hold topic
configs beside them, are in :mod:`mqadmin.protocol.bodies.static_topic`.

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

__all__ = ["METADATA_SCOPE_GLOBAL", "TopicQueueMappingInfo", "client_map", "int_map_json"]

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


def int_map_json(d: dict[int, Any], standard: bool) -> dict[int, Any]:
    """A ``ConcurrentHashMap<Integer, ...>`` built by put (default size), or sorted for MapSortField."""
    return tree_ordered(d) if standard else hash_ordered(d, chm_capacity(len(d)))


def client_map(d: dict[int, Any] | None) -> dict[int, Any] | None:
    """How the Java client's bean holds such a map: a ``ConcurrentHashMap`` built by put."""
    return None if d is None else int_map_json(d, False)


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
        factory=dict, absent={}, read=_int_int_map, write=int_map_json, view=client_map
    )
