"""The 5.x broker operations on a real broker process behaving as 5.3.3 (``rocketmqVersion=5.3.3``).

Each request is checked for its effect (read back through another request or the files the broker
keeps) and beside it the hostile forms: garbage headers and bodies, names the broker cannot hold,
values out of range; each answered with Java's code and remark and changing nothing. A broker left at
its default (4.9.8) answers none of these codes, as a 4.9.8 broker does, and says 409 in its frames.
"""

from __future__ import annotations

import json
import struct
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from mqadmin.protocol.command import RemotingCommand
from tests.broker.peers import MQADMIN, call, create_topic
from tests.cli.peers import _ThreadServer
from tests.servers import BrokerProcess, NameServerProcess

MODE_FILE = "messageRequestMode.json"


def req(
    addr: str, code: int, ext: dict[str, str] | None = None, body: bytes | None = None
) -> RemotingCommand:
    return call(addr, RemotingCommand.request(code, {} if ext is None else ext, body))


def mode_body(topic: str, group: str, mode: str = "POP", share: int = 2) -> bytes:
    return json.dumps(
        {"consumerGroup": group, "mode": mode, "popShareQueueNum": share, "topic": topic}
    ).encode()


def modes(addr: str) -> dict[str, object]:
    r = req(addr, 402)
    assert r.code == 0, r.remark
    return json.loads(r.body or b"{}")["messageRequestModeMap"]


def config(addr: str) -> dict[str, str]:
    r = req(addr, 26)
    assert r.code == 0
    return dict(line.split("=", 1) for line in (r.body or b"").decode().splitlines() if "=" in line)


@pytest.fixture(scope="module")
def broker5(namesrv: NameServerProcess, tmp_path_factory: pytest.TempPathFactory) -> Iterator[BrokerProcess]:
    b = BrokerProcess(tmp_path_factory.mktemp("broker5"), namesrv.addr, rocketmqVersion="5.3.3")
    try:
        assert create_topic(b.addr, "T5").code == 0
        yield b
    finally:
        b.stop()


@pytest.fixture(scope="module")
def broker4(namesrv: NameServerProcess, tmp_path_factory: pytest.TempPathFactory) -> Iterator[BrokerProcess]:
    b = BrokerProcess(tmp_path_factory.mktemp("broker4"), namesrv.addr, brokerName="broker-c")
    try:
        yield b
    finally:
        b.stop()


# ------------------------------------------------------------------------------------- versions


def test_versions_said(broker5: BrokerProcess, broker4: BrokerProcess) -> None:
    r5, r4 = req(broker5.addr, 28), req(broker4.addr, 28)
    assert (r5.version, r4.version) == (479, 409)
    t5, t4 = json.loads(r5.body or b"")["table"], json.loads(r4.body or b"")["table"]
    assert (t5["brokerVersionDesc"], t5["brokerVersion"]) == ("V5_3_3", "479")
    assert (t4["brokerVersionDesc"], t4["brokerVersion"]) == ("V4_9_8", "409")
    # the 5.3.3 runtime keys (x07_brokerStatus5) and none of them on the 4.9.8 one
    five = {"brokerActive", "getTransferredTps", "timerReadBehind", "ackThreadPoolQueueSize"}
    assert five <= set(t5) and not five & set(t4)
    assert "getTransferedTps" in t4 and "getTransferedTps" not in t5
    # an unknown code is answered with the broker's version too
    assert req(broker5.addr, 60000).version == 479


class AcceptingNameServer(_ThreadServer):
    """Takes every registration (and records it, as every peer of its kind does)."""

    def answer(self, cmd: RemotingCommand) -> RemotingCommand | None:
        return cmd.response(0, None)


@pytest.mark.parametrize(
    ("props", "version", "acting"), [({"rocketmqVersion": "5.3.3"}, 479, "false"), ({}, 409, None)]
)
def test_registration_says_the_version(
    tmp_path: Path, props: dict[str, str], version: int, acting: str | None
) -> None:
    ns = AcceptingNameServer()
    try:
        BrokerProcess(tmp_path / "b", ns.addr, None, **props).stop()  # registers, then unregisters
    finally:
        ns.stop()
    regs = [c for c in ns.requests if c.code == 103]
    unregs = [c for c in ns.requests if c.code == 104]
    assert regs and unregs and {c.version for c in regs + unregs} == {version}
    assert {(c.ext_fields or {}).get("enableActingMaster") for c in regs} == {acting}


def test_4x_broker_does_not_know_5x_codes(broker4: BrokerProcess) -> None:
    for code in (401, 402, 200056, 908, 2004, 354, 355, 902, 903):
        r = req(broker4.addr, code, {"READ_AHEAD_MODE": "1", "masterFlushOffset": "1"})
        assert (r.code, r.remark) == (3, f" request type {code} not supported")


def test_bad_version_refuses_to_start(tmp_path: Path) -> None:
    cfg = tmp_path / "b.properties"
    cfg.write_text(f"rocketmqVersion=6.0.0\nstorePathRootDir={tmp_path / 'store'}\nlistenPort=0\n")
    p = subprocess.run(
        [MQADMIN, "broker", "start", "-c", str(cfg)], capture_output=True, text=True, timeout=30
    )
    assert p.returncode == 1
    assert p.stderr.count("\n") == 1 and "rocketmqVersion='6.0.0'" in p.stderr and "5.3.3" in p.stderr
    assert not (tmp_path / "store").exists()


def test_version_cannot_be_changed_remotely(broker5: BrokerProcess) -> None:
    r = req(broker5.addr, 25, body=b"rocketmqVersion=4.9.8\n")
    assert (r.code, r.remark) == (16, "Can not update config in black list.")
    assert config(broker5.addr)["rocketmqVersion"] == "5.3.3"
    assert req(broker5.addr, 28).version == 479


# ------------------------------------------------------------------------------------- consume modes


def test_consume_mode_set_and_read_back(broker5: BrokerProcess) -> None:
    r = req(broker5.addr, 401, body=mode_body("T5", "G5"))
    assert (r.code, r.remark) == (0, None)
    table = modes(broker5.addr)
    assert table["T5"] == {"G5": {"consumerGroup": "G5", "mode": "POP", "popShareQueueNum": 2, "topic": "T5"}}
    # kept as Java keeps it, in the store's config directory
    kept = json.loads((broker5.workdir / "store" / "config" / MODE_FILE).read_text())
    assert kept["messageRequestModeMap"]["T5"]["G5"]["mode"] == "POP"
    # back to PULL
    assert req(broker5.addr, 401, body=mode_body("T5", "G5", "PULL", 0)).code == 0
    assert modes(broker5.addr)["T5"]["G5"]["mode"] == "PULL"  # type: ignore[index]


@pytest.mark.parametrize(
    ("body", "code", "remark"),
    [
        (mode_body("%RETRY%G5", "G5"), 16, "retry topic is not allowed to set mode"),
        (mode_body("NoSuchTopic", "G5"), 17, "topic[NoSuchTopic] not exist"),
        (mode_body("T5", "bad group!"), 26, "subscription group does not exist"),
        (mode_body("T5", "G" * 300), 26, "subscription group does not exist"),
        (mode_body("T5", "G5", "pop"), 1, None),
        (mode_body("T5", "G5", "POP", 1 << 40), 1, None),
        (b"not json", 1, None),
        (b"[1,2]", 1, None),
        (b"", 1, None),
        (json.dumps({"mode": "POP", "topic": "T5"}).encode(), 1, None),
        (b'{"topic":"T5","consumerGroup":"G\\u0000x","mode":"POP"}', 1, None),
    ],
)
def test_consume_mode_refusals_change_nothing(
    broker5: BrokerProcess, body: bytes, code: int, remark: str | None
) -> None:
    before = modes(broker5.addr)
    groups_before = (broker5.workdir / "store" / "config" / "subscriptionGroup.json").read_text()
    r = req(broker5.addr, 401, body=body)
    assert r.code == code
    if remark is not None:
        assert r.remark == remark
    else:
        assert r.remark and "\n" not in r.remark
    assert modes(broker5.addr) == before
    assert (broker5.workdir / "store" / "config" / "subscriptionGroup.json").read_text() == groups_before


# --------------------------------------------------------------------------- pop records, flush offset


def test_pop_record_export(broker5: BrokerProcess) -> None:
    max_before = json.loads(req(broker5.addr, 28).body or b"")["table"]["commitLogMaxOffset"]
    r = req(broker5.addr, 200056)
    assert (r.code, r.remark) == (0, "not set any response code")  # x03_exportPopRecord's answer
    # no KV pop store (popConsumerKVServiceInit is off, as by default): nothing to move
    assert json.loads(req(broker5.addr, 28).body or b"")["table"]["commitLogMaxOffset"] == max_before


def test_master_flush_offset_ignored_by_a_master(broker5: BrokerProcess) -> None:
    for ext in ({"masterFlushOffset": "123"}, {"masterFlushOffset": "not a number"}, {}):
        r = req(broker5.addr, 908, ext)
        assert (r.code, r.remark) == (0, None)


def test_master_flush_offset_kept_by_a_slave(namesrv: NameServerProcess, tmp_path: Path) -> None:
    slave = BrokerProcess(
        tmp_path / "slave", namesrv.addr, rocketmqVersion="5.3.3", brokerName="broker-s", brokerRole="SLAVE",
        brokerId=1,
    )  # fmt: skip
    try:
        for bad in ({"masterFlushOffset": "12x"}, {}, {"masterFlushOffset": "99999999999999999999"}):
            r = req(slave.addr, 908, bad)
            assert r.code == 1 and r.remark and "\n" not in r.remark
        assert req(slave.addr, 908, {"masterFlushOffset": "4096"}).code == 0
        data = (slave.workdir / "store" / "checkpoint").read_bytes()
        assert struct.unpack_from(">q", data, 24) == (4096,)
    finally:
        slave.stop()
    data = (slave.workdir / "store" / "checkpoint").read_bytes()
    assert struct.unpack_from(">q", data, 24) == (4096,)  # still there after the shutdown's flush


# ------------------------------------------------------------------------------------- read ahead


def test_read_ahead_mode_shown_in_config(broker5: BrokerProcess) -> None:
    assert config(broker5.addr)["dataReadAheadEnable"] == "true"
    r = req(broker5.addr, 2004, {"READ_AHEAD_MODE": "1"})
    assert (r.code, r.remark) == (0, "set commitlog readahead mode success, mode: 1")
    assert config(broker5.addr)["dataReadAheadEnable"] == "false"
    r = req(broker5.addr, 2004, {"READ_AHEAD_MODE": "0"})
    assert (r.code, r.remark) == (0, "set commitlog readahead mode success, mode: 0")
    assert config(broker5.addr)["dataReadAheadEnable"] == "true"


@pytest.mark.parametrize(
    ("ext", "code", "remark"),
    [
        ({"READ_AHEAD_MODE": "2"}, 29, "set commitlog readahead mode param value error"),
        ({"READ_AHEAD_MODE": "-1"}, 29, "set commitlog readahead mode param value error"),
        ({"READ_AHEAD_MODE": "one"}, 1, "set commitlog readahead mode failed"),
        ({"READ_AHEAD_MODE": "99999999999"}, 1, "set commitlog readahead mode failed"),
        ({"other": "1"}, 1, "set commitlog readahead mode failed"),
    ],
)
def test_read_ahead_refusals(broker5: BrokerProcess, ext: dict[str, str], code: int, remark: str) -> None:
    before = config(broker5.addr)["dataReadAheadEnable"]
    r = req(broker5.addr, 2004, ext)
    assert (r.code, r.remark) == (code, remark)
    assert config(broker5.addr)["dataReadAheadEnable"] == before


def test_read_ahead_without_ext_fields(broker5: BrokerProcess) -> None:
    r = call(broker5.addr, RemotingCommand.request(2004, None))
    assert (r.code, r.remark) == (1, "set commitlog readahead mode param error")


# ------------------------------------------------------------------------------------- RocksDB, container


def test_rocksdb_probes_on_a_file_store(broker5: BrokerProcess) -> None:
    for topic in ("", "T5"):
        r = req(broker5.addr, 354, {"topic": topic, "checkStoreTime": "0"})
        assert (r.code, json.loads(r.body or b"")) == (0, {"checkStatus": 2})
    r = req(broker5.addr, 355, {"configType": "topics;subscriptionGroups;consumerOffsets;"})
    assert (r.code, r.remark) == (0, "export done.")
    assert not list((broker5.workdir / "store").rglob("*.json.tmp"))


@pytest.mark.parametrize(
    ("code", "ext"),
    [
        (355, {"configType": "tables"}),
        (355, {}),
        (354, {"topic": "bad/topic", "checkStoreTime": "0"}),
        (354, {"checkStoreTime": "0"}),
        (354, {"topic": "T5", "checkStoreTime": "soon"}),
    ],
)
def test_rocksdb_probe_refusals(broker5: BrokerProcess, code: int, ext: dict[str, str]) -> None:
    r = req(broker5.addr, code, ext)
    assert r.code == 1 and r.remark and "\n" not in r.remark


def test_container_codes_unknown(broker5: BrokerProcess) -> None:
    assert req(broker5.addr, 902, {"configPath": "/etc/passwd"}).code == 3
    r = req(
        broker5.addr, 903, {"brokerName": "broker-a", "brokerClusterName": "DefaultCluster", "brokerId": "0"}
    )
    assert (r.code, r.remark) == (3, " request type 903 not supported")
