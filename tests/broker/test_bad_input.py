"""Bad input gets the Java broker's answer and the broker keeps serving; nothing acknowledged is lost.

Malformed frames close only their own connection; requests that make no sense (unknown code,
unknown topic, a missing header field, an oversized body, a queue id out of range, offsets out
of range) get the 4.9.8 response code and remark. Messages acknowledged before, between and after
all that are all still there, also after a restart.
"""

from __future__ import annotations

import socket
import struct

import pytest

from mqadmin.protocol.command import RemotingCommand
from mqadmin.protocol.message_record import decode_messages
from tests.broker.peers import call, create_topic

TOPIC = "BadInputTopic"
FAQ = "\nSee http://rocketmq.apache.org/docs/faq/ for further details."


def send(addr: str, topic: str, body: bytes, queue_id: int = 0, default_topic: str = "TBW102", **extra: str):
    ext = {
        "a": "PG",
        "b": topic,
        "c": default_topic,
        "d": "4",
        "e": str(queue_id),
        "f": "0",
        "g": "1700000000000",
        "h": "0",
        "i": "KEYS\x01k\x02TAGS\x01t\x02WAIT\x01true\x02",
        "j": "0",
        "k": "false",
        "m": "false",
    }
    ext.update(extra)
    return call(addr, RemotingCommand.request(310, ext, body))


def pull(addr: str, topic: str, queue_id: int, offset: int, nums: int = 32):
    ext = {
        "consumerGroup": "BadInputGroup",
        "topic": topic,
        "queueId": str(queue_id),
        "queueOffset": str(offset),
        "maxMsgNums": str(nums),
        "sysFlag": "4",
        "commitOffset": "0",
        "suspendTimeoutMillis": "0",
        "subVersion": "0",
        "subscription": "*",
    }
    return call(addr, RemotingCommand.request(11, ext))


def raw_exchange(addr: str, data: bytes) -> bytes:
    """Write raw bytes; return whatever comes back before the broker closes (or 1 s passes)."""
    host, port = addr.rsplit(":", 1)
    with socket.create_connection((host, int(port)), timeout=1) as s:
        s.sendall(data)
        out = b""
        try:
            while chunk := s.recv(65536):
                out += chunk
        except (TimeoutError, ConnectionResetError):
            pass
        return out


def all_bodies(addr: str, topic: str, queues: int) -> set[bytes]:
    out = set()
    for q in range(queues):
        offset = 0
        while True:
            r = pull(addr, topic, q, offset)
            if r.code != 0:
                break
            out.update(m.body for m in decode_messages(r.body or b""))
            offset = int(r.ext_fields["nextBeginOffset"])
    return out


@pytest.fixture
def broker(broker_factory):
    b = broker_factory.start(maxMessageSize=65536)
    assert create_topic(b.addr, TOPIC, queues=4).code == 0
    return b


def test_bad_input(broker) -> None:
    addr = broker.addr
    acked: set[bytes] = set()

    def good(i: int) -> None:
        r = send(addr, TOPIC, f"good-{i}".encode(), queue_id=i % 4)
        assert r.code == 0, r.remark
        acked.add(f"good-{i}".encode())

    for i in range(10):
        good(i)

    # malformed frames: the broker drops that connection only
    assert (
        raw_exchange(addr, struct.pack(">ii", 8, 0x00FFFFFF) + b"\0" * 4) == b""
    )  # header longer than frame
    good(10)
    assert raw_exchange(addr, struct.pack(">ii", 12, 8) + b"not json") == b""  # header is not JSON
    good(11)
    assert raw_exchange(addr, struct.pack(">i", 64 << 20)) == b""  # beyond the 16 MiB frame limit
    good(12)
    assert raw_exchange(addr, struct.pack(">ii", 4, 0x07000000)) == b""  # unknown serialize type
    good(13)

    # an unknown request code
    r = call(addr, RemotingCommand.request(9999, {}))
    assert (r.code, r.remark, r.ext_fields) == (3, " request type 9999 not supported", None)

    # a required header field missing
    r = call(addr, RemotingCommand.request(310, {"a": "PG"}, b"x"))
    assert r.code == 1 and "the custom field <topic> is null" in (r.remark or "")

    # unknown topic: auto-created from TBW102, refused with a default topic that does not exist
    r = send(addr, "AutoCreatedTopic", b"auto")
    assert r.code == 0 and r.ext_fields["queueId"] == "0"
    r = send(addr, "NoSuchTopic", b"x", default_topic="NoSuchDefault")
    assert (r.code, r.remark) == (17, f"topic[NoSuchTopic] not exist, apply first please!{FAQ}")
    assert set(r.ext_fields) == {"MSG_REGION", "TRACE_ON"}
    r = pull(addr, "NoSuchTopic", 0, 0)
    assert (r.code, r.remark) == (17, f"topic[NoSuchTopic] not exist, apply first please! {FAQ}")
    r = send(addr, "bad topic!", b"x")
    assert r.code == 1 and "illegal characters" in (r.remark or "")
    r = send(addr, "SCHEDULE_TOPIC_XXXX", b"x")
    assert (r.code, r.remark) == (16, "Sending message to topic[SCHEDULE_TOPIC_XXXX] is forbidden.")

    # oversized message (maxMessageSize=65536 here)
    r = send(addr, TOPIC, b"x" * 70000)
    assert r.code == 13
    assert r.remark == (
        "the message is illegal, maybe msg body or properties length not matched. "
        "msg body length limit 65536B, msg properties length limit 32KB."
    )

    # wrong queue ids
    r = send(addr, TOPIC, b"x", queue_id=99)
    assert r.code == 1 and r.remark.startswith(
        "request queueId[99] is illegal, TopicConfig [topicName=BadInputTopic"
    )
    r = pull(addr, TOPIC, 99, 0)
    assert r.code == 1
    assert r.remark.startswith("queueId[99] is illegal, topic:[BadInputTopic] topicConfig.readQueueNums:[4]")
    assert r.ext_fields == {}

    # offsets out of range
    r = pull(addr, TOPIC, 0, 1000)
    assert (r.code, r.remark, r.ext_fields["nextBeginOffset"]) == (
        21,
        "OFFSET_OVERFLOW_BADLY",
        r.ext_fields["maxOffset"],
    )
    r = pull(addr, TOPIC, 0, -5)
    assert (r.code, r.remark, r.ext_fields["nextBeginOffset"]) == (21, "OFFSET_TOO_SMALL", "0")
    max0 = int(call(addr, RemotingCommand.request(30, {"topic": TOPIC, "queueId": "0"})).ext_fields["offset"])
    r = pull(addr, TOPIC, 0, max0)
    assert (r.code, r.remark) == (19, "OFFSET_OVERFLOW_ONE")
    create_topic(addr, "EmptyTopic", queues=1)
    assert (pull(addr, "EmptyTopic", 0, 0).code, pull(addr, "EmptyTopic", 0, 0).remark) == (
        19,
        "NO_MESSAGE_IN_QUEUE",
    )
    assert pull(addr, "EmptyTopic", 0, 7).code == 21
    r = call(addr, RemotingCommand.request(33, {"offset": str(1 << 40)}))
    assert (r.code, r.remark) == (1, f"can not find message by the offset, {1 << 40}")
    r = call(addr, RemotingCommand.request(30, {"topic": "NoSuchTopic", "queueId": "3"}))
    assert (r.code, r.ext_fields) == (0, {"offset": "0"})

    for i in range(14, 20):
        good(i)

    assert acked <= all_bodies(addr, TOPIC, 4)
    assert broker.stop() == 0
    broker.start()
    assert acked <= all_bodies(addr, TOPIC, 4)
