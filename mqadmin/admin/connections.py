"""Who is connected: a group's consumer connections (GET_CONSUMER_CONNECTION_LIST, 203), asked of a
broker given or of one picked at random from the group's ``%RETRY%`` route, as Java's
``examineConsumerConnectionInfo`` does. The producer connections (204) are :mod:`.producers`, which
picks its broker the same way (:func:`random_broker_addr`).

A family of its own so that a command which reads consume stats loads the connection bodies only
when it asks who is online.
"""

from __future__ import annotations

import random

from mqadmin.admin.core import AdminCore
from mqadmin.admin.errors import AdminError
from mqadmin.admin.family import Family, decoded
from mqadmin.admin.namesrv import NamesrvOps
from mqadmin.protocol.bodies.connection import ConsumerConnection
from mqadmin.protocol.bodies.route import TopicRouteData
from mqadmin.protocol.codes import RequestCode
from mqadmin.protocol.headers.connections import GetConsumerConnectionListRequestHeader
from mqadmin.protocol.names import RETRY_GROUP_TOPIC_PREFIX as RETRY_PREFIX

__all__ = ["ConnectionOps", "NoConnectionError", "random_broker_addr"]


class NoConnectionError(AdminError):
    """The broker answered, but with no client online in the group."""


def random_broker_addr(route: TopicRouteData, topic: str) -> str:
    """Java picks one broker of the route at random (spreading the load)."""
    datas = route.broker_datas or []
    if not datas:
        raise AdminError(f"the route of {topic} has no broker")
    addr = datas[random.randrange(len(datas))].select_broker_addr()
    if addr is None:
        raise AdminError(f"broker {datas[0].broker_name} of {topic} has no address")
    return addr


class ConnectionOps(Family):
    """What ``DefaultMQAdminExt`` asks of a broker about the consumers connected to it."""

    def __init__(self, core: AdminCore, namesrv: NamesrvOps) -> None:
        super().__init__(core)
        self.namesrv = namesrv

    async def examine_consumer_connection_info(
        self, group: str, broker_addr: str | None = None
    ) -> ConsumerConnection:
        """GET_CONSUMER_CONNECTION_LIST from ``broker_addr``, else from a broker of ``%RETRY%<group>``."""
        if broker_addr is None:
            route = await self.namesrv.examine_topic_route_info(RETRY_PREFIX + group)
            broker_addr = random_broker_addr(route, RETRY_PREFIX + group)
        resp = await self.core.invoke(
            broker_addr,
            RequestCode.GET_CONSUMER_CONNECTION_LIST,
            GetConsumerConnectionListRequestHeader(consumer_group=group),
        )
        cc = decoded(broker_addr, resp.body, "consumer connection", ConsumerConnection.decode)
        if not cc.connection_set:
            raise NoConnectionError(f"no consumer of group {group} is connected to {broker_addr}")
        return cc
