"""Java's scalar parsing, in one place: ``Integer.parseInt``, ``Long.parseLong``, ``Boolean.parseBoolean``.

Every number or flag that arrives as text (a request header's ext field, a config property, a CLI
option with Java semantics) is read here, so a value the Java side would refuse is refused the same
way everywhere, with the ``NumberFormatException`` text Java puts in its remark.
"""

from __future__ import annotations

import re

__all__ = [
    "INT_MAX",
    "INT_MIN",
    "LONG_MAX",
    "LONG_MIN",
    "JavaNumberError",
    "parse_bool",
    "parse_double",
    "parse_int",
    "parse_long",
]

INT_MIN, INT_MAX = -(1 << 31), (1 << 31) - 1
LONG_MIN, LONG_MAX = -(1 << 63), (1 << 63) - 1

_DOUBLE = re.compile(r"[+-]?(?:NaN|Infinity|(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?[dDfF]?)")
"""Double.parseDouble's syntax (trimmed): a decimal, optional exponent and d/f suffix, or
NaN/Infinity."""


class JavaNumberError(ValueError):
    """Text Java's parser refuses; ``str()`` is the ``NumberFormatException`` as Java prints it."""

    def __init__(self, text: str | None) -> None:
        self.text = text
        super().__init__(
            "java.lang.NumberFormatException: " + ("null" if text is None else f'For input string: "{text}"')
        )


def _integer(text: str | None, lo: int, hi: int) -> int:
    if text is None:
        raise JavaNumberError(text)
    if len(text) < 10 and text.isdigit() and text.isascii():  # the usual small unsigned decimal
        return int(text)
    digits = text[1:] if text[:1] in ("+", "-") else text
    if not (digits.isascii() and digits.isdigit()):  # [+-]?[0-9]+ (ASCII digits are only 0-9)
        raise JavaNumberError(text)
    n = int(text)
    if not lo <= n <= hi:
        raise JavaNumberError(text)
    return n


def parse_int(text: str | None) -> int:
    """``Integer.parseInt``: an optional sign and ASCII digits, in 32-bit range (null is refused)."""
    return _integer(text, INT_MIN, INT_MAX)


def parse_long(text: str | None) -> int:
    """``Long.parseLong``: an optional sign and ASCII digits, in 64-bit range (null is refused)."""
    return _integer(text, LONG_MIN, LONG_MAX)


def parse_bool(text: str | None) -> bool:
    """``Boolean.parseBoolean``: true only for "true" in any case; anything else (a JSON 1) is false."""
    return text is not None and text.lower() == "true"


def _ascii_digits(s: str) -> bool:
    """``s`` is empty or only 0-9."""
    return not s or (s.isascii() and s.isdigit())


def parse_double(text: str | None) -> float:
    """``Double.parseDouble`` for the decimal forms Java accepts (leading/trailing blanks trimmed)."""
    if text is None:
        raise JavaNumberError(None)
    t = text.strip(" \t\n\r\f\v\x00")
    whole, _, fraction = (t[1:] if t[:1] in ("+", "-") else t).partition(".")
    if (whole or fraction) and _ascii_digits(whole) and _ascii_digits(fraction):
        return float(t)  # the usual plain decimal (a broker's rates, ratios), read without re
    if not _DOUBLE.fullmatch(t):
        raise JavaNumberError(text)
    if t.lstrip("+-") == "Infinity":
        return float(t.replace("Infinity", "inf"))
    return float(t.rstrip("dDfF"))
