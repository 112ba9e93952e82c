"""Broker requests: runtime stats and who consumes a topic.

Commands of other families (topics, groups, offsets, messages) add their broker requests in their
own modules, as further mixins of :class:`~mqadmin.admin.api.MQAdmin`.
"""

from __future__ import annotations

from mqadmin.admin.errors import BadResponseError
from mqadmin.admin.namesrv import NamesrvOps
from mqadmin.protocol import fastjson
from mqadmin.protocol.bodies.route import TopicRouteData
from mqadmin.protocol.codes import RequestCode
from mqadmin.protocol.errors import ProtocolError
from mqadmin.protocol.headers.consumer import QueryTopicConsumeByWhoRequestHeader

__all__ = ["BrokerOps"]


class BrokerOps(NamesrvOps):
    """What ``DefaultMQAdminExt`` asks of brokers (the part the name-server commands need)."""

    async def fetch_broker_runtime_stats(self, broker_addr: str) -> dict[str, str]:
        """GET_BROKER_RUNTIME_INFO: the broker's runtime table (TPS, queue sizes, disk, version)."""
        from mqadmin.protocol.bodies.kv import KVTable

        resp = await self.invoke(broker_addr, RequestCode.GET_BROKER_RUNTIME_INFO)
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
        if route is None:
            route = await self.examine_topic_route_info(topic)
        if not route.broker_datas:
            return []
        addr = route.broker_datas[0].select_broker_addr()
        if addr is None:
            return []
        hdr = QueryTopicConsumeByWhoRequestHeader(topic=topic)
        resp = await self.invoke(addr, RequestCode.QUERY_TOPIC_CONSUME_BY_WHO, hdr)
        if not resp.body:
            return []
        try:
            data = fastjson.loads(resp.body)
        except ProtocolError as e:
            raise BadResponseError(addr, f"group list: {e}") from None
        groups = data.get("groupList") if isinstance(data, dict) else None
        if groups is None:
            return []
        if not isinstance(groups, list) or not all(isinstance(g, str) for g in groups):
            raise BadResponseError(addr, "groupList is not a list of names")
        return list(dict.fromkeys(groups))
