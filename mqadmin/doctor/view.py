"""What the checks read of a cluster, each piece asked once and shared: several checks need the
cluster table, a broker's runtime table or a group's clients, and they run at the same time.

A reading that fails raises its error to every check that awaits it; a check reading many brokers
keeps what answered (:meth:`ClusterView.each`) and the ``broker-unreachable`` check says which did
not, so one dead broker does not make every other check silent.
"""

from __future__ import annotations

import asyncio
import dataclasses
import time
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from functools import partial
from typing import Any, TypeVar

from mqadmin.admin.api import MQAdmin
from mqadmin.admin.connections import NoConnectionError
from mqadmin.doctor.limits import Limits
from mqadmin.protocol.bodies.cluster import ClusterInfo
from mqadmin.protocol.bodies.connection import ConsumerConnection
from mqadmin.protocol.bodies.consumption import BrokerConsumeStats, ConsumerRunningInfo
from mqadmin.protocol.bodies.route import TopicRouteData
from mqadmin.protocol.names import DLQ_GROUP_TOPIC_PREFIX, RETRY_GROUP_TOPIC_PREFIX

__all__ = ["BrokerRef", "ClusterView", "GroupTotals", "LagSample"]

T = TypeVar("T")
K = TypeVar("K")


@dataclass(frozen=True, slots=True)
class BrokerRef:
    """One broker process as a name server lists it."""

    cluster: str
    name: str
    broker_id: int
    addr: str

    @property
    def master(self) -> bool:
        return self.broker_id == 0


@dataclass(slots=True)
class GroupTotals:
    """A group's figures on one topic, summed over the queues of every master that answered."""

    broker_offset: int = 0
    consumer_offset: int = 0

    @property
    def lag(self) -> int:
        return max(0, self.broker_offset - self.consumer_offset)


@dataclass(slots=True)
class LagSample:
    """Every group's totals per topic at one moment (monotonic seconds)."""

    at: float
    totals: dict[tuple[str, str], GroupTotals] = field(default_factory=dict)
    """(group, topic) → totals."""
    where: dict[str, str] = field(default_factory=dict)
    """group → the address of a master that has its offsets (to ask for its clients)."""


class ClusterView:
    """The cluster as the checks see it, through ``admin`` (one client, every name server of it)."""

    def __init__(
        self,
        admin: MQAdmin,
        cluster: str | None = None,
        limits: Limits | None = None,
        previous: LagSample | None = None,
    ) -> None:
        self.admin = admin
        self.cluster = cluster
        self.limits = limits or Limits()
        self.previous = previous
        """A sample of an earlier run (``--watch``, the exporter): the lag checks compare with it
        instead of waiting a window when it is old enough."""
        self._memo: dict[Any, asyncio.Future[Any]] = {}
        self._slots = asyncio.Semaphore(self.limits.requests)
        self.last_sample: LagSample | None = None
        """The newest lag sample taken (for the next run)."""
        self.runtime_read_at: dict[str, tuple[float, float]] = {}
        """Per broker address, this machine's clock (epoch seconds) before and after its runtime table."""

    # ------------------------------------------------------------------------------ plumbing

    def _once(self, key: Any, make: Callable[[], Awaitable[T]]) -> Awaitable[T]:
        """The one shared reading under ``key`` (started by the first check that asks)."""
        fut = self._memo.get(key)
        if fut is None:
            fut = asyncio.ensure_future(self._limited(make))
            self._memo[key] = fut
        return asyncio.shield(fut)

    async def _limited(self, make: Callable[[], Awaitable[T]]) -> T:
        async with self._slots:
            return await make()

    async def each(
        self, keys: Iterable[K], read: Callable[[K], Awaitable[T]]
    ) -> tuple[dict[K, T], dict[K, BaseException]]:
        """``read(key)`` for every key at once: (answers, failures) by key."""
        items = list(keys)
        got = await asyncio.gather(*(read(k) for k in items), return_exceptions=True)
        ok: dict[K, T] = {}
        failed: dict[K, BaseException] = {}
        for k, g in zip(items, got, strict=True):
            if isinstance(g, BaseException):
                if isinstance(g, asyncio.CancelledError):
                    raise g
                failed[k] = g
            else:
                ok[k] = g
        return ok, failed

    def _one_namesrv(self, addr: str) -> MQAdmin:
        settings = dataclasses.replace(self.admin.core.settings, namesrv_addrs=(addr,))
        return MQAdmin(settings, self.admin.core.client)

    # ------------------------------------------------------------------------------ name servers

    @property
    def namesrv_addrs(self) -> tuple[str, ...]:
        return self.admin.core.namesrv_addrs

    def cluster_info_of(self, ns: str) -> Awaitable[ClusterInfo]:
        return self._once(
            ("cluster", ns), lambda: self._one_namesrv(ns).namesrv.examine_broker_cluster_info()
        )

    async def cluster_infos(self) -> tuple[dict[str, ClusterInfo], dict[str, BaseException]]:
        return await self.each(self.namesrv_addrs, self.cluster_info_of)

    async def brokers(self) -> list[BrokerRef]:
        """Every broker process any name server lists (of ``-c``'s cluster), masters first; raises
        when no name server answered."""
        infos, failed = await self.cluster_infos()
        if not infos:
            raise next(iter(failed.values()))
        seen: dict[tuple[str, int], BrokerRef] = {}
        for info in infos.values():
            for cluster, names in (info.cluster_addr_table or {}).items():
                if self.cluster is not None and cluster != self.cluster:
                    continue
                for name in sorted(names):
                    bd = (info.broker_addr_table or {}).get(name)
                    for bid, addr in sorted((bd.broker_addrs or {}).items() if bd is not None else []):
                        seen.setdefault((name, bid), BrokerRef(cluster, name, bid, addr))
        return sorted(seen.values(), key=lambda b: (b.broker_id != 0, b.cluster, b.name, b.broker_id))

    async def masters(self) -> list[BrokerRef]:
        return [b for b in await self.brokers() if b.master]

    def topic_list_of(self, ns: str) -> Awaitable[list[str]]:
        return self._once(("topics", ns), lambda: self._one_namesrv(ns).namesrv.fetch_all_topic_list())

    def route_of(self, ns: str, topic: str) -> Awaitable[TopicRouteData]:
        return self._once(
            ("route", ns, topic), lambda: self._one_namesrv(ns).namesrv.examine_topic_route_info(topic)
        )

    async def routes(self) -> dict[str, dict[str, TopicRouteData]]:
        """name server → topic → its route there, for every topic but the groups' retry and DLQ
        topics, of every name server that answered (a topic missing on one is absent from its map)."""
        lists, _ = await self.each(self.namesrv_addrs, self.topic_list_of)
        out: dict[str, dict[str, TopicRouteData]] = {}
        for ns, topics in lists.items():
            wanted = [
                t for t in topics if not t.startswith((RETRY_GROUP_TOPIC_PREFIX, DLQ_GROUP_TOPIC_PREFIX))
            ]
            got, _ = await self.each(wanted, partial(self.route_of, ns))
            out[ns] = got
        return out

    def kv_list(self, namespace: str) -> Awaitable[dict[str, str]]:
        return self._once(("kv", namespace), lambda: self.admin.namesrv.get_kv_list_by_namespace(namespace))

    # ------------------------------------------------------------------------------ brokers

    def runtime(self, addr: str) -> Awaitable[dict[str, str]]:
        """A broker's runtime table; this machine's clock just before and after it is asked is kept
        in :attr:`runtime_read_at` (the broker's own clock is in the table)."""

        async def read() -> dict[str, str]:
            before = time.time()
            table = await self.admin.broker.fetch_broker_runtime_stats(addr)
            self.runtime_read_at[addr] = (before, time.time())
            return table

        return self._once(("runtime", addr), read)

    def broker_config(self, addr: str) -> Awaitable[dict[str, str]]:
        return self._once(("config", addr), lambda: self.admin.brokers.get_broker_config(addr))

    def topic_configs(self, addr: str) -> Awaitable[dict[str, Any]]:
        async def read() -> dict[str, Any]:
            wrapper = await self.admin.topics.get_all_topic_config(addr)
            return dict(wrapper.topic_config_table or {})

        return self._once(("topic-configs", addr), read)

    def consume_stats(self, addr: str) -> Awaitable[BrokerConsumeStats]:
        return self._once(("consume", addr), lambda: self.admin.consumption.fetch_broker_consume_stats(addr))

    def subscription_groups(self, addr: str) -> Awaitable[dict[str, Any]]:
        async def read() -> dict[str, Any]:
            wrapper = await self.admin.groups.get_all_subscription_group(addr)
            return dict(wrapper.subscription_group_table or {})

        return self._once(("groups", addr), read)

    # ------------------------------------------------------------------------------ groups

    async def lag_now(self) -> LagSample:
        """Every group's totals now, from one GET_BROKER_CONSUME_STATS per master (fresh each call)."""
        masters = await self.masters()
        got, _ = await self.each(
            masters,
            lambda b: self._limited(lambda: self.admin.consumption.fetch_broker_consume_stats(b.addr)),
        )
        sample = LagSample(time.monotonic())
        for b, stats in got.items():
            for entry in stats.consume_stats_list:
                for group, stats_list in entry.items():
                    sample.where.setdefault(group, b.addr)
                    for st in stats_list:
                        for mq, w in st.offset_table.items():
                            t = sample.totals.setdefault((group, mq.topic or ""), GroupTotals())
                            t.broker_offset += w.broker_offset
                            t.consumer_offset += max(0, w.consumer_offset)
        return sample

    def lag_samples(self) -> Awaitable[tuple[LagSample, LagSample]]:
        """Two samples ``lag_window`` seconds apart (or the earlier run's and one now)."""

        async def read() -> tuple[LagSample, LagSample]:
            window = self.limits.lag_window
            first = self.previous
            if first is None or time.monotonic() - first.at < window:
                first = await self.lag_now()
                await asyncio.sleep(window)
            second = await self.lag_now()
            self.last_sample = second
            return first, second

        fut = self._memo.get("lag-samples")
        if fut is None:  # not under the request slots: it mostly sleeps
            fut = asyncio.ensure_future(read())
            self._memo["lag-samples"] = fut
        return asyncio.shield(fut)

    def connection(self, group: str, addr: str) -> Awaitable[ConsumerConnection | None]:
        """The group's online clients as ``addr`` knows them; None when nobody is online."""

        async def read() -> ConsumerConnection | None:
            try:
                return await self.admin.connections.examine_consumer_connection_info(group, addr)
            except NoConnectionError:
                return None

        return self._once(("connection", group), read)

    def running_info(self, group: str, client_id: str, addr: str) -> Awaitable[ConsumerRunningInfo]:
        async def read() -> ConsumerRunningInfo:
            from mqadmin.protocol.codes import RequestCode
            from mqadmin.protocol.headers.consumer import GetConsumerRunningInfoRequestHeader

            header = GetConsumerRunningInfoRequestHeader(
                consumer_group=group, client_id=client_id, jstack_enable=False
            )
            resp = await self.admin.core.invoke(addr, RequestCode.GET_CONSUMER_RUNNING_INFO, header)
            return ConsumerRunningInfo.decode(resp.body or b"{}")

        return self._once(("running", group, client_id), read)

    async def online_groups(self) -> dict[str, str]:
        """group → a master to ask for its clients: every group of a master's group table or offsets."""
        masters = await self.masters()
        tables, _ = await self.each(masters, lambda b: self.subscription_groups(b.addr))
        stats, _ = await self.each(masters, lambda b: self.consume_stats(b.addr))
        out: dict[str, str] = {}
        for b in masters:
            for group in tables.get(b, {}):
                out.setdefault(group, b.addr)
            for entry in stats[b].consume_stats_list if b in stats else []:
                for group in entry:
                    out.setdefault(group, b.addr)
        return out

    def cancel(self) -> None:
        """Stop every reading still under way (the run is over)."""
        for fut in self._memo.values():
            fut.cancel()
