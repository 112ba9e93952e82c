"""The average allocation of message queues to consumers, as ``AllocateMessageQueueAveragely``.

``allocateMQ`` shows how it would split a topic's queues between client ids. The queue list comes
from a ``HashSet<MessageQueue>`` (:func:`mqadmin.admin.messages.subscribe_queues`), so its order, and
therefore who gets which queue, is the set's iteration order.
"""

from __future__ import annotations

from mqadmin.protocol.bodies.message_queue import MessageQueue

__all__ = ["allocate_averagely"]


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
