"""Times and durations as operators type them: one grammar and one error for every time option.

A time (``parse_time_ms``) is read as the Java tool reads ``-s``, ``-b`` and ``-e``, trimmed as
``String.trim`` trims it, and then tried in this order:

- epoch milliseconds, as ``Long.parseLong`` reads them (a sign, decimal digits, a signed 64-bit value);
- ``yyyy-MM-dd#HH:mm:ss:SSS`` in the local time zone, as the lenient ``SimpleDateFormat`` of
  ``UtilAll.parseDate`` reads it: fields roll over (month 13 is January of the next year, February 30
  a day of March), spaces or tabs may stand before a field, text after the milliseconds is ignored,
  and any year a Java ``long`` of milliseconds holds is a year;
- ``now`` (Java's resetOffsetByTime; here every time option takes it);
- an ISO 8601 date-time such as ``2026-05-01T10:00:00Z``, strictly (no rolling over); without an
  offset it is local time, as ``date`` prints it.

Where Java fails (a NullPointerException: ``NaN``, a number past 64 bits, an empty value) this is a
usage error with one wording for all. One difference is left: before 15 October 1582 Java counts
days in the Julian calendar and this module in the proleptic Gregorian one, a few days apart at
most, long before any stored message.

A duration (``parse_duration_ms``) is ISO 8601's ``PnDTnHnMnS`` (what kafka-consumer-groups'
``--by-duration`` takes) or numbers with units, ``90s``, ``15m``, ``2h30m``, ``1d``.
"""

from __future__ import annotations

import datetime as dt
import re
import time

from mqadmin.cli.errors import usage_error
from mqadmin.javaconfig import java_trim

__all__ = ["TIME_FORMS", "parse_duration_ms", "parse_time_ms"]

TIME_FORMS = (
    "now, epoch milliseconds, yyyy-MM-dd#HH:mm:ss:SSS or an ISO 8601 date-time (2026-05-01T10:00:00Z)"
)
"""What a time option takes, in the words of its usage error."""

_LONG_MIN, _LONG_MAX = -(1 << 63), (1 << 63) - 1
_INT_MAX = (1 << 31) - 1
_MILLIS = re.compile(r"[+-]?\d+")
_JAVA_TIME = re.compile(
    r"[ \t]*(\d+)-[ \t]*(\d+)-[ \t]*(\d+)#[ \t]*(\d+):[ \t]*(\d+):[ \t]*(\d+):[ \t]*(\d+)"
)
_EPOCH_WALL = dt.datetime(1970, 1, 1)
_EPOCH_UTC = dt.datetime(1970, 1, 1, tzinfo=dt.UTC)
_CYCLE_YEARS = 400
_CYCLE_DAYS = 146_097  # days in 400 Gregorian years: the calendar (and a zone's DST rule) repeats
_DAY_MS = 86_400_000
_ONE_MS = dt.timedelta(milliseconds=1)
_LOW_DAY = (dt.date(2, 1, 1) - _EPOCH_WALL.date()).days  # datetime.timestamp() fails in year 1
_HIGH_DAY = (dt.date(9998, 1, 1) - _EPOCH_WALL.date()).days  # and near the end of year 9999

_ISO_DURATION = re.compile(
    r"P(?:(?P<d>\d+(?:\.\d+)?)D)?(?:T(?:(?P<h>\d+(?:\.\d+)?)H)?(?:(?P<m>\d+(?:\.\d+)?)M)?"
    r"(?:(?P<s>\d+(?:\.\d+)?)S)?)?",
    re.IGNORECASE,
)
_SHORT_DURATION = re.compile(r"(?:(\d+(?:\.\d+)?)(ms|s|m|h|d))+")
_SHORT_PART = re.compile(r"(\d+(?:\.\d+)?)(ms|s|m|h|d)")
_UNIT_MS = {"ms": 1, "s": 1000, "m": 60_000, "h": 3_600_000, "d": 86_400_000}


def parse_time_ms(value: str, option: str) -> int:
    """Epoch milliseconds of a time option (see the module docstring); a usage error otherwise."""
    text = java_trim(value)
    if _MILLIS.fullmatch(text):
        n: int | None = int(text)
    elif text == "now":
        return time.time_ns() // 1_000_000
    else:
        fields = _JAVA_TIME.match(text)
        n = _java_time_ms(fields) if fields else _iso_time_ms(text)
    if n is None or not _LONG_MIN <= n <= _LONG_MAX:
        raise usage_error(f"{option} takes {TIME_FORMS}, not {value!r}")
    return n


def _java_time_ms(fields: re.Match[str]) -> int | None:
    """Lenient ``GregorianCalendar`` arithmetic: every field an ``int``, each one rolling into the next."""
    year, month, day, hour, minute, second, milli = (int(g) for g in fields.groups())
    if max(year, month, day, hour, minute, second, milli) > _INT_MAX:
        return None  # Java's intValue() would wrap it into some other time
    months = year * 12 + month - 1
    days = _days_from_civil(months // 12, months % 12 + 1) + day - 1
    return _local_wall_to_utc_ms(days * _DAY_MS + ((hour * 60 + minute) * 60 + second) * 1000 + milli)


def _iso_time_ms(text: str) -> int | None:
    try:
        when = dt.datetime.fromisoformat(text)
    except ValueError:
        return None
    if when.tzinfo is not None:
        return (when - _EPOCH_UTC) // _ONE_MS
    return _local_wall_to_utc_ms((when - _EPOCH_WALL) // _ONE_MS)


def _days_from_civil(year: int, month: int) -> int:
    """Days from 1970-01-01 to the first of a month of the proleptic Gregorian calendar, any year."""
    cycles, year = divmod(year - 2000, _CYCLE_YEARS)
    return cycles * _CYCLE_DAYS + (dt.date(2000 + year, month, 1) - _EPOCH_WALL.date()).days


def _local_wall_to_utc_ms(wall_ms: int) -> int:
    """The instant a local wall-clock time names (one in a DST gap moves forward, as in Java).

    A year the standard library cannot hold is moved by whole 400-year cycles into one it can,
    where the calendar, and the zone's rule for the far future, read the same.
    """
    days, in_day = divmod(wall_ms, _DAY_MS)
    cycles = 0
    if days >= _HIGH_DAY:
        cycles = (days - _HIGH_DAY) // _CYCLE_DAYS + 1
    elif days < _LOW_DAY:
        cycles = -((_LOW_DAY - days - 1) // _CYCLE_DAYS + 1)
    seconds, milli = divmod((days - cycles * _CYCLE_DAYS) * _DAY_MS + in_day, 1000)
    local = _EPOCH_WALL + dt.timedelta(seconds=seconds)
    return int(local.timestamp()) * 1000 + milli + cycles * _CYCLE_DAYS * _DAY_MS


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
