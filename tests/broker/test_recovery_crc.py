"""A message body damaged on disk is never served after a restart with ``checkCRCOnRecover=true``.

Java's recovery (``CommitLog.recoverNormally``/``recoverAbnormally``) checks every record of the files
it scans, the body CRC too when ``checkCRCOnRecover`` is on (Java's default), and ends the log at the
first one that fails: the damaged record and everything after it are dropped, the consume queues cut
to match. With the check off, Java serves the record as it is on disk; so do we.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from mqadmin.protocol.codes import RequestCode, ResponseCode
from mqadmin.protocol.command import RemotingCommand
from mqadmin.protocol.message_record import decode_messages
from tests.broker.peers import call, create_topic
from tests.servers import BrokerProcess

TOPIC = "CrcTopic"
BODIES = [f"crc-body-{i}-".encode() * 8 for i in range(5)]
DAMAGED = 2


def send(addr: str, body: bytes, queue_id: int = 0) -> RemotingCommand:
    ext = {
        "a": "CrcProducer",
        "b": TOPIC,
        "c": "TBW102",
        "d": "1",
        "e": str(queue_id),
        "f": "0",
        "g": "1700000000000",
        "h": "0",
        "i": "WAIT\x01true\x02",
        "j": "0",
        "k": "false",
        "m": "false",
    }
    return call(addr, RemotingCommand.request(RequestCode.SEND_MESSAGE_V2, ext, body))


def served(addr: str, queue_id: int = 0) -> list[bytes]:
    """Every body a consumer gets from the queue, from offset 0 on."""
    out: list[bytes] = []
    offset = 0
    while True:
        ext = {
            "consumerGroup": "CrcGroup",
            "topic": TOPIC,
            "queueId": str(queue_id),
            "queueOffset": str(offset),
            "maxMsgNums": "32",
            "sysFlag": "4",  # FLAG_SUBSCRIPTION: the subscription comes with the request
            "commitOffset": "0",
            "suspendTimeoutMillis": "0",
            "subVersion": "0",
            "subscription": "*",
        }
        r = call(addr, RemotingCommand.request(RequestCode.PULL_MESSAGE, ext))
        if r.code != ResponseCode.SUCCESS:
            return out
        out.extend(m.body for m in decode_messages(r.body or b""))
        offset = int((r.ext_fields or {})["nextBeginOffset"])


def damage_body(store: Path, body: bytes) -> bytes:
    """Flip one byte in the middle of ``body`` where it lies in the commit log; the damaged body."""
    files = sorted((store / "commitlog").iterdir())
    for path in files:
        data = bytearray(path.read_bytes())
        at = data.find(body)
        if at >= 0:
            assert data.find(body, at + 1) < 0
            data[at + len(body) // 2] ^= 0x20
            path.write_bytes(bytes(data))
            return bytes(data[at : at + len(body)])
    raise AssertionError("body not found in the commit log")


def fill(broker: BrokerProcess) -> None:
    assert create_topic(broker.addr, TOPIC, queues=1).code == ResponseCode.SUCCESS
    for body in BODIES:
        assert send(broker.addr, body).code == ResponseCode.SUCCESS
    assert served(broker.addr) == BODIES


@pytest.mark.parametrize("crash", [False, True], ids=["clean-stop", "kill-9"])
def test_damaged_body_is_not_served_with_the_crc_check(broker_factory: Any, crash: bool) -> None:
    broker = broker_factory.start(checkCRCOnRecover="true")
    fill(broker)
    if crash:
        broker.kill()
    else:
        assert broker.stop() == 0
    damaged = damage_body(broker.workdir / "store", BODIES[DAMAGED])
    broker.start()
    got = served(broker.addr)
    assert damaged not in got and BODIES[DAMAGED] not in got
    assert got == BODIES[:DAMAGED]  # as Java: the log ends before the damaged record
    assert "body CRC mismatch" in broker.log()
    # the broker goes on from there: a new message takes the freed queue offset and is served
    r = send(broker.addr, b"after-recovery")
    assert r.code == ResponseCode.SUCCESS and (r.ext_fields or {})["queueOffset"] == str(DAMAGED)
    assert served(broker.addr) == [*BODIES[:DAMAGED], b"after-recovery"]
    assert broker.stop() == 0
    broker.start()  # and a second restart finds a sound log
    assert served(broker.addr) == [*BODIES[:DAMAGED], b"after-recovery"]


def test_without_the_check_the_record_is_served_as_stored(broker_factory: Any) -> None:
    broker = broker_factory.start(checkCRCOnRecover="false")
    fill(broker)
    assert broker.stop() == 0
    damaged = damage_body(broker.workdir / "store", BODIES[DAMAGED])
    broker.start()
    assert served(broker.addr) == [*BODIES[:DAMAGED], damaged, *BODIES[DAMAGED + 1 :]]
    assert "cut at offset" not in broker.log()
