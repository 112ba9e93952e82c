"""Java's hash codes, hash-table sizes and collection orders, so what we write lists things where Java does.

Java output (JSON maps, ``Properties`` text, the admin tool's listings) follows the iteration order
of the map behind it, which is a function of the keys' ``hashCode`` and the table's history.
``HashMap``/``HashSet`` and ``ConcurrentHashMap`` both visit buckets by index, bucket =
``(h ^ h >>> 16) & (capacity - 1)``; they differ in sizing (see :func:`chm_capacity`).
``java.util.Properties`` is backed by a ``ConcurrentHashMap`` since Java 9; a ``TreeMap`` iterates
sorted (:func:`tree_ordered`).

Three kinds of helpers:

- bucket orders (:func:`bucket_order`, :func:`hash_ordered`, :func:`java_hash_order`, ...): keys
  sorted by bucket with a stable sort, keeping the given order inside a bucket. That is exactly
  Java's order when the given order is the insertion order, or already a Java iteration order (so
  decoding and re-encoding a body is byte-stable). Not replayed: a ``ConcurrentHashMap`` resize
  re-links part of a bin in reverse.
- replays of a whole insertion sequence through a ``ConcurrentHashMap``'s resizes
  (:func:`chm_order`, :func:`concurrent_hash_order`, :func:`properties_order`);
- containers that keep a live table's history as entries come and go (:class:`JavaHashMap`,
  :class:`ChmOrder`), for the name server's route tables.

Tree bins (eight or more keys in one bucket) are not modelled.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from operator import mul
from typing import Any, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")

_MASK32 = 0xFFFFFFFF
_POWERS: list[int] = [1]

# ----------------------------------------------------------------------------------------- hash codes


def _powers(n: int) -> list[int]:
    """31**k mod 2**32 for k < n, highest power first when sliced from the end."""
    while len(_POWERS) < n:
        _POWERS.append((_POWERS[-1] * 31) & _MASK32)
    return _POWERS


_STRING_HASHES: dict[str, int] = {}
_STRING_HASHES_MAX = 131072


def string_hash(s: str) -> int:
    """``String.hashCode()`` as an unsigned 32-bit value (UTF-16 code units, ``31*h + c``).

    Remembered: the route tables hash the same names over and over (the memo starts over when full).
    """
    h = _STRING_HASHES.get(s)
    if h is None:
        h = _string_hash(s)
        if len(_STRING_HASHES) >= _STRING_HASHES_MAX:
            _STRING_HASHES.clear()
        _STRING_HASHES[s] = h
    return h


def _string_hash(s: str) -> int:
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
    """Unsigned ``hashCode()`` of a String or Long key (the only key types the route tables use)."""
    if type(key) is str:
        return string_hash(key)
    if type(key) is int:
        return long_hash(key)
    return java_hash_code(key) & _MASK32


def _signed32(h: int) -> int:
    return h - (1 << 32) if h >= (1 << 31) else h


def java_string_hash(s: str) -> int:
    """``String.hashCode()`` over UTF-16 code units, as a signed 32-bit int."""
    return _signed32(string_hash(s))


def java_hash_code(key: Any) -> int:
    """``hashCode()`` of a Java String, Integer, Long or Boolean key, as a signed 32-bit int."""
    if isinstance(key, str):
        return java_string_hash(key)
    if isinstance(key, bool):
        return 1231 if key else 1237
    if isinstance(key, int):
        if -(1 << 31) <= key < (1 << 31):
            return key  # Integer, and Long of small values alike
        return _signed32(long_hash(key))
    raise TypeError(f"no Java hash for {type(key).__name__}")


def unsigned_hash_code(key: Any) -> int:
    """:func:`java_hash_code` as an unsigned 32-bit value (an int key hashes as an Integer)."""
    if type(key) is str:
        return string_hash(key)
    return java_hash_code(key) & _MASK32


def objects_hash(values: Sequence[int]) -> int:
    """``31 * h + x`` folding over int32 values starting from 1 (``Objects.hash``), unsigned."""
    h = 1
    for x in values:
        h = (31 * h + x) & _MASK32
    return h


# ---------------------------------------------------------------------------------------- table sizes


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


def chm_table(initial: int | None = None) -> int:
    """Table length of ``new ConcurrentHashMap<>(initial)`` (``None``: the no-arg constructor, 16).

    ``tableSizeFor((int) (1 + n / 0.75))`` (Java 11+; Java 8 used ``n + n/2 + 1``, equal for the
    sizes RocketMQ passes: 4 → 8, 8 → 16, 32 → 64, 128 → 256, 1024 → 2048), whereas
    ``new HashMap<>(n)`` starts at ``tableSizeFor(n)``.
    """
    return 16 if initial is None else table_size_for(int(1.0 + initial / 0.75))


def chm_capacity(size: int, initial: int | None = None) -> int:
    """Table length of a ``ConcurrentHashMap`` holding ``size`` entries put one by one.

    It starts at :func:`chm_table` and doubles as soon as the count *reaches* three quarters of the
    table (12th entry of 16), one entry earlier than HashMap. So at 12, 24, 48, ... entries the two
    disagree even from the same start.
    """
    cap = chm_table(initial)
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
        cap = max(cap, chm_table(initial))
    while size >= cap - (cap >> 2):
        cap <<= 1
    return cap


# -------------------------------------------------------------------------------------- bucket orders


def bucket_order(
    keys: Iterable[K], capacity: int, hash_of: Callable[[K], int] = unsigned_hash_code
) -> list[K]:
    """``keys`` in the bucket order of a Java hash table of ``capacity`` (stable inside a bucket)."""
    mask = capacity - 1

    def bucket(k: K) -> int:
        h = hash_of(k)
        return (h ^ (h >> 16)) & mask

    return sorted(keys, key=bucket)


def hash_ordered(
    d: Mapping[K, V], capacity: int, hash_of: Callable[[K], int] = unsigned_hash_code
) -> dict[K, V]:
    """A copy of ``d`` in the bucket order of a Java hash table of ``capacity``."""
    if len(d) < 2:
        return dict(d)
    return {k: d[k] for k in bucket_order(d, capacity, hash_of)}


def java_hash_order(keys: Iterable[Any], initial_capacity: int = 16) -> list[Any]:
    """The iteration order of a ``java.util.HashMap`` after inserting ``keys`` in this order.

    ``initial_capacity`` is the map's constructor argument: 16 for ``new HashMap<>()``, 256 for the
    ext-field map that RocketMQ 5.x ``RemotingCommand.addExtField`` creates. Inside a bucket,
    entries keep insertion order, which a HashMap resize also preserves.
    """
    ks = list(dict.fromkeys(keys))
    return bucket_order(ks, hash_map_capacity(len(ks), initial_capacity))


@functools.lru_cache(maxsize=4096)
def remembered_hash_order(keys: tuple[str, ...], initial_capacity: int = 16) -> tuple[str, ...]:
    """:func:`java_hash_order` of a set of names that comes back again and again (a header's field
    names, a message's property names), remembered."""
    return tuple(java_hash_order(keys, initial_capacity))


def java_hash_dict(d: Mapping[Any, Any], initial_capacity: int = 16) -> dict[Any, Any]:
    """A copy of ``d`` ordered as a Java HashMap filled in ``d``'s order would iterate."""
    return {k: d[k] for k in java_hash_order(d, initial_capacity)}


def hash_set_copy_order(keys: Iterable[K]) -> list[K]:
    """Order of ``new HashSet<>(c)`` for a collection iterated as ``keys`` (String/Long elements).

    ``HashSet(Collection)`` sizes its table for ``max(size / .75f + 1, 16)`` and adds in order.
    """
    ks = list(keys)
    if len(ks) < 2:
        return ks
    return bucket_order(ks, table_size_for(max(int(len(ks) / 0.75) + 1, 16)), java_hash)


def java_string_sort_key(s: str) -> bytes:
    """``String.compareTo`` order (UTF-16 code units), which a ``TreeMap`` of strings follows."""
    return s.encode("utf-16-be", "surrogatepass")


def tree_ordered(d: Mapping[Any, V]) -> dict[Any, V]:
    """``TreeMap`` order: strings by UTF-16 units, numbers numerically."""
    if len(d) < 2:
        return dict(d)
    keys = list(d)
    if all(type(k) is str for k in keys):
        keys.sort(key=java_string_sort_key)
    else:
        keys.sort()
    return {k: d[k] for k in keys}


# ---------------------------------------------------------------------------------------- live tables


class JavaHashMap(dict[K, V]):
    """A dict that remembers the table length its ``java.util.HashMap`` twin would have.

    Keys hash as String or Long (:func:`java_hash`). Use :meth:`put` for insertions (plain
    ``d[k] = v`` is fine for keys already present); a removal is a plain ``del`` or ``pop``, since a
    HashMap never shrinks.
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
            self.cap = hash_map_capacity(len(self), self.cap)
        return old

    def java_keys(self) -> list[K]:
        """Keys in the Java iteration order."""
        if len(self) < 2:
            return list(self)
        return bucket_order(self, self.cap, java_hash)

    def java_items(self) -> list[tuple[K, V]]:
        return [(k, self[k]) for k in self.java_keys()]

    def java_values(self) -> list[V]:
        return [self[k] for k in self.java_keys()]

    def copy_order(self) -> list[K]:
        """Key order of ``new HashMap<>(this)``: a table sized for the entries, filled in Java order."""
        if len(self) < 2:
            return list(self)
        return bucket_order(self.java_keys(), hash_map_copy_capacity(len(self)), java_hash)


def _chm_spread(h: int) -> int:
    return (h ^ (h >> 16)) & 0x7FFFFFFF


class ChmOrder:
    """The iteration order of a ``ConcurrentHashMap`` (or its key set) under puts and removes.

    ``table`` is the table length at first use, :func:`chm_table` of the constructor argument: 16
    for ``new ConcurrentHashMap<>()`` and ``newKeySet()``, 2048 for ``new ConcurrentHashMap<>(1024)``.
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


def concurrent_hash_order(keys: Iterable[Any], initial_capacity: int | None = None) -> list[Any]:
    """The iteration order of a ``ConcurrentHashMap`` after inserting ``keys`` in this order.

    ``initial_capacity`` is the constructor argument (``Properties`` uses 8); ``None`` is the no-arg
    constructor, whose table starts at 16.
    """
    return chm_order(keys, chm_table(initial_capacity))


def properties_order(keys: Iterable[str]) -> list[str]:
    """Iteration order of a ``java.util.Properties`` loaded with ``keys`` in this order (Java 9+)."""
    return concurrent_hash_order(keys, 8)
