"""``--dry-run`` and the terminal's question on the broker operations and the controller's config:
setConsumeMode, setCommitLogReadAheadMode, resetMasterFlushOffset, addBroker, removeBroker and
updateControllerConfig. Our real name server with a master and a slave of ``broker-a`` behaving as
5.3.3, and our name server with its embedded controller: each plan in text and JSON (valid against
the command's published schema), nothing changed by it, then one real run that does change it.

Our broker is no broker container: addBroker and removeBroker reach it as REQUEST_CODE_NOT_SUPPORTED,
which its log names; a dry run leaves no such line (nothing was sent), a real run does."""

from __future__ import annotations

import json
import os
import re
import select
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from mqadmin.broker.store.checkpoint import Checkpoint
from tests.cli_harness import MQADMIN, clean_env, with_admin
from tests.operator.conftest import Operator
from tests.operator.dryrun import planned
from tests.servers import BrokerProcess, Cluster, ControllerNameServer, free_port

TOPIC, GROUP = "ModeTopic", "ModeGroup"
V533 = {"rocketmqVersion": "5.3.3", "brokerClusterName": "DefaultCluster", "brokerName": "broker-a"}
CONTROLLER_KEY = "electMasterMaxRetryCount"


@dataclass
class Setup:
    op: Operator
    controller: ControllerNameServer

    @property
    def slave(self) -> BrokerProcess:
        return self.op.cluster.brokers[1]


@pytest.fixture(scope="module")
def setup(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Setup]:
    root = tmp_path_factory.mktemp("brokerops")
    brokers = {"master": V533, "slave": {**V533, "brokerRole": "SLAVE", "brokerId": 1}}
    cluster = Cluster(root / "cluster", brokers)
    try:
        controller = ControllerNameServer(root / "controller")
        try:
            env = clean_env(root / "home", root / "config")
            env["NAMESRV_ADDR"] = cluster.ns_addr
            op = Operator(cluster, env)
            op.topic(TOPIC, 2)
            r = op.run("updateSubGroup", "-b", op.broker, "-g", GROUP)
            assert r.code == 0, r.err
            yield Setup(op, controller)
        finally:
            controller.stop()
    finally:
        cluster.stop()


def consume_mode(s: Setup) -> Any:
    async def read(admin: Any) -> Any:
        return (await admin.broker_ops.get_all_message_request_mode(s.op.broker)).to_json_obj()

    return with_admin(s.op.ns, read)["messageRequestModeMap"].get(TOPIC, {}).get(GROUP)


def read_ahead(s: Setup) -> list[str]:
    doc = json.loads(s.op.run("getBrokerConfig", "-c", "DefaultCluster", "--json").out)
    return sorted(f"{b['addr']}={json.dumps(b['config']['dataReadAheadEnable'])}" for b in doc["brokers"])


def master_flushed(s: Setup) -> int:
    return Checkpoint.read(s.slave.workdir / "store" / "checkpoint").master_flushed_offset


def controller_value(s: Setup) -> str:
    r = s.op.run("getControllerConfig", "-a", s.controller.addr, "--json")
    assert r.code == 0, r.err
    value: str = json.loads(r.out)[s.controller.addr][CONTROLLER_KEY]
    return value


def not_supported(s: Setup) -> int:
    """How many container requests our broker was sent (it logs each one it does not know)."""
    return len(re.findall(r"request type 90[23] not supported", s.op.cluster.broker.log()))


def state(s: Setup) -> dict[str, Any]:
    return {
        "mode": consume_mode(s),
        "readAhead": read_ahead(s),
        "flushed": master_flushed(s),
        "controller": controller_value(s),
        "container": not_supported(s),
    }


CASES: dict[str, list[str]] = {
    "setConsumeMode": ["-c", "DefaultCluster", "-t", TOPIC, "-g", GROUP, "-m", "POP", "-q", "2"],
    "setCommitLogReadAheadMode": ["-c", "DefaultCluster", "-m", "1"],
    "resetMasterFlushOffset": ["-b", "{slave}", "-o", "4096"],
    "addBroker": ["-c", "{broker}", "-b", "/opt/broker-c.properties"],
    "removeBroker": ["-c", "{broker}", "-b", "DefaultCluster:broker-c:1"],
    "updateControllerConfig": ["-a", "{controller}", "-k", CONTROLLER_KEY, "-v", "7"],
}


def args_of(s: Setup, command: str) -> list[str]:
    addrs = {"slave": s.slave.addr, "broker": s.op.broker, "controller": s.controller.addr}
    return [a.format(**addrs) for a in CASES[command]]


@pytest.mark.parametrize("command", list(CASES))
def test_a_dry_run_plans_and_changes_nothing(setup: Setup, command: str) -> None:
    op, args = setup.op, args_of(setup, command)
    before = state(setup)
    text, _, doc = planned(op.run, op.env, command, args)
    assert text.err == "", (command, text.err)
    assert doc["dryRun"] is True and doc["plan"] and all(p["changes"] for p in doc["plan"]), doc
    assert state(setup) == before


def test_the_plans_say_what_would_change(setup: Setup) -> None:
    op, master, slave = setup.op, setup.op.broker, setup.slave.addr
    mode = op.run(*["setConsumeMode", *args_of(setup, "setConsumeMode"), "--dry-run"])
    assert f"broker {master}: none set (PULL by default) -> POP (popShareQueueNum 2)\n" in mode.out
    ahead = op.run("setCommitLogReadAheadMode", *args_of(setup, "setCommitLogReadAheadMode"), "--dry-run")
    assert ahead.code == 0, ahead.err
    assert ahead.out == (
        "dry run, nothing changed: set the commit-log read-ahead mode to 1 (random read)\n"
        f"  broker {master}: dataReadAheadEnable: true -> false\n"
        f"  broker {slave}: dataReadAheadEnable: true -> false\n"
    )
    doc = json.loads(op.run("setCommitLogReadAheadMode", "-b", master, "-m", "0", "--dry-run", "--json").out)
    assert doc["plan"] == [
        {"role": "broker", "addr": master, "action": "dataReadAheadEnable is true already", "changes": False}
    ]
    assert [(b["addr"], b["brokerId"], b["ok"]) for b in doc["brokers"]] == [(master, 0, None)]
    flush = op.run("resetMasterFlushOffset", "-b", master, "-o", "1", "--dry-run", "--json")
    assert json.loads(flush.out)["plan"][0]["changes"] is False  # a master ignores it
    flush = op.run("resetMasterFlushOffset", *args_of(setup, "resetMasterFlushOffset"), "--dry-run")
    assert f"broker {slave}: a slave (brokerId 1): its master flush offset -> 4096\n" in flush.out
    remove = op.run("removeBroker", *args_of(setup, "removeBroker"), "--dry-run")
    who = "broker 1 of broker-c (cluster DefaultCluster)"
    assert f"container {master}: stop and remove {who}\n" in remove.out
    ctl = op.run("updateControllerConfig", *args_of(setup, "updateControllerConfig"), "--dry-run", "--json")
    assert json.loads(ctl.out)["plan"][0]["action"] == f"{CONTROLLER_KEY}: 3 -> 7"
    # nothing at that address: a plan that takes no read sends nothing, so it cannot fail
    nobody = f"127.0.0.1:{free_port()}"
    assert op.run("addBroker", "-c", nobody, "-b", "/opt/b.properties", "--dry-run").code == 0
    assert op.run("addBroker", "-c", nobody, "-b", "/opt/b.properties").code != 0


def test_bad_input_is_a_usage_error_before_anything_is_sent(setup: Setup) -> None:
    op = setup.op
    for command, args in [
        ("setConsumeMode", ["-b", op.broker, "-t", TOPIC, "-g", GROUP, "-m", "pop"]),
        ("setCommitLogReadAheadMode", ["-b", op.broker, "-m", "2"]),
        ("resetMasterFlushOffset", ["-b", setup.slave.addr, "-o", "1e3"]),
        ("addBroker", ["-c", op.broker, "-b", ""]),
        ("removeBroker", ["-c", op.broker, "-b", "DefaultCluster:broker-c:-1"]),
        ("updateControllerConfig", ["-a", setup.controller.addr, "-k", CONTROLLER_KEY, "-v", "a\u0007b"]),
        ("updateControllerConfig", ["-a", "127.0.0.1:99999", "-k", CONTROLLER_KEY, "-v", "7"]),
    ]:
        r = op.run(command, *args, "--dry-run")
        assert (r.code, r.out, len(r.err.splitlines())) == (2, "", 1), (command, r.err)


def test_without_a_terminal_the_commands_act_as_java_does(setup: Setup) -> None:
    """No terminal, no --yes: no question, the change made and Java's text."""
    op, s = setup.op, setup
    r = op.run("setConsumeMode", *args_of(s, "setConsumeMode"))
    assert (r.code, r.err) == (0, ""), r.err
    assert r.out == (
        f"set consume mode to {op.broker} success.\n"
        f"topic[{TOPIC}] group[{GROUP}] consume mode[POP] popShareQueueNum[2]"
    )
    assert consume_mode(s) == {"consumerGroup": GROUP, "mode": "POP", "popShareQueueNum": 2, "topic": TOPIC}
    r = op.run("setCommitLogReadAheadMode", *args_of(s, "setCommitLogReadAheadMode"))
    assert r.code == 0 and r.out.startswith(f" ============Master: {op.broker}============\n"), r.err
    assert read_ahead(s) == sorted([f"{op.broker}=false", f"{s.slave.addr}=false"])
    r = op.run("resetMasterFlushOffset", *args_of(s, "resetMasterFlushOffset"))
    assert (r.code, r.out) == (0, "reset master flush offset to 4096 success\n"), r.err
    assert master_flushed(s) == 4096
    r = op.run("updateControllerConfig", *args_of(s, "updateControllerConfig"))
    assert r.out == f"update controller config success![{s.controller.addr}]\n{CONTROLLER_KEY} : 7\n", r.err
    assert controller_value(s) == "7"
    before = not_supported(s)
    for command in ("addBroker", "removeBroker"):  # sent, and refused by a broker that is no container
        r = op.run(command, *args_of(s, command))
        assert r.code != 0 and "CODE: 3" in r.err, r.err
    assert _until(lambda: not_supported(s) == before + 2)
    # and with a plan of no change left: the dry run says so
    again = json.loads(op.run("setConsumeMode", *args_of(s, "setConsumeMode"), "--dry-run", "--json").out)
    assert [p["changes"] for p in again["plan"]] == [False]


def test_on_a_terminal_the_plan_is_asked_about(setup: Setup) -> None:
    op, s = setup.op, setup
    args = ["updateControllerConfig", "-a", s.controller.addr, "-k", CONTROLLER_KEY, "-v", "9"]
    before = controller_value(s)
    code, seen = on_a_terminal(args, op.env, b"n\n")
    assert code == 1 and f"controller {s.controller.addr}: {CONTROLLER_KEY}: {before} -> 9" in seen, seen
    assert "nothing was changed" in seen and controller_value(s) == before
    code, seen = on_a_terminal(args, op.env, b"y\n")
    assert code == 0 and f"{CONTROLLER_KEY} : 9" in seen and controller_value(s) == "9", seen
    code, seen = on_a_terminal([*args[:-1], "3", "--yes"], op.env, None)
    assert code == 0 and "Go ahead?" not in seen and controller_value(s) == "3", seen


def _until(ok: Any, timeout: float = 5.0) -> bool:
    deadline = time.monotonic() + timeout
    while not ok():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.1)
    return True


def on_a_terminal(args: list[str], env: dict[str, str], answer: bytes | None) -> tuple[int, str]:
    """``mqadmin ARGS`` with a terminal as stdin, stdout and stderr; ``answer`` typed once asked."""
    import pty

    leader, follower = pty.openpty()
    p = subprocess.Popen([MQADMIN, *args], stdin=follower, stdout=follower, stderr=follower, env=env)
    os.close(follower)
    seen, answered = b"", False
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        ready, _, _ = select.select([leader], [], [], 0.2)
        if ready:
            try:
                chunk = os.read(leader, 4096)
            except OSError:  # the other end closed: the process is gone
                break
            if not chunk:
                break
            seen += chunk
        if answer is not None and not answered and b"Go ahead?" in seen:
            os.write(leader, answer)
            answered = True
        if p.poll() is not None and not ready:
            break
    os.close(leader)
    return p.wait(timeout=10), seen.decode("utf-8", "replace")
