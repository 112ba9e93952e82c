"""The checks of a cluster's shape on our servers: a topic whose queues differ across its cluster's
brokers (fixed by the command the finding names), an order config naming a broker that is gone, more
clients than queues (info: exit 0 unless --fail-on info), a disk over the thresholds set."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

from tests.admin_group_offset.servers import HeartbeatClient
from tests.cli_harness import run_mqadmin
from tests.doctor.support import Doctor, findings
from tests.servers import Cluster


def test_queues_differ_and_an_order_config_names_a_gone_broker(
    tmp_path: Path, doctor: Doctor, env: dict[str, str]
) -> None:
    brokers = {n: {"brokerName": f"broker-{n}"} for n in "abc"}
    with Cluster(tmp_path, brokers) as c:
        ns, (a, b, third) = c.ns_addr, c.brokers

        def mqadmin(*args: str) -> None:
            r = run_mqadmin([args[0], "-n", ns, *args[1:]], env)
            assert r.code == 0, (args, r.err)

        mqadmin("updateTopic", "-b", a.addr, "-t", "SkewT", "-r", "4", "-w", "4")
        for broker in (b, third):
            mqadmin("updateTopic", "-b", broker.addr, "-t", "SkewT", "-r", "8", "-w", "8")
        for broker in (a, b):  # not on broker-c
            mqadmin("updateTopic", "-b", broker.addr, "-t", "PartT")
        mqadmin("updateOrderConf", "-t", "SkewT", "-v", "broker-a:4;broker-gone:4", "-m", "put")
        checks = ("--check", "topic-queues-differ", "--check", "order-conf-gone-broker")
        code, doc = doctor.json(ns, *checks)
        assert code == 8, doc
        by = {(f["resource"], f["severity"]): f for f in findings(doc, "topic-queues-differ")}
        skew = by[("topic SkewT", "warning")]
        assert skew["evidence"] == {"broker-a": "r4 w4 RW", "broker-b": "r8 w8 RW", "broker-c": "r8 w8 RW"}
        assert skew["command"] == "mqadmin updateTopic -c DefaultCluster -t SkewT -r 8 -w 8 -p 6"
        part = by[("topic PartT", "info")]
        assert part["evidence"] == {"on": ["broker-a", "broker-b"], "absent": ["broker-c"]}
        (order,) = findings(doc, "order-conf-gone-broker")
        assert order["evidence"] == {"orderConf": "broker-a:4;broker-gone:4", "gone": ["broker-gone"]}
        assert order["command"] == "mqadmin updateOrderConf -t SkewT -v broker-a:4 -m put"
        for fix in (skew["command"], order["command"]):  # the commands named fix what they say
            mqadmin(*shlex.split(fix)[1:])
        code, doc = doctor.json(ns, *checks)
        assert code == 0, doc  # PartT's finding is only info
        assert [(f["resource"], f["severity"]) for f in doc["findings"]] == [("topic PartT", "info")]


def test_more_clients_than_queues_is_info(tmp_path: Path, doctor: Doctor, env: dict[str, str]) -> None:
    with Cluster(tmp_path) as c:
        r = run_mqadmin(
            ["updateTopic", "-n", c.ns_addr, "-b", c.broker_addr, "-t", "NarrowT", "-r", "1", "-w", "1"], env
        )
        assert r.code == 0, r.err
        clients = [
            HeartbeatClient(c.broker_addr, f"crowd-{i}", consumer_groups=(("CrowdG", "NarrowT"),))
            for i in range(3)
        ]
        try:
            code, doc = doctor.json(c.ns_addr, "--check", "more-consumers-than-queues")
            assert code == 0, doc  # info does not fail by default
            (crowd,) = findings(doc, "more-consumers-than-queues")
            assert crowd["resource"] == "group CrowdG"
            assert crowd["evidence"] == {"topic": "NarrowT", "clients": 3, "queues": 1}
            code, _ = doctor.json(c.ns_addr, "--check", "more-consumers-than-queues", "--fail-on", "info")
            assert code == 8
        finally:
            for client in clients:
                client.close()


def test_disk_over_the_thresholds_set(tmp_path: Path, doctor: Doctor) -> None:
    with Cluster(tmp_path) as c:
        status = doctor.json(c.ns_addr, "--check", "disk-near-reclaim")
        assert status[0] == 0, status[1]
        ratio = float(run_status(c, env=doctor.env))
        code, doc = doctor.json(
            c.ns_addr, "--check", "disk-near-reclaim", "--set", f"disk_margin={0.75 - ratio / 2:.3f}"
        )
        assert code == 8, doc
        (near,) = findings(doc, "disk-near-reclaim")
        assert near["severity"] == "warning" and near["evidence"]["reclaimRatio"] == 0.75
        code, doc = doctor.json(
            c.ns_addr, "--check", "disk-near-reclaim", "--set", f"disk_critical={ratio / 2:.3f}"
        )
        (full,) = findings(doc, "disk-near-reclaim")
        assert code == 8 and full["severity"] == "critical", doc
        assert full["command"] == f"mqadmin brokerStatus -b {c.broker_addr}"


def run_status(c: Cluster, env: dict[str, str]) -> str:
    """The broker's commitLogDiskRatio, as brokerStatus prints it."""
    r = run_mqadmin(["brokerStatus", "-n", c.ns_addr, "-b", c.broker_addr], env)
    (line,) = [x for x in r.out.splitlines() if x.startswith("commitLogDiskRatio ")]
    return line.split(":", 1)[1].strip()


def test_a_contexts_thresholds_apply_to_its_own_cluster(tmp_path: Path, doctor: Doctor) -> None:
    """``context add --doctor-set`` keeps thresholds for that cluster: they apply when the context's
    name servers are used, ``--set`` still wins, and an address given by ``-n`` does not take them."""
    env = {**doctor.env, "MQADMIN_CONFIG_DIR": str(tmp_path / "config")}
    with Cluster(tmp_path) as c:
        ratio = float(run_status(c, env=env))
        r = run_mqadmin(
            ["context", "add", "prod", "-n", c.ns_addr, "--doctor-set", f"disk_critical={ratio / 2:.3f}"], env
        )
        assert r.code == 0, r.err
        check = ["doctor", "--check", "disk-near-reclaim", "--set", "lag_window=1", "--json"]
        r = run_mqadmin(check, env)
        (full,) = findings(json.loads(r.out), "disk-near-reclaim")
        assert r.code == 8 and full["severity"] == "critical", r.out
        r = run_mqadmin([*check, "--set", "disk_critical=1", "--set", "disk_margin=0"], env)
        assert r.code == 0 and findings(json.loads(r.out), "disk-near-reclaim") == [], r.out
        r = run_mqadmin([*check, "-n", c.ns_addr], env)
        assert r.code == 0 and findings(json.loads(r.out), "disk-near-reclaim") == [], r.out

    r = run_mqadmin(["context", "add", "bad", "-n", "127.0.0.1:1", "--doctor-set", "lag_window=soon"], env)
    assert r.code != 0 and "--doctor-set 'lag_window=soon'" in r.err, r.err
    saved = json.loads((tmp_path / "config" / "contexts.json").read_text())
    assert "bad" not in saved["contexts"]
    saved["contexts"]["prod"]["doctor"] = {"lag_window": "soon"}
    (tmp_path / "config" / "contexts.json").write_text(json.dumps(saved))
    r = run_mqadmin(["doctor"], env)
    assert r.code == 2 and r.err.strip().splitlines() == [
        "mqadmin doctor: context prod: doctor 'lag_window=soon': lag_window takes a number"
    ], r.err
