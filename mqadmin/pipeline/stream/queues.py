"""Which message queues a stream reads, and where each one starts and ends now (driver side).

Every trigger asks the name server for the topics' routes again (and, with ``topicPattern``, for the
topic list), so a queue added by ``updateTopic`` or a broker that comes back is seen at the next
batch. A queue's offsets are GET_MIN_OFFSET and GET_MAX_OFFSET to its broker's master.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Coroutine
from dataclasses import dataclass
from typing import Any

from mqadmin.admin.api import MQAdmin
from mqadmin.pipeline.stream.offsets import queue_key
from mqadmin.protocol import names
from mqadmin.protocol.bodies.message_queue import MessageQueue
from mqadmin.protocol.bodies.route import MASTER_ID, TopicRouteData
from mqadmin.protocol.codes import ResponseCode
from mqadmin.protocol.perm import PERM_READ
from mqadmin.remoting.errors import RemoteCommandError, RemotingError

__all__ = ["QueueState", "UnknownTopicError", "discover", "topics_of"]

log = logging.getLogger(__name__)


class UnknownTopicError(ValueError):
    """A topic the name servers have no route for."""


@dataclass(frozen=True, slots=True)
class QueueState:
    """One readable queue as its broker answers now."""

    topic: str
    broker: str
    addr: str
    queue_id: int
    min_offset: int
    max_offset: int

    @property
    def key(self) -> tuple[str, str]:
        return self.topic, queue_key(self.broker, self.queue_id)


def _skipped(topic: str) -> bool:
    return topic.startswith(
        (names.RETRY_GROUP_TOPIC_PREFIX, names.DLQ_GROUP_TOPIC_PREFIX)
    ) or names.is_system_topic(topic)


async def topics_of(admin: MQAdmin, topics: tuple[str, ...], pattern: str | None) -> list[str]:
    """The listed topics, or every topic of the name server ``pattern`` matches whole (no retry,
    dead-letter or system topic)."""
    if pattern is None:
        return list(topics)
    regex = re.compile(pattern)
    found = await admin.namesrv.fetch_all_topic_list()
    return sorted(t for t in found if regex.fullmatch(t) and not _skipped(t))


async def _route(admin: MQAdmin, topic: str, strict: bool) -> TopicRouteData | None:
    try:
        return await admin.namesrv.examine_topic_route_info(topic)
    except RemoteCommandError as e:
        if e.code != ResponseCode.TOPIC_NOT_EXIST:
            raise
        if strict:
            raise UnknownTopicError(f"topic {topic} does not exist (no route on the name servers)") from None
        log.warning("topic %s has no route now; its queues keep their offsets", topic)
        return None


async def _queue(admin: MQAdmin, topic: str, broker: str, addr: str, qid: int) -> QueueState | None:
    mq = MessageQueue(topic, broker, qid)
    try:
        lo, hi = await asyncio.gather(admin.messages.min_offset(mq), admin.broker.max_offset_at(addr, mq))
    except RemoteCommandError:
        raise  # the broker answered, and refused (no permission, ...): not a broker that left
    except RemotingError as e:
        log.warning("broker %s (%s) did not answer for %s queue %d: %s", broker, addr, topic, qid, e)
        return None
    return QueueState(topic, broker, addr, qid, lo, hi)


async def discover(admin: MQAdmin, topics: list[str], *, strict: bool = False) -> list[QueueState]:
    """The readable queues of ``topics`` with their offsets now; a broker without a master, or one
    that does not answer, is left out (logged): its queues resume when it is back."""
    routes = await asyncio.gather(*(_route(admin, t, strict) for t in topics))
    jobs: list[Coroutine[Any, Any, QueueState | None]] = []
    for topic, route in zip(topics, routes, strict=True):
        if route is None:
            continue
        masters = {
            bd.broker_name: bd.broker_addrs[MASTER_ID]
            for bd in route.broker_datas or []
            if bd.broker_name and bd.broker_addrs and MASTER_ID in bd.broker_addrs
        }
        for qd in route.queue_datas or []:
            if not qd.broker_name or not qd.perm & PERM_READ:
                continue
            addr = masters.get(qd.broker_name)
            if addr is None:
                log.warning("broker %s of topic %s has no master now; its queues wait", qd.broker_name, topic)
                continue
            jobs.extend(_queue(admin, topic, qd.broker_name, addr, q) for q in range(qd.read_queue_nums))
    found = await asyncio.gather(*jobs)
    return sorted((q for q in found if q is not None), key=lambda q: (q.topic, q.broker, q.queue_id))
