"""A cluster in the Prometheus text exposition format: consumer lag per group and queue, TPS, disk.

One sample asks every master (or those of one cluster) for two things at once: its runtime table
(GET_BROKER_RUNTIME_INFO: TPS, disk ratios, today's totals) and every group's progress on it
(GET_BROKER_CONSUME_STATS). ``exportMetrics --format prometheus`` prints one sample;
``exportMetrics --listen`` serves ``/metrics`` with the official ``prometheus_client``, taking a new
sample on each scrape. A broker that does not answer is ``rocketmq_broker_up 0`` and its series are
absent, so an alert on ``up`` fires instead of lag silently reading zero.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from mqadmin.protocol.javacoll import java_hash_order

if TYPE_CHECKING:
    from prometheus_client.registry import CollectorRegistry

    from mqadmin.admin.api import MQAdmin
    from mqadmin.admin.consumers import BrokerConsumeStats

__all__ = ["BrokerSample", "ClusterSample", "exposition", "registry_of", "sample_cluster", "serve"]


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


def serve(host: str, port: int, take: Callable[[], ClusterSample]) -> Callable[[], None]:
    """Serve ``/metrics`` on ``host:port`` from a thread, a new sample per scrape; returns a stopper."""
    from prometheus_client.exposition import start_http_server

    server, thread = start_http_server(port, host, registry_of(take))

    def stop() -> None:
        server.shutdown()
        server.server_close()
        thread.join(5)

    return stop
