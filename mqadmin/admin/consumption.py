"""What brokers report about consumption beyond a group's progress: a consumer's running info relayed by
its broker (GET_CONSUMER_RUNNING_INFO, 307), every group's consume stats on one broker
(GET_BROKER_CONSUME_STATS, 317) and a slice of a consume queue (QUERY_CONSUME_QUEUE, 321): the
requests of the bodies in :mod:`mqadmin.protocol.bodies.consumption`.

Apart from :mod:`.consumers`, so that ``consumerProgress`` does not load these bodies unless it
shows client addresses (``-s``).
"""

from __future__ import annotations

from mqadmin.admin.core import AdminCore
from mqadmin.admin.errors import AdminError
from mqadmin.admin.family import Family, decoded
from mqadmin.admin.namesrv import NamesrvOps
from mqadmin.protocol.bodies.consumption import BrokerConsumeStats, ConsumeQueueView, ConsumerRunningInfo
from mqadmin.protocol.codes import RequestCode
from mqadmin.protocol.headers.consumption import (
    GetConsumerRunningInfoRequestHeader,
    GetConsumeStatsInBrokerHeader,
)
from mqadmin.protocol.headers.topic import QueryConsumeQueueRequestHeader
from mqadmin.protocol.names import RETRY_GROUP_TOPIC_PREFIX as RETRY_PREFIX

__all__ = ["ConsumptionOps"]


class ConsumptionOps(Family):
    """What ``DefaultMQAdminExt`` asks of brokers about consumption reports."""

    def __init__(self, core: AdminCore, namesrv: NamesrvOps) -> None:
        super().__init__(core)
        self.namesrv = namesrv

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
            return decoded(addr, resp.body, "consumer running info", ConsumerRunningInfo.decode)
        return None

    async def fetch_broker_consume_stats(
        self, addr: str, is_order: bool = False, timeout: float | None = None
    ) -> BrokerConsumeStats:
        """GET_BROKER_CONSUME_STATS (317): every group's progress on one broker."""
        header = GetConsumeStatsInBrokerHeader(is_order=is_order)
        resp = await self.core.invoke(addr, RequestCode.GET_BROKER_CONSUME_STATS, header, timeout=timeout)
        return decoded(addr, resp.body, "broker consume stats", BrokerConsumeStats.decode)

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
        return decoded(addr, resp.body, "consume queue", ConsumeQueueView.decode)
