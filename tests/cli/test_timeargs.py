"""Every time option reads one grammar: Java's ``Long.parseLong`` and lenient ``yyyy-MM-dd#HH:mm:ss:SSS``
first, then ``now`` and ISO 8601; anything else is one usage error, whatever the value."""

from __future__ import annotations

import datetime as dt
import os
import time
from collections.abc import Iterator

import pytest

from mqadmin.cli.errors import CommandError
from mqadmin.cli.exitcodes import ExitCode
from mqadmin.cli.timeargs import TIME_FORMS, parse_duration_ms, parse_time_ms


def _utc_ms(*fields: int) -> int:
    return (dt.datetime(*fields, tzinfo=dt.UTC) - dt.datetime(1970, 1, 1, tzinfo=dt.UTC)) // dt.timedelta(
        milliseconds=1
    )


def _in_zone(name: str) -> Iterator[None]:
    """Runs a test in a time zone of its own, then restores the process's zone."""
    before = os.environ.get("TZ")
    os.environ["TZ"] = name
    time.tzset()
    yield
    if before is None:
        del os.environ["TZ"]
    else:
        os.environ["TZ"] = before
    time.tzset()


@pytest.fixture
def zone() -> Iterator[None]:
    """Europe/Berlin: a zone with DST."""
    yield from _in_zone("Europe/Berlin")


@pytest.fixture
def utc() -> Iterator[None]:
    yield from _in_zone("UTC")


ACCEPTED_UTC = [
    ("0", 0),
    ("1706708700000", 1706708700000),
    ("+5", 5),  # Long.parseLong takes a plus sign
    ("-1", -1),
    ("9223372036854775807", (1 << 63) - 1),
    ("-9223372036854775808", -(1 << 63)),
    ("  42\t", 42),  # trimmed as String.trim trims
    ("20260501", 20260501),  # all digits: milliseconds, never ISO 8601's basic date
    ("2024-01-31#13:45:00:000", _utc_ms(2024, 1, 31, 13, 45)),
    ("2024-1-31#13:45:0:5", _utc_ms(2024, 1, 31, 13, 45) + 5),
    ("2024-13-01#00:00:00:000", _utc_ms(2025, 1, 1)),  # lenient: month 13 rolls into the next year
    ("2026-02-30#00:00:00:000", _utc_ms(2026, 3, 2)),  # February 30 is March 2
    ("2024-02-29#24:00:00:000", _utc_ms(2024, 3, 1)),
    ("2024-01-00#00:00:00:000", _utc_ms(2023, 12, 31)),
    ("2024-00-01#00:00:00:000", _utc_ms(2023, 12, 1)),
    ("2024-01-01#00:00:00:1500", _utc_ms(2024, 1, 1, 0, 0, 1) + 500),
    ("2024-01-31#13:45:00:000Z trailing", _utc_ms(2024, 1, 31, 13, 45)),  # Java ignores what follows
    ("2024- 01-31#\t13:45:00:000", _utc_ms(2024, 1, 31, 13, 45)),  # spaces or tabs before a field
    ("99999-01-01#00:00:00:000", _utc_ms(2399, 1, 1) + 244 * 146_097 * 86_400_000),  # year 99999
    ("0000-01-01#00:00:00:000", _utc_ms(400, 1, 1) - 146_097 * 86_400_000),  # year 0
    ("2026-05-01T10:00:00Z", _utc_ms(2026, 5, 1, 10)),
    ("2026-05-01T12:00:00+02:00", _utc_ms(2026, 5, 1, 10)),
    ("2026-05-01T10:00:00.123", _utc_ms(2026, 5, 1, 10) + 123),  # no offset: local time
    ("2026-05-01", _utc_ms(2026, 5, 1)),
    ("2024-01-31#13:45:00", _utc_ms(2024, 1, 31, 13, 45)),  # not Java's (no :SSS): ISO, any separator
    ("2024-01-31 13:45:00:250", _utc_ms(2024, 1, 31, 13, 45) + 250),
]

REFUSED = [
    "",
    "   ",
    "\t\n",
    "NaN",
    "nan",
    "Infinity",
    "1e3",
    "1.5",
    "1_000",  # Python's int() would read it, Long.parseLong does not
    "0x10",
    "9223372036854775808",  # one past Long.MAX_VALUE
    "-9223372036854775809",
    "99999999999999999999999",
    "9" * 400,
    "\ud800",  # a lone surrogate
    "12\ud80034",
    "\x00",
    "NOW",
    "yesterday",
    "2026-02-30T00:00:00Z",  # ISO 8601 is read strictly: no February 30
    "2026-13-01T00:00:00",
    "99999-01-01T00:00:00Z",
    "-2024-01-31#13:45:00:000",
    "2147483648-01-01#00:00:00:000",  # a field past Java's int
    "2024-01-31#13:45:00:99999999999",
    "300000000-01-01#00:00:00:000",  # past what a Java long of milliseconds holds
]


@pytest.mark.usefixtures("utc")
@pytest.mark.parametrize(("text", "ms"), ACCEPTED_UTC)
def test_accepted(text: str, ms: int) -> None:
    assert parse_time_ms(text, "-s") == ms


@pytest.mark.usefixtures("utc")
@pytest.mark.parametrize("text", REFUSED)
def test_refused_with_one_wording(text: str) -> None:
    with pytest.raises(CommandError) as caught:
        parse_time_ms(text, "-b")
    assert caught.value.exit_code == ExitCode.USAGE
    assert str(caught.value) == f"-b takes {TIME_FORMS}, not {text!r}"
    assert str(caught.value).isprintable()


def test_now_is_the_clock() -> None:
    before = time.time_ns() // 1_000_000
    assert before <= parse_time_ms(" now ", "--from") <= time.time_ns() // 1_000_000


@pytest.mark.usefixtures("zone")
@pytest.mark.parametrize(
    ("text", "ms"),
    [
        ("2026-01-15#12:00:00:000", _utc_ms(2026, 1, 15, 11)),  # CET
        ("2026-07-15#12:00:00:000", _utc_ms(2026, 7, 15, 10)),  # CEST
        ("2026-03-29#02:30:00:000", _utc_ms(2026, 3, 29, 1, 30)),  # in the DST gap: moved forward
        ("2026-07-15T12:00:00", _utc_ms(2026, 7, 15, 10)),
        ("2026-07-15T12:00:00Z", _utc_ms(2026, 7, 15, 12)),  # an offset given wins over the zone
        # the far future keeps the zone's last rule: summer time in July of year 99999
        ("99999-07-01#00:00:00:000", _utc_ms(2399, 7, 1) + 244 * 146_097 * 86_400_000 - 2 * 3_600_000),
        ("1706708700000", 1706708700000),  # milliseconds know no zone
    ],
)
def test_local_time_zone(text: str, ms: int) -> None:
    assert parse_time_ms(text, "-s") == ms


@pytest.mark.parametrize(
    ("text", "ms"),
    [("PT15M", 900_000), ("P1DT2H", 93_600_000), ("90s", 90_000), ("2h30m", 9_000_000), ("250ms", 250)],
)
def test_durations(text: str, ms: int) -> None:
    assert parse_duration_ms(text, "--by-duration") == ms


@pytest.mark.parametrize("text", ["", "P", "PT", "soon", "15", "NaN", "\ud800"])
def test_durations_refused(text: str) -> None:
    with pytest.raises(CommandError, match="--by-duration takes a duration"):
        parse_duration_ms(text, "--by-duration")
