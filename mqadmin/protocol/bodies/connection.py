"""Who is connected: ``ConsumerConnection`` (GET_CONSUMER_CONNECTION_LIST, 203) and
``ProducerConnection`` (GET_PRODUCER_CONNECTION_LIST, 204).

``connectionSet`` is a ``HashSet<Connection>``, and ``Connection`` has no ``hashCode`` of its own:
Java orders the set by identity hash, which differs from run to run. There is no order to
reproduce, so the connections are written in the order given. The subscription table is a
default ``ConcurrentHashMap`` the broker fills with ``putAll`` (sized for its contents up front).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Self

from mqadmin.protocol.bodies import fieldcheck as j
from mqadmin.protocol.javacoll import chm_put_all_capacity, hash_ordered, java_hash_order

__all__ = ["Connection", "ConsumerConnection", "ProducerConnection", "SubscriptionData"]


@dataclass(slots=True)
class Connection:
    """One client channel: its id, address, language (``LanguageCode`` name) and version ordinal."""

    client_id: str | None = None
    client_addr: str | None = None
    language: str | None = None
    version: int = 0

    @classmethod
    def from_json_obj(cls, obj: Any, what: str = "Connection") -> Self:
        d = j.obj(obj, what)
        return cls(
            j.opt_str(d.get("clientId"), "clientId"),
            j.opt_str(d.get("clientAddr"), "clientAddr"),
            j.opt_str(d.get("language"), "language"),
            j.int32(d.get("version"), "version"),
        )

    def to_json_obj(self, standard: bool = False) -> dict[str, Any]:
        return j.drop_none(
            {
                "clientAddr": self.client_addr,
                "clientId": self.client_id,
                "language": self.language,
                "version": self.version,
            }
        )


def _int_list(v: Any, what: str) -> list[int] | None:
    return j.list_of(v, what, j.int32)


@dataclass(slots=True)
class SubscriptionData:
    """A consumer's subscription to one topic: expression and the tags (and their hashes) it selects.

    ``tags_set``: a ``HashSet<String>``, a list here to keep its order; ``code_set``: the
    ``String.hashCode`` of each tag (a ``HashSet<Integer>``). ``sub_version``: Java stamps a new
    subscription with the current time in milliseconds, and so do we.
    """

    topic: str | None = None
    sub_string: str | None = None
    tags_set: list[str] | None = field(default_factory=list)
    code_set: list[int] | None = field(default_factory=list)
    sub_version: int = field(default_factory=lambda: int(time.time() * 1000))
    expression_type: str | None = "TAG"
    class_filter_mode: bool = False

    @classmethod
    def from_json_obj(cls, obj: Any, what: str = "SubscriptionData") -> Self:
        d = j.obj(obj, what)
        sv = d.get("subVersion")
        tags = j.str_list(d.get("tagsSet", []), "tagsSet")
        codes = _int_list(d.get("codeSet", []), "codeSet")
        return cls(
            topic=j.opt_str(d.get("topic"), "topic"),
            sub_string=j.opt_str(d.get("subString"), "subString"),
            tags_set=None if tags is None else list(dict.fromkeys(tags)),
            code_set=None if codes is None else list(dict.fromkeys(codes)),
            sub_version=int(time.time() * 1000) if sv is None else j.int64(sv, "subVersion"),
            expression_type=j.opt_str(d.get("expressionType", "TAG"), "expressionType"),
            class_filter_mode=j.boolean(d.get("classFilterMode"), "classFilterMode"),
        )

    def to_json_obj(self, standard: bool = False) -> dict[str, Any]:
        return j.drop_none(
            {
                "classFilterMode": self.class_filter_mode,
                "codeSet": None if self.code_set is None else java_hash_order(self.code_set),
                "expressionType": self.expression_type,
                "subString": self.sub_string,
                "subVersion": self.sub_version,
                "tagsSet": None if self.tags_set is None else java_hash_order(self.tags_set),
                "topic": self.topic,
            }
        )


def _connections(v: Any) -> list[Connection]:
    out = j.list_of(v, "connectionSet", Connection.from_json_obj)
    return [] if out is None else out


@dataclass(slots=True)
class ConsumerConnection(j.JsonBody):
    """A consumer group's online clients, subscriptions (topic → subscription) and consume settings:
    ``consume_type`` ``CONSUME_ACTIVELY`` (pull), ``CONSUME_PASSIVELY`` (push) or, in 5.x,
    ``CONSUME_POP``; ``message_model`` ``CLUSTERING`` or ``BROADCASTING``; ``consume_from_where`` a
    ``ConsumeFromWhere`` name, e.g. ``CONSUME_FROM_LAST_OFFSET``."""

    connection_set: list[Connection] = field(default_factory=list)
    subscription_table: dict[str, SubscriptionData] = field(default_factory=dict)
    consume_type: str | None = None
    message_model: str | None = None
    consume_from_where: str | None = None

    @classmethod
    def from_json_obj(cls, obj: Any) -> Self:
        d = j.obj(obj, "ConsumerConnection")
        subs = j.map_of(d.get("subscriptionTable"), "subscriptionTable", SubscriptionData.from_json_obj)
        return cls(
            _connections(d.get("connectionSet")),
            {} if subs is None else subs,
            j.opt_str(d.get("consumeType"), "consumeType"),
            j.opt_str(d.get("messageModel"), "messageModel"),
            j.opt_str(d.get("consumeFromWhere"), "consumeFromWhere"),
        )

    def to_json_obj(self, standard: bool = False) -> dict[str, Any]:
        t = self.subscription_table
        subs = hash_ordered(t, chm_put_all_capacity(len(t)))
        return j.drop_none(
            {
                "connectionSet": [c.to_json_obj() for c in self.connection_set],
                "consumeFromWhere": self.consume_from_where,
                "consumeType": self.consume_type,
                "messageModel": self.message_model,
                "subscriptionTable": {k: v.to_json_obj() for k, v in subs.items()},
            }
        )

    def min_version(self) -> int:
        """``computeMinVersion``: the oldest client version online (``Integer.MAX_VALUE`` if none)."""
        return min((c.version for c in self.connection_set), default=j.INT_MAX)


@dataclass(slots=True)
class ProducerConnection(j.JsonBody):
    """A producer group's online clients."""

    connection_set: list[Connection] = field(default_factory=list)

    @classmethod
    def from_json_obj(cls, obj: Any) -> Self:
        d = j.obj(obj, "ProducerConnection")
        return cls(_connections(d.get("connectionSet")))

    def to_json_obj(self, standard: bool = False) -> dict[str, Any]:
        return {"connectionSet": [c.to_json_obj() for c in self.connection_set]}
