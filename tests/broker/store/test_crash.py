"""A real crash: a writer process is killed with SIGKILL at a random moment, then the store reopens."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

from mqadmin.broker.store import GetStatus, MessageStore
from mqadmin.protocol.message_record import decode_message, decode_messages
from tests.broker.store.crash_writer import CONFIG, QUEUES, body_of
from tests.broker.store.support import HOST, PORT, make_msg, small_config

PROJECT = Path(__file__).resolve().parents[3]


def run_and_kill(root: Path, first: int, rng: random.Random) -> list[tuple[int, int, int, int]]:
    """Start a writer, let it acknowledge a random number of messages, SIGKILL it mid-stream."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "tests.broker.store.crash_writer", str(root), str(first)],
        cwd=PROJECT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None
    acked: list[tuple[int, int, int, int]] = []
    target = rng.randint(1, 1500)
    deadline = time.monotonic() + 30
    while len(acked) < target and time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        acked.append(tuple(int(x) for x in line.split()))  # type: ignore[arg-type]
    time.sleep(rng.random() * 0.02)  # let it run on into an unknown state
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=10)
    rest = proc.stdout.read()  # the buffered reader may hold lines already; communicate() would skip them
    err = proc.stderr.read() if proc.stderr is not None else b""
    proc.stdout.close()
    if proc.stderr is not None:
        proc.stderr.close()
    assert proc.returncode == -signal.SIGKILL, err.decode()
    for line in rest.decode().splitlines():
        parts = line.split()
        if len(parts) == 4:  # a line cut by the kill was never fully printed
            acked.append((int(parts[0]), int(parts[1]), int(parts[2]), int(parts[3])))
    assert acked, err.decode()
    return acked


def check(store: MessageStore, acked: list[tuple[int, int, int, int]]) -> None:
    """Every acknowledged message is readable by offset id and at its queue offset."""
    for n, offset, queue_offset, queue_id in acked:
        record = store.look_message(offset)
        assert record is not None, f"message {n} at {offset} lost"
        msg, _ = decode_message(record)
        assert msg.body == body_of(n) and msg.queue_offset == queue_offset and msg.queue_id == queue_id
        pulled = store.get_messages("TopicA", queue_id, queue_offset, 1)
        assert pulled.status is GetStatus.FOUND, (n, queue_id, queue_offset, pulled.status)
        assert [m.body for m in decode_messages(b"".join(pulled.messages))] == [body_of(n)]
    for queue_id in range(QUEUES):  # queues are dense: offsets 0..max-1 in order
        offset = 0
        while offset < store.max_offset("TopicA", queue_id):
            result = store.get_messages("TopicA", queue_id, offset, 32)
            got = [m.queue_offset for m in decode_messages(b"".join(result.messages))]
            assert got == list(range(offset, offset + len(got)))
            offset = result.next_begin_offset


def test_kill_minus_nine_loses_nothing_acknowledged(tmp_path: Path) -> None:
    rng = random.Random(int(os.environ.get("CRASH_SEED", time.time_ns() % 1_000_000)))
    root = tmp_path / "store"
    next_n = 0
    everything: list[tuple[int, int, int, int]] = []
    for round_ in range(3):
        acked = run_and_kill(root, next_n, rng)
        everything.extend(acked)
        store = MessageStore(small_config(root, **CONFIG), HOST, PORT)
        store.start()
        try:
            assert store.last_shutdown_clean is False
            check(store, everything)
            # the store takes new writes right after the unacknowledged tail
            before = store.max_offset("TopicA", 1)
            probe = store.put_messages([make_msg(topic="Probe", body=b"probe", keys=f"probe{round_}")])
            assert probe.ok
            assert len(store.query_by_key("Probe", f"probe{round_}", 32, 0, 2**63 - 1).messages) == 1
            follow = store.put_message(make_msg(queue_id=1, body=b"follow"))
            assert follow.ok and follow.queue_offset == before
            assert store.get_messages("TopicA", 1, before, 1).next_begin_offset == before + 1
            assert len(store.query_by_key("TopicA", f"k{acked[-1][0]}", 32, 0, 2**63 - 1).messages) >= 1
        finally:
            store.shutdown()
        # messages written after the last acknowledged one may or may not exist; skip their numbers
        next_n = max(n for n, *_ in everything) + 100
