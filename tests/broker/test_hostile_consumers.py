"""Hostile consumer, offset and group requests against our broker process: refused, and nothing is hurt.

Issue 11, reproducer 2: an UPDATE_CONSUMER_OFFSET (15) whose group holds a lone surrogate used to be
answered SUCCESS, after which ``consumerOffset.json`` was never written again, GET_ALL_CONSUMER_OFFSET
(43) failed, SIGTERM crashed in shutdown (abort file left, no unregistration) and other groups' offsets
went back after a restart; the same character in a heartbeat's group broke
GET_ALL_SUBSCRIPTIONGROUP_CONFIG (201) for everyone. Here every such request (and every group or
topic Java's rules refuse, in headers and in JSON bodies) is refused, and afterwards: the offset file
keeps being written, 43 and 201 answer, other clients are served, a SIGTERM is clean, and the good
offsets and groups are still there after a ``kill -9`` and a restart.

Frames are written by hand where they must carry what our own client would never encode (a lone
surrogate, escaped in the JSON header or body as a hostile peer sends it).
"""

from __future__ import annotations

import asyncio
import json
import socket
import struct
import time
from pathlib import Path
from typing import Any

from mqadmin.protocol import fastjson
from mqadmin.protocol.codes import RequestCode, ResponseCode
from mqadmin.protocol.command import RemotingCommand
from mqadmin.protocol.frame import FrameDecoder
from mqadmin.remoting.client import RemotingClient
from tests.broker.peers import call, create_topic
from tests.servers import BrokerProcess

TOPIC = "HostileOffsetTopic"
GOOD = "GoodGroup"

BAD_GROUPS = [
    "\udfff",
    "a\ud800b",
    "../../g",
    "../../../../../x/PWNED",
    "a b",
    "G\n",
    "",
    " ",
    "g@h",
    "G" * 256,
]
BAD_TOPICS = ["\udfff", "../x", "Tnl\n", "a b", "T" * 128, "%RETRY%../g", ""]

FAST_FLUSH = {"flushConsumerOffsetInterval": 500}


# ------------------------------------------------------------------------------------ wire helpers


def raw_call(addr: str, code: int, ext: dict[str, str] | None, body: bytes = b"") -> RemotingCommand:
    """One request written by hand (``json.dumps`` escapes a lone surrogate as Java's fastjson reads it)."""
    header = {"code": code, "flag": 0, "language": "JAVA", "opaque": 7, "serializeTypeCurrentRPC": "JSON"}
    header["version"] = 409
    if ext is not None:
        header["extFields"] = ext
    h = json.dumps(header).encode("ascii")
    frame = struct.pack(">ii", 4 + len(h) + len(body), len(h)) + h + body
    host, port = addr.rsplit(":", 1)
    decoder = FrameDecoder()
    with socket.create_connection((host, int(port)), timeout=10) as s:
        s.sendall(frame)
        while True:
            chunk = s.recv(65536)
            assert chunk, "the broker closed the connection instead of answering"
            got = decoder.feed(chunk)
            if got:
                return got[0]


def commit(addr: str, group: str, topic: str, queue_id: int, offset: int) -> RemotingCommand:
    ext = {"consumerGroup": group, "topic": topic, "queueId": str(queue_id), "commitOffset": str(offset)}
    return raw_call(addr, RequestCode.UPDATE_CONSUMER_OFFSET, ext)


def all_offsets(addr: str) -> dict[str, dict[str, int]]:
    r = call(addr, RemotingCommand.request(RequestCode.GET_ALL_CONSUMER_OFFSET))
    assert r.code == ResponseCode.SUCCESS, r.remark
    table = fastjson.loads(r.body or b"{}")["offsetTable"]
    return {k: {str(q): int(v) for q, v in queues.items()} for k, queues in table.items()}


def all_groups(addr: str) -> dict[str, Any]:
    r = call(addr, RemotingCommand.request(RequestCode.GET_ALL_SUBSCRIPTIONGROUP_CONFIG))
    assert r.code == ResponseCode.SUCCESS, r.remark
    groups: dict[str, Any] = fastjson.loads(r.body or b"{}")["subscriptionGroupTable"]
    return groups


def config_dir(b: BrokerProcess) -> Path:
    return b.workdir / "store" / "config"


def persisted_offsets(b: BrokerProcess) -> dict[str, dict[str, int]]:
    p = config_dir(b) / "consumerOffset.json"
    if not p.is_file():
        return {}
    table = fastjson.loads(p.read_text("utf-8")).get("offsetTable", {})
    return {k: {str(q): int(v) for q, v in queues.items()} for k, queues in table.items()}


def wait_for(pred: Any, timeout: float = 25.0) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if pred():
            return True
        time.sleep(0.2)
    return bool(pred())


def assert_no_bad_names(names: Any) -> None:
    for name in names:
        group = name.split("@")[-1]
        assert ".." not in name and "/" not in name and " " not in group and "\n" not in name, name


# ------------------------------------------------------------------------------------ reproducer 2


def test_bad_offset_commits_are_refused_and_offsets_survive(broker_factory: Any) -> None:
    b: BrokerProcess = broker_factory.start(**FAST_FLUSH)
    assert create_topic(b.addr, TOPIC).code == 0
    assert commit(b.addr, GOOD, TOPIC, 0, 5).code == ResponseCode.SUCCESS

    for group in BAD_GROUPS:
        r = commit(b.addr, group, TOPIC, 0, 1)
        assert r.code != ResponseCode.SUCCESS, repr(group)
        assert r.remark, repr(group)
    for topic in BAD_TOPICS:
        r = commit(b.addr, GOOD, topic, 0, 1)
        assert r.code != ResponseCode.SUCCESS, repr(topic)
    r = commit(b.addr, "../../g", TOPIC, 0, 1)
    assert r.code == ResponseCode.SYSTEM_ERROR and "illegal characters" in (r.remark or "")
    # a long group's retry topic (longer than 127, as Java creates it) is a topic a consumer may commit on
    long_group = "L" * 200
    assert commit(b.addr, long_group, "%RETRY%" + long_group, 0, 3).code == ResponseCode.SUCCESS

    assert commit(b.addr, GOOD, TOPIC, 1, 7).code == ResponseCode.SUCCESS
    key = f"{TOPIC}@{GOOD}"
    assert all_offsets(b.addr)[key] == {"0": 5, "1": 7}
    assert_no_bad_names(all_offsets(b.addr))
    # the periodic flush still writes the file (the first one comes 10 s after the start)
    assert wait_for(lambda: persisted_offsets(b).get(key) == {"0": 5, "1": 7})
    assert_no_bad_names(persisted_offsets(b))

    b.kill()  # kill -9: what was persisted is what comes back
    b.start()
    assert all_offsets(b.addr)[key] == {"0": 5, "1": 7}
    assert all_offsets(b.addr)[f"%RETRY%{long_group}@{long_group}"] == {"0": 3}
    assert commit(b.addr, "\udfff", TOPIC, 2, 1).code != ResponseCode.SUCCESS
    assert commit(b.addr, GOOD, TOPIC, 2, 9).code == ResponseCode.SUCCESS

    rc = b.stop()  # SIGTERM: a clean shutdown persists, unregisters and leaves no abort file
    assert rc == 0, b.log()[-3000:]
    assert not (b.workdir / "store" / "abort").exists()
    assert "unregister broker from name server" in b.log()
    assert persisted_offsets(b)[key] == {"0": 5, "1": 7, "2": 9}
    assert "Traceback" not in b.log()

    b.start()
    assert all_offsets(b.addr)[key] == {"0": 5, "1": 7, "2": 9}


def test_bad_queries_are_refused_without_touching_anything(broker_factory: Any) -> None:
    b: BrokerProcess = broker_factory.start()
    assert create_topic(b.addr, TOPIC).code == 0
    assert commit(b.addr, GOOD, TOPIC, 0, 4).code == ResponseCode.SUCCESS
    codes = [
        (RequestCode.QUERY_CONSUMER_OFFSET, {"consumerGroup": "../g", "topic": TOPIC, "queueId": "0"}),
        (RequestCode.GET_MAX_OFFSET, {"topic": "../../x", "queueId": "0"}),
        (RequestCode.SEARCH_OFFSET_BY_TIMESTAMP, {"topic": "a b", "queueId": "0", "timestamp": "0"}),
        (RequestCode.GET_CONSUME_STATS, {"consumerGroup": "a\nb"}),
        (RequestCode.DELETE_SUBSCRIPTIONGROUP, {"groupName": "../../g", "cleanOffset": "true"}),
        (RequestCode.CLONE_GROUP_OFFSET, {"srcGroup": GOOD, "destGroup": "../../g", "topic": TOPIC}),
        (RequestCode.QUERY_CORRECTION_OFFSET,
         {"compareGroup": GOOD, "topic": TOPIC, "filterGroups": "x,../y"}),
        (RequestCode.INVOKE_BROKER_TO_RESET_OFFSET,
         {"group": "../g", "topic": TOPIC, "timestamp": "0", "isForce": "true"}),
        (RequestCode.UNREGISTER_CLIENT, {"clientID": "c", "consumerGroup": "\udfff"}),
        (RequestCode.GET_CONSUMER_LIST_BY_GROUP, {"consumerGroup": "a/b"}),
        (RequestCode.QUERY_CONSUME_TIME_SPAN, {"topic": TOPIC, "group": "G" * 300}),
    ]  # fmt: skip
    for code, ext in codes:
        r = raw_call(b.addr, code, ext)
        assert r.code == ResponseCode.SYSTEM_ERROR and r.remark, (code, r.code, r.remark)
    # a missing or unparsable field still gets Java's remark
    r = raw_call(b.addr, RequestCode.UPDATE_CONSUMER_OFFSET, {"consumerGroup": GOOD, "topic": TOPIC})
    assert "the custom field <queueId> is null" in (r.remark or "")
    ext = {"consumerGroup": GOOD, "topic": TOPIC, "queueId": "0", "commitOffset": "1e3"}
    r = raw_call(b.addr, RequestCode.UPDATE_CONSUMER_OFFSET, ext)
    assert r.remark == 'java.lang.NumberFormatException: For input string: "1e3"'
    assert all_offsets(b.addr) == {f"{TOPIC}@{GOOD}": {"0": 4}}
    r = raw_call(
        b.addr, RequestCode.QUERY_CONSUMER_OFFSET, {"consumerGroup": GOOD, "topic": TOPIC, "queueId": "0"}
    )
    assert (r.code, r.ext("offset")) == (ResponseCode.SUCCESS, "4")
    assert "Traceback" not in b.log()


# ------------------------------------------------------------------------------------ heartbeats


def heartbeat_body(
    client_id: str, consumer_group: str | None, topic: str, producer_group: str = "PG"
) -> bytes:
    data: dict[str, Any] = {"clientID": client_id, "producerDataSet": [{"groupName": producer_group}]}
    if consumer_group is not None:
        data["consumerDataSet"] = [
            {
                "consumeFromWhere": "CONSUME_FROM_LAST_OFFSET",
                "consumeType": "CONSUME_PASSIVELY",
                "groupName": consumer_group,
                "messageModel": "CLUSTERING",
                "subscriptionDataSet": [{"subString": "*", "subVersion": 1, "topic": topic}],
                "unitMode": False,
            }
        ]
    return json.dumps(data).encode("ascii")  # a lone surrogate goes out escaped, as a peer may send it


def test_bad_heartbeats_are_refused_and_other_clients_are_served(broker_factory: Any) -> None:
    b: BrokerProcess = broker_factory.start()
    assert create_topic(b.addr, TOPIC).code == 0
    hostile = [heartbeat_body("evil", g, TOPIC) for g in BAD_GROUPS]
    hostile += [heartbeat_body("evil", "EvilCG", t) for t in BAD_TOPICS]
    hostile += [heartbeat_body("evil", None, TOPIC, producer_group=g) for g in ("../p", "\ud800", "p q")]
    hostile += [b'{"clientID":"evil","consumerDataSet":[{"groupName":"\\udfff"}]}', b'{"consumerDataSet":[]}']
    hostile += [b'{"clientID":"evil","consumerDataSet":{"x":1}}', b"[1]", b"\xff\xfe"]

    async def scenario() -> None:
        async with RemotingClient() as good:

            def req(code: int, ext: dict[str, str] | None = None, body: bytes | None = None) -> Any:
                return good.invoke(b.addr, RemotingCommand.request(code, ext, body), 10)

            r = await req(RequestCode.HEART_BEAT, None, heartbeat_body("good-client", "GoodCG", TOPIC))
            assert r.code == ResponseCode.SUCCESS
            for body in hostile:  # each from its own connection, while the good client stays connected
                r = await asyncio.to_thread(raw_call, b.addr, RequestCode.HEART_BEAT, None, body)
                assert r.code == ResponseCode.SYSTEM_ERROR and r.remark, body
            r = await req(RequestCode.GET_ALL_SUBSCRIPTIONGROUP_CONFIG)
            assert r.code == ResponseCode.SUCCESS
            groups = fastjson.loads(r.body)["subscriptionGroupTable"]
            assert "GoodCG" in groups and "EvilCG" not in groups
            assert_no_bad_names(groups)
            r = await req(RequestCode.GET_CONSUMER_LIST_BY_GROUP, {"consumerGroup": "GoodCG"})
            assert fastjson.loads(r.body) == {"consumerIdList": ["good-client"]}
            r = await req(RequestCode.GET_CONSUMER_CONNECTION_LIST, {"consumerGroup": "GoodCG"})
            assert r.code == ResponseCode.SUCCESS and TOPIC in fastjson.loads(r.body)["subscriptionTable"]
            r = await req(RequestCode.GET_CONSUMER_CONNECTION_LIST, {"consumerGroup": "EvilCG"})
            assert r.code == ResponseCode.CONSUMER_NOT_ONLINE
            r = await req(RequestCode.GET_BROKER_CONSUME_STATS, {"isOrder": "false"})
            assert r.code == ResponseCode.SUCCESS
            r = await req(RequestCode.GET_ALL_PRODUCER_INFO)
            assert set(fastjson.loads(r.body)["data"]) == {"PG"}
            r = await req(RequestCode.QUERY_TOPIC_CONSUME_BY_WHO, {"topic": TOPIC})
            assert fastjson.loads(r.body)["groupList"] == ["GoodCG"]

    asyncio.run(scenario())
    saved = (config_dir(b) / "subscriptionGroup.json").read_text("utf-8")
    assert "GoodCG" in saved and "EvilCG" not in saved and "../" not in saved
    topics = (config_dir(b) / "topics.json").read_text("utf-8")
    assert "%RETRY%GoodCG" in topics and "%RETRY%EvilCG" not in topics and "../" not in topics
    b.kill()
    b.start()
    assert "GoodCG" in all_groups(b.addr)
    assert "Traceback" not in b.log()


def test_lock_bodies_with_bad_names_are_refused(broker_factory: Any) -> None:
    b: BrokerProcess = broker_factory.start()
    assert create_topic(b.addr, TOPIC).code == 0
    mq = {"brokerName": "broker-a", "queueId": 0, "topic": TOPIC}
    good = {"clientId": "c1", "consumerGroup": GOOD, "mqSet": [mq]}
    r = raw_call(b.addr, RequestCode.LOCK_BATCH_MQ, None, json.dumps(good).encode())
    assert r.code == ResponseCode.SUCCESS and fastjson.loads(r.body or b"")["lockOKMQSet"] == [mq]
    for body in (
        {"clientId": "c2", "consumerGroup": "../g", "mqSet": [mq]},
        {"clientId": "c2", "consumerGroup": "\udfff", "mqSet": [mq]},
        {"clientId": "c2", "consumerGroup": GOOD, "mqSet": [dict(mq, topic="../x")]},
    ):
        r = raw_call(b.addr, RequestCode.LOCK_BATCH_MQ, None, json.dumps(body).encode())
        assert r.code == ResponseCode.SYSTEM_ERROR and r.remark, body
        r = raw_call(b.addr, RequestCode.UNLOCK_BATCH_MQ, None, json.dumps(body).encode())
        assert r.code == ResponseCode.SYSTEM_ERROR and r.remark, body
    other = {"clientId": "c2", "consumerGroup": GOOD, "mqSet": [mq]}  # still c1's
    r = raw_call(b.addr, RequestCode.LOCK_BATCH_MQ, None, json.dumps(other).encode())
    assert fastjson.loads(r.body or b"")["lockOKMQSet"] == []


# ------------------------------------------------------------------------------------ code 200


def test_subscription_groups_are_validated_like_java(broker_factory: Any) -> None:
    b: BrokerProcess = broker_factory.start()
    path = config_dir(b) / "subscriptionGroup.json"
    before = path.read_bytes()
    table_before = all_groups(b.addr)
    bad: list[dict[str, Any]] = [
        {"groupName": "../../g"},
        {"groupName": "\udfff"},
        {"groupName": ""},
        {"groupName": "G" * 256},
        {"retryQueueNums": -1},
        {"retryQueueNums": 99999999},
        {"retryMaxTimes": -5},
        {"brokerId": -1},
        {"whichBrokerWhenConsumeSlowly": -2},
        {"groupSysFlag": -1},
        {"consumeTimeoutMinute": -15},
        {"groupRetryPolicy": {"type": "SOMETIMES"}},
        {"groupRetryPolicy": {"type": "EXPONENTIAL", "exponentialRetryPolicy": {"initial": -1}}},
        {"groupRetryPolicy": {"type": "EXPONENTIAL", "exponentialRetryPolicy": {"multiplier": 0}}},
        {"groupRetryPolicy": {"type": "CUSTOMIZED", "customizedRetryPolicy": {"next": [1000, -5]}}},
        {"subscriptionDataSet": [{"topic": "../t", "expressionType": "TAG", "expression": "*"}]},
        {"retryQueueNums": "2147483648"},
    ]
    for fields in bad:
        cfg = {"groupName": "NewGroup", **fields}
        r = raw_call(b.addr, RequestCode.UPDATE_AND_CREATE_SUBSCRIPTIONGROUP, None, json.dumps(cfg).encode())
        assert r.code in (ResponseCode.INVALID_PARAMETER, ResponseCode.SYSTEM_ERROR) and r.remark, fields
    r = raw_call(
        b.addr,
        RequestCode.UPDATE_AND_CREATE_SUBSCRIPTIONGROUP,
        None,
        b'{"groupName":"NewGroup","retryQueueNums":-1}',
    )
    assert (r.code, r.remark) == (
        ResponseCode.INVALID_PARAMETER,
        "retryQueueNums -1 is out of range (0..1024)",
    )
    assert path.read_bytes() == before
    assert all_groups(b.addr) == table_before
    ok = {"groupName": "NewGroup", "retryQueueNums": 0, "retryMaxTimes": 3, "brokerId": 1}
    r = raw_call(b.addr, RequestCode.UPDATE_AND_CREATE_SUBSCRIPTIONGROUP, None, json.dumps(ok).encode())
    assert r.code == ResponseCode.SUCCESS
    assert all_groups(b.addr)["NewGroup"]["retryMaxTimes"] == 3
    assert "NewGroup" in path.read_text("utf-8")
    b.kill()
    b.start()
    after = all_groups(b.addr)
    assert after["NewGroup"]["retryMaxTimes"] == 3 and set(after) == set(table_before) | {"NewGroup"}


# ------------------------------------------------------------------------------------ persistence


def test_a_failing_offset_persist_is_logged_once_and_retried(broker_factory: Any) -> None:
    """The offset file cannot be written (a directory took its place): one log line, the broker keeps
    serving, and the first flush after the obstacle is gone writes the file."""
    b: BrokerProcess = broker_factory.start(flushConsumerOffsetInterval=300)
    assert create_topic(b.addr, TOPIC).code == 0
    target = config_dir(b) / "consumerOffset.json"
    target.unlink(missing_ok=True)
    target.mkdir()
    (target / "keep").write_text("x")  # a directory that cannot be replaced by a file
    assert commit(b.addr, GOOD, TOPIC, 0, 11).code == ResponseCode.SUCCESS
    assert wait_for(lambda: "consumerOffset.json failed" in b.log())
    time.sleep(1.5)  # several more flushes, all failing
    assert b.log().count("consumerOffset.json failed") == 1
    assert all_offsets(b.addr)[f"{TOPIC}@{GOOD}"] == {"0": 11}
    (target / "keep").unlink()
    target.rmdir()
    assert wait_for(lambda: persisted_offsets(b).get(f"{TOPIC}@{GOOD}") == {"0": 11}, 10)
    assert "consumerOffset.json works again" in b.log()
    assert b.stop() == 0
    assert not (b.workdir / "store" / "abort").exists()
