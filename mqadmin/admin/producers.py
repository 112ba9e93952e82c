"""What brokers know of producers: a group's producer connections (GET_PRODUCER_CONNECTION_LIST, 204)
and a broker's producer table (GET_ALL_PRODUCER_INFO, 328). Sending messages is
:mod:`mqadmin.admin.producer`, which is not a family: it holds a producer's own state.
"""

from __future__ import annotations

from mqadmin.admin.connections import NoConnectionError, random_broker_addr
from mqadmin.admin.core import AdminCore
from mqadmin.admin.family import Family, decoded
from mqadmin.admin.namesrv import NamesrvOps
from mqadmin.protocol.bodies.answers import ProducerInfo, ProducerTableInfo
from mqadmin.protocol.bodies.connection import ProducerConnection
from mqadmin.protocol.codes import RequestCode
from mqadmin.protocol.headers.connections import GetProducerConnectionListRequestHeader

__all__ = ["ProducerOps"]


class ProducerOps(Family):
    """What ``DefaultMQAdminExt`` asks of brokers about producers."""

    def __init__(self, core: AdminCore, namesrv: NamesrvOps) -> None:
        super().__init__(core)
        self.namesrv = namesrv

    async def examine_producer_connection_info(self, group: str, topic: str) -> ProducerConnection:
        """GET_PRODUCER_CONNECTION_LIST from one broker of the topic's route."""
        route = await self.namesrv.examine_topic_route_info(topic)
        addr = random_broker_addr(route, topic)
        header = GetProducerConnectionListRequestHeader(producer_group=group)
        resp = await self.core.invoke(addr, RequestCode.GET_PRODUCER_CONNECTION_LIST, header)
        pc = decoded(addr, resp.body, "producer connection", ProducerConnection.decode)
        if not pc.connection_set:
            raise NoConnectionError(f"no producer of group {group} is connected to {addr}")
        return pc

    async def get_all_producer_info(self, addr: str) -> dict[str, list[ProducerInfo]]:
        """GET_ALL_PRODUCER_INFO: producer group → its instances, in the order the broker sent them."""
        resp = await self.core.invoke(addr, RequestCode.GET_ALL_PRODUCER_INFO)
        if not resp.body:
            return {}
        table = decoded(addr, resp.body, "producer table", ProducerTableInfo.decode)
        return table.data
