"""Java's text conventions, so default output matches the Java ``mqadmin`` byte for byte.

- ``%.Nf``: Java's ``Formatter`` rounds HALF_UP on the shortest decimal form of the double
  (``Double.toString`` digits), unlike C and Python (0.125 -> ``0.13``, 1.005 -> ``1.01``).
- ``%s`` of null is ``null``, of a boolean ``true``/``false``.
- ``JSON.toJSONString(bean, true)``: fastjson's pretty printer (tabs, bare numeric map keys, sets
  on one line), in :func:`fastjson_pretty`.
- ``HashMap.toString``: ``{k=v, k2=v2}``.
"""

from __future__ import annotations

import functools
import math
import re
import struct
from collections.abc import Iterable, Mapping
from typing import Any

from mqadmin.protocol.fastjson import java_string as jstr  # String.valueOf, under the short name
from mqadmin.protocol.fastjson import quote
from mqadmin.protocol.javacoll import java_string_sort_key

__all__ = [
    "Bean",
    "JavaSet",
    "fastjson_pretty",
    "front_string_at_least",
    "java_f",
    "java_list_string",
    "java_map_string",
    "jformat",
    "jstr",
    "to_float32",
]


def java_f(x: float, decimals: int, width: int = 0) -> str:
    """``String.format("%<width>.<decimals>f", x)`` as Java prints it: the shortest decimal form of the
    double (``repr``, as ``Double.toString``) rounded HALF_UP."""
    if math.isnan(x):
        text = "NaN"
    elif math.isinf(x):
        text = "Infinity" if x > 0 else "-Infinity"
    else:
        from decimal import ROUND_HALF_UP, Context, Decimal  # only a table with a %f column needs it

        shortest = Decimal(repr(float(x)))
        exact = Context(prec=shortest.adjusted() + decimals + 2 if shortest.adjusted() > 0 else decimals + 2)
        text = f"{shortest.quantize(Decimal(1).scaleb(-decimals), ROUND_HALF_UP, exact):f}"
    return text.rjust(width)


_Spec = tuple[bool, bool, int, "int | None", str]
"""One ``%`` conversion: left-justified, zero-padded, width, precision, conversion letter."""

_CONVERSION = re.compile(r"%(-)?(0)?(\d+)?(?:\.(\d+))?([sdfn%])")
"""One ``%`` conversion of a Java format; a ``%`` that does not start one stays text."""


@functools.cache
def _parse_format(fmt: str) -> tuple[str | _Spec, ...]:
    """``fmt`` as literal text and conversions (once per format)."""
    parsed: list[str | _Spec] = []
    text_from = 0
    for m in _CONVERSION.finditer(fmt):
        if m.start() > text_from:
            parsed.append(fmt[text_from : m.start()])
        left, zero, width, prec, conv = m.groups()
        parsed.append(
            (left is not None, zero is not None, int(width or 0), None if prec is None else int(prec), conv)
        )
        text_from = m.end()
    if text_from < len(fmt):
        parsed.append(fmt[text_from:])
    return tuple(parsed)


def jformat(fmt: str, *args: Any) -> str:
    """``String.format`` for what the tool uses: ``%s %d %f %n %%``, ``-``/``0`` flags, width, precision.

    Arguments print as Java prints them (``null``, ``true``); ``%f`` rounds as Java does (:func:`java_f`).
    """
    values = iter(args)

    def one(spec: _Spec) -> str:
        left, zero, w, prec, conv = spec
        if conv == "n":
            return "\n"
        if conv == "%":
            return "%"
        v = next(values)
        if conv == "f":
            text = java_f(float(v), 6 if prec is None else prec)
        elif conv == "d":
            text = str(int(v))
        else:
            text = jstr(v)
            if prec is not None:
                text = text[:prec]
        if left:
            return text.ljust(w)
        if zero and conv in "df":  # zero padding goes after the sign, as Java's does
            sign = text[:1] if text[:1] in "+-" else ""
            return sign + text[len(sign) :].rjust(w - len(sign), "0")
        return text.rjust(w)

    return "".join(part if isinstance(part, str) else one(part) for part in _parse_format(fmt))


def to_float32(x: float) -> float:
    """The value of a Java ``float`` (x rounded to single precision)."""
    try:
        return float(struct.unpack("<f", struct.pack("<f", x))[0])
    except OverflowError:
        return math.copysign(math.inf, x)


def front_string_at_least(s: str | None, size: int) -> str | None:
    """``UtilAll.frontStringAtLeast``: at most ``size`` characters (null stays null)."""
    if s is None:
        return None
    return s[:size]


def java_list_string(items: Iterable[Any] | None) -> str:
    """``AbstractCollection.toString``: ``[a, b]``; ``null`` for a null list."""
    return "null" if items is None else "[" + ", ".join(jstr(v) for v in items) + "]"


def java_map_string(items: Iterable[tuple[Any, Any]]) -> str:
    """``AbstractMap.toString``: ``{k=v, k2=v2}``."""
    return "{" + ", ".join(f"{jstr(k)}={jstr(v)}" for k, v in items) + "}"


# ----------------------------------------------------------------------------------- fastjson pretty


class Bean(dict[str, Any]):
    """A Java bean's properties: written sorted by name, null properties left out."""


class JavaSet(list[Any]):
    """A Java ``Set``: fastjson's pretty printer writes it on one line."""


def fastjson_pretty(value: Any) -> str:
    """``JSON.toJSONString(value, true)`` of beans, lists, sets and maps (see the classes above)."""
    out: list[str] = []
    _pretty(value, 0, out)
    return "".join(out)


def _nl(level: int) -> str:
    return "\n" + "\t" * level


def _pretty(v: Any, level: int, out: list[str]) -> None:
    if isinstance(v, Bean):
        out.append("{")
        props = _bean_props(v)
        out.append(_nl(level + 1))
        for i, (k, x) in enumerate(props):
            if i:
                out.append("," + _nl(level + 1))
            out.append(quote(k) + ":")
            _pretty(x, level + 1, out)
        out.append(_nl(level) + "}")
    elif isinstance(v, JavaSet):
        out.append(_compact(list(v)))
    elif isinstance(v, Mapping):
        if not v:
            out.append("{}")
            return
        out.append("{")
        first = True
        for k, x in v.items():
            if x is None:
                continue
            if not first:
                out.append(",")
            first = False
            if isinstance(k, str):
                out.append(_nl(level + 1) + quote(k) + ":")
            else:
                out.append(jstr(k) + ":")
            _pretty(x, level + 1, out)
        out.append(_nl(level) + "}")
    elif isinstance(v, list | tuple):
        if not v:
            out.append("[]")
            return
        out.append("[")
        for i, x in enumerate(v):
            if i:
                out.append(",")
            out.append(_nl(level + 1))
            if x is None:
                out.append("null")
            else:
                _pretty(x, level + 1, out)
        out.append(_nl(level) + "]")
    else:
        out.append(_scalar(v))


def _bean_props(bean: Bean) -> list[tuple[str, Any]]:
    """A bean's non-null properties, sorted by name as fastjson writes them."""
    return [(k, bean[k]) for k in sorted(bean, key=java_string_sort_key) if bean[k] is not None]


def _scalar(v: Any) -> str:
    return quote(v) if isinstance(v, str) else jstr(v)


def _compact(v: Any) -> str:
    if isinstance(v, Bean):
        props = _bean_props(v)
        return "{" + ",".join(quote(k) + ":" + _compact(x) for k, x in props) + "}"
    if isinstance(v, Mapping):
        parts = []
        for k, x in v.items():
            if x is None:
                continue
            key = quote(k) if isinstance(k, str) else jstr(k)
            parts.append(key + ":" + _compact(x))
        return "{" + ",".join(parts) + "}"
    if isinstance(v, list | tuple):
        return "[" + ",".join(_compact(x) for x in v) + "]"
    return _scalar(v)


def fastjson_compact(value: Any) -> str:
    """``JSON.toJSONString(value, false)`` with the same bean/set/map conventions."""
    return _compact(value)
