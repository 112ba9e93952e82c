"""``mqadmin manifest``, ``diff -f`` and ``apply -f`` as installed, against our name server and broker:
exit codes, the one-line refusal of a bad manifest before anything is sent, the JSON documents as
published."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import jsonschema
import pytest
from referencing import Registry, Resource

from mqadmin.cli import schemas
from tests.cli_harness import clean_env, run_mqadmin
from tests.manifest.helpers import HEAD
from tests.servers import Cluster

GOOD = HEAD + "topics:\n  MfCli: {readQueues: 4, writeQueues: 4}\ngroups:\n  MfCliGroup: {retryMaxTimes: 2}\n"


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    with Cluster(tmp_path_factory.mktemp("manifest-cli")) as c:
        yield c


def _validate(doc: object, name: str) -> None:
    registry: Registry = Registry().with_resources(
        (schemas.ID_PREFIX + n, Resource.from_contents(schemas.load(n))) for n in schemas.names()
    )
    jsonschema.Draft202012Validator(schemas.load(name), registry=registry).validate(doc)


def test_a_bad_manifest_is_refused_with_its_line_before_anything_is_sent(
    cluster: Cluster, tmp_path: Path
) -> None:
    env = clean_env(tmp_path / "home", tmp_path / "cfg")
    bad = tmp_path / "bad.yaml"
    bad.write_text(GOOD + "  MfCliOther:\n    retryQueues: -3\n")
    r = run_mqadmin(["apply", "-n", cluster.ns_addr, "-f", str(bad), "--yes"], env)
    assert r.code == 2, r.err
    assert r.err.strip().splitlines() == [
        f"mqadmin apply: {bad}:9: groups.MfCliOther.retryQueues: -3 is less than 0"
    ]
    good = tmp_path / "good.yaml"
    good.write_text(GOOD)
    r = run_mqadmin(["diff", "-n", cluster.ns_addr, "-f", str(good), "--json"], env)
    assert r.code == 1, r.err  # MfCli was not created by the refused apply
    assert {c["name"] for c in json.loads(r.out)["clusters"][0]["changes"]} == {"MfCli", "MfCliGroup"}


def test_diff_apply_diff_exit_codes_and_documents(cluster: Cluster, tmp_path: Path) -> None:
    env = clean_env(tmp_path / "home", tmp_path / "cfg")
    folder = tmp_path / "manifests"
    folder.mkdir()
    (folder / "cluster.yaml").write_text(GOOD)
    ns = ["-n", cluster.ns_addr]
    r = run_mqadmin(["diff", *ns, "-f", str(folder)], env)
    assert r.code == 1 and "+ topic MfCli on broker-a: readQueues=4 writeQueues=4 perm=6" in r.out, r.out
    r = run_mqadmin(["apply", *ns, "-f", str(folder), "--dry-run", "--json"], env)
    assert r.code == 0 and json.loads(r.out)["dryRun"] is True
    _validate(json.loads(r.out), "apply")
    r = run_mqadmin(["apply", *ns, "-f", str(folder), "--json"], env)
    assert r.code == 0, r.err
    doc = json.loads(r.out)
    _validate(doc, "apply")
    assert len(doc["clusters"][0]["applied"]["done"]) == 2
    r = run_mqadmin(["diff", *ns, "-f", str(folder), "--json"], env)
    assert r.code == 0, r.out
    _validate(json.loads(r.out), "diff")
    r = run_mqadmin(["manifest", *ns, "--json"], env)
    assert r.code == 0, r.err
    exported = json.loads(r.out)
    _validate(exported, "manifest")
    assert exported["topics"]["MfCli"] == {"readQueues": 4, "writeQueues": 4, "perm": 6}

    (folder / "cluster.yaml").write_text(
        GOOD.replace("readQueues: 4, writeQueues: 4", "readQueues: 2, writeQueues: 2")
    )
    r = run_mqadmin(["apply", *ns, "-f", str(folder)], env)
    assert r.code == 1 and "--allow-shrink" in r.err and "nothing changed" in r.err, r.err
    r = run_mqadmin(["apply", *ns, "-f", str(folder), "--allow-shrink"], env)
    assert r.code == 0 and "1 of 1 change(s) made" in r.out, r.out


def test_one_apply_of_two_clusters_on_one_name_server(cluster: Cluster, tmp_path: Path) -> None:
    cluster.add_broker("other", brokerClusterName="OtherCluster", brokerName="broker-o")
    env = clean_env(tmp_path / "home", tmp_path / "cfg")
    two = tmp_path / "two.yaml"
    other = HEAD.replace("DefaultCluster", "OtherCluster")
    two.write_text(
        HEAD + "topics: {MfTwoA: {}}\n---\n" + other + "topics: {MfTwoO: {readQueues: 2, writeQueues: 2}}\n"
    )
    r = run_mqadmin(["apply", "-n", cluster.ns_addr, "-f", str(two), "--json"], env)
    assert r.code == 0, r.err
    done = {
        (c["cluster"], d["name"], d["broker"])
        for c in json.loads(r.out)["clusters"]
        for d in c["applied"]["done"]
    }
    assert done == {("DefaultCluster", "MfTwoA", "broker-a"), ("OtherCluster", "MfTwoO", "broker-o")}
    r = run_mqadmin(["diff", "-n", cluster.ns_addr, "-f", str(two)], env)
    assert r.code == 0, r.out
    r = run_mqadmin(["diff", "-n", cluster.ns_addr, "-f", str(two), "-c", "X"], env)
    assert r.code == 2 and "declare 2 clusters" in r.err, r.err


def _on_a_terminal(args: list[str], env: dict[str, str], answer: bytes) -> tuple[int, str]:
    """``mqadmin ARGS`` with a terminal as stdin and stdout; ``answer`` typed once asked."""
    import os
    import pty
    import select
    import subprocess
    import time

    from tests.cli_harness import MQADMIN

    leader, follower = pty.openpty()
    p = subprocess.Popen([MQADMIN, *args], stdin=follower, stdout=follower, stderr=follower, env=env)
    os.close(follower)
    seen = b""
    deadline = time.monotonic() + 30
    answered = False
    while time.monotonic() < deadline:
        ready, _, _ = select.select([leader], [], [], 0.2)
        if ready:
            try:
                chunk = os.read(leader, 4096)
            except OSError:
                break
            if not chunk:
                break
            seen += chunk
        if not answered and b"Apply these changes?" in seen:
            os.write(leader, answer)
            answered = True
        if p.poll() is not None and not ready:
            break
    os.close(leader)
    return p.wait(timeout=10), seen.decode("utf-8", "replace")


def test_on_a_terminal_apply_asks_and_a_no_changes_nothing(cluster: Cluster, tmp_path: Path) -> None:
    env = clean_env(tmp_path / "home", tmp_path / "cfg")
    f = tmp_path / "ask.yaml"
    f.write_text(HEAD + "topics: {MfAsked: {}}\n")
    args = ["apply", "-n", cluster.ns_addr, "-f", str(f)]
    code, seen = _on_a_terminal(args, env, b"n\n")
    assert code == 1 and "+ topic MfAsked on broker-a" in seen and "nothing was changed" in seen, seen
    assert run_mqadmin(["diff", "-n", cluster.ns_addr, "-f", str(f)], env).code == 1
    code, seen = _on_a_terminal(args, env, b"y\n")
    assert code == 0 and "done: + topic MfAsked on broker-a" in seen, seen
    assert run_mqadmin(["diff", "-n", cluster.ns_addr, "-f", str(f)], env).code == 0


def test_a_refusal_mid_apply_is_reported_with_what_was_done(cluster: Cluster, tmp_path: Path) -> None:
    env = clean_env(tmp_path / "home", tmp_path / "cfg")
    f = tmp_path / "refused.yaml"
    f.write_text(HEAD + "topics:\n  MfBefore: {}\n  TBW102: {perm: 6}\ngroups:\n  MfAfter: {}\n")
    r = run_mqadmin(["apply", "-n", cluster.ns_addr, "-f", str(f), "--include-system"], env)
    assert r.code == 3, (r.out, r.err)  # the broker's refusal: a remote failure
    assert "  done: + topic MfBefore on broker-a" in r.out
    assert "  FAILED: ~ topic TBW102 on broker-a: perm 7 -> 6: " in r.out
    assert "  not done: + group MfAfter on broker-a" in r.out
    assert "1 of 3 change(s) made" in r.out
    assert "stopped at ~ topic TBW102 on broker-a" in r.err and cluster.broker_addr in r.err, r.err
