"""Fixtures of the CLI tests: the installed ``mqadmin`` run as a subprocess (our name server is the
root ``namesrv`` fixture)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli_harness import Result, clean_env, run_mqadmin


@pytest.fixture(scope="session")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A ROCKETMQ_HOME with the distribution's tools.yml (the captures were signed with it)."""
    root = tmp_path_factory.mktemp("rocketmq-home")
    (root / "conf").mkdir()
    (root / "conf" / "tools.yml").write_text("accessKey: rocketmq2\nsecretKey: 12345678\n")
    return root


@pytest.fixture(scope="session")
def base_env(home: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    return clean_env(home, tmp_path_factory.mktemp("config"), tz=None)


@pytest.fixture
def mqadmin(base_env: dict[str, str]):  # type: ignore[no-untyped-def]
    def run(*args: str, env: dict[str, str] | None = None, timeout: float = 30) -> Result:
        return run_mqadmin(list(args), {**base_env, **(env or {})}, timeout=timeout)

    return run
