"""Hostile but well-formed messaging requests (issue 11, reproducers 1, 3, 5 and 8), over real sockets.

Each test starts our name server and our broker as processes on ports picked at run time, sends the
request that used to do lasting harm, and checks the refusal, that nothing was stored or created
(no file outside the store directory, no group or topic in the persisted configs), that other
clients keep working, and that all of it holds after a ``kill -9`` and a restart.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from mqadmin.protocol.codes import RequestCode, ResponseCode
from mqadmin.protocol.command import RemotingCommand
from mqadmin.protocol.message import MESSAGE_MAGIC_CODE_V2
from mqadmin.protocol.message_record import MessageExt, decode_messages
from tests.broker.peers import call, create_topic
from tests.cli_harness import clean_env, run_mqadmin
from tests.servers import BrokerProcess

GOOD_GROUP = "GoodGroup"
VICTIM_BODIES = {b"victim-0", b"victim-1", b"victim-2"}


def send(addr: str, topic: str, body: bytes, queue_id: int = 0, props: str = "") -> RemotingCommand:
    ext = {
        "a": "PG",
        "b": topic,
        "c": "TBW102",
        "d": "4",
        "e": str(queue_id),
        "f": "0",
        "g": str(int(time.time() * 1000)),
        "h": "0",
        "i": props + "WAIT\x01true\x02",
        "j": "0",
        "k": "false",
        "m": "false",
    }
    return call(addr, RemotingCommand.request(RequestCode.SEND_MESSAGE_V2, ext, body))


def pull(addr: str, group: str, topic: str, queue_id: int = 0, offset: int = 0) -> RemotingCommand:
    ext = {
        "consumerGroup": group,
        "topic": topic,
        "queueId": str(queue_id),
        "queueOffset": str(offset),
        "maxMsgNums": "32",
        "sysFlag": "4",
        "commitOffset": "0",
        "suspendTimeoutMillis": "0",
        "subscription": "*",
        "subVersion": "0",
    }
    return call(addr, RemotingCommand.request(RequestCode.PULL_MESSAGE, ext))


def send_back(addr: str, group: str, offset: int, delay_level: int) -> RemotingCommand:
    ext = {"offset": str(offset), "group": group, "delayLevel": str(delay_level), "originTopic": "T"}
    return call(addr, RemotingCommand.request(RequestCode.CONSUMER_SEND_MSG_BACK, ext))


def messages(addr: str, group: str, topic: str, queues: int = 1) -> list[MessageExt]:
    out: list[MessageExt] = []
    for q in range(queues):
        offset = 0
        while True:
            r = pull(addr, group, topic, q, offset)
            if r.code != ResponseCode.SUCCESS:
                break
            out.extend(decode_messages(r.body or b""))
            offset = int(r.ext_fields["nextBeginOffset"])
    return out


def files_under(root: Path) -> set[Path]:
    return {p for p in root.rglob("*")}


def outside_store(broker: BrokerProcess, before: set[Path]) -> set[Path]:
    """Files and directories that appeared around the broker's work directory, not in its store."""
    base = broker.workdir.parent
    store = (broker.workdir / "store").resolve()
    new = files_under(base) - before
    return {p for p in new if not p.resolve().is_relative_to(store) and p.parent != broker.workdir}


def stored_groups(broker: BrokerProcess) -> set[str]:
    path = broker.workdir / "store" / "config" / "subscriptionGroup.json"
    return set(json.loads(path.read_text())["subscriptionGroupTable"]) if path.exists() else set()


def stored_topics(broker: BrokerProcess) -> set[str]:
    path = broker.workdir / "store" / "config" / "topics.json"
    return set(json.loads(path.read_text())["topicConfigTable"]) if path.exists() else set()


def wait_for(predicate, timeout: float = 15.0):  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while True:
        got = predicate()
        if got or time.monotonic() > deadline:
            return got
        time.sleep(0.2)


# ------------------------------------------------------------------------------------ reproducers 1 and 3


@pytest.mark.parametrize(
    "group",
    [
        "a\u0000b",
        "../../../../../x/PWNED",
        "../../Victim",
        "g.roup",
        "g roup",
        "",
        "G" * 256,
    ],
)
def test_send_back_with_a_group_java_refuses(broker_factory, tmp_path: Path, group: str) -> None:  # type: ignore[no-untyped-def]
    broker = broker_factory.start()
    addr = broker.addr
    assert create_topic(addr, "Victim", queues=1).code == 0
    assert create_topic(addr, "T", queues=1).code == 0
    victims = [send(addr, "Victim", f"victim-{i}".encode()) for i in range(3)]
    assert all(r.code == 0 for r in victims)
    r = send(addr, "T", b"to-send-back")
    assert r.code == 0
    offset = int(r.ext_fields["msgId"][-16:], 16)
    assert send_back(addr, GOOD_GROUP, offset, 1).code == 0  # a legal group works
    groups_before, topics_before = stored_groups(broker), stored_topics(broker)
    before = files_under(tmp_path)

    for level in (1, -1):  # retry topic (delayed) and DLQ
        r = send_back(addr, group, offset, level)
        assert r.code != ResponseCode.SUCCESS, (group, r)
        assert r.remark and "\n" not in r.remark

    assert stored_groups(broker) == groups_before
    assert stored_topics(broker) == topics_before
    assert not outside_store(broker, before)
    assert {m.body for m in messages(addr, "VictimReader", "Victim")} == VICTIM_BODIES

    broker.kill()
    broker.start()  # starts: nothing the refused requests sent was kept
    assert not outside_store(broker, before)
    assert not (tmp_path / "x").exists()
    assert not any(p.name == "PWNED" for p in files_under(tmp_path))
    assert {m.body for m in messages(addr, "VictimReader", "Victim")} == VICTIM_BODIES
    retried = wait_for(lambda: messages(addr, GOOD_GROUP, "%RETRY%" + GOOD_GROUP))
    assert [m.body for m in retried] == [b"to-send-back"]
    assert send(addr, "T", b"after").code == 0


def test_pull_and_query_refuse_bad_names(broker_factory) -> None:  # type: ignore[no-untyped-def]
    broker = broker_factory.start()
    addr = broker.addr
    assert create_topic(addr, "T", queues=1).code == 0
    assert send(addr, "T", b"x").code == 0
    groups_before = stored_groups(broker)
    for group in ("../../g", "g/h", "a b", "G" * 256):
        r = pull(addr, group, "T")
        assert r.code == ResponseCode.SYSTEM_ERROR and "group" in (r.remark or ""), r
    for topic in ("../../T", "Tnl\n", "T" * 128):
        r = pull(addr, GOOD_GROUP, topic)
        assert r.code == ResponseCode.SYSTEM_ERROR and "topic" in (r.remark or ""), r
        q = {"topic": topic, "key": "k", "maxNum": "32", "beginTimestamp": "0", "endTimestamp": "1"}
        r = call(addr, RemotingCommand.request(RequestCode.QUERY_MESSAGE, q))
        assert r.code == ResponseCode.SYSTEM_ERROR and "topic" in (r.remark or ""), r
    assert stored_groups(broker) == groups_before
    assert [m.body for m in messages(addr, GOOD_GROUP, "T")] == [b"x"]


# ------------------------------------------------------------------------------------ reproducer 8


def test_topic_with_a_final_newline_is_refused(broker_factory) -> None:  # type: ignore[no-untyped-def]
    broker = broker_factory.start()
    addr = broker.addr
    r = send(addr, "Tnl\n", b"x")
    assert r.code == ResponseCode.SYSTEM_ERROR
    assert r.remark == "The specified topic contains illegal characters, allowing only ^[%|a-zA-Z0-9_-]+$"
    assert set(r.ext_fields) == {"MSG_REGION", "TRACE_ON"}
    assert "Tnl\n" not in stored_topics(broker) and "Tnl" not in stored_topics(broker)
    assert not (broker.workdir / "store" / "consumequeue" / "Tnl\n").exists()
    r = send(addr, "SCHEDULE_TOPIC_XXXX", b"x")
    assert (r.code, r.remark) == (16, "Sending message to topic[SCHEDULE_TOPIC_XXXX] is forbidden.")
    assert send(addr, "Tnl", b"fine").code == 0
    broker.kill()
    broker.start()
    assert "Tnl\n" not in stored_topics(broker)
    assert [m.body for m in messages(addr, GOOD_GROUP, "Tnl", 4)] == [b"fine"]


# ------------------------------------------------------------------------------------ reproducer 5


def test_a_long_retry_topic_does_not_stall_its_delay_level(broker_factory) -> None:  # type: ignore[no-untyped-def]
    """125-character group: its 132-character retry topic is stored as Java 5.3.3 stores it (a v2
    record) and delivered; the level's later messages are delivered too, also after kill -9."""
    broker = broker_factory.start()
    addr = broker.addr
    long_group = "L" * 125
    assert create_topic(addr, "T", queues=1).code == 0
    offsets = []
    for body in (b"long-group", b"good-group", b"after-restart"):
        r = send(addr, "T", body)
        assert r.code == 0
        offsets.append(int(r.ext_fields["msgId"][-16:], 16))

    assert send_back(addr, long_group, offsets[0], 1).code == 0
    assert send_back(addr, GOOD_GROUP, offsets[1], 1).code == 0
    good = wait_for(lambda: messages(addr, GOOD_GROUP, "%RETRY%" + GOOD_GROUP))
    assert [m.body for m in good] == [b"good-group"]
    long_retry = "%RETRY%" + long_group
    got = messages(addr, long_group, long_retry)
    assert [m.body for m in got] == [b"long-group"]
    assert got[0].magic_code == MESSAGE_MAGIC_CODE_V2 and got[0].topic == long_retry

    # a group whose retry topic would pass 255 characters: refused before anything is kept
    too_long = "X" * 250
    r = send_back(addr, too_long, offsets[0], 1)
    assert (r.code, r.remark) == (ResponseCode.SYSTEM_ERROR, "MESSAGE_ILLEGAL")
    assert too_long not in stored_groups(broker)

    broker.kill()
    broker.start()
    assert send_back(addr, GOOD_GROUP, offsets[2], 1).code == 0
    # delivery is at least once: after kill -9 the level may deliver again from its last saved offset
    good_bodies = lambda: {m.body for m in messages(addr, GOOD_GROUP, "%RETRY%" + GOOD_GROUP)}  # noqa: E731
    assert wait_for(lambda: b"after-restart" in good_bodies())
    assert good_bodies() == {b"good-group", b"after-restart"}
    assert {m.body for m in messages(addr, long_group, long_retry)} == {b"long-group"}
    assert "skipping delayed message" not in broker.log()


def test_a_delayed_message_the_store_refuses_is_skipped(broker_factory) -> None:  # type: ignore[no-untyped-def]
    """A parked message that can no longer be stored (maxMessageSize lowered across a restart) is
    skipped with one log line; the messages after it on its level are delivered."""
    broker = broker_factory.start(maxMessageSize=65536)
    addr = broker.addr
    assert create_topic(addr, "D", queues=1).code == 0
    assert send(addr, "D", b"B" * 40000, props="DELAY\x012\x02").code == 0  # level 2: 5 s
    assert broker.stop() == 0
    text = broker.config.read_text().replace("maxMessageSize=65536", "maxMessageSize=20000")
    broker.config.write_text(text)
    broker.start()
    assert send(addr, "D", b"small", props="DELAY\x012\x02").code == 0
    got = wait_for(lambda: messages(addr, GOOD_GROUP, "D"), timeout=20)
    assert [m.body for m in got] == [b"small"]
    assert broker.log().count("skipping delayed message") == 1
    assert broker.stop() == 0  # the level's offset is persisted past the skipped message
    broker.start()
    time.sleep(1.5)
    assert [m.body for m in messages(addr, GOOD_GROUP, "D")] == [b"small"]
    assert broker.log().count("skipping delayed message") == 1
    broker.kill()
    broker.start()
    assert send(addr, "D", b"after-kill", props="DELAY\x012\x02").code == 0
    assert wait_for(lambda: {m.body for m in messages(addr, GOOD_GROUP, "D")} == {b"small", b"after-kill"})


# ------------------------------------------------------------------------------------ the CLI


@pytest.mark.parametrize(
    "args",
    [
        ["sendMessage", "-t", "bad/topic", "-p", "x"],
        ["sendMessage", "-t", "SCHEDULE_TOPIC_XXXX", "-p", "x"],
        ["checkMsgSendRT", "-t", "a.b"],
        ["queryMsgByKey", "-t", "../../T", "-k", "k"],
        ["queryMsgByUniqueKey", "-t", "T!", "-i", "7F00000100002A9F000000000000033A"],
        ["queryMsgById", "-t", "T", "-i", "7F00000100002A9F000000000000033A", "-g", "../g", "-d", "c"],
        ["queryMsgByOffset", "-t", "T T", "-b", "broker-a", "-i", "0", "-o", "0"],
        ["printMsg", "-t", "T" * 128],
        ["printMsg", "-t", "T", "-l", "a/b"],
        ["printMsgByQueue", "-t", "x/y", "-a", "broker-a", "-i", "0"],
        ["consumeMessage", "-t", "T", "-g", "../../g"],
        ["consumeMessage", "-t", "T\u00e9"],
        ["queryMsgTraceById", "-t", "trace topic", "-i", "7F00000100002A9F000000000000033A"],
    ],
)
def test_cli_refuses_bad_names_before_any_request(tmp_path: Path, args: list[str]) -> None:
    env = clean_env(tmp_path / "home", tmp_path / "cfg")
    r = run_mqadmin([*args, "-n", "127.0.0.1:1"], env)  # nothing listens there: a request would fail
    assert r.code == 2, (r.code, r.out, r.err)
    assert r.out == ""
    assert r.err.count("\n") == 1, r.err
