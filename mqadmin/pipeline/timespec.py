"""``--since``/``--until`` values: a moment in time, absolute or relative to now, always UTC.

Accepted: ISO dates and times (``2024-05-01``, ``2024-05-01T12:30``, ``2024-05-01 12:30:00+02:00``;
without an offset they are UTC), epoch milliseconds (``1714566600000``, as RocketMQ prints them),
``now``, and durations back from now (``90s``, ``15m``, ``6h``, ``2d``, ``1w``, combinable: ``1h30m``).
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

__all__ = ["TimeSpecError", "parse_duration", "parse_time"]

_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 604800}
_DURATION = re.compile(r"^(?:\d+(?:\.\d+)?[smhdw])+$")
_PART = re.compile(r"(\d+(?:\.\d+)?)([smhdw])")


class TimeSpecError(ValueError):
    """A value that is neither a time nor a duration."""


def parse_duration(text: str) -> float:
    """Seconds in ``90s``, ``15m``, ``1h30m`` (a bare number is seconds)."""
    value = text.strip().lower()
    try:
        return float(value)
    except ValueError:
        pass
    if not _DURATION.match(value):
        raise TimeSpecError(f"not a duration: {text!r} (examples: 90s, 15m, 1h30m, 2d)")
    return sum(float(n) * _UNITS[u] for n, u in _PART.findall(value))


def parse_time(text: str, now: datetime | None = None) -> datetime:
    """The UTC moment ``text`` names (see the module docstring)."""
    value = text.strip()
    now = now or datetime.now(UTC)
    if not value:
        raise TimeSpecError("empty time")
    if value.lower() == "now":
        return now
    if value.isdigit() and len(value) >= 10:
        n = int(value)
        return datetime.fromtimestamp(n / 1000 if len(value) >= 13 else n, UTC)
    if _DURATION.match(value.lower()):
        return now - timedelta(seconds=parse_duration(value))
    iso = value[:-1] + "+00:00" if value.endswith(("Z", "z")) else value
    try:
        t = datetime.fromisoformat(iso)
    except ValueError:
        raise TimeSpecError(
            f"not a time: {text!r} (examples: 2024-05-01, 2024-05-01T12:30, 1714566600000, 6h, 2d)"
        ) from None
    return t.replace(tzinfo=UTC) if t.tzinfo is None else t.astimezone(UTC)
