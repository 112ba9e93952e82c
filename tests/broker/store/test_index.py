"""Query by key and unique key through the Java-format index."""

from __future__ import annotations

import struct
import time
from pathlib import Path

from mqadmin.broker.store import MessageStore
from mqadmin.broker.store.index import key_hash
from mqadmin.protocol.javacoll import java_string_hash
from mqadmin.protocol.message_record import decode_messages
from tests.broker.store.support import make_msg, open_store

FOREVER = 2**63 - 1


def found(
    store: MessageStore, topic: str, key: str, max_num: int = 64, begin: int = 0, end: int = FOREVER
) -> list[bytes]:
    return [
        m.body
        for m in decode_messages(b"".join(store.query_by_key(topic, key, max_num, begin, end).messages))
    ]


def test_keys_and_unique_key(store: MessageStore) -> None:
    store.put_message(make_msg(body=b"one", keys="order-1 customer-7", uniq="AAAA0001"))
    store.put_message(make_msg(body=b"two", keys="order-2  customer-7", uniq="AAAA0002"))
    store.put_message(make_msg(topic="Other", body=b"three", keys="order-1"))
    assert found(store, "TopicA", "order-1") == [b"one"]
    assert found(store, "TopicA", "customer-7") == [b"one", b"two"]  # oldest first
    assert found(store, "TopicA", "AAAA0002") == [b"two"]
    assert found(store, "Other", "order-1") == [b"three"]
    assert found(store, "TopicA", "missing") == []
    assert found(store, "TopicA", "customer-7", max_num=1) == [b"two"]  # newest entry wins the chain


def test_query_result_header_fields(store: MessageStore) -> None:
    empty = store.query_by_key("TopicA", "k", 64, 0, FOREVER)
    assert (empty.messages, empty.index_last_update_timestamp, empty.index_last_update_phyoffset) == (
        [],
        0,
        0,
    )
    store.put_message(make_msg(keys="k"))
    last = store.put_message(make_msg(keys="other"))
    result = store.query_by_key("TopicA", "k", 64, 0, FOREVER)
    assert len(result.messages) == 1
    assert result.index_last_update_phyoffset == last.commit_log_offset
    assert result.index_last_update_timestamp == last.store_timestamp


def test_time_range(store: MessageStore) -> None:
    first = store.put_message(make_msg(body=b"early", keys="k"))
    time.sleep(1.1)  # the index keeps seconds since the file's begin time
    second = store.put_message(make_msg(body=b"late", keys="k"))
    assert found(store, "TopicA", "k") == [b"early", b"late"]
    # entry times are whole seconds after the file's first entry, as in Java
    assert found(store, "TopicA", "k", begin=first.store_timestamp + 500) == [b"late"]
    assert found(store, "TopicA", "k", end=first.store_timestamp + 500) == [b"early"]
    assert found(store, "TopicA", "k", begin=second.store_timestamp + 5000) == []


def test_index_file_layout(store: MessageStore, tmp_path: Path) -> None:
    result = store.put_message(make_msg(keys="abc", uniq="U1"))
    (path,) = (tmp_path / "store" / "index").iterdir()
    assert len(path.name) == 17 and path.name.isdigit()
    data = path.read_bytes()
    slots, entries = 64, 256
    assert len(data) == 40 + slots * 4 + entries * 20
    begin_ts, end_ts, begin_phy, end_phy, slot_count, count = struct.unpack_from(">qqqqii", data, 0)
    assert (begin_ts, end_ts, begin_phy, end_phy) == (result.store_timestamp,) * 2 + (0, 0)
    assert (slot_count, count) == (2, 3)
    h = key_hash("TopicA#U1")
    assert h == abs(java_string_hash("TopicA#U1"))
    (slot,) = struct.unpack_from(">i", data, 40 + (h % slots) * 4)
    assert slot == 1  # UNIQ_KEY first, then the KEYS
    entry = struct.unpack_from(">iqii", data, 40 + slots * 4 + 20)
    assert entry == (h, 0, 0, 0)


def test_index_rolls_to_a_new_file(tmp_path: Path) -> None:
    store = open_store(tmp_path, index_num=10, index_hash_slot_num=4)
    try:
        for i in range(30):
            store.put_message(make_msg(body=b"%d" % i, keys=f"key{i}"))
        assert len(list((tmp_path / "index").iterdir())) >= 3
        for i in (0, 13, 29):
            assert found(store, "TopicA", f"key{i}") == [b"%d" % i]
    finally:
        store.shutdown()


def test_index_disabled(tmp_path: Path) -> None:
    store = open_store(tmp_path, message_index_enable=False)
    try:
        store.put_message(make_msg(keys="k"))
        assert found(store, "TopicA", "k") == []
    finally:
        store.shutdown()


def test_topic_key_hash_matches_the_full_string_hash() -> None:
    from mqadmin.broker.store.index import topic_key_hash

    for topic, key in [
        ("T", "k"),
        ("TopicA", "0A00000700001B5F3C2D1A0B00000001"),
        ("x" * 50, ""),
        ("T", "é€😀"),
    ]:
        assert topic_key_hash(topic, key) == key_hash(f"{topic}#{key}")
    assert java_string_hash("polygenelubricants") == -(2**31)
    assert key_hash("polygenelubricants") == 0  # Math.abs(Integer.MIN_VALUE) is negative: Java uses 0
