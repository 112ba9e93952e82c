"""The broker checks whose condition needs a live cluster to be real: a broker killed while still
registered, a broker frozen, a broker that refuses to be read (ACL without keys), a slave behind its
master, consume queues lagging behind the commit log.

One cluster for the module: our name server with a master and a slave of ``broker-a``. Our broker
replicates from nobody (``mqadmin.broker.ha``), so a slave stays where it was while its master takes
messages: the gap is real and exact. Our broker dispatches inside the put, so its
``dispatchBehindBytes`` is always 0: the lagging broker is a peer (``tests.doctor.live``) beside ours.
Each case is run healthy too, so the finding is the condition's and nothing else's.
"""

from __future__ import annotations

import os
import secrets
import signal
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from mqadmin.protocol.bodies.kv import KVTable
from mqadmin.protocol.codes import RequestCode
from mqadmin.protocol.command import RemotingCommand
from tests.broker.peers import call
from tests.broker.test_acl import PLAIN_ACL, start_acl_broker
from tests.cli_harness import clean_env, run_mqadmin
from tests.doctor.live import LaggingBroker, VanishingLink, register
from tests.doctor.support import Doctor, findings
from tests.servers import BrokerProcess, Cluster, NameServerProcess

MIB = 1024 * 1024
TIMEOUT = 1.0
"""--timeout of the runs that meet a broker that does not answer."""
SLACK = 4.0
"""What a run may take beyond its request timeout (the interpreter starting, the other reads)."""


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    brokers: dict[str, dict[str, object]] = {"master": {}, "slave": {"brokerRole": "SLAVE", "brokerId": 1}}
    with Cluster(tmp_path_factory.mktemp("live"), brokers) as c:
        yield c


def runtime(addr: str) -> dict[str, str]:
    resp = call(addr, RemotingCommand.request(RequestCode.GET_BROKER_RUNTIME_INFO))
    assert resp.code == 0, resp.remark
    return KVTable.decode(resp.body or b"{}").table or {}


def timed(doctor: Doctor, ns: str, *args: str) -> tuple[float, int, dict[str, object]]:
    started = time.monotonic()
    code, doc = doctor.json(ns, *args)
    return time.monotonic() - started, code, doc


def test_a_killed_broker_still_registered_is_unreachable(
    cluster: Cluster, doctor: Doctor, tmp_path: Path
) -> None:
    ns = cluster.ns_addr
    check = ("--check", "broker-unreachable", "--timeout", str(TIMEOUT))
    link = VanishingLink(ns)
    broker = BrokerProcess(tmp_path / "k", link.addr, brokerName="broker-k")
    try:
        code, doc = doctor.json(ns, *check)
        assert (code, doc["findings"]) == (0, []), doc
        broker.kill()  # SIGKILL: the name server never hears of it
        seconds, code, doc = timed(doctor, ns, *check)
        assert code == 8, doc
        (found,) = findings(doc, "broker-unreachable")
        assert {k: v for k, v in found.items() if k != "evidence"} == {
            "check": "broker-unreachable",
            "severity": "critical",
            "resource": "broker broker-k",
            "summary": f"{broker.addr} (id 0) is listed by the name servers but does not answer",
            "why": "clients keep routing to it until its registration expires; its messages cannot be read",
            "command": f"mqadmin brokerStatus -b {broker.addr}",
        }
        evidence = found["evidence"]
        assert (evidence["addr"], evidence["brokerId"]) == (broker.addr, 0)
        assert "refused" in evidence["error"].lower(), evidence
        assert seconds < TIMEOUT + SLACK, seconds
        r = doctor.run(ns, *check)
        assert r.code == 8, r.err
        assert (
            "CRITICAL  broker-unreachable  broker broker-k\n"
            f"          {broker.addr} (id 0) is listed by the name servers but does not answer\n"
        ) in r.out, r.out
        assert "broker-a" not in r.out  # the master and the slave answer
    finally:
        broker.kill()
        link.close()
    # the link gone, the name server sees the channel close and drops the broker
    code, doc = doctor.json(ns, *check)
    assert (code, doc["findings"]) == (0, []), doc


def test_a_broker_that_refuses_to_be_read_is_not_said_silent(tmp_path: Path, doctor: Doctor) -> None:
    ns = NameServerProcess(tmp_path / "ns")
    try:
        broker = start_acl_broker(tmp_path / "acl", ns.addr, PLAIN_ACL)
        try:
            check = ("--check", "broker-unreachable")
            code, doc = doctor.json(ns.addr, *check)  # no keys: ACL refuses every request
            assert code == 8, doc
            (found,) = findings(doc, "broker-unreachable")
            assert (found["severity"], found["resource"]) == ("critical", "broker broker-a")
            assert found["summary"] == f"{broker.addr} (id 0) answers but refuses to be read (NO_PERMISSION)"
            assert found["why"] == "no check could read this broker, so their silence about it says nothing"
            assert "No accessKey is configured" in found["evidence"]["error"], found
            code, doc = doctor.json(ns.addr, *check, "--access-key", "AdminAK01", "--secret-key", "AdminSK01")
            assert (code, doc["findings"]) == (0, []), doc
        finally:
            broker.stop()
    finally:
        ns.stop()


def test_a_frozen_slave_is_unreachable_within_the_timeout(cluster: Cluster, doctor: Doctor) -> None:
    ns, slave = cluster.ns_addr, cluster.brokers[1]
    check = ("--check", "broker-unreachable", "--check", "slave-behind", "--timeout", str(TIMEOUT))
    assert slave.proc is not None
    os.kill(slave.proc.pid, signal.SIGSTOP)  # its connections stay open: it is still registered
    try:
        seconds, code, doc = timed(doctor, ns, *check)
    finally:
        os.kill(slave.proc.pid, signal.SIGCONT)
    assert code == 8, doc
    (found,) = findings(doc, "broker-unreachable")
    assert (found["severity"], found["resource"]) == ("critical", "broker broker-a")
    assert found["summary"] == f"{slave.addr} (id 1) is listed by the name servers but does not answer"
    assert (found["evidence"]["addr"], found["evidence"]["brokerId"]) == (slave.addr, 1)
    assert found["evidence"]["error"] == (
        f"no response from {slave.addr} to GET_BROKER_RUNTIME_INFO (28) within {TIMEOUT:g} s"
    )
    assert TIMEOUT <= seconds < TIMEOUT + SLACK, seconds
    assert findings(doc, "slave-behind") == []  # a slave that does not answer is not measured
    # running again, it answers: nothing found
    code, doc = doctor.json(ns, *check)
    assert (code, doc["findings"]) == (0, []), doc


def test_a_slave_behind_its_master(cluster: Cluster, doctor: Doctor, tmp_path: Path) -> None:
    ns, master, slave = cluster.ns_addr, cluster.brokers[0], cluster.brokers[1]
    check = ("--check", "slave-behind")
    code, doc = doctor.json(ns, *check, "--set", "slave_bytes=1")
    assert (code, doc["findings"]) == (0, []), doc  # neither has a message: not a byte behind

    env = clean_env(tmp_path / "home", tmp_path / "config")
    r = run_mqadmin(["updateTopic", "-n", ns, "-b", master.addr, "-t", "BehindT"], env)
    assert r.code == 0, r.err
    for _ in range(2):  # random bodies: the producer compresses a body over 4 KiB
        r = run_mqadmin(["sendMessage", "-n", ns, "-t", "BehindT", "-p", secrets.token_hex(40_000)], env)
        assert r.code == 0, r.err
    m, s = (int(runtime(b.addr)["commitLogMaxOffset"]) for b in (master, slave))
    assert s == 0 and m > 80_000, (m, s)  # the slave copied nothing

    code, doc = doctor.json(ns, *check, "--set", f"slave_bytes={m}")
    assert code == 8, doc
    (found,) = findings(doc, "slave-behind")
    assert found == {
        "check": "slave-behind",
        "severity": "warning",
        "resource": "broker broker-a",
        "summary": f"slave 1 ({slave.addr}) is {m / MIB:.1f} MiB behind its master",
        "evidence": {"addr": slave.addr, "brokerId": 1, "behindBytes": m},
        "why": "a master lost now loses what the slave has not copied; sync sends wait or fail",
        "command": f"mqadmin haStatus -b {slave.addr}",
    }
    r = doctor.run(ns, *check, "--set", f"slave_bytes={m}")
    assert r.code == 8, r.err
    assert f"WARNING   slave-behind  broker broker-a\n          slave 1 ({slave.addr}) is " in r.out, r.out
    # a warning: not a failure for --fail-on critical
    code, doc = doctor.json(ns, *check, "--set", f"slave_bytes={m}", "--fail-on", "critical")
    assert code == 0 and len(findings(doc, "slave-behind")) == 1, doc
    # within the threshold by one byte, and at the default (256 MiB): nothing found
    for more in (("--set", f"slave_bytes={m + 1}"), ()):
        code, doc = doctor.json(ns, *check, *more)
        assert (code, doc["findings"]) == (0, []), (more, doc)


def test_consume_queues_lagging_behind_the_commit_log(cluster: Cluster, doctor: Doctor) -> None:
    ns = cluster.ns_addr
    check = ("--check", "dispatch-lag")
    peer = LaggingBroker(runtime(cluster.brokers[0].addr), behind=70 * MIB)
    link = register(cluster.ns, "broker-lag", peer.addr)
    try:
        code, doc = doctor.json(ns, *check)
        assert code == 8, doc
        (found,) = findings(doc, "dispatch-lag")  # our master and slave: 0 bytes behind
        assert found == {
            "check": "dispatch-lag",
            "severity": "warning",
            "resource": "broker broker-lag",
            "summary": "70.0 MiB of commit log not yet in the consume queues",
            "evidence": {"addr": peer.addr, "dispatchBehindBytes": 70 * MIB},
            "why": "consumers do not see messages that were stored: delivery lags behind sends",
            "command": f"mqadmin brokerStatus -b {peer.addr}",
        }
        r = doctor.run(ns, *check)
        assert r.code == 8, r.err
        assert (
            "WARNING   dispatch-lag  broker broker-lag\n"
            "          70.0 MiB of commit log not yet in the consume queues\n"
        ) in r.out, r.out
        code, doc = doctor.json(ns, *check, "--set", f"dispatch_bytes={70 * MIB + 1}")
        assert (code, doc["findings"]) == (0, []), doc
        peer.behind = 63 * MIB  # caught up to below the default threshold (64 MiB)
        code, doc = doctor.json(ns, *check)
        assert (code, doc["findings"]) == (0, []), doc
    finally:
        link.close()
        peer.stop()
