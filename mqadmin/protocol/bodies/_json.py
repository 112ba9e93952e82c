"""Shared plumbing of the typed bodies: field checks, Java map orders, browser-safe quoting.

Field checks follow one rule: a missing or ``null`` field takes the Java default, a field of the
wrong JSON type raises :class:`ProtocolError`, and numbers must fit the Java type (``int`` is 32 bits,
``long`` 64) so that whatever we accept we can also write back for a Java peer to read.

Map orders: fastjson writes a map in its iteration order, so a body lists its entries the way the
Java map behind it iterates. ``HashMap``/``HashSet`` and ``ConcurrentHashMap`` both visit buckets
by index, bucket = ``(h ^ h >>> 16) & (capacity - 1)``; they differ in sizing (see
:func:`chm_capacity`). We order by bucket with a stable sort, keeping the given order inside a
bucket: that is exactly Java's order when the given order is the insertion order (or a Java
iteration order, so decoding and re-encoding a body is byte-stable). Two corner cases are not
replayed: a ``ConcurrentHashMap`` resize re-links part of a bin in reverse, and a bin of nine or more
colliding keys turns into a tree; both need several keys of one bucket.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from functools import lru_cache
from typing import Any, TypeVar

from mqadmin.protocol import fastjson
from mqadmin.protocol.errors import ProtocolError
from mqadmin.protocol.javacoll import java_hash_code

K = TypeVar("K", bound=Hashable)
T = TypeVar("T")

INT_MIN, INT_MAX = -(1 << 31), (1 << 31) - 1
LONG_MIN, LONG_MAX = -(1 << 63), (1 << 63) - 1

_QUOTE_CACHE: dict[str, str] = {}


def quote(s: str) -> str:
    """``fastjson.quote`` with a small cache: bodies repeat the same names and addresses."""
    cached = _QUOTE_CACHE.get(s)
    if cached is None:
        cached = fastjson.quote(s)
        if len(_QUOTE_CACHE) >= 4096:
            _QUOTE_CACHE.clear()
        _QUOTE_CACHE[s] = cached
    return cached


# ------------------------------------------------------------------------------------------- checks


def decode_object(body: bytes | bytearray | memoryview | str, what: str) -> dict[Any, Any]:
    """Parse a body that must be one JSON object."""
    value = fastjson.loads(body if isinstance(body, bytes | str) else bytes(body))
    if type(value) is not dict:
        raise ProtocolError(f"{what} body is not a JSON object")
    return value


def obj(v: Any, what: str) -> dict[Any, Any]:
    if type(v) is not dict:
        raise ProtocolError(f"{what} is not a JSON object")
    return v


def opt_obj(v: Any, what: str) -> dict[Any, Any] | None:
    if v is None:
        return None
    return obj(v, what)


def opt_str(v: Any, what: str) -> str | None:
    if v is None or type(v) is str:
        return v
    raise ProtocolError(f"{what} is not a string")


def int32(v: Any, what: str, default: int = 0) -> int:
    if type(v) is int and INT_MIN <= v <= INT_MAX:
        return v
    if v is None:
        return default
    raise ProtocolError(f"{what} is not a Java int")


_LONG_TEXT = re.compile(r"-?[0-9]{1,19}")


def int64(v: Any, what: str, default: int = 0) -> int:
    """A Java ``long``; also as a decimal string, which ``BrowserCompatible`` makes of big longs."""
    if type(v) is int and LONG_MIN <= v <= LONG_MAX:
        return v
    if v is None:
        return default
    if type(v) is str and _LONG_TEXT.fullmatch(v):
        n = int(v)
        if LONG_MIN <= n <= LONG_MAX:
            return n
    raise ProtocolError(f"{what} is not a Java long")


def opt_int32(v: Any, what: str) -> int | None:
    return None if v is None else int32(v, what)


def opt_int64(v: Any, what: str) -> int | None:
    return None if v is None else int64(v, what)


def boolean(v: Any, what: str, default: bool = False) -> bool:
    if type(v) is bool:
        return v
    if v is None:
        return default
    raise ProtocolError(f"{what} is not a boolean")


def opt_bool(v: Any, what: str) -> bool | None:
    return None if v is None else boolean(v, what)


def double(v: Any, what: str, default: float = 0.0) -> float:
    """A Java ``double``: fastjson writes NaN and infinities as ``null``, read back as the default."""
    t = type(v)
    if t is float:
        return v
    if t is int:
        try:
            return float(v)
        except OverflowError:
            raise ProtocolError(f"{what} is out of range for a double") from None
    if v is None:
        return default
    raise ProtocolError(f"{what} is not a number")


def opt_double(v: Any, what: str) -> float | None:
    return None if v is None else double(v, what)


def str_list(v: Any, what: str) -> list[str] | None:
    if v is None:
        return None
    if type(v) is not list:
        raise ProtocolError(f"{what} is not a JSON array")
    for x in v:
        if type(x) is not str:
            raise ProtocolError(f"{what} holds a non-string")
    return list(v)


def req_str_list(v: Any, what: str) -> list[str]:
    """A ``List``/``Set`` of strings inside a map, where null entries were already dropped."""
    out = str_list(v, what)
    if out is None:
        raise ProtocolError(f"{what} is null")
    return out


def str_map(v: Any, what: str) -> dict[str, str] | None:
    """A ``Map<String, String>``; null values are dropped (fastjson would not write them back)."""
    if v is None:
        return None
    d = obj(v, what)
    out: dict[str, str] = {}
    for k, x in d.items():
        if type(k) is not str:
            raise ProtocolError(f"{what} has a non-string key")
        if x is None:
            continue
        if type(x) is not str:
            raise ProtocolError(f"{what}[{k!r}] is not a string")
        out[k] = x
    return out


def map_of(v: Any, what: str, parse: Callable[[Any, str], T]) -> dict[str, T] | None:
    """A ``Map<String, X>`` with values parsed by ``parse``; null values are dropped."""
    if v is None:
        return None
    d = obj(v, what)
    out: dict[str, T] = {}
    for k, x in d.items():
        if type(k) is not str:
            raise ProtocolError(f"{what} has a non-string key")
        if x is None:
            continue
        out[k] = parse(x, f"{what}[{k!r}]")
    return out


def numeric_key(k: Any, what: str, lo: int = LONG_MIN, hi: int = LONG_MAX) -> int:
    """A Long/Integer map key: unquoted in the legacy form (``0``), quoted in the standard one."""
    if type(k) is int:
        if lo <= k <= hi:
            return k
    elif type(k) is str:
        try:
            n = int(k, 10)
        except ValueError:
            n = None
        if n is not None and lo <= n <= hi and k.strip() == k and "_" not in k:
            return n
    raise ProtocolError(f"{what} key {k!r} is not a number")


def list_of(v: Any, what: str, parse: Callable[[Any, str], T]) -> list[T] | None:
    if v is None:
        return None
    return req_list_of(v, what, parse)


def req_list_of(v: Any, what: str, parse: Callable[[Any, str], T]) -> list[T]:
    if type(v) is not list:
        raise ProtocolError(f"{what} is not a JSON array")
    out: list[T] = []
    for i, x in enumerate(v):
        if x is None:
            raise ProtocolError(f"{what}[{i}] is null")
        out.append(parse(x, f"{what}[{i}]"))
    return out


def drop_none(d: dict[str, Any]) -> dict[str, Any]:
    """fastjson omits null bean properties."""
    return {k: v for k, v in d.items() if v is not None}


# ------------------------------------------------------------------------------------------- orders


def table_size_for(c: int) -> int:
    """``HashMap.tableSizeFor``: the power of two at or above ``c`` (at least 1)."""
    return 1 if c <= 1 else 1 << (c - 1).bit_length()


def hash_map_capacity(size: int, initial: int = 16) -> int:
    """Table length of ``new HashMap<>(initial)`` (or a ``HashSet``) holding ``size`` entries.

    HashMap doubles when the size goes *past* three quarters of the table (13th entry of 16).
    """
    cap = table_size_for(initial)
    while size > cap * 3 // 4:
        cap <<= 1
    return cap


def hash_map_copy_capacity(size: int) -> int:
    """Table length of ``new HashMap<>(map)`` / ``map.clone()``: sized for the copy, not grown.

    Java 8 to 18 size it as ``tableSizeFor((int) (size / 0.75f + 1))``; Java 19 changed that to
    ``ceil(size / 0.75)``, which only matters for keys beyond the table (broker ids of 4 and up).
    """
    if size == 0:
        return 16
    return table_size_for(int(size / 0.75 + 1.0))


def chm_capacity(size: int, initial: int | None = None) -> int:
    """Table length of a ``ConcurrentHashMap`` holding ``size`` entries put one by one.

    ``new ConcurrentHashMap<>()`` starts at 16; ``new ConcurrentHashMap<>(n)`` at
    ``tableSizeFor((int) (1 + n / 0.75))`` (Java 11+; Java 8 used ``n + n/2 + 1``, equal for the
    sizes RocketMQ passes: 4 → 8, 8 → 16, 32 → 64, 128 → 256, 1024 → 2048), whereas
    ``new HashMap<>(n)`` starts at ``tableSizeFor(n)``. It doubles as soon as the count *reaches*
    three quarters of the table (12th entry of 16), one entry earlier than HashMap. So at 12, 24,
    48, ... entries the two disagree even from the same start.
    """
    cap = 16 if initial is None else table_size_for(int(1.0 + initial / 0.75))
    while size >= cap - (cap >> 2):
        cap <<= 1
    return cap


def chm_put_all_capacity(size: int, initial: int | None = None) -> int:
    """Table length after ``putAll`` of ``size`` entries into an empty ``ConcurrentHashMap``.

    ``putAll`` presizes to ``tableSizeFor(size + size/2 + 1)`` first; a map built with the default
    constructor then has that table (``putAll`` of one entry gives a table of 2, not 16).
    """
    cap = table_size_for(size + (size >> 1) + 1)
    if initial is not None:
        cap = max(cap, table_size_for(int(1.0 + initial / 0.75)))
    while size >= cap - (cap >> 2):
        cap <<= 1
    return cap


@lru_cache(maxsize=65536)
def _str_hash(s: str) -> int:
    return java_hash_code(s) & 0xFFFFFFFF


def key_hash(k: Any) -> int:
    """Unsigned ``hashCode()`` of a String/Integer/Long key (strings cached: names repeat)."""
    if type(k) is str:
        return _str_hash(k)
    return java_hash_code(k) & 0xFFFFFFFF


def bucket_order(keys: Iterable[K], capacity: int, hash_of: Callable[[K], int] = key_hash) -> list[K]:
    """``keys`` in the bucket order of a Java hash table of ``capacity`` (stable inside a bucket)."""
    mask = capacity - 1

    def bucket(k: K) -> int:
        h = hash_of(k)
        return (h ^ (h >> 16)) & mask

    return sorted(keys, key=bucket)


def hash_ordered(d: Mapping[K, T], capacity: int, hash_of: Callable[[K], int] = key_hash) -> dict[K, T]:
    if len(d) < 2:
        return dict(d)
    return {k: d[k] for k in bucket_order(d, capacity, hash_of)}


def java_string_sort_key(s: str) -> bytes:
    """``String.compareTo`` order (UTF-16 code units), which a ``TreeMap`` of strings follows."""
    return s.encode("utf-16-be", "surrogatepass")


def tree_ordered(d: Mapping[Any, T]) -> dict[Any, T]:
    """``TreeMap`` order: strings by UTF-16 units, numbers numerically."""
    if len(d) < 2:
        return dict(d)
    keys = list(d)
    if all(type(k) is str for k in keys):
        keys.sort(key=java_string_sort_key)
    else:
        keys.sort()
    return {k: d[k] for k in keys}


def java_int_hash(values: Sequence[int]) -> int:
    """``31 * h + x`` folding over int32 values starting from 1 (``Objects.hash``), unsigned."""
    h = 1
    for x in values:
        h = (31 * h + x) & 0xFFFFFFFF
    return h


# ------------------------------------------------------------------------------- browser-safe JSON
#
# The name server answers a route query from a client of version >= V4_9_4 (ordinal 401), or one
# that sets acceptStandardJsonOnly, with fastjson features BrowserCompatible and MapSortField:
# non-string map keys are quoted, every map is written sorted (TreeMap order), and strings escape
# '/', control characters and everything from U+007F up as \uXXXX (upper-case hex, per UTF-16
# unit). Longs beyond +-(2^53 - 1) are written as strings.

_BROWSER_SAFE = re.compile(r"[ !#-.0-\[\]-~]*")
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
_BROWSER_CACHE: dict[str, str] = {}


def browser_quote(s: str) -> str:
    """A string literal as fastjson writes it with ``BrowserCompatible``."""
    cached = _BROWSER_CACHE.get(s)
    if cached is not None:
        return cached
    if _BROWSER_SAFE.fullmatch(s):
        out = f'"{s}"'
    else:
        parts = ['"']
        for ch in s:
            if _BROWSER_SAFE.fullmatch(ch):
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
        out = "".join(parts)
    if len(_BROWSER_CACHE) >= 4096:
        _BROWSER_CACHE.clear()
    _BROWSER_CACHE[s] = out
    return out


_SAFE_LONG = (1 << 53) - 1


def browser_dumps(value: Any) -> str:
    """fastjson ``BrowserCompatible`` + ``MapSortField`` text of a JSON value (nulls omitted in maps)."""
    out: list[str] = []
    _bwrite(value, out)
    return "".join(out)


def _bwrite(v: Any, out: list[str]) -> None:
    if type(v) is str:
        out.append(browser_quote(v))
    elif v is True:
        out.append("true")
    elif v is False:
        out.append("false")
    elif type(v) is int:
        out.append(f'"{v}"' if v > _SAFE_LONG or v < -_SAFE_LONG else str(v))
    elif type(v) is float:
        out.append("null" if v != v or v in (float("inf"), float("-inf")) else fastjson.java_double(v))
    elif isinstance(v, Mapping):
        out.append("{")
        first = True
        for k, x in tree_ordered(v).items():
            if x is None:
                continue
            if not first:
                out.append(",")
            first = False
            out.append(browser_quote(k if type(k) is str else str(k)))
            out.append(":")
            _bwrite(x, out)
        out.append("}")
    elif isinstance(v, list | tuple):
        out.append("[")
        for i, x in enumerate(v):
            if i:
                out.append(",")
            if x is None:
                out.append("null")
            else:
                _bwrite(x, out)
        out.append("]")
    elif v is None:
        out.append("null")
    else:
        raise TypeError(f"cannot write {type(v).__name__} as JSON")
