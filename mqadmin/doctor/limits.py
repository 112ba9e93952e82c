"""The thresholds of the checks: defaults an operator overrides with ``--set NAME=VALUE``."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

__all__ = ["LIMIT_HELP", "LimitError", "Limits", "with_overrides"]


class LimitError(ValueError):
    """A ``--set`` that names no threshold or gives it a value it cannot take."""


@dataclass(frozen=True, slots=True)
class Limits:
    """Each threshold, under the name ``--set`` gives it (see :data:`LIMIT_HELP`)."""

    lag_window: float = 10.0
    lag_growth: int = 1
    retry_growth: int = 1
    dlq_messages: int = 1
    disk_critical: float = 0.90
    disk_margin: float = 0.05
    dispatch_bytes: int = 64 * 1024 * 1024
    slave_bytes: int = 256 * 1024 * 1024
    requests: int = 64
    clock_skew: float = 5.0


LIMIT_HELP: dict[str, str] = {
    "lag_window": "seconds between the two looks at every group's lag (growing lag, retry topics)",
    "lag_growth": "messages a group's lag must grow by over the window to count as growing",
    "retry_growth": "messages a group's %RETRY% topic must grow by over the window",
    "dlq_messages": "messages in a group's %DLQ% topic that make a finding",
    "disk_critical": "used share of the commit log's disk at which a broker refuses writes (Java's "
    "diskSpaceWarningLevelRatio, 0.90)",
    "disk_margin": "how far below the broker's diskMaxUsedSpaceRatio (files reclaimed before their "
    "retention) its disk already warns",
    "dispatch_bytes": "bytes of commit log not yet dispatched to the consume queues",
    "slave_bytes": "bytes a slave's commit log may be behind its master's (Java's haMaxGapNotInSync)",
    "requests": "requests in flight at once across the checks",
    "clock_skew": "seconds a broker's clock may differ from this machine's (beyond what the round trip "
    "and the broker's one-second runtime leave unknown)",
}
"""What each threshold means, for ``--help`` and the man page."""


def with_overrides(base: Limits, pairs: list[str]) -> Limits:
    """``base`` with ``NAME=VALUE`` pairs applied (``lag_window=30``); :class:`LimitError` if one is bad."""
    changes: dict[str, Any] = {}
    known = {f.name: f for f in dataclasses.fields(Limits)}
    for pair in pairs:
        name, sep, text = pair.partition("=")
        name = name.strip().replace("-", "_")
        if not sep or name not in known:
            raise LimitError(f"--set {pair!r}: not NAME=VALUE with NAME one of {', '.join(known)}")
        kind = type(getattr(base, name))
        try:
            value = kind(text.strip())
        except ValueError:
            raise LimitError(
                f"--set {pair!r}: {name} takes a {'number' if kind is float else 'whole number'}"
            ) from None
        if value < 0 or (name == "requests" and value < 1):
            raise LimitError(f"--set {pair!r}: {name} cannot be {value}")
        changes[name] = value
    return dataclasses.replace(base, **changes)
