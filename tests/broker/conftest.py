"""Fixtures: a name server process per module, brokers per test, cleaned up whatever happens."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.broker.peers import BrokerProcess, NameServerProcess


@pytest.fixture(scope="module")
def namesrv(tmp_path_factory: pytest.TempPathFactory) -> Iterator[NameServerProcess]:
    ns = NameServerProcess(tmp_path_factory.mktemp("namesrv"))
    try:
        yield ns
    finally:
        ns.stop()


@pytest.fixture
def broker_factory(tmp_path: Path, namesrv: NameServerProcess) -> Iterator[type]:
    started: list[BrokerProcess] = []

    class Factory:
        @staticmethod
        def start(name: str = "broker", **props: object) -> BrokerProcess:
            b = BrokerProcess(tmp_path / name, namesrv.addr, **props)
            started.append(b)
            return b

    try:
        yield Factory
    finally:
        for b in started:
            if b.alive:
                b.stop()
            if b.alive:
                b.kill()
