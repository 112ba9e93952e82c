"""The shared server wrappers (``tests/servers.py``): a cluster starts what it was asked for and
leaves no process behind, also when one of its servers cannot start."""

from __future__ import annotations

import os
import socket
from pathlib import Path

import pytest

from mqadmin.protocol.command import RemotingCommand
from tests import servers
from tests.broker.peers import call
from tests.procfs import children_of
from tests.servers import Cluster, NameServerProcess, free_port, kill_leftovers

GET_BROKER_CLUSTER_INFO = 106


def test_a_cluster_of_two_brokers_registers_both_and_stops_all(tmp_path: Path) -> None:
    with Cluster(tmp_path, {name: {"brokerName": f"broker-{name}"} for name in "ab"}) as c:
        assert [b.workdir.name for b in c.brokers] == ["a", "b"] and c.broker is c.brokers[0]
        info = call(c.ns_addr, RemotingCommand.request(GET_BROKER_CLUSTER_INFO))
        assert info.code == 0 and b"broker-a" in (info.body or b"") and b"broker-b" in (info.body or b"")
        processes = [c.ns, *c.brokers]
        assert all(p.alive for p in processes)
    assert not any(p.alive for p in processes)


def test_a_broker_that_cannot_start_takes_the_cluster_down(tmp_path: Path) -> None:
    before = children_of(os.getpid())
    with socket.socket() as taken, pytest.raises(RuntimeError, match="broker did not start"):
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        Cluster(tmp_path, {"good": {}, "bad": {"port": taken.getsockname()[1]}})
    assert (tmp_path / "good" / "broker.properties").exists()  # the first one did start
    assert children_of(os.getpid()) <= before  # the name server and the good broker are gone


def test_a_cluster_without_brokers_is_refused_before_anything_starts(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="at least one broker"):
        Cluster(tmp_path, {})
    assert list(tmp_path.iterdir()) == []


def test_a_fixed_port_name_server_comes_back_at_its_address(tmp_path: Path) -> None:
    port = free_port()
    ns = NameServerProcess(tmp_path, port=port)
    try:
        assert ns.addr == f"127.0.0.1:{port}"
        ns.stop()
        assert not ns.alive
        ns.start()
        assert ns.addr == f"127.0.0.1:{port}" and ns.alive
    finally:
        ns.stop()


def test_a_name_server_on_a_taken_port_says_so(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        with pytest.raises(RuntimeError, match="name server did not start"):
            NameServerProcess(tmp_path, port=taken.getsockname()[1])


def test_a_picked_port_taken_before_the_broker_binds_it_moves_the_broker(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another process may take the port picked for a broker before the broker binds it: the broker
    then starts on another one (and its config says which), instead of failing the test it serves."""
    import tests.servers as servers

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        picks = iter([taken.getsockname()[1]])
        monkeypatch.setattr(servers, "free_port", lambda: next(picks, None) or free_port())
        with Cluster(tmp_path) as c:
            assert c.broker.port != taken.getsockname()[1]
            assert f"listenPort={c.broker.port}\n" in c.broker.config.read_text()
            assert call(c.broker_addr, RemotingCommand.request(28)).code == 0  # GET_BROKER_RUNTIME_INFO


def test_a_server_left_running_is_known_and_killed_at_the_end(tmp_path: Path) -> None:
    ns = NameServerProcess(tmp_path / "ns")
    assert ns.alive and ns in list(servers._MADE)
    assert kill_leftovers([ns]) == 1  # what the session's last fixture does with every server left
    assert not ns.alive
    assert kill_leftovers([ns]) == 0
