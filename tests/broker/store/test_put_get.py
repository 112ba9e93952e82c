"""Put and get: the stored record, queue offsets, statuses and the pull batch rules."""

from __future__ import annotations

import time
from pathlib import Path

from mqadmin.broker.store import GetStatus, MessageStore, PutStatus
from mqadmin.protocol.javacoll import java_string_hash
from mqadmin.protocol.message import MessageSysFlag
from mqadmin.protocol.message_record import body_crc32, decode_message, decode_messages
from mqadmin.protocol.msgid import decode_offset_msg_id
from tests.broker.store.support import HOST, PORT, bodies, make_msg, open_store


def test_put_then_get_round_trip(store: MessageStore) -> None:
    results = [
        store.put_message(make_msg(queue_id=i % 2, body=f"m{i}".encode(), tags="TagA")) for i in range(6)
    ]
    assert [r.status for r in results] == [PutStatus.PUT_OK] * 6
    assert [r.queue_offset for r in results] == [0, 0, 1, 1, 2, 2]
    assert results[0].commit_log_offset == 0
    assert results[1].commit_log_offset == results[0].wrote_bytes

    got = store.get_messages("TopicA", 1, 0, 32)
    assert got.status is GetStatus.FOUND
    assert (got.next_begin_offset, got.min_offset, got.max_offset) == (3, 0, 3)
    msgs = decode_messages(b"".join(got.messages))
    assert [m.body for m in msgs] == [b"m1", b"m3", b"m5"]
    first = msgs[0]
    assert first.queue_offset == 0 and first.queue_id == 1
    assert first.commit_log_offset == results[1].commit_log_offset
    assert first.msg_id == results[1].msg_id
    assert first.body_crc == body_crc32(b"m1")
    assert (first.store_host, first.store_port) == (HOST, PORT)
    assert (first.born_host, first.born_port) == ("10.1.2.3", 54321)
    assert first.store_timestamp == results[1].store_timestamp
    assert first.properties["TAGS"] == "TagA"
    assert first.store_size == results[1].wrote_bytes


def test_record_is_byte_exact_java_layout(store: MessageStore) -> None:
    msg = make_msg(body=b"cpp-body-1", tags="tagC", keys="ck1", uniq="0100007F000076F7000094A2296F0200")
    result = store.put_message(msg)
    raw = store.look_message(result.commit_log_offset)
    assert raw is not None and len(raw) == result.wrote_bytes
    assert raw[4:8] == bytes.fromhex("daa320a7")
    # properties in the dict's order, no trailing separator (as a 4.x broker writes them)
    assert raw.endswith(
        b"KEYS\x01ck1\x02UNIQ_KEY\x010100007F000076F7000094A2296F0200\x02CLUSTER\x01DefaultCluster\x02TAGS\x01tagC"
    )
    decoded, end = decode_message(raw)
    assert end == len(raw)
    assert decoded.msg_id == result.msg_id
    assert decode_offset_msg_id(result.msg_id) == (HOST, PORT, result.commit_log_offset)


def test_consume_queue_entry_holds_tags_hash(store: MessageStore) -> None:
    store.put_message(make_msg(tags="TagA"))
    store.put_message(make_msg(tags="ZZZZZZZZZZZZ"))  # a negative Java hash stays negative
    store.put_message(make_msg())
    entries = store.consume_queue_entries("TopicA", 0, 0, 10)
    assert [e[2] for e in entries] == [java_string_hash("TagA"), java_string_hash("ZZZZZZZZZZZZ"), 0]
    assert java_string_hash("ZZZZZZZZZZZZ") < 0
    assert entries[1][0] == entries[0][0] + entries[0][1]


def test_statuses_at_the_edges(store: MessageStore) -> None:
    empty = store.get_messages("Nope", 0, 5, 32)
    assert (empty.status, empty.next_begin_offset, empty.min_offset, empty.max_offset) == (
        GetStatus.NO_MESSAGE_IN_QUEUE, 0, 0, 0,
    )  # fmt: skip
    for i in range(3):
        store.put_message(make_msg(body=bytes([i])))
    one = store.get_messages("TopicA", 0, 3, 32)
    assert (one.status, one.next_begin_offset, one.messages) == (GetStatus.OFFSET_OVERFLOW_ONE, 3, [])
    badly = store.get_messages("TopicA", 0, 10, 32)
    assert (badly.status, badly.next_begin_offset) == (GetStatus.OFFSET_OVERFLOW_BADLY, 3)
    assert (badly.min_offset, badly.max_offset) == (0, 3)
    assert store.get_messages("TopicA", 0, -1, 32).status is GetStatus.OFFSET_TOO_SMALL
    assert store.get_messages("TopicA", 1, 0, 32).status is GetStatus.NO_MESSAGE_IN_QUEUE
    assert (store.min_offset("Nope", 0), store.max_offset("Nope", 0)) == (0, 0)


def test_offset_too_small_after_expiry(tmp_path: Path) -> None:
    store = open_store(tmp_path)
    try:
        for i in range(60):  # 60 × ~110 bytes over 4 KiB files: at least one full file
            store.put_message(make_msg(body=b"x" * 30 + bytes([i])))
        assert store.delete_expired_files(force=True) >= 1
        low = store.min_offset("TopicA", 0)
        assert low > 0
        small = store.get_messages("TopicA", 0, 0, 32)
        assert (small.status, small.next_begin_offset, small.min_offset) == (
            GetStatus.OFFSET_TOO_SMALL,
            low,
            low,
        )
        assert store.get_messages("TopicA", 0, low, 32).status is GetStatus.FOUND
    finally:
        store.shutdown()


def test_tag_filter_counts_skipped_entries(store: MessageStore) -> None:
    for i in range(6):
        store.put_message(make_msg(body=f"b{i}".encode(), tags="A" if i in (1, 4) else "B"))
    want = {java_string_hash("A")}
    got = store.get_messages("TopicA", 0, 0, 1, tag_codes=want)
    assert (got.status, bodies(got.messages), got.next_begin_offset) == (GetStatus.FOUND, [b"b1"], 2)
    got = store.get_messages("TopicA", 0, 2, 32, tag_codes=want)
    assert bodies(got.messages) == [b"b4"]
    assert got.next_begin_offset == 6  # the trailing non-matching entry counts too
    none = store.get_messages("TopicA", 0, 5, 32, tag_codes=want)
    assert (none.status, none.next_begin_offset, none.messages) == (GetStatus.NO_MATCHED_MESSAGE, 6, [])


def test_batch_limits(tmp_path: Path) -> None:
    store = open_store(tmp_path, commitlog_file_size=1024 * 1024, cq_entries_per_file=1000)
    try:
        for i in range(40):
            store.put_message(make_msg(body=b"%03d" % i + b"." * 1000))
        assert len(store.get_messages("TopicA", 0, 0, 5).messages) == 5
        # maxTransferCountOnMessageInMemory: 32 at most
        got = store.get_messages("TopicA", 0, 0, 100)
        assert len(got.messages) == 32 and got.next_begin_offset == 32
        # maxTransferBytesOnMessageInMemory: stop before exceeding, but always return one message
        got = store.get_messages("TopicA", 0, 0, 100, max_bytes=3000)
        assert len(got.messages) == 2 and got.next_begin_offset == 2
        got = store.get_messages("TopicA", 0, 0, 100, max_bytes=10)
        assert len(got.messages) == 1
        assert len(store.get_messages("TopicA", 0, 0, 0).messages) == 1
    finally:
        store.shutdown()


def test_batch_put(store: MessageStore) -> None:
    store.put_message(make_msg(queue_id=2, body=b"single"))
    batch = [make_msg(queue_id=2, body=f"batch-{i}".encode(), keys=f"bk{i}") for i in range(4)]
    result = store.put_messages(batch)
    assert result.status is PutStatus.PUT_OK
    assert (result.queue_offset, result.msg_num) == (1, 4)
    ids = result.msg_id.split(",")
    assert len(ids) == 4
    assert [decode_offset_msg_id(i)[2] for i in ids] == [m.commit_log_offset for m in batch]
    assert result.wrote_bytes == sum(m.store_size for m in batch)
    got = store.get_messages("TopicA", 2, 0, 32)
    assert bodies(got.messages) == [b"single", b"batch-0", b"batch-1", b"batch-2", b"batch-3"]
    assert [m.queue_offset for m in decode_messages(b"".join(got.messages))] == [0, 1, 2, 3, 4]
    assert len(store.query_by_key("TopicA", "bk2", 32, 0, 2**62).messages) == 1


def test_batch_refusals(store: MessageStore) -> None:
    assert store.put_messages([]).status is PutStatus.MESSAGE_ILLEGAL
    mixed = [make_msg(queue_id=0), make_msg(queue_id=1)]
    assert store.put_messages(mixed).status is PutStatus.MESSAGE_ILLEGAL
    delayed = [make_msg(DELAY="3")]
    assert store.put_messages(delayed).status is PutStatus.MESSAGE_ILLEGAL
    tx = make_msg()
    tx.sys_flag = MessageSysFlag.TRANSACTION_PREPARED_TYPE
    assert store.put_messages([tx]).status is PutStatus.MESSAGE_ILLEGAL
    assert store.max_offset("TopicA", 0) == 0


def test_refused_messages(store: MessageStore) -> None:
    assert store.put_message(make_msg(topic="T" * 128)).status is PutStatus.MESSAGE_ILLEGAL
    big = make_msg(body=b"x" * (store.config.max_message_size + 1))
    assert store.put_message(big).status is PutStatus.MESSAGE_ILLEGAL
    too_long = make_msg(LONG="é" * 20000)  # 20000 chars, 40000 bytes
    assert store.put_message(too_long).status is PutStatus.PROPERTIES_SIZE_EXCEEDED
    way_too_long = make_msg(LONG="a" * 40000)
    assert store.put_message(way_too_long).status is PutStatus.MESSAGE_ILLEGAL
    assert store.commitlog_max_offset == 0 and store.put_message_count == 0
    assert store.put_message(make_msg()).status is PutStatus.PUT_OK
    assert store.put_message_count == 1 and store.put_message_size == store.commitlog_max_offset


def test_record_larger_than_a_file_is_refused(tmp_path: Path) -> None:
    store = open_store(tmp_path)
    try:
        assert store.put_message(make_msg(body=b"x" * 5000)).status is PutStatus.MESSAGE_ILLEGAL
        assert store.put_message(make_msg(body=b"x" * 100)).ok
    finally:
        store.shutdown()


def test_closed_store_refuses(tmp_path: Path) -> None:
    store = open_store(tmp_path)
    store.shutdown()
    assert store.put_message(make_msg()).status is PutStatus.SERVICE_NOT_AVAILABLE
    assert store.put_messages([make_msg()]).status is PutStatus.SERVICE_NOT_AVAILABLE


def test_prepared_transaction_is_not_in_a_queue(store: MessageStore) -> None:
    tx = make_msg(keys="txkey")
    tx.sys_flag = MessageSysFlag.TRANSACTION_PREPARED_TYPE
    result = store.put_message(tx)
    assert result.ok and result.queue_offset == 0
    assert store.max_offset("TopicA", 0) == 0
    assert store.look_message(result.commit_log_offset) is not None
    assert len(store.query_by_key("TopicA", "txkey", 32, 0, 2**62).messages) == 1
    assert store.put_message(make_msg()).queue_offset == 0


def test_delayed_message_goes_to_schedule_topic(store: MessageStore) -> None:
    result = store.put_message(make_msg(topic="Orders", queue_id=3, DELAY="3"))
    assert result.ok
    assert store.max_offset("Orders", 3) == 0
    assert store.max_offset("SCHEDULE_TOPIC_XXXX", 2) == 1
    ((phy, _size, code),) = store.consume_queue_entries("SCHEDULE_TOPIC_XXXX", 2, 0, 1)
    assert code == result.store_timestamp + 10_000  # level 3 = 10 s
    stored, _ = decode_message(store.look_message(phy) or b"")
    assert (stored.topic, stored.queue_id) == ("SCHEDULE_TOPIC_XXXX", 2)
    assert stored.properties["REAL_TOPIC"] == "Orders" and stored.properties["REAL_QID"] == "3"
    capped = store.put_message(make_msg(topic="Orders", DELAY="99"))
    assert capped.ok and store.max_offset("SCHEDULE_TOPIC_XXXX", 17) == 1


def test_look_message_only_at_record_starts(store: MessageStore) -> None:
    result = store.put_message(make_msg(body=b"look"))
    raw = store.look_message(result.commit_log_offset)
    assert raw is not None and decode_message(raw)[0].body == b"look"
    assert store.look_message(result.commit_log_offset + 4) is None
    assert store.look_message(10**9) is None
    assert store.look_message(-1) is None


def test_times(tmp_path: Path) -> None:
    store = open_store(tmp_path, max_message_size=512)
    try:
        assert store.earliest_message_time("TopicA", 0) == -1
        assert store.earliest_message_time_all() == -1
        stamps = []
        for i in range(12):
            stamps.append(store.put_message(make_msg(body=b"t" * 40 + bytes([i]))).store_timestamp)
            time.sleep(0.003)
        assert store.earliest_message_time("TopicA", 0) == stamps[0]
        assert store.message_store_time("TopicA", 0, 5) == stamps[5]
        assert store.message_store_time("TopicA", 0, 12) == -1
        assert store.message_store_time("Nope", 0, 0) == -1
        # Java reads 2 × maxMessageSize bytes from the commit log's start: 1024 bytes are written now
        assert store.earliest_message_time_all() == stamps[0]
    finally:
        store.shutdown()


def test_offset_by_time(tmp_path: Path) -> None:
    store = open_store(tmp_path, cq_entries_per_file=100)
    try:
        assert store.offset_by_time("TopicA", 0, 123) == 0
        stamps = []
        for i in range(10):
            stamps.append(store.put_message(make_msg(body=bytes([i]))).store_timestamp)
            time.sleep(0.004)
        assert store.offset_by_time("TopicA", 0, stamps[4]) == 4
        assert store.offset_by_time("TopicA", 0, 0) == 0
        assert store.offset_by_time("TopicA", 0, stamps[-1] + 10_000) == 9  # max offset - 1
        # between two messages: the closer one
        assert store.offset_by_time("TopicA", 0, stamps[6] + 1) == 6
        assert store.offset_by_time("TopicA", 0, stamps[7] - 1) == 7
    finally:
        store.shutdown()


def test_queues_and_entries(store: MessageStore) -> None:
    for qid in (3, 0, 1):
        store.put_message(make_msg(topic="Q", queue_id=qid))
    store.put_message(make_msg(topic="R", queue_id=0))
    assert store.queues() == {"Q": [0, 1, 3], "R": [0]}
    assert store.consume_queue_entries("Q", 3, 0, 5)[0][1] > 0
    assert store.consume_queue_entries("Q", 3, 1, 5) == []
    assert store.consume_queue_entries("Q", 2, 0, 5) == []
    assert store.dispatch_behind_bytes == 0
    assert 0.0 < store.disk_ratio() <= 1.0


def test_ipv6_born_host(store: MessageStore) -> None:
    msg = make_msg(body=b"v6")
    msg.born_host = "fd00::2"
    result = store.put_message(msg)
    assert result.ok
    decoded = decode_messages(b"".join(store.get_messages("TopicA", 0, 0, 1).messages))[0]
    assert decoded.sys_flag & MessageSysFlag.BORNHOST_V6_FLAG
    assert decoded.born_host == "fd00:0:0:0:0:0:0:2" and decoded.body == b"v6"
    assert store.earliest_message_time("TopicA", 0) == result.store_timestamp


def test_delivered_delayed_message_keeps_delay_when_asked(store: MessageStore) -> None:
    result = store.put_message(make_msg(topic="Orders", DELAY="2", REAL_TOPIC="Orders"), apply_delay=False)
    assert result.ok and store.max_offset("Orders", 0) == 1
    stored, _ = decode_message(store.look_message(result.commit_log_offset) or b"")
    assert stored.properties["DELAY"] == "2" and stored.topic == "Orders"
