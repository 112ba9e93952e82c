"""Times and durations as operators type them for ``consume --from`` and ``resetOffsets``.

An instant is ``now``, epoch milliseconds, an ISO 8601 date-time (``2026-05-01T10:00:00Z``; without
an offset it is local time, as ``date`` prints it) or the Java tool's ``yyyy-MM-dd#HH:mm:ss:SSS``. A
duration is ISO 8601's ``PnDTnHnMnS`` (what kafka-consumer-groups' ``--by-duration`` takes) or a
short form of numbers with units, ``90s``, ``15m``, ``2h30m``, ``1d``.
"""

from __future__ import annotations

import re
import time
from datetime import datetime

from mqadmin.cli.commands.message_text import parse_time_arg
from mqadmin.cli.errors import usage_error

__all__ = ["parse_duration_ms", "parse_instant_ms"]

_ISO_DURATION = re.compile(
    r"P(?:(?P<d>\d+(?:\.\d+)?)D)?(?:T(?:(?P<h>\d+(?:\.\d+)?)H)?(?:(?P<m>\d+(?:\.\d+)?)M)?"
    r"(?:(?P<s>\d+(?:\.\d+)?)S)?)?",
    re.IGNORECASE,
)
_SHORT_DURATION = re.compile(r"(?:(\d+(?:\.\d+)?)(ms|s|m|h|d))+")
_SHORT_PART = re.compile(r"(\d+(?:\.\d+)?)(ms|s|m|h|d)")
_UNIT_MS = {"ms": 1, "s": 1000, "m": 60_000, "h": 3_600_000, "d": 86_400_000}
_JAVA_TIME = re.compile(r"\d+-\d+-\d+#\d+:\d+:\d+:\d+")
_MILLIS = re.compile(r"-?\d+")


def parse_instant_ms(text: str, option: str) -> int:
    """Epoch milliseconds of an instant (see the module docstring); a usage error otherwise."""
    value = text.strip()
    if value == "now":
        return time.time_ns() // 1_000_000
    if _MILLIS.fullmatch(value) or _JAVA_TIME.fullmatch(value):
        return parse_time_arg(value, option)
    try:
        when = datetime.fromisoformat(value)
    except ValueError:
        raise usage_error(
            f"{option} takes now, epoch milliseconds, an ISO 8601 date-time (2026-05-01T10:00:00Z) or "
            f"yyyy-MM-dd#HH:mm:ss:SSS, not {value!r}"
        ) from None
    return int(when.timestamp() * 1000)


def parse_duration_ms(text: str, option: str) -> int:
    """Milliseconds of a duration (ISO 8601 ``PT15M`` or ``15m``); a usage error otherwise."""
    value = text.strip()
    iso = _ISO_DURATION.fullmatch(value)
    if iso is not None and value.upper() not in ("P", "PT"):
        parts = {k: float(v) for k, v in iso.groupdict().items() if v is not None}
        return round(
            parts.get("d", 0) * 86_400_000
            + parts.get("h", 0) * 3_600_000
            + parts.get("m", 0) * 60_000
            + parts.get("s", 0) * 1000
        )
    if _SHORT_DURATION.fullmatch(value):
        return round(sum(float(n) * _UNIT_MS[u] for n, u in _SHORT_PART.findall(value)))
    raise usage_error(f"{option} takes a duration such as PT15M, P1DT2H, 90s, 15m or 2h30m, not {value!r}")
