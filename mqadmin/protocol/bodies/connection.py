"""Who is connected: ``ConsumerConnection`` (GET_CONSUMER_CONNECTION_LIST, 203) and
``ProducerConnection`` (GET_PRODUCER_CONNECTION_LIST, 204).

``connectionSet`` is a ``HashSet<Connection>``, and ``Connection`` has no ``hashCode`` of its own:
Java orders the set by identity hash, which differs from run to run. There is no order to
reproduce, so the connections are written in the order given. The subscription table is a
default ``ConcurrentHashMap`` the broker fills with ``putAll`` (sized for its contents up front).

Each type is declared once (:mod:`mqadmin.protocol.bodies.declared`).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from mqadmin.protocol.bodies import fieldcheck as j
from mqadmin.protocol.bodies.declared import DeclaredBody, wire
from mqadmin.protocol.javacoll import chm_put_all_capacity, hash_ordered, java_hash_order

__all__ = ["Connection", "ConsumerConnection", "ProducerConnection", "SubscriptionData"]


@dataclass(slots=True)
class Connection(DeclaredBody):
    """One client channel: its id, address, language (``LanguageCode`` name) and version ordinal."""

    client_id: str | None = wire(read=j.opt_str)
    client_addr: str | None = wire(read=j.opt_str)
    language: str | None = wire(read=j.opt_str)
    version: int = wire(default=0, read=j.int32)


def _now_ms() -> int:
    return int(time.time() * 1000)


def _unique(items: list[Any] | None) -> list[Any] | None:
    """A ``HashSet`` read: each value once, in the order read."""
    return None if items is None else list(dict.fromkeys(items))


@dataclass(slots=True)
class SubscriptionData(DeclaredBody):
    """A consumer's subscription to one topic: expression and the tags (and their hashes) it selects.

    ``tags_set``: a ``HashSet<String>``, a list here to keep its order; ``code_set``: the
    ``String.hashCode`` of each tag (a ``HashSet<Integer>``). ``sub_version``: Java stamps a new
    subscription with the current time in milliseconds, and so do we.
    """

    topic: str | None = wire(read=j.opt_str)
    sub_string: str | None = wire(read=j.opt_str)
    tags_set: list[str] | None = wire(
        factory=list,
        absent=[],
        read=lambda v, what: _unique(j.str_list(v, what)),
        write=lambda v, _: java_hash_order(v),
    )
    code_set: list[int] | None = wire(
        factory=list,
        absent=[],
        read=lambda v, what: _unique(j.list_of(v, what, j.int32)),
        write=lambda v, _: java_hash_order(v),
    )
    sub_version: int = wire(
        factory=_now_ms, read=lambda v, what: _now_ms() if v is None else j.int64(v, what)
    )
    expression_type: str | None = wire(default="TAG", absent="TAG", read=j.opt_str)
    class_filter_mode: bool = wire(default=False, read=j.boolean)


@dataclass(slots=True)
class ConsumerConnection(DeclaredBody):
    """A consumer group's online clients, subscriptions (topic → subscription) and consume settings:
    ``consume_type`` ``CONSUME_ACTIVELY`` (pull), ``CONSUME_PASSIVELY`` (push) or, in 5.x,
    ``CONSUME_POP``; ``message_model`` ``CLUSTERING`` or ``BROADCASTING``; ``consume_from_where`` a
    ``ConsumeFromWhere`` name, e.g. ``CONSUME_FROM_LAST_OFFSET``."""

    connection_set: list[Connection] = wire(
        factory=list, read=lambda v, what: j.list_of(v, what, Connection.from_json_obj) or []
    )
    subscription_table: dict[str, SubscriptionData] = wire(
        factory=dict,
        read=lambda v, what: j.map_of(v, what, SubscriptionData.from_json_obj) or {},
        write=lambda v, standard: {
            k: s.to_json_obj(standard) for k, s in hash_ordered(v, chm_put_all_capacity(len(v))).items()
        },
    )
    consume_type: str | None = wire(read=j.opt_str)
    message_model: str | None = wire(read=j.opt_str)
    consume_from_where: str | None = wire(read=j.opt_str)

    def min_version(self) -> int:
        """``computeMinVersion``: the oldest client version online (``Integer.MAX_VALUE`` if none)."""
        return min((c.version for c in self.connection_set), default=j.INT_MAX)


@dataclass(slots=True)
class ProducerConnection(DeclaredBody):
    """A producer group's online clients."""

    connection_set: list[Connection] = wire(
        factory=list, read=lambda v, what: j.list_of(v, what, Connection.from_json_obj) or []
    )
