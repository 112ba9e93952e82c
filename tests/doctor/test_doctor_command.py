"""``mqadmin doctor`` as a command: a healthy cluster reports nothing (exit 0), checks that cannot run
say so and never pass for healthy, bad options are usage errors, --watch gives a document a round."""

from __future__ import annotations

import json
import signal
import subprocess
from pathlib import Path

import jsonschema

from mqadmin.cli import schemas
from mqadmin.doctor.catalog import CHECKS
from mqadmin.localcluster import free_port
from tests.admin_group_offset.servers import Cluster
from tests.cli_harness import MQADMIN, interruptible, run_mqadmin
from tests.doctor.support import Doctor


def validate(doc: dict[str, object]) -> None:
    jsonschema.validate(doc, schemas.published("doctor"))


def test_a_healthy_cluster_reports_nothing(tmp_path: Path, doctor: Doctor) -> None:
    c = Cluster(tmp_path / "cluster")
    with c:
        c.create_topic("HealthyT", queues=2)
        c.produce("HealthyT", 4)
        c.consume("HealthyT", "HealthyG", 4)  # consumed to the end, offsets committed
        code, doc = doctor.json(c.namesrv)
        assert code == 0, doc
        validate(doc)
        assert doc["healthy"] is True and doc["findings"] == []
        assert [x["check"] for x in doc["checks"]] == list(CHECKS)
        assert {x["status"] for x in doc["checks"]} == {"ok"}
        r = doctor.run(c.namesrv)
        assert r.code == 0 and r.out.startswith(
            f"doctor: healthy: no findings from {len(CHECKS)} checks in "
        ), r.out
        assert r.err == ""


def test_checks_that_cannot_run_are_never_healthy(doctor: Doctor) -> None:
    dead = f"127.0.0.1:{free_port()}"
    code, doc = doctor.json(dead)
    validate(doc)
    assert code == 8 and doc["healthy"] is False  # the name server that does not answer is a finding
    (finding,) = doc["findings"]
    assert finding["resource"] == f"name server {dead}" and finding["severity"] == "critical"
    statuses = {x["check"]: x["status"] for x in doc["checks"]}
    assert statuses.pop("namesrv-disagree") == "found"
    assert set(statuses.values()) == {"failed"}
    # without that check, nothing ran: exit 4 (unreachable), each check named on stderr
    r = doctor.run(dead, "--check", "broker-unreachable", "--check", "dlq-messages")
    assert r.code == 4, r.err
    assert "NOT RUN   broker-unreachable: " in r.out and "NOT RUN   dlq-messages: " in r.out
    assert r.out.startswith("doctor: no findings from 0 checks in ") and "2 could not run" in r.out
    assert len(r.err.strip().splitlines()) == 2 and dead in r.err


def test_a_check_past_the_deadline_is_a_timeout(tmp_path: Path, doctor: Doctor) -> None:
    c = Cluster(tmp_path / "cluster")
    with c:
        checks = ["--check", "lag-growing", "--check", "broker-unreachable"]
        r = doctor.run(c.namesrv, *checks, "--deadline", "1", window=30)
        assert r.code == 6, (r.out, r.err)  # one ran, one did not
        assert "NOT RUN   lag-growing: not finished within the deadline of 1 s" in r.out
        assert "lag-growing" in r.err


def test_bad_options_are_usage_errors(env: dict[str, str]) -> None:
    for args, words in (
        (["--set", "nope=1"], "nope"),
        (["--set", "lag_window=soon"], "lag_window takes a number"),
        (["--set", "lag_growth=-1"], "cannot be -1"),
        (["--check", "no-such-check"], "no-such-check"),
        (["--fail-on", "fatal"], "fatal"),
    ):
        r = run_mqadmin(["doctor", "-n", "127.0.0.1:1", *args], env)
        assert r.code == 2, (args, r.err)
        assert words in r.err and r.out == "", (args, r.err)


def test_unknown_cluster_is_not_found(tmp_path: Path, doctor: Doctor) -> None:
    c = Cluster(tmp_path / "cluster")
    with c:
        r = doctor.run(c.namesrv, "-c", "NoSuchCluster")
        assert r.code == 7 and "NoSuchCluster" in r.err, r.err
        code, doc = doctor.json(c.namesrv, "-c", "DefaultCluster", "--check", "broker-unreachable")
        assert code == 0 and doc["cluster"] == "DefaultCluster", doc


def test_watch_prints_a_document_a_round(tmp_path: Path, doctor: Doctor) -> None:
    c = Cluster(tmp_path / "cluster")
    with c:
        argv = [MQADMIN, "doctor", "-n", c.namesrv, "--json", "--watch", "1", "--set", "lag_window=0.5"]
        proc = subprocess.Popen(
            argv,
            env=doctor.env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            preexec_fn=interruptible,
        )
        assert proc.stdout is not None
        lines = [proc.stdout.readline() for _ in range(2)]
        proc.send_signal(signal.SIGINT)
        proc.communicate(timeout=20)
        docs = [json.loads(x) for x in lines]
        for doc in docs:
            assert doc["apiVersion"] == "mqadmin/v1" and doc["healthy"] is True, doc
        assert docs[1]["timestamp"] - docs[0]["timestamp"] >= 900
        assert proc.returncode == 130
