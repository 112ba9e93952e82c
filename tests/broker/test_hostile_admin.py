"""Hostile but well-formed topic and broker-config admin requests, sent over real sockets to our broker.

Reproducers of issue 11 (the broker's part): a topic with a final newline (8), negative and huge
queue counts and other numbers no topic can have (11), and UPDATE_BROKER_CONFIG values that smuggle
black-listed keys into the persisted config file or move the store (6). Each is refused with one
answer; the topic table, ``topics.json``, the config file, the name server's routes and other
clients are unaffected, also after ``kill -9`` and a restart.
"""

from __future__ import annotations

from pathlib import Path

from mqadmin.protocol import fastjson
from mqadmin.protocol.bodies.dataversion import DataVersion
from mqadmin.protocol.bodies.properties import properties_store, string_to_properties
from mqadmin.protocol.bodies.topic import TopicConfigSerializeWrapper
from mqadmin.protocol.codes import RequestCode, ResponseCode
from mqadmin.protocol.command import RemotingCommand
from mqadmin.protocol.message_record import decode_messages
from tests.broker.peers import call, create_topic, create_topic_fields
from tests.servers import BrokerProcess, NameServerProcess

GOOD = "HostileAdminGood"
SYSTEM_ERROR, INVALID, NO_PERMISSION = (
    ResponseCode.SYSTEM_ERROR,
    ResponseCode.INVALID_PARAMETER,
    ResponseCode.NO_PERMISSION,
)


def req(
    addr: str, code: int, ext: dict[str, str] | None = None, body: bytes | None = None
) -> RemotingCommand:
    return call(addr, RemotingCommand.request(code, ext, body))


def topic_table(addr: str) -> dict:
    r = req(addr, RequestCode.GET_ALL_TOPIC_CONFIG)
    assert r.code == 0
    return TopicConfigSerializeWrapper.decode(r.body or b"{}").topic_config_table or {}


def has_route(namesrv: NameServerProcess, topic: str) -> bool:
    r = req(namesrv.addr, RequestCode.GET_ROUTEINFO_BY_TOPIC, {"topic": topic})
    assert r.code in (ResponseCode.SUCCESS, ResponseCode.TOPIC_NOT_EXIST), (r.code, r.remark)
    return r.code == ResponseCode.SUCCESS


def send(addr: str, topic: str, body: bytes) -> RemotingCommand:
    ext = {
        "a": "HostileAdminPG",
        "b": topic,
        "c": "TBW102",
        "d": "4",
        "e": "0",
        "f": "0",
        "g": "1700000000000",
        "h": "0",
        "i": "",
        "j": "0",
        "k": "false",
        "m": "false",
    }
    return req(addr, RequestCode.SEND_MESSAGE_V2, ext, body)


def bodies(addr: str, topic: str) -> list[bytes]:
    ext = {
        "consumerGroup": "HostileAdminCG",
        "topic": topic,
        "queueId": "0",
        "queueOffset": "0",
        "maxMsgNums": "32",
        "sysFlag": "4",
        "commitOffset": "0",
        "suspendTimeoutMillis": "0",
        "subVersion": "0",
        "subscription": "*",
    }
    r = req(addr, RequestCode.PULL_MESSAGE, ext)
    assert r.code == 0, (r.code, r.remark)
    return [m.body for m in decode_messages(r.body or b"")]


def topics_json(b: BrokerProcess) -> bytes:
    return (b.workdir / "store" / "config" / "topics.json").read_bytes()


def read_config(path: Path) -> dict[str, str]:
    """The broker's config file as the broker reads it at start (``Properties.load``, ISO-8859-1)."""
    return string_to_properties(path.read_bytes().decode("latin-1"), java_charset=False)


def broker_config(addr: str) -> dict[str, str]:
    r = req(addr, RequestCode.GET_BROKER_CONFIG)
    assert r.code == 0
    return string_to_properties(r.body or b"")


# ------------------------------------------------------------------------------------- topics


def test_bad_topics_and_numbers_are_refused_and_change_nothing(namesrv, broker_factory) -> None:
    b = broker_factory.start()
    addr = b.addr
    assert create_topic(addr, GOOD, queues=2).code == 0
    assert send(addr, GOOD, b"before").code == 0
    table, on_disk = topic_table(addr), topics_json(b)

    refused = [
        # reproducer 8: Java's matches() does not take a final newline; re.match(...$) did
        (create_topic_fields("Tnl\n"), SYSTEM_ERROR, "illegal characters"),
        (create_topic_fields("../../x"), SYSTEM_ERROR, "illegal characters"),
        (create_topic_fields("T" * 128), SYSTEM_ERROR, "longer than topic max length"),
        (create_topic_fields("SCHEDULE_TOPIC_XXXX"), SYSTEM_ERROR, "conflict with system topic"),
        # reproducer 11 on the wire: updateTopic -r -5 -w -5, and -r 99999999
        (create_topic_fields("Neg", readQueueNums="-5", writeQueueNums="-5"), INVALID, "readQueueNums -5"),
        (create_topic_fields("Huge", readQueueNums="99999999"), INVALID, "readQueueNums 99999999"),
        (create_topic_fields("Zero", writeQueueNums="0"), INVALID, "writeQueueNums 0"),
        (create_topic_fields("Overflow", readQueueNums="2147483648"), SYSTEM_ERROR, "NumberFormatException"),
        (create_topic_fields("Perm", perm="8"), INVALID, "topicPermission value: 8 is invalid."),
        (create_topic_fields("PermNeg", perm="-1"), INVALID, "topicPermission value: -1 is invalid."),
        (create_topic_fields("Filter", topicFilterType="EVIL"), INVALID, "TopicFilterType.EVIL"),
        (create_topic_fields("Flag", topicSysFlag="4"), INVALID, "topicSysFlag value: 4"),
        (create_topic_fields("Mixed", attributes="+message.type=MIXED"), INVALID, "MIXED message type"),
        (create_topic_fields("Attr", attributes="k=v"), INVALID, "attribute format is wrong"),
        (
            {k: v for k, v in create_topic_fields("NoPerm").items() if k != "perm"},
            SYSTEM_ERROR,
            "<perm> is null",
        ),
    ]
    for ext, code, text in refused:
        r = req(addr, RequestCode.UPDATE_AND_CREATE_TOPIC, ext)
        assert r.code == code and text in (r.remark or ""), (ext["topic"], r.code, r.remark)

    # the batch create (18): one bad entry refuses the list, nothing of it is created
    batch = [
        {"topicName": "BatchOk", "readQueueNums": 2, "writeQueueNums": 2, "perm": 6},
        {"topicName": "BatchBad", "readQueueNums": -5, "writeQueueNums": 99999999, "perm": 6},
    ]
    body = fastjson.dumps({"topicConfigList": batch}).encode()
    r = req(addr, RequestCode.UPDATE_AND_CREATE_TOPIC_LIST, None, body)
    assert (r.code, r.remark) == (INVALID, "readQueueNums -5 is out of range: a topic has 1 to 1024 queues")
    body = fastjson.dumps({"topicConfigList": [{"topicName": "Tnl\n"}]}).encode()
    assert req(addr, RequestCode.UPDATE_AND_CREATE_TOPIC_LIST, None, body).code == INVALID

    # delete (215) of a name that could only be a path, and of a system topic
    for topic, text in (("../../config", "illegal characters"), ("TBW102", "conflict with system topic")):
        r = req(addr, RequestCode.DELETE_TOPIC_IN_BROKER, {"topic": topic})
        assert r.code == SYSTEM_ERROR and text in (r.remark or ""), (topic, r.remark)

    assert topic_table(addr) == table and topics_json(b) == on_disk
    for name in ("Neg", "Huge", "Zero", "Perm", "Filter", "BatchOk", "BatchBad"):
        assert not has_route(namesrv, name), name
    # other clients carry on: a new topic, a send and a pull on the old one
    assert create_topic(addr, "HostileAdminAfter", queues=1).code == 0
    assert send(addr, GOOD, b"after").code == 0
    assert bodies(addr, GOOD) == [b"before", b"after"]

    b.kill()  # kill -9: what was refused was never written
    b.start()
    table = topic_table(addr)
    assert GOOD in table and "HostileAdminAfter" in table
    assert not {"Neg", "Huge", "Zero", "Perm", "Filter", "BatchOk", "Tnl\n"} & set(table)
    assert table[GOOD].read_queue_nums == 2
    assert bodies(addr, GOOD) == [b"before", b"after"]
    assert not (b.workdir / "x").exists() and not (b.workdir.parent / "x").exists()


# ------------------------------------------------------------------------------------- broker config


def test_config_updates_cannot_smuggle_keys_or_move_the_store(namesrv, broker_factory) -> None:
    b = broker_factory.start()
    addr = b.addr
    config_file: Path = b.config
    assert create_topic(addr, GOOD, queues=1).code == 0
    assert send(addr, GOOD, b"one").code == 0
    before, file_before = broker_config(addr), config_file.read_bytes()
    root = before["storePathRootDir"]

    refused = [
        # reproducer 6: a value on two lines, sent escaped (the broker reads a real line break) ...
        (b"msgTraceTopicName=RMQ_SYS_TRACE_TOPIC\\nconfigBlackList=nothing\n", INVALID, "line break"),
        (b"brokerClusterName=C\\r\\nstorePathRootDir=/tmp/x\n", INVALID, "line break"),
        # ... and sent as Java's tool sends it (unescaped): the second line is a black-listed key
        (b"msgTraceTopicName=RMQ_SYS_TRACE_TOPIC\nconfigBlackList=nothing\n", NO_PERMISSION, "black list"),
        (b"storePathRootDir=/tmp/elsewhere\n", NO_PERMISSION, "black list"),
        (b"storePathCommitLog=/tmp/elsewhere\n", NO_PERMISSION, "black list"),
        (b"readOnlyCommitLogStorePaths=/tmp\n", NO_PERMISSION, "black list"),
        (b"rocketmqHome=/tmp\n", NO_PERMISSION, "black list"),
        (b"brokerConfigPath=/tmp/b.properties\n", NO_PERMISSION, "black list"),
        (b"configBlackList=\n", NO_PERMISSION, "black list"),
        (b"tls.server.keyPath=/tmp/k\n", NO_PERMISSION, "black list"),
        # values the field's Java type cannot take (Java would ignore them; here nothing changes)
        (b"maxMessageSize=1024\nflushIntervalCommitLog=abc\n", INVALID, "flushIntervalCommitLog"),
        (b"maxMessageSize=99999999999\n", INVALID, "maxMessageSize"),
        (b"traceOn=maybe\n", INVALID, "traceOn takes true or false"),
        (b"brokerRole=BOSS\n", INVALID, "brokerRole takes one of"),
        (b"brokerPermission=9\n", INVALID, "brokerPermission value: 9 is invalid."),
        (b"brokerName=../../x\n", INVALID, "not a valid file name"),
        (b"msgTraceTopicName=a/b\n", INVALID, "illegal characters"),
        (b"regionId=a\\u0000b\n", INVALID, "NUL"),
        # bytes that are not UTF-8 (Java would read them as U+FFFD): refused, not stored as such
        (b"brokerName=\xed\xa0\x80\n", SYSTEM_ERROR, "string2Properties error"),
        (b"regionId=\xff\n", SYSTEM_ERROR, "string2Properties error"),
    ]
    for body, code, text in refused:
        r = req(addr, RequestCode.UPDATE_BROKER_CONFIG, None, body)
        assert r.code == code and text in (r.remark or ""), (body, r.code, r.remark)
        assert config_file.read_bytes() == file_before, body
    assert broker_config(addr) == before  # maxMessageSize=1024 of a refused update was not applied either
    version = (req(addr, RequestCode.GET_BROKER_CONFIG).ext_fields or {})["version"]
    assert DataVersion.decode(version.encode()).counter == 0

    # a good update whose value holds every character Properties treats specially
    tricky = "a=b: c #d !e \\f\tg"
    body = properties_store({"regionId": tricky, "maxMessageSize": "65536"}).encode()
    r = req(addr, RequestCode.UPDATE_BROKER_CONFIG, None, body)
    assert (r.code, r.remark) == (0, None)
    persisted = read_config(config_file)
    assert persisted["regionId"] == tricky and persisted["maxMessageSize"] == "65536"
    assert set(persisted) == set(before)  # one line per setting: nothing added by a value
    assert persisted["configBlackList"] == before["configBlackList"] and persisted["storePathRootDir"] == root
    assert not list(config_file.parent.glob(f".{config_file.name}.*"))  # no temporary file left
    assert send(addr, GOOD, b"two").code == 0  # other clients unaffected

    b.kill()
    b.start()  # the rewritten file is the one it starts from
    restarted = broker_config(addr)
    assert restarted["maxMessageSize"] == "65536" and restarted["storePathRootDir"] == root
    assert restarted["configBlackList"] == before["configBlackList"]
    assert restarted["msgTraceTopicName"] == "RMQ_SYS_TRACE_TOPIC"
    assert bodies(addr, GOOD) == [b"one", b"two"]
    # the value read back at start is the one set: persisted again, it is written the same
    assert req(addr, RequestCode.UPDATE_BROKER_CONFIG, None, b"maxMessageSize=65535\n").code == 0
    again = read_config(config_file)
    assert again["regionId"] == tricky and again["maxMessageSize"] == "65535"
    assert {k: v for k, v in again.items() if k != "maxMessageSize"} == {
        k: v for k, v in persisted.items() if k != "maxMessageSize"
    }
