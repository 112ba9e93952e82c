"""The small pieces that keep a one-request command off the heavier standard library, held to what
they replace: :class:`~mqadmin.record.Record` to a dataclass's equality, hash and repr,
:class:`~mqadmin.lazyre.LazyPattern` to ``re.compile``, the JSON-number test of
:func:`mqadmin.cli.output.number` to the regular expression it replaced, and
:class:`~mqadmin.cli.exitcodes.ExitCode` to the enum it was."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mqadmin.cli.exitcodes import DESCRIPTIONS, ExitCode
from mqadmin.cli.javatext import java_f, jformat
from mqadmin.cli.output import _is_json_number, number
from mqadmin.lazyre import LazyPattern
from mqadmin.record import FrozenRecord, Record


class Point(Record):
    __slots__ = ("x", "y")

    def __init__(self, x: int, y: list[int]) -> None:
        self.x = x
        self.y = y


class Key(FrozenRecord):
    __slots__ = ("a", "b")

    def __init__(self, a: str, b: int = 0) -> None:
        self.a = a
        self.b = b


def test_record_equality_repr_and_no_hash() -> None:
    assert Point(1, [2]) == Point(1, [2])
    assert Point(1, [2]) != Point(1, [3])
    assert Point(1, [2]) != (1, [2])  # another type is never equal
    assert repr(Point(1, [2])) == "Point(x=1, y=[2])"
    with pytest.raises(TypeError):
        hash(Point(1, [2]))  # mutable: unhashable, as a dataclass with eq is


class Point3(Point):
    __slots__ = ("z",)

    def __init__(self, x: int, y: list[int], z: int = 0) -> None:
        super().__init__(x, y)
        self.z = z


class Ordered(Record):
    __slots__ = ("a", "b")
    __match_args__ = ("b", "a")

    def __init__(self, b: int, a: int) -> None:
        self.b = b
        self.a = a


def test_a_subclass_record_has_its_bases_fields_and_match_args_give_the_order() -> None:
    assert Point3(1, [2], 3) != Point3(1, [2], 4)  # its own field counts
    assert Point3(1, [2], 3) != Point3(9, [2], 3)  # and its base's
    assert repr(Point3(1, [2], 3)) == "Point3(x=1, y=[2], z=3)"
    assert Point3(1, [2], 3).with_(x=5) == Point3(5, [2], 3)
    assert repr(Ordered(1, 2)) == "Ordered(b=1, a=2)" and Ordered(1, 2).with_(a=7) == Ordered(1, 7)


def test_with_copies_with_changes() -> None:
    p = Point(1, [2])
    q = p.with_(x=5)
    assert q == Point(5, [2]) and p == Point(1, [2])
    assert Key("t").with_(b=3) == Key("t", 3)
    with pytest.raises(TypeError):
        p.with_(z=1)  # no such field


def test_frozen_record_is_a_key() -> None:
    assert {Key("t"): 1}[Key("t", 0)] == 1
    assert len({Key("t"), Key("t"), Key("t", 1)}) == 2
    assert Key("t") != Key("t", 1)


def test_lazy_pattern_compiles_on_first_use_and_matches_as_re() -> None:
    source = r"(?i)consumer group <[^>]*> not exist|can not find message by the offset"
    lazy = LazyPattern(source)
    assert lazy._compiled is None
    for text in ("The consumer group <G> NOT EXIST", "can not find message by the offset 7", "other"):
        assert bool(lazy.search(text)) == bool(re.compile(source).search(text))
    assert lazy._compiled is not None
    assert LazyPattern(r"\s*See\s+\S+$").sub("", "remark See http://x") == "remark"
    assert LazyPattern(r"a+").fullmatch("aaa") and not LazyPattern(r"a+").fullmatch("aab")


NUMBER = re.compile(r"-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?")
"""The JSON number grammar: what :func:`number` accepted before it read numbers without ``re``."""


@settings(max_examples=3000)
@given(st.text(alphabet="0123456789-+.eEx ٣", max_size=14))
def test_json_number_test_is_the_regular_expression(text: str) -> None:
    assert _is_json_number(text) == bool(NUMBER.fullmatch(text))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("0", 0),
        ("-0", 0),
        ("185.6", 185.6),
        ("1e3", 1000.0),
        ("01", None),
        ("1.", None),
        (" 7 ", 7),
        ("", None),
    ],
)
def test_numbers_sent_as_text(text: str, expected: float | None) -> None:
    assert number(text) == expected


def test_exit_codes_are_the_numbers_they_were() -> None:
    expected = {
        "OK": 0, "ERROR": 1, "USAGE": 2, "REMOTE": 3, "UNREACHABLE": 4, "TIMEOUT": 5, "PARTIAL": 6,
        "NOT_FOUND": 7, "THRESHOLD": 8, "INTERRUPTED": 130,
    }  # fmt: skip
    for name, value in expected.items():
        code = getattr(ExitCode, name)
        assert isinstance(code, ExitCode) and code == value and f"{code}" == str(value)
    assert sorted(DESCRIPTIONS) == sorted(expected.values())
    done = subprocess.run([sys.executable, "-c", "import sys; sys.exit(__import__('mqadmin.cli.exitcodes', "
                           "fromlist=['x']).ExitCode.NOT_FOUND)"], check=False)  # fmt: skip
    assert done.returncode == 7


# ---------------------------------------------------------------- Java's %f and String.format without re


def _old_java_f(x: float, decimals: int) -> str:
    """What java_f computed with ``decimal`` before (HALF_UP on the shortest repr)."""
    from decimal import ROUND_HALF_UP, Context, Decimal

    q = Decimal(repr(float(x))).quantize(Decimal(1).scaleb(-decimals), ROUND_HALF_UP, Context(prec=400))
    return format(q, "f")


@settings(max_examples=4000)
@given(
    st.one_of(
        st.floats(allow_nan=False, allow_infinity=False),
        st.integers(-(10**6), 10**6).map(lambda n: n / 1000),  # ties: 0.125, 1.005, -2.5
        st.sampled_from([0.0, -0.0, 0.125, 1.005, 2.5, -2.5, 1e-5, 5e-324, 1.7976931348623157e308]),
    ),
    st.integers(0, 12),
)
def test_java_f_is_half_up_on_the_shortest_decimal(x: float, decimals: int) -> None:
    assert java_f(x, decimals) == _old_java_f(x, decimals)


_SPEC = re.compile(r"%(-)?(0)?(\d+)?(?:\.(\d+))?([sdfn%])")


def _old_jformat(fmt: str, *args: object) -> str:
    """The regular-expression form of jformat (before), for comparison."""
    values = iter(args)

    def one(m: re.Match[str]) -> str:
        left, zero, width, prec, conv = m.groups()
        if conv == "n":
            return "\n"
        if conv == "%":
            return "%"
        v = next(values)
        spec = f"%{'-' if left else ''}{'0' if zero else ''}{int(width) if width else ''}"
        spec += f".{int(prec)}" if prec is not None else ""
        return jformat(spec + conv, v)  # one conversion alone: the same either way

    return _SPEC.sub(one, fmt)


@settings(max_examples=3000)
@given(st.text(alphabet="%-0159.sdfnx ٣", max_size=16))
def test_jformat_reads_formats_as_the_regular_expression(fmt: str) -> None:
    conversions = sum(1 for m in _SPEC.finditer(fmt) if m.group(5) not in "n%")
    args = [7] * conversions
    assert jformat(fmt, *args) == _old_jformat(fmt, *args)


def test_jformat_rows_as_java_prints_them() -> None:
    assert jformat("%-8s|%5d|%08.2f|%%|%n", "ab", 42, -3.14159) == "ab      |   42|-0003.14|%|\n"
    assert jformat("%.3s %s %s", "abcdef", None, True) == "abc null true"
    assert jformat("100% sure %d", 1) == "100% sure 1"


def test_heartbeat_lock_and_acl_bodies_compare_by_value_as_the_dataclasses_did() -> None:
    from mqadmin.protocol.bodies.message_queue import MessageQueue
    from mqadmin.protocol.headers.acl import PlainAccessConfig
    from mqadmin.protocol.headers.consumer import LockBatchRequestBody

    lock = LockBatchRequestBody("G", "c1", [MessageQueue("T", "a", 0)])
    assert lock == LockBatchRequestBody("G", "c1", [MessageQueue("T", "a", 0)])
    assert lock != LockBatchRequestBody("G", "c2", [MessageQueue("T", "a", 0)])
    assert PlainAccessConfig("ak", "sk", admin=True) == PlainAccessConfig("ak", "sk", admin=True)
    assert PlainAccessConfig("ak", "sk") != PlainAccessConfig("ak", "other")
    with pytest.raises(TypeError):
        hash(lock)  # mutable: unhashable, as before


def test_results_and_fan_out_results_compare_by_value_as_the_dataclasses_did() -> None:
    from mqadmin.admin.fanout import FanOutResult
    from mqadmin.cli.results import Plain

    assert Plain({"a": 1}, "done\n") == Plain({"a": 1}, "done\n") != Plain({"a": 2}, "done\n")
    assert FanOutResult({"k": 1}, {}, ["k"]) == FanOutResult({"k": 1}, {}, ["k"])
    assert FanOutResult({"k": 1}, {}, ["k"]) != FanOutResult({"k": 2}, {}, ["k"])
    with pytest.raises(TypeError):
        hash(FanOutResult())


def test_randbelow_is_uniform_over_its_range_and_refuses_an_empty_one() -> None:
    from mqadmin.lazyrandom import randbelow

    for n in (1, 2, 3, 7, 1 << 31, (1 << 32) + 5):
        assert all(0 <= randbelow(n) < n for _ in range(200))
    counts = [0] * 3
    for _ in range(3000):
        counts[randbelow(3)] += 1
    assert all(800 < c < 1200 for c in counts), counts  # about a third each
    for bad in (0, -1):
        with pytest.raises(ValueError):
            randbelow(bad)


def test_a_record_may_leave_fields_out_of_equality_and_repr_as_a_dataclass_field_may() -> None:
    from mqadmin.record import FrozenRecord

    class Point(FrozenRecord):
        __slots__ = ("label", "secret", "x")
        __match_args__ = ("x", "label", "secret")
        _compared_fields = ("x",)  # compare=False on label and secret
        _shown_fields = ("x", "label")  # repr=False on secret

        def __init__(self, x: int, label: str = "", secret: str = "") -> None:
            self.x, self.label, self.secret = x, label, secret

    class Point3(Point):  # a subclass declares its own, or compares and shows all its fields
        __slots__ = ("z",)
        __match_args__ = ("x", "label", "secret", "z")

        def __init__(self, x: int, label: str = "", secret: str = "", z: int = 0) -> None:
            super().__init__(x, label, secret)
            self.z = z

    assert Point(1, "a", "s") == Point(1, "b", "t") and hash(Point(1, "a")) == hash(Point(1, "b"))
    assert Point(1) != Point(2)
    assert repr(Point(1, "a", "s")).endswith(".Point(x=1, label='a')")
    assert Point(1, "a", "s").with_(x=2).secret == "s"
    assert Point3(1, "a", "s", 3) != Point3(1, "b", "s", 3)
    assert repr(Point3(1, "a", "s", 3)).endswith(".Point3(x=1, label='a', secret='s', z=3)")
