"""Fixtures: the ``mqadmin`` environment (session) and a name server + broker per test module."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.admin_topic_broker.servers import Cluster, mqadmin_env


@pytest.fixture(scope="session")
def cli_env(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    return mqadmin_env(tmp_path_factory.mktemp("mqadmin-env"))


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory, cli_env: dict[str, str]) -> Iterator[Cluster]:
    c = Cluster(tmp_path_factory.mktemp("cluster"), cli_env)
    try:
        yield c
    finally:
        c.stop()


@pytest.fixture
def out_dir(tmp_path: Path) -> Path:
    return tmp_path / "export"
