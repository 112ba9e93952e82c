"""Where a static topic's requests are forwarded, over real sockets: our name server, two of our
brokers of one cluster (5.3.3, ACL 2.0 on, the same inner credentials), and listeners an attacker
registered with the name server.

A logical queue whose older generation lives on another broker is read there: broker-b asks broker-a,
signed with its inner credentials, and serves the old messages. A mapping that names a broker of
another cluster (registered by anyone with the name server) is not followed: nothing connects to
that broker's address, no credentials leave, the answer says the broker is not found in this
cluster. A forward that fails reads the same whether the port was closed, reset the connection or
never answered, and the broker serves other clients while one waits.
"""

from __future__ import annotations

import asyncio
import json
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field

import pytest

from mqadmin.admin.settings import Credentials
from mqadmin.admin.signing import AclSigner
from mqadmin.broker.processors.static_forward import FORWARD_FAILED
from mqadmin.protocol.bodies.static_topic import LogicQueueMappingItem, TopicQueueMappingDetail
from mqadmin.protocol.codes import RequestCode, ResponseCode
from mqadmin.protocol.command import RemotingCommand
from mqadmin.protocol.frame import FrameDecoder, encode
from mqadmin.protocol.message_record import decode_messages
from mqadmin.remoting.client import RemotingClient
from tests import servers
from tests.broker.peers import call
from tests.cli_harness import Result, clean_env, run_mqadmin
from tests.namesrv.support import register_body, register_request
from tests.servers import BrokerProcess, NameServerProcess, free_port

ROOT = Credentials("rootUser", "rootSecret")
INNER = Credentials("innerUser", "innerSecretKey")
CLUSTER = "DefaultCluster"
V5 = "5.3.3"
PULL_SUCCESS = ResponseCode.SUCCESS


# ---------------------------------------------------------------------------------- peers


@dataclass
class Listener:
    """A TCP listener on loopback that records every connection and the bytes it got; ``mode``:
    ``silent`` (reads, never answers) or ``reset`` (closes at once)."""

    mode: str = "silent"
    sock: socket.socket = field(default_factory=socket.socket)
    accepted: int = 0
    received: bytearray = field(default_factory=bytearray)

    def __post_init__(self) -> None:
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.addr = f"127.0.0.1:{self.sock.getsockname()[1]}"
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.accepted += 1
            if self.mode == "reset":
                conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
                conn.close()
                continue
            threading.Thread(target=self._read, args=(conn,), daemon=True).start()

    def _read(self, conn: socket.socket) -> None:
        with conn:
            while chunk := conn.recv(65536):
                self.received += chunk

    def close(self) -> None:
        self.sock.close()


@dataclass
class Cluster:
    ns: NameServerProcess
    a: BrokerProcess
    b: BrokerProcess
    env: dict[str, str]

    def mq(self, *args: str) -> Result:
        creds = ["--access-key", ROOT.access_key, "--secret-key", ROOT.secret_key]
        return run_mqadmin([args[0], "-n", self.ns.addr, *args[1:], *creds], self.env, timeout=60)


AUTH_BROKER: dict[str, object] = {
    "rocketmqVersion": V5,
    "authenticationEnabled": "true",
    "authorizationEnabled": "true",
    "initAuthenticationUser": json.dumps({"username": ROOT.access_key, "password": ROOT.secret_key}),
    "innerClientAuthenticationCredentials": json.dumps(
        {"accessKey": INNER.access_key, "secretKey": INNER.secret_key}
    ),
}


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    root = tmp_path_factory.mktemp("scope")
    brokers = {name: {**AUTH_BROKER, "brokerName": f"broker-{name}"} for name in "ab"}
    with servers.Cluster(root, brokers) as c:
        env = clean_env(root / "home", root / "cfg")
        (root / "plans").mkdir()
        env["TMPDIR"] = str(root / "plans")
        yield Cluster(c.ns, *c.brokers, env)


# ---------------------------------------------------------------------------------- requests


def as_root(addr: str, code: int, ext: dict[str, str], body: bytes | None = None) -> RemotingCommand:
    cmd = RemotingCommand.request(code, ext, body)
    AclSigner(ROOT)(cmd)
    return call(addr, cmd, timeout=15)


def pull_ext(topic: str, offset: int = 0) -> dict[str, str]:
    return {
        "consumerGroup": "ScopeGroup",
        "topic": topic,
        "queueId": "0",
        "queueOffset": str(offset),
        "maxMsgNums": "32",
        "sysFlag": "4",  # the subscription comes with the request
        "commitOffset": "0",
        "suspendTimeoutMillis": "0",
        "subscription": "*",
        "subVersion": "0",
    }


def pull(addr: str, topic: str, offset: int) -> RemotingCommand:
    return as_root(addr, RequestCode.PULL_MESSAGE, pull_ext(topic, offset))


def forwarded_requests(addr: str, topic: str) -> list[tuple[str, RemotingCommand]]:
    """Every request of a logical queue whose oldest generation may live elsewhere."""
    q = {"topic": topic, "queueId": "0"}
    group = {**q, "consumerGroup": "ScopeGroup"}
    return [
        ("pull", pull(addr, topic, 0)),
        ("min", as_root(addr, RequestCode.GET_MIN_OFFSET, q)),
        ("earliest", as_root(addr, RequestCode.GET_EARLIEST_MSG_STORETIME, q)),
        ("search", as_root(addr, RequestCode.SEARCH_OFFSET_BY_TIMESTAMP, {**q, "timestamp": "0"})),
        ("commit", as_root(addr, RequestCode.UPDATE_CONSUMER_OFFSET, {**group, "commitOffset": "1"})),
        ("query", as_root(addr, RequestCode.QUERY_CONSUMER_OFFSET, group)),
    ]


class FakeBrokers:
    """What anyone on the network can do: register brokers of any name and cluster with the name
    server, each over a connection kept open (the name server forgets a broker whose channel closes)."""

    def __init__(self, ns: NameServerProcess) -> None:
        self.ns = ns
        self.socks: list[socket.socket] = []

    def register(self, cluster: str, name: str, addr: str) -> None:
        cmd = register_request(cluster, name, 0, addr, register_body([]))
        host, port = self.ns.addr.rsplit(":", 1)
        s = socket.create_connection((host, int(port)), timeout=10)
        self.socks.append(s)
        s.sendall(encode(cmd))
        decoder = FrameDecoder()
        while True:
            data = s.recv(65536)
            assert data, "the name server closed the connection"
            for frame in decoder.feed(data):
                assert frame.opaque == cmd.opaque and frame.code == ResponseCode.SUCCESS, frame.remark
                return

    def close(self) -> None:
        for s in self.socks:
            s.close()


@pytest.fixture
def fakes(cluster: Cluster) -> Iterator[FakeBrokers]:
    f = FakeBrokers(cluster.ns)
    try:
        yield f
    finally:
        f.close()


def map_onto(cluster: Cluster, topic: str, foreign: str) -> None:
    """513 to broker-a (as root): ``topic``'s logical queue 0 had a first generation on ``foreign``
    (offsets 0..4) and is now led by broker-a from logical offset 10000."""
    items = [
        LogicQueueMappingItem(gen=0, queue_id=0, bname=foreign, logic_offset=0, start_offset=0, end_offset=5),
        LogicQueueMappingItem(gen=1, queue_id=0, bname="broker-a", logic_offset=10000, start_offset=0),
    ]
    detail = TopicQueueMappingDetail(
        topic=topic,
        scope="__global__",
        total_queues=1,
        bname="broker-a",
        epoch=int(time.time() * 1000),
        dirty=False,
        curr_id_map={0: 0},
        hosted_queues={0: items},
    )
    ext = {
        "topic": topic,
        "defaultTopic": "TBW102",
        "readQueueNums": "1",
        "writeQueueNums": "1",
        "perm": "6",
        "topicFilterType": "SINGLE_TAG",
        "topicSysFlag": "0",
        "order": "false",
    }
    resp = as_root(cluster.a.addr, RequestCode.UPDATE_AND_CREATE_STATIC_TOPIC, ext, detail.encode())
    assert resp.code == ResponseCode.SUCCESS, resp.remark


# ---------------------------------------------------------------------------------- happy path


def test_an_older_generation_is_read_on_a_broker_of_the_same_cluster(cluster: Cluster) -> None:
    r = cluster.mq("updateStaticTopic", "-b", "broker-a", "-t", "ScopeMove", "-qn", "1")
    assert r.code == 0, r.err
    for i in range(3):
        r = cluster.mq("sendMessage", "-t", "ScopeMove", "-p", f"old{i}", "-b", "broker-a", "-i", "0")
        assert r.code == 0, r.err
    r = cluster.mq("remappingStaticTopic", "-b", "broker-b", "-t", "ScopeMove")
    assert r.code == 0, r.err
    # broker-b leads now; the old messages are on broker-a, asked there with the inner credentials
    resp = pull(cluster.b.addr, "ScopeMove", 0)
    assert resp.code == PULL_SUCCESS, resp.remark
    assert [m.body for m in decode_messages(resp.body or b"")] == [b"old0", b"old1", b"old2"]
    for what, resp in forwarded_requests(cluster.b.addr, "ScopeMove"):
        assert resp.code == ResponseCode.SUCCESS, (what, resp.remark)


# ---------------------------------------------------------------------------------- hostile


def test_a_broker_of_another_cluster_is_never_asked(cluster: Cluster, fakes: FakeBrokers) -> None:
    evil = Listener()
    try:
        fakes.register("EvilCluster", "broker-evil", evil.addr)
        map_onto(cluster, "ScopeEvil", "broker-evil")
        not_here = f"Can't find addr for broker broker-evil in cluster {CLUSTER}"
        for what, resp in forwarded_requests(cluster.a.addr, "ScopeEvil"):
            assert resp.code == ResponseCode.SYSTEM_ERROR, (what, resp.code, resp.remark)
            assert resp.remark == not_here, (what, resp.remark)
            assert not resp.body, what
        time.sleep(0.2)
        assert evil.accepted == 0 and not evil.received  # no connection, no credentials
        assert INNER.access_key.encode() not in bytes(evil.received)
        # the topic's own generation is served as before
        own = as_root(cluster.a.addr, RequestCode.GET_MAX_OFFSET, {"topic": "ScopeEvil", "queueId": "0"})
        assert own.ext("offset") == "10000"
    finally:
        evil.close()


def test_a_broker_name_moved_to_another_cluster_is_not_followed(cluster: Cluster, fakes: FakeBrokers) -> None:
    """The name server's table lists the name under this cluster, but its entry names another."""
    evil = Listener()
    try:
        fakes.register("EvilCluster", "broker-twice", evil.addr)
        fakes.register(CLUSTER, "broker-twice", evil.addr)
        map_onto(cluster, "ScopeTwice", "broker-twice")
        resp = pull(cluster.a.addr, "ScopeTwice", 0)
        assert resp.code == ResponseCode.SYSTEM_ERROR and "Can't find addr" in (resp.remark or ""), (
            resp.remark
        )
        assert evil.accepted == 0
    finally:
        evil.close()


def test_a_failed_forward_does_not_tell_a_closed_port_from_an_open_one(
    cluster: Cluster, fakes: FakeBrokers
) -> None:
    # names registered under this broker's own cluster: the forward is attempted (a name server
    # that lets anyone register a broker of this cluster is the limit of what a broker can check)
    closed = free_port()
    reset = Listener(mode="reset")
    silent = Listener(mode="silent")
    try:
        for name, addr in (("broker-closed", f"127.0.0.1:{closed}"), ("broker-reset", reset.addr),
                           ("broker-silent", silent.addr)):  # fmt: skip
            fakes.register(CLUSTER, name, addr)
            map_onto(cluster, f"Scope-{name}", name)
        remarks = {}
        for name in ("broker-closed", "broker-reset"):
            resp = pull(cluster.a.addr, f"Scope-{name}", 0)
            remarks[name] = (resp.code, resp.remark)

        async def silent_pull_and_another_client() -> tuple[RemotingCommand, float]:
            async with RemotingClient() as client:
                cmd = RemotingCommand.request(RequestCode.PULL_MESSAGE, pull_ext("Scope-broker-silent"))
                AclSigner(ROOT)(cmd)
                waiting = asyncio.ensure_future(client.invoke(cluster.a.addr, cmd, 15))
                await asyncio.sleep(0.3)
                other = RemotingCommand.request(RequestCode.GET_BROKER_RUNTIME_INFO, None)
                AclSigner(ROOT)(other)
                t0 = time.monotonic()
                async with RemotingClient() as second:
                    served = await second.invoke(cluster.a.addr, other, 5)
                took = time.monotonic() - t0
                assert served.code == ResponseCode.SUCCESS
                return await waiting, took

        resp, took = asyncio.run(silent_pull_and_another_client())
        assert took < 1.0, took
        remarks["broker-silent"] = (resp.code, resp.remark)
        assert set(remarks.values()) == {(ResponseCode.SYSTEM_ERROR, FORWARD_FAILED)}, remarks
    finally:
        reset.close()
        silent.close()
