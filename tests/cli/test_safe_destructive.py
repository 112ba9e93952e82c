"""The destructive commands' safety net, against our name server and a 5.3.3-flavoured broker of ours:
deleting what does not exist exits 7 after the Java tool's lines, ``--dry-run`` leaves every config
file byte-identical, and the confirmation is asked on a terminal (a pty) and never in a pipe.
"""

from __future__ import annotations

import json
import os
import pty
import select
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests import servers
from tests.broker.peers import create_topic
from tests.cli_harness import MQADMIN, Result, clean_env, run_mqadmin

CLUSTER = "DefaultCluster"


class Cluster:
    def __init__(self, root: Path) -> None:
        self.our = servers.Cluster(root, rocketmqVersion="5.3.3")
        self.root = root
        self.env = clean_env(root / "home", root / "cfg")

    @property
    def broker(self) -> str:
        return self.our.broker.addr

    def run(self, *args: str) -> Result:
        return run_mqadmin([*args, "-n", self.our.ns.addr], self.env)

    def ok(self, *args: str) -> str:
        r = self.run(*args)
        assert r.code == 0, (args, r.code, r.err)
        return r.out

    def files(self) -> dict[str, bytes]:
        """Every config file of the broker and the name server (the store's data files left out)."""
        out: dict[str, bytes] = {}
        for p in sorted(self.root.rglob("*")):
            if p.is_file() and (p.suffix in (".json", ".properties", ".bak") or "config" in p.parts):
                out[str(p.relative_to(self.root))] = p.read_bytes()
        return out

    def topic_exists(self, topic: str) -> bool:
        return self.run("topicRoute", "-t", topic).code == 0


@pytest.fixture(scope="module")
def cl(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    c = Cluster(tmp_path_factory.mktemp("safe-destructive"))
    try:
        yield c
    finally:
        c.our.stop()


def test_deleting_a_topic_that_does_not_exist_says_so_once_and_exits_7(cl: Cluster) -> None:
    r = cl.run("deleteTopic", "-t", "NoSuchTopic", "-c", CLUSTER)
    assert (r.code, r.out) == (7, "")  # no "success" line for what was never there
    assert r.err == (
        f"mqadmin deleteTopic: topic NoSuchTopic does not exist in cluster {CLUSTER}: "
        "no master has it and no name server routes it there\n"
    )
    doc = json.loads(cl.run("deleteTopic", "-t", "NoSuchTopic", "-c", CLUSTER, "--json").out)
    assert doc["error"]["exitCode"] == 7 and "NoSuchTopic does not exist" in doc["error"]["message"]


def test_deleting_a_topic_that_exists_is_java_and_exit_0(cl: Cluster) -> None:
    assert create_topic(cl.broker, "Doomed").code == 0
    _wait(lambda: cl.topic_exists("Doomed"))
    r = cl.run("deleteTopic", "-t", "Doomed", "-c", CLUSTER)  # a pipe: no question asked
    assert (r.code, r.err) == (0, "")
    assert r.out.startswith(f"delete topic [Doomed] from cluster [{CLUSTER}] success.\n")
    assert not cl.topic_exists("Doomed")


def test_missing_group_user_and_acl_exit_7(cl: Cluster) -> None:
    r = cl.run("deleteSubGroup", "-c", CLUSTER, "-g", "NoSuchGroup")
    assert r.code == 7 and r.out == (
        f"delete subscription group [NoSuchGroup] from broker [{cl.broker}] in cluster [{CLUSTER}] success.\n"
    )
    assert "subscription group NoSuchGroup does not exist" in r.err
    r = cl.run("deleteUser", "-b", cl.broker, "-u", "nobody")
    assert (r.code, r.out) == (7, f"delete user to {cl.broker} success.\n")
    assert r.err == f"mqadmin deleteUser: user nobody does not exist on {cl.broker}\n"
    r = cl.run("deleteAcl", "-b", cl.broker, "-s", "User:nobody")  # the broker refuses: no such subject
    assert (r.code, r.out) == (7, "")
    assert "The subject is not exist." in r.err


def _seed(cl: Cluster) -> None:
    assert create_topic(cl.broker, "Kept").code == 0
    cl.ok("updateSubGroup", "-c", CLUSTER, "-g", "KeptGroup")
    cl.ok("createUser", "-c", CLUSTER, "-u", "alice", "-p", "alicePw")
    cl.ok("createAcl", "-c", CLUSTER, "-s", "User:alice", "-r", "Topic:Kept", "-a", "Pub", "-d", "Allow")
    _wait(lambda: cl.topic_exists("Kept"))


DRY_RUNS = [
    (["deleteTopic", "-t", "Kept", "-c", CLUSTER], "delete topic Kept (4 read/4 write queues, RW-)"),
    (
        ["deleteSubGroup", "-c", CLUSTER, "-g", "KeptGroup", "-r", "true"],
        "delete subscription group KeptGroup",
    ),
    (["wipeWritePerm", "-b", "broker-a"], "remove the write permission of broker broker-a"),
    (["cleanUnusedTopic", "-c", CLUSTER], "delete the consume queues and offsets of topics"),
    (["cleanExpiredCQ", "-c", CLUSTER], "delete the consume queues whose messages"),
    (["resetOffsetByTime", "-g", "KeptGroup", "-t", "Kept", "-s", "now"], "#resetOffset"),
    (["deleteUser", "-c", CLUSTER, "-u", "alice"], "delete user alice and its ACL"),
    (["deleteAcl", "-c", CLUSTER, "-s", "User:alice"], "delete the ACL of User:alice (1 resource(s))"),
    (["updateBrokerConfig", "-c", CLUSTER, "-k", "flushIntervalCommitLog", "-v", "777"], "500 -> 777"),
]


def test_dry_run_changes_nothing(cl: Cluster) -> None:
    _seed(cl)
    before = cl.files()
    assert any(k.endswith("topics.json") for k in before) and any(k.endswith("users.json") for k in before)
    for args, says in DRY_RUNS:
        r = cl.run(*args, "--dry-run")
        assert (r.code, r.err) == (0, ""), (args, r.err)
        assert r.out.startswith("dry run, nothing changed: ") and says in r.out, (args, r.out)
        doc = json.loads(cl.run(*args, "--dry-run", "--json").out)
        assert doc.get("dryRun", True) is True, args
    assert cl.files() == before
    route = json.loads(cl.ok("topicRoute", "-t", "Kept", "--json"))
    assert [q["perm"] for q in route["queueDatas"]] == [6]  # wipeWritePerm --dry-run left the route alone
    config = cl.ok("getBrokerConfig", "-b", cl.broker)
    lines = config.splitlines()
    flush = [ln.split("=")[1].strip() for ln in lines if ln.startswith("flushIntervalCommitLog ")]
    assert flush == ["500"]  # the value, not the text: the broker's port may hold 777
    assert cl.topic_exists("Kept")


def test_dry_run_of_what_does_not_exist_says_so_and_exits_7(cl: Cluster) -> None:
    r = cl.run("deleteTopic", "-t", "NeverWas", "-c", CLUSTER, "--dry-run")
    assert r.code == 7 and "not there, nothing to delete" in r.out
    doc = json.loads(cl.run("deleteTopic", "-t", "NeverWas", "-c", CLUSTER, "--dry-run", "--json").out)
    assert doc["exists"] is False and doc["dryRun"] is True
    assert [(s["role"], s["changes"]) for s in doc["plan"]] == [("broker", False), ("nameServer", False)]


# ------------------------------------------------------------------------------- on a terminal


def on_pty(args: list[str], env: dict[str, str], answer: str | None, timeout: float = 30) -> tuple[int, str]:
    """Run ``mqadmin ARGS`` with stdin, stdout and stderr on a pseudo-terminal; type ``answer`` when the
    question appears (None: expect none). Returns the exit code and everything the terminal showed."""
    master, slave = pty.openpty()
    proc = subprocess.Popen([MQADMIN, *args], stdin=slave, stdout=slave, stderr=slave, env=env)
    os.close(slave)
    seen = b""
    answered = False
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([master], [], [], 0.1)
            if ready:
                try:
                    chunk = os.read(master, 4096)
                except OSError:  # the child closed its end
                    break
                if not chunk:
                    break
                seen += chunk
            if answer is not None and not answered and b"Go ahead? [y/N]" in seen:
                os.write(master, answer.encode() + b"\n")
                answered = True
            if proc.poll() is not None and not ready:
                break
        code = proc.wait(timeout=max(0.1, deadline - time.monotonic()))
    finally:
        os.close(master)
        if proc.poll() is None:
            proc.kill()
    return code, seen.decode("utf-8", "replace").replace("\r\n", "\n")


def test_a_terminal_is_asked_and_a_no_changes_nothing(cl: Cluster) -> None:
    assert create_topic(cl.broker, "Asked").code == 0
    _wait(lambda: cl.topic_exists("Asked"))
    args = ["deleteTopic", "-t", "Asked", "-c", CLUSTER, "-n", cl.our.ns.addr]
    before = cl.files()
    code, screen = on_pty(args, cl.env, "n")
    assert code == 1, screen
    assert f"delete topic [Asked] from cluster [{CLUSTER}]\n" in screen
    assert f"broker {cl.broker}: delete topic Asked (4 read/4 write queues, RW-) and its offsets" in screen
    assert "nothing was changed (not confirmed" in screen
    assert cl.files() == before and cl.topic_exists("Asked")

    code, screen = on_pty(args, cl.env, "y")
    assert code == 0, screen
    assert "Go ahead? [y/N]" in screen and "delete topic [Asked] from NameServer success." in screen
    assert not cl.topic_exists("Asked")


def test_yes_skips_the_question_and_a_pipe_is_never_asked(cl: Cluster) -> None:
    for topic in ("YesFlag", "Piped"):
        assert create_topic(cl.broker, topic).code == 0
        _wait(lambda t=topic: cl.topic_exists(t))  # type: ignore[misc]
    code, screen = on_pty(
        ["deleteTopic", "-t", "YesFlag", "-c", CLUSTER, "--yes", "-n", cl.our.ns.addr], cl.env, None
    )
    assert code == 0 and "Go ahead?" not in screen and not cl.topic_exists("YesFlag")
    r = cl.run("deleteTopic", "-t", "Piped", "-c", CLUSTER)
    assert r.code == 0 and "Go ahead?" not in r.out + r.err and not cl.topic_exists("Piped")


def _wait(cond, timeout: float = 10) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while not cond():
        assert time.monotonic() < deadline, "condition not met in time"
        time.sleep(0.2)
