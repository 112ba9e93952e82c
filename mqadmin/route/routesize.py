"""How large a topic's route answer can get, told before a change is made instead of after.

A route answer must fit one client frame (16 MiB): a client cannot read a larger one, so the topic
would be unroutable for every client, and a name server's worker processes could not be sent it.
A route lists, for each broker group holding the topic, its ``BrokerData`` (every member's
address), its ``QueueData`` and the filter servers of each member, plus the topic's static-topic
mappings. So a group costs every route it is in about the same bytes (its *weight*, see
:func:`broker_weight`), and a route is bounded by the sum of its groups' weights. The estimates are
upper bounds (every string counted as if it had to be escaped when it might), so a change they let
through cannot produce a route over :data:`ROUTE_BODY_LIMIT`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from mqadmin.protocol.frame import MAX_FRAME

__all__ = [
    "ROUTE_BODY_LIMIT",
    "ROUTE_ENVELOPE",
    "broker_weight",
    "filters_weight",
    "mapping_weight",
    "mappings_weight",
    "route_refusal",
    "text_weight",
]

ROUTE_BODY_LIMIT = MAX_FRAME - (512 << 10)
"""The largest route body a change may produce: one frame, less room for the response header and
an ``orderTopicConf`` spliced in (a KV value, 64 KiB at most, escaped)."""

ROUTE_ENVELOPE = 160
"""A route body's own bytes: its member names, brackets and an acting-master mark."""
_BROKER_DATA = 100
"""A ``BrokerData``'s member names and punctuation, and ``enableActingMaster``."""
_QUEUE_DATA = 130
"""A ``QueueData``'s member names, punctuation and four ints, besides its broker name."""
_ADDR_ENTRY = 24
"""A ``brokerAddrs`` entry besides the address: a quoted long id, a colon and a comma."""
_MAPPING = 160
"""A ``TopicQueueMappingInfo``'s member names, punctuation, ints and booleans."""
_ID_PAIR = 24
"""One ``currIdMap`` entry: two quoted ints, a colon and a comma."""


def text_weight(s: str | None) -> int:
    """Bytes ``s`` takes quoted in either JSON form at most (six per character where one may be
    escaped as ``\\uXXXX``)."""
    if s is None:
        return 4
    if s.isascii() and s.isprintable() and '"' not in s and "\\" not in s:
        return len(s) + 3
    return 6 * len(s) + 3


def broker_weight(
    name: str,
    cluster: str | None,
    zone: str | None,
    addrs: Iterable[str],
    filters_weight: Callable[[str], int],
) -> int:
    """What one broker group adds to every route it is in: its ``BrokerData`` (with room for one more
    address, which an acting master adds), its ``QueueData`` and its members' filter servers
    (``filters_weight(addr)``: the weight of a member's list, 0 for none)."""
    name_w = text_weight(name)
    weight = _BROKER_DATA + _QUEUE_DATA + 2 * name_w + text_weight(cluster) + text_weight(zone)
    widest = 0
    for addr in addrs:
        addr_w = text_weight(addr)
        widest = max(widest, addr_w)
        weight += _ADDR_ENTRY + addr_w
        servers_w = filters_weight(addr)
        if servers_w:
            weight += addr_w + 3 + servers_w
    return weight + _ADDR_ENTRY + widest


def filters_weight(servers: Iterable[str]) -> int:
    """A filter server list's bytes in a route, besides its member's address."""
    return sum(text_weight(s) for s in servers)


def mapping_weight(info: Any) -> int:
    """What one static-topic mapping (``TopicQueueMappingInfo``) adds to its topic's route."""
    ids = getattr(info, "curr_id_map", None) or ()
    return (
        _MAPPING
        + 2 * text_weight(getattr(info, "bname", None))
        + text_weight(getattr(info, "topic", None))
        + text_weight(getattr(info, "scope", None))
        + _ID_PAIR * len(ids)
    )


def route_refusal(topic: str, size: int) -> str | None:
    """The remark refusing a change that would make ``topic``'s route ``size`` bytes, or None."""
    if size <= ROUTE_BODY_LIMIT:
        return None
    shown = topic if len(topic) <= 128 else topic[:128] + "..."
    return (
        f"the route of topic {shown} would take up to {size} bytes, over the {ROUTE_BODY_LIMIT} bytes "
        f"a route answer may take (the {MAX_FRAME} byte frame limit)"
    )


def mappings_weight(mappings: Mapping[str, Any] | None, replaced: str | None = None, info: Any = None) -> int:
    """A topic's mappings by broker name, with ``replaced``'s taken to be ``info``."""
    total = 0
    for bname, existing in (mappings or {}).items():
        if bname != replaced:
            total += mapping_weight(existing)
    if info is not None:
        total += mapping_weight(info)
    return total
