"""The name-server checks on our servers: two name servers with a broker registered to one only, and a
broker whose write permission was wiped (then given back with the command the finding names)."""

from __future__ import annotations

import shlex
from pathlib import Path

from tests.cli_harness import run_mqadmin
from tests.doctor.support import Doctor, findings
from tests.servers import BrokerProcess, Cluster, NameServerProcess


def test_a_broker_registered_with_one_of_two_name_servers(tmp_path: Path, doctor: Doctor) -> None:
    ns1 = NameServerProcess(tmp_path / "ns1")
    ns2 = NameServerProcess(tmp_path / "ns2")
    both = f"{ns1.addr};{ns2.addr}"
    brokers: list[BrokerProcess] = []
    try:
        brokers.append(BrokerProcess(tmp_path / "a", both, brokerName="broker-a"))
        brokers.append(BrokerProcess(tmp_path / "b", ns1.addr, brokerName="broker-b"))
        b = brokers[1]
        code, doc = doctor.json(both, "--check", "namesrv-disagree")
        assert code == 8, doc
        (missing,) = [f for f in findings(doc, "namesrv-disagree") if f["resource"] == "broker broker-b"]
        assert missing["severity"] == "critical"
        assert missing["evidence"] == {
            "addr": b.addr,
            "registeredWith": [ns1.addr],
            "missingFrom": [ns2.addr],
        }
        assert missing["command"] == f"mqadmin getBrokerConfig -b {b.addr}"
        assert "1 of 2 name servers" in missing["summary"]
        # the topics only broker-b holds have no route on ns2
        routes = {
            f["resource"]: f for f in findings(doc, "namesrv-disagree") if f["resource"].startswith("topic ")
        }
        assert routes["topic broker-b"]["evidence"]["missingFrom"] == [ns2.addr]
        assert routes["topic broker-b"]["command"] == f"mqadmin topicRoute -t broker-b -n {ns2.addr}"
        assert "topic broker-a" not in routes  # broker-a is on both: its topic routes agree
        # each name server alone agrees with itself
        for ns in (ns1.addr, ns2.addr):
            code, doc = doctor.json(ns, "--check", "namesrv-disagree")
            assert (code, doc["findings"]) == (0, []), doc
        # the text names the broker, the evidence and the command
        r = doctor.run(both, "--check", "namesrv-disagree")
        assert r.code == 8
        assert "CRITICAL  namesrv-disagree  broker broker-b" in r.out
        assert f"missingFrom={ns2.addr}" in r.out and f"run: mqadmin getBrokerConfig -b {b.addr}" in r.out
    finally:
        for broker in brokers:
            broker.stop()
        ns1.stop()
        ns2.stop()


def test_write_perm_wiped_then_added_back(tmp_path: Path, doctor: Doctor, env: dict[str, str]) -> None:
    with Cluster(tmp_path) as c:
        ns = c.ns_addr
        assert run_mqadmin(["updateTopic", "-n", ns, "-c", "DefaultCluster", "-t", "WipeT"], env).code == 0
        code, doc = doctor.json(ns, "--check", "write-perm-wiped")
        assert (code, doc["findings"]) == (0, []), doc
        r = run_mqadmin(["wipeWritePerm", "-n", ns, "-b", "broker-a"], env)
        assert r.code == 0, r.err
        code, doc = doctor.json(ns, "--check", "write-perm-wiped")
        assert code == 8, doc
        (wiped,) = findings(doc, "write-perm-wiped")
        assert wiped["severity"] == "critical" and wiped["resource"] == "broker broker-a"
        assert wiped["evidence"]["nameServer"] == ns and wiped["evidence"]["readOnlyTopics"] >= 1
        assert wiped["command"] == f"mqadmin addWritePerm -b broker-a -n {ns}"
        r = run_mqadmin(shlex.split(wiped["command"])[1:], env)  # the command it names fixes it
        assert r.code == 0, r.err
        code, doc = doctor.json(ns, "--check", "write-perm-wiped")
        assert (code, doc["findings"]) == (0, []), doc
