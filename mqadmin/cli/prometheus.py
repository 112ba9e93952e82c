"""A cluster in the Prometheus text exposition format: consumer lag per group and queue, TPS, disk.

One sample asks every master (or those of one cluster) for two things at once: its runtime table
(GET_BROKER_RUNTIME_INFO: TPS, disk ratios, today's totals) and every group's progress on it
(GET_BROKER_CONSUME_STATS). ``exportMetrics --format prometheus`` prints one sample;
``exportMetrics --listen`` serves ``/metrics`` from :class:`MetricsServer`, taking a new sample on
each scrape; the text is ``prometheus_client``'s, the HTTP server our own, with timeouts and a
connection cap (see the class). A broker that does not answer is ``rocketmq_broker_up 0`` and its series are
absent, so an alert on ``up`` fires instead of lag silently reading zero.
"""

from __future__ import annotations

import asyncio
import errno
import gzip
import logging
import re
import socket
import time
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from email.utils import formatdate
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs, unquote, urlsplit

from mqadmin.protocol.javacoll import java_hash_order
from mqadmin.remoting.limits import connection_limit
from mqadmin.remoting.logthrottle import ThrottledLog

if TYPE_CHECKING:
    from prometheus_client.registry import CollectorRegistry

    from mqadmin.admin.api import MQAdmin
    from mqadmin.admin.consumers import BrokerConsumeStats

__all__ = [
    "BrokerSample",
    "ClusterSample",
    "MetricsServer",
    "exposition",
    "registry_of",
    "render",
    "sample_cluster",
    "serve",
]


@dataclass(slots=True)
class BrokerSample:
    """What one master answered (``error`` set and the rest empty when it did not)."""

    cluster: str
    broker: str
    addr: str
    runtime: dict[str, str] = field(default_factory=dict)
    consume: BrokerConsumeStats | None = None
    error: BaseException | None = None


@dataclass(slots=True)
class ClusterSample:
    brokers: list[BrokerSample]
    seconds: float
    """How long the sample took (``rocketmq_scrape_duration_seconds``)."""

    @property
    def errors(self) -> list[BaseException]:
        return [b.error for b in self.brokers if b.error is not None]


async def sample_cluster(admin: MQAdmin, cluster: str | None, deadline: float) -> ClusterSample:
    """Ask every master of ``cluster`` (all clusters when None) at once, within ``deadline`` seconds.

    Raises the admin's cluster-not-found error for a cluster the name server does not know.
    """
    started = time.monotonic()
    info = await admin.examine_broker_cluster_info()
    clusters = info.cluster_addr_table or {}
    if cluster is not None and cluster not in clusters:
        from mqadmin.admin.brokers import ClusterNotFoundError

        raise ClusterNotFoundError(cluster)
    samples: dict[str, BrokerSample] = {}
    for c in java_hash_order(clusters) if cluster is None else [cluster]:
        for name in java_hash_order(clusters.get(c) or []):
            bd = (info.broker_addr_table or {}).get(name)
            addr = (bd.broker_addrs or {}).get(0) if bd is not None else None
            if addr is not None:
                samples[name] = BrokerSample(c, name, addr)

    async def one(name: str) -> tuple[dict[str, str], BrokerConsumeStats]:
        addr = samples[name].addr
        runtime, consume = await asyncio.gather(
            admin.fetch_broker_runtime_stats(addr), admin.fetch_broker_consume_stats(addr)
        )
        return runtime, consume

    result = await admin.fan_out(list(samples), one, deadline=deadline, addr_of=lambda n: samples[n].addr)
    for name, s in samples.items():
        if name in result.results:
            s.runtime, s.consume = result.results[name]
        else:
            s.error = result.errors.get(name) or TimeoutError(f"no answer from {s.addr}")
    return ClusterSample(list(samples.values()), time.monotonic() - started)


def _number(text: str | None) -> float | None:
    """The first number of a runtime-table value (``putTps`` is ``"12.5 11.0 10.9"``); None if none."""
    if not text:
        return None
    try:
        return float(text.split(" ")[0])
    except ValueError:
        return None


# name, help, runtime-table keys (first present wins)
_BROKER_GAUGES: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("rocketmq_broker_put_tps", "Messages put per second (last 10 s).", ("putTps",)),
    (
        "rocketmq_broker_get_tps",
        "Messages delivered to consumers per second (last 10 s).",
        ("getTransferredTps", "getTransferedTps"),
    ),
    ("rocketmq_broker_commitlog_disk_ratio", "Used share of the commit log's disk.", ("commitLogDiskRatio",)),
    (
        "rocketmq_broker_consumequeue_disk_ratio",
        "Used share of the consume queues' disk.",
        ("consumeQueueDiskRatio",),
    ),
    ("rocketmq_broker_messages_put_today", "Messages put since midnight.", ("msgPutTotalTodayNow",)),
    ("rocketmq_broker_messages_got_today", "Messages delivered since midnight.", ("msgGetTotalTodayNow",)),
    (
        "rocketmq_broker_commitlog_max_offset",
        "Physical end offset of the commit log, in bytes.",
        ("commitLogMaxOffset",),
    ),
)
_BROKER_LABELS = ["cluster", "broker", "addr"]


def _families(sample: ClusterSample) -> Iterator[Any]:
    from prometheus_client.core import GaugeMetricFamily

    up = GaugeMetricFamily(
        "rocketmq_broker_up", "1 when the master answered this scrape.", labels=_BROKER_LABELS
    )
    gauges = [(GaugeMetricFamily(n, h, labels=_BROKER_LABELS), keys) for n, h, keys in _BROKER_GAUGES]
    lag = GaugeMetricFamily(
        "rocketmq_consumer_lag",
        "Messages not yet consumed on one queue: broker offset minus the group's committed offset.",
        labels=["cluster", "broker", "group", "topic", "queue_id"],
    )
    last = GaugeMetricFamily(
        "rocketmq_consumer_last_timestamp_seconds",
        "Store time of the last message the group consumed on one queue (0: none yet).",
        labels=["cluster", "broker", "group", "topic", "queue_id"],
    )
    group_lag = GaugeMetricFamily(
        "rocketmq_consumer_group_lag",
        "Messages of a topic the group has not consumed, over every queue of every answering master.",
        labels=["cluster", "group", "topic"],
    )
    tps = GaugeMetricFamily(
        "rocketmq_consumer_tps",
        "Messages the group consumes per second on one master.",
        labels=["cluster", "broker", "group", "topic"],
    )
    totals: dict[tuple[str, str, str], float] = {}
    for b in sample.brokers:
        who = [b.cluster, b.broker, b.addr]
        up.add_metric(who, 0.0 if b.error is not None else 1.0)
        if b.error is not None:
            continue
        for family, keys in gauges:
            value = next((v for v in (_number(b.runtime.get(k)) for k in keys) if v is not None), None)
            if value is not None:
                family.add_metric(who, value)
        for entry in b.consume.consume_stats_list if b.consume is not None else []:
            for group, stats_list in entry.items():
                for stats in stats_list:
                    topics: set[str] = set()
                    for mq, w in stats.offset_table.items():
                        topic = mq.topic or ""
                        topics.add(topic)
                        labels = [b.cluster, b.broker, group, topic, str(mq.queue_id)]
                        diff = float(w.broker_offset - w.consumer_offset)
                        lag.add_metric(labels, diff)
                        last.add_metric(labels, w.last_timestamp / 1000.0)
                        key = (b.cluster, group, topic)
                        totals[key] = totals.get(key, 0.0) + diff
                    for topic in sorted(topics):
                        tps.add_metric([b.cluster, b.broker, group, topic], stats.consume_tps)
    for (c, g, t), total in sorted(totals.items()):
        group_lag.add_metric([c, g, t], total)
    duration = GaugeMetricFamily(
        "rocketmq_scrape_duration_seconds", "How long this sample of the cluster took."
    )
    duration.add_metric([], sample.seconds)
    yield up
    for family, _ in gauges:
        yield family
    yield from (lag, group_lag, tps, last, duration)


class _SampleCollector:
    """A ``prometheus_client`` collector: each ``collect`` takes a new sample (or yields the given one)."""

    def __init__(self, take: Callable[[], ClusterSample]) -> None:
        self._take = take

    def collect(self) -> Iterator[Any]:
        return _families(self._take())

    def describe(self) -> list[Any]:
        return []  # no sample at registration time


def registry_of(take: Callable[[], ClusterSample]) -> CollectorRegistry:
    from prometheus_client.registry import CollectorRegistry

    registry = CollectorRegistry(auto_describe=False)
    registry.register(_SampleCollector(take))  # type: ignore[arg-type]
    return registry


def exposition(sample: ClusterSample) -> bytes:
    """One sample in the text exposition format (version 0.0.4)."""
    from prometheus_client.exposition import generate_latest

    return generate_latest(registry_of(lambda: sample))


def render(
    sample: ClusterSample, accept: str | None, accept_encoding: str | None, params: dict[str, list[str]]
) -> tuple[list[tuple[str, str]], bytes]:
    """Headers and body of a scrape, negotiated as ``prometheus_client``'s own server does (text or
    OpenMetrics by ``Accept``, gzip by ``Accept-Encoding``, ``name[]`` restricting), so that moving off
    its server changed no byte a scraper reads."""
    from prometheus_client.exposition import choose_encoder, gzip_accepted

    registry: Any = registry_of(lambda: sample)
    encoder, content_type = choose_encoder(accept or "")
    if "name[]" in params:
        registry = registry.restricted_registry(params["name[]"])
    body = encoder(registry)
    headers = [("Content-Type", content_type)]
    if gzip_accepted(accept_encoding or ""):
        body = gzip.compress(body)
        headers.append(("Content-Encoding", "gzip"))
    return headers, body


# ------------------------------------------------------------------------------ the HTTP listener

#: Seconds a connection has, from its accept, to send its whole request line and headers.
HEAD_TIMEOUT = 5.0
#: Seconds a scraper has to take the whole answer.
WRITE_TIMEOUT = 10.0
#: Connections held at once (fewer under a low RLIMIT_NOFILE). A scraper needs one or two.
MAX_CONNECTIONS = 128
#: Seconds without accepting after ``accept()`` failed for want of descriptors or memory.
ACCEPT_BACKOFF = 0.1
#: Connections taken per readiness of the listening socket, so a crowd cannot starve the others.
_ACCEPT_BATCH = 64
#: Bytes of request line and headers together, and header lines, at most.
_HEAD_LIMIT = 16 * 1024
_MAX_HEADER_LINES = 100
#: Samples of the cluster taken at once; further scrapes wait for one of them to finish.
_SAMPLES_AT_ONCE = 4
_OUT_OF_RESOURCES = frozenset({errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM})
_TOKEN = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+")
_ALLOW = [("Allow", "OPTIONS,GET")]

log = logging.getLogger("mqadmin.cli.prometheus")


class _BadRequest(Exception):
    """The request head cannot be answered; ``status`` says why."""

    def __init__(self, status: str) -> None:
        super().__init__(status)
        self.status = status


@dataclass(slots=True)
class _Head:
    method: str
    target: str
    headers: dict[str, str]


class _Peer:
    """One accepted connection; ``waiting`` until its request head is in, and only then evictable."""

    __slots__ = ("sock", "task", "transport", "waiting")

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.task: asyncio.Task[None] | None = None
        self.transport: asyncio.Transport | None = None
        self.waiting = True

    def close(self) -> None:
        if self.transport is not None:
            self.transport.abort()
        elif self.task is not None:
            self.task.cancel()  # still being wrapped: the task closes the socket
        else:
            self.sock.close()


def _response(status: str, headers: list[tuple[str, str]], body: bytes) -> bytes:
    """An HTTP/1.0 answer: the connection closes after it, as with ``prometheus_client``'s server."""
    lines = [f"HTTP/1.0 {status}", f"Date: {formatdate(usegmt=True)}"]
    lines += [f"{name}: {value}" for name, value in headers]
    lines += [f"Content-Length: {len(body)}", "", ""]
    return "\r\n".join(lines).encode("latin-1") + body


async def _read_head(reader: asyncio.StreamReader) -> _Head | None:
    """The request line and headers (None if the peer closed first); :class:`_BadRequest` if they are
    malformed or larger than :data:`_HEAD_LIMIT` bytes or :data:`_MAX_HEADER_LINES` lines."""
    lines: list[bytes] = []
    size = 0
    while True:
        try:
            line = await reader.readline()
        except ValueError:  # one line beyond the reader's limit
            raise _BadRequest("431 Request Header Fields Too Large") from None
        if not line.endswith(b"\n"):
            return None
        size += len(line)
        if size > _HEAD_LIMIT or len(lines) > _MAX_HEADER_LINES:
            raise _BadRequest("431 Request Header Fields Too Large")
        if line in (b"\r\n", b"\n"):
            if lines:
                break
            continue  # empty lines before the request line are allowed (RFC 9112 2.2)
        lines.append(line)
    parts = lines[0].decode("latin-1").split()
    if len(parts) != 3 or not parts[2].startswith("HTTP/") or not _TOKEN.fullmatch(parts[0]):
        raise _BadRequest("400 Bad Request")
    headers: dict[str, str] = {}
    for raw in lines[1:]:
        name, sep, value = raw.decode("latin-1").partition(":")
        if not sep or not _TOKEN.fullmatch(name):
            raise _BadRequest("400 Bad Request")
        headers[name.lower()] = value.strip()
    return _Head(parts[0], parts[1], headers)


class MetricsServer:
    """``/metrics`` over HTTP on the running asyncio loop, a new sample per scrape.

    ``prometheus_client``'s own server gives each connection a thread and no timeout, so a few
    hundred connections that never finish their request stall every scrape, and its accept loop
    spins when descriptors run out. Here a connection has ``head_timeout`` seconds from its accept
    to send its request line and headers and ``write_timeout`` to take the answer; at most
    ``max_connections`` are held (None: :data:`MAX_CONNECTIONS`, fewer under a low RLIMIT_NOFILE; 0:
    no cap), and when they are all taken the oldest one still sending its request is closed to
    make room, so a scraper's connection, whose request comes at once, gets in; ``accept()``
    failing for want of descriptors stops accepting for :data:`ACCEPT_BACKOFF` seconds instead of
    retrying at once (as :class:`mqadmin.remoting.server.RemotingServer` does).
    """

    def __init__(
        self,
        take: Callable[[], Awaitable[ClusterSample]],
        *,
        max_connections: int | None = None,
        head_timeout: float = HEAD_TIMEOUT,
        write_timeout: float = WRITE_TIMEOUT,
    ) -> None:
        self._take = take
        self._max_connections = max_connections
        self._head_timeout = head_timeout
        self._write_timeout = write_timeout
        self.limit: int | None = None
        """The connection cap in force (after :meth:`start`); None for no cap."""
        self.port = 0
        self._listeners: list[socket.socket] = []
        self._peers: dict[_Peer, None] = {}  # in the order they were accepted
        self._resume: asyncio.TimerHandle | None = None
        self._samples = asyncio.Semaphore(_SAMPLES_AT_ONCE)
        self._log = ThrottledLog(log, burst=1)

    @property
    def connections(self) -> int:
        return len(self._peers)

    async def start(self, host: str, port: int) -> int:
        """Listen on every address ``host`` names (port 0: a free one) and return the bound port."""
        loop = asyncio.get_running_loop()
        infos = await loop.getaddrinfo(host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
        try:
            for family, kind, proto, _, sockaddr in dict.fromkeys(infos):
                if self._listeners and port == 0:  # the other addresses on the port the first one got
                    sockaddr = (sockaddr[0], self._listeners[0].getsockname()[1], *sockaddr[2:])
                self._listeners.append(_listen(family, kind, proto, sockaddr))
        except BaseException:
            self._close_listeners()
            raise
        if not self._listeners:
            raise OSError(errno.EADDRNOTAVAIL, f"no address to listen on for {host!r}")
        if self._max_connections is None:
            self.limit = min(MAX_CONNECTIONS, connection_limit() or MAX_CONNECTIONS)
        else:
            self.limit = self._max_connections or None
        self._watch(True)
        self.port = int(self._listeners[0].getsockname()[1])
        return self.port

    async def stop(self) -> None:
        """Stop accepting and close every connection, answered or not."""
        self._close_listeners()
        peers = list(self._peers)
        self._peers.clear()
        for peer in peers:
            peer.close()
        tasks = [p.task for p in peers if p.task is not None]
        for task in tasks:
            task.cancel()
        if tasks:
            await asyncio.wait(tasks, timeout=1.0)

    def _close_listeners(self) -> None:
        if self._resume is not None:
            self._resume.cancel()
            self._resume = None
        self._watch(False)
        for sock in self._listeners:
            sock.close()
        self._listeners = []

    def _watch(self, on: bool) -> None:
        loop = asyncio.get_running_loop()
        for sock in self._listeners:
            if on:
                loop.add_reader(sock.fileno(), self._accept, sock)
            else:
                loop.remove_reader(sock.fileno())

    # ------------------------------------------------------------------------------ accepting

    def _accept(self, listener: socket.socket) -> None:
        """The listening socket is readable: take the waiting connections (a batch at most)."""
        loop = asyncio.get_running_loop()
        for _ in range(_ACCEPT_BATCH):
            try:
                sock, _addr = listener.accept()
            except (BlockingIOError, InterruptedError):
                return
            except ConnectionAbortedError:
                continue
            except OSError as e:
                self._accept_failed(e)
                return
            if self.limit is not None and len(self._peers) >= self.limit and not self._evict():
                sock.close()
                self._log.warning(
                    "connection limit",
                    "metrics listener on port %d: %d connections busy answering, the limit; refusing",
                    self.port,
                    len(self._peers),
                )
                continue
            peer = _Peer(sock)
            self._peers[peer] = None
            peer.task = loop.create_task(self._serve(peer))

    def _evict(self) -> bool:
        """Close the oldest connection that has not sent its whole request yet; False if none."""
        victim = next((p for p in self._peers if p.waiting), None)
        if victim is None:
            return False
        del self._peers[victim]
        victim.close()
        self._log.warning(
            "evicted",
            "metrics listener on port %d: %d connections held; closed the oldest one still sending "
            "its request",
            self.port,
            self.limit,
        )
        return True

    def _accept_failed(self, exc: OSError) -> None:
        """Retrying at once would spin (the socket stays readable): pause, and say so once a while."""
        kind = "out of resources" if exc.errno in _OUT_OF_RESOURCES else "failed"
        self._log.warning(
            "accept failed",
            "accept() on metrics port %d %s (%s): not accepting for %g s",
            self.port,
            kind,
            exc.strerror or exc,
            ACCEPT_BACKOFF,
        )
        self._watch(False)
        if self._resume is None:
            self._resume = asyncio.get_running_loop().call_later(ACCEPT_BACKOFF, self._resume_accepting)

    def _resume_accepting(self) -> None:
        self._resume = None
        self._watch(True)

    # ------------------------------------------------------------------------------ answering

    async def _serve(self, peer: _Peer) -> None:
        loop = asyncio.get_running_loop()
        writer: asyncio.StreamWriter | None = None
        try:
            reader = asyncio.StreamReader(limit=_HEAD_LIMIT)
            protocol = asyncio.StreamReaderProtocol(reader)
            async with asyncio.timeout(self._head_timeout):
                transport, _ = await loop.connect_accepted_socket(lambda: protocol, peer.sock)
                peer.transport = transport
                writer = asyncio.StreamWriter(transport, protocol, reader, loop)
                try:
                    head = await _read_head(reader)
                except _BadRequest as e:
                    head, answer = None, _response(e.status, [], f"# HTTP {e.status}\n".encode())
                else:
                    answer = b""
            peer.waiting = False
            if head is not None:
                answer = await self._answer(head)
            if answer:
                writer.write(answer)
                async with asyncio.timeout(self._write_timeout):
                    await writer.drain()
                writer.close()
        except (TimeoutError, OSError):
            pass  # too slow, or gone: closed below
        except Exception as e:
            self._log.error("answer failed", "metrics answer failed: %s", e, exc_info=e)
        finally:
            self._peers.pop(peer, None)
            if writer is None:
                peer.sock.close()
            elif not writer.is_closing():
                writer.transport.abort()

    async def _answer(self, head: _Head) -> bytes:
        if head.method == "OPTIONS":
            return _response("200 OK", _ALLOW, b"")
        if head.method != "GET":
            body = f"# HTTP 405 Method Not Allowed: {head.method}; use OPTIONS or GET\n".encode()
            return _response("405 Method Not Allowed", _ALLOW, body)
        url = urlsplit(head.target)
        if unquote(url.path) == "/favicon.ico":  # browsers ask; any other path is /metrics
            return _response("200 OK", [], b"")
        async with self._samples:
            try:
                sample = await self._take()
            except Exception as e:  # the name server gone, the cluster removed: say so, go on
                self._log.warning("sample failed", "metrics sample failed: %s", e)
                return _response("500 Internal Server Error", [], f"# sample failed: {e}\n".encode())
        headers, body = render(
            sample, head.headers.get("accept"), head.headers.get("accept-encoding"), parse_qs(url.query)
        )
        return _response("200 OK", headers, body)


def _listen(family: int, kind: int, proto: int, sockaddr: tuple[Any, ...]) -> socket.socket:
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if family == socket.AF_INET6:
            sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
        sock.bind(sockaddr)
        sock.listen(1024)
        sock.setblocking(False)
    except BaseException:
        sock.close()
        raise
    return sock


async def serve(host: str, port: int, take: Callable[[], Awaitable[ClusterSample]]) -> MetricsServer:
    """Serve ``/metrics`` on ``host:port`` on the running loop, a new sample per scrape; ``stop()`` it."""
    server = MetricsServer(take)
    await server.start(host, port)
    return server
