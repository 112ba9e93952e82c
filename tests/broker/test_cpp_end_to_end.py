"""End to end with the real Apache RocketMQ C++ client against our name server and our broker.

Send 1,000 messages (all SEND_OK), consume every one with a push consumer, restart the consumer and
get nothing again (its offsets were committed); then ``kill -9`` the broker in the middle of a
second batch, restart it, and consume every message whose send was acknowledged.
"""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path

from mqadmin.protocol import fastjson
from tests.broker.peers import cpp, cpp_start, create_topic

TOPIC = "CppE2ETopic"
GROUP = "CppE2EGroup"


def _ids(events: list[dict], kind: str) -> list[tuple[str, str]]:
    """(message id, body) per event: the C++ client's ids are only unique within one process."""
    return [(e["msg_id"], e["body"]) for e in events if e["event"] == kind]


def _wait_persisted(path: Path, total: int, timeout: float = 20.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            table = fastjson.loads(path.read_text())["offsetTable"].get(f"{TOPIC}@{GROUP}", {})
            if sum(table.values()) >= total:
                return True
        except (OSError, KeyError, ValueError):
            pass
        time.sleep(0.25)
    return False


def test_send_consume_restart_and_crash(namesrv, broker_factory) -> None:
    broker = broker_factory.start()
    resp = create_topic(broker.addr, TOPIC, queues=4)
    assert resp.code == 0, resp.remark

    # 1,000 synchronous sends, every one SEND_OK
    sent = cpp("produce", namesrv.addr, TOPIC, "1000", "--prefix", "a")
    statuses = {e["status"] for e in sent if e["event"] == "sent"}
    first_batch = _ids(sent, "sent")
    assert len(set(first_batch)) == 1000 and statuses == {"OK"}, statuses
    assert not [e for e in sent if e["event"] == "error"]

    # every message id received by the push consumer
    got = cpp("consume", namesrv.addr, TOPIC, GROUP, "--expect", "1000", "--timeout", "60", "--idle", "1.5")
    received = _ids(got, "recv")
    assert set(received) == set(first_batch)

    # a restarted consumer gets nothing twice: its offsets were committed
    again = cpp("consume", namesrv.addr, TOPIC, GROUP, "--expect", "0", "--timeout", "4", "--idle", "4")
    assert _ids(again, "recv") == []

    # offsets reach consumerOffset.json every flushConsumerOffsetInterval (first after 10 s), as in
    # Java; a kill before that would legitimately redeliver (the at-least-once window)
    assert _wait_persisted(broker.workdir / "store" / "config" / "consumerOffset.json", 1000)

    # kill -9 the broker in the middle of a second batch
    producer = cpp_start("produce", namesrv.addr, TOPIC, "4000", "--prefix", "b", "--send-timeout", "1000")
    assert producer.stdout is not None
    early: list[str] = []  # wait for real acknowledgements (not a fixed delay: a busy machine starts slowly)
    deadline = time.monotonic() + 60
    while sum('"sent"' in line for line in early) < 100 and time.monotonic() < deadline:
        line = producer.stdout.readline()
        if not line:
            break
        early.append(line)
    broker.kill()
    try:
        out, err = producer.communicate(timeout=120)
    except subprocess.TimeoutExpired:
        producer.kill()
        out, err = producer.communicate()
        raise AssertionError(f"the producer did not end after the kill: {out[-600:]} {err[-600:]}") from None
    out = "".join(early) + out
    events = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    acked = _ids(events, "sent")
    assert acked, f"nothing acknowledged before the kill: {err[-500:]}"
    assert len(acked) < 4000, "the broker was killed too late to test anything"

    broker.start()
    assert "was not shut down cleanly" in broker.log()
    got2 = cpp(
        "consume", namesrv.addr, TOPIC, GROUP, "--expect", str(len(acked)), "--timeout", "60", "--idle", "1.5"
    )
    received2 = set(_ids(got2, "recv"))
    missing = set(acked) - received2
    assert not missing, f"{len(missing)} acknowledged messages lost"
    # its committed offsets survived the crash: nothing of the first batch comes back
    assert not received2 & set(first_batch)
