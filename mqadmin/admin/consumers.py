"""Consumers, producers and offsets as brokers report them: consume stats (208, 317), connections
(203, 204, 328), a consumer's running info relayed by its broker (307), offset resets (222, and the
older per-queue way: 208/202/29/30/15), cloning offsets and reading a consume queue (321).

The request sequences are the Java 5.3.3 ``DefaultMQAdminExt`` ones, with these differences, each
for a reason given where it is made:

- brokers of one answer are asked at once (a fan-out bounded by the request timeouts), results are
  merged in route order as Java merges them one by one;
- a 4.x broker does not know GET_TOPIC_CONFIG (351): it is asked only for static topics (whose
  route says so), and REQUEST_CODE_NOT_SUPPORTED counts as "no static mapping";
- a group whose ``%RETRY%`` topic is unknown (it never had a consumer retry) can be looked up on
  every broker instead of failing (``any_broker_if_no_route``).
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from mqadmin.admin.broker import BrokerOps
from mqadmin.admin.core import AdminCore
from mqadmin.admin.errors import AdminError, BadResponseError
from mqadmin.admin.family import Family
from mqadmin.admin.namesrv import NamesrvOps
from mqadmin.admin.topics import TopicAdminOps
from mqadmin.protocol.bodies.answers import ProducerInfo, ProducerTableInfo, ResetOffsetBody
from mqadmin.protocol.bodies.connection import ConsumerConnection, ProducerConnection
from mqadmin.protocol.bodies.consumption import BrokerConsumeStats, ConsumeQueueView, ConsumerRunningInfo
from mqadmin.protocol.bodies.message_queue import MessageQueue
from mqadmin.protocol.bodies.route import TopicRouteData
from mqadmin.protocol.bodies.static_topic import TopicQueueMappingDetail
from mqadmin.protocol.bodies.stats import ConsumeStats, OffsetWrapper
from mqadmin.protocol.codes import RequestCode, ResponseCode
from mqadmin.protocol.errors import ProtocolError
from mqadmin.protocol.headers.consumption import (
    GetConsumerConnectionListRequestHeader,
    GetConsumerRunningInfoRequestHeader,
    GetConsumeStatsInBrokerHeader,
    GetProducerConnectionListRequestHeader,
)
from mqadmin.protocol.headers.topic import (
    QueryConsumeQueueRequestHeader,
)
from mqadmin.protocol.javacoll import hash_map_capacity, hash_ordered
from mqadmin.protocol.names import RETRY_GROUP_TOPIC_PREFIX as RETRY_PREFIX
from mqadmin.protocol.staticmapping import mock_broker_name, static_offset_strictly
from mqadmin.remoting.errors import RemoteCommandError

__all__ = [
    "ConsumerOps",
    "EmptyConsumeStatsError",
    "NoConnectionError",
    "RollbackStats",
    "convert_static_consume_stats",
    "sorted_queues",
]

LMQ_PREFIX = "%LMQ%"
WHEEL_TIMER_TOPIC = "rmq_sys_wheel_timer"
STATS_TIMEOUT_FACTOR = 3
"""GET_CONSUME_STATS waits three request timeouts, as Java's ``timeoutMillis * 3``."""


# ------------------------------------------------------------------------------------------ errors


class EmptyConsumeStatsError(AdminError):
    """No queue of the group has a committed offset (Java: codes 206 and 213 of ``examineConsumeStats``)."""

    def __init__(self, group: str, code: int, reason: str, *, no_route: bool = False) -> None:
        super().__init__(f"no consume progress for group {group}: {reason}")
        self.group = group
        self.code = code
        self.no_route = no_route

    @property
    def broadcasting(self) -> bool:
        return self.code == ResponseCode.BROADCAST_CONSUMPTION


class NoConnectionError(AdminError):
    """The broker answered, but with no client online in the group."""


# ------------------------------------------------------------------------------------------ results


def sorted_queues(stats: ConsumeStats) -> list[MessageQueue]:
    """The queues of consume stats in ``MessageQueue.compareTo`` order (as the Java tool sorts them)."""
    return sorted(stats.offset_table, key=MessageQueue.java_sort_key)


@dataclass(frozen=True, slots=True)
class RollbackStats:
    """One queue of an offset reset the old way: before, the offset the timestamp gives, and after."""

    broker_name: str | None
    queue_id: int
    broker_offset: int
    consumer_offset: int
    timestamp_offset: int
    rollback_offset: int

    def to_json_obj(self) -> dict[str, Any]:
        return {
            "brokerName": self.broker_name,
            "queueId": self.queue_id,
            "brokerOffset": self.broker_offset,
            "consumerOffset": self.consumer_offset,
            "timestampOffset": self.timestamp_offset,
            "resetOffset": self.rollback_offset,
        }


# ----------------------------------------------------------------------------------------- helpers


def _decode(addr: str, body: bytes | None, what: str, decoder: Any) -> Any:
    if not body:
        raise BadResponseError(addr, f"{what} has no body")
    try:
        return decoder(body)
    except ProtocolError as e:
        raise BadResponseError(addr, f"{what}: {e}") from None


def _is_code(exc: BaseException, *codes: int) -> bool:
    return isinstance(exc, RemoteCommandError) and exc.code in codes


def _uses_cluster_route(topic: str | None, cluster: str | None) -> bool:
    """LMQ and timer-wheel topics are routed by the cluster-name topic (Java 5.3.3)."""
    return bool(topic) and bool(cluster) and (topic.startswith(LMQ_PREFIX) or topic == WHEEL_TIMER_TOPIC)  # type: ignore[union-attr]


def _route_name(topic: str, cluster: str | None) -> str:
    """The route naming the brokers of a reset: the cluster's (LMQ, timer wheel) or the topic's."""
    return cluster if cluster and _uses_cluster_route(topic, cluster) else topic


def convert_static_consume_stats(
    details: Iterable[TopicQueueMappingDetail], physical: ConsumeStats
) -> dict[MessageQueue, OffsetWrapper]:
    """``MQAdminUtils.convertPhysicalConsumeStats``: physical queues of a static topic → logical ones."""
    ordered = sorted(details, key=lambda d: -d.epoch)
    global_ids: dict[int, tuple[TopicQueueMappingDetail, list[Any]]] = {}
    for detail in ordered:
        for gid, items in (detail.hosted_queues or {}).items():
            if not items or items[-1].bname != detail.bname:
                continue  # only the leader's view counts
            global_ids.setdefault(gid, (detail, items))
    out: dict[MessageQueue, OffsetWrapper] = {}
    for gid, (detail, items) in global_ids.items():
        broker_offset = consumer_offset = last = -1
        for item in reversed(items):
            phy = physical.offset_table.get(MessageQueue(detail.topic, item.bname, item.queue_id))
            if phy is None:
                continue
            if consumer_offset == -1 and phy.consumer_offset >= 0:
                consumer_offset, last = phy.consumer_offset, phy.last_timestamp
            if broker_offset == -1 and item.logic_offset >= 0:
                broker_offset = static_offset_strictly(item, phy.broker_offset)
            if consumer_offset >= 0 and broker_offset >= 0:
                break
        if broker_offset >= 0 and consumer_offset >= 0:
            mq = MessageQueue(detail.topic, mock_broker_name(detail.scope), gid)
            out[mq] = OffsetWrapper(broker_offset, consumer_offset, last)
    return out


# -------------------------------------------------------------------------------------- the family


class ConsumerOps(Family):
    """What ``DefaultMQAdminExt`` asks of brokers about consumers, producers and offsets."""

    def __init__(
        self, core: AdminCore, namesrv: NamesrvOps, broker: BrokerOps, topics: TopicAdminOps
    ) -> None:
        super().__init__(core)
        self.namesrv = namesrv
        self.broker = broker
        self.topics = topics

    def _stats_timeout(self) -> float:
        return self.core.settings.timeout * STATS_TIMEOUT_FACTOR

    # ---------------------------------------------------------------------- consume stats (208)

    async def _all_broker_addrs(self) -> list[str]:
        info = await self.namesrv.examine_broker_cluster_info()
        out: list[str] = []
        for bd in (info.broker_addr_table or {}).values():
            addr = bd.select_broker_addr()
            if addr is not None and addr not in out:
                out.append(addr)
        return out

    async def _consume_route(self, group: str, topic: str | None, cluster: str | None) -> TopicRouteData:
        """The first route found among ``%RETRY%<group>``, the topic, its pop retry topic, the cluster."""
        candidates = [RETRY_PREFIX + group]
        if topic is not None:
            candidates += [topic, f"{RETRY_PREFIX}{group}_{topic}"]
        if _uses_cluster_route(topic, cluster):
            candidates.append(cluster or "")
        last: BaseException | None = None
        for name in candidates:
            try:
                return await self.namesrv.examine_topic_route_info(name)
            except Exception as e:
                last = e
        assert last is not None
        raise last

    async def examine_consume_stats(
        self,
        group: str,
        topic: str | None = None,
        cluster: str | None = None,
        *,
        any_broker_if_no_route: bool = False,
        failures: list[BaseException] | None = None,
    ) -> ConsumeStats:
        """A group's progress on every queue it consumes (Java 5.3.3 ``examineConsumeStats``).

        The brokers come from the first route found (see :meth:`_consume_route`); with
        ``any_broker_if_no_route``, a group none of whose topics has a route is looked up on every
        broker of the cluster info instead. Without ``cluster`` the queues of static topics are turned
        into logical ones, and queues of topics without a route any more are kept as they are (Java
        fails there). Raises :class:`EmptyConsumeStatsError` when no queue has progress. With a
        ``failures`` list, brokers that fail are added to it and the others' queues returned (the
        first failure is raised only when every broker failed).
        """
        no_route = False
        try:
            route = await self._consume_route(group, topic, cluster)
            addrs = [a for a in (bd.select_broker_addr() for bd in route.broker_datas or []) if a is not None]
        except RemoteCommandError as e:
            if not (any_broker_if_no_route and e.code == ResponseCode.TOPIC_NOT_EXIST):
                raise
            no_route = True
            addrs = await self._all_broker_addrs()
        timeout = self._stats_timeout()
        answers = await self.core.fan_out(
            addrs,
            lambda a: self.broker.get_consume_stats(a, group, topic, timeout),
            deadline=timeout + self.core.settings.timeout,
            code=RequestCode.GET_CONSUME_STATS,
        )
        result = ConsumeStats()
        for addr in answers.order:
            if addr in answers.errors:
                if failures is None or answers.all_failed:
                    raise answers.errors[addr]
                failures.append(answers.errors[addr])
                continue
            stats = answers.results[addr]
            result.offset_table.update(stats.offset_table)
            result.consume_tps += stats.consume_tps
        if not cluster and result.offset_table:
            result = await self._static_view(result)
        if not result.offset_table:
            await self._explain_empty(group, no_route)
        return result

    async def _static_view(self, physical: ConsumeStats) -> ConsumeStats:
        topics = list(dict.fromkeys(mq.topic for mq in physical.offset_table if mq.topic is not None))
        routes = await self.core.fan_out(
            topics, self.namesrv.examine_topic_route_info, code=RequestCode.GET_ROUTEINFO_BY_TOPIC
        )
        out = ConsumeStats(consume_tps=physical.consume_tps)
        for t in topics:
            err = routes.errors.get(t)
            if err is not None and not _is_code(err, ResponseCode.TOPIC_NOT_EXIST):
                raise err
            route = routes.results.get(t)
            if route is not None and route.topic_queue_mapping_by_broker:
                details = await self.topics.mapping_details(t, route)
                out.offset_table.update(convert_static_consume_stats(details, physical))
                continue
            for mq, w in physical.offset_table.items():
                if mq.topic == t:
                    out.offset_table[mq] = w
        return out

    async def _explain_empty(self, group: str, no_route: bool) -> None:
        try:
            conn = await self.examine_consumer_connection_info(group)
        except Exception:
            raise EmptyConsumeStatsError(
                group,
                ResponseCode.CONSUMER_NOT_ONLINE,
                "no queue has a committed offset and no consumer of it is online",
                no_route=no_route,
            ) from None
        if conn.message_model == "BROADCASTING":
            raise EmptyConsumeStatsError(
                group,
                ResponseCode.BROADCAST_CONSUMPTION,
                "the consumers are in broadcasting mode and keep their offsets themselves",
            )

    async def fetch_broker_consume_stats(
        self, addr: str, is_order: bool = False, timeout: float | None = None
    ) -> BrokerConsumeStats:
        """GET_BROKER_CONSUME_STATS (317): every group's progress on one broker."""
        header = GetConsumeStatsInBrokerHeader(is_order=is_order)
        resp = await self.core.invoke(addr, RequestCode.GET_BROKER_CONSUME_STATS, header, timeout=timeout)
        stats: BrokerConsumeStats = _decode(
            addr, resp.body, "broker consume stats", BrokerConsumeStats.decode
        )
        return stats

    # ---------------------------------------------------------------------- connections

    async def examine_consumer_connection_info(
        self, group: str, broker_addr: str | None = None
    ) -> ConsumerConnection:
        """GET_CONSUMER_CONNECTION_LIST from ``broker_addr``, else from a broker of ``%RETRY%<group>``."""
        if broker_addr is None:
            route = await self.namesrv.examine_topic_route_info(RETRY_PREFIX + group)
            broker_addr = _random_broker_addr(route, RETRY_PREFIX + group)
        resp = await self.core.invoke(
            broker_addr,
            RequestCode.GET_CONSUMER_CONNECTION_LIST,
            GetConsumerConnectionListRequestHeader(consumer_group=group),
        )
        cc: ConsumerConnection = _decode(
            broker_addr, resp.body, "consumer connection", ConsumerConnection.decode
        )
        if not cc.connection_set:
            raise NoConnectionError(f"no consumer of group {group} is connected to {broker_addr}")
        return cc

    async def examine_producer_connection_info(self, group: str, topic: str) -> ProducerConnection:
        """GET_PRODUCER_CONNECTION_LIST from one broker of the topic's route."""
        route = await self.namesrv.examine_topic_route_info(topic)
        addr = _random_broker_addr(route, topic)
        header = GetProducerConnectionListRequestHeader(producer_group=group)
        resp = await self.core.invoke(addr, RequestCode.GET_PRODUCER_CONNECTION_LIST, header)
        pc: ProducerConnection = _decode(addr, resp.body, "producer connection", ProducerConnection.decode)
        if not pc.connection_set:
            raise NoConnectionError(f"no producer of group {group} is connected to {addr}")
        return pc

    async def get_consumer_running_info(
        self, group: str, client_id: str, jstack: bool = False
    ) -> ConsumerRunningInfo | None:
        """GET_CONSUMER_RUNNING_INFO relayed by the first broker of ``%RETRY%<group>`` (None: no broker)."""
        route = await self.namesrv.examine_topic_route_info(RETRY_PREFIX + group)
        for bd in route.broker_datas or []:
            addr = bd.select_broker_addr()
            if addr is None:
                continue
            header = GetConsumerRunningInfoRequestHeader(
                consumer_group=group, client_id=client_id, jstack_enable=jstack
            )
            resp = await self.core.invoke(addr, RequestCode.GET_CONSUMER_RUNNING_INFO, header)
            info: ConsumerRunningInfo = _decode(
                addr, resp.body, "consumer running info", ConsumerRunningInfo.decode
            )
            return info
        return None

    async def get_all_producer_info(self, addr: str) -> dict[str, list[ProducerInfo]]:
        """GET_ALL_PRODUCER_INFO: producer group → its instances, in the order the broker sent them."""
        resp = await self.core.invoke(addr, RequestCode.GET_ALL_PRODUCER_INFO)
        if not resp.body:
            return {}
        table: ProducerTableInfo = _decode(addr, resp.body, "producer table", ProducerTableInfo.decode)
        return table.data

    # ---------------------------------------------------------------------- offsets (29, 30; 15 in broker.py)

    async def update_consume_offset(self, addr: str, group: str, mq: MessageQueue, offset: int) -> None:
        """UPDATE_CONSUMER_OFFSET: commit ``offset`` for the group on one queue."""
        from mqadmin.protocol.headers.consumer import UpdateConsumerOffsetRequestHeader

        header = UpdateConsumerOffsetRequestHeader(
            consumer_group=group,
            topic=mq.topic or "",
            queue_id=mq.queue_id,
            commit_offset=offset,
            bname=mq.broker_name,
        )
        await self.core.invoke(addr, RequestCode.UPDATE_CONSUMER_OFFSET, header)

    # ---------------------------------------------------------------------- resets (222 and the old way)

    async def reset_offset_by_timestamp(
        self,
        topic: str,
        group: str,
        timestamp: int,
        force: bool,
        *,
        is_cpp: bool = False,
        cluster: str | None = None,
    ) -> list[dict[MessageQueue, int]]:
        """INVOKE_BROKER_TO_RESET_OFFSET on each broker of the topic: the offsets each one set.

        The broker computes the offsets and tells the online consumers; with no consumer online it
        answers CONSUMER_NOT_ONLINE (206), raised as RemoteCommandError for the caller to fall back
        on :meth:`reset_offset_by_timestamp_old`. One table per broker, in route order.
        """
        from mqadmin.protocol.headers.consumer import ResetOffsetRequestHeader

        route = await self.namesrv.examine_topic_route_info(_route_name(topic, cluster))
        out: list[dict[MessageQueue, int]] = []
        for bd in route.broker_datas or []:
            addr = bd.select_broker_addr()
            if addr is None:
                continue
            header = ResetOffsetRequestHeader(
                group=group, topic=topic, queue_id=-1, offset=-1, timestamp=timestamp, is_force=force
            )
            cmd = self.core.request(RequestCode.INVOKE_BROKER_TO_RESET_OFFSET, header)
            if is_cpp:
                cmd.language = "CPP"
            resp = await self.core.client.call(addr, cmd, self.core.settings.timeout)
            reset: ResetOffsetBody = _decode(addr, resp.body, "the reset answer", ResetOffsetBody.decode)
            out.append(reset.offset_table)
        return out

    async def reset_offset_by_timestamp_old(
        self,
        group: str,
        topic: str,
        timestamp: int,
        force: bool,
        cluster: str | None = None,
        *,
        write: bool = True,
    ) -> list[RollbackStats]:
        """Reset queue by queue (Java ``resetOffsetByTimestampOld``), for groups with no consumer online.

        Per broker of the topic: the group's offsets (208); per queue of the topic the offset the
        timestamp gives (29, or 30 for -1), committed (15) when ``force`` or when it goes back.
        A broker where the group has no offset on the topic gets every readable queue, from its
        minimum offset. ``write=False`` computes the same rows without committing anything.
        """
        route = await self.namesrv.examine_topic_route_info(_route_name(topic, cluster))
        queue_datas = {qd.broker_name: qd for qd in route.queue_datas or []}
        rows: list[RollbackStats] = []
        for bd in route.broker_datas or []:
            addr = bd.select_broker_addr()
            if addr is None:
                continue
            stats = await self.broker.get_consume_stats(addr, group, None, self.core.settings.timeout)
            ordered = _hash_map_order(stats.offset_table)
            mine = [(mq, w) for mq, w in ordered if mq.topic == topic]
            if not mine:
                qd = queue_datas.get(bd.broker_name)
                count = qd.read_queue_nums if qd is not None else 0
                table = (await self.topics.examine_topic_stats_in_broker(addr, topic)).offset_table
                for qid in range(count):
                    mq = MessageQueue(topic, bd.broker_name, qid)
                    to = table.get(mq)
                    if to is None:
                        raise BadResponseError(addr, f"the topic stats of {topic} lack queue {qid}")
                    mine.append((mq, OffsetWrapper(to.max_offset, to.min_offset, 0)))
            for mq, w in mine:
                if timestamp == -1:
                    target = await self.broker.max_offset_at(addr, mq)
                else:
                    target = await self.broker.search_offset_at(addr, mq, timestamp)
                new = w.consumer_offset
                if force or target <= w.consumer_offset:
                    new = target
                    if write:
                        await self.update_consume_offset(addr, group, mq, target)
                rows.append(
                    RollbackStats(
                        mq.broker_name, mq.queue_id, w.broker_offset, w.consumer_offset, target, new
                    )
                )
        return rows

    async def reset_offset_by_queue_id(
        self, addr: str, group: str, topic: str, queue_id: int, offset: int
    ) -> None:
        """Commit ``offset`` on one queue, then tell the online consumers (a broker with none is fine)."""
        from mqadmin.protocol.headers.consumer import ResetOffsetRequestHeader

        await self.update_consume_offset(addr, group, MessageQueue(topic, None, queue_id), offset)
        header = ResetOffsetRequestHeader(
            group=group, topic=topic, queue_id=queue_id, offset=offset, timestamp=0, is_force=False
        )
        try:
            await self.core.invoke(addr, RequestCode.INVOKE_BROKER_TO_RESET_OFFSET, header)
        except RemoteCommandError as e:
            if e.code != ResponseCode.CONSUMER_NOT_ONLINE:
                raise

    # ---------------------------------------------------------------------- clone, consume queue

    async def clone_group_offset(self, src: str, dest: str, topic: str) -> list[tuple[MessageQueue, int]]:
        """Copy the source group's committed offsets to the destination group (Java ``cloneGroupOffset``).

        As Java, every queue of the source group's stats is copied (not only ``topic``'s); the
        brokers come from ``topic``'s route. Returns what was committed.
        """
        stats = await self.examine_consume_stats(
            src, any_broker_if_no_route=True
        )  # Java: fails without %RETRY%
        if not stats.offset_table:
            return []
        route = await self.namesrv.examine_topic_route_info(topic)
        addr_of = {bd.broker_name: bd.select_broker_addr() for bd in route.broker_datas or []}
        done: list[tuple[MessageQueue, int]] = []
        for mq, w in sorted(stats.offset_table.items(), key=lambda kv: kv[0].java_sort_key()):
            if w.consumer_offset < 0:
                continue
            addr = addr_of.get(mq.broker_name)
            if addr is None:
                raise AdminError(f"broker {mq.broker_name} of {mq.topic} is not in the route of {topic}")
            await self.update_consume_offset(addr, dest, mq, w.consumer_offset)
            done.append((mq, w.consumer_offset))
        return done

    async def query_consume_queue(
        self, addr: str, topic: str, queue_id: int, index: int, count: int, group: str | None = None
    ) -> ConsumeQueueView:
        """QUERY_CONSUME_QUEUE: ``count`` entries of a consume queue from ``index``."""
        header = QueryConsumeQueueRequestHeader(
            topic=topic, queue_id=queue_id, index=index, count=count, consumer_group=group
        )
        resp = await self.core.invoke(addr, RequestCode.QUERY_CONSUME_QUEUE, header)
        if not resp.body:
            raise AdminError(
                f"{addr} has no consume queue entry {index} of {topic} queue {queue_id}"
                + (f": {resp.remark.strip()}" if resp.remark and resp.remark.strip() else "")
            )
        view: ConsumeQueueView = _decode(addr, resp.body, "consume queue", ConsumeQueueView.decode)
        return view


def _random_broker_addr(route: TopicRouteData, topic: str) -> str:
    """Java picks one broker of the route at random (spreading the load)."""
    datas = route.broker_datas or []
    if not datas:
        raise AdminError(f"the route of {topic} has no broker")
    addr = datas[random.randrange(len(datas))].select_broker_addr()
    if addr is None:
        raise AdminError(f"broker {datas[0].broker_name} of {topic} has no address")
    return addr


def _hash_map_order(table: dict[MessageQueue, OffsetWrapper]) -> list[tuple[MessageQueue, OffsetWrapper]]:
    """A ``HashMap<MessageQueue, …>`` filled in wire order, as fastjson decodes it, in iteration order."""
    if len(table) < 2:
        return list(table.items())
    ordered = hash_ordered(table, hash_map_capacity(len(table)), MessageQueue.java_hash)
    return list(ordered.items())
