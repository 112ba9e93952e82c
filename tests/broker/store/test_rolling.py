"""File rolling: blank padding at the end of commit-log files and consume-queue file boundaries."""

from __future__ import annotations

import struct
from pathlib import Path

from mqadmin.broker.store import GetStatus
from mqadmin.protocol.message import BLANK_MAGIC_CODE
from mqadmin.protocol.message_record import decode_message
from tests.broker.store.support import bodies, make_msg, open_store, pull_all


def test_commit_log_rolls_with_a_blank_marker(tmp_path: Path) -> None:
    store = open_store(tmp_path)
    try:
        results = [store.put_message(make_msg(body=b"r" * 200 + bytes([i]))) for i in range(40)]
        files = sorted((tmp_path / "commitlog").iterdir())
        assert [f.name for f in files[:3]] == [
            "00000000000000000000",
            "00000000000000004096",
            "00000000000000008192",
        ]
        assert all(f.stat().st_size == 4096 for f in files)
        # the first record of each new file starts exactly at the boundary
        first_in_second = next(r for r in results if r.commit_log_offset >= 4096)
        assert first_in_second.commit_log_offset == 4096
        last_in_first = max(
            (r for r in results if r.commit_log_offset < 4096), key=lambda r: r.commit_log_offset
        )
        end = last_in_first.commit_log_offset + last_in_first.wrote_bytes
        data = files[0].read_bytes()
        size, magic = struct.unpack_from(">ii", data, end)
        assert (size, magic) == (4096 - end, BLANK_MAGIC_CODE)
        assert data[end + 8 :] == b"\0" * (4096 - end - 8)
        for r in results:  # every record readable by its offset id, none spans two files
            assert r.commit_log_offset // 4096 == (r.commit_log_offset + r.wrote_bytes - 1) // 4096
            assert decode_message(store.look_message(r.commit_log_offset) or b"")[0].msg_id == r.msg_id
        assert pull_all(store, "TopicA", 0) == [b"r" * 200 + bytes([i]) for i in range(40)]
    finally:
        store.shutdown()


def test_batch_moves_whole_to_the_next_file(tmp_path: Path) -> None:
    store = open_store(tmp_path)
    try:
        store.put_message(make_msg(body=b"a" * 3000))
        batch = [make_msg(body=b"b" * 300) for _ in range(4)]
        result = store.put_messages(batch)
        assert result.ok and result.commit_log_offset == 4096
        assert [m.commit_log_offset for m in batch] == [4096 + i * batch[0].store_size for i in range(4)]
    finally:
        store.shutdown()


def test_pull_stops_at_a_consume_queue_file_boundary(tmp_path: Path) -> None:
    store = open_store(tmp_path, cq_entries_per_file=5, commitlog_file_size=65536)
    try:
        for i in range(12):
            store.put_message(make_msg(body=bytes([i])))
        cq_files = sorted(p.name for p in (tmp_path / "consumequeue" / "TopicA" / "0").iterdir())
        assert cq_files == ["00000000000000000000", "00000000000000000100", "00000000000000000200"]
        assert all((tmp_path / "consumequeue" / "TopicA" / "0" / n).stat().st_size == 100 for n in cq_files)
        got = store.get_messages("TopicA", 0, 3, 32)
        assert bodies(got.messages) == [bytes([3]), bytes([4])]
        assert got.next_begin_offset == 5
        got = store.get_messages("TopicA", 0, 5, 32)
        assert len(got.messages) == 5 and got.next_begin_offset == 10
        got = store.get_messages("TopicA", 0, 10, 32)
        assert got.status is GetStatus.FOUND and got.next_begin_offset == 12
    finally:
        store.shutdown()


def test_many_files_survive_restart(tmp_path: Path) -> None:
    store = open_store(tmp_path)
    expected = {q: [f"{q}-{i}".encode() * 20 for i in range(30)] for q in range(3)}
    for i in range(30):
        for q in range(3):
            assert store.put_message(make_msg(queue_id=q, body=expected[q][i])).ok
    store.shutdown()
    store = open_store(tmp_path)
    try:
        for q in range(3):
            assert pull_all(store, "TopicA", q) == expected[q]
        assert store.put_message(make_msg(queue_id=1)).queue_offset == 30
    finally:
        store.shutdown()
