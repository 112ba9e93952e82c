"""Controller and HA commands against real processes: our name server with its embedded controller
and our broker in controller mode (``tests/servers.py``), and a plain broker for the
recorded Java runs of ``haStatus`` (x01) and ``getBrokerEpoch`` (x05)."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.cli_harness import Result, recorded_text, with_namesrv
from tests.servers import Cluster, ControllerNameServer, controller_broker

CLUSTER, NAME = "DefaultCluster", "broker-a"
Run = Callable[..., Result]


def _until(run: Callable[[], Result], ok: Callable[[Result], bool], timeout: float = 6.0) -> Result:
    """``run()`` until ``ok``; 6 s is less than a replica's heartbeat timeout (10 s), so a broker that
    stops must be seen gone by its connection closing, also through a name server worker."""
    deadline = time.monotonic() + timeout
    while True:
        r = run()
        if ok(r) or time.monotonic() > deadline:
            return r
        time.sleep(0.2)


def _sync(mqadmin: Run, ns: ControllerNameServer) -> Result:
    return mqadmin("getSyncStateSet", "-a", ns.addr, "-b", NAME)


def _epochs(text: str) -> list[tuple[int, int, int]]:
    found = re.findall(r"#Epoch: EpochEntry\{epoch=(\d+), startOffset=(\d+), endOffset=(\d+)\}", text)
    return [(int(a), int(b), int(c)) for a, b, c in found]


@pytest.fixture
def ctl(tmp_path: Path) -> Iterator[ControllerNameServer]:
    ns = ControllerNameServer(tmp_path / "namesrv")
    try:
        yield ns
    finally:
        ns.stop()


def test_election_epochs_restart_and_clean(mqadmin: Run, ctl: ControllerNameServer, tmp_path: Path) -> None:
    broker = controller_broker(tmp_path / "broker", ctl)
    try:
        r = mqadmin("getControllerMetaData", "-a", ctl.addr)
        assert r.code == 0, r.err
        assert r.out == (
            f"\n#ControllerGroup\tnull\n#ControllerLeaderId\tn0\n#ControllerLeaderAddress\t{ctl.addr}"
            f"\n#Peer:\tn0:{ctl.addr}\n"
        )
        # the broker elected itself, the only replica, when it started
        r = _sync(mqadmin, ctl)
        assert r.code == 0, r.err
        assert r.out == (
            f"\n#brokerName\t{NAME}\n#MasterBrokerId\t1\n#MasterAddr\t{broker.addr}\n#MasterEpoch\t1\n"
            "#SyncStateSetEpoch\t1\n#SyncStateSetNums\t1\n"
            f"\nInSyncReplica:\tReplicaIdentity{{brokerName='{NAME}', brokerId=1, "
            f"brokerAddress='{broker.addr}', alive=true}}\n"
        )
        assert mqadmin("getSyncStateSet", "-a", ctl.addr, "-c", CLUSTER, "-n", ctl.addr).out == r.out
        js = json.loads(mqadmin("getSyncStateSet", "-a", ctl.addr, "-b", NAME, "--json").out)
        assert js["replicasInfoTable"][NAME]["masterBrokerId"] == 1

        r = mqadmin("getBrokerEpoch", "-b", NAME, "-n", ctl.addr)
        assert r.code == 0, r.err
        assert r.out.startswith(
            f"\n#clusterName\t{CLUSTER}\n#brokerName\t{NAME}\n#brokerAddr\t{broker.addr}\n"
        )
        assert _epochs(r.out) == [(1, 0, 0)]

        # messages under epoch 1 move the commit log on
        assert mqadmin("updateTopic", "-n", ctl.addr, "-b", broker.addr, "-t", "Orders").code == 0
        assert mqadmin("sendMessage", "-n", ctl.addr, "-t", "Orders", "-p", "hello").code == 0
        written = _epochs(mqadmin("getBrokerEpoch", "-c", CLUSTER, "-n", ctl.addr).out)[0][2]
        assert written > 0

        # the master asked for is the master there is; an id nobody has; an id that is no number
        r = mqadmin("electMaster", "-a", ctl.addr, "-b", "1", "-bn", NAME, "-c", CLUSTER)
        assert r.code == 3 and r.out == "" and "2011" in r.err and len(r.err.splitlines()) == 1, r.err
        r = mqadmin("electMaster", "-a", ctl.addr, "-b", "7", "-bn", NAME, "-c", CLUSTER)
        assert r.code == 3 and "Failed to elect a new master" in r.err, r.err
        r = mqadmin("electMaster", "-a", ctl.addr, "-b", "one", "-bn", NAME, "-c", CLUSTER)
        assert r.code == 2 and len(r.err.splitlines()) == 1, r.err

        # Java's refusal while the broker is alive; nothing is forgotten
        r = mqadmin("cleanBrokerMetadata", "-a", ctl.addr, "-bn", NAME, "-c", CLUSTER)
        assert r.code == 3 and "Broker broker-a is still alive, clean up failure" in r.err, r.err
        assert json.loads(ctl.replicas_file.read_text())["brokerSets"][0]["masterBrokerId"] == 1

        # the broker stops: the set has no master and its master epoch moves on
        broker.stop()
        r = _until(lambda: _sync(mqadmin, ctl), lambda r: "#MasterBrokerId\tnull" in r.out)
        assert "#MasterEpoch\t2\n" in r.out and "alive=false" in r.out, r.out

        # both restart: the table comes back from disk, the broker keeps its id and its epochs
        ctl.stop()
        ctl.start()
        r = _sync(mqadmin, ctl)
        assert "#MasterBrokerId\tnull" in r.out and "#MasterEpoch\t2\n" in r.out, r.out
        broker.start()
        r = _until(lambda: _sync(mqadmin, ctl), lambda r: "#MasterBrokerId\t1\n" in r.out)
        assert "#MasterEpoch\t3\n" in r.out and "brokerId=1," in r.out, r.out
        assert _epochs(mqadmin("getBrokerEpoch", "-b", NAME, "-n", ctl.addr).out) == [
            (1, 0, written),
            (3, written, written),
        ]

        # stopped again, its metadata can be cleaned, for good
        broker.stop()
        _until(lambda: _sync(mqadmin, ctl), lambda r: "#MasterBrokerId\tnull" in r.out)
        r = mqadmin("cleanBrokerMetadata", "-a", ctl.addr, "-bn", NAME, "-c", CLUSTER)
        assert (r.code, r.out) == (0, f"clear broker {NAME} metadata from controller success! \n"), r.err
        r = _sync(mqadmin, ctl)
        assert (r.code, r.out) == (7, "") and len(r.err.splitlines()) == 1, r.err
        assert json.loads(ctl.replicas_file.read_text())["brokerSets"] == []
    finally:
        if broker.alive:
            broker.stop()


def test_controller_config_round_trip(mqadmin: Run, ctl: ControllerNameServer) -> None:
    r = mqadmin("getControllerConfig", "-a", ctl.addr)
    assert r.code == 0, r.err
    assert r.out.startswith(f"============{ctl.addr}============\n")
    assert f"{'controllerType':<50s}=  DLedger\n" in r.out
    assert f"{'electMasterMaxRetryCount':<50s}=  3\n" in r.out
    before = r.out

    r = mqadmin("updateControllerConfig", "-a", ctl.addr, "-k", "electMasterMaxRetryCount", "-v", "5")
    assert (r.code, r.out) == (
        0,
        f"update controller config success![{ctl.addr}]\nelectMasterMaxRetryCount : 5\n",
    )
    after = mqadmin("getControllerConfig", "-a", ctl.addr).out
    assert after == before.replace(
        f"{'electMasterMaxRetryCount':<50s}=  3\n", f"{'electMasterMaxRetryCount':<50s}=  5\n"
    )
    js = json.loads(mqadmin("getControllerConfig", "-a", ctl.addr, "--json").out)
    assert js[ctl.addr]["electMasterMaxRetryCount"] == "5"

    # refused by the controller (black list, a path, a value of the wrong type) or before sending
    for key, value, code, words in [
        ("configStorePath", "/tmp/elsewhere", 3, "NO_PERMISSION"),
        ("controllerStorePath", "/tmp/elsewhere", 3, "black list"),
        ("scanNotActiveBrokerInterval", "soon", 3, "scanNotActiveBrokerInterval takes"),
        ("metricsLabel", "a\u0007b", 2, "control"),
    ]:
        r = mqadmin("updateControllerConfig", "-a", ctl.addr, "-k", key, "-v", value)
        assert r.code == code and r.out == "" and len(r.err.splitlines()) == 1, (key, r.err)
        assert words.lower() in r.err.lower(), r.err
    assert mqadmin("getControllerConfig", "-a", ctl.addr).out == after


def test_hostile_command_lines(mqadmin: Run, ctl: ControllerNameServer) -> None:
    cases: list[tuple[list[str], int]] = [
        (["getSyncStateSet", "-a", ctl.addr, "-b", "nobody"], 7),  # no such broker set
        (["getSyncStateSet", "-a", ctl.addr, "-c", "NoCluster", "-n", ctl.addr], 7),  # no such cluster
        (["getSyncStateSet", "-a", ctl.addr], 2),  # neither -b nor -c
        (["getControllerMetaData", "-a", "nohost"], 2),  # not host:port
        (["getControllerMetaData", "-a", "127.0.0.1:1"], 4),  # nobody listens
        (["getControllerConfig", "-a", "127.0.0.1:99999"], 2),
        (["electMaster", "-a", ctl.addr, "-b", "1", "-bn", "nobody", "-c", CLUSTER], 3),
        (["electMaster", "-a", ctl.addr, "-b", "1", "-bn", "a/b", "-c", CLUSTER], 2),
        (["cleanBrokerMetadata", "-a", ctl.addr, "-bn", NAME, "-c", CLUSTER, "-b", "1;x"], 2),
        (["cleanBrokerMetadata", "-a", ctl.addr, "-bn", NAME], 2),  # Java: -c needed without -l
        (["cleanBrokerMetadata", "-a", ctl.addr, "-bn", "nobody", "-c", CLUSTER], 3),
        (["getBrokerEpoch", "-n", ctl.addr, "-b", "nobody"], 7),
        (["haStatus", "-n", ctl.addr], 2),
    ]
    for args, code in cases:
        r = mqadmin(*args)
        assert (r.code, r.out) == (code, ""), (args, r.code, r.out, r.err)
        assert len(r.err.splitlines()) == 1, (args, r.err)
    assert not ctl.replicas_file.exists()  # nothing was stored


# ------------------------------------------------------------------------------------- recorded runs


@pytest.fixture(scope="module")
def plain(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    cluster = Cluster(tmp_path_factory.mktemp("plain"))
    try:
        yield cluster
    finally:
        cluster.stop()


def test_ha_status_as_recorded(mqadmin: Run, plain: Cluster) -> None:
    """x01: a 5.3.3 master without slaves; ours says the same of itself (address and offset masked)."""
    args, java = recorded_text("rocketmq-5.3.3/x01_haStatus")
    args = with_namesrv(args, plain.ns.addr)
    args[args.index("-b") + 1] = plain.broker.addr
    r = mqadmin(*args)
    assert r.code == 0, r.err

    def mask(text: str) -> str:
        text = re.sub(r"(#MasterAddr\t)\S+", r"\1ADDR", text)
        return re.sub(r"(#MasterCommitLogMaxOffset\t)\d+", r"\1N", text)

    assert mask(r.out) == mask(java)
    by_cluster = mqadmin("haStatus", "-n", plain.ns.addr, "-c", "DefaultCluster")
    assert by_cluster.out == r.out


def test_broker_epoch_as_recorded(mqadmin: Run, plain: Cluster) -> None:
    """x05: ``-b`` takes a broker name; given an address Java prints nothing. Ours prints nothing
    either, and says why on stderr with exit 7."""
    args, java = recorded_text("rocketmq-5.3.3/x05_getBrokerEpoch")
    args = with_namesrv(args, plain.ns.addr)
    args[args.index("-b") + 1] = plain.broker.addr
    r = mqadmin(*args)
    assert r.out == java == ""
    assert r.code == 7 and len(r.err.splitlines()) == 1, r.err
    # a broker outside controller mode answers 1007 as 5.3.3 does
    r = mqadmin("getBrokerEpoch", "-n", plain.ns.addr, "-b", "broker-a")
    assert r.code == 3 and "this request only for controllerMode" in r.err, r.err


def test_ha_status_of_a_slave(mqadmin: Run, plain: Cluster, tmp_path: Path) -> None:
    """A broker set up as SLAVE says it is one, with no master connected (Java's slave block)."""
    from tests.servers import BrokerProcess

    slave = BrokerProcess(tmp_path / "slave", plain.ns.addr, None, brokerRole="SLAVE", brokerId=1)
    try:
        r = mqadmin("haStatus", "-n", plain.ns.addr, "-b", slave.addr, env={"TZ": "UTC"})
        assert r.code == 0, r.err
        assert r.out == (
            "\n#MasterAddr\tnull\n#CommitLogMaxOffset\t0\n#TransferSpeed(KB/s)\t0.00\n"
            "#LastReadTime\t1970-01-01 00:00:00,000\n#LastWriteTime\t1970-01-01 00:00:00,000\n"
            "#MasterFlushOffset\t0\n"
        )
    finally:
        slave.stop()


def test_a_name_server_without_controller_says_so(mqadmin: Run, plain: Cluster) -> None:
    """Controller codes to a name server that does not embed one: Java's REQUEST_CODE_NOT_SUPPORTED."""
    for args in (
        ["getControllerMetaData", "-a", plain.ns.addr],
        ["getControllerConfig", "-a", plain.ns.addr],
        ["getSyncStateSet", "-a", plain.ns.addr, "-b", "broker-a"],
    ):
        r = mqadmin(*args)
        assert (r.code, r.out) == (3, ""), (args, r.err)
        assert "REQUEST_CODE_NOT_SUPPORTED" in r.err and len(r.err.splitlines()) == 1, r.err


def test_ha_status_of_the_recorded_broker_byte_exact(mqadmin: Run, plain: Cluster) -> None:
    """x01 again, against the recorded 5.3.3 broker's own answer (replayed): the same text, byte for
    byte, once its address is the recorded one."""
    from tests.cli.peers import RecordedBroker

    args, java = recorded_text("rocketmq-5.3.3/x01_haStatus")
    broker = RecordedBroker(["rocketmq-5.3.3/x01_haStatus"], broker_port=10921)
    try:
        args = with_namesrv(args, plain.ns.addr)
        args[args.index("-b") + 1] = broker.addr
        r = mqadmin(*args)
        assert r.code == 0, r.err
        assert r.out.replace(broker.addr, "127.0.0.1:10921") == java
    finally:
        broker.stop()
