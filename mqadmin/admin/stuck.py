"""When a consumer group is stuck on a queue: the one rule that ``consumerProgress --stuck-after``
and ``mqadmin analyze lag`` both apply.

A queue is stuck when it has lag now and the group's committed offset there has not moved for at
least the window while there was lag (``stalled >= threshold``), over an observation that lasted
(``span > 0``). The time the last consumed message was stored says nothing about this: a group that
consumes old messages at 9 a second is busy, not stuck.

:func:`queue_stuck` is written with ``>``, ``>=`` and ``&`` only, so the same function decides on
plain numbers (the CLI, :func:`mqadmin.cli.lagalert.stuck_queues`, which watches the group's
offsets) and on Spark columns (the analysis of snapshots).
"""

from __future__ import annotations

from typing import Any

__all__ = ["DEFAULT_STUCK_AFTER", "queue_stuck"]

DEFAULT_STUCK_AFTER = 300.0
"""The window of ``analyze lag`` when none is given (or the whole span of the snapshots, if shorter)."""


def queue_stuck(lag: Any, stalled: Any, span: Any, threshold: Any) -> Any:
    """Stuck: lag now, and no move of the committed offset for ``threshold`` seconds of lag.

    ``stalled`` is how long the offset has stood still while there was lag, ``span`` how long the
    queue was observed; both in seconds. Numbers in, a bool out; columns in, a column out.
    """
    return (lag > 0) & (span > 0) & (stalled > 0) & (stalled >= threshold)
