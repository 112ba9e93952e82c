"""Deleting topics and expired files, and what reads see afterwards."""

from __future__ import annotations

import os
import time
from pathlib import Path

from mqadmin.broker.store import GetStatus, MessageStore
from tests.broker.store.support import make_msg, open_store, pull_all

HOUR_MS = 3_600_000


def fill(store: MessageStore, n: int, topic: str = "TopicA", keys: bool = False) -> None:
    for i in range(n):
        msg = make_msg(topic=topic, body=b"d" * 150 + bytes([i % 256]), keys=f"k{i}" if keys else None)
        assert store.put_message(msg).ok


def test_delete_topics(store: MessageStore, tmp_path: Path) -> None:
    fill(store, 3, "Gone")
    fill(store, 2, "Kept")
    store.delete_topics({"Gone", "NeverExisted"})
    assert store.queues() == {"Kept": [0]}
    assert not (tmp_path / "store" / "consumequeue" / "Gone").exists()
    assert store.max_offset("Gone", 0) == 0
    assert store.get_messages("Gone", 0, 0, 32).status is GetStatus.NO_MESSAGE_IN_QUEUE
    # offsets start again from zero, as in Java
    assert store.put_message(make_msg(topic="Gone")).queue_offset == 0


def test_deleted_topic_stays_deleted_after_clean_restart(tmp_path: Path) -> None:
    store = open_store(tmp_path)
    fill(store, 2, "Kept")
    fill(store, 2, "Gone")  # the newest records belong to the deleted topic
    store.delete_topics({"Gone"})
    store.shutdown()
    store = open_store(tmp_path)
    try:
        assert store.queues() == {"Kept": [0]}
    finally:
        store.shutdown()


def test_clean_unused_topics_spares_system_queues(store: MessageStore) -> None:
    fill(store, 1, "A")
    fill(store, 1, "B")
    store.put_message(make_msg(topic="A", DELAY="1"))
    assert store.clean_unused_topics({"A"}) == 1
    assert set(store.queues()) == {"A", "SCHEDULE_TOPIC_XXXX"}


def test_expired_file_deletion_by_age(tmp_path: Path) -> None:
    store = open_store(tmp_path, file_reserved_hours=1.0)
    try:
        fill(store, 80, keys=True)
        files = sorted((tmp_path / "commitlog").iterdir())
        assert len(files) >= 4
        old = time.time() - 2 * 3600
        for f in files[:2]:
            os.utime(f, (old, old))
        assert store.delete_expired_files() == 2
        assert store.commitlog_min_offset == 2 * 4096
        assert sorted((tmp_path / "commitlog").iterdir()) == files[2:]
        # nothing else is old enough
        assert store.delete_expired_files() == 0
        # a later "now" expires everything but the current file
        now = int(time.time() * 1000) + 2 * HOUR_MS
        assert store.delete_expired_files(now_ms=now) == len(files) - 3
        assert len(list((tmp_path / "commitlog").iterdir())) == 1
    finally:
        store.shutdown()


def test_reads_after_forced_deletion(tmp_path: Path) -> None:
    store = open_store(tmp_path, index_num=20, index_hash_slot_num=8)
    try:
        fill(store, 80, keys=True)
        first_ids = [store.consume_queue_entries("TopicA", 0, 0, 1)[0][0]]
        cq_dir = tmp_path / "consumequeue" / "TopicA" / "0"
        cq_files_before = len(list(cq_dir.iterdir()))
        index_files_before = len(list((tmp_path / "index").iterdir()))
        deleted = store.delete_expired_files(force=True)
        assert deleted >= 3
        low = store.min_offset("TopicA", 0)
        assert low > 0
        entry = store.consume_queue_entries("TopicA", 0, low, 1)[0]
        assert entry[0] >= store.commitlog_min_offset
        assert store.consume_queue_entries("TopicA", 0, low - 1, 1) == []
        assert len(list(cq_dir.iterdir())) < cq_files_before
        assert len(list((tmp_path / "index").iterdir())) < index_files_before
        assert store.look_message(first_ids[0]) is None
        assert store.query_by_key("TopicA", "k0", 32, 0, 2**62).messages == []
        assert len(store.query_by_key("TopicA", "k79", 32, 0, 2**62).messages) == 1
        assert len(pull_all(store, "TopicA", 0, low)) == 80 - low
        assert store.earliest_message_time("TopicA", 0) == store.message_store_time("TopicA", 0, low)
    finally:
        store.shutdown()
    store = open_store(tmp_path, index_num=20, index_hash_slot_num=8)
    try:
        assert store.min_offset("TopicA", 0) == low
        assert len(pull_all(store, "TopicA", 0, low)) == 80 - low
    finally:
        store.shutdown()


def test_clean_expired_consume_queues(tmp_path: Path) -> None:
    store = open_store(tmp_path)
    try:
        fill(store, 2, "Old")
        fill(store, 60, "New")
        store.put_message(make_msg(topic="Old", DELAY="2"))
        fill(store, 1, "New")
        store.delete_expired_files(force=True)
        store.clean_expired_consume_queues()
        assert "New" in store.queues()
        assert "Old" not in store.queues()
        assert "SCHEDULE_TOPIC_XXXX" in store.queues()
    finally:
        store.shutdown()


def test_deleting_every_topic_survives_restart(tmp_path: Path) -> None:
    store = open_store(tmp_path)
    fill(store, 3, "Gone")
    store.delete_topics({"Gone"})
    store.shutdown()
    store = open_store(tmp_path)
    try:
        assert store.queues() == {}
        assert store.put_message(make_msg(topic="Gone")).queue_offset == 0
    finally:
        store.shutdown()
