"""The shared option parsers and Java time texts: the wording each command family prints."""

from __future__ import annotations

import os
import time

import pytest

from mqadmin.cli.errors import CommandError
from mqadmin.cli.exitcodes import ExitCode
from mqadmin.cli.javatime import format_date, human_millis, human_time
from mqadmin.cli.optvalues import in_range, need_target, parse_int, parse_long


def usage_message(call: object) -> str:
    with pytest.raises(CommandError) as e:
        call()  # type: ignore[operator]
    assert e.value.exit_code == ExitCode.USAGE
    return str(e.value)


def test_numbers_as_java_parses_them() -> None:
    assert parse_long(" -42 ", "-x") == -42
    assert parse_int("2147483647", "-x") == 2147483647
    assert parse_long("9223372036854775807", "-x") == (1 << 63) - 1
    assert parse_int(None, "-x", 7) == 7
    with pytest.raises(TypeError):
        parse_int(None, "-x")


@pytest.mark.parametrize(
    ("value", "bits", "terse", "expected"),
    [
        ("x", 64, False, "-q takes a whole number, not 'x'"),
        ("2147483648", 32, False, "-q takes a whole number, not '2147483648'"),
        ("1.5", 64, False, "-q takes a whole number, not '1.5'"),
        ("lots", 64, True, "-q takes a number, not 'lots'"),
        ("2147483648", 32, True, "-q takes a 32-bit number, not '2147483648'"),
        ("9223372036854775808", 64, True, "-q takes a number, not '9223372036854775808'"),
    ],
)
def test_number_wording(value: str, bits: int, terse: bool, expected: str) -> None:
    assert usage_message(lambda: parse_long(value, "-q", bits=bits, terse=terse)) == expected


def test_ranges_and_targets() -> None:
    assert in_range(5, "-r", 0) == 5 and in_range(0, "-q", 0, 1024) == 0
    assert (
        usage_message(lambda: in_range(-1, "-q", 0, 1024)) == "-q takes a whole number from 0 to 1024, not -1"
    )
    assert usage_message(lambda: in_range(0, "-t", 1)) == "-t takes a whole number of 1 or more, not 0"
    need_target("127.0.0.1:10911", None)
    need_target(None, "DefaultCluster")
    assert usage_message(lambda: need_target(None, None)) == (
        "give the broker with -b ADDR or the cluster with -c NAME"
    )


@pytest.fixture
def utc() -> object:
    old = os.environ.get("TZ")
    os.environ["TZ"] = "UTC"
    time.tzset()
    yield None
    if old is None:
        del os.environ["TZ"]
    else:
        os.environ["TZ"] = old
    time.tzset()


def test_java_times(utc: object) -> None:
    ms = 1_700_000_000_123  # 2023-11-14 22:13:20.123 UTC
    assert format_date(ms) == "2023-11-14 22:13:20"
    assert format_date(ms, "%Y%m%d") == "20231114"
    assert human_time(ms) == "2023-11-14 22:13:20,123"
    assert human_millis(ms) == "20231114221320123"
    assert human_time(-1) == "1969-12-31 23:59:59,999"
    assert human_time((1 << 63) - 1).startswith("292278994-08-17 07:12:55,807")
    assert format_date(10**30) == str(10**30) == human_time(10**30)  # beyond what the platform holds
