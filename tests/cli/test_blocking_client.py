"""Commands run without an event loop (all but the few declared to need it), and behave as on one.

``topicRoute``, ``clusterList`` (without ``-i``), ``getBrokerConfig``, ``queryMsgByKey`` (which asks
every broker at once, on threads there) and the others run on the blocking client
(:mod:`mqadmin.remoting.blocking`) against our real name server and broker:

- in this process, each prints the same stdout and stderr and exits with the same code as the same
  command forced onto the event loop: answers, a missing topic, all name servers down, a silent name
  server (timeout), a TLS client against a plain port, a broker's port given as the name server;
- a name server that is down or silent is passed over for the next one of ``-n``;
- TLS round trips on the blocking client, as the asyncio client's test does.
"""

from __future__ import annotations

import asyncio
import json
import re
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from mqadmin.localcluster import free_port
from mqadmin.protocol.command import RemotingCommand
from mqadmin.remoting.blocking import BlockingClient, run_sync
from mqadmin.remoting.errors import RemotingClosedError, RemotingConnectError, RemotingTimeoutError
from tests.admin_group_offset.servers import Cluster
from tests.cli.peers import SilentPeer

TOPIC = "StartupTopic"
BROKER = "<broker>"
"""In a parametrized command line: the broker's address, known once the cluster runs."""


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    c = Cluster(tmp_path_factory.mktemp("startup"))
    try:
        c.create_topic(TOPIC, 2)
        c.produce(TOPIC, 3)
        yield c
    finally:
        c.stop()


@pytest.fixture(scope="module")
def silent() -> Iterator[SilentPeer]:
    peer = SilentPeer()
    yield peer
    peer.stop()


def closed_addr() -> str:
    return f"127.0.0.1:{free_port()}"


# ------------------------------------------------------------------------------ same as on the loop


def run_here(
    args: list[str], *, loop: bool, env: dict[str, str], capfd: Any, monkeypatch: pytest.MonkeyPatch
) -> tuple[int, str, str]:
    """``mqadmin ARGS`` in this process, its command on the event loop or not."""
    from mqadmin.cli.app import load_command
    from mqadmin.cli.clickcommand import JavaCommand
    from mqadmin.cli.main import main
    from mqadmin.cli.registry import lookup

    entry = lookup(args[0])
    assert entry is not None
    cmd = load_command(entry)
    assert isinstance(cmd, JavaCommand) and cmd.spec.blocking, f"{args[0]} is not a blocking command"
    with monkeypatch.context() as m:
        for k, v in env.items():
            m.setenv(k, v)
        if loop:
            m.setattr(cmd.spec, "blocking", False)
        capfd.readouterr()
        with pytest.raises(SystemExit) as ei:
            main(args)
        out, err = capfd.readouterr()
    return int(ei.value.code or 0), out, err


def same_either_way(
    args: list[str], env: dict[str, str], capfd: Any, monkeypatch: pytest.MonkeyPatch
) -> tuple[int, str, str]:
    blocking = run_here(args, loop=False, env=env, capfd=capfd, monkeypatch=monkeypatch)
    on_loop = run_here(args, loop=True, env=env, capfd=capfd, monkeypatch=monkeypatch)
    assert _when_run(blocking) == _when_run(on_loop)
    return blocking


def _when_run(result: tuple[int, str, str]) -> tuple[int, str, str]:
    """The time a document was made (clusterList's ``timestamp``) differs between two runs."""
    code, out, err = result
    return code, re.sub(r'"timestamp": \d+', '"timestamp": 0', out), err


@pytest.mark.parametrize(
    "args",
    [
        ["topicRoute", "-t", TOPIC],
        ["topicRoute", "-t", TOPIC, "-l"],
        ["topicRoute", "-t", TOPIC, "--json"],
        ["topicClusterList", "-t", TOPIC],
        ["topicList"],
        ["topicList", "--json"],
        ["topicStatus", "-t", TOPIC],
        ["topicStatus", "-t", TOPIC, "-c", "DefaultCluster", "--json"],
        ["clusterList", "-m"],
        ["clusterList", "-c", "DefaultCluster", "-m", "--json"],
        ["getBrokerConfig", "-b", BROKER],
        ["getNamesrvConfig", "--json"],
        ["queryMsgByKey", "-t", TOPIC, "-k", "key-m1"],
        ["queryMsgByKey", "-t", TOPIC, "-k", "key-m2", "--json"],
    ],
    ids=" ".join,
)
def test_answers_are_the_same(cluster: Cluster, args: list[str], capfd: Any, monkeypatch: Any) -> None:
    args = [args[0], "-n", cluster.namesrv, *(cluster.addr if a == BROKER else a for a in args[1:])]
    code, out, err = same_either_way(args, cluster.env, capfd, monkeypatch)
    assert (code, err) == (0, "")
    seen = ("DefaultCluster", "broker-a", TOPIC, "rocketmqHome", "#Message ID")
    assert any(word in out for word in seen)
    if "--json" in args:
        doc = json.loads(out)
        keys = ("brokers", "queues", "brokerDatas", "topics", "nameServers", "messages")
        assert any(doc.get(k) for k in keys), doc


def test_a_missing_topic_is_the_same(cluster: Cluster, capfd: Any, monkeypatch: Any) -> None:
    for args in (["topicRoute", "-t", "NoSuchTopic"], ["topicStatus", "-t", "NoSuchTopic"]):
        code, _, err = same_either_way(
            [args[0], "-n", cluster.namesrv, *args[1:]], cluster.env, capfd, monkeypatch
        )
        assert code == 7 and "NoSuchTopic" in err


def test_failures_are_the_same(cluster: Cluster, silent: SilentPeer, capfd: Any, monkeypatch: Any) -> None:
    env = cluster.env
    # every name server down: each is tried, one line names them all
    code, _, err = same_either_way(
        ["topicRoute", "-n", f"{closed_addr()};{closed_addr()}", "-t", TOPIC], env, capfd, monkeypatch
    )
    assert code == 4 and "no name server answered" in err
    # a name server that never answers: the timeout that applied
    started = time.monotonic()
    code, _, err = same_either_way(
        ["topicRoute", "-n", silent.addr, "-t", TOPIC, "--timeout", "0.5"], env, capfd, monkeypatch
    )
    assert time.monotonic() - started < 8
    assert code != 0 and "within 0.5 s" in err, err
    # TLS against a plain port, and a broker's port given as the name server's
    code, _, err = same_either_way(
        ["topicRoute", "-n", cluster.namesrv, "-t", TOPIC, "--tls"], env, capfd, monkeypatch
    )
    assert code != 0 and cluster.namesrv in err
    code, _, err = same_either_way(["topicRoute", "-n", cluster.addr, "-t", TOPIC], env, capfd, monkeypatch)
    assert code != 0 and f"{cluster.addr} is a broker, not a name server" in err


# ------------------------------------------------------------------------------ failover


def test_the_next_name_server_answers(cluster: Cluster, silent: SilentPeer) -> None:
    expected = cluster.mqadmin("topicRoute", "-t", TOPIC)
    assert expected.code == 0
    for first, timeout in ((closed_addr(), "3"), (silent.addr, "1")):
        started = time.monotonic()
        r = cluster.mqadmin(
            "topicRoute", "-n", f"{first};{cluster.namesrv}", "-t", TOPIC, "--timeout", timeout
        )
        assert (r.code, r.out, r.err) == (0, expected.out, "")
        assert time.monotonic() - started < float(timeout) + 2


# ------------------------------------------------------------------------------ the client itself


class _LoopThread:
    """An asyncio server on its own thread (the blocking client must not share its loop)."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()

    def run(self, coro: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(10)

    def stop(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)


def test_tls_round_trip(tmp_path: Path) -> None:
    from tests.remoting.test_remoting import ECHO, _tls_contexts, started_server

    server_ctx, client_ctx = _tls_contexts(tmp_path)
    loop = _LoopThread()
    try:
        tls_server = loop.run(started_server(ssl=server_ctx))
        plain_server = loop.run(started_server())
        client = BlockingClient(connect_timeout=2.0, ssl=client_ctx)
        for i in range(5):  # one connection, reused
            resp = run_sync(
                client.call(tls_server.address, RemotingCommand.request(ECHO, {"i": str(i)}), 2.0)
            )
            assert resp.ext("i") == str(i)
        assert list(client.connections) == [tls_server.address]
        run_sync(client.close())
        # a plain client cannot talk to the TLS server, and the TLS server survives that
        plain = BlockingClient(connect_timeout=2.0)
        with pytest.raises((RemotingClosedError, RemotingTimeoutError)):
            plain.invoke_blocking(tls_server.address, RemotingCommand.request(ECHO), 1.0)
        again = BlockingClient(connect_timeout=2.0, ssl=client_ctx)
        assert again.invoke_blocking(tls_server.address, RemotingCommand.request(ECHO), 2.0).code == 0
        # a TLS client against a plain server fails to connect, naming it
        with pytest.raises(RemotingConnectError) as ei:
            again.invoke_blocking(plain_server.address, RemotingCommand.request(ECHO), 2.0)
        assert ei.value.addr == plain_server.address
        loop.run(tls_server.stop())
        loop.run(plain_server.stop())
    finally:
        loop.stop()


def test_a_closed_idle_connection_is_replaced() -> None:
    from tests.remoting.test_remoting import ECHO, started_server

    loop = _LoopThread()
    try:
        server = loop.run(started_server())
        client = BlockingClient(connect_timeout=2.0)
        assert client.invoke_blocking(server.address, RemotingCommand.request(ECHO), 2.0).code == 0
        first = client.connections[server.address]
        first.sock.shutdown(2)  # as if the peer had closed it while idle
        assert client.invoke_blocking(server.address, RemotingCommand.request(ECHO), 2.0).code == 0
        assert client.connections[server.address] is not first
        loop.run(server.stop())
    finally:
        loop.stop()


def test_a_call_that_awaits_a_loop_is_refused() -> None:
    async def needs_a_loop() -> None:
        await asyncio.sleep(0)

    with pytest.raises(RuntimeError, match="without an event loop"):
        run_sync(needs_a_loop())
