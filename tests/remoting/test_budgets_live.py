"""Every budget before any work, against our real name server and broker processes on loopback.

- A 12 MiB header of 900,000 fields, sent three times back to back (unsigned, with a real ACL 1.0
  admin key and a wrong signature, with a real ACL 2.0 super user's name), is refused from its
  length: each gets one answer, the connection stays usable, and another client's request is
  answered within 0.5 s throughout (it waited 4-10 s when the header was decoded and signed first).
- Sixteen clients that send route queries for a 150-broker route (about 32 KB each) back to back and
  never read keep the name server under 128 MB; it falls back once they close. The same for pull
  answers of the broker.
- A read holding thousands of frames does not hold the loop: another client is answered meanwhile.
"""

from __future__ import annotations

import json
import re
import socket
import struct
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from mqadmin.protocol.acl import RequestSigner
from mqadmin.protocol.codes import RequestCode, ResponseCode
from mqadmin.protocol.command import RemotingCommand
from mqadmin.protocol.frame import decode, encode
from tests.namesrv.support import register_body, register_request, topic_config
from tests.servers import BrokerProcess, NameServerProcess

HOT = "HotTopic"
BROKERS = 150
CROWD = 16
RSS_CAP = 128 * 1024 * 1024
LATENCY = 0.5

ACL1_ADMIN = ("AdminAK01", "AdminSK01")
ROOT = ("rootUser", "rootSecret")  # an ACL 2.0 super user, and an ACL 1.0 admin account of the same keys
PLAIN_ACL = f"""\
accounts:
  - accessKey: {ACL1_ADMIN[0]}
    secretKey: {ACL1_ADMIN[1]}
    admin: true
  - accessKey: {ROOT[0]}
    secretKey: {ROOT[1]}
    admin: true
"""


# ------------------------------------------------------------------------------ raw wire


def rss(pid: int) -> int:
    m = re.search(r"VmRSS:\s+(\d+) kB", Path(f"/proc/{pid}/status").read_text())
    assert m
    return int(m.group(1)) * 1024


def connect(addr: str, timeout: float = 5.0) -> socket.socket:
    host, _, port = addr.rpartition(":")
    return socket.create_connection((host, int(port)), timeout=timeout)


def read_frame(sock: socket.socket) -> RemotingCommand:
    head = _read(sock, 4)
    (total,) = struct.unpack(">i", head)
    return decode(head + _read(sock, total))


def _read(sock: socket.socket, n: int) -> bytes:
    out = bytearray()
    while len(out) < n:
        chunk = sock.recv(min(n - len(out), 1 << 20))
        if not chunk:
            raise ConnectionError("closed by the server")
        out += chunk
    return bytes(out)


def ask(sock: socket.socket, cmd: RemotingCommand) -> RemotingCommand:
    sock.sendall(encode(cmd))
    resp = read_frame(sock)
    assert resp.opaque == cmd.opaque
    return resp


class Prober:
    """Another client asking ``probe()`` over and over on its own connection while something else
    goes on; the slowest answer is kept."""

    def __init__(self, addr: str, probe: Callable[[], RemotingCommand]) -> None:
        self.sock = connect(addr)
        self.probe = probe
        self.slowest = 0.0
        self.answered = 0
        self.codes: set[int] = set()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.is_set():
            started = time.monotonic()
            resp = ask(self.sock, self.probe())
            self.slowest = max(self.slowest, time.monotonic() - started)
            self.codes.add(resp.code)
            self.answered += 1
            time.sleep(0.02)

    def __enter__(self) -> Prober:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(timeout=10)
        self.sock.close()


# ------------------------------------------------------------------------------ the huge header


def huge_header(code: int, access_key: str | None) -> RemotingCommand:
    """900,000 ext fields, 12 MiB of header; with ``access_key``, a signature that is wrong."""
    ext = {f"f{i:06d}": "v" for i in range(900_000)}
    if access_key is not None:
        ext["AccessKey"] = access_key
        ext["Signature"] = "AAAAAAAAAAAAAAAAAAAAAAAAAAA="
    return RemotingCommand.request(code, ext)


@pytest.fixture(scope="module")
def acl_broker(
    tmp_path_factory: pytest.TempPathFactory, namesrv: NameServerProcess
) -> Iterator[BrokerProcess]:
    """A 5.3.3 broker with ACL 1.0 (aclEnable) and ACL 2.0 (authentication and authorization) on."""
    work = tmp_path_factory.mktemp("acl-broker")
    (work / "home" / "conf").mkdir(parents=True)
    (work / "home" / "conf" / "plain_acl.yml").write_text(PLAIN_ACL)
    broker = BrokerProcess(
        work / "broker",
        namesrv.addr,
        brokerName="budget-acl",
        rocketmqVersion="5.3.3",
        aclEnable="true",
        rocketmqHome=work / "home",
        authenticationEnabled="true",
        authorizationEnabled="true",
        initAuthenticationUser=json.dumps({"username": ROOT[0], "password": ROOT[1]}),
    )
    try:
        yield broker
    finally:
        broker.stop()
        broker.kill()


def _signed(code: int) -> RemotingCommand:
    cmd = RemotingCommand.request(code)
    RequestSigner(*ROOT)(cmd)
    return cmd


def test_a_signed_request_is_answered_under_both_acls(acl_broker: BrokerProcess) -> None:
    """The happy path beside the refusals below: the probe itself is let through."""
    with connect(acl_broker.addr) as sock:
        assert ask(sock, _signed(RequestCode.GET_BROKER_RUNTIME_INFO)).code == ResponseCode.SUCCESS
        unsigned = ask(sock, RemotingCommand.request(RequestCode.GET_BROKER_RUNTIME_INFO))
        assert unsigned.code == ResponseCode.NO_PERMISSION


def test_900k_field_headers_are_refused_from_their_length_while_others_are_answered(
    acl_broker: BrokerProcess,
) -> None:
    code = RequestCode.GET_BROKER_CONFIG
    hostile = [huge_header(code, None), huge_header(code, ACL1_ADMIN[0]), huge_header(code, ROOT[0])]
    frames = [encode(cmd) for cmd in hostile]
    assert all(len(f) > 12 * 1024 * 1024 for f in frames)
    with connect(acl_broker.addr, timeout=30) as sock:
        with Prober(acl_broker.addr, lambda: _signed(RequestCode.GET_BROKER_RUNTIME_INFO)) as prober:
            time.sleep(0.2)
            started = time.monotonic()
            sock.sendall(b"".join(frames))  # back to back
            answers = [read_frame(sock) for _ in hostile]
            took = time.monotonic() - started
            time.sleep(0.2)
        # one answer each, the caller's opaque, refused for the header's size, nothing decoded or signed
        for cmd, resp in zip(hostile, answers, strict=True):
            assert resp.opaque == cmd.opaque
            assert resp.code == ResponseCode.SYSTEM_ERROR
            assert "header of" in (resp.remark or "") and "over its limit" in (resp.remark or ""), resp.remark
        # the connection is kept, as for a body over budget: the next request on it is served
        assert ask(sock, _signed(RequestCode.GET_BROKER_RUNTIME_INFO)).code == ResponseCode.SUCCESS
    assert prober.answered >= 5 and prober.codes == {ResponseCode.SUCCESS}
    assert prober.slowest < LATENCY, (prober.slowest, took)
    assert acl_broker.server.proc is not None and acl_broker.server.proc.poll() is None


# ------------------------------------------------------------------------------ unread answers


def _route_query(topic: str = HOT) -> RemotingCommand:
    return RemotingCommand.request(RequestCode.GET_ROUTEINFO_BY_TOPIC, {"topic": topic})


class Crowd:
    """Connections that send ``frame`` back to back and never read, until the server stops taking
    them (its socket buffers and its own output budget full)."""

    def __init__(self, addr: str, frame: bytes, count: int = CROWD, per_write: int = 64) -> None:
        self.socks = [connect(addr) for _ in range(count)]
        self.sent = [0] * count
        batch = frame * per_write
        threads = [threading.Thread(target=self._flood, args=(i, batch), daemon=True) for i in range(count)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=60)

    def _flood(self, i: int, batch: bytes) -> None:
        sock = self.socks[i]
        sock.settimeout(1.5)
        try:
            while self.sent[i] < 64 * 1024 * 1024:  # the server would have to queue many times that
                sock.sendall(batch)
                self.sent[i] += len(batch)
        except (TimeoutError, OSError):
            pass  # the server stopped reading this connection

    def close(self) -> None:
        for s in self.socks:
            s.close()


def fallen_back(before: int, held: int) -> int:
    """What a server's RSS must fall back under once the crowd is gone: within 16 MB of where it was,
    or half-way back at least (the C allocator keeps some of a heap that queued answers fragmented)."""
    return before + max(16 * 1024 * 1024, (held - before) // 2)


def _settle_rss(pid: int, below: int, within: float = 10.0) -> int:
    deadline = time.monotonic() + within
    now = rss(pid)
    while now > below and time.monotonic() < deadline:
        time.sleep(0.2)
        now = rss(pid)
    return now


@pytest.fixture(scope="module")
def hot_namesrv(tmp_path_factory: pytest.TempPathFactory) -> Iterator[NameServerProcess]:
    """One name-server process holding a 150-broker route for :data:`HOT`."""
    ns = NameServerProcess(tmp_path_factory.mktemp("hot-namesrv"), args=("--workers", "1"))
    try:
        reg = connect(ns.addr)
        ns.keep(reg)  # the brokers stay while their channel is open
        for i in range(BROKERS):
            name = f"broker-{i:03d}-with-a-long-enough-name"
            # two topics: a registration of one topic alone must follow a full one (as in Java)
            body = register_body([topic_config(HOT, read=8, write=8), topic_config(f"Own{i}")])
            cmd = register_request("HotCluster", name, 0, f"10.1.{i // 250}.{i % 250}:10911", body)
            assert ask(reg, cmd).code == ResponseCode.SUCCESS
        yield ns
    finally:
        ns.stop()


def test_a_reading_client_gets_the_whole_route(hot_namesrv: NameServerProcess) -> None:
    with connect(hot_namesrv.addr) as sock:
        resp = ask(sock, _route_query())
        assert resp.code == ResponseCode.SUCCESS
        route = json.loads(resp.body or b"")
        assert len(route["brokerDatas"]) == BROKERS
        assert len(resp.body or b"") > 30_000
        # pipelined: many answers, each whole and in order
        queries = [_route_query() for _ in range(200)]
        sock.sendall(b"".join(encode(q) for q in queries))
        for q in queries:
            answer = read_frame(sock)
            assert answer.opaque == q.opaque and answer.body == resp.body


def test_non_reading_clients_leave_the_name_server_small(hot_namesrv: NameServerProcess) -> None:
    proc = hot_namesrv.server.proc
    assert proc is not None
    before = rss(proc.pid)
    with Prober(hot_namesrv.addr, _route_query) as prober:
        crowd = Crowd(hot_namesrv.addr, encode(_route_query()))
        try:
            held = rss(proc.pid)
            assert min(crowd.sent) > 0
            assert held < RSS_CAP, (before, held, crowd.sent)
        finally:
            crowd.close()
    assert prober.slowest < LATENCY and prober.codes == {ResponseCode.SUCCESS}
    after = _settle_rss(proc.pid, fallen_back(before, held))
    assert after <= fallen_back(before, held), (before, held, after)
    with connect(hot_namesrv.addr) as sock:  # still serving
        assert ask(sock, _route_query()).code == ResponseCode.SUCCESS


def test_a_read_of_thousands_of_frames_does_not_hold_the_loop(hot_namesrv: NameServerProcess) -> None:
    """Queries the general path answers (a remark keeps them off the fast path) and fast-path ones."""
    slow = _route_query()
    slow.remark = ""
    with connect(hot_namesrv.addr, timeout=60) as sock, Prober(hot_namesrv.addr, _route_query) as prober:
        for query in (slow, _route_query()):
            count = 3000
            sock.sendall(encode(query) * count)
            got = 0
            while got < count:
                read_frame(sock)
                got += 1
    assert prober.slowest < LATENCY, prober.slowest


# ------------------------------------------------------------------------------ pull answers

PULL_TOPIC = "PullBudgetTopic"
MESSAGE = b"m" * 16_000


@pytest.fixture(scope="module")
def stocked_broker(
    tmp_path_factory: pytest.TempPathFactory, namesrv: NameServerProcess
) -> Iterator[BrokerProcess]:
    """A broker with 64 messages of 16 KB in queue 0 of :data:`PULL_TOPIC`: a pull answers 256 KB
    (Java's ``maxTransferBytesOnMessageInMemory``)."""
    broker = BrokerProcess(tmp_path_factory.mktemp("pull-broker"), namesrv.addr, brokerName="budget-pull")
    try:
        with connect(broker.addr) as sock:
            create = {
                "topic": PULL_TOPIC, "defaultTopic": "TBW102", "readQueueNums": "1", "writeQueueNums": "1",
                "perm": "6", "topicFilterType": "SINGLE_TAG", "topicSysFlag": "0", "order": "false",
            }  # fmt: skip
            r = ask(sock, RemotingCommand.request(RequestCode.UPDATE_AND_CREATE_TOPIC, create))
            assert r.code == ResponseCode.SUCCESS, r.remark
            for i in range(64):
                ext = {
                    "a": "BudgetPG", "b": PULL_TOPIC, "c": "TBW102", "d": "1", "e": "0", "f": "0",
                    "g": str(int(time.time() * 1000)), "h": "0", "i": f"KEYS\x01k{i}\x02", "j": "0",
                    "k": "false", "m": "false",
                }  # fmt: skip
                r = ask(sock, RemotingCommand.request(RequestCode.SEND_MESSAGE_V2, ext, MESSAGE))
                assert r.code == ResponseCode.SUCCESS, r.remark
        yield broker
    finally:
        broker.stop()
        broker.kill()


def _pull() -> RemotingCommand:
    ext = {
        "consumerGroup": "BudgetCG", "topic": PULL_TOPIC, "queueId": "0", "queueOffset": "0",
        "maxMsgNums": "32", "sysFlag": "4", "commitOffset": "0", "suspendTimeoutMillis": "0",
        "subVersion": "0", "subscription": "*",
    }  # fmt: skip
    return RemotingCommand.request(RequestCode.PULL_MESSAGE, ext)


def test_a_reading_consumer_gets_whole_pull_answers(stocked_broker: BrokerProcess) -> None:
    with connect(stocked_broker.addr) as sock:
        pulls = [_pull() for _ in range(20)]
        sock.sendall(b"".join(encode(p) for p in pulls))
        for p in pulls:
            answer = read_frame(sock)
            assert answer.opaque == p.opaque and answer.code == ResponseCode.SUCCESS
            assert len(answer.body or b"") > 15 * len(MESSAGE)  # what one pull may carry: 256 KB


def test_non_reading_pullers_leave_the_broker_small(stocked_broker: BrokerProcess) -> None:
    proc = stocked_broker.server.proc
    assert proc is not None
    before = rss(proc.pid)

    def probe() -> RemotingCommand:
        return RemotingCommand.request(RequestCode.GET_BROKER_RUNTIME_INFO)

    with Prober(stocked_broker.addr, probe) as prober:
        crowd = Crowd(stocked_broker.addr, encode(_pull()), per_write=16)
        try:
            held = rss(proc.pid)
            assert min(crowd.sent) > 0
            assert held < RSS_CAP, (before, held, crowd.sent)
        finally:
            crowd.close()
    assert prober.slowest < LATENCY and prober.codes == {ResponseCode.SUCCESS}
    after = _settle_rss(proc.pid, fallen_back(before, held))
    assert after <= fallen_back(before, held), (before, held, after)
