"""Alerts of ``analyze lag --max-lag N`` / ``--stuck``, from the rows the lag job computed.

The same meaning as ``consumerProgress --max-lag``: a group whose latest lag, all its topics and
queues together, is over N trips, as does (with ``--stuck``) a group stuck on a topic. The command
then exits 8 (mqadmin's THRESHOLD code) after its usual output, each alert one stderr line.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

__all__ = ["EXIT_THRESHOLD", "NO_LIMITS", "LagLimits", "lag_alerts"]

EXIT_THRESHOLD = 8
"""mqadmin's exit code for a crossed alert threshold (``ExitCode.THRESHOLD``)."""


@dataclass(frozen=True, slots=True)
class LagLimits:
    max_lag: int | None = None
    stuck: bool = False

    @property
    def active(self) -> bool:
        return self.max_lag is not None or self.stuck


NO_LIMITS = LagLimits()


def lag_alerts(rows: Iterable[Mapping[str, Any]], limits: LagLimits) -> list[dict[str, Any]]:
    """The alerts for the lag job's rows (``group, topic, lag, stuck, stuck_queues, stalled_seconds``).

    Each is ``{"group", "kind": "maxLag"|"stuck", "message", ...}``; groups in name order.
    """
    totals: dict[str, int] = {}
    stuck: list[dict[str, Any]] = []
    for r in rows:
        totals[r["group"]] = totals.get(r["group"], 0) + max(0, int(r["lag"] or 0))
        if limits.stuck and r["stuck"]:
            stuck.append(
                {
                    "group": r["group"],
                    "kind": "stuck",
                    "topic": r["topic"],
                    "stuckQueues": r["stuck_queues"],
                    "stalledSeconds": r["stalled_seconds"],
                    "message": f"group {r['group']} is stuck on topic {r['topic']}: {r['stuck_queues']} "
                    f"queue(s) with lag whose offset has not moved for {r['stalled_seconds']:g}s",
                }
            )
    out: list[dict[str, Any]] = []
    if limits.max_lag is not None:
        for group, lag in sorted(totals.items()):
            if lag > limits.max_lag:
                msg = f"group {group} has {lag} messages not consumed, more than --max-lag {limits.max_lag}"
                out.append({"group": group, "kind": "maxLag", "lag": lag, "maxLag": limits.max_lag,
                            "message": msg})  # fmt: skip
    out += sorted(stuck, key=lambda a: (a["group"], a["topic"]))
    return out
