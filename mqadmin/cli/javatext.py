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

from mqadmin.lazyre import LazyPattern
from mqadmin.protocol.fastjson import java_string as jstr  # String.valueOf, under the short name
from mqadmin.protocol.fastjson import quote
from mqadmin.protocol.javacoll import java_string_sort_key

TYPE_CHECKING = False
if TYPE_CHECKING:
    import re
    from collections.abc import Iterable
    from decimal import Context
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


_DECIMALS: list[Context] = []


def _decimals() -> Context:
    """A 400-digit decimal context, made once (here: most commands print no fixed-point number)."""
    if not _DECIMALS:
        from decimal import Context

        _DECIMALS.append(Context(prec=400))
    return _DECIMALS[0]


def java_f(x: float, decimals: int, width: int = 0) -> str:
    """``String.format("%<width>.<decimals>f", x)`` as Java prints it."""
    if math.isnan(x):
        text = "NaN"
    elif math.isinf(x):
        text = "Infinity" if x > 0 else "-Infinity"
    else:
        from decimal import ROUND_HALF_UP, Decimal

        q = Decimal(repr(float(x))).quantize(Decimal(1).scaleb(-decimals), ROUND_HALF_UP, _decimals())
        text = format(q, "f")
    return text.rjust(width)


_SPEC = LazyPattern(r"%(-)?(0)?(\d+)?(?:\.(\d+))?([sdfn%])")


def jformat(fmt: str, *args: Any) -> str:
    """``String.format`` for what the tool uses: ``%s %d %f %n %%``, ``-``/``0`` flags, width, precision.

    Arguments print as Java prints them (``null``, ``true``); ``%f`` rounds as Java does (:func:`java_f`).
    """
    values = iter(args)

    def one(m: re.Match[str]) -> str:
        left, zero, width, prec, conv = m.groups()
        if conv == "n":
            return "\n"
        if conv == "%":
            return "%"
        v = next(values)
        if conv == "f":
            text = java_f(float(v), 6 if prec is None else int(prec))
        elif conv == "d":
            text = str(int(v))
        else:
            text = jstr(v)
            if prec is not None:
                text = text[: int(prec)]
        w = int(width or 0)
        if left:
            return text.ljust(w)
        if zero and conv in "df":  # zero padding goes after the sign, as Java's does
            sign = text[:1] if text[:1] in "+-" else ""
            return sign + text[len(sign) :].rjust(w - len(sign), "0")
        return text.rjust(w)

    return _SPEC.sub(one, fmt)


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
