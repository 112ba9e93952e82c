"""``consumerProgress --stuck-after``: stuck is a committed offset that does not move while there is
lag (the rule of ``analyze lag``), not old messages: a busy C++ consumer behind on old messages is
not stuck, a group whose consumer is gone is."""

from __future__ import annotations

import json
import subprocess
import sys
import time

from mqadmin.admin.stuck import queue_stuck
from tests.operator.conftest import SLOW_CONSUMER, Operator, commit_offsets, cpp_consume, cpp_produce

TOPIC = "StuckOrders"
BUSY = "BusyGroup"
GONE = "GoneGroup"
WINDOW = "8"  # longer than the C++ client's 5 s between offset commits


def test_the_rule_on_numbers() -> None:
    assert queue_stuck(5, 60.0, 60.0, 60.0) is True
    assert queue_stuck(0, 60.0, 60.0, 60.0) is False  # no lag: nothing waits
    assert queue_stuck(5, 30.0, 60.0, 60.0) is False  # it moved 30 s ago
    assert queue_stuck(5, 0.0, 0.0, 1.0) is False  # not observed at all


def test_a_busy_group_on_old_messages_is_not_stuck_and_a_gone_one_is(op: Operator) -> None:
    op.topic(TOPIC, 2)
    cpp_produce(op.ns, TOPIC, 40, prefix="a")
    cpp_consume(op.ns, TOPIC, GONE, 40)  # consumed all, then its consumer went away
    cpp_produce(op.ns, TOPIC, 400, prefix="b")  # the gone group now has 400 waiting
    commit_offsets(op.ns, op.broker, BUSY, TOPIC, {0: 0, 1: 0})  # the busy one starts from the start
    time.sleep(float(WINDOW) + 1)  # every message is older than the window
    argv = [sys.executable, str(SLOW_CONSUMER), op.ns, TOPIC, BUSY, "--delay", "0.1", "--seconds", "40"]
    slow = subprocess.Popen(argv, stdout=subprocess.PIPE, text=True)
    try:
        assert slow.stdout is not None
        for _ in range(60):  # consuming, and its first commit made
            assert json.loads(slow.stdout.readline())["event"] == "recv"
        time.sleep(6)
        started = time.monotonic()
        busy = op.run("consumerProgress", "-g", BUSY, "-t", TOPIC, "--stuck-after", WINDOW)
        took = time.monotonic() - started
        assert busy.code == 0, (busy.code, busy.err)
        assert "stuck" not in busy.err
        doc = json.loads(op.run("consumerProgress", "-g", BUSY, "-t", TOPIC, "--json").out)
        assert doc["diffTotal"] > 0  # it has lag all the while
        assert took < float(WINDOW) + 5  # it answered once the offsets moved (within a commit interval)

        gone = op.run("consumerProgress", "-g", GONE, "-t", TOPIC, "--stuck-after", WINDOW)
        assert gone.code == 8, (gone.code, gone.err)
        assert f"group {GONE} is stuck on 2 queue(s)" in gone.err
        assert f"did not move for --stuck-after {WINDOW} s" in gone.err
        fine = op.run("consumerProgress", "-g", GONE, "-t", TOPIC, "--max-lag", "100000")
        assert fine.code == 0
    finally:
        slow.kill()
        slow.wait(10)
