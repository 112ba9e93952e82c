"""Times as the Java tool prints them (``UtilAll`` and ``DateFormatUtils``), in the local time zone.

A time the platform cannot represent prints as its number of milliseconds instead of failing.
"""

from __future__ import annotations

import time

__all__ = ["format_date", "human_millis", "human_time"]


def _local(ms: int) -> time.struct_time | None:
    try:
        return time.localtime(ms // 1000)
    except (OverflowError, OSError, ValueError):
        return None


def format_date(ms: int, pattern: str = "%Y-%m-%d %H:%M:%S") -> str:
    """``UtilAll.formatDate(new Date(ms), "yyyy-MM-dd HH:mm:ss")`` (or another plain pattern)."""
    t = _local(ms)
    if t is None:
        return str(ms)
    try:
        return time.strftime(pattern, t)
    except (OverflowError, ValueError):
        return str(ms)


def human_time(ms: int) -> str:
    """``UtilAll.timeMillisToHumanString2``: ``yyyy-MM-dd HH:mm:ss,SSS``."""
    t = _local(ms)
    if t is None:
        return str(ms)
    return (
        f"{t.tm_year:04d}-{t.tm_mon:02d}-{t.tm_mday:02d} "
        f"{t.tm_hour:02d}:{t.tm_min:02d}:{t.tm_sec:02d},{ms % 1000:03d}"
    )


def human_millis(ms: int) -> str:
    """``UtilAll.timeMillisToHumanString``: ``yyyyMMddHHmmssSSS``."""
    t = _local(ms)
    if t is None:
        return str(ms)
    return (
        f"{t.tm_year:04d}{t.tm_mon:02d}{t.tm_mday:02d}"
        f"{t.tm_hour:02d}{t.tm_min:02d}{t.tm_sec:02d}{ms % 1000:03d}"
    )


def now_ms() -> int:
    """``System.currentTimeMillis()``."""
    return time.time_ns() // 1_000_000


def millis_group() -> str:
    """The producer group the Java tools use: the current time in milliseconds."""
    return str(now_ms())
