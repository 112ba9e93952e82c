"""Broker requests every family asks: runtime stats, who consumes a topic, a group's consume stats, a
queue's max offset (one method per request code, shared by the consumer, topic, message and pipeline
code). A static topic's mapping on each of its brokers is :mod:`.static_stats`.

Other families (topics, groups, offsets, messages) hold their own broker requests in their own
modules; the consumer and message families get this one in their constructors. Each answer's body
type is imported by the method that reads it: ``clusterList`` asks only for runtime stats.
"""

from __future__ import annotations

from mqadmin.admin.core import AdminCore
from mqadmin.admin.errors import BadResponseError
from mqadmin.admin.family import Family
from mqadmin.admin.namesrv import NamesrvOps
from mqadmin.protocol.bodies.consume_stats import ConsumeStats
from mqadmin.protocol.bodies.message_queue import MessageQueue
from mqadmin.protocol.bodies.route import TopicRouteData
from mqadmin.protocol.codes import RequestCode
from mqadmin.protocol.errors import ProtocolError
from mqadmin.protocol.javanum import JavaNumberError, parse_long

__all__ = ["BrokerOps", "offset_field"]


def offset_field(addr: str, raw: str | None, name: str = "offset") -> int:
    """An offset ext field of a broker's answer (absent: 0); not a Java long: the broker's fault."""
    try:
        return parse_long(raw) if raw else 0
    except JavaNumberError:
        raise BadResponseError(addr, f"{name} is not a number: {raw!r}") from None


class BrokerOps(Family):
    """What ``DefaultMQAdminExt`` asks of brokers (the part the name-server commands need)."""

    def __init__(self, core: AdminCore, namesrv: NamesrvOps) -> None:
        super().__init__(core)
        self.namesrv = namesrv

    async def fetch_broker_runtime_stats(self, broker_addr: str) -> dict[str, str]:
        """GET_BROKER_RUNTIME_INFO: the broker's runtime table (TPS, queue sizes, disk, version)."""
        from mqadmin.protocol.bodies.kv import KVTable

        resp = await self.core.invoke(broker_addr, RequestCode.GET_BROKER_RUNTIME_INFO)
        if not resp.body:
            raise BadResponseError(broker_addr, "the runtime info has no body")
        try:
            return KVTable.decode(resp.body).table or {}
        except ProtocolError as e:
            raise BadResponseError(broker_addr, f"runtime info: {e}") from None

    async def query_topic_consume_by_who(self, topic: str, route: TopicRouteData | None = None) -> list[str]:
        """QUERY_TOPIC_CONSUME_BY_WHO to the topic's first broker: the groups that consume it.

        Groups come in the order the broker sent them; an empty route gives an empty list.
        """
        from mqadmin.protocol.bodies.answers import GroupList
        from mqadmin.protocol.headers.consumption import QueryTopicConsumeByWhoRequestHeader

        if route is None:
            route = await self.namesrv.examine_topic_route_info(topic)
        if not route.broker_datas:
            return []
        addr = route.broker_datas[0].select_broker_addr()
        if addr is None:
            return []
        hdr = QueryTopicConsumeByWhoRequestHeader(topic=topic)
        resp = await self.core.invoke(addr, RequestCode.QUERY_TOPIC_CONSUME_BY_WHO, hdr)
        if not resp.body:
            return []
        try:
            return GroupList.decode(resp.body).group_list
        except ProtocolError as e:
            raise BadResponseError(addr, f"group list: {e}") from None

    async def get_consume_stats(
        self, addr: str, group: str, topic: str | None = None, timeout: float | None = None
    ) -> ConsumeStats:
        """GET_CONSUME_STATS of one broker (all the group's topics when ``topic`` is None)."""
        from mqadmin.protocol.headers.consume_stats import GetConsumeStatsRequestHeader

        header = GetConsumeStatsRequestHeader(consumer_group=group, topic=topic)
        resp = await self.core.invoke(addr, RequestCode.GET_CONSUME_STATS, header, timeout=timeout)
        if not resp.body:
            raise BadResponseError(addr, "consume stats has no body")
        try:
            return ConsumeStats.decode(resp.body)
        except ProtocolError as e:
            raise BadResponseError(addr, f"consume stats: {e}") from None

    async def max_offset_at(self, addr: str, mq: MessageQueue) -> int:
        """GET_MAX_OFFSET of one queue on the broker at ``addr``: the offset the next message gets."""
        from mqadmin.protocol.headers.offset_query import max_offset_header

        resp = await self.core.invoke(addr, RequestCode.GET_MAX_OFFSET, max_offset_header(mq))
        return offset_field(addr, resp.ext("offset"))

    async def search_offset_at(
        self,
        addr: str,
        mq: MessageQueue,
        timestamp: int,
        timeout: float | None = None,
        boundary: str = "LOWER",
    ) -> int:
        """SEARCH_OFFSET_BY_TIMESTAMP of one queue on the broker at ``addr``: the offset of
        ``timestamp`` (ms), see :func:`~mqadmin.protocol.headers.offset_query.search_offset_header`."""
        from mqadmin.protocol.headers.offset_query import search_offset_header

        header = search_offset_header(mq, timestamp, boundary)
        resp = await self.core.invoke(addr, RequestCode.SEARCH_OFFSET_BY_TIMESTAMP, header, timeout=timeout)
        return offset_field(addr, resp.ext("offset"))
