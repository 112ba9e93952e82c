"""One scrape of every cluster (or one) that the name server knows, within a deadline.

Each master is its own target with the scrape's whole budget, asked at the same time as the others:
first its core (runtime table and every group's progress: GET_BROKER_RUNTIME_INFO,
GET_BROKER_CONSUME_STATS), which decides ``rocketmq_broker_up``; then, for the names of
``apache/rocketmq-exporter``, its per-topic and per-group figures (offsets, stats items, the store time
of the first message a lagging group has not consumed), at most :data:`PER_BROKER_CALLS` requests in
flight. Then the groups' clients (connections, running info). A target that has not answered by the
deadline is cut off, and whatever it had not finished is left out, never filled with an old value.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import re
import time
from collections.abc import Awaitable, Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from mqadmin.admin.tablenames import SkippedName, askable_groups
from mqadmin.protocol.javacoll import java_hash_order
from mqadmin.protocol.names import DLQ_GROUP_TOPIC_PREFIX, RETRY_GROUP_TOPIC_PREFIX

if TYPE_CHECKING:
    from mqadmin.admin.api import MQAdmin
    from mqadmin.protocol.bodies.connection import Connection
    from mqadmin.protocol.bodies.consumption import BrokerConsumeStats, ConsumerRunningInfo

__all__ = [
    "BrokerScrape",
    "GroupScrape",
    "Scrape",
    "fixed_double",
    "minute_figure",
    "scrape",
]

log = logging.getLogger("mqadmin.exporter")

#: Requests to one broker in flight at once for its per-topic and per-group figures.
PER_BROKER_CALLS = 16
#: Share of the budget the name server's cluster table may take; the brokers have the rest.
NAMESRV_SHARE = 0.4

T = TypeVar("T")


@dataclass(slots=True)
class BrokerScrape:
    """One master: its core answer (``error`` set when it did not come in time) and the rest."""

    cluster: str
    broker: str
    addr: str
    slaves: dict[int, str] = field(default_factory=dict)
    error: BaseException | None = None
    runtime: dict[str, str] = field(default_factory=dict)
    consume: BrokerConsumeStats | None = None
    broker_put: dict[str, Any] | None = None
    broker_get: dict[str, Any] | None = None
    topic_offsets: dict[str, int] = field(default_factory=dict)
    """Sum of the max offsets of a topic's queues on this broker."""
    topic_put: dict[str, tuple[float, float]] = field(default_factory=dict)
    """topic → (messages, bytes) per second over the last minute (TOPIC_PUT_NUMS, TOPIC_PUT_SIZE)."""
    group_get: dict[tuple[str, str], list[float | None]] = field(default_factory=dict)
    """(topic, group) → [messages/s, bytes/s, sent back in the last minute] (None: no such item)."""
    latency_ms: dict[tuple[str, str], int] = field(default_factory=dict)
    """(topic, group) → the largest age of a queue's first unconsumed message, in ms."""
    producers: dict[str, int] | None = None
    slave_max_offsets: dict[str, int] = field(default_factory=dict)
    complete: bool = True
    """False when the deadline cut off its per-topic or per-group figures (those left out)."""

    @property
    def up(self) -> bool:
        return self.error is None


@dataclass(slots=True)
class GroupScrape:
    """A consumer group's online clients (``None`` when the deadline came first) and their running info."""

    group: str
    connections: list[Connection] | None = None
    model: str = "CLUSTERING"
    running: dict[str, ConsumerRunningInfo] = field(default_factory=dict)


@dataclass(slots=True)
class Scrape:
    namesrv_up: bool
    brokers: list[BrokerScrape] = field(default_factory=list)
    groups: dict[str, GroupScrape] = field(default_factory=dict)
    seconds: float = 0.0
    namesrv_error: BaseException | None = None
    cluster_missing: str | None = None
    """``-c`` named a cluster the name server does not know (the page is still valid, without it)."""

    @property
    def errors(self) -> list[BaseException]:
        out = [b.error for b in self.brokers if b.error is not None]
        return ([self.namesrv_error] if self.namesrv_error is not None else []) + out


def drop_unaskable_groups(stats: BrokerConsumeStats) -> list[SkippedName]:
    """Remove from a GET_BROKER_CONSUME_STATS answer (the broker's own walk of its groups) every
    group no request may name, so that nothing downstream asks about it or labels a series with it;
    returns what was removed."""
    skipped: list[SkippedName] = []
    for entry in stats.consume_stats_list:
        _, dropped = askable_groups(list(entry))
        for name in dropped:
            del entry[name.name]
        skipped.extend(dropped)
    return skipped


def fixed_double(value: float) -> float:
    """Java's ``Utils.getFixedDouble``: ``new DecimalFormat("#.##")`` (half-even on the exact double)."""
    from decimal import ROUND_HALF_EVEN, Decimal

    return float(Decimal(value).quantize(Decimal("0.01"), rounding=ROUND_HALF_EVEN))


def minute_figure(stats: dict[str, Any] | None, key: str) -> float | None:
    if stats is None:
        return None
    try:
        return float((stats.get("statsMinute") or {}).get(key) or 0.0)
    except (TypeError, ValueError):
        return None


async def scrape(admin: MQAdmin, cluster: str | None, budget: float, *, full: bool = True) -> Scrape:
    """Every master of ``cluster`` (every cluster when None) within ``budget`` seconds from now.

    ``full`` also asks for the figures only the exporter's names need. Never raises for a server that
    fails or is slow: it is down in the result.
    """
    started = time.monotonic()
    end = started + budget
    try:
        async with asyncio.timeout(budget * NAMESRV_SHARE):
            info = await admin.namesrv.examine_broker_cluster_info()
    except Exception as e:  # TimeoutError included: the name server is down for this scrape
        error: BaseException = e
        if isinstance(e, TimeoutError):
            error = _cut_off(";".join(admin.core.namesrv_addrs), budget * NAMESRV_SHARE)
        return Scrape(False, namesrv_error=error, seconds=time.monotonic() - started)
    result = Scrape(True)
    result.brokers = _masters(info, cluster)
    if cluster is not None and not result.brokers:
        result.cluster_missing = cluster
    await asyncio.gather(*(_broker(admin, b, end, full) for b in result.brokers))
    if full:
        await _groups(admin, result, end)
    result.seconds = time.monotonic() - started
    return result


def _cut_off(addr: str, seconds: float) -> BaseException:
    """What a target still silent at the deadline reads as (exit code 5 where it is reported)."""
    from mqadmin.admin.errors import DeadlineError

    return DeadlineError(addr, seconds)


def _masters(info: Any, cluster: str | None) -> list[BrokerScrape]:
    clusters = info.cluster_addr_table or {}
    out: list[BrokerScrape] = []
    for c in java_hash_order(clusters) if cluster is None else [cluster]:
        for name in java_hash_order(clusters.get(c) or []):
            bd = (info.broker_addr_table or {}).get(name)
            addrs = dict(bd.broker_addrs or {}) if bd is not None else {}
            master = addrs.pop(0, None)
            if master is not None:
                out.append(BrokerScrape(c, name, master, slaves=addrs))
    return out


async def _within(end: float, aw: Awaitable[T]) -> T:
    async with asyncio.timeout(max(0.0, end - time.monotonic())):
        return await aw


async def _broker(admin: MQAdmin, b: BrokerScrape, end: float, full: bool) -> None:
    start = time.monotonic()
    try:
        b.runtime, b.consume = await _within(
            end,
            asyncio.gather(
                admin.broker.fetch_broker_runtime_stats(b.addr),
                admin.consumption.fetch_broker_consume_stats(b.addr),
            ),
        )
    except Exception as e:
        b.error = _cut_off(b.addr, round(end - start, 3)) if isinstance(e, TimeoutError) else e
        return
    if b.consume is not None:  # a blank group a Java broker keeps: no series, no request
        drop_unaskable_groups(b.consume)
    if not full:
        return
    try:
        await _within(end, _details(admin, b))
    except Exception as e:  # the figures that came are kept; the rest is left out
        b.complete = False
        log.info("metrics: %s (%s) cut short: %s", b.broker, b.addr, e or type(e).__name__)


async def _run(jobs: Iterable[Awaitable[None]], width: int) -> None:
    """The jobs, ``width`` at a time, on a few workers: a task per job would hold thousands of waiting
    tasks (most of a scrape's memory, and their scheduling much of its time). One job raising ends
    them all."""
    todo = iter(jobs)

    async def worker() -> None:
        for job in todo:
            await job

    async with asyncio.TaskGroup() as tg:
        for _ in range(width):
            tg.create_task(worker())


async def _details(admin: MQAdmin, b: BrokerScrape) -> None:
    """The exporter's per-topic and per-group figures, asking only what the consume stats do not tell.

    A topic's offsets come from the consume stats already fetched when some group has them (the same
    queues and figures as GET_TOPIC_STATS_INFO, see :func:`_known_offsets`). A stats item is not
    asked for a topic this broker never stored a message of (its offsets all 0): the broker counts
    puts and gets only for messages it stored, so it has no such item and would answer an error (the
    Java exporter asks, gets that error and gives no series: the page is the same). Nor is a size item
    asked when its count item is missing: brokers create the two together (every ``incTopicPutNums``
    and ``incGroupGetNums`` of Java 4.9.8 and 5.3.3 has its ``...Size`` beside it)."""

    async def call(fn: Callable[[], Awaitable[T]]) -> T | None:
        try:
            return await fn()
        except TimeoutError:
            raise
        except Exception:  # no such item, a refused request: that one figure is left out
            return None

    async def stats(name: str, key: str) -> dict[str, Any] | None:
        return await call(lambda: admin.brokers.view_broker_stats_data(b.addr, name, key))

    async def topic(name: str) -> None:
        offset = b.topic_offsets.get(name)
        if offset is None:
            offset = await call(lambda: _topic_offset(admin, b.addr, name))
            if offset is not None:
                b.topic_offsets[name] = offset
        if name.startswith((RETRY_GROUP_TOPIC_PREFIX, DLQ_GROUP_TOPIC_PREFIX)) or offset == 0:
            return
        n = minute_figure(await stats("TOPIC_PUT_NUMS", name), "tps")
        s = None if n is None else minute_figure(await stats("TOPIC_PUT_SIZE", name), "tps")
        if n is not None and s is not None:
            b.topic_put[name] = (fixed_double(n), fixed_double(s))

    async def pair(t: str, g: str) -> None:
        key = f"{t}@{g}"
        n = minute_figure(await stats("GROUP_GET_NUMS", key), "tps")
        s = None if n is None else minute_figure(await stats("GROUP_GET_SIZE", key), "tps")
        back = minute_figure(await stats("SNDBCK_PUT_NUMS", key), "sum")
        b.group_get[(t, g)] = [
            None if n is None else fixed_double(n),
            None if s is None else fixed_double(s),
            back,
        ]

    async def config() -> dict[str, Any]:
        wrapper = await call(lambda: admin.topics.get_all_topic_config(b.addr))
        return dict((wrapper.topic_config_table or {}) if wrapper is not None else {})

    async def slave(addr: str) -> None:
        table = await call(lambda: admin.broker.fetch_broker_runtime_stats(addr))
        if table is not None and (table.get("commitLogMaxOffset") or "").lstrip("-").isdigit():
            b.slave_max_offsets[addr] = int(table["commitLogMaxOffset"])

    configs, b.broker_put, b.broker_get, b.producers, *_ = await asyncio.gather(
        config(),
        stats("BROKER_PUT_NUMS", b.cluster),
        stats("BROKER_GET_NUMS", b.cluster),
        call(lambda: _producer_counts(admin, b.addr)),
        *(slave(a) for a in b.slaves.values()),
    )
    b.topic_offsets.update(_known_offsets(b, configs))
    stored: dict[tuple[str, str], int] = {}  # (topic, group) → the broker's offsets summed
    for g, st in _stats(b):
        for mq, w in st.offset_table.items():
            stored[(mq.topic or "", g)] = stored.get((mq.topic or "", g), 0) + w.broker_offset
    await _run(
        itertools.chain(
            (topic(t) for t in configs),
            (
                pair(t, g)
                for (t, g), total in sorted(stored.items())
                if total > 0 and not t.startswith(DLQ_GROUP_TOPIC_PREFIX)
            ),
            _latencies(admin, b, call),
        ),
        PER_BROKER_CALLS,
    )


_MAX_OFFSET = re.compile(rb'"maxOffset":(-?[0-9]+)')


async def _topic_offset(admin: MQAdmin, addr: str, topic: str) -> int:
    """GET_TOPIC_STATS_INFO: the sum of the max offsets of the topic's queues on the broker.

    Only that one field of each queue is read (a ``"maxOffset":`` can only be a key there: inside a
    string its quotes are escaped): decoding the whole table, keyed by JSON objects that the C parser
    cannot read, took most of a scrape's time on a broker with thousands of topics."""
    from mqadmin.protocol.codes import RequestCode
    from mqadmin.protocol.headers.topic import GetTopicStatsInfoRequestHeader

    resp = await admin.core.invoke(
        addr, RequestCode.GET_TOPIC_STATS_INFO, GetTopicStatsInfoRequestHeader(topic=topic)
    )
    return sum(int(n) for n in _MAX_OFFSET.findall(resp.body or b""))


def _known_offsets(b: BrokerScrape, configs: dict[str, Any]) -> dict[str, int]:
    """Topic → sum of its queues' max offsets, from the broker's consume stats, where they hold what
    GET_TOPIC_STATS_INFO would: both give every write queue's max offset (0 below 0), and a 5.x
    broker's topic stats also the read queues beyond them, so only topics with no more read queues
    than write queues, and every write queue present, are taken."""
    out: dict[str, int] = {}
    for _, st in _stats(b):
        sums: dict[str, list[int]] = {}
        for mq, w in st.offset_table.items():
            acc = sums.setdefault(mq.topic or "", [0, 0])
            acc[0] += w.broker_offset
            acc[1] += 1
        for t, (total, queues) in sums.items():
            cfg = configs.get(t)
            if cfg is not None and cfg.read_queue_nums <= cfg.write_queue_nums == queues:
                out.setdefault(t, total)
    return out


def _stats(b: BrokerScrape) -> list[tuple[str, Any]]:
    """(group, ConsumeStats) pairs of the broker's consume stats."""
    out: list[tuple[str, Any]] = []
    for entry in b.consume.consume_stats_list if b.consume is not None else []:
        for group, stats_list in entry.items():
            out.extend((group, s) for s in stats_list)
    return out


async def _producer_counts(admin: MQAdmin, addr: str) -> dict[str, int]:
    return {g: len(items) for g, items in (await admin.producers.get_all_producer_info(addr)).items()}


def _latencies(
    admin: MQAdmin, b: BrokerScrape, call: Callable[..., Awaitable[Any]]
) -> Iterator[Awaitable[None]]:
    """The exporter's ``rocketmq_group_get_latency_by_storetime``: per (topic, group), the largest
    "now minus the store time of the first message not consumed" over its lagging queues (a queue with
    nothing to consume counts 0, as in Java; only lagging queues are pulled). Yields the pulls."""
    from mqadmin.protocol.bodies.message_queue import MessageQueue

    now_ms = int(time.time() * 1000)

    async def one(topic: str, group: str, queue_id: int, offset: int) -> None:
        q = MessageQueue(topic, b.broker, queue_id)
        got = await call(lambda: admin.messages.pull_message(q, "*", offset, 1))
        if got is not None and got.status == "FOUND" and got.messages:
            age = now_ms - got.messages[0].store_timestamp
            key = (topic, group)
            b.latency_ms[key] = max(b.latency_ms.get(key, 0), age, 0)

    lagging = []
    for group, stats in _stats(b):
        for mq, w in stats.offset_table.items():
            topic = mq.topic or ""
            b.latency_ms.setdefault((topic, group), 0)
            if w.broker_offset > w.consumer_offset >= 0:
                lagging.append((topic, group, mq.queue_id, w.consumer_offset))
    return (one(*job) for job in lagging)


async def _groups(admin: MQAdmin, result: Scrape, end: float) -> None:
    """Each group seen on an answering master: its connections (from that master) and each client's
    running info (relayed by it), as the exporter asks for them."""
    from mqadmin.protocol.bodies.consumption import ConsumerRunningInfo
    from mqadmin.protocol.codes import RequestCode
    from mqadmin.protocol.headers.consumer import GetConsumerRunningInfoRequestHeader

    where: dict[str, str] = {}
    for b in result.brokers:
        if b.up:
            for group, _ in _stats(b):
                where.setdefault(group, b.addr)

    async def running(g: GroupScrape, addr: str, client_id: str) -> None:
        header = GetConsumerRunningInfoRequestHeader(
            consumer_group=g.group, client_id=client_id, jstack_enable=False
        )
        resp = await admin.core.invoke(addr, RequestCode.GET_CONSUMER_RUNNING_INFO, header)
        g.running[client_id] = ConsumerRunningInfo.decode(resp.body or b"{}")

    async def one(group: str, addr: str) -> None:
        g = result.groups[group]
        try:
            cc = await admin.connections.examine_consumer_connection_info(group, addr)
        except TimeoutError:
            raise
        except Exception:  # nobody online (or the broker refused): 0 consumers, clustering
            g.connections = []
            return
        g.model = cc.message_model or "CLUSTERING"
        g.connections = list(cc.connection_set)
        ids = [c.client_id for c in g.connections if c.client_id]
        got = await asyncio.gather(*(running(g, addr, i) for i in ids), return_exceptions=True)
        for e in got:
            if isinstance(e, TimeoutError):
                raise e
            if isinstance(e, Exception):  # that client's series are left out
                log.info("metrics: running info of a client of %s: %s", group, e)

    for group in where:
        result.groups[group] = GroupScrape(group)
    try:
        await _within(end, _run((one(g, a) for g, a in where.items()), PER_BROKER_CALLS * 2))
    except Exception as e:
        log.info("metrics: consumer groups cut short: %s", e or type(e).__name__)
