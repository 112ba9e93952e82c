"""A cluster (or every cluster of a name server) in the Prometheus text exposition format.

One scrape (:func:`mqadmin.exporter.collect.scrape`) asks every master at once within the scrape's
deadline; the page gives it under the names of ``apache/rocketmq-exporter``
(:mod:`mqadmin.exporter.java_names`, the default), under our own names (``ours``: lag per group and
queue, TPS, disk), or both. Whatever the names, the page also has our extras, under names the exporter
does not use: ``rocketmq_broker_up`` (a master that did not answer in time is 0 and its other series
are absent, so an alert on it fires instead of lag silently reading zero), ``rocketmq_namesrv_up``,
``rocketmq_exporter_target_error`` (why a target could not be read, :mod:`mqadmin.exporter.targets`),
``rocketmq_consumer_lag`` per queue, ``rocketmq_scrape_duration_seconds`` and
``rocketmq_exporter_build_info``. ``exportMetrics --format prometheus`` prints one page;
``exportMetrics --listen`` serves one per scrape from :class:`MetricsServer`; the text is
``prometheus_client``'s, the HTTP server our own, with timeouts and a connection cap (see the class).
"""

from __future__ import annotations

import asyncio
import errno
import gzip
import logging
import re
import socket
import time
from collections.abc import Awaitable, Callable, Iterable, Iterator
from dataclasses import dataclass
from email.utils import formatdate
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs, unquote, urlsplit

from mqadmin.exporter.collect import BrokerScrape, Scrape
from mqadmin.exporter.targets import target_errors
from mqadmin.remoting.limits import accept_ready, connection_limit
from mqadmin.remoting.logthrottle import ThrottledLog

if TYPE_CHECKING:
    from prometheus_client.registry import CollectorRegistry

    from mqadmin.exporter.webconfig import WebConfig

__all__ = [
    "NAMES",
    "MetricsServer",
    "deadline_of",
    "exposition",
    "registry_of",
    "render",
    "serve",
]

Extra = Callable[[], Iterable[Any]]
"""More families for every page, asked at each render (the doctor's newest findings)."""

NAMES = ("exporter", "ours", "both")
"""``--metrics-names``: the exporter's (the default), ours, or both on one page."""
#: Seconds a scrape has when the scraper does not say (``--scrape-timeout``'s default).
SCRAPE_TIMEOUT = 10.0


def deadline_of(header: str | None, default: float) -> float:
    """The seconds a page may take: the scraper's ``X-Prometheus-Scrape-Timeout-Seconds`` less a margin
    (a quarter of it, at most half a second) for rendering and the network, else ``default``."""
    try:
        given = float(header) if header else 0.0
    except ValueError:
        given = 0.0
    if not given > 0 or given != given or given == float("inf"):
        return default
    return max(0.05, given - min(0.5, given / 4))


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
_QUEUE_LABELS = ["cluster", "broker", "group", "topic", "queue_id"]


def _answered(sample: Scrape) -> Iterator[tuple[BrokerScrape, str, Any]]:
    """(master, group, ConsumeStats) of every answering master."""
    for b in sample.brokers:
        if b.error is None and b.consume is not None:
            for entry in b.consume.consume_stats_list:
                for group, stats_list in entry.items():
                    for stats in stats_list:
                        yield b, group, stats


def _extras(sample: Scrape) -> Iterator[Any]:
    """Ours under every ``--metrics-names``: up, name server up, lag per queue, duration, build."""
    from prometheus_client.core import GaugeMetricFamily

    from mqadmin import __version__

    up = GaugeMetricFamily(
        "rocketmq_broker_up",
        "1 when the master answered this scrape in time; 0 and its other series absent when not.",
        labels=_BROKER_LABELS,
    )
    for b in sample.brokers:
        up.add_metric([b.cluster, b.broker, b.addr], 0.0 if b.error is not None else 1.0)
    ns = GaugeMetricFamily("rocketmq_namesrv_up", "1 when the name server gave its cluster table in time.")
    ns.add_metric([], 1.0 if sample.namesrv_up else 0.0)
    lag = GaugeMetricFamily(
        "rocketmq_consumer_lag",
        "Messages not yet consumed on one queue: broker offset minus the group's committed offset.",
        labels=_QUEUE_LABELS,
    )
    for b, group, stats in _answered(sample):
        for mq, w in stats.offset_table.items():
            lag.add_metric(
                [b.cluster, b.broker, group, mq.topic or "", str(mq.queue_id)],
                float(w.broker_offset - w.consumer_offset),
            )
    error = GaugeMetricFamily(
        "rocketmq_exporter_target_error",
        "1 for a target this scrape could not read, with why: timeout, refused, auth or protocol "
        "(broker empty: the name servers).",
        labels=["cluster", "broker", "addr", "reason"],
    )
    for t in target_errors(sample):
        error.add_metric([t.cluster, t.broker, t.addr, t.reason], 1.0)
    duration = GaugeMetricFamily(
        "rocketmq_scrape_duration_seconds", "How long this sample of the cluster took."
    )
    duration.add_metric([], sample.seconds)
    build = GaugeMetricFamily(
        "rocketmq_exporter_build_info",
        "Always 1: the version of mqadmin serving these metrics.",
        labels=["version"],
    )
    build.add_metric([__version__], 1.0)
    yield from (up, ns, error, lag, duration, build)


def _ours(sample: Scrape) -> Iterator[Any]:
    """Our own names (``--metrics-names ours``) besides the extras."""
    from prometheus_client.core import GaugeMetricFamily

    gauges = [(GaugeMetricFamily(n, h, labels=_BROKER_LABELS), keys) for n, h, keys in _BROKER_GAUGES]
    last = GaugeMetricFamily(
        "rocketmq_consumer_last_timestamp_seconds",
        "Store time of the last message the group consumed on one queue (0: none yet).",
        labels=_QUEUE_LABELS,
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
    for b in sample.brokers:
        if b.error is None:
            for family, keys in gauges:
                value = next((v for v in (_number(b.runtime.get(k)) for k in keys) if v is not None), None)
                if value is not None:
                    family.add_metric([b.cluster, b.broker, b.addr], value)
    totals: dict[tuple[str, str, str], float] = {}
    for b, group, stats in _answered(sample):
        topics: set[str] = set()
        for mq, w in stats.offset_table.items():
            topic = mq.topic or ""
            topics.add(topic)
            last.add_metric([b.cluster, b.broker, group, topic, str(mq.queue_id)], w.last_timestamp / 1000.0)
            key = (b.cluster, group, topic)
            totals[key] = totals.get(key, 0.0) + float(w.broker_offset - w.consumer_offset)
        for topic in sorted(topics):
            tps.add_metric([b.cluster, b.broker, group, topic], stats.consume_tps)
    for (c, g, t), total in sorted(totals.items()):
        group_lag.add_metric([c, g, t], total)
    for family, _ in gauges:
        yield family
    yield from (group_lag, tps, last)


def _families(sample: Scrape, names: str, extra: Extra | None = None) -> Iterator[Any]:
    """The page's families: the extras first, then the chosen names. Under ``both`` the exporter's
    ``rocketmq_consumer_tps`` (GROUP_GET_NUMS, labels cluster, broker, topic, group) stands, ours of the
    same name is left out."""
    from mqadmin.exporter.java_names import exporter_families

    yield from _extras(sample)
    if extra is not None:  # the doctor's findings (``--doctor-interval``)
        yield from extra()
    if names in ("exporter", "both"):
        yield from exporter_families(sample)
    if names in ("ours", "both"):
        for family in _ours(sample):
            if names == "ours" or family.name != "rocketmq_consumer_tps":
                yield family


def registry_of(sample: Scrape, names: str = "exporter") -> CollectorRegistry:
    return _given(list(_families(sample, names)))


def exposition(sample: Scrape, names: str = "exporter") -> bytes:
    """One scrape in the text exposition format (version 0.0.4)."""
    return gauge_page(list(_families(sample, names)), openmetrics=False)


#: Content types whose page :func:`gauge_page` writes itself (True: OpenMetrics 1.0.0), as
#: ``prometheus_client.exposition.choose_encoder`` names them; under any other (dots or values
#: escaping, another version) the library writes the page.
_OWN_PAGES = {
    "text/plain; version=0.0.4; charset=utf-8": False,
    "text/plain; version=1.0.0; charset=utf-8; escaping=underscores": False,
    "text/plain; version=1.0.0; charset=utf-8; escaping=allow-utf-8": False,
    "application/openmetrics-text; version=1.0.0; charset=utf-8": True,
    "application/openmetrics-text; version=1.0.0; charset=utf-8; escaping=underscores": True,
    "application/openmetrics-text; version=1.0.0; charset=utf-8; escaping=allow-utf-8": True,
}
_LEGACY_NAME = re.compile(r"[a-zA-Z_:][a-zA-Z0-9_:]*")
_LEGACY_LABEL = re.compile(r"[a-zA-Z_][a-zA-Z0-9_]*")


def _escaped(v: str) -> str:
    if "\\" in v or "\n" in v or '"' in v:
        return v.replace("\\", "\\\\").replace("\n", "\\n").replace('"', '\\"')
    return v


def gauge_page(families: list[Any], *, openmetrics: bool) -> bytes:
    """Gauge families as a page, byte for byte as ``prometheus_client`` writes them (text 0.0.4 or
    OpenMetrics 1.0.0: labels sorted by name, its float spelling, its escapes), without its per-sample
    name checks and escaping passes, which took most of a scrape's rendering time on a page of tens of
    thousands of series. Our metric and label names are all of the legacy character set; anything
    else (another type, a timestamp, a name needing escapes) is left to the library."""
    from prometheus_client.utils import floatToGoString

    out: list[str] = []
    for m in families:
        if m.type != "gauge" or m.unit or not _LEGACY_NAME.fullmatch(m.name):
            return _library_page(families, openmetrics)
        if openmetrics:
            doc = _escaped(m.documentation)
        else:
            doc = m.documentation.replace("\\", "\\\\").replace("\n", "\\n")
        out.append(f"# HELP {m.name} {doc}\n# TYPE {m.name} gauge\n")
        keys: list[str] = []
        for s in m.samples:
            if s.name != m.name or s.timestamp is not None or s.exemplar or s.native_histogram:
                return _library_page(families, openmetrics)
            labels = s.labels
            if len(keys) != len(labels):
                keys = sorted(labels)
                if not all(_LEGACY_LABEL.fullmatch(k) for k in keys):
                    return _library_page(families, openmetrics)
            if keys:
                pairs = ",".join([f'{k}="{_escaped(labels[k])}"' for k in keys])
                out.append(f"{m.name}{{{pairs}}} {floatToGoString(s.value)}\n")
            else:
                out.append(f"{m.name} {floatToGoString(s.value)}\n")
    if openmetrics:
        out.append("# EOF\n")
    return "".join(out).encode("utf-8")


def _library_page(families: list[Any], openmetrics: bool) -> bytes:
    """The same families written by ``prometheus_client`` itself."""
    from prometheus_client.exposition import generate_latest
    from prometheus_client.openmetrics.exposition import generate_latest as generate_openmetrics

    registry = _given(families)
    return generate_openmetrics(registry) if openmetrics else generate_latest(registry)


def _given(families: list[Any]) -> CollectorRegistry:
    from prometheus_client.registry import CollectorRegistry

    class _Given:
        def collect(self) -> Iterator[Any]:
            return iter(families)

        def describe(self) -> list[Any]:
            return []

    registry = CollectorRegistry(auto_describe=False)
    registry.register(_Given())  # type: ignore[arg-type]
    return registry


def render(
    sample: Scrape,
    accept: str | None,
    accept_encoding: str | None,
    params: dict[str, list[str]],
    names: str = "exporter",
    extra: Extra | None = None,
) -> tuple[list[tuple[str, str]], bytes]:
    """Headers and body of a scrape, negotiated as ``prometheus_client``'s own server does (text or
    OpenMetrics by ``Accept``, gzip by ``Accept-Encoding``, ``name[]`` restricting), so that moving off
    its server changed no byte a scraper reads."""
    from prometheus_client.exposition import choose_encoder, gzip_accepted

    encoder, content_type = choose_encoder(accept or "")
    families = list(_families(sample, names, extra))
    if "name[]" not in params and content_type in _OWN_PAGES:
        body = gauge_page(families, openmetrics=_OWN_PAGES[content_type])
    else:
        registry: Any = _given(families)
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
#: Bytes of request line and headers together, and header lines, at most.
_HEAD_LIMIT = 16 * 1024
_MAX_HEADER_LINES = 100
#: Samples of the cluster taken at once; further scrapes wait for one of them to finish.
_SAMPLES_AT_ONCE = 4
#: Seconds past its deadline a scrape may run before the page is given up on (a safety net).
_GUARD = 0.2
_OUT_OF_RESOURCES = frozenset({errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM})
_TOKEN = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+")
_ALLOW = [("Allow", "OPTIONS,GET")]

log = logging.getLogger("mqadmin.exporter")


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

    ``take(seconds)`` gives a scrape within that many seconds: the scraper's
    ``X-Prometheus-Scrape-Timeout-Seconds`` less a margin, else ``scrape_timeout``; whatever did not
    answer by then is down on the page, so every scrape is a 200 in time. ``/-/healthy`` says the
    listener is alive (without asking the cluster) and ``/`` links both.

    ``web`` (``--web-config``) adds TLS, its handshake within ``head_timeout``, and basic auth on
    every path: a request without the right user and password is answered 401. ``extra`` gives more
    families for every page (the doctor's findings).
    """

    def __init__(
        self,
        take: Callable[[float], Awaitable[Scrape]],
        *,
        names: str = "exporter",
        scrape_timeout: float = SCRAPE_TIMEOUT,
        max_connections: int | None = None,
        head_timeout: float = HEAD_TIMEOUT,
        write_timeout: float = WRITE_TIMEOUT,
        web: WebConfig | None = None,
        extra: Extra | None = None,
    ) -> None:
        self._take = take
        self._extra = extra
        self._tls = web.tls if web is not None else None
        self._auth = web.auth if web is not None else None
        self._names = names
        self._scrape_timeout = scrape_timeout
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
        for sock in accept_ready(listener, self._accept_failed):
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
                transport, _ = await loop.connect_accepted_socket(
                    lambda: protocol,
                    peer.sock,
                    ssl=self._tls,
                    ssl_handshake_timeout=self._head_timeout if self._tls is not None else None,
                )
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
        except (TimeoutError, OSError):  # ssl.SSLError included
            pass  # too slow, gone, or no TLS handshake: closed below
        except Exception as e:
            self._log.error("answer failed", "metrics answer failed: %s", e, exc_info=e)
        finally:
            self._peers.pop(peer, None)
            if writer is None:
                peer.sock.close()
            elif not writer.is_closing():
                writer.transport.abort()

    async def _answer(self, head: _Head) -> bytes:
        arrived = time.monotonic()
        if self._auth is not None and not await self._auth.allows(head.headers.get("authorization")):
            body = b"# HTTP 401 Unauthorized\n"
            return _response("401 Unauthorized", [("WWW-Authenticate", 'Basic realm="mqadmin"')], body)
        if head.method == "OPTIONS":
            return _response("200 OK", _ALLOW, b"")
        if head.method != "GET":
            body = f"# HTTP 405 Method Not Allowed: {head.method}; use OPTIONS or GET\n".encode()
            return _response("405 Method Not Allowed", _ALLOW, body)
        url = urlsplit(head.target)
        path = unquote(url.path)
        if path == "/favicon.ico":  # browsers ask
            return _response("200 OK", [], b"")
        if path == "/-/healthy":
            return _response("200 OK", [("Content-Type", "text/plain; charset=utf-8")], b"Healthy.\n")
        if path == "/":
            return _response("200 OK", [("Content-Type", "text/html; charset=utf-8")], _INDEX)
        budget = deadline_of(head.headers.get("x-prometheus-scrape-timeout-seconds"), self._scrape_timeout)
        sample = await self._sample(budget, arrived)
        headers, body = render(
            sample,
            head.headers.get("accept"),
            head.headers.get("accept-encoding"),
            parse_qs(url.query),
            self._names,
            self._extra,
        )
        return _response("200 OK", headers, body)

    async def _sample(self, budget: float, arrived: float) -> Scrape:
        """A scrape within ``budget`` seconds of ``arrived`` (waiting for a turn counts); never raises."""
        started = time.monotonic()
        try:  # the scrape keeps its own deadline; this one is a safety net a little beyond it
            async with asyncio.timeout(budget - (started - arrived) + _GUARD):
                async with self._samples:
                    return await self._take(max(0.01, budget - (time.monotonic() - arrived)))
        except Exception as e:  # a bug or no turn in time: a valid page that says nothing answered
            if not isinstance(e, TimeoutError):
                self._log.error("sample failed", "metrics sample failed: %s", e, exc_info=e)
            return Scrape(False, namesrv_error=e, seconds=time.monotonic() - started)


_INDEX = (
    b"<!DOCTYPE html>\n<html><head><title>mqadmin exportMetrics</title></head><body>\n"
    b"<h1>mqadmin exportMetrics</h1>\n"
    b'<p><a href="/metrics">Metrics</a> (RocketMQ, every master asked on each scrape)</p>\n'
    b'<p><a href="/-/healthy">Health</a></p>\n</body></html>\n'
)


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


async def serve(
    host: str,
    port: int,
    take: Callable[[float], Awaitable[Scrape]],
    *,
    names: str = "exporter",
    scrape_timeout: float = SCRAPE_TIMEOUT,
    web: WebConfig | None = None,
    extra: Extra | None = None,
) -> MetricsServer:
    """Serve ``/metrics`` on ``host:port`` on the running loop, ``take`` giving each scrape's sample;
    ``stop()`` it."""
    server = MetricsServer(take, names=names, scrape_timeout=scrape_timeout, web=web, extra=extra)
    await server.start(host, port)
    return server
