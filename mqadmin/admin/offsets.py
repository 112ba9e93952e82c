"""Committing and resetting a group's offsets on brokers: UPDATE_CONSUMER_OFFSET (15), resets through the
broker (INVOKE_BROKER_TO_RESET_OFFSET, 222) and the older per-queue way (208/202/29/30/15), and
cloning one group's offsets to another. Java 5.3.3 ``DefaultMQAdminExt``'s sequences; the planned
resets of ``resetOffset`` are :mod:`.offset_reset`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mqadmin.admin.broker import BrokerOps
from mqadmin.admin.consumers import ConsumerOps, uses_cluster_route
from mqadmin.admin.core import AdminCore
from mqadmin.admin.errors import AdminError, BadResponseError
from mqadmin.admin.family import Family, decoded
from mqadmin.admin.namesrv import NamesrvOps
from mqadmin.admin.topics import TopicAdminOps
from mqadmin.protocol.bodies.answers import ResetOffsetBody
from mqadmin.protocol.bodies.consume_stats import OffsetWrapper
from mqadmin.protocol.bodies.message_queue import MessageQueue
from mqadmin.protocol.codes import RequestCode, ResponseCode
from mqadmin.protocol.javacoll import hash_map_capacity, hash_ordered
from mqadmin.remoting.errors import RemoteCommandError

__all__ = ["OffsetOps", "RollbackStats"]


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


def _route_name(topic: str, cluster: str | None) -> str:
    """The route naming the brokers of a reset: the cluster's (LMQ, timer wheel) or the topic's."""
    return cluster if cluster and uses_cluster_route(topic, cluster) else topic


def _hash_map_order(table: dict[MessageQueue, OffsetWrapper]) -> list[tuple[MessageQueue, OffsetWrapper]]:
    """A ``HashMap<MessageQueue, …>`` filled in wire order, as fastjson decodes it, in iteration order."""
    if len(table) < 2:
        return list(table.items())
    ordered = hash_ordered(table, hash_map_capacity(len(table)), MessageQueue.java_hash)
    return list(ordered.items())


class OffsetOps(Family):
    """What ``DefaultMQAdminExt`` asks of brokers to move a group's offsets."""

    def __init__(
        self,
        core: AdminCore,
        namesrv: NamesrvOps,
        broker: BrokerOps,
        topics: TopicAdminOps,
        consumers: ConsumerOps,
    ) -> None:
        super().__init__(core)
        self.namesrv = namesrv
        self.broker = broker
        self.topics = topics
        self.consumers = consumers

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
            reset = decoded(addr, resp.body, "the reset answer", ResetOffsetBody.decode)
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

    async def clone_group_offset(self, src: str, dest: str, topic: str) -> list[tuple[MessageQueue, int]]:
        """Copy the source group's committed offsets to the destination group (Java ``cloneGroupOffset``).

        As Java, every queue of the source group's stats is copied (not only ``topic``'s); the
        brokers come from ``topic``'s route. Returns what was committed.
        """
        stats = await self.consumers.examine_consume_stats(
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
