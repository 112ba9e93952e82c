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
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any

from mqadmin.protocol.errors import ProtocolError
from mqadmin.protocol.javacoll import java_hash_dict, java_hash_order, java_string_hash, tree_ordered
from mqadmin.protocol.names import bad_text

__all__ = [
    "ObjectKey",
    "browser_dumps",
    "browser_quote",
    "dumps",
    "java_double",
    "java_hash_dict",
    "java_hash_order",
    "java_string",
    "java_string_hash",
    "loads",
    "quote",
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
_MAX_DEPTH = 512

# ----------------------------------------------------------------------------------- standard JSON
#
# Standard JSON is read by json's own decoder (its C scanner): the same parser with the same
# settings, so the same values. fastjson's syntax is tried only where it refuses.


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON value")


_DECODER = json.JSONDecoder()
"""``json.loads``'s decoder (NaN and Infinity read as floats)."""
_STRICT_DECODER = json.JSONDecoder(parse_constant=_no_constant)
"""The same refusing NaN and Infinity (``parse_constant`` raises ValueError)."""


def scan(text: str, pos: int, *, constants: bool = True) -> tuple[Any, int]:
    """The standard JSON value at ``pos`` and where it ends (``JSONDecoder.raw_decode``): a
    JSONDecodeError where there is none or a bad one; ``constants=False`` refuses NaN and Infinity
    with a plain ValueError."""
    decoder = _DECODER if constants else _STRICT_DECODER
    return decoder.raw_decode(text, pos)


def _standard_value(text: str, pos: int) -> tuple[Any, int]:
    """The standard JSON value at ``pos``, NaN and Infinity refused (fastjson's parser hands off
    whole objects to it)."""
    return _STRICT_DECODER.raw_decode(text, pos)


def scanstring(text: str, start: int) -> tuple[str, int]:
    """The standard JSON string whose opening quote is at ``start``, and where it ends."""
    value, end = _DECODER.raw_decode(text, start)
    return value, end


_JSON_WS = " \t\n\r"


def standard_loads(text: str) -> Any:
    """``json.loads(text)`` for a ``str``: the same value for every document json reads; for one it
    refuses a ValueError (json's own JSONDecodeError, with its message) or RecursionError."""
    return json.loads(text)


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
        value = _standard_or_fail(text)  # the C parser handles every standard document fast
    except (ValueError, RecursionError):
        value = _parse_fastjson(text)
    if "\\u" in text or "\x00" in text:  # only an escape (or a raw NUL) can make a bad string
        _check_strings(value)
    return value


class _NotStandard(ValueError):
    """The text is not one standard JSON document (why does not matter: fastjson's parser reads it)."""


def _standard_or_fail(text: str) -> Any:
    """:func:`standard_loads` without json's error message: a refusal here needs none (fastjson's
    legacy route body ``{0:"..."}`` is refused every time)."""
    if text.startswith("\ufeff"):
        return standard_loads(text)
    start = len(text) - len(text.lstrip(_JSON_WS))
    try:
        value, end = _DECODER.raw_decode(text, start)
    except ValueError:
        raise _NotStandard from None
    if text[end:].lstrip(_JSON_WS):
        raise _NotStandard
    return value


def _parse_fastjson(text: str) -> Any:
    """What the C parser refused: fastjson's own syntax (unquoted keys, object keys, ...)."""
    parser = _Parser(text)
    try:
        value = parser.value(0)
        parser.skip_ws()
    except (IndexError, RecursionError):
        raise ProtocolError("truncated JSON") from None
    if parser.pos != len(text):
        raise ProtocolError(f"trailing data in JSON at offset {parser.pos}")
    return value


def _check_strings(value: Any) -> None:
    """Refuse a document holding a string that cannot be kept: a lone surrogate or a NUL."""
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, str):
            why = bad_text(v)
            if why is not None:
                raise ProtocolError(f"a JSON string {why}")
        elif isinstance(v, dict):
            stack.extend(v.keys())
            stack.extend(v.values())
        elif isinstance(v, list | tuple):
            stack.extend(v)


class _Parser:
    """fastjson's syntax, one character at a time where it must. The keys of a map keyed by objects,
    and their values (a ConsumeStats' offset table: most of a large body), are standard JSON in what
    RocketMQ sends and go to the C decoder whole. An attempt that fails leaves where it failed in
    ``retry_from`` and none starts before that again, so the C decoder's reads across failed attempts
    add up to the text at most once."""

    __slots__ = ("pos", "retry_from", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0
        self.retry_from = 0

    def standard(self) -> tuple[bool, Any]:
        """(True, the value) when the object or array at ``pos`` is standard JSON, read at C speed (a
        scalar is not tried: fastjson's ``12L`` would read as 12 with the ``L`` left over)."""
        if self.pos < self.retry_from or self.text[self.pos] not in "{[":
            return False, None
        try:
            value, self.pos = _standard_value(self.text, self.pos)
        except ValueError as e:  # a JSONDecodeError says where; NaN or Infinity does not
            pos = getattr(e, "pos", None)
            self.retry_from = len(self.text) if pos is None else pos
            return False, None
        except RecursionError:
            self.retry_from = len(self.text)
            return False, None
        return True, value

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
                done, standard = self.standard()
                key = ObjectKey(standard if done else self.obj(depth + 1))
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
            if type(key) is ObjectKey:
                self.skip_ws()
                done, value = self.standard()
                out[key] = value if done else self.value(depth + 1)
            else:
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
                s, end = scanstring(self.text, self.pos)
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
        """``-?(?:0|[1-9]\\d*)(?:\\.\\d+)?(?:[eE][+-]?\\d+)?[LFDlfd]?`` at ``pos``, by hand (no ``re``);
        ``\\d`` is any Unicode decimal digit, as in a ``str`` regex."""
        text, start, n = self.text, self.pos, len(self.text)
        i = start
        if i < n and text[i] == "-":
            i += 1
        if i < n and text[i] == "0":
            i += 1
        elif i < n and "1" <= text[i] <= "9":
            i += 1
            while i < n and text[i].isdecimal():
                i += 1
        else:
            raise self.fail("bad number")
        is_float = False
        if i + 1 < n and text[i] == "." and text[i + 1].isdecimal():
            i += 2
            while i < n and text[i].isdecimal():
                i += 1
            is_float = True
        if i < n and text[i] in "eE":
            j = i + 1
            if j < n and text[j] in "+-":
                j += 1
            if j < n and text[j].isdecimal():
                j += 1
                while j < n and text[j].isdecimal():
                    j += 1
                i = j
                is_float = True
        tok = text[start:i]
        if i < n and text[i] in "LFDlfd":
            i += 1
        self.pos = i
        return float(tok) if is_float else int(tok)


# --------------------------------------------------------------------------------------------- writing

_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t"}
_ESCAPED = {
    code: _ESCAPES.get(chr(code)) or f"\\u{code:04X}"
    for code in (0x22, 0x5C, *range(0x20), *range(0x7F, 0xA0), 0x2028, 0x2029)
}
"""What fastjson escapes, as a ``str.translate`` table: ``"``, ``\\``, the C0 and C1 controls and
U+2028/U+2029. Printable ASCII without ``"`` or ``\\`` (names, addresses, numbers) never needs it.
The surrogates are escaped too (:func:`_escape_surrogates`): a lone one cannot be written as UTF-8,
so any string (even one a server is about to refuse, or a remark quoting it) can always be encoded."""


def _escape_surrogates(s: str) -> str:
    return "".join(f"\\u{ord(c):04X}" if "\ud800" <= c <= "\udfff" else c for c in s)


def _memo_quote(make: Callable[[str], str]) -> Callable[[str], str]:
    """A string quoter with a small cache: bodies and headers repeat the same names and addresses.

    Only short strings are kept, and the cache starts over when full.
    """
    cache: dict[str, str] = {}

    def quoted(s: str) -> str:
        out = cache.get(s)
        if out is None:
            out = make(s)
            if len(s) <= 256:
                if len(cache) >= 4096:
                    cache.clear()
                cache[s] = out
        return out

    quoted.__name__ = make.__name__
    quoted.__qualname__ = make.__qualname__
    quoted.__doc__ = make.__doc__
    quoted.__wrapped__ = make  # type: ignore[attr-defined]
    return quoted


@_memo_quote
def quote(s: str) -> str:
    """A JSON string literal as fastjson writes it (UTF-8 kept, control characters escaped)."""
    if s.isascii() and s.isprintable() and '"' not in s and "\\" not in s:
        return f'"{s}"'  # nothing to escape (the usual case: no regex)
    out = s.translate(_ESCAPED)
    if not out.isascii():
        try:
            out.encode()
        except UnicodeEncodeError:  # a lone surrogate
            out = _escape_surrogates(out)
    return '"' + out + '"'


_INF = float("inf")


def java_double(x: float) -> str:
    """``Double.toString``: ``0.0``, ``0.04``, ``1.0E-4``, ``1.2345678E7``, ``NaN``, ``Infinity``."""
    if math.isnan(x):
        return "NaN"
    if x == _INF or x == -_INF:
        return "Infinity" if x > 0 else "-Infinity"
    if x == 0:
        return "-0.0" if repr(x)[0] == "-" else "0.0"
    from decimal import Decimal  # only a double written to JSON needs it, not a command that reads

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


def java_string(v: Any) -> str:
    """``String.valueOf`` of a scalar: ``null``, ``true``/``false``, doubles as :func:`java_double`."""
    if v is None:
        return "null"
    if v is True:
        return "true"
    if v is False:
        return "false"
    if isinstance(v, float):
        return java_double(v)
    return str(v)


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


_Writer = Callable[[Any, list[str], Any], None]
"""Writes a value (or a key) to ``out``; the last argument is the writer's option, passed down."""


def _write_object(
    entries: Iterable[tuple[Any, Any]], out: list[str], key: _Writer, value: _Writer, opt: Any
) -> None:
    """A JSON object of ``entries`` in their order; fastjson leaves out entries whose value is null."""
    out.append("{")
    first = True
    for k, x in entries:
        if x is None:
            continue
        if not first:
            out.append(",")
        first = False
        key(k, out, opt)
        out.append(":")
        value(x, out, opt)
    out.append("}")


def _write_array(items: Iterable[Any], out: list[str], value: _Writer, opt: Any) -> None:
    """A JSON array; null elements are written as ``null``."""
    out.append("[")
    for i, x in enumerate(items):
        if i:
            out.append(",")
        if x is None:
            out.append("null")
        else:
            value(x, out, opt)
    out.append("]")


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
        # v - v is 0.0 for a finite v, NaN for NaN and the infinities: fastjson writes those as null
        out.append(java_double(v) if v - v == 0.0 else "null")
    elif isinstance(v, Mapping):
        _write_object(v.items(), out, _write_key, _write, standard)
    elif isinstance(v, list | tuple):
        _write_array(v, out, _write, standard)
    elif hasattr(v, "to_json_obj"):
        _write(v.to_json_obj(), out, standard)
    elif v is None:
        out.append("null")
    else:
        raise TypeError(f"cannot write {type(v).__name__} as JSON")


# ------------------------------------------------------------------------------- browser-safe JSON
#
# The name server answers a route query from a client of version >= V4_9_4 (ordinal 401), or one
# that sets acceptStandardJsonOnly, with fastjson features BrowserCompatible and MapSortField:
# non-string map keys are quoted, every map is written sorted (TreeMap order), and strings escape
# '/', control characters and everything from U+007F up as \uXXXX (upper-case hex, per UTF-16
# unit). Longs beyond +-(2^53 - 1) are written as strings.

_BROWSER_UNSAFE_ASCII = '"/\\'
"""Printable ASCII that ``BrowserCompatible`` escapes; the rest of it (``[ !#-.0-\\[\\]-~]``) is
written as is."""
_BROWSER_SHORT = {
    '"': '\\"',
    "\\": "\\\\",
    "/": "\\/",
    "\b": "\\b",
    "\f": "\\f",
    "\n": "\\n",
    "\r": "\\r",
    "\t": "\\t",
}


@_memo_quote
def browser_quote(s: str) -> str:
    """A string literal as fastjson writes it with ``BrowserCompatible``."""
    if s.isascii() and s.isprintable() and '"' not in s and "/" not in s and "\\" not in s:
        return f'"{s}"'
    parts = ['"']
    for ch in s:
        if " " <= ch <= "~" and ch not in _BROWSER_UNSAFE_ASCII:
            parts.append(ch)
            continue
        short = _BROWSER_SHORT.get(ch)
        if short is not None:
            parts.append(short)
            continue
        c = ord(ch)
        if c >= 0x10000:
            c -= 0x10000
            parts.append(f"\\u{0xD800 + (c >> 10):04X}\\u{0xDC00 + (c & 0x3FF):04X}")
        else:
            parts.append(f"\\u{c:04X}")
    parts.append('"')
    return "".join(parts)


_SAFE_LONG = (1 << 53) - 1


def browser_dumps(value: Any) -> str:
    """fastjson ``BrowserCompatible`` + ``MapSortField`` text of a JSON value (nulls omitted in maps)."""
    out: list[str] = []
    _bwrite(value, out, None)
    return "".join(out)


def _browser_key(k: Any, out: list[str], _: None) -> None:
    out.append(browser_quote(k if type(k) is str else str(k)))


def _bwrite(v: Any, out: list[str], _: None) -> None:
    if type(v) is str:
        out.append(browser_quote(v))
    elif v is True:
        out.append("true")
    elif v is False:
        out.append("false")
    elif type(v) is int:
        out.append(f'"{v}"' if v > _SAFE_LONG or v < -_SAFE_LONG else str(v))
    elif type(v) is float:
        out.append("null" if v != v or v in (float("inf"), float("-inf")) else java_double(v))
    elif isinstance(v, Mapping):
        _write_object(tree_ordered(v).items(), out, _browser_key, _bwrite, None)
    elif isinstance(v, list | tuple):
        _write_array(v, out, _bwrite, None)
    elif v is None:
        out.append("null")
    else:
        raise TypeError(f"cannot write {type(v).__name__} as JSON")
