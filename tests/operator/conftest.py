"""Fixtures of the operator tests: one cluster of our real name server and broker per module, and
the installed ``mqadmin`` run against it as a subprocess (as a runbook or a shell pipe runs it)."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from tests.cli_harness import MQADMIN, Result, clean_env, run_mqadmin
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
