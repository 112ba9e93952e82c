"""Alert thresholds of ``consumerProgress`` for cron jobs and Nagios-style checks.

``--max-lag N`` trips when a group has more than N messages not consumed (all its queues together);
``--stuck-after S`` trips when a queue has messages waiting and the group's committed offset there did
not move for S seconds (the command watches that long at most: a group that consumes answers within
a commit interval), the rule of ``analyze lag`` (:mod:`mqadmin.admin.stuck`). Either one makes the
command exit with :attr:`ExitCode.THRESHOLD` after printing its usual output, each alert as one
stderr line; a group under both thresholds changes nothing.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass

from mqadmin.admin.errors import AdminError, RemotingError
from mqadmin.admin.stuck import queue_stuck
from mqadmin.cli.common import OurOpt
from mqadmin.cli.errors import CommandError
from mqadmin.cli.exitcodes import ExitCode
from mqadmin.cli.invocation import Invocation
from mqadmin.protocol.bodies.consume_stats import ConsumeStats
from mqadmin.protocol.bodies.message_queue import MessageQueue

__all__ = ["POLL_SECONDS", "Thresholds", "alert_options", "group_alerts", "stuck_of", "stuck_queues"]

POLL_SECONDS = 1.0
"""How often :func:`stuck_queues` reads the offsets again (clients commit theirs every 5 s or so)."""


@dataclass(slots=True, frozen=True)
class Thresholds:
    """When a group's lag counts as an alert: more than ``max_lag`` messages behind, or a queue not
    moving for ``stuck_after`` seconds; neither set means no alerting."""

    max_lag: int | None = None
    stuck_after: float | None = None

    @property
    def active(self) -> bool:
        return self.max_lag is not None or self.stuck_after is not None

    @classmethod
    def of(cls, max_lag: int | None, stuck_after: float | None) -> Thresholds:
        if max_lag is not None and max_lag < 0:
            raise CommandError(f"--max-lag takes a count of 0 or more, not {max_lag}", ExitCode.USAGE)
        if stuck_after is not None and not stuck_after > 0:
            why = f"--stuck-after takes a positive number of seconds, not {stuck_after:g}"
            raise CommandError(why, ExitCode.USAGE)
        return cls(max_lag, stuck_after)


def alert_options() -> list[OurOpt]:
    """The two options, for the commands that check thresholds."""
    return [
        OurOpt(
            ("--max-lag",),
            "max_lag",
            "Exit 8 (after the usual output) when a group has more than N messages not consumed; "
            "each such group is named on stderr.",
            kind="int",
            metavar="N",
        ),
        OurOpt(
            ("--stuck-after",),
            "stuck_after",
            "Exit 8 when a queue has messages waiting and the group's committed offset there did not "
            "move for SECONDS (watched that long at most; a group that consumes answers sooner).",
            kind="float",
            metavar="SECONDS",
        ),
    ]


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
    import asyncio  # the watch runs on the event loop (--stuck-after), a plain check needs none

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


async def stuck_of(
    stats: ConsumeStats | None, again: Callable[[], Awaitable[ConsumeStats]], limits: Thresholds
) -> list[MessageQueue]:
    """The queues of ``stats`` stuck for ``--stuck-after`` (none asked: none)."""
    if stats is None or limits.stuck_after is None:
        return []
    return await stuck_queues(stats, again, limits.stuck_after)


def group_alerts(
    group: str, stats: ConsumeStats | None, limits: Thresholds, stuck: Sequence[MessageQueue] = ()
) -> list[str]:
    """What trips for ``group`` (one line each), nothing when it is within the thresholds;
    ``stuck``: what :func:`stuck_of` found."""
    if stats is None or not limits.active:
        return []
    out: list[str] = []
    lag = sum(max(0, w.broker_offset - w.consumer_offset) for w in stats.offset_table.values())
    if limits.max_lag is not None and lag > limits.max_lag:
        out.append(f"group {group} has {lag} messages not consumed, more than --max-lag {limits.max_lag}")
    if limits.stuck_after is not None and stuck:
        names = ", ".join(f"{mq.topic}@{mq.broker_name}#{mq.queue_id}" for mq in stuck[:3])
        more = f" and {len(stuck) - 3} more" if len(stuck) > 3 else ""
        out.append(
            f"group {group} is stuck on {len(stuck)} queue(s) ({names}{more}): messages waiting, its "
            f"committed offset did not move for --stuck-after {limits.stuck_after:g} s"
        )
    return out


def alert_exit(inv: Invocation, alerts: list[str]) -> ExitCode | None:
    """Each alert on stderr; THRESHOLD when any, unless a server failed (that failure's code wins)."""
    for a in alerts:
        inv.say(f"ALERT: {a}")
    return ExitCode.THRESHOLD if alerts and not inv.failures else None
