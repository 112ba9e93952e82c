"""The 5.x broker-operation commands, run as the installed ``mqadmin`` against our name server and our
broker behaving as 5.3.3 (``DefaultCluster5``/``broker-b``, as in the x0* captures).

Output is compared with the Java tool's recorded output where a scenario exists (x03_exportPopRecord,
x04_setConsumeMode), masking only our run-time broker address; x06_clusterList5 and x07_brokerStatus5
are replayed by recorded-answer peers standing in for the Java brokers and must come out byte for byte,
and our own broker's clusterList/brokerStatus must have their shape. Each command's effect is read
back, and beside it the hostile input: a bad group, mode or number, bad paths; each is one line on
stderr, a non-zero exit code and nothing changed.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from mqadmin.protocol.command import RemotingCommand
from tests.admin_topic_broker.servers import Cluster, run
from tests.cli.peers import RecordedBroker, register_broker, registration_frame
from tests.cli_harness import Result, recorded_text, unwrap
from tests.servers import NameServerProcess

V533 = "rocketmq-5.3.3"
JAVA_BROKER5 = "127.0.0.1:10921"
JAVA_NS5 = "127.0.0.1:9877"


@pytest.fixture(scope="module")
def c5(tmp_path_factory: pytest.TempPathFactory, base_env: dict[str, str]) -> Iterator[Cluster]:
    c = Cluster(
        tmp_path_factory.mktemp("cluster5"),
        base_env,
        brokerClusterName="DefaultCluster5",
        brokerName="broker-b",
        rocketmqVersion="5.3.3",
    )
    try:
        r = c.mqadmin("updateTopic", "-b", c.broker_addr, "-t", "GoldenTopic5", "-r", "4", "-w", "4")
        assert r.code == 0, r.err
        yield c
    finally:
        c.stop()


def java_args(c: Cluster, scenario: str) -> tuple[list[str], str]:
    """The recorded arguments pointed at our servers, and the recorded stdout."""
    args, out = recorded_text(f"{V533}/{scenario}")
    args = [c.ns_addr if a == JAVA_NS5 else c.broker_addr if a == JAVA_BROKER5 else a for a in args]
    return args, out


def as_java(c: Cluster, text: str) -> str:
    return text.replace(c.broker_addr, JAVA_BROKER5)


def one_line_failure(r: Result, code: int | None = None) -> None:
    assert r.code != 0 and r.out == "", (r.code, r.out, r.err)
    assert r.err.count("\n") == 1, r.err
    if code is not None:
        assert r.code == code, r.err


def request_modes(c: Cluster) -> dict[str, object]:
    async def call(admin):  # type: ignore[no-untyped-def]
        return (await admin.broker_ops.get_all_message_request_mode(c.broker_addr)).to_json_obj()

    return c.admin(call)["messageRequestModeMap"]  # type: ignore[no-any-return]


def broker_config(c: Cluster) -> str:
    r = c.mqadmin("getBrokerConfig", "-b", c.broker_addr)
    assert r.code == 0, r.err
    return r.out


# ------------------------------------------------------------------------------------- setConsumeMode


def test_set_consume_mode_as_recorded(c5: Cluster, mqadmin) -> None:  # type: ignore[no-untyped-def]
    args, expected = java_args(c5, "x04_setConsumeMode")
    r = mqadmin(*args)
    assert (r.code, r.err) == (0, "")
    assert as_java(c5, r.out) == expected
    mode = request_modes(c5)["GoldenTopic5"]["G5"]  # type: ignore[index]
    assert mode == {"consumerGroup": "G5", "mode": "POP", "popShareQueueNum": 2, "topic": "GoldenTopic5"}


def test_set_consume_mode_by_cluster_and_json(c5: Cluster) -> None:
    r = c5.mqadmin("setConsumeMode", "-c", "DefaultCluster5", "-t", "GoldenTopic5", "-g", "G6", "-m", "PULL")
    assert (r.code, r.err) == (0, "")
    assert r.out == (
        f"set consume mode to {c5.broker_addr} success.\n"
        "topic[GoldenTopic5] group[G6] consume mode[PULL] popShareQueueNum[0]"
    )
    assert request_modes(c5)["GoldenTopic5"]["G6"]["mode"] == "PULL"  # type: ignore[index]
    r = c5.mqadmin(
        "setConsumeMode", "-b", c5.broker_addr, "-t", "GoldenTopic5", "-g", "G6", "-m", "POP", "--json"
    )
    doc = json.loads(r.out)
    assert unwrap(doc)["brokers"] == [{"addr": c5.broker_addr, "ok": True}] and doc["mode"] == "POP"


@pytest.mark.parametrize(
    ("args", "code"),
    [
        (["-t", "GoldenTopic5", "-g", "G5", "-m", "pop"], 2),
        (["-t", "GoldenTopic5", "-g", "bad group!", "-m", "PULL"], 2),
        (["-t", "GoldenTopic5", "-g", "G5", "-m", "PULL", "-q", "two"], 2),
        (["-t", "bad/topic", "-g", "G5", "-m", "PULL"], 2),
        (["-t", "NoSuchTopic5", "-g", "G5", "-m", "PULL"], None),
        (["-t", "%RETRY%G5", "-g", "G5", "-m", "PULL"], None),
    ],
)
def test_set_consume_mode_refused(c5: Cluster, args: list[str], code: int | None) -> None:
    before = request_modes(c5)
    r = c5.mqadmin("setConsumeMode", "-b", c5.broker_addr, *args)
    one_line_failure(r, code)
    if code is None:  # refused by the broker: the line names it and the response code
        assert c5.broker_addr in r.err and "CODE: " in r.err
    assert request_modes(c5) == before


def test_set_consume_mode_needs_a_target(c5: Cluster) -> None:
    one_line_failure(c5.mqadmin("setConsumeMode", "-t", "GoldenTopic5", "-g", "G5", "-m", "PULL"), 2)


# ------------------------------------------------------------------------------------- exportPopRecord


def test_export_pop_record_as_recorded(c5: Cluster, mqadmin) -> None:  # type: ignore[no-untyped-def]
    args, expected = java_args(c5, "x03_exportPopRecord")
    r = mqadmin(*args)
    assert (r.code, r.err) == (0, "")
    assert as_java(c5, r.out) == expected
    log = (c5.broker.workdir / "broker.log").read_text()
    assert "pop record export asked by" in log


def test_export_pop_record_dry_run_and_cluster(c5: Cluster) -> None:
    r = c5.mqadmin("exportPopRecord", "-c", "DefaultCluster5", "-d", "false")
    assert (r.code, r.err) == (0, "")
    assert r.out == f"Export broker records, brokerName=broker-b, brokerAddr={c5.broker_addr}, dryRun=true\n"
    one_line_failure(c5.mqadmin("exportPopRecord", "-c", "NoSuchCluster"))
    one_line_failure(c5.mqadmin("exportPopRecord"), 2)


# --------------------------------------------------------------------------- read ahead, flush offset


def test_read_ahead_mode_set_and_shown(c5: Cluster) -> None:
    r = c5.mqadmin("setCommitLogReadAheadMode", "-b", c5.broker_addr, "-m", "1")
    assert (r.code, r.err) == (0, "")
    assert r.out == (
        f" ============{c5.broker_addr}============\n"
        "commitLog set readAhead mode rstStrset commitlog readahead mode success, mode: 1\n"
    )
    assert re.search(r"^dataReadAheadEnable +=  false$", broker_config(c5), re.M)
    r = c5.mqadmin("setCommitLogReadAheadMode", "-c", "DefaultCluster5", "-m", "0")
    assert r.out.startswith(f" ============Master: {c5.broker_addr}============\n"), r.out
    assert re.search(r"^dataReadAheadEnable +=  true$", broker_config(c5), re.M)


@pytest.mark.parametrize("mode", ["2", "random", ""])
def test_read_ahead_mode_refused(c5: Cluster, mode: str) -> None:
    before = broker_config(c5)
    r = c5.mqadmin("setCommitLogReadAheadMode", "-b", c5.broker_addr, "-m", mode)
    one_line_failure(r, 2)
    assert "set the read mode error; 0 is default, 1 random read" in r.err
    assert broker_config(c5) == before


def test_reset_master_flush_offset(c5: Cluster) -> None:
    r = c5.mqadmin("resetMasterFlushOffset", "-b", c5.broker_addr, "-o", "100")
    assert (r.code, r.out, r.err) == (0, "reset master flush offset to 100 success\n", "")
    one_line_failure(c5.mqadmin("resetMasterFlushOffset", "-b", c5.broker_addr, "-o", "1e3"), 2)
    one_line_failure(c5.mqadmin("resetMasterFlushOffset", "-b", c5.broker_addr), 2)


# ------------------------------------------------------------------------------------- container


def test_container_commands(c5: Cluster) -> None:
    r = c5.mqadmin("addBroker", "-c", c5.broker_addr, "-b", "/opt/broker-c.properties")
    one_line_failure(r)
    assert "CODE: 3" in r.err and c5.broker_addr in r.err
    r = c5.mqadmin("removeBroker", "-c", c5.broker_addr, "-b", "DefaultCluster5:broker-c:1")
    one_line_failure(r)
    assert "CODE: 3" in r.err
    for bad in (
        "DefaultCluster5:broker-c",
        "DefaultCluster5:broker-c:x",
        "DefaultCluster5:broker-c:-1",
        "a/b:c:1",
        "..:c:1",
        ":c:1",
    ):
        one_line_failure(c5.mqadmin("removeBroker", "-c", c5.broker_addr, "-b", bad), 2)


# ------------------------------------------------------------------------------------- RocksDB


def test_rocksdb_rpc_modes(c5: Cluster) -> None:
    r = run(c5.env, "rocksDBConfigToJson", "-b", c5.broker_addr, "-t", "topics")  # no -n: -b's rpc mode
    assert (r.code, r.err) == (0, "")
    assert r.out == "Use [rpc mode] call broker to export to json file \nbroker export done."
    r = c5.mqadmin("rocksDBConfigToJson", "-c", "DefaultCluster5")  # -n comes first: rpc mode, all brokers
    assert (r.code, r.err) == (0, "")
    assert r.out == "Use [rpc mode] call all brokers in cluster to export to json file \nbroker export done."
    r = c5.mqadmin("checkRocksdbCqWriteProgress", "-c", "DefaultCluster5", "-t", "GoldenTopic5")
    assert (r.code, r.err) == (0, "")
    assert r.out == "broker-b check doing, please wait and get the result from log... \n"
    r = c5.mqadmin("checkRocksdbCqWriteProgress", "-c", "NoSuchCluster")
    assert (r.code, r.out) == (7, "clusterAddrTable is empty")
    one_line_failure(
        c5.mqadmin("checkRocksdbCqWriteProgress", "-c", "DefaultCluster5", "-cf", "yesterday"), 2
    )
    one_line_failure(run(c5.env, "rocksDBConfigToJson", "-b", c5.broker_addr, "-t", "tables"), 2)
    one_line_failure(c5.mqadmin("rocksDBConfigToJson", "-b", c5.broker_addr), 2)  # -n: cluster needed


def test_rocksdb_local_modes(c5: Cluster, tmp_path: Path) -> None:
    missing = tmp_path / ".." / "no-such-dir"
    r = run(c5.env, "rocksDBConfigToJson", "-p", str(missing), "-t", "topics")
    assert r.code == 7
    assert r.out == "Use [local mode] load rocksdb to print or export file \nRocksdb path is invalid.\n"
    r = run(
        c5.env, "rocksDBConfigToJson", "-p", str(tmp_path), "-t", "topics", "-e", str(tmp_path / "out.json")
    )
    one_line_failure(r, 1)
    assert "RocksDB binding" in r.err
    assert list(tmp_path.iterdir()) == []  # nothing written
    one_line_failure(run(c5.env, "rocksDBConfigToJson", "-p", str(tmp_path)), 2)
    r = run(c5.env, "exportMetadataInRocksDB", "-p", str(missing), "-t", "topics")
    assert (r.code, r.out) == (7, "RocksDB path is invalid.\n")
    r = run(c5.env, "exportMetadataInRocksDB", "-p", str(tmp_path), "-t", "topics")
    assert (r.code, r.out) == (1, f"RocksDB load error, path={tmp_path}/topics\n")


# ------------------------------------------------------------------------------------- dumpCompactionLog


def test_dump_compaction_log(c5: Cluster) -> None:
    for body in ("first", "second"):
        r = c5.mqadmin("sendMessage", "-t", "GoldenTopic5", "-p", body, "-b", "broker-b", "-i", "1")
        assert r.code == 0, r.err
    log = c5.broker.workdir / "store" / "commitlog" / ("0" * 20)
    r = c5.mqadmin("dumpCompactionLog", "-f", str(log))
    assert (r.code, r.err) == (0, "")
    lines = r.out.splitlines()
    assert len(lines) == 2
    for i, line in enumerate(lines):
        assert line.startswith("MessageExt [brokerName=null, queueId=1, storeSize="), line
        assert f"queueOffset={i}, " in line
        assert "toString()=Message{topic='GoldenTopic5', flag=0, " in line
        assert line.endswith(", body=null, transactionId='null'}]")
    doc = json.loads(c5.mqadmin("dumpCompactionLog", "-f", str(log), "--json").out)
    assert [m["queueOffset"] for m in doc["messages"]] == [0, 1]


def test_dump_compaction_log_refusals(c5: Cluster, tmp_path: Path) -> None:
    one_line_failure(c5.mqadmin("dumpCompactionLog", "-f", str(tmp_path / ".." / "nope" / "00")), 7)
    one_line_failure(c5.mqadmin("dumpCompactionLog", "-f", str(tmp_path)), 2)
    one_line_failure(c5.mqadmin("dumpCompactionLog"), 2)
    garbage = tmp_path / "garbage"
    garbage.write_bytes(b"\x7f\xff\xff\xff" + b"\0" * 60)
    r = c5.mqadmin("dumpCompactionLog", "-f", str(garbage))
    assert (r.code, r.out, r.err) == (0, "", "")
    assert garbage.read_bytes() == b"\x7f\xff\xff\xff" + b"\0" * 60


def test_dump_compaction_log_nul_in_path() -> None:
    from click.testing import CliRunner

    from mqadmin.cli.app import cli

    r = CliRunner().invoke(cli, ["dumpCompactionLog", "-f", "/tmp/a\0b"], standalone_mode=False)
    assert r.return_value == 2 and r.output.count("\n") == 1 and "NUL" in r.output


# ------------------------------------------------------------------------- clusterList, brokerStatus


def test_cluster_list_and_status_of_our_5x_broker(c5: Cluster, mqadmin) -> None:  # type: ignore[no-untyped-def]
    _, expected = java_args(c5, "x06_clusterList5")
    r = c5.mqadmin("clusterList")
    assert (r.code, r.err) == (0, "")
    assert r.out.splitlines()[0] == expected.splitlines()[0]
    row = r.out.splitlines()[1].split()
    assert row[:5] == ["DefaultCluster5", "broker-b", "0", c5.broker_addr, "V5_3_3"] and row[-1] == "true"
    _, status = java_args(c5, "x07_brokerStatus5")
    r = c5.mqadmin("brokerStatus", "-b", c5.broker_addr)
    assert (r.code, r.err) == (0, "")
    keys = [ln.split(":")[0].rstrip() for ln in r.out.splitlines()]
    java_keys = [ln.split(":")[0].rstrip() for ln in status.splitlines()]
    strip = [k for k in keys if not k.startswith("commitLogDiskRatio_")]
    assert strip == [k for k in java_keys if not k.startswith("commitLogDiskRatio_")]
    assert "brokerVersionDesc               : V5_3_3" in r.out.splitlines()


@pytest.fixture(scope="module")
def recorded5(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[tuple[NameServerProcess, RecordedBroker, RecordedBroker]]:
    """Our name server with the two Java brokers of x06 registered, each at a recorded-answer peer
    (x06 recorded only the 5.3.3 broker's port: the 4.9.8 one answers as in v01_clusterList)."""
    a = RecordedBroker([f"{V533}/v01_clusterList"])
    b = RecordedBroker([f"{V533}/x06_clusterList5", f"{V533}/x07_brokerStatus5"], broker_port=10921)
    ns = NameServerProcess(tmp_path_factory.mktemp("namesrv-x06"))
    try:
        register_broker(ns, registration_frame(f"{V533}/v18_getBrokerConfig"), a.addr)
        register_broker(ns, registration_frame(f"{V533}/x03_exportPopRecord", 9877), b.addr)
        yield ns, a, b
    finally:
        ns.stop()
        a.stop()
        b.stop()


def test_recorded_5x_broker_cluster_list_and_status(recorded5, mqadmin) -> None:  # type: ignore[no-untyped-def]
    ns, a, b = recorded5

    def java(text: str) -> str:
        return text.replace(a.addr, "127.0.0.1:10911").replace(b.addr, JAVA_BROKER5)

    _, expected = recorded_text(f"{V533}/x06_clusterList5")
    _, v01 = recorded_text(f"{V533}/v01_clusterList")
    r = mqadmin("clusterList", "-n", ns.addr)
    assert (r.code, r.err) == (0, "")
    hour = re.compile(r"(\S+)(\s+\S+\s+\S+\s*)$")  # hours since the earliest message move on

    def mask(line: str) -> str:
        return hour.sub(lambda m: "<h> " + m.group(2).lstrip(" "), line)

    ours = [mask(ln) for ln in java(r.out).split("\n")]
    x06 = [mask(ln) for ln in expected.split("\n")]
    assert ours[:2] == x06[:2]  # the header and the 5.3.3 broker, first
    assert ours[2] == mask(v01.split("\n")[1])  # then the 4.9.8 one
    assert len(ours) == len(x06) == 4 and ours[3] == x06[3] == ""
    _, expected = recorded_text(f"{V533}/x07_brokerStatus5")
    r = mqadmin("brokerStatus", "-n", ns.addr, "-b", b.addr)
    assert (r.code, r.err) == (0, "")
    assert java(r.out) == expected


# ------------------------------------------------------------------------------------- startMonitoring


def test_start_monitoring_rounds(c5: Cluster) -> None:
    r = c5.mqadmin("startMonitoring", "--first-delay", "0", "--interval", "0.2", "--rounds", "2")
    assert (r.code, r.err) == (0, ""), r.err
    lines = r.out.splitlines()
    begin = "[MONITOR] =========================================beginRound"
    end = "[MONITOR] =========================================endRound"
    assert lines.count(begin) == lines.count(end) == 2 and lines[0] == begin and lines[-1] == end
    for line in lines:
        assert line in (begin, end) or re.fullmatch(
            r"\[MONITOR\] reportUndoneMsgs: UndoneMsgs \[consumerGroup=\S+, topic=\S+, undoneMsgsTotal=\d+, "
            r"undoneMsgsSingleMQ=-?\d+, undoneMsgsDelayTimeMills=-?\d+\]",
            line,
        ), line
    r = c5.mqadmin("startMonitoring", "--first-delay", "0", "--rounds", "1", "--json")
    assert json.loads(r.out)["round"] == 1
    one_line_failure(c5.mqadmin("startMonitoring", "--rounds", "-1"), 2)


class OnlineConsumer:
    """A consumer of ``group`` that stays online (heartbeat on an open connection) from another thread."""

    def __init__(self, broker: str, group: str, topic: str) -> None:
        import asyncio
        import threading

        from mqadmin.remoting.client import RemotingClient

        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.client = RemotingClient()
        self.client.register_handler(40, lambda conn, cmd: None)
        hb = {
            "clientID": "monitor-test@1",
            "producerDataSet": [],
            "consumerDataSet": [
                {
                    "groupName": group,
                    "consumeType": "CONSUME_PASSIVELY",
                    "messageModel": "CLUSTERING",
                    "consumeFromWhere": "CONSUME_FROM_LAST_OFFSET",
                    "unitMode": False,
                    "subscriptionDataSet": [{"topic": topic, "subString": "*", "subVersion": 1}],
                }
            ],
        }
        cmd = RemotingCommand.request(34, {}, json.dumps(hb).encode())
        resp = asyncio.run_coroutine_threadsafe(self.client.invoke(broker, cmd, 10), self.loop).result(15)
        assert resp.code == 0, resp.remark

    def commit(self, broker: str, group: str, topic: str, queue_id: int, offset: int) -> None:
        import asyncio

        ext = {"consumerGroup": group, "topic": topic, "queueId": str(queue_id), "commitOffset": str(offset)}
        call = self.client.invoke(broker, RemotingCommand.request(15, ext), 10)
        assert asyncio.run_coroutine_threadsafe(call, self.loop).result(15).code == 0

    def stop(self) -> None:
        import asyncio

        asyncio.run_coroutine_threadsafe(self.client.close(), self.loop).result(10)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)


def test_start_monitoring_reports_a_lagging_group(c5: Cluster) -> None:
    assert c5.mqadmin("updateTopic", "-b", c5.broker_addr, "-t", "MonTopic", "-r", "2", "-w", "2").code == 0
    for body in ("a", "b", "c"):
        assert c5.mqadmin("sendMessage", "-t", "MonTopic", "-p", body, "-b", "broker-b", "-i", "0").code == 0
    consumer = OnlineConsumer(c5.broker_addr, "MonGroup", "MonTopic")
    try:
        consumer.commit(c5.broker_addr, "MonGroup", "MonTopic", 0, 1)
        c5.mqadmin("updateTopic", "-b", c5.broker_addr, "-t", "MonTopic", "-r", "2", "-w", "2")  # registers
        r = c5.mqadmin("startMonitoring", "--first-delay", "0", "--rounds", "1")
    finally:
        consumer.stop()
    assert (r.code, r.err) == (0, "")
    line = next(ln for ln in r.out.splitlines() if "consumerGroup=MonGroup" in ln)
    m = re.fullmatch(
        r"\[MONITOR\] reportUndoneMsgs: UndoneMsgs \[consumerGroup=MonGroup, topic=MonTopic, "
        r"undoneMsgsTotal=2, undoneMsgsSingleMQ=2, undoneMsgsDelayTimeMills=(\d+)\]",
        line,
    )
    assert m is not None, line


# ------------------------------------------------------------------------------------- --json


def test_json_documents(c5: Cluster, tmp_path: Path) -> None:
    def doc(*args: str) -> dict[str, object]:
        r = c5.mqadmin(*args, "--json")
        assert r.code == 0, r.err
        return unwrap(json.loads(r.out))  # type: ignore[no-any-return]

    addr = c5.broker_addr
    d = doc("setCommitLogReadAheadMode", "-b", addr, "-m", "0")
    assert d == {
        "mode": "0",
        "brokers": [
            {
                "addr": addr,
                "role": "master",
                "ok": True,
                "result": "set commitlog readahead mode success, mode: 0",
            }
        ],
    }
    assert doc("exportPopRecord", "-b", addr) == {
        "dryRun": False,
        "brokers": [{"addr": addr, "ok": True}],
    }
    assert doc("resetMasterFlushOffset", "-b", addr, "-o", "5") == {"brokerAddr": addr, "offset": 5}
    d = doc("checkRocksdbCqWriteProgress", "-c", "DefaultCluster5", "-cf", "0")
    assert d["brokers"] == [{"addr": addr, "ok": True, "checkStatus": 2, "checkResult": None}]
    d = doc("rocksDBConfigToJson", "-c", "DefaultCluster5", "-t", "topics")
    assert d == {
        "mode": "rpc",
        "configTypes": ["topics"],
        "brokers": [{"addr": addr, "ok": True}],
    }
    r = c5.mqadmin("addBroker", "-c", addr, "-b", "/x.properties", "--json")
    assert r.code != 0 and json.loads(r.out)["error"]
    r = run(c5.env, "exportMetadataInRocksDB", "-p", str(tmp_path), "-t", "topics", "--json")
    assert r.code == 1 and "RocksDB binding" in json.loads(r.out)["error"]["message"]
