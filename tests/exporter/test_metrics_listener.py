"""``exportMetrics --listen`` under a crowd: idle and half-sent connections cannot stall a scrape.

Against our name server and broker as processes, with the real ``mqadmin exportMetrics --listen`` as
a subprocess. ``prometheus_client``'s server, which it used before, gave every connection a thread
and no timeout: at RLIMIT_NOFILE 256, 253 connections that never sent a request made every scrape
time out while its accept loop spun on EMFILE at 100 % CPU. Now a scrape answers within 1 s while
1,000 idle connections are opened on the exporter at that limit (it holds at most
``MAX_CONNECTIONS`` and closes the oldest idle one to make room), a connection that sends half a
request line is closed after ``HEAD_TIMEOUT`` seconds, and a listener out of descriptors stops
accepting for a moment instead of spinning.
"""

from __future__ import annotations

import os
import resource
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
import warnings
from collections.abc import Callable, Iterator

import pytest
from prometheus_client.parser import text_string_to_metric_families

from mqadmin.exporter.server import HEAD_TIMEOUT, MAX_CONNECTIONS
from mqadmin.localcluster import free_port
from tests.admin_group_offset.servers import Cluster
from tests.cli_harness import MQADMIN

TOPIC = "ListenTopic"
GROUP = "ListenGroup"
CROWD = 1000
#: The descriptor limit of the exporter under the crowd: the one the slowloris report was made at.
EXPORTER_NOFILE = 256
_TICK = os.sysconf("SC_CLK_TCK")

Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


def samples(text: str) -> Samples:
    out = {}
    for family in text_string_to_metric_families(text):
        for s in family.samples:
            out[(s.name, tuple(sorted(s.labels.items())))] = s.value
    return out


def lag(found: Samples, queue: int) -> float:
    labels = {"broker": "broker-a", "cluster": "DefaultCluster", "group": GROUP, "queue_id": str(queue)}
    return found[("rocketmq_consumer_lag", tuple(sorted({**labels, "topic": TOPIC}.items())))]


def cpu_seconds(pid: int) -> float:
    """User plus system time of ``pid`` so far, from /proc/PID/stat."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / _TICK


def nofile(limit: int) -> Callable[[], None]:
    def lower() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (limit, resource.getrlimit(resource.RLIMIT_NOFILE)[1]))

    return lower


class Exporter:
    """``mqadmin exportMetrics --listen 127.0.0.1:PORT`` as a process (optionally under a lower
    RLIMIT_NOFILE); its stderr is read as it comes."""

    def __init__(self, cluster: Cluster, limit: int | None = None) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}/metrics"
        argv = [MQADMIN, "exportMetrics", "-n", cluster.namesrv, "-c", "DefaultCluster"]
        argv += ["--listen", f"127.0.0.1:{self.port}"]
        self.proc = subprocess.Popen(
            argv,
            env=cluster.env,
            stderr=subprocess.PIPE,
            text=True,
            preexec_fn=nofile(limit) if limit is not None else None,
        )
        assert self.proc.stderr is not None
        line = self.proc.stderr.readline()
        assert line == f"mqadmin exportMetrics: serving {self.url}\n", line
        self.err: list[str] = []
        stream = self.proc.stderr
        threading.Thread(target=lambda: self.err.extend(stream), daemon=True).start()

    def scrape(self, timeout: float = 10.0) -> tuple[int, str, str, float]:
        """Status, Content-Type, body and seconds taken of one GET /metrics."""
        started = time.monotonic()
        with urllib.request.urlopen(self.url, timeout=timeout) as r:
            body = r.read().decode()
            return r.status, r.headers["Content-Type"], body, time.monotonic() - started

    def descriptors(self) -> int:
        return len(os.listdir(f"/proc/{self.proc.pid}/fd"))

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                assert self.proc.wait(10) == 0
            finally:
                if self.proc.poll() is None:
                    self.proc.kill()
                    self.proc.wait()


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    c = Cluster(tmp_path_factory.mktemp("listen"))
    try:
        c.create_topic(TOPIC, queues=2)
        r = c.mqadmin("updateSubGroup", "-b", c.addr, "-g", GROUP)
        assert r.code == 0, r.err
        for i in range(3):
            r = c.mqadmin("sendMessage", "-t", TOPIC, "-p", f"m{i}", "-i", "0", "-b", "broker-a")
            assert r.code == 0, r.err
        c.commit(GROUP, TOPIC, 0, 1)
        c.commit(GROUP, TOPIC, 1, 0)
        yield c
    finally:
        c.stop()


@pytest.fixture(scope="module")
def exporter(cluster: Cluster) -> Iterator[Exporter]:
    e = Exporter(cluster)
    try:
        yield e
    finally:
        e.stop()


@pytest.fixture
def many_descriptors() -> Iterator[int]:
    """Raise this process's RLIMIT_NOFILE so that it can hold the crowd (up to the hard limit); the
    number of connections it can open."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = CROWD + 200
    if soft != resource.RLIM_INFINITY and soft < want:
        raised = want if hard == resource.RLIM_INFINITY else min(want, hard)
        resource.setrlimit(resource.RLIMIT_NOFILE, (raised, hard))
    try:
        now = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
        yield CROWD if now == resource.RLIM_INFINITY else min(CROWD, now - 200)
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def open_crowd(port: int, count: int, send: bytes = b"") -> list[socket.socket]:
    crowd = []
    for _ in range(count):
        s = socket.create_connection(("127.0.0.1", port), timeout=5)
        if send:
            s.sendall(send)
        crowd.append(s)
    return crowd


def closed_by_server(s: socket.socket) -> bool:
    s.setblocking(False)
    try:
        return s.recv(1) == b""
    except BlockingIOError:
        return False
    except OSError:
        return True


def test_a_scrape_returns_the_metrics(cluster: Cluster, exporter: Exporter) -> None:
    status, content_type, body, _ = exporter.scrape()
    assert status == 200
    assert content_type == "text/plain; version=0.0.4; charset=utf-8"
    found = samples(body)
    for q in (0, 1):
        assert lag(found, q) == cluster.max_offset(TOPIC, q) - cluster.committed(GROUP, TOPIC, q)
    assert lag(found, 0) + lag(found, 1) == 2  # three sent to queue 0, one consumed
    up = (
        "rocketmq_broker_up",
        (("addr", cluster.addr), ("broker", "broker-a"), ("cluster", "DefaultCluster")),
    )
    assert found[up] == 1
    # what --format prometheus prints: the same families, help texts and series
    r = cluster.mqadmin("exportMetrics", "-c", "DefaultCluster", "--format", "prometheus")
    assert r.code == 0, r.err
    assert [ln for ln in body.splitlines() if ln.startswith("#")] == [
        ln for ln in r.out.splitlines() if ln.startswith("#")
    ]
    ours = ("rocketmq_broker_up", "rocketmq_consumer_lag", "rocketmq_group_diff")
    assert {k for k in found if k[0] in ours} == {k for k in samples(r.out) if k[0] in ours}


def test_a_scrape_answers_while_1000_idle_connections_hang_on_it(
    cluster: Cluster, many_descriptors: int
) -> None:
    count = many_descriptors  # CROWD, or as many as this process's hard limit allows
    if count < CROWD:
        warnings.warn(f"RLIMIT_NOFILE lets this test open only {count} connections", stacklevel=1)
    e = Exporter(cluster, limit=EXPORTER_NOFILE)
    crowd: list[socket.socket] = []
    try:
        before = samples(e.scrape()[2])
        crowd = open_crowd(e.port, count)
        status, _, body, took = e.scrape(timeout=5)
        assert status == 200 and took < 1.0, took
        assert lag(samples(body), 0) == lag(before, 0)  # nothing changed by the crowd
        # the refusal: the exporter holds at most MAX_CONNECTIONS and closed the others' sockets
        assert e.descriptors() < MAX_CONNECTIONS + 32
        assert sum(closed_by_server(s) for s in crowd) >= count - MAX_CONNECTIONS
        cpu = cpu_seconds(e.proc.pid)
        time.sleep(1.0)
        assert cpu_seconds(e.proc.pid) - cpu < 0.2  # idle, not spinning on accept
        assert e.scrape(timeout=5)[3] < 1.0
        assert e.proc.poll() is None and e.err == []
    finally:
        for s in crowd:
            s.close()
        e.stop()


def test_half_a_request_line_is_closed_after_the_timeout(exporter: Exporter) -> None:
    half = socket.create_connection(("127.0.0.1", exporter.port), timeout=5)
    trickle = socket.create_connection(("127.0.0.1", exporter.port), timeout=5)
    try:
        started = time.monotonic()
        half.sendall(b"GET /metr")
        trickle.sendall(b"G")
        status, _, _, took = exporter.scrape(timeout=5)  # served meanwhile
        assert status == 200 and took < 1.0, took
        # one byte every half second is no way around the timeout: it counts from the accept
        trickle.settimeout(0.5)
        trickle_closed = None
        for byte in b"ET /metrics HTTP/1.1\r\nX-Slow: " + b"a" * 40:
            try:
                if trickle.recv(1) == b"":
                    trickle_closed = time.monotonic() - started
                    break
            except TimeoutError:
                pass
            try:
                trickle.sendall(bytes([byte]))
            except OSError:
                trickle_closed = time.monotonic() - started
                break
        half.settimeout(HEAD_TIMEOUT + 5)
        assert half.recv(1) == b""  # closed, with no answer
        half_closed = time.monotonic() - started
        assert HEAD_TIMEOUT - 0.5 <= half_closed <= HEAD_TIMEOUT + 1.5, half_closed
        assert trickle_closed is not None and trickle_closed <= HEAD_TIMEOUT + 1.5, trickle_closed
        assert exporter.scrape(timeout=5)[0] == 200
    finally:
        half.close()
        trickle.close()


def test_a_malformed_or_huge_head_is_refused(exporter: Exporter) -> None:
    def ask(request: bytes) -> bytes:
        with socket.create_connection(("127.0.0.1", exporter.port), timeout=5) as s:
            s.sendall(request)
            out = b""
            while chunk := s.recv(65536):
                out += chunk
            return out

    assert ask(b"garbage\r\n\r\n").startswith(b"HTTP/1.0 400 ")
    huge = b"GET /metrics HTTP/1.1\r\n" + b"X-Pad: " + b"a" * 20000 + b"\r\n\r\n"
    assert ask(huge).startswith(b"HTTP/1.0 431 ")
    many = b"GET /metrics HTTP/1.1\r\n" + b"X: y\r\n" * 200 + b"\r\n"
    assert ask(many).startswith(b"HTTP/1.0 431 ")
    assert ask(b"POST /metrics HTTP/1.1\r\nContent-Length: 0\r\n\r\n").startswith(b"HTTP/1.0 405 ")
    assert exporter.scrape(timeout=5)[0] == 200


# A listener with no connection cap, alone in a process whose descriptors run out for real.
_UNCAPPED = """
import asyncio, logging, resource, sys
from mqadmin.exporter.collect import BrokerScrape, Scrape
from mqadmin.exporter.server import MetricsServer
resource.setrlimit(resource.RLIMIT_NOFILE, (64, resource.getrlimit(resource.RLIMIT_NOFILE)[1]))
logging.basicConfig(level=logging.INFO, stream=sys.stderr, format="%(levelname)s %(message)s")
SAMPLE = Scrape(True, [BrokerScrape("C", "b", "127.0.0.1:1", runtime={"putTps": "1.5"})])
async def take(budget):
    return SAMPLE
async def main():
    server = MetricsServer(take, max_connections=0)
    print(await server.start("127.0.0.1", 0), flush=True)
    await asyncio.Event().wait()
asyncio.run(main())
"""


def test_out_of_descriptors_backs_off_instead_of_spinning() -> None:
    proc = subprocess.Popen(
        [sys.executable, "-c", _UNCAPPED], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    crowd: list[socket.socket] = []
    try:
        assert proc.stdout is not None and proc.stderr is not None
        port = int(proc.stdout.readline())
        err: list[str] = []
        stream = proc.stderr
        threading.Thread(target=lambda: err.extend(stream), daemon=True).start()
        crowd = open_crowd(port, 200)  # beyond 64 descriptors: the rest wait in the backlog
        deadline = time.monotonic() + 5
        while not any("out of resources" in line for line in err) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert any("out of resources" in line for line in err), err
        cpu = cpu_seconds(proc.pid)
        time.sleep(1.0)
        assert cpu_seconds(proc.pid) - cpu < 0.2
        assert len(err) <= 3, err  # one line per interval, not one per accept()
        for s in crowd:
            s.close()
        crowd = []
        started = time.monotonic()
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as r:
            assert r.status == 200 and b"rocketmq_broker_up" in r.read()
        assert time.monotonic() - started < 1.0
    finally:
        for s in crowd:
            s.close()
        proc.kill()
        proc.wait()
