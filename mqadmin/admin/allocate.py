"""Message queues of a route and their average allocation to consumers, in Java's order.

``allocateMQ`` shows how ``AllocateMessageQueueAveragely`` would split a topic's queues between
client ids. The queue list comes from a ``HashSet<MessageQueue>``, so its order (and therefore who
gets which queue) is the set's iteration order, replayed here from ``MessageQueue.hashCode``.
"""

from __future__ import annotations

from dataclasses import dataclass

from mqadmin.protocol.bodies.route import TopicRouteData
from mqadmin.protocol.javacoll import java_string_hash

__all__ = ["MessageQueue", "allocate_averagely", "subscribe_queues"]

_MASK32 = 0xFFFFFFFF
PERM_READ = 4


@dataclass(frozen=True, slots=True)
class MessageQueue:
    topic: str
    broker_name: str
    queue_id: int

    def java_hash(self) -> int:
        """``MessageQueue.hashCode()`` (unsigned): brokerName, queueId, topic folded by 31."""
        h = 1
        h = (31 * h + (java_string_hash(self.broker_name) & _MASK32)) & _MASK32
        h = (31 * h + (self.queue_id & _MASK32)) & _MASK32
        h = (31 * h + (java_string_hash(self.topic) & _MASK32)) & _MASK32
        return h

    def to_json(self) -> dict[str, object]:
        """Bean properties in fastjson order."""
        return {"brokerName": self.broker_name, "queueId": self.queue_id, "topic": self.topic}


def _hash_set_order(items: list[MessageQueue]) -> list[MessageQueue]:
    unique = list(dict.fromkeys(items))
    cap = 16
    while len(unique) > cap * 3 // 4:
        cap <<= 1
    mask = cap - 1

    def bucket(mq: MessageQueue) -> int:
        h = mq.java_hash()
        return (h ^ (h >> 16)) & mask

    return sorted(unique, key=bucket)


def subscribe_queues(topic: str, route: TopicRouteData) -> list[MessageQueue]:
    """The readable queues of a route (``topicRouteData2TopicSubscribeInfo``), in HashSet order."""
    queues: list[MessageQueue] = []
    for qd in route.queue_datas or []:
        if qd.perm & PERM_READ and qd.broker_name is not None:
            queues.extend(MessageQueue(topic, qd.broker_name, i) for i in range(qd.read_queue_nums))
    return _hash_set_order(queues)


def allocate_averagely(current: str, mq_all: list[MessageQueue], cid_all: list[str]) -> list[MessageQueue]:
    """``AllocateMessageQueueAveragely.allocate``: a contiguous share of ``mq_all`` for ``current``.

    The lists are used as given (the Java tool does not sort them); ``current`` must be in ``cid_all``.
    """
    if not current:
        raise ValueError("currentCID is empty")
    if not mq_all:
        raise ValueError("mqAll is null or mqAll empty")
    if not cid_all:
        raise ValueError("cidAll is null or cidAll empty")
    if current not in cid_all:
        return []
    index = cid_all.index(current)
    n, c = len(mq_all), len(cid_all)
    mod = n % c
    if n <= c:
        avg = 1
    elif mod > 0 and index < mod:
        avg = n // c + 1
    else:
        avg = n // c
    start = index * avg if mod > 0 and index < mod else index * avg + mod
    span = min(avg, n - start)
    return mq_all[start : start + span] if span > 0 else []
