"""When a consumer group is stuck on a queue: the one rule that ``consumerProgress --stuck-after``
and ``mqadmin analyze lag`` both apply.

A queue is stuck when it has lag now and the group's committed offset there has not moved for at
least the window while there was lag (``stalled >= threshold``), over an observation that lasted
(``span > 0``). The time the last consumed message was stored says nothing about this: a group that
consumes old messages at 9 a second is busy, not stuck.

:func:`queue_stuck` is written with ``>``, ``>=`` and ``&`` only, so the same function decides on
plain numbers (the CLI) and on Spark columns (the analysis). :func:`stuck_queues` is the CLI's
observation: it reads the group's offsets again until every queue with lag has moved, or the window
is over.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Any

from mqadmin.admin.errors import AdminError, RemotingError
from mqadmin.protocol.bodies.message_queue import MessageQueue
from mqadmin.protocol.bodies.stats import ConsumeStats

__all__ = ["DEFAULT_STUCK_AFTER", "POLL_SECONDS", "queue_stuck", "stuck_queues"]

DEFAULT_STUCK_AFTER = 300.0
"""The window of ``analyze lag`` when none is given (or the whole span of the snapshots, if shorter)."""

POLL_SECONDS = 1.0
"""How often :func:`stuck_queues` reads the offsets again (clients commit theirs every 5 s or so)."""


def queue_stuck(lag: Any, stalled: Any, span: Any, threshold: Any) -> Any:
    """Stuck: lag now, and no move of the committed offset for ``threshold`` seconds of lag.

    ``stalled`` is how long the offset has stood still while there was lag, ``span`` how long the
    queue was observed; both in seconds. Numbers in, a bool out; columns in, a column out.
    """
    return (lag > 0) & (span > 0) & (stalled > 0) & (stalled >= threshold)


def _lagging(stats: ConsumeStats) -> dict[MessageQueue, int]:
    """The committed offset of every queue that has lag."""
    return {
        mq: w.consumer_offset for mq, w in stats.offset_table.items() if w.broker_offset > w.consumer_offset
    }


async def stuck_queues(
    first: ConsumeStats,
    again: Callable[[], Awaitable[ConsumeStats]],
    window: float,
    *,
    poll: float = POLL_SECONDS,
    clock: Callable[[], float] = time.monotonic,
) -> list[MessageQueue]:
    """The queues of ``first`` on which the group is stuck, watched for up to ``window`` seconds.

    ``again`` reads the group's offsets anew. A queue leaves the watch as soon as its committed
    offset moves or its lag is gone, so a group that consumes answers within a commit interval; a
    read that fails is skipped (it tells nothing either way). What is still standing still with
    lag at the end of the window is stuck.
    """
    start = clock()
    watched = _lagging(first)
    last = first
    while watched and clock() - start < window:
        await asyncio.sleep(min(poll, max(0.0, window - (clock() - start))))
        try:
            last = await again()
        except (AdminError, RemotingError):  # a broker that did not answer this time: the watch goes on
            continue
        now = _lagging(last)
        watched = {mq: off for mq, off in watched.items() if now.get(mq) == off}
    span = clock() - start
    lag = {mq: w.broker_offset - w.consumer_offset for mq, w in last.offset_table.items()}
    return [mq for mq in watched if queue_stuck(lag.get(mq, 0), span, span, window)]
