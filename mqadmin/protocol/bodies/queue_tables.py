"""Tables keyed by :class:`MessageQueue` (``TopicStatsTable``, ``ConsumeStats``): how they are read,
the order a Java map iterates them in, and their text.

Both are written with object keys. A 4.x broker fills a ``HashMap``, a 5.x broker a
``ConcurrentHashMap`` (both default-sized, so they part at 12, 24, 48... queues). The 5.x classes also
gained a property each (``topicPutTps``, ``OffsetWrapper.pullOffset``), which a 4.x body lacks: those
are ``None`` for a 4.x body, and their presence is what tells the writer which map the table was.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from mqadmin.protocol import fastjson
from mqadmin.protocol.bodies import fieldcheck as j
from mqadmin.protocol.bodies.message_queue import MessageQueue
from mqadmin.protocol.javacoll import chm_capacity, hash_map_capacity, hash_ordered

V = TypeVar("V")

__all__ = ["in_java_order", "mq_json", "mq_table", "mq_text", "or_default"]


def mq_table(parse: Callable[[Any, str], V]) -> Callable[[Any, str], dict[MessageQueue, V]]:
    """The reader of a map keyed by queues (null: an empty one), its values read by ``parse``."""

    def read(v: Any, what: str) -> dict[MessageQueue, V]:
        if v is None:
            return {}
        d = j.obj(v, what)
        out: dict[MessageQueue, V] = {}
        for k, x in d.items():
            if x is None:
                continue
            out[MessageQueue.from_json_obj(k, f"{what} key")] = parse(x, f"{what} value")
        return out

    return read


def in_java_order(table: dict[MessageQueue, V], concurrent: bool) -> dict[MessageQueue, V]:
    """The table as a default-sized ``ConcurrentHashMap`` (or ``HashMap``) iterates it."""
    n = len(table)
    if n < 2:
        return table
    return hash_ordered(
        table, chm_capacity(n) if concurrent else hash_map_capacity(n), MessageQueue.java_hash
    )


def mq_json(table: dict[MessageQueue, Any], concurrent: bool, standard: bool) -> dict[Any, Any]:
    ordered = in_java_order(table, concurrent)
    return {k.to_object_key(): v.to_json_obj(standard) for k, v in ordered.items()}


# The hand-written part: a broker answers GET_CONSUME_STATS and GET_TOPIC_STATS_INFO for every queue,
# so the tables write their text directly: mq_json's text at f-string speed (a test holds the two
# to the same bytes).
def mq_text(table: dict[MessageQueue, Any], concurrent: bool, standard: bool) -> str:
    q = fastjson.quote
    items = []
    for mq, v in in_java_order(table, concurrent).items():
        name = "" if mq.broker_name is None else f'"brokerName":{q(mq.broker_name)},'
        topic = "" if mq.topic is None else f',"topic":{q(mq.topic)}'
        key = f'{{{name}"queueId":{mq.queue_id}{topic}}}'
        items.append(f"{q(key) if standard else key}:{v._text()}")  # standard: the key as a string
    return "{" + ",".join(items) + "}"


def or_default(default: Any) -> Callable[[Any], Any]:
    """The view of a 5.x member: the 5.3.3 bean holds ``default`` where a 4.x body has none."""
    return lambda v: default if v is None else v
