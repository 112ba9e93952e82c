"""The recorded Java runs of the message commands, replayed against our name server and broker.

The state the Java runs saw is rebuilt with real sends: ``GoldenTopic`` (4 queues on ``broker-a``
of ``DefaultCluster``) whose queue 1 holds the two messages of s14 and s15 (same keys, tags,
bodies, and unique keys of the same width: the Java producer's address was the IPv6 ``fd00::2``, so
ours is told to use it too), the other queues empty. Each scenario then runs with the recorded
arguments (only ``-n`` changes) and stdout must equal the Java ``.out`` after masking exactly what
is live: times, the born port, our broker's port, commit-log offsets, message ids, the QID a send
picked. Everything else (store sizes, body CRCs, property order, queue order, spacing) is compared.

s16 was printed by the 4.9.8 tool, which decodes properties into a ``HashMap(16)`` where 5.3.3 uses
``HashMap(128)``; we print 5.3.3's order (v26, compared as is) and compare s16's maps as sets.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from mqadmin.admin.producer import Producer
from mqadmin.protocol.bodies.message_queue import MessageQueue
from mqadmin.protocol.message import Message
from mqadmin.protocol.msgid import UniqueIdGenerator
from tests.cli_harness import recorded_text, with_namesrv
from tests.message_cmds.support import Cluster, mask_ids, with_admin

V498 = "rocketmq-4.9.8"
V533 = "rocketmq-5.3.3"
JAVA_BROKER_PORT = "10911"
GOLDEN = [("gkey1", "tagA", "golden-body"), ("gkey2", "tagB", "golden-body-2")]


@pytest.fixture(scope="module")
def golden(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    c = Cluster(tmp_path_factory.mktemp("golden"))
    try:
        c.create_topic("GoldenTopic", 4)
        c.create_topic("GoldenTopic5", 4)

        async def produce(admin):  # type: ignore[no-untyped-def]
            ids = UniqueIdGenerator("fd00::2")
            producer = Producer(admin, "1795265159384", ids=ids)
            for keys, tags, body in GOLDEN:
                msg = Message(topic="GoldenTopic", body=body.encode())
                msg.tags = tags
                msg.keys = keys
                msg.wait_store_msg_ok = True
                await producer.send(msg, MessageQueue("GoldenTopic", "broker-a", 1))

        with_admin(c.ns.addr, produce)
        yield c
    finally:
        c.stop()


def mask_message_lines(text: str, broker_port: str | None = None) -> str:
    if broker_port is not None:
        text = text.replace(f"/127.0.0.1:{broker_port},", f"/127.0.0.1:{JAVA_BROKER_PORT},")
    text = re.sub(r"(bornTimestamp|storeTimestamp|commitLogOffset)=\d+", r"\1=<N>", text)
    text = re.sub(r"bornHost=/127\.0\.0\.1:\d+", "bornHost=/127.0.0.1:<PORT>", text)
    return mask_ids(text)


def sorted_properties(text: str) -> str:
    def one(m: re.Match[str]) -> str:
        return "properties={" + ", ".join(sorted(m.group(1).split(", "))) + "}"

    return re.sub(r"properties=\{([^}]*)\}", one, text)


def test_v26_print_msg(golden: Cluster) -> None:
    args, expected = recorded_text(f"{V533}/v26_printMsg")
    r = golden.mqadmin(*with_namesrv(args, golden.ns.addr))
    assert r.code == 0 and r.err == "", r.err
    port = golden.broker.addr.rsplit(":", 1)[1]
    assert mask_message_lines(r.out, port) == mask_message_lines(expected)
    assert "storeSize=222," in r.out and "storeSize=224," in r.out  # same records as the Java broker's
    assert "bodyCRC=1958708008," in r.out and "bodyCRC=13144351," in r.out


def test_s16_print_msg_4_9_8(golden: Cluster) -> None:
    args, expected = recorded_text(f"{V498}/s16_printMsg")
    r = golden.mqadmin(*with_namesrv(args, golden.ns.addr))
    assert r.code == 0, r.err
    port = golden.broker.addr.rsplit(":", 1)[1]
    assert sorted_properties(mask_message_lines(r.out, port)) == sorted_properties(
        mask_message_lines(expected)
    )
    assert mask_message_lines(r.out, port) != mask_message_lines(expected)  # only the 4.9.8 map order differs


def test_s17_consume_message(golden: Cluster) -> None:
    """Nothing live here: two empty queues use up ``-c 2`` before queue 1 is reached (Java's counting)."""
    args, expected = recorded_text(f"{V498}/s17_consumeMessage")
    r = golden.mqadmin(*with_namesrv(args, golden.ns.addr))
    assert (r.code, r.err) == (0, "")
    assert r.out == expected


@pytest.mark.parametrize("scenario", [f"{V498}/s19_queryMsgByKey", f"{V533}/v25_queryMsgByKey"])
def test_query_msg_by_key(golden: Cluster, scenario: str) -> None:
    args, expected = recorded_text(scenario)
    r = golden.mqadmin(*with_namesrv(args, golden.ns.addr))
    assert (r.code, r.err) == (0, "")
    assert mask_ids(r.out) == mask_ids(expected)
    assert len(r.out.splitlines()[1].split()[0]) == 56  # the fd00::2 unique key overflows the column


def test_s36_query_msg_by_offset_empty_queue(golden: Cluster) -> None:
    """Java prints nothing and exits 0; we print nothing on stdout and say why on stderr (exit 1)."""
    args, expected = recorded_text(f"{V498}/s36_queryMsgByOffset")
    r = golden.mqadmin(*with_namesrv(args, golden.ns.addr))
    assert expected == "" and r.out == ""
    assert r.code == 7
    assert r.err.count("\n") == 1 and "no message at offset 0" in r.err and "queueId=0" in r.err


# The sends come last: they put messages into random queues of GoldenTopic.


def _mask_send(text: str) -> str:
    return mask_ids(re.sub(r"(?m)^(broker-a\s+)\d+(\s+SEND_OK)", r"\1<Q>\2", text))


@pytest.mark.parametrize(
    "scenario",
    [f"{V498}/s14_sendMessage", f"{V498}/s15_sendMessage2", f"{V533}/v16_sendMessage"],
)
def test_send_message(golden: Cluster, scenario: str) -> None:
    args, expected = recorded_text(scenario)
    r = golden.mqadmin(*with_namesrv(args, golden.ns.addr))
    assert (r.code, r.err) == (0, "")
    assert _mask_send(r.out) == _mask_send(expected)
    # the message is there: found by its key, with the body that was sent
    topic = args[args.index("-t") + 1]
    key = args[args.index("-k") + 1]
    msg_id = r.out.splitlines()[1].split()[-1]
    q = golden.mqadmin("queryMsgByUniqueKey", "-n", golden.ns.addr, "-t", topic, "-i", msg_id)
    assert q.code == 0, q.err
    assert f"Keys:                [{key}]\n" in q.out
    body = Path(q.out.split("Message Body Path:   ", 1)[1].split("\n", 1)[0]).read_bytes()
    assert body == args[args.index("-p") + 1].encode()
