"""Iteration order of Java collections, so what we write lists things where Java lists them.

Java output (JSON maps, ``Properties`` text, the admin tool's listings) follows the iteration order
of the map behind it, which is a function of the keys' ``hashCode`` and the table's history. These
functions replay that history for ``HashMap``/``HashSet``, ``ConcurrentHashMap`` and, through it,
``java.util.Properties`` (backed by a ``ConcurrentHashMap`` since Java 9).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any

_MASK32 = 0xFFFFFFFF


def _signed32(h: int) -> int:
    return h - (1 << 32) if h >= (1 << 31) else h


def java_string_hash(s: str) -> int:
    """``String.hashCode()`` over UTF-16 code units, as a signed 32-bit int."""
    h = 0
    for unit in _utf16_units(s):
        h = (31 * h + unit) & _MASK32
    return _signed32(h)


def _utf16_units(s: str) -> Iterator[int]:
    for ch in s:
        c = ord(ch)
        if c < 0x10000:
            yield c
        else:
            c -= 0x10000
            yield 0xD800 + (c >> 10)
            yield 0xDC00 + (c & 0x3FF)


def java_hash_code(key: Any) -> int:
    """``hashCode()`` of a Java String, Integer, Long or Boolean key."""
    if isinstance(key, str):
        return java_string_hash(key)
    if isinstance(key, bool):
        return 1231 if key else 1237
    if isinstance(key, int):
        if -(1 << 31) <= key < (1 << 31):
            return key  # Integer, and Long of small values alike
        u = key & 0xFFFFFFFFFFFFFFFF
        return _signed32((u ^ (u >> 32)) & _MASK32)
    raise TypeError(f"no Java hash for {type(key).__name__}")


def _table_size_for(c: int) -> int:
    n = 1
    while n < c:
        n <<= 1
    return n


def java_hash_order(keys: Iterable[Any], initial_capacity: int = 16) -> list[Any]:
    """The iteration order of a ``java.util.HashMap`` after inserting ``keys`` in this order.

    ``initial_capacity`` is the map's constructor argument: 16 for ``new HashMap<>()``, 256 for the
    ext-field map that RocketMQ 5.x ``RemotingCommand.addExtField`` creates.
    Buckets are visited by index (``(h ^ h >>> 16) & (capacity - 1)``); inside a bucket, entries
    keep insertion order, which a resize also preserves. The table doubles past 0.75 load.
    """
    ks = list(dict.fromkeys(keys))
    cap = _table_size_for(max(initial_capacity, 1))
    while len(ks) > cap * 3 // 4:
        cap <<= 1
    mask = cap - 1

    def bucket(k: Any) -> int:
        h = java_hash_code(k) & _MASK32
        return (h ^ (h >> 16)) & mask

    return sorted(ks, key=bucket)  # sorted() is stable: insertion order within a bucket


def java_hash_dict(d: Mapping[Any, Any], initial_capacity: int = 16) -> dict[Any, Any]:
    """A copy of ``d`` ordered as a Java HashMap filled in ``d``'s order would iterate."""
    return {k: d[k] for k in java_hash_order(d, initial_capacity)}


def concurrent_hash_order(keys: Iterable[Any], initial_capacity: int | None = None) -> list[Any]:
    """The iteration order of a ``ConcurrentHashMap`` after inserting ``keys`` in this order.

    Unlike ``HashMap``, a resize splits each bin around its "last run": the nodes before it are
    re-linked in reverse, so the order depends on the whole insertion history. This replays it.
    ``initial_capacity`` is the constructor argument (``Properties`` uses 8); ``None`` is the no-arg
    constructor, whose table starts at 16.
    """
    n = 16 if initial_capacity is None else _table_size_for(int(1.0 + initial_capacity / 0.75))
    table: list[list[tuple[int, Any]]] = [[] for _ in range(n)]
    count = 0
    for k in keys:
        h = java_hash_code(k) & _MASK32
        h = (h ^ (h >> 16)) & 0x7FFFFFFF
        b = table[h & (n - 1)]
        if any(kk == k for _, kk in b):
            continue
        b.append((h, k))
        count += 1
        if count >= n - (n >> 2):
            table = _chm_transfer(table, n)
            n <<= 1
    return [k for b in table for _, k in b]


def _chm_transfer(table: list[list[tuple[int, Any]]], n: int) -> list[list[tuple[int, Any]]]:
    nxt: list[list[tuple[int, Any]]] = [[] for _ in range(2 * n)]
    for i, f in enumerate(table):
        if not f:
            continue
        run_bit = f[0][0] & n
        last = 0
        for j in range(1, len(f)):
            bit = f[j][0] & n
            if bit != run_bit:
                run_bit, last = bit, j
        low: list[tuple[int, Any]] = list(f[last:]) if run_bit == 0 else []
        high: list[tuple[int, Any]] = list(f[last:]) if run_bit else []
        for node in f[:last]:
            if node[0] & n:
                high.insert(0, node)
            else:
                low.insert(0, node)
        nxt[i], nxt[i + n] = low, high
    return nxt


def properties_order(keys: Iterable[str]) -> list[str]:
    """Iteration order of a ``java.util.Properties`` loaded with ``keys`` in this order (Java 9+)."""
    return concurrent_hash_order(keys, 8)
