"""A group's progress as brokers report it: consume stats (GET_CONSUME_STATS, 208, merged over the
brokers of a route, static topics' queues made logical), what ``consumerProgress`` asks. Who is
connected (203) is :mod:`.connections`, the other consumption reports (307, 317, 321)
:mod:`.consumption`, producers :mod:`.producers`, offset commits and resets :mod:`.offsets`.

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

from mqadmin.admin.broker import BrokerOps
from mqadmin.admin.core import AdminCore
from mqadmin.admin.errors import AdminError
from mqadmin.admin.family import Family
from mqadmin.admin.namesrv import NamesrvOps
from mqadmin.protocol.bodies.consume_stats import ConsumeStats
from mqadmin.protocol.bodies.message_queue import MessageQueue
from mqadmin.protocol.bodies.route import TopicRouteData
from mqadmin.protocol.codes import RequestCode, ResponseCode
from mqadmin.protocol.names import RETRY_GROUP_TOPIC_PREFIX as RETRY_PREFIX
from mqadmin.remoting.errors import RemoteCommandError

__all__ = [
    "ConsumerOps",
    "EmptyConsumeStatsError",
    "sorted_queues",
    "uses_cluster_route",
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


# ------------------------------------------------------------------------------------------ results


def sorted_queues(stats: ConsumeStats) -> list[MessageQueue]:
    """The queues of consume stats in ``MessageQueue.compareTo`` order (as the Java tool sorts them)."""
    return sorted(stats.offset_table, key=MessageQueue.java_sort_key)


# ----------------------------------------------------------------------------------------- helpers


def _is_code(exc: BaseException, *codes: int) -> bool:
    return isinstance(exc, RemoteCommandError) and exc.code in codes


def uses_cluster_route(topic: str | None, cluster: str | None) -> bool:
    """LMQ and timer-wheel topics are routed by the cluster-name topic (Java 5.3.3)."""
    return bool(topic) and bool(cluster) and (topic.startswith(LMQ_PREFIX) or topic == WHEEL_TIMER_TOPIC)  # type: ignore[union-attr]


# -------------------------------------------------------------------------------------- the family


class ConsumerOps(Family):
    """What ``DefaultMQAdminExt`` asks of brokers about a group's progress and its consumers."""

    def __init__(self, core: AdminCore, namesrv: NamesrvOps, broker: BrokerOps) -> None:
        super().__init__(core)
        self.namesrv = namesrv
        self.broker = broker

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
        if uses_cluster_route(topic, cluster):
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
                # only a static topic's route leads here: plain groups do not load its bodies
                from mqadmin.admin.static_stats import convert_static_consume_stats, mapping_details

                details = await mapping_details(self.core, t, route)
                out.offset_table.update(convert_static_consume_stats(details, physical))
                continue
            for mq, w in physical.offset_table.items():
                if mq.topic == t:
                    out.offset_table[mq] = w
        return out

    async def _explain_empty(self, group: str, no_route: bool) -> None:
        """Why no queue has progress: no consumer online (206), or consumers in broadcasting mode (213).
        Without a ``%RETRY%`` route there is no broker to ask who is connected: 206 at once."""
        not_online = EmptyConsumeStatsError(
            group,
            ResponseCode.CONSUMER_NOT_ONLINE,
            "no queue has a committed offset and no consumer of it is online",
            no_route=no_route,
        )
        if no_route:
            raise not_online
        # who is online is asked only here (a route, no offset): plain progress does not load it
        from mqadmin.admin.connections import ConnectionOps

        try:
            conn = await ConnectionOps(self.core, self.namesrv).examine_consumer_connection_info(group)
        except Exception:
            raise not_online from None
        if conn.message_model == "BROADCASTING":
            raise EmptyConsumeStatsError(
                group,
                ResponseCode.BROADCAST_CONSUMPTION,
                "the consumers are in broadcasting mode and keep their offsets themselves",
            )
