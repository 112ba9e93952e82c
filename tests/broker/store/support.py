"""Helpers for the store tests: small-file configurations, message builders, crash simulation."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from mqadmin.broker.store import MessageStore, StoreConfig
from mqadmin.protocol.message_record import MessageExt, decode_messages

HOST = "127.0.0.1"
PORT = 10911


def small_config(root: Path, **overrides: Any) -> StoreConfig:
    """Files small enough that a few dozen messages roll commit-log and consume-queue files."""
    settings: dict[str, Any] = {
        "commitlog_file_size": 4096,
        "cq_entries_per_file": 8,
        "index_hash_slot_num": 64,
        "index_num": 256,
    }
    settings.update(overrides)
    return StoreConfig(root, **settings)


def open_store(root: Path, **overrides: Any) -> MessageStore:
    store = MessageStore(small_config(root, **overrides), HOST, PORT)
    store.start()
    return store


def crash(store: MessageStore) -> None:
    """Stop using a store the way kill -9 would: no flush, no checkpoint, the abort marker stays."""
    store._running = False
    store._close_files()
    store._lock.release()


def make_msg(
    topic: str = "TopicA",
    queue_id: int = 0,
    body: bytes = b"hello",
    *,
    tags: str | None = None,
    keys: str | None = None,
    uniq: str | None = None,
    **props: str,
) -> MessageExt:
    properties: dict[str, str] = {}
    if keys is not None:
        properties["KEYS"] = keys
    if uniq is not None:
        properties["UNIQ_KEY"] = uniq
    properties["CLUSTER"] = "DefaultCluster"
    if tags is not None:
        properties["TAGS"] = tags
    properties.update(props)
    return MessageExt(
        topic=topic,
        queue_id=queue_id,
        body=body,
        properties=properties,
        born_timestamp=int(time.time() * 1000),
        born_host="10.1.2.3",
        born_port=54321,
    )


def bodies(records: list[bytes]) -> list[bytes]:
    return [m.body for m in decode_messages(b"".join(records))]


def pull_all(store: MessageStore, topic: str, queue_id: int, offset: int = 0) -> list[bytes]:
    """Every body from ``offset`` to the end of the queue, following next_begin_offset."""
    out: list[bytes] = []
    while offset < store.max_offset(topic, queue_id):
        result = store.get_messages(topic, queue_id, offset, 32)
        out.extend(bodies(result.messages))
        assert result.next_begin_offset > offset
        offset = result.next_begin_offset
    return out
