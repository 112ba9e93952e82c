"""fastjson-compatible JSON: what the Java side of RocketMQ reads and writes.

fastjson (the Java library RocketMQ uses) departs from standard JSON in ways the wire shows:

- map keys that are numbers are written unquoted (``{0:"127.0.0.1:10911"}``);
- maps keyed by whole objects are written with the object as the key
  (``{{"brokerName":"a","queueId":0,"topic":"T"}:{...}}``);
- bean fields come out sorted by name, ``null`` fields and null map values are omitted;
- ``HashMap`` contents come out in Java's hash-bucket order, not insertion order.

The reader accepts all of that and returns plain Python values: dicts whose keys are ``str`` for
quoted keys, ``int`` for unquoted numeric keys and :class:`ObjectKey` for object keys. The writer
takes the same values back: a dict is written in its own order (callers put maps in Java order with
:func:`java_hash_order`), ``int`` keys unquoted in the legacy form and quoted in the standard form.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable, Iterator, Mapping
from decimal import Decimal
from typing import Any

from mqadmin.protocol.errors import ProtocolError
from mqadmin.protocol.javacoll import java_hash_dict, java_hash_order, java_string_hash

__all__ = [
    "ObjectKey",
    "dumps",
    "java_double",
    "java_hash_dict",
    "java_hash_order",
    "java_string_hash",
    "loads",
]


class ObjectKey(Mapping[str, Any]):
    """An immutable JSON object used as a map key (fastjson's ``{{...}:value}``)."""

    __slots__ = ("_hash", "_items")

    def __init__(self, items: Mapping[str, Any] | Iterable[tuple[str, Any]]) -> None:
        pairs = tuple(items.items()) if isinstance(items, Mapping) else tuple(items)
        self._items = dict(pairs)
        self._hash = hash(tuple(sorted((k, _freeze(v)) for k, v in pairs)))

    def __getitem__(self, key: str) -> Any:
        return self._items[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        if isinstance(other, ObjectKey):
            return self._items == other._items
        return NotImplemented

    def __repr__(self) -> str:
        return f"ObjectKey({self._items!r})"


def _freeze(v: Any) -> Any:
    if isinstance(v, dict):
        return tuple(sorted((str(k), _freeze(x)) for k, x in v.items()))
    if isinstance(v, list):
        return tuple(_freeze(x) for x in v)
    return v


# --------------------------------------------------------------------------------------------- reading

_WS = frozenset(" \t\r\n\f\b")
_NUMBER = re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?[LFDlfd]?")
_MAX_DEPTH = 512


def loads(data: bytes | str) -> Any:
    """Parse fastjson output (or standard JSON). Malformed input raises :class:`ProtocolError`."""
    if isinstance(data, bytes | bytearray | memoryview):
        try:
            text = bytes(data).decode("utf-8")
        except UnicodeDecodeError as e:
            raise ProtocolError(f"JSON body is not UTF-8: {e}") from None
    else:
        text = data
    try:
        return json.loads(text)  # the C parser handles every standard document fast
    except (ValueError, RecursionError):
        pass
    parser = _Parser(text)
    try:
        value = parser.value(0)
        parser.skip_ws()
    except (IndexError, RecursionError):
        raise ProtocolError("truncated JSON") from None
    if parser.pos != len(text):
        raise ProtocolError(f"trailing data in JSON at offset {parser.pos}")
    return value


class _Parser:
    __slots__ = ("pos", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0

    def skip_ws(self) -> None:
        text, pos, n = self.text, self.pos, len(self.text)
        while pos < n and text[pos] in _WS:
            pos += 1
        self.pos = pos

    def fail(self, what: str) -> ProtocolError:
        return ProtocolError(f"bad JSON at offset {self.pos}: {what}")

    def value(self, depth: int) -> Any:
        if depth > _MAX_DEPTH:
            raise self.fail("nested too deeply")
        self.skip_ws()
        if self.pos >= len(self.text):
            raise self.fail("unexpected end")
        c = self.text[self.pos]
        if c == "{":
            return self.obj(depth)
        if c == "[":
            return self.arr(depth)
        if c == '"' or c == "'":
            return self.string()
        if c == "-" or c.isdigit():
            return self.number()
        for word, val in (("true", True), ("false", False), ("null", None)):
            if self.text.startswith(word, self.pos):
                self.pos += len(word)
                return val
        raise self.fail(f"unexpected {c!r}")

    def obj(self, depth: int) -> dict[Any, Any]:
        self.pos += 1
        out: dict[Any, Any] = {}
        self.skip_ws()
        if self.text[self.pos] == "}":
            self.pos += 1
            return out
        while True:
            self.skip_ws()
            c = self.text[self.pos]
            if c == '"' or c == "'":
                key: Any = self.string()
            elif c == "{":
                key = ObjectKey(self.obj(depth + 1))
            elif c == "-" or c.isdigit():
                key = self.number()
                if not isinstance(key, int):
                    raise self.fail("non-integer numeric key")
            elif c.isalpha() or c == "_" or c == "$":
                start = self.pos
                text = self.text
                while self.pos < len(text) and (text[self.pos].isalnum() or text[self.pos] in "_$"):
                    self.pos += 1
                key = text[start : self.pos]
            else:
                raise self.fail(f"bad key start {c!r}")
            self.skip_ws()
            if self.text[self.pos] != ":":
                raise self.fail("expected ':'")
            self.pos += 1
            out[key] = self.value(depth + 1)
            self.skip_ws()
            c = self.text[self.pos]
            self.pos += 1
            if c == "}":
                return out
            if c != ",":
                raise self.fail("expected ',' or '}'")

    def arr(self, depth: int) -> list[Any]:
        self.pos += 1
        out: list[Any] = []
        self.skip_ws()
        if self.text[self.pos] == "]":
            self.pos += 1
            return out
        while True:
            out.append(self.value(depth + 1))
            self.skip_ws()
            c = self.text[self.pos]
            self.pos += 1
            if c == "]":
                return out
            if c != ",":
                raise self.fail("expected ',' or ']'")

    def string(self) -> str:
        quote = self.text[self.pos]
        if quote == '"':
            try:
                s, end = json.decoder.scanstring(self.text, self.pos + 1)  # type: ignore[attr-defined]
            except ValueError as e:
                raise self.fail(str(e)) from None
            self.pos = end
            return s
        end = self.text.find("'", self.pos + 1)
        if end < 0:
            raise self.fail("unterminated string")
        s = self.text[self.pos + 1 : end]
        self.pos = end + 1
        return s

    def number(self) -> int | float:
        m = _NUMBER.match(self.text, self.pos)
        if not m:
            raise self.fail("bad number")
        self.pos = m.end()
        tok = m.group(0).rstrip("LFDlfd")
        if "." in tok or "e" in tok or "E" in tok:
            return float(tok)
        return int(tok)


# --------------------------------------------------------------------------------------------- writing

_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t"}
_NEEDS_ESCAPE = re.compile(r'["\\\x00-\x1f\x7f-\x9f\u2028\u2029]')


def _escape_char(m: re.Match[str]) -> str:
    c = m.group(0)
    return _ESCAPES.get(c) or f"\\u{ord(c):04X}"


def quote(s: str) -> str:
    """A JSON string literal as fastjson writes it (UTF-8 kept, control characters escaped)."""
    if _NEEDS_ESCAPE.search(s) is None:
        return f'"{s}"'
    return '"' + _NEEDS_ESCAPE.sub(_escape_char, s) + '"'


def java_double(x: float) -> str:
    """``Double.toString``: ``0.0``, ``0.04``, ``1.0E-4``, ``1.2345678E7``, ``NaN``, ``Infinity``."""
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "Infinity" if x > 0 else "-Infinity"
    if x == 0:
        return "-0.0" if math.copysign(1.0, x) < 0 else "0.0"
    sign = "-" if x < 0 else ""
    _, digits_t, exp = Decimal(repr(abs(x))).as_tuple()
    digits = "".join(map(str, digits_t)).rstrip("0") or "0"
    sci = len(digits_t) - 1 + int(exp)  # decimal exponent of the first digit
    if -3 <= sci < 7:
        if sci >= 0:
            whole = digits[: sci + 1].ljust(sci + 1, "0")
            frac = digits[sci + 1 :] or "0"
        else:
            whole, frac = "0", "0" * (-sci - 1) + digits
        return f"{sign}{whole}.{frac}"
    return f"{sign}{digits[0]}.{digits[1:] or '0'}E{sci}"


def dumps(value: Any, *, standard: bool = False) -> str:
    """Compact fastjson text. ``standard=True`` quotes non-string keys (valid JSON)."""
    out: list[str] = []
    _write(value, out, standard)
    return "".join(out)


def _write_key(key: Any, out: list[str], standard: bool) -> None:
    if isinstance(key, str):
        out.append(quote(key))
    elif isinstance(key, bool):
        out.append(f'"{str(key).lower()}"' if standard else str(key).lower())
    elif isinstance(key, int):
        out.append(f'"{key}"' if standard else str(key))
    elif isinstance(key, ObjectKey):
        if standard:
            out.append(quote(dumps(dict(key), standard=True)))
        else:
            _write(dict(key), out, standard)
    else:
        raise TypeError(f"unsupported JSON key type {type(key).__name__}")


def _write(v: Any, out: list[str], standard: bool) -> None:
    if isinstance(v, str):
        out.append(quote(v))
    elif v is True:
        out.append("true")
    elif v is False:
        out.append("false")
    elif isinstance(v, int):
        out.append(str(v))
    elif isinstance(v, float):
        out.append(java_double(v) if math.isfinite(v) else "null")  # fastjson writes NaN as null
    elif isinstance(v, Mapping):
        out.append("{")
        first = True
        for k, x in v.items():
            if x is None:
                continue
            if not first:
                out.append(",")
            first = False
            _write_key(k, out, standard)
            out.append(":")
            _write(x, out, standard)
        out.append("}")
    elif isinstance(v, list | tuple):
        out.append("[")
        for i, x in enumerate(v):
            if i:
                out.append(",")
            if x is None:
                out.append("null")
            else:
                _write(x, out, standard)
        out.append("]")
    elif hasattr(v, "to_json_obj"):
        _write(v.to_json_obj(), out, standard)
    elif v is None:
        out.append("null")
    else:
        raise TypeError(f"cannot write {type(v).__name__} as JSON")
