"""Fixtures: one name server and broker for the session, and the messages the tests look for.

``state`` fills ``MsgCmdTopic`` (4 queues) with real sends, recording what was sent:

- the C++ client: a message with tags, two keys and user properties; a 10,000-byte body, which it
  zlib-compresses (its ``compressMsgBodyOverHowmuch`` is 4096);
- our producer: a batch of three (SEND_BATCH_MESSAGE, 320) into queue 3, and a GBK-encoded body;
- our ``mqadmin sendMessage`` with keys and a tag into queue 2.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest

from mqadmin.admin.producer import Producer
from mqadmin.protocol.bodies.message_queue import MessageQueue
from mqadmin.protocol.message import Message
from tests.message_cmds.support import Cluster, cpp_send, with_admin

TOPIC = "MsgCmdTopic"
BIG_BODY = "0123456789" * 1000


@dataclass
class Sent:
    """What the state fixture sent, by name."""

    ids: dict[str, str] = field(default_factory=dict)
    """unique key of each message."""
    bodies: dict[str, bytes] = field(default_factory=dict)
    total: int = 0


@pytest.fixture(scope="session")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    c = Cluster(tmp_path_factory.mktemp("msgcmds"), traceTopicEnable="true")
    try:
        yield c
    finally:
        c.stop()


@pytest.fixture(scope="session")
def state(cluster: Cluster) -> Sent:
    cluster.create_topic(TOPIC, 4)
    sent = Sent()
    results = cpp_send(
        cluster.ns.addr,
        [
            {"topic": TOPIC, "tags": "TagC", "keys": "ck1 ck2", "props": {"color": "blue", "size": "L"},
             "body": "hello from c++"},
            {"topic": TOPIC, "tags": "TagZ", "keys": "bigkey",
             "body": {"repeat": "0123456789", "times": 1000}},
        ],
    )  # fmt: skip
    sent.ids["cpp"], sent.ids["big"] = results[0]["msg_id"], results[1]["msg_id"]
    sent.bodies["cpp"], sent.bodies["big"] = b"hello from c++", BIG_BODY.encode()

    async def ours(admin: Any) -> None:
        producer = Producer(admin, "MsgCmdsPG")
        batch = []
        for i in (1, 2, 3):
            m = Message(topic=TOPIC, body=f"batch-{i}".encode())
            m.tags, m.keys = "TB", f"bk{i}"
            batch.append(m)
        result = await producer.send_batch(batch, MessageQueue(TOPIC, "broker-a", 3))
        for i, one in enumerate(result.msg_id.split(","), 1):
            sent.ids[f"batch{i}"] = one
            sent.bodies[f"batch{i}"] = f"batch-{i}".encode()
        gbk = Message(topic=TOPIC, body="中文消息".encode("gbk"))
        gbk.tags, gbk.keys = "TagG", "gbkkey"
        r = await producer.send(gbk, MessageQueue(TOPIC, "broker-a", 0))
        sent.ids["gbk"], sent.bodies["gbk"] = r.msg_id, gbk.body

    with_admin(cluster.ns.addr, ours)
    r = cluster.mqadmin(
        "sendMessage", "-n", cluster.ns.addr, "-t", TOPIC, "-p", " ours ü body ", "-k", "ok1 ok2",
        "-c", "TagO", "-b", "broker-a", "-i", "2",
    )  # fmt: skip
    assert r.code == 0, r.err
    sent.ids["ours"] = r.out.splitlines()[1].split()[-1]
    sent.bodies["ours"] = "ours ü body".encode()  # Java trims the body
    sent.total = 7
    return sent
