"""Alert thresholds of ``consumerProgress`` for cron jobs and Nagios-style checks.

``--max-lag N`` trips when a group has more than N messages not consumed (all its queues together);
``--stuck-after S`` trips when a queue has messages waiting and the group's committed offset there did
not move for S seconds (the command watches that long at most: a group that consumes answers within
a commit interval), the rule of ``analyze lag`` (:mod:`mqadmin.admin.stuck`). Either one makes the
command exit with :attr:`ExitCode.THRESHOLD` after printing its usual output, each alert as one
stderr line; a group under both thresholds changes nothing.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass

from mqadmin.admin.stuck import stuck_queues
from mqadmin.cli.common import OurOpt
from mqadmin.cli.errors import CommandError
from mqadmin.cli.exitcodes import ExitCode
from mqadmin.protocol.bodies.message_queue import MessageQueue
from mqadmin.protocol.bodies.stats import ConsumeStats

__all__ = ["Thresholds", "alert_options", "group_alerts", "stuck_of"]


@dataclass(slots=True, frozen=True)
class Thresholds:
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
