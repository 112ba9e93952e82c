"""Fixtures of the operator tests: one cluster of our real name server and broker per module, and
the installed ``mqadmin`` run against it as a subprocess (as a runbook or a shell pipe runs it)."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.cli_harness import MQADMIN, Result, clean_env, run_mqadmin, with_admin
from tests.servers import Cluster


@dataclass
class Operator:
    """A cluster and the environment ``mqadmin`` runs in against it (``NAMESRV_ADDR`` set)."""

    cluster: Cluster
    env: dict[str, str]

    @property
    def ns(self) -> str:
        return self.cluster.ns_addr

    @property
    def broker(self) -> str:
        return self.cluster.broker_addr

    def run(self, *args: str, timeout: float = 60, stdin: bytes | None = None) -> Result:
        if stdin is None:
            return run_mqadmin(list(args), self.env, timeout=timeout)
        p = subprocess.run([MQADMIN, *args], input=stdin, capture_output=True, env=self.env, timeout=timeout)
        return Result(p.returncode, p.stdout.decode(), p.stderr.decode(), p.stdout)

    def topic(self, name: str, queues: int = 4) -> None:
        r = self.run("updateTopic", "-c", "DefaultCluster", "-t", name, "-r", str(queues), "-w", str(queues))
        assert r.code == 0, r.err


@pytest.fixture(scope="module")
def op(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Operator]:
    root = tmp_path_factory.mktemp("operator")
    cluster = Cluster(root / "cluster")
    try:
        env = clean_env(root / "home", root / "config")
        env["NAMESRV_ADDR"] = cluster.ns_addr
        yield Operator(cluster, env)
    finally:
        cluster.stop()


CPP_CLIENT = Path(__file__).resolve().parents[1] / "broker" / "cpp_client.py"
SLOW_CONSUMER = Path(__file__).resolve().parent / "slow_consumer.py"


def cpp_produce(ns: str, topic: str, count: int, prefix: str = "m") -> None:
    """``count`` messages sent by the C++ producer (one process; it reports each send)."""
    argv = [sys.executable, str(CPP_CLIENT), "produce", ns, topic, str(count), "--prefix", prefix, "--quiet"]
    p = subprocess.run(argv, capture_output=True, text=True, timeout=120)
    done = [json.loads(x) for x in p.stdout.splitlines() if '"done"' in x]
    assert done and done[-1]["sent"] == count, (p.stdout[-2000:], p.stderr[-2000:])


def cpp_consume(ns: str, topic: str, group: str, expect: int) -> None:
    """The C++ push consumer until ``expect`` messages arrived; its shutdown commits the offsets."""
    argv = [sys.executable, str(CPP_CLIENT), "consume", ns, topic, group, "--expect", str(expect)]
    p = subprocess.run([*argv, "--timeout", "60", "--idle", "1"], capture_output=True, text=True, timeout=90)
    done = [json.loads(x) for x in p.stdout.splitlines() if '"done"' in x]
    assert done and done[-1]["received"] >= expect, (p.stdout[-2000:], p.stderr[-2000:])


def commit_offsets(ns: str, broker: str, group: str, topic: str, offsets: dict[int, int]) -> None:
    """Commit ``offsets`` (queue id -> offset) of ``group`` on broker-a, as a consumer would."""
    from mqadmin.protocol.bodies.message_queue import MessageQueue

    async def go(admin: Any) -> None:
        for qid, off in offsets.items():
            await admin.offsets.update_consume_offset(
                broker, group, MessageQueue(topic, "broker-a", qid), off
            )

    with_admin(ns, go)
