"""Property test: the store against a list-per-queue model, across file rolls and restarts."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from mqadmin.broker.store import GetStatus, MessageStore
from mqadmin.protocol.javacoll import java_string_hash
from mqadmin.protocol.message_record import decode_messages
from tests.broker.store.support import crash, make_msg, open_store

PER_FILE = 7
TOPICS = st.sampled_from(["A", "B"])
QUEUE_IDS = st.integers(0, 2)
TAGS = st.sampled_from([None, "x", "y"])
BODIES = st.binary(min_size=0, max_size=300)
FILTERS = st.sampled_from([None, {java_string_hash("x")}, {java_string_hash("x"), java_string_hash("y")}])

Entry = tuple[bytes, str | None]


def expected_get(
    entries: list[Entry], offset: int, max_msgs: int, codes: set[int] | None
) -> tuple[GetStatus, list[Entry], int]:
    """Java's getMessage for small messages: file boundary, 32-message cap, filtered entries counted."""
    top = len(entries)
    if top == 0:
        return GetStatus.NO_MESSAGE_IN_QUEUE, [], 0
    if offset < 0:
        return GetStatus.OFFSET_TOO_SMALL, [], 0
    if offset == top:
        return GetStatus.OFFSET_OVERFLOW_ONE, [], offset
    if offset > top:
        return GetStatus.OFFSET_OVERFLOW_BADLY, [], top
    end = min(top, (offset // PER_FILE + 1) * PER_FILE, offset + max(800, max_msgs))
    cap = min(max_msgs, 32)
    found: list[Entry] = []
    i = offset
    while i < end:
        if found and len(found) >= cap:
            break
        body, tags = entries[i]
        if codes is None or (java_string_hash(tags) if tags else 0) in codes:
            found.append((body, tags))
        i += 1
    return (GetStatus.FOUND if found else GetStatus.NO_MATCHED_MESSAGE), found, i


class StoreMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.dir = Path(tempfile.mkdtemp(prefix="store-model-"))
        self.store: MessageStore = self._open()
        self.model: dict[tuple[str, int], list[Entry]] = {}

    def _open(self) -> MessageStore:
        return open_store(self.dir, cq_entries_per_file=PER_FILE, commitlog_file_size=4096)

    @rule(topic=TOPICS, queue_id=QUEUE_IDS, body=BODIES, tags=TAGS)
    def put(self, topic: str, queue_id: int, body: bytes, tags: str | None) -> None:
        queue = self.model.setdefault((topic, queue_id), [])
        result = self.store.put_message(make_msg(topic, queue_id, body, tags=tags))
        assert result.ok and result.queue_offset == len(queue)
        queue.append((body, tags))

    @rule(topic=TOPICS, queue_id=QUEUE_IDS, items=st.lists(st.tuples(BODIES, TAGS), min_size=1, max_size=4))
    def put_batch(self, topic: str, queue_id: int, items: list[Entry]) -> None:
        queue = self.model.setdefault((topic, queue_id), [])
        result = self.store.put_messages([make_msg(topic, queue_id, b, tags=t) for b, t in items])
        assert result.ok and result.queue_offset == len(queue) and result.msg_num == len(items)
        queue.extend(items)

    @rule(
        topic=TOPICS,
        queue_id=QUEUE_IDS,
        delta=st.integers(-2, 40),
        max_msgs=st.integers(0, 40),
        codes=FILTERS,
    )
    def get(self, topic: str, queue_id: int, delta: int, max_msgs: int, codes: set[int] | None) -> None:
        entries = self.model.get((topic, queue_id), [])
        offset = delta if delta < 0 else min(delta, len(entries) + 2)
        result = self.store.get_messages(topic, queue_id, offset, max_msgs, tag_codes=codes)
        status, found, next_offset = expected_get(entries, offset, max_msgs, codes)
        assert (result.status, result.next_begin_offset) == (status, next_offset)
        assert (result.min_offset, result.max_offset) == (0, len(entries))
        msgs = decode_messages(b"".join(result.messages))
        assert [(m.body, m.properties.get("TAGS")) for m in msgs] == found
        if msgs:
            assert msgs[0].queue_offset == offset or codes is not None
            assert all(m.topic == topic and m.queue_id == queue_id for m in msgs)

    @precondition(lambda self: bool(self.model))
    @rule(clean=st.booleans())
    def restart(self, clean: bool) -> None:
        if clean:
            self.store.shutdown()
        else:
            crash(self.store)
        self.store = self._open()

    @invariant()
    def offsets_match(self) -> None:
        for (topic, queue_id), entries in self.model.items():
            assert self.store.max_offset(topic, queue_id) == len(entries)
            assert self.store.min_offset(topic, queue_id) == 0

    def teardown(self) -> None:
        if self.store.running:
            self.store.shutdown()
        shutil.rmtree(self.dir, ignore_errors=True)


StoreMachine.TestCase.settings = settings(max_examples=40, stateful_step_count=30, deadline=None)
test_store_matches_model = StoreMachine.TestCase
