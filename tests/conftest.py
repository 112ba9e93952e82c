"""Fixtures every test folder shares: our servers as real processes (``tests/servers.py``).

- ``namesrv``: one name server per test module (starting one costs a process start-up, and a
  module's tests may share what they register on it);
- ``broker_factory``: brokers of one test on that name server (``broker_factory.start(name, **props)``),
  stopped, or killed, when the test ends.

Folders that share a whole cluster (a name server and a broker) for a module or a session build it
from :class:`tests.servers.Cluster` in their own ``conftest.py``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.servers import BrokerProcess, NameServerProcess, kill_leftovers


@pytest.fixture(scope="session", autouse=True)
def no_server_outlives_the_session() -> Iterator[None]:
    """A server a failed test left running (started before the ``try`` that would stop it) is
    killed when the session ends, not left behind on the machine."""
    yield
    kill_leftovers()


@pytest.fixture(scope="module")
def namesrv(tmp_path_factory: pytest.TempPathFactory) -> Iterator[NameServerProcess]:
    ns = NameServerProcess(tmp_path_factory.mktemp("namesrv"))
    try:
        yield ns
    finally:
        ns.stop()


class BrokerFactory:
    """Starts brokers on one name server, with their files under one folder, and stops them all."""

    def __init__(self, root: Path, namesrv: NameServerProcess) -> None:
        self.root = root
        self.namesrv = namesrv
        self.started: list[BrokerProcess] = []

    def start(self, name: str = "broker", **props: object) -> BrokerProcess:
        broker = BrokerProcess(self.root / name, self.namesrv.addr, **props)
        self.started.append(broker)
        return broker

    def stop_all(self) -> None:
        for broker in self.started:
            try:
                broker.stop()
            finally:
                broker.kill()


@pytest.fixture
def broker_factory(tmp_path: Path, namesrv: NameServerProcess) -> Iterator[BrokerFactory]:
    factory = BrokerFactory(tmp_path, namesrv)
    try:
        yield factory
    finally:
        factory.stop_all()
