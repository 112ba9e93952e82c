"""Java hash-table sizes and the iteration-order models the route tables keep."""

from __future__ import annotations

import random
import string

from mqadmin.protocol.javacoll import (
    ChmOrder,
    JavaHashMap,
    chm_capacity,
    chm_order,
    chm_put_all_capacity,
    chm_table,
    concurrent_hash_order,
    hash_map_capacity,
    hash_map_copy_capacity,
    hash_set_copy_order,
    java_hash_order,
    java_string_hash,
    long_hash,
    string_hash,
)


def test_string_hash_is_java_string_hash() -> None:
    rng = random.Random(7)
    alphabet = string.printable + "éß€漢𝄞"
    for _ in range(3000):
        s = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 40)))
        assert string_hash(s) == java_string_hash(s) & 0xFFFFFFFF


def test_long_hash() -> None:
    assert long_hash(0) == 0 and long_hash(5) == 5
    assert long_hash(-1) == 0  # (int) (0xFFFFFFFFFFFFFFFF ^ 0x00000000FFFFFFFF)
    assert long_hash(1 << 32) == 1


def test_chm_order_matches_the_batch_replay() -> None:
    keys = [f"Topic{i}" for i in range(5000)]
    # new ConcurrentHashMap<>(c) for c in 11..16 gives a table of 16 and 32 respectively
    assert chm_order(keys, 16) == concurrent_hash_order(keys, 11)
    assert chm_order(keys, 32) == concurrent_hash_order(keys, 16)
    assert chm_table(1024) == 2048
    assert chm_table(128) == 256


def test_chm_removal_keeps_the_rest_in_place() -> None:
    keys = [f"k{i}" for i in range(300)]
    m = ChmOrder(16)
    for k in keys:
        m.add(k)
    before = list(m)
    for k in keys[::3]:
        assert m.discard(k)
    assert not m.discard("k0")
    assert list(m) == [k for k in before if k not in set(keys[::3])]
    assert len(m) == 200 and "k1" in m and "k0" not in m
    m.add("k0")  # back at the tail of its bin
    assert "k0" in m


def test_java_hash_map_order_and_growth() -> None:
    m: JavaHashMap[str, int] = JavaHashMap()
    keys = [f"name-{i}" for i in range(40)]
    for i, k in enumerate(keys):
        m.put(k, i)
    assert m.cap == 64
    assert m.java_keys() == java_hash_order(keys, 16)
    for k in keys[:30]:
        del m[k]
    assert m.cap == 64  # a HashMap never shrinks
    assert m.java_keys() == [k for k in java_hash_order(keys, 64) if k in m]
    assert m.put("name-39", 1) == 39


def test_copy_and_hash_set_orders() -> None:
    m: JavaHashMap[int, str] = JavaHashMap()
    for bid in (17, 1, 0, 33):
        m.put(bid, f"a{bid}")
    assert m.java_keys() == [0, 17, 1, 33]  # buckets 0, 1, 1, 1 of 16 (insertion order inside)
    two: JavaHashMap[int, str] = JavaHashMap()
    two.put(5, "x")
    two.put(2, "y")
    assert two.java_keys() == [2, 5]
    assert two.copy_order() == [5, 2]  # new HashMap<>(m) of two entries has a table of 4
    names = [f"broker-{c}" for c in "abcdefghijklmnopqrst"]
    assert hash_set_copy_order(names) == java_hash_order(names, 32)


def test_chm_and_hashmap_sizing() -> None:
    # HashMap grows past 3/4 (13th of 16), ConcurrentHashMap on reaching it (12th of 16)
    assert hash_map_capacity(12) == 16 and chm_capacity(12) == 32
    assert hash_map_capacity(13) == 32 and chm_capacity(11) == 16
    # constructor sizing: HashMap(n) → tableSizeFor(n); ConcurrentHashMap(n) → tableSizeFor(1 + n/0.75)
    assert [chm_capacity(0, n) for n in (4, 8, 32, 128, 1024)] == [8, 16, 64, 256, 2048]
    assert [hash_map_capacity(0, n) for n in (32, 128, 1024)] == [32, 128, 1024]
    # putAll into a default ConcurrentHashMap presizes to tableSizeFor(1.5n + 1)
    assert [chm_put_all_capacity(n) for n in (1, 2, 5, 11)] == [2, 4, 8, 32]
    # new HashMap<>(map) / clone
    assert [hash_map_copy_capacity(n) for n in (1, 2, 3, 6, 12)] == [2, 4, 8, 16, 32]
