"""The 5.x request paths of our servers keep the boundary rules against a peer that floods them or
sends names made to forge log lines: every line a peer can cause goes through the throttle (at
most its burst, 200 lines of a kind per 10 s), and a name that would break a line never reaches the
log as it is. Real processes, real sockets; each flood is a few hundred requests on one connection.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from mqadmin.protocol.codes import RequestCode, ResponseCode
from mqadmin.protocol.command import RemotingCommand
from mqadmin.remoting.client import RemotingClient
from tests.servers import BrokerProcess, ControllerNameServer, NameServerProcess

BURST = 200
"""``ThrottledLog``'s default lines of one kind per interval."""
FLOOD = BURST + 60


def flood(addr: str, cmd: RemotingCommand, n: int = FLOOD) -> list[RemotingCommand]:
    """``n`` copies of ``cmd`` on one connection, all answered."""

    async def go() -> list[RemotingCommand]:
        async with RemotingClient() as client:
            calls = [
                client.invoke(addr, RemotingCommand.request(cmd.code, cmd.ext_fields, cmd.body), 20)
                for _ in range(n)
            ]
            return list(await asyncio.gather(*calls))

    return go_run(go())


def go_run(coro):  # type: ignore[no-untyped-def]
    return asyncio.run(coro)


def lines_with(path: Path, needle: str) -> int:
    time.sleep(0.3)  # the handler writes each record as it comes; give the last ones a moment
    return sum(needle in line for line in path.read_text(errors="replace").splitlines())


@pytest.fixture(scope="module")
def broker5(tmp_path_factory: pytest.TempPathFactory) -> Iterator[BrokerProcess]:
    root = tmp_path_factory.mktemp("flood")
    ns = NameServerProcess(root / "ns")
    try:
        b = BrokerProcess(root / "broker", ns.addr, None, rocketmqVersion="5.3.3")
        try:
            yield b
        finally:
            b.stop()
    finally:
        ns.stop()


FLOODS = [
    pytest.param(
        RemotingCommand.request(RequestCode.POP_ROLLBACK),
        "pop record export asked",
        id="200056-exportPopRecord",
    ),
    pytest.param(
        RemotingCommand.request(RequestCode.SET_COMMITLOG_READ_MODE, {"READ_AHEAD_MODE": "7"}),
        "setCommitLogReadaheadMode called by",
        id="2004-readAhead",
    ),
    pytest.param(
        RemotingCommand.request(
            RequestCode.CHECK_ROCKSDB_CQ_WRITE_PROGRESS, {"topic": "", "checkStoreTime": "0"}
        ),
        "checkRocksdbCqWriteProgress",
        id="354-rocksdbCq",
    ),
    pytest.param(
        RemotingCommand.request(RequestCode.UPDATE_COLD_DATA_FLOW_CTR_CONFIG, None, b"FloodGroup=5\n"),
        "updateColdDataFlowCtrGroupConfig new config",
        id="2001-coldUpdate",
    ),
    pytest.param(
        RemotingCommand.request(RequestCode.REMOVE_COLD_DATA_FLOW_CTR_CONFIG, None, b"FloodGroup"),
        "removeColdDataFlowCtrGroupConfig",
        id="2002-coldRemove",
    ),
]


@pytest.mark.parametrize(("cmd", "needle"), FLOODS)
def test_broker_lines_a_peer_causes_are_throttled(
    broker5: BrokerProcess, cmd: RemotingCommand, needle: str
) -> None:
    answers = flood(broker5.addr, cmd)
    assert len({a.code for a in answers}) == 1, {(a.code, a.remark) for a in answers}
    assert lines_with(broker5.log_file, needle) <= BURST


STATIC_EXT = {
    "defaultTopic": "TBW102",
    "readQueueNums": "1",
    "writeQueueNums": "1",
    "perm": "6",
    "topicFilterType": "SINGLE_TAG",
    "topicSysFlag": "0",
    "order": "false",
}


def test_a_static_topic_name_cannot_forge_a_log_line(broker5: BrokerProcess) -> None:
    """513 with a topic holding a line break: refused (INVALID_PARAMETER), and the log shows no line
    starting with the text after the break."""
    ext = {**STATIC_EXT, "topic": "Evil\nFORGED-BY-PEER granted"}
    cmd = RemotingCommand.request(RequestCode.UPDATE_AND_CREATE_STATIC_TOPIC, ext, b"{}")
    (resp,) = flood(broker5.addr, cmd, 1)
    assert resp.code == ResponseCode.INVALID_PARAMETER, resp.remark
    # and a body whose topic holds one: refused by the mapping check, whose text is logged
    body = b'{"topic":"Other\\nFORGED-BY-PEER body","bname":"broker-a","epoch":1,"totalQueues":1}'
    (resp,) = flood(broker5.addr, RemotingCommand.request(cmd.code, {**STATIC_EXT, "topic": "Fine"}, body), 1)
    assert resp.code == ResponseCode.SYSTEM_ERROR, resp.remark
    time.sleep(0.3)
    forged = [
        ln for ln in broker5.log_file.read_text(errors="replace").splitlines() if ln.startswith("FORGED")
    ]
    assert forged == []


def test_static_topic_requests_are_throttled(broker5: BrokerProcess) -> None:
    ext = {**STATIC_EXT, "topic": "FloodStatic"}
    cmd = RemotingCommand.request(RequestCode.UPDATE_AND_CREATE_STATIC_TOPIC, ext, b"{not json")
    answers = flood(broker5.addr, cmd)
    assert {a.code for a in answers} == {ResponseCode.SYSTEM_ERROR}
    assert lines_with(broker5.log_file, "static topic='FloodStatic'") <= BURST
    assert lines_with(broker5.log_file, "Update static topic FloodStatic from") <= BURST


def test_controller_config_requests_are_throttled(tmp_path: Path) -> None:
    """UPDATE_CONTROLLER_CONFIG (1009) needs no credentials on a name server; a flood of empty ones
    must not write a line each."""
    ns = ControllerNameServer(tmp_path / "ns")
    try:
        answers = flood(ns.addr, RemotingCommand.request(RequestCode.UPDATE_CONTROLLER_CONFIG))
        assert {a.code for a in answers} == {ResponseCode.SUCCESS}
        assert lines_with(tmp_path / "ns" / "ns.log", "controller updateConfig called by") <= BURST
    finally:
        ns.stop()


# ---------------------------------------------------------------------------------- secured static topics


def test_a_remapped_static_topic_is_read_across_secured_brokers(tmp_path: Path) -> None:
    """Two brokers with authentication on, sharing the inner client's credentials (a super user of
    both, as Java's ``innerClientAuthenticationCredentials``): after a remapping, the old messages
    of a logical queue are read through the new leader, which asks the old one."""
    import json

    from tests.cli_harness import clean_env, run_mqadmin

    inner = json.dumps({"accessKey": "innerUser", "secretKey": "innerSecret"})
    auth = {
        "rocketmqVersion": "5.3.3",
        "authenticationEnabled": "true",
        "authorizationEnabled": "true",
        "initAuthenticationUser": json.dumps({"username": "rootUser", "password": "rootSecret"}),
        "innerClientAuthenticationCredentials": inner,
    }
    ns = NameServerProcess(tmp_path / "ns")
    started: list[BrokerProcess] = []
    try:
        started.append(BrokerProcess(tmp_path / "a", ns.addr, None, brokerName="broker-a", **auth))
        started.append(BrokerProcess(tmp_path / "b", ns.addr, None, brokerName="broker-b", **auth))
        env = clean_env(tmp_path / "home", tmp_path / "cfg")

        def mq(*args: str) -> str:
            keys = ["--access-key", "rootUser", "--secret-key", "rootSecret"]
            r = run_mqadmin([args[0], "-n", ns.addr, *args[1:], *keys], env, timeout=60)
            assert r.code == 0, (args, r.err)
            return r.out

        mq("updateStaticTopic", "-b", "broker-a", "-t", "SecuredMove", "-qn", "2")
        for i in range(3):
            mq("sendMessage", "-t", "SecuredMove", "-p", f"old{i}", "-b", "broker-a", "-i", "1")
        mq("remappingStaticTopic", "-b", "broker-b", "-t", "SecuredMove")
        out = mq(
            "consumeMessage", "-t", "SecuredMove", "-b", "broker-b", "-i", "1", "-o", "0", "-c", "3", "--json"
        )
        got = [m["body"] for q in json.loads(out)["queues"] for m in q["messages"]]
        assert got == ["old0", "old1", "old2"]
    finally:
        for b in started:
            b.stop()
        ns.stop()
