"""Take one snapshot of every cluster behind the name servers: offsets, consumer progress, broker stats.

The collector asks the admin API (:class:`mqadmin.admin.api.MQAdmin`: one method per request code,
the declared headers) through the six methods of :class:`SnapshotSource`, so it can also be driven by
anything else that answers them. One run:

1. asks the name server for the clusters and the topic names (without them there is nothing to do:
   a failure there is fatal);
2. per broker group, picks the master (or the lowest broker id when there is none) and asks its
   runtime table first; a broker that cannot be reached is recorded as ``missing`` once and skipped,
   rather than timing out once per topic;
3. asks every reachable broker, concurrently, for the stats of every topic and the progress of every
   group it knows, at most ``concurrency`` calls at once;
4. stops at ``deadline`` seconds: unfinished calls are cancelled and recorded as missing, and what was
   answered is kept.

A topic or group name that no request may carry (a Java broker keeps a group named ``""``, for one;
see :mod:`mqadmin.admin.tablenames`) is not asked about, as Java's tools never ask: it becomes one
``skipped`` note of the run, not a missing row.

Rows are plain dicts in the column layout of :mod:`mqadmin.pipeline.schema` (no pyarrow needed here).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from mqadmin.admin.errors import NameServersUnavailableError
from mqadmin.admin.tablenames import SkippedName, askable_groups, askable_topics
from mqadmin.pipeline.layout import BROKER_STATS, GROUP_OFFSETS, MISSING, QUEUE_OFFSETS
from mqadmin.protocol.bodies import ClusterInfo, ConsumeStats, SubscriptionGroupWrapper, TopicStatsTable
from mqadmin.protocol.codes import ResponseCode
from mqadmin.remoting.errors import RemoteCommandError, RemotingError, RemotingTimeoutError

if TYPE_CHECKING:
    from mqadmin.admin.api import MQAdmin

__all__ = [
    "AdminSource",
    "BrokerTarget",
    "CollectorError",
    "Snapshot",
    "SnapshotSource",
    "brokers_of",
    "collect_snapshot",
]

T = TypeVar("T")
Row = dict[str, Any]

DEFAULT_DEADLINE = 30.0
DEFAULT_CONCURRENCY = 32


class SnapshotSource(Protocol):
    """The admin API's methods the collector calls (:class:`mqadmin.admin.api.MQAdmin` is one);
    every method may raise on failure."""

    async def examine_broker_cluster_info(self) -> ClusterInfo:
        """Clusters, broker groups and their addresses (name server, GET_BROKER_CLUSTER_INFO)."""
        ...

    async def fetch_all_topic_list(self) -> list[str]:
        """Every topic name (name server, GET_ALL_TOPIC_LIST_FROM_NAMESERVER)."""
        ...

    async def examine_topic_stats_in_broker(self, addr: str, topic: str) -> TopicStatsTable:
        """The topic's queue offsets on one broker (GET_TOPIC_STATS_INFO); TOPIC_NOT_EXIST when the
        broker does not have it."""
        ...

    async def get_all_subscription_group(self, addr: str) -> SubscriptionGroupWrapper:
        """Every subscription group the broker knows (GET_ALL_SUBSCRIPTIONGROUP_CONFIG)."""
        ...

    async def get_consume_stats(
        self, addr: str, group: str, topic: str | None = None, timeout: float | None = None
    ) -> ConsumeStats:
        """A group's offsets on every queue of the broker it consumes (GET_CONSUME_STATS)."""
        ...

    async def fetch_broker_runtime_stats(self, broker_addr: str) -> dict[str, str]:
        """The broker's runtime table (GET_BROKER_RUNTIME_INFO)."""
        ...


class AdminSource:
    """:class:`SnapshotSource` over an :class:`mqadmin.admin.api.MQAdmin`: each method is the request
    of the admin family that holds it."""

    def __init__(self, admin: MQAdmin) -> None:
        self.admin = admin

    async def examine_broker_cluster_info(self) -> ClusterInfo:
        return await self.admin.namesrv.examine_broker_cluster_info()

    async def fetch_all_topic_list(self) -> list[str]:
        return await self.admin.namesrv.fetch_all_topic_list()

    async def examine_topic_stats_in_broker(self, addr: str, topic: str) -> TopicStatsTable:
        return await self.admin.topics.examine_topic_stats_in_broker(addr, topic)

    async def get_all_subscription_group(self, addr: str) -> SubscriptionGroupWrapper:
        return await self.admin.groups.get_all_subscription_group(addr)

    async def get_consume_stats(
        self, addr: str, group: str, topic: str | None = None, timeout: float | None = None
    ) -> ConsumeStats:
        return await self.admin.broker.get_consume_stats(addr, group, topic, timeout)

    async def fetch_broker_runtime_stats(self, broker_addr: str) -> dict[str, str]:
        return await self.admin.broker.fetch_broker_runtime_stats(broker_addr)


class CollectorError(Exception):
    """The run could not start: the name servers did not tell which brokers exist."""

    def __init__(self, message: str, *, timed_out: bool = False) -> None:
        super().__init__(message)
        self.timed_out = timed_out


@dataclass(frozen=True, slots=True)
class BrokerTarget:
    """The one address of a broker group the collector asks."""

    cluster: str | None
    broker: str
    addr: str | None


@dataclass(slots=True)
class Snapshot:
    """The rows of one run, per table, plus when it started and how long it took."""

    run_time: datetime
    queue_offsets: list[Row] = field(default_factory=list)
    group_offsets: list[Row] = field(default_factory=list)
    broker_stats: list[Row] = field(default_factory=list)
    missing: list[Row] = field(default_factory=list)
    skipped: list[Row] = field(default_factory=list)
    """Names deliberately not asked about (``what`` = ``group``/``topic``, ``target``, ``reason``)."""
    brokers: int = 0
    elapsed: float = 0.0

    def tables(self) -> dict[str, list[Row]]:
        return {
            QUEUE_OFFSETS: self.queue_offsets,
            GROUP_OFFSETS: self.group_offsets,
            BROKER_STATS: self.broker_stats,
            MISSING: self.missing,
        }

    @property
    def missing_brokers(self) -> list[str]:
        return sorted({r["broker"] for r in self.missing if r["what"] == "broker" and r["broker"]})


def brokers_of(info: ClusterInfo) -> list[BrokerTarget]:
    """Every broker group with the address to ask: the master, else the lowest broker id."""
    cluster_of: dict[str, str] = {}
    for cluster, names in (info.cluster_addr_table or {}).items():
        for name in names:
            cluster_of.setdefault(name, cluster)
    out: list[BrokerTarget] = []
    for name, bd in sorted((info.broker_addr_table or {}).items()):
        addrs = bd.broker_addrs or {}
        addr = addrs[min(addrs)] if addrs else None
        out.append(BrokerTarget(cluster_of.get(name, bd.cluster), name, addr))
    return out


def _ms_time(t: float) -> datetime:
    return datetime.fromtimestamp(int(t * 1000) / 1000, UTC)


def _opt_time(ms: int) -> datetime | None:
    return datetime.fromtimestamp(ms / 1000, UTC) if ms > 0 else None


def _reason(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    return text or type(exc).__name__


def _unreachable(exc: BaseException) -> bool:
    """The broker itself is gone (as opposed to one call failing on a live broker)."""
    return isinstance(exc, RemotingError) and not isinstance(exc, RemoteCommandError)


class _Run:
    """The mutable state of one run, shared by the concurrent calls."""

    def __init__(self, source: SnapshotSource, snap: Snapshot, concurrency: int, clock: Callable[[], float]):
        self.source = source
        self.snap = snap
        self.gate = asyncio.Semaphore(max(1, concurrency))
        self.clock = clock

    def base(self, target: BrokerTarget, t: float) -> Row:
        return {
            "time": _ms_time(t),
            "run_time": self.snap.run_time,
            "cluster": target.cluster,
            "broker": target.broker,
        }

    def miss(self, target: BrokerTarget | None, what: str, target_name: str | None, error: str) -> None:
        t = self.clock()
        self.snap.missing.append(
            {
                "time": _ms_time(t),
                "run_time": self.snap.run_time,
                "cluster": target.cluster if target else None,
                "broker": target.broker if target else None,
                "broker_addr": target.addr if target else None,
                "what": what,
                "target": target_name,
                "error": error,
            }
        )

    def skip(self, target: BrokerTarget | None, names: list[SkippedName]) -> None:
        """One note per name left out (of ``target``'s table; None: of the name server's topic list)."""
        for n in names:
            self.snap.skipped.append(
                {
                    "cluster": target.cluster if target else None,
                    "broker": target.broker if target else None,
                    "broker_addr": target.addr if target else None,
                    "what": n.kind,
                    "target": n.name,
                    "reason": n.reason,
                }
            )

    async def call(
        self, target: BrokerTarget, what: str, name: str | None, make: Callable[[], Awaitable[T]]
    ) -> tuple[bool, T | None]:
        """One call under the concurrency gate; a failure or a cancellation becomes a missing row."""
        try:
            async with self.gate:
                return True, await make()
        except asyncio.CancelledError:
            self.miss(target, what, name, "deadline exceeded")
            raise
        except Exception as e:
            if _unreachable(e):
                raise
            self.miss(target, what, name, _reason(e))
            return False, None

    async def broker(self, target: BrokerTarget, topics: list[str]) -> None:
        addr = target.addr
        if addr is None:
            self.miss(target, "broker", None, "no address registered")
            return
        try:
            ok, table = await self.call(
                target, "runtime_info", None, lambda: self.source.fetch_broker_runtime_stats(addr)
            )
        except asyncio.CancelledError:
            raise
        except Exception as e:
            self.miss(target, "broker", None, _reason(e))
            return
        if ok and table is not None:
            t = self.clock()
            for k in sorted(table):
                self.snap.broker_stats.append(
                    {**self.base(target, t), "broker_addr": addr, "key": k, "value": table[k]}
                )
        await asyncio.gather(
            *(self.topic(target, addr, topic) for topic in topics),
            self.groups(target, addr),
        )

    async def topic(self, target: BrokerTarget, addr: str, topic: str) -> None:
        ok, stats = await self._tolerant(target, "topic_stats", topic, lambda: self._topic_stats(addr, topic))
        if not ok or stats is None:
            return
        t = self.clock()
        for mq, off in sorted(stats.offset_table.items(), key=lambda kv: kv[0].queue_id):
            self.snap.queue_offsets.append(
                {
                    **self.base(target, t),
                    "topic": mq.topic or topic,
                    "queue_id": mq.queue_id,
                    "min_offset": off.min_offset,
                    "max_offset": off.max_offset,
                    "last_update_time": _opt_time(off.last_update_timestamp),
                }
            )

    async def _topic_stats(self, addr: str, topic: str) -> TopicStatsTable | None:
        """The topic's stats on one broker, or None when the broker does not have it."""
        try:
            return await self.source.examine_topic_stats_in_broker(addr, topic)
        except RemoteCommandError as e:
            if e.code == ResponseCode.TOPIC_NOT_EXIST:
                return None
            raise

    async def _group_names(self, addr: str) -> list[str]:
        return list((await self.source.get_all_subscription_group(addr)).subscription_group_table or {})

    async def groups(self, target: BrokerTarget, addr: str) -> None:
        ok, listed = await self._tolerant(target, "list_groups", None, lambda: self._group_names(addr))
        if not ok or not listed:
            return
        groups, skipped = askable_groups(listed)
        self.skip(target, skipped)
        await asyncio.gather(*(self.group(target, addr, g) for g in groups))

    async def group(self, target: BrokerTarget, addr: str, group: str) -> None:
        ok, stats = await self._tolerant(
            target, "consume_stats", group, lambda: self.source.get_consume_stats(addr, group)
        )
        if not ok or stats is None:
            return
        t = self.clock()
        base = {**self.base(target, t), "group": group}
        if not stats.offset_table:
            empty = dict.fromkeys(
                ("topic", "queue_id", "broker_offset", "consumer_offset", "lag", "last_consume_time")
            )
            self.snap.group_offsets.append({**base, **empty})
            return
        items = sorted(stats.offset_table.items(), key=lambda kv: (kv[0].topic or "", kv[0].queue_id))
        for mq, w in items:
            self.snap.group_offsets.append(
                {
                    **base,
                    "broker": mq.broker_name or target.broker,
                    "topic": mq.topic,
                    "queue_id": mq.queue_id,
                    "broker_offset": w.broker_offset,
                    "consumer_offset": w.consumer_offset,
                    "lag": max(0, w.broker_offset - w.consumer_offset),
                    "last_consume_time": _opt_time(w.last_timestamp),
                }
            )

    async def _tolerant(
        self, target: BrokerTarget, what: str, name: str | None, make: Callable[[], Awaitable[T]]
    ) -> tuple[bool, T | None]:
        """A call on a broker already known to be up: even a transport failure only loses this call."""
        try:
            return await self.call(target, what, name, make)
        except asyncio.CancelledError:
            raise
        except Exception as e:
            self.miss(target, what, name, _reason(e))
            return False, None


async def collect_snapshot(
    source: SnapshotSource,
    *,
    deadline: float = DEFAULT_DEADLINE,
    concurrency: int = DEFAULT_CONCURRENCY,
    clock: Callable[[], float] = time.time,
) -> Snapshot:
    """One run against ``source``, bounded by ``deadline`` seconds overall.

    Raises :class:`CollectorError` when the cluster list cannot be had; every other failure ends up
    in the snapshot's ``missing`` rows.
    """
    loop = asyncio.get_running_loop()
    started = loop.time()
    snap = Snapshot(run_time=_ms_time(clock()))
    run = _Run(source, snap, concurrency, clock)
    try:
        async with asyncio.timeout(deadline):
            info = await source.examine_broker_cluster_info()
    except TimeoutError:
        raise CollectorError(
            f"no cluster list from the name servers within {deadline:g} s", timed_out=True
        ) from None
    except Exception as e:
        if isinstance(e, NameServersUnavailableError) and e.failures:
            e = e.failures[-1][1]  # the last name server's error says what went wrong
        timed_out = isinstance(e, RemotingTimeoutError)
        raise CollectorError(
            f"no cluster list from the name servers: {_reason(e)}", timed_out=timed_out
        ) from e
    targets = brokers_of(info)
    snap.brokers = len(targets)

    listed: list[str] = []
    left = deadline - (loop.time() - started)
    try:
        async with asyncio.timeout(max(left, 0.001)):
            listed = sorted(set(await source.fetch_all_topic_list()))
    except TimeoutError:
        run.miss(None, "topic_list", None, "deadline exceeded")
    except Exception as e:
        run.miss(None, "topic_list", None, _reason(e))
    topics, skipped = askable_topics(listed)
    run.skip(None, skipped)

    tasks = [asyncio.ensure_future(run.broker(t, topics)) for t in targets]
    if tasks:
        left = deadline - (loop.time() - started)
        _, pending = await asyncio.wait(tasks, timeout=max(left, 0.0))
        for task in pending:
            task.cancel()
        results = await asyncio.gather(*tasks, return_exceptions=True)
        for target, res in zip(targets, results, strict=True):
            if isinstance(res, asyncio.CancelledError) and not any(
                r["broker"] == target.broker for r in snap.missing
            ):
                run.miss(target, "broker", None, "deadline exceeded")
            elif isinstance(res, Exception):
                run.miss(target, "broker", None, _reason(res))
    snap.elapsed = loop.time() - started
    return snap
