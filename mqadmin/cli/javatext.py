"""Java's text conventions, so default output matches the Java ``mqadmin`` byte for byte.

- ``%.Nf``: Java's ``Formatter`` rounds HALF_UP on the shortest decimal form of the double
  (``Double.toString`` digits), unlike C and Python (0.125 -> ``0.13``, 1.005 -> ``1.01``).
- ``%s`` of null is ``null``, of a boolean ``true``/``false``.
- ``JSON.toJSONString(bean, true)``: fastjson's pretty printer (tabs, bare numeric map keys, sets
  on one line), in :func:`fastjson_pretty`.
- ``HashMap.toString``: ``{k=v, k2=v2}``.
"""

from __future__ import annotations

import math
import struct
from _collections_abc import Mapping  # collections.abc's, without importing collections (start-up)

from mqadmin.protocol.fastjson import java_string as jstr  # String.valueOf, under the short name
from mqadmin.protocol.fastjson import quote
from mqadmin.protocol.javacoll import java_string_sort_key

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import Any

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
    double (``repr``, as ``Double.toString``) rounded HALF_UP, in integers (no ``decimal``: start-up)."""
    if math.isnan(x):
        text = "NaN"
    elif math.isinf(x):
        text = "Infinity" if x > 0 else "-Infinity"
    else:
        shortest = repr(float(x))
        sign = "-" if shortest.startswith("-") else ""
        mantissa, _, exponent = shortest.lstrip("-").partition("e")
        whole, _, fraction = mantissa.partition(".")
        digits = int(whole + fraction)  # the value is digits * 10**-scale
        scale = len(fraction) - int(exponent or 0)
        if scale <= decimals:  # exact: the digits, then zeros (as text: any precision, no int limit)
            text = str(digits) + "0" * (decimals - scale)
        else:
            unit = 10 ** (scale - decimals)
            q, rest = divmod(digits, unit)
            q += 2 * rest >= unit  # HALF_UP: a tie rounds away from zero
            text = str(q)
        if decimals:
            text = text.rjust(decimals + 1, "0")
            text = f"{text[:-decimals]}.{text[-decimals:]}"
        text = sign + text
    return text.rjust(width)


_Spec = tuple[bool, bool, int, "int | None", str]
"""One ``%`` conversion: left-justified, zero-padded, width, precision, conversion letter."""

_FORMATS: dict[str, list[str | _Spec]] = {}


def _parse_format(fmt: str) -> list[str | _Spec]:
    r"""``fmt`` as literal text and conversions: ``%(-)?(0)?(\d+)?(\.\d+)?[sdfn%]``; a ``%`` that does
    not start one stays text (read without ``re``, once per format)."""
    parsed = _FORMATS.get(fmt)
    if parsed is not None:
        return parsed
    parsed = []
    text_from = i = 0
    n = len(fmt)
    while True:
        i = fmt.find("%", i)
        if i < 0:
            break
        j = i + 1
        left = fmt.startswith("-", j)
        j += left
        zero = fmt.startswith("0", j)
        j += zero
        k = j
        while k < n and fmt[k].isdecimal():
            k += 1
        width = int(fmt[j:k]) if k > j else 0
        prec: int | None = None
        if fmt.startswith(".", k) and k + 1 < n and fmt[k + 1].isdecimal():
            m = k + 1
            while m < n and fmt[m].isdecimal():
                m += 1
            prec = int(fmt[k + 1 : m])
            k = m
        if k < n and fmt[k] in "sdfn%":
            if i > text_from:
                parsed.append(fmt[text_from:i])
            parsed.append((left, zero, width, prec, fmt[k]))
            i = text_from = k + 1
        else:
            i += 1
    if text_from < n:
        parsed.append(fmt[text_from:])
    _FORMATS[fmt] = parsed
    return parsed


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


if TYPE_CHECKING:
    _BeanBase = dict[str, Any]
    _SetBase = list[Any]
else:  # no typing at run time (start-up): the bases without their parameters
    _BeanBase = dict
    _SetBase = list


class Bean(_BeanBase):
    """A Java bean's properties: written sorted by name, null properties left out."""


class JavaSet(_SetBase):
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
