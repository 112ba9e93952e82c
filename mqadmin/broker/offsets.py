"""Committed consumer offsets (Java ``ConsumerOffsetManager``), persisted as ``consumerOffset.json``.

Keyed ``topic@group`` → queue id → next offset to consume. Java persists the table every
``flushConsumerOffsetInterval`` (5 s) and at shutdown; so do we, and only when it changed. After a
``kill -9`` a consumer may therefore get up to 5 s of messages again, the at-least-once window.

A persist that fails is logged once and leaves the table dirty, so the next flush (and the shutdown)
tries again; it never raises. A ``topic@group`` entry is only created for a legal group and topic
(the request headers refuse others before this; the check here is the last line, run once per new
entry, never on the commit path of a known one).

Beside the committed offsets it remembers, in memory only, where each group's latest pull on a queue
ends (5.x ``pullOffsetTable``): GET_CONSUME_STATS reports it as ``pullOffset`` so a 5.x tool can show
the messages in flight (pulled, not yet committed).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from mqadmin.broker.jsonfile import load_config_file, persist_config_file, pretty_json
from mqadmin.protocol import fastjson, names
from mqadmin.protocol.bodies import fieldcheck as j
from mqadmin.protocol.javacoll import chm_capacity, hash_ordered

__all__ = ["OffsetManager"]

log = logging.getLogger("mqadmin.broker")

_OUTER_INITIAL = 512  # new ConcurrentHashMap<>(512)
_INNER_INITIAL = 32  # new ConcurrentHashMap<>(32)


class OffsetManager:
    """``topic@group`` → {queue id: offset}."""

    def __init__(self, config_dir: Path) -> None:
        self.path = config_dir / "consumerOffset.json"
        self.table: dict[str, dict[int, int]] = {}
        #: ``topic@group`` → {queue id: next offset of the latest pull}; never persisted, as in Java
        self.pull_table: dict[str, dict[int, int]] = {}
        self.dirty = False

    # ------------------------------------------------------------------------------ persistence

    def load(self) -> None:
        def decode(obj: Any) -> None:
            table = j.obj(obj, "ConsumerOffsetManager").get("offsetTable") or {}
            for key, queues in j.obj(table, "offsetTable").items():
                if not isinstance(key, str) or not isinstance(queues, dict):
                    continue
                self.table[key] = {
                    j.numeric_key(q, "queueId", j.INT_MIN, j.INT_MAX): j.int64(v, "offset")
                    for q, v in queues.items()
                    if v is not None
                }

        load_config_file(self.path, decode)

    def to_json_obj(self) -> dict[str, Any]:
        t = self.table
        outer = hash_ordered(t, chm_capacity(len(t), _OUTER_INITIAL))
        return {
            "offsetTable": {
                k: hash_ordered(v, chm_capacity(len(v), _INNER_INITIAL)) for k, v in outer.items()
            }
        }

    def encode(self, pretty: bool = False) -> str:
        obj = self.to_json_obj()
        return pretty_json(obj) if pretty else fastjson.dumps(obj)

    def persist(self) -> bool:
        """Write the table now; False (and still dirty) when that failed."""
        self.dirty = False
        if not persist_config_file(self.path, lambda: self.encode(pretty=True)):
            self.dirty = True
            return False
        return True

    def persist_if_dirty(self) -> None:
        if self.dirty:
            self.persist()

    # ------------------------------------------------------------------------------ offsets

    def commit(self, group: str, topic: str, queue_id: int, offset: int) -> None:
        """Commit ``offset``; a new ``topic@group`` with an illegal name raises ValueError, nothing kept."""
        key = f"{topic}@{group}"
        queues = self.table.get(key)
        if queues is None:
            why = names.check_group(group) or names.check_consumed_topic(topic)
            if why is not None:
                raise ValueError(f"no offset kept for {key!r}: {why}")
            self.table[key] = {queue_id: offset}
        else:
            old = queues.get(queue_id)
            if old is not None and offset < old:
                log.debug("offset of %s queue %d goes back from %d to %d", key, queue_id, old, offset)
            queues[queue_id] = offset
        self.dirty = True

    def query(self, group: str, topic: str, queue_id: int) -> int:
        """The committed offset, or -1 when there is none."""
        queues = self.table.get(f"{topic}@{group}")
        if queues is None:
            return -1
        return queues.get(queue_id, -1)

    def commit_pull(self, group: str, topic: str, queue_id: int, next_offset: int) -> None:
        """``commitPullOffset``: where the group's latest pull on the queue ended."""
        self.pull_table.setdefault(f"{topic}@{group}", {})[queue_id] = next_offset

    def query_pull(self, group: str, topic: str, queue_id: int) -> int:
        """``queryPullOffset``: the latest pull's end, else the committed offset, else -1."""
        queues = self.pull_table.get(f"{topic}@{group}")
        if queues is not None and queue_id in queues:
            return queues[queue_id]
        return self.query(group, topic, queue_id)

    def forget_pull(self, group: str, topic: str, queue_id: int) -> None:
        """After a reset of the queue the old pull position says nothing about what is in flight."""
        queues = self.pull_table.get(f"{topic}@{group}")
        if queues is not None:
            queues.pop(queue_id, None)

    def queues_of(self, group: str, topic: str) -> dict[int, int] | None:
        return self.table.get(f"{topic}@{group}")

    def topics_of_group(self, group: str) -> list[str]:
        """``whichTopicByConsumer``: topics this group has committed offsets for."""
        out = []
        for key in self.table:
            parts = key.split("@")
            if len(parts) == 2 and parts[1] == group:
                out.append(parts[0])
        return out

    def groups_of_topic(self, topic: str) -> list[str]:
        """``whichGroupByTopic``."""
        out = []
        for key in self.table:
            parts = key.split("@")
            if len(parts) == 2 and parts[0] == topic:
                out.append(parts[1])
        return out

    def remove_group(self, group: str) -> None:
        """``removeOffset``: every ``*@group`` entry (pull positions too)."""
        for key in [k for k in self.table if _is_group_key(k, group)]:
            del self.table[key]
            log.warning("clean group offset %s", key)
        for key in [k for k in self.pull_table if _is_group_key(k, group)]:
            del self.pull_table[key]
        self.dirty = True

    def clone(self, src_group: str, dest_group: str, topic: str) -> None:
        queues = self.table.get(f"{topic}@{src_group}")
        if queues is not None:
            why = names.check_group(dest_group)
            if why is not None:
                raise ValueError(f"no offset kept for {topic}@{dest_group!r}: {why}")
            self.table[f"{topic}@{dest_group}"] = dict(queues)
            self.dirty = True

    def min_offsets_of_topic(
        self, topic: str, filter_groups: Iterable[str], min_in_store: dict[int, int]
    ) -> dict[int, int]:
        """``queryMinOffsetInAllGroup``: per queue the lowest committed offset still in the store."""
        skip = set(filter_groups)
        out: dict[int, int] = {}
        for key, queues in self.table.items():
            parts = key.split("@")
            if len(parts) != 2 or parts[0] != topic or parts[1] in skip:
                continue
            for qid, off in queues.items():
                if off >= min_in_store.get(qid, 0):
                    out[qid] = min(off, out.get(qid, off))
        return out


def _is_group_key(key: str, group: str) -> bool:
    return key.count("@") == 1 and key.split("@")[1] == group
