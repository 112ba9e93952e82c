"""Which files recovery checks again: the three newest (4.9.8's ``recoverNormally``) and the one where
dispatch stood (5.3.3's), whatever the checkpoint says; older files are trusted, as in Java."""

from __future__ import annotations

from pathlib import Path

import pytest

from mqadmin.broker.store import MessageStore
from tests.broker.store.support import crash, make_msg, open_store, pull_all


def fill(store: MessageStore, n: int) -> list[bytes]:
    bodies = [b"window-%04d-" % i + b"w" * 100 for i in range(n)]
    for body in bodies:
        assert store.put_message(make_msg(body=body)).ok
    return bodies


def flip(root: Path, body: bytes) -> int:
    """Damage ``body`` on disk; the index of the commit-log file that holds it."""
    files = sorted((root / "commitlog").iterdir())
    for i, path in enumerate(files):
        data = bytearray(path.read_bytes())
        at = data.find(body)
        if at >= 0:
            data[at + 3] ^= 0x01
            path.write_bytes(bytes(data))
            return i
    raise AssertionError("body not on disk")


@pytest.mark.parametrize("clean", [True, False])
def test_damage_in_the_three_newest_files_ends_the_log_there(tmp_path: Path, clean: bool) -> None:
    store = open_store(tmp_path)
    bodies = fill(store, 200)
    files = len(list((tmp_path / "commitlog").iterdir()))
    assert files > 6
    victim = len(bodies) - 20  # in the newest file or the one before
    store.shutdown() if clean else crash(store)
    held_in = flip(tmp_path, bodies[victim])
    assert held_in >= files - 3
    store = open_store(tmp_path)
    try:
        assert store.commitlog.stop_reason == "body CRC mismatch"
        assert pull_all(store, "TopicA", 0) == bodies[:victim]
        assert store.max_offset("TopicA", 0) == victim
    finally:
        store.shutdown()


def test_older_files_are_not_checked_again(tmp_path: Path) -> None:
    store = open_store(tmp_path)
    bodies = fill(store, 200)
    store.shutdown()
    assert flip(tmp_path, bodies[0]) == 0
    store = open_store(tmp_path)
    try:
        got = pull_all(store, "TopicA", 0)
        assert len(got) == len(bodies) and got[0] != bodies[0] and got[1:] == bodies[1:]
    finally:
        store.shutdown()


def test_without_the_crc_check_a_damaged_body_passes(tmp_path: Path) -> None:
    store = open_store(tmp_path, check_crc_on_recover=False)
    bodies = fill(store, 200)
    store.shutdown()
    flip(tmp_path, bodies[-5])
    store = open_store(tmp_path, check_crc_on_recover=False)
    try:
        got = pull_all(store, "TopicA", 0)
        assert len(got) == len(bodies) and got[-5] != bodies[-5]
    finally:
        store.shutdown()
