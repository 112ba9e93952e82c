"""Fixtures of the CLI tests: the installed ``mqadmin`` run as a subprocess, our name server, peers."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.cli.peers import MQADMIN, NameServer


@dataclass
class Result:
    code: int
    out: str
    err: str
    raw: bytes


@pytest.fixture(scope="session")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A ROCKETMQ_HOME with the distribution's tools.yml (the captures were signed with it)."""
    root = tmp_path_factory.mktemp("rocketmq-home")
    (root / "conf").mkdir()
    (root / "conf" / "tools.yml").write_text("accessKey: rocketmq2\nsecretKey: 12345678\n")
    return root


@pytest.fixture(scope="session")
def base_env(home: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("MQADMIN_", "NAMESRV_ADDR", "ROCKETMQ_"))
        and k not in ("XDG_CONFIG_HOME", "PYTHONDONTWRITEBYTECODE")  # bytecode caches make each run faster
    }
    env["ROCKETMQ_HOME"] = str(home)
    env["MQADMIN_CONFIG_DIR"] = str(tmp_path_factory.mktemp("config"))
    return env


def run_mqadmin(args: list[str], env: dict[str, str], timeout: float = 30) -> Result:
    p = subprocess.run([MQADMIN, *args], capture_output=True, env=env, timeout=timeout)
    return Result(p.returncode, p.stdout.decode("utf-8"), p.stderr.decode("utf-8"), p.stdout)


@pytest.fixture
def mqadmin(base_env: dict[str, str]):  # type: ignore[no-untyped-def]
    def run(*args: str, env: dict[str, str] | None = None, timeout: float = 30) -> Result:
        return run_mqadmin(list(args), {**base_env, **(env or {})}, timeout)

    return run


@pytest.fixture(scope="module")
def namesrv(tmp_path_factory: pytest.TempPathFactory) -> Iterator[NameServer]:
    ns = NameServer(tmp_path_factory.mktemp("namesrv"))
    try:
        yield ns
    finally:
        ns.stop()
