"""Cold data flow control on our broker behaving as 5.3.3 (codes 2001-2003), over real sockets: the
report of a fresh broker is byte for byte the recorded 5.3.3 answer (x02), the per-group threshold
table is set, removed, kept in its file and survives a restart, and every refused update (a body that
is not UTF-8, a threshold that is not a number or is negative, a name that is not a group) answers
SYSTEM_ERROR and changes neither the table nor the file. A broker behaving as 4.9.8 does not know
the codes. The runtime table's arithmetic (accumulate, restart from zero, forget idle groups) is
checked on the service itself.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from mqadmin.broker.cold_data import ColdDataCgCtrService
from mqadmin.protocol import fastjson
from mqadmin.protocol.codes import RequestCode, ResponseCode
from mqadmin.protocol.command import RemotingCommand
from tests.broker.peers import call
from tests.captures import load_scenario
from tests.servers import BrokerProcess, NameServerProcess

UPDATE, REMOVE, INFO = (
    RequestCode.UPDATE_COLD_DATA_FLOW_CTR_CONFIG,
    RequestCode.REMOVE_COLD_DATA_FLOW_CTR_CONFIG,
    RequestCode.GET_COLD_DATA_FLOW_CTR_INFO,
)


def recorded_report() -> bytes:
    for f in load_scenario("rocketmq-5.3.3/x02_getColdDataFlowCtrInfo"):
        if f.dir == "response" and f.server_port == 10921:
            return f.body
    raise AssertionError("x02 has no broker answer")


def info(addr: str) -> dict[str, object]:
    resp = call(addr, RemotingCommand.request(INFO))
    assert resp.code == ResponseCode.SUCCESS, resp.remark
    data = fastjson.loads(resp.body or b"")
    assert isinstance(data, dict)
    return data


def req(addr: str, code: int, body: bytes | None) -> RemotingCommand:
    return call(addr, RemotingCommand.request(code, None, body))


def table_file(b: BrokerProcess) -> Path:
    return b.workdir / "store" / "config" / "coldDataFlowCtrConfig.json"


def five(workdir: Path, ns: str, port: int | None = None, **props: object) -> BrokerProcess:
    return BrokerProcess(workdir, ns, port=port, rocketmqVersion="5.3.3", **props)


def test_a_fresh_broker_answers_as_recorded(broker_factory: type) -> None:
    b = broker_factory.start("fresh", rocketmqVersion="5.3.3")
    resp = call(b.addr, RemotingCommand.request(INFO))
    assert (resp.code, resp.remark) == (ResponseCode.SUCCESS, None)
    assert resp.body == recorded_report()
    conf = call(b.addr, RemotingCommand.request(RequestCode.GET_BROKER_CONFIG)).body or b""
    assert b"cgColdReadThreshold=3145728\n" in conf and b"coldDataFlowControlEnable=false\n" in conf


def test_thresholds_are_set_removed_kept_and_survive_a_restart(
    tmp_path: Path, namesrv: NameServerProcess
) -> None:
    b = five(tmp_path / "b", namesrv.addr, cgColdReadThreshold="1048576")
    try:
        assert info(b.addr)["cgColdReadThreshold"] == 1048576  # the -c file's setting
        for body in (b"GroupA=1024\n", b"GroupB=2048\nGroupA=4096\n", b""):
            assert req(b.addr, UPDATE, body or None).code == ResponseCode.SUCCESS
        assert info(b.addr)["configTable"] == {"GroupA": 4096, "GroupB": 2048}
        assert req(b.addr, REMOVE, b"GroupB").code == ResponseCode.SUCCESS
        assert req(b.addr, REMOVE, b"NeverSet").code == ResponseCode.SUCCESS  # Java: success either way
        assert req(b.addr, REMOVE, None).code == ResponseCode.SUCCESS  # no body: nothing to do (Java)
        assert info(b.addr)["configTable"] == {"GroupA": 4096}
        assert json.loads(table_file(b).read_text()) == {"configTable": {"GroupA": 4096}}
    finally:
        b.stop()
    again = five(b.workdir, namesrv.addr, port=b.port)
    try:
        assert info(again.addr)["configTable"] == {"GroupA": 4096}
    finally:
        again.stop()


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory, namesrv: NameServerProcess) -> Iterator[BrokerProcess]:
    b = five(tmp_path_factory.mktemp("cold-hostile"), namesrv.addr)
    try:
        yield b
    finally:
        b.stop()


@pytest.mark.parametrize(
    ("code", "body", "remark"),
    [
        (UPDATE, b"GroupA=\xff\xfe\n", "string2Properties error"),
        (
            UPDATE,
            b"GroupA=lots\n",
            "updateColdDataFlowCtrGroupConfig properties on entry error, key: GroupA, "
            'val: lots: For input string: "lots"',
        ),
        (
            UPDATE,
            b"GroupC=5\nGroupA=-1\n",
            "updateColdDataFlowCtrGroupConfig properties on entry error, key: GroupA, "
            "val: -1: a threshold is a number of bytes, 0 or more",
        ),
        (
            UPDATE,
            b"../x=5\n",
            "updateColdDataFlowCtrGroupConfig properties on entry error, key: ../x, val: 5: "
            "the specified group[../x] contains illegal characters, allowing only ^[%|a-zA-Z0-9_-]+$",
        ),
        (
            UPDATE,
            b"GroupA=99999999999999999999\n",
            "updateColdDataFlowCtrGroupConfig properties on entry error, "
            'key: GroupA, val: 99999999999999999999: For input string: "99999999999999999999"',
        ),
        (REMOVE, b"\xff\xfe", "string parse error"),
        (
            REMOVE,
            b"Group A",
            "the specified group[Group A] contains illegal characters, allowing only ^[%|a-zA-Z0-9_-]+$",
        ),
    ],
)
def test_refused_requests_change_nothing(hostile: BrokerProcess, code: int, body: bytes, remark: str) -> None:
    b = hostile
    assert req(b.addr, UPDATE, b"GroupA=7\n").code == ResponseCode.SUCCESS
    before_file, before = table_file(b).read_bytes(), info(b.addr)
    resp = req(b.addr, code, body)
    assert (resp.code, resp.remark) == (ResponseCode.SYSTEM_ERROR, remark)
    assert info(b.addr) == before and table_file(b).read_bytes() == before_file
    assert b.alive


def test_a_4_9_8_broker_does_not_know_the_codes(broker_factory: type) -> None:
    b = broker_factory.start("old")
    for code in (UPDATE, REMOVE, INFO):
        resp = req(b.addr, code, b"GroupA=1\n")
        assert (resp.code, resp.remark) == (
            ResponseCode.REQUEST_CODE_NOT_SUPPORTED,
            f" request type {code} not supported",
        )
    assert not table_file(b).exists()


def test_the_runtime_table(tmp_path: Path) -> None:
    """``coldAcc`` and ``clearDataAcc``: bytes add up per group and globally, restart from zero on a
    sweep, and a group without a cold read for 60 s leaves the table."""
    svc = ColdDataCgCtrService(tmp_path, {"cgColdReadThreshold": "100"})
    svc.add_or_update_group_config({"Admin1": 10})
    svc.cold_acc("G1", 0, now_ms=1_000)  # nothing read: nothing recorded
    svc.cold_acc("G1", 60, now_ms=1_000)
    svc.cold_acc("G1", 50, now_ms=2_000)
    svc.cold_acc("G2", 5, now_ms=30_000)
    report = json.loads(svc.report())
    assert list(report) == [
        "runtimeTable",
        "configTable",
        "cgColdReadThreshold",
        "globalColdReadThreshold",
        "globalAcc",
    ]
    assert report["runtimeTable"]["G1"] == {
        "coldAcc": 110,
        "createTimeMills": 1_000,
        "lastColdReadTimeMills": 2_000,
    }
    assert report["globalAcc"] == 115 and report["cgColdReadThreshold"] == 100
    assert svc.threshold_of("G1") == 100 and svc.threshold_of("Admin1") == 10
    svc.sweep(now_ms=62_000)  # G1 last read at 2 s: gone; G2 stays with its accumulator at zero
    report = json.loads(svc.report())
    assert report["runtimeTable"] == {
        "G2": {"coldAcc": 0, "createTimeMills": 30_000, "lastColdReadTimeMills": 30_000}
    }
    assert report["globalAcc"] == 0
    assert json.loads((tmp_path / "coldDataFlowCtrConfig.json").read_text()) == {
        "configTable": {"Admin1": 10}
    }


def test_cold_reads_of_pulls_are_counted(broker_factory: type) -> None:
    """With ``coldDataFlowControlEnable`` and an in-memory window of 0 % of RAM every record is cold:
    a pull adds the bytes it read to its group's account and to the global one; a system group's
    pulls are not counted, as in Java."""
    from tests.broker.test_acl import create_topic_cmd, pull_cmd, send_cmd

    b = broker_factory.start(
        "reads", rocketmqVersion="5.3.3", coldDataFlowControlEnable="true", accessMessageInMemoryMaxRatio="0"
    )
    assert call(b.addr, create_topic_cmd("ColdTopic")).code == ResponseCode.SUCCESS
    for i in range(3):
        assert call(b.addr, send_cmd("ColdTopic", f"cold body {i}".encode())).code == ResponseCode.SUCCESS
    pulled = call(b.addr, pull_cmd("ColdTopic", "ColdReader"))
    assert pulled.code == ResponseCode.SUCCESS, pulled.remark
    assert call(b.addr, pull_cmd("ColdTopic", "TOOLS_CONSUMER")).code == ResponseCode.SUCCESS
    report = info(b.addr)
    runtime = report["runtimeTable"]
    assert isinstance(runtime, dict) and list(runtime) == ["ColdReader"]
    assert runtime["ColdReader"]["coldAcc"] == len(pulled.body or b"") == report["globalAcc"]
    assert runtime["ColdReader"]["createTimeMills"] <= runtime["ColdReader"]["lastColdReadTimeMills"]


def test_a_group_over_its_threshold_is_flow_controlled(broker_factory: type) -> None:
    """The operator's threshold at work: with every record cold (both memory ratios 0), a push
    consumer whose group read more than its 10 bytes is answered SYSTEM_BUSY with Java's remark, a
    pull consumer gets one message at a time; without the group's entry the default threshold
    (3 MiB) holds and the same pulls are served in full."""
    import asyncio

    from mqadmin.remoting.client import RemotingClient
    from tests.broker.test_acl import create_topic_cmd, pull_cmd, send_cmd

    b = broker_factory.start(
        "ctrl",
        rocketmqVersion="5.3.3",
        coldDataFlowControlEnable="true",
        accessMessageInMemoryMaxRatio="0",
        accessMessageInMemoryHotRatio="0",
    )
    assert call(b.addr, create_topic_cmd("CtrlTopic")).code == ResponseCode.SUCCESS
    for i in range(4):
        assert call(b.addr, send_cmd("CtrlTopic", f"cold {i}".encode())).code == ResponseCode.SUCCESS

    def heartbeat(group: str, consume_type: str) -> RemotingCommand:
        data = {
            "clientID": f"{group}@1",
            "producerDataSet": [],
            "consumerDataSet": [
                {
                    "groupName": group,
                    "consumeType": consume_type,
                    "messageModel": "CLUSTERING",
                    "consumeFromWhere": "CONSUME_FROM_FIRST_OFFSET",
                    "unitMode": False,
                    "subscriptionDataSet": [{"topic": "CtrlTopic", "subString": "*", "subVersion": 1}],
                }
            ],
        }
        return RemotingCommand.request(RequestCode.HEART_BEAT, None, json.dumps(data).encode())

    async def pulls(group: str, consume_type: str) -> list[RemotingCommand]:
        async with RemotingClient() as client:
            client.register_handler(RequestCode.NOTIFY_CONSUMER_IDS_CHANGED, lambda conn, cmd: None)
            assert (await client.invoke(b.addr, heartbeat(group, consume_type), 10)).code == 0
            return [await client.invoke(b.addr, pull_cmd("CtrlTopic", group), 10) for _ in range(2)]

    def messages(resp: RemotingCommand) -> int:
        from mqadmin.protocol.message_record import decode_messages

        return len(decode_messages(resp.body or b""))

    assert req(b.addr, UPDATE, b"PushGroup=10\nPullGroup=10\n").code == ResponseCode.SUCCESS
    first, second = asyncio.run(pulls("PushGroup", "CONSUME_PASSIVELY"))
    assert first.code == ResponseCode.SUCCESS and messages(first) == 4
    assert (second.code, second.remark) == (
        ResponseCode.SYSTEM_BUSY,
        "This consumer group is reading cold data. It has been flow control",
    )
    first, second = asyncio.run(pulls("PullGroup", "CONSUME_ACTIVELY"))
    assert (first.code, messages(first)) == (ResponseCode.SUCCESS, 4)
    assert (second.code, messages(second)) == (ResponseCode.SUCCESS, 1)

    for group in ("PushGroup", "PullGroup"):
        assert req(b.addr, REMOVE, group.encode()).code == ResponseCode.SUCCESS
    for group, consume_type in (("PushGroup", "CONSUME_PASSIVELY"), ("PullGroup", "CONSUME_ACTIVELY")):
        for resp in asyncio.run(pulls(group, consume_type)):
            assert (resp.code, messages(resp)) == (ResponseCode.SUCCESS, 4)
