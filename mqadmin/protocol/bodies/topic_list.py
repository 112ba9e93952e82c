"""``TopicList``: a set of topic names, the answer to GET_ALL_TOPIC_LIST_FROM_NAMESERVER (206),
GET_TOPICS_BY_CLUSTER (224), GET_SYSTEM_TOPIC_LIST_FROM_NS (304) and GET_SYSTEM_TOPIC_LIST_FROM_BROKER
(305). Apart from the topic config bodies, so that ``topicList`` reads the one body it gets."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Self

from mqadmin.protocol import fastjson
from mqadmin.protocol.bodies import fieldcheck as j
from mqadmin.protocol.bodies.declared import DeclaredBody, from_json, to_json, wire
from mqadmin.protocol.javacoll import bucket_order, chm_capacity, hash_map_capacity

__all__ = ["TopicList"]


def _topic_names(v: Any, what: str) -> list[str]:
    return [] if v is None else list(dict.fromkeys(j.req_str_list(v, what)))


@dataclass(slots=True)
class TopicList(DeclaredBody):
    """A set of topic names (and, for some answers, the broker they came from).

    ``topic_list``: a Java ``Set``; a list here to keep the order it came in. ``concurrent``: order
    as a 5.x name server's ``ConcurrentHashMap.newKeySet()`` rather than a 4.x ``HashSet``; the two
    only part at 12, 24, 48, ... names (see :func:`mqadmin.protocol.javacoll.chm_capacity`). A
    broker's answer (305) is a ``HashSet`` in both versions. Equality ignores ``concurrent``, which
    is not on the wire.
    """

    topic_list: list[str] = wire(factory=list, read=_topic_names)
    broker_addr: str | None = wire(read=j.opt_str)
    concurrent: bool = field(default=False, compare=False)

    # The hand-written part: the set's order follows ``concurrent``, which the body does not carry.
    @classmethod
    def from_json_obj(cls, value: Any, what: str | None = None, *, concurrent: bool = False) -> Self:
        made: Self = from_json(cls, value, what or "TopicList")
        made.concurrent = concurrent
        return made

    @classmethod
    def decode(cls, body: bytes, *, concurrent: bool = False) -> Self:
        return cls.from_json_obj(j.decode_object(body, cls.__name__), concurrent=concurrent)

    def to_json_obj(self, standard: bool = False) -> dict[str, Any]:
        out = to_json(self)
        out["topicList"] = self._ordered()
        return out

    # The name server's encoder, the text of to_json_obj() at f-string speed (held to it by a test).
    def encode(self, standard: bool = False) -> bytes:
        q = fastjson.quote
        head = "" if self.broker_addr is None else f'"brokerAddr":{q(self.broker_addr)},'
        return ("{" + head + '"topicList":[' + ",".join([q(t) for t in self._ordered()]) + "]}").encode()

    def _ordered(self) -> list[str]:
        names = list(dict.fromkeys(self.topic_list))
        if len(names) < 2:
            return names
        n = len(names)
        cap = chm_capacity(n) if self.concurrent else hash_map_capacity(n)
        return bucket_order(names, cap)
