"""Restarts: clean and unclean, torn tails, lagging or missing consume queues and index."""

from __future__ import annotations

import shutil
import struct
from pathlib import Path

import pytest

from mqadmin.broker.store import MessageStore, StoreError
from mqadmin.broker.store.checkpoint import Checkpoint
from mqadmin.protocol.message import BLANK_MAGIC_CODE
from mqadmin.protocol.message_record import decode_message
from tests.broker.store.support import crash, make_msg, open_store, pull_all

FOREVER = 2**63 - 1


def put_numbered(store: MessageStore, start: int, n: int, queues: int = 2) -> dict[int, list[bytes]]:
    out: dict[int, list[bytes]] = {q: [] for q in range(queues)}
    for i in range(start, start + n):
        q = i % queues
        body = b"msg-%05d-" % i + b"p" * 60
        assert store.put_message(make_msg(queue_id=q, body=body, keys=f"key{i}", tags="T")).ok
        out[q].append(body)
    return out


def merged(*parts: dict[int, list[bytes]]) -> dict[int, list[bytes]]:
    out: dict[int, list[bytes]] = {}
    for part in parts:
        for q, items in part.items():
            out.setdefault(q, []).extend(items)
    return out


def assert_contents(store: MessageStore, expected: dict[int, list[bytes]]) -> None:
    for q, items in expected.items():
        assert store.max_offset("TopicA", q) == len(items)
        assert pull_all(store, "TopicA", q) == items


def commitlog_file(root: Path, offset: int) -> tuple[Path, int]:
    start = offset - offset % 4096
    return root / "commitlog" / f"{start:020d}", offset - start


def test_clean_restart(tmp_path: Path) -> None:
    store = open_store(tmp_path)
    assert (tmp_path / "abort").exists() and (tmp_path / "lock").exists()
    expected = put_numbered(store, 0, 50)
    last_ts = store._last_store_ts
    end = store.commitlog_max_offset
    store.shutdown()
    assert not (tmp_path / "abort").exists()
    data = (tmp_path / "checkpoint").read_bytes()
    assert len(data) == 4096
    assert struct.unpack_from(">qqq", data, 0) == (last_ts, last_ts, last_ts)
    assert Checkpoint.read(tmp_path / "checkpoint").dispatched_offset == end

    store = open_store(tmp_path)
    try:
        assert store.last_shutdown_clean is True
        assert store.recovery_info["rescanned"] == 0
        assert store.commitlog_max_offset == end
        assert_contents(store, expected)
        more = put_numbered(store, 50, 10)
        assert_contents(store, merged(expected, more))
    finally:
        store.shutdown()


def test_unclean_restart_keeps_everything(tmp_path: Path) -> None:
    store = open_store(tmp_path)
    expected = put_numbered(store, 0, 40)
    crash(store)
    store = open_store(tmp_path)
    try:
        assert store.last_shutdown_clean is False
        assert_contents(store, expected)
        more = put_numbered(store, 40, 6)
        assert_contents(store, merged(expected, more))
        assert len(store.query_by_key("TopicA", "key3", 32, 0, FOREVER).messages) == 1
    finally:
        store.shutdown()


def test_torn_tail_is_cut_off(tmp_path: Path) -> None:
    store = open_store(tmp_path)
    expected = put_numbered(store, 0, 9)
    end = store.commitlog_max_offset
    crash(store)
    # a record that was being written when the process died: only its first bytes reached the file
    path, pos = commitlog_file(tmp_path, end)
    probe = make_msg(body=b"never acknowledged" * 3)
    probe.commit_log_offset = end
    from mqadmin.protocol.message_record import encode_message

    torn = encode_message(probe, trailing_separator=False)[:70]
    with open(path, "r+b") as f:
        f.seek(pos)
        f.write(torn)
    store = open_store(tmp_path)
    try:
        assert store.commitlog_max_offset == end
        assert path.read_bytes()[pos:] == b"\0" * (4096 - pos)
        assert_contents(store, expected)
        more = put_numbered(store, 9, 4)
        assert_contents(store, merged(expected, more))
    finally:
        store.shutdown()


def test_record_without_queue_entry_is_redispatched(tmp_path: Path) -> None:
    store = open_store(tmp_path)
    expected = put_numbered(store, 0, 20, queues=1)
    crash(store)
    # the process died after writing the last three records but before their queue entries
    cq = tmp_path / "consumequeue" / "TopicA" / "0"
    for n in (17, 18, 19):
        f = cq / f"{(n // 8) * 8 * 20:020d}"
        with open(f, "r+b") as fh:
            fh.seek((n % 8) * 20)
            fh.write(b"\0" * 20)
    store = open_store(tmp_path)
    try:
        assert store.recovery_info["rescanned"] == 3
        assert_contents(store, expected)
        assert store.put_message(make_msg(queue_id=0)).queue_offset == 20
    finally:
        store.shutdown()


def test_corrupt_undispatched_record_is_dropped(tmp_path: Path) -> None:
    store = open_store(tmp_path, cq_entries_per_file=100)
    expected = put_numbered(store, 0, 5, queues=1)
    victim = store.put_message(make_msg(body=b"corrupt me please"))
    crash(store)
    cq = tmp_path / "consumequeue" / "TopicA" / "0" / f"{0:020d}"
    with open(cq, "r+b") as fh:
        fh.seek(5 * 20)
        fh.write(b"\0" * 20)
    path, pos = commitlog_file(tmp_path, victim.commit_log_offset)
    with open(path, "r+b") as fh:
        fh.seek(pos + 88)  # the first body byte
        fh.write(b"X")
    store = open_store(tmp_path, cq_entries_per_file=100)
    try:
        assert store.commitlog_max_offset == victim.commit_log_offset
        assert_contents(store, expected)
    finally:
        store.shutdown()


def test_queues_and_index_rebuilt_from_scratch(tmp_path: Path) -> None:
    store = open_store(tmp_path)
    expected = put_numbered(store, 0, 60)
    store.shutdown()
    shutil.rmtree(tmp_path / "consumequeue")
    shutil.rmtree(tmp_path / "index")
    store = open_store(tmp_path)
    try:
        assert store.recovery_info["rescanned"] == 60
        assert_contents(store, expected)
        hits = store.query_by_key("TopicA", "key42", 32, 0, FOREVER).messages
        assert [decode_message(h)[0].body for h in hits] == [b"msg-00042-" + b"p" * 60]
    finally:
        store.shutdown()


def test_queue_entries_beyond_the_log_are_truncated(tmp_path: Path) -> None:
    store = open_store(tmp_path)
    expected = put_numbered(store, 0, 30, queues=1)
    last_offset = store.consume_queue_entries("TopicA", 0, 29, 1)[0][0]
    crash(store)
    # the commit log lost its last record (as after a power failure without fsync)
    path, pos = commitlog_file(tmp_path, last_offset)
    with open(path, "r+b") as fh:
        fh.seek(pos)
        fh.write(b"\0" * 100)
    store = open_store(tmp_path)
    try:
        assert store.commitlog_max_offset == last_offset
        assert_contents(store, {0: expected[0][:29]})
        assert store.query_by_key("TopicA", "key29", 32, 0, FOREVER).messages == []
        assert store.put_message(make_msg(queue_id=0, keys="key29")).queue_offset == 29
        assert len(store.query_by_key("TopicA", "key29", 32, 0, FOREVER).messages) == 1
    finally:
        store.shutdown()


@pytest.mark.parametrize("next_file_created", [False, True])
def test_crash_between_blank_marker_and_next_record(tmp_path: Path, next_file_created: bool) -> None:
    store = open_store(tmp_path)
    expected = put_numbered(store, 0, 3, queues=1)
    end = store.commitlog_max_offset
    crash(store)
    path, pos = commitlog_file(tmp_path, end)
    with open(path, "r+b") as fh:
        fh.seek(pos)
        fh.write(struct.pack(">ii", 4096 - pos, BLANK_MAGIC_CODE))
    if next_file_created:
        with open(tmp_path / "commitlog" / f"{4096:020d}", "wb") as fh:
            fh.truncate(4096)
    store = open_store(tmp_path)
    try:
        assert store.commitlog_max_offset == 4096
        result = store.put_message(make_msg(queue_id=0, body=b"after"))
        assert result.commit_log_offset == 4096
        assert_contents(store, {0: [*expected[0], b"after"]})
    finally:
        store.shutdown()


def test_index_slots_repaired(tmp_path: Path) -> None:
    store = open_store(tmp_path)
    store.put_message(make_msg(keys="first"))
    store.put_message(make_msg(keys="last"))
    slot_num = store.config.index_hash_slot_num
    crash(store)
    # the process died after the index header was updated but before the slot was
    from mqadmin.broker.store.index import key_hash

    (index_file,) = (tmp_path / "index").iterdir()
    with open(index_file, "r+b") as fh:
        fh.seek(40 + (key_hash("TopicA#last") % slot_num) * 4)
        fh.write(b"\0\0\0\0")
    store = open_store(tmp_path)
    try:
        assert len(store.query_by_key("TopicA", "last", 32, 0, FOREVER).messages) == 1
        assert len(store.query_by_key("TopicA", "first", 32, 0, FOREVER).messages) == 1
    finally:
        store.shutdown()


def test_second_store_on_the_same_root_is_refused(tmp_path: Path) -> None:
    store = open_store(tmp_path)
    try:
        with pytest.raises(StoreError, match="Lock failed"):
            open_store(tmp_path)
    finally:
        store.shutdown()
    open_store(tmp_path).shutdown()


def test_foreign_file_size_is_refused(tmp_path: Path) -> None:
    store = open_store(tmp_path)
    put_numbered(store, 0, 2)
    store.shutdown()
    with pytest.raises(StoreError, match="file size"):
        open_store(tmp_path, commitlog_file_size=8192)
    open_store(tmp_path).shutdown()  # the lock was released on failure


def test_everything_lost_from_the_log_is_forgotten(tmp_path: Path) -> None:
    store = open_store(tmp_path)
    store.put_message(make_msg(keys="gone"))
    crash(store)
    with open(tmp_path / "commitlog" / f"{0:020d}", "r+b") as fh:
        fh.write(b"\0" * 200)
    store = open_store(tmp_path)
    try:
        assert store.commitlog_max_offset == 0 and store.max_offset("TopicA", 0) == 0
        assert store.query_by_key("TopicA", "gone", 32, 0, FOREVER).messages == []
        result = store.put_message(make_msg(keys="fresh"))
        assert result.commit_log_offset == 0 and result.queue_offset == 0
        assert len(store.query_by_key("TopicA", "fresh", 32, 0, FOREVER).messages) == 1
    finally:
        store.shutdown()


def test_queue_entries_lost_behind_the_frontier_come_back_after_flush(tmp_path: Path) -> None:
    store = open_store(tmp_path, cq_entries_per_file=100)
    expected = put_numbered(store, 0, 10)  # queues 0 and 1 alternate
    store.flush()
    flushed = store.commitlog_max_offset
    more = put_numbered(store, 10, 6)
    crash(store)
    # a power failure kept queue 1's newest entry but lost queue 0's entries written after the flush
    cq0 = tmp_path / "consumequeue" / "TopicA" / "0" / f"{0:020d}"
    with open(cq0, "r+b") as fh:
        fh.seek(5 * 20)
        fh.write(b"\0" * 3 * 20)
    store = open_store(tmp_path, cq_entries_per_file=100)
    try:
        assert store.recovery_info["scan_start"] == flushed
        assert_contents(store, merged(expected, more))
    finally:
        store.shutdown()


def test_rebuild_after_expiry_starts_queues_at_their_first_kept_offset(tmp_path: Path) -> None:
    store = open_store(tmp_path, cq_entries_per_file=100)
    expected = put_numbered(store, 0, 120, queues=1)
    assert store.delete_expired_files(force=True) > 0
    low = store.min_offset("TopicA", 0)
    store.shutdown()
    shutil.rmtree(tmp_path / "consumequeue")
    store = open_store(tmp_path, cq_entries_per_file=100)
    try:
        assert (store.min_offset("TopicA", 0), store.max_offset("TopicA", 0)) == (low, 120)
        # the space before the first entry is filler, as Java's fillPreBlank writes it
        assert low % 100
        first_file = tmp_path / "consumequeue" / "TopicA" / "0" / f"{low // 100 * 2000:020d}"
        assert first_file.read_bytes()[:20] == struct.pack(">qiq", 0, 0x7FFFFFFF, 0)
        assert pull_all(store, "TopicA", 0, low) == expected[0][low:]
        too_small = store.get_messages("TopicA", 0, 0, 32)
        assert (too_small.status.name, too_small.next_begin_offset) == ("OFFSET_TOO_SMALL", low)
    finally:
        store.shutdown()
    store = open_store(tmp_path, cq_entries_per_file=100)
    try:
        assert store.min_offset("TopicA", 0) == low
        assert store.put_message(make_msg(queue_id=0)).queue_offset == 120
    finally:
        store.shutdown()
