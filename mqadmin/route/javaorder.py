"""Java hash-table iteration orders, kept up to date as entries come and go.

Every listing a name server returns (topic lists, cluster info, the queue and broker lists of a
route) comes out in the iteration order of the Java map or set behind it. That order is a function
of the keys' ``hashCode`` and of the table's history, so the route tables keep just enough of that
history to reproduce it:

* :class:`JavaHashMap` - a ``dict`` that also tracks the table length of a ``java.util.HashMap``
  (which grows and never shrinks); its Java order is the bucket order, insertion order inside a
  bucket, which is exactly the order a Python ``dict`` keeps.
* :class:`ChmOrder` - the bins of a ``java.util.concurrent.ConcurrentHashMap``, whose resize
  re-links part of each bin in reverse, so the order depends on the whole sequence of puts.

Tree bins (eight or more keys in one bucket) are not modelled; they need pathological key sets.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Iterator
from functools import lru_cache
from operator import mul
from typing import Any, TypeVar

__all__ = [
    "ChmOrder",
    "JavaHashMap",
    "chm_order",
    "hash_set_copy_order",
    "java_hash",
    "long_hash",
    "string_hash",
]

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")

_MASK32 = 0xFFFFFFFF
_POWERS: list[int] = [1]


def _powers(n: int) -> list[int]:
    """31**k mod 2**32 for k < n, highest power first when sliced from the end."""
    while len(_POWERS) < n:
        _POWERS.append((_POWERS[-1] * 31) & _MASK32)
    return _POWERS


@lru_cache(maxsize=131072)
def string_hash(s: str) -> int:
    """``String.hashCode()`` as an unsigned 32-bit value (UTF-16 code units, ``31*h + c``)."""
    if s.isascii():
        units: Iterable[int] = s.encode("ascii")
        n = len(s)
    else:
        raw = s.encode("utf-16-be", "surrogatepass")
        units = [int.from_bytes(raw[i : i + 2], "big") for i in range(0, len(raw), 2)]
        n = len(raw) // 2
    if n == 0:
        return 0
    powers = _powers(n)
    return sum(map(mul, units, reversed(powers[:n]))) & _MASK32


def long_hash(v: int) -> int:
    """``Long.hashCode()`` as an unsigned 32-bit value: ``(int) (v ^ v >>> 32)``."""
    u = v & 0xFFFFFFFFFFFFFFFF
    return (u ^ (u >> 32)) & _MASK32


def java_hash(key: Any) -> int:
    """Unsigned ``hashCode()`` of a String or Long key (the only key types the tables use)."""
    if type(key) is str:
        return string_hash(key)
    if type(key) is int:
        return long_hash(key)
    raise TypeError(f"no Java hash for {type(key).__name__}")


def _bucket_sorted(keys: Iterable[K], cap: int) -> list[K]:
    mask = cap - 1

    def bucket(k: K) -> int:
        h = java_hash(k)
        return (h ^ (h >> 16)) & mask

    return sorted(keys, key=bucket)  # stable: insertion order inside a bucket


def _table_size_for(c: int) -> int:
    return 1 if c <= 1 else 1 << (c - 1).bit_length()


class JavaHashMap(dict[K, V]):
    """A dict that remembers the table length its ``java.util.HashMap`` twin would have.

    Use :meth:`put` for insertions (plain ``d[k] = v`` is fine for keys already present); a removal
    is a plain ``del`` or ``pop``, since a HashMap never shrinks.
    """

    __slots__ = ("cap",)

    def __init__(self, cap: int = 16) -> None:
        super().__init__()
        self.cap = cap

    def put(self, key: K, value: V) -> V | None:
        """``HashMap.put``: the previous value (or None); grows the table past 3/4 load."""
        old = self.get(key)
        self[key] = value
        if len(self) > (self.cap * 3) >> 2:
            cap = self.cap
            while len(self) > (cap * 3) >> 2:
                cap <<= 1
            self.cap = cap
        return old

    def java_keys(self) -> list[K]:
        """Keys in the Java iteration order."""
        if len(self) < 2:
            return list(self)
        return _bucket_sorted(self, self.cap)

    def java_items(self) -> list[tuple[K, V]]:
        return [(k, self[k]) for k in self.java_keys()]

    def java_values(self) -> list[V]:
        return [self[k] for k in self.java_keys()]

    def copy_order(self) -> list[K]:
        """Key order of ``new HashMap<>(this)``: a table sized for the entries, filled in Java order."""
        if len(self) < 2:
            return list(self)
        return _bucket_sorted(self.java_keys(), _table_size_for(int(len(self) / 0.75 + 1.0)))


def hash_set_copy_order(keys: Iterable[K]) -> list[K]:
    """Order of ``new HashSet<>(c)`` for a collection iterated as ``keys``.

    ``HashSet(Collection)`` sizes its table for ``max(size / .75f + 1, 16)`` and adds in order.
    """
    ks = list(keys)
    if len(ks) < 2:
        return ks
    cap = _table_size_for(max(int(len(ks) / 0.75) + 1, 16))
    return _bucket_sorted(ks, cap)


def _chm_spread(h: int) -> int:
    return (h ^ (h >> 16)) & 0x7FFFFFFF


class ChmOrder:
    """The iteration order of a ``ConcurrentHashMap`` (or its key set) under puts and removes.

    ``table`` is the table length at first use: 16 for ``new ConcurrentHashMap<>()`` and
    ``newKeySet()``, ``tableSizeFor(1 + c / 0.75)`` for ``new ConcurrentHashMap<>(c)`` (1024 -> 2048).
    A put appends at the tail of its bin; when the count reaches 3/4 of the table it doubles, and
    each bin is split the Java way (the run of nodes at the tail that share their new-table bit
    moves as is, the nodes before it are prepended one by one, reversing them).
    """

    __slots__ = ("_bins", "_count", "_hash", "_n")

    def __init__(self, table: int = 16) -> None:
        self._n = table
        self._bins: dict[int, list[Any]] = {}
        self._hash: dict[Any, int] = {}
        self._count = 0

    @staticmethod
    def table_for_capacity(capacity: int) -> int:
        """Table length of ``new ConcurrentHashMap<>(capacity)``."""
        return _table_size_for(int(1.0 + capacity / 0.75))

    def __len__(self) -> int:
        return self._count

    def __contains__(self, key: object) -> bool:
        return key in self._hash

    def add(self, key: Any) -> bool:
        """Put ``key`` (no-op if present); True if it was new."""
        if key in self._hash:
            return False
        h = _chm_spread(java_hash(key))
        self._hash[key] = h
        i = h & (self._n - 1)
        b = self._bins.get(i)
        if b is None:
            self._bins[i] = [key]
        else:
            b.append(key)
        self._count += 1
        n = self._n
        if self._count >= n - (n >> 2):
            self._transfer()
        return True

    def discard(self, key: Any) -> bool:
        """Remove ``key`` if present; True if it was there."""
        h = self._hash.pop(key, None)
        if h is None:
            return False
        i = h & (self._n - 1)
        b = self._bins[i]
        b.remove(key)
        if not b:
            del self._bins[i]
        self._count -= 1
        return True

    def clear(self) -> None:
        """Remove everything; the table keeps its length, as Java's does."""
        self._bins.clear()
        self._hash.clear()
        self._count = 0

    def __iter__(self) -> Iterator[Any]:
        bins = self._bins
        for i in sorted(bins):
            yield from bins[i]

    def keys(self) -> list[Any]:
        return list(self)

    def _transfer(self) -> None:
        n = self._n
        hashes = self._hash
        nxt: dict[int, list[Any]] = {}
        for i, f in self._bins.items():
            run_bit = hashes[f[0]] & n
            last = 0
            for j in range(1, len(f)):
                bit = hashes[f[j]] & n
                if bit != run_bit:
                    run_bit, last = bit, j
            low: list[Any] = f[last:] if run_bit == 0 else []
            high: list[Any] = f[last:] if run_bit else []
            for k in f[:last]:
                if hashes[k] & n:
                    high.insert(0, k)
                else:
                    low.insert(0, k)
            if low:
                nxt[i] = low
            if high:
                nxt[i + n] = high
        self._bins = nxt
        self._n = n << 1


def chm_order(keys: Iterable[Any], table: int = 16) -> list[Any]:
    """Iteration order of a fresh ``ConcurrentHashMap``/``newKeySet`` after adding ``keys`` in order."""
    m = ChmOrder(table)
    for k in keys:
        m.add(k)
    return list(m)
