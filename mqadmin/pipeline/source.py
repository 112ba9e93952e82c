"""The pipeline on the wire: name server and broker requests over the admin API's connections.

Request codes and headers are those of the Java admin tool and pull consumer, built from the declared
headers of :mod:`mqadmin.protocol.headers` (checked before anything is sent). For snapshots:
GET_BROKER_CLUSTER_INFO (106) and GET_ALL_TOPIC_LIST_FROM_NAMESERVER (206) to a name server;
GET_BROKER_RUNTIME_INFO (28), GET_TOPIC_STATS_INFO (202, header ``topic``),
GET_ALL_SUBSCRIPTIONGROUP_CONFIG (201) and GET_CONSUME_STATS (208, header ``consumerGroup``) to a
broker. For message export: GET_ROUTEINFO_BY_TOPIC (105) to a name server; GET_MIN_OFFSET (31),
GET_MAX_OFFSET (30), SEARCH_OFFSET_BY_TIMESTAMP (29) and PULL_MESSAGE (11) to a broker.

The connection, ACL signing, TLS and name server failover are the admin API's
(:class:`~mqadmin.admin.core.AdminCore`): a name server that cannot be reached is skipped for the
next one of the list, and the one that answered is asked first from then on; an error *answer* is
the cluster's answer and is not retried elsewhere.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from mqadmin.admin.core import AdminCore
from mqadmin.admin.errors import BadResponseError, NameServersUnavailableError
from mqadmin.admin.settings import AdminSettings
from mqadmin.protocol.bodies import (
    ClusterInfo,
    ConsumeStats,
    KVTable,
    SubscriptionGroupWrapper,
    TopicList,
    TopicRouteData,
    TopicStatsTable,
)
from mqadmin.protocol.codes import RequestCode, ResponseCode
from mqadmin.protocol.command import RemotingCommand
from mqadmin.protocol.headers.base import RequestHeader
from mqadmin.protocol.headers.consumer import GetConsumeStatsRequestHeader
from mqadmin.protocol.headers.message import (
    GetMaxOffsetRequestHeader,
    GetMinOffsetRequestHeader,
    PullMessageRequestHeader,
    SearchOffsetRequestHeader,
)
from mqadmin.protocol.headers.namesrv import GetRouteInfoRequestHeader
from mqadmin.protocol.headers.topic import GetTopicStatsInfoRequestHeader
from mqadmin.protocol.javanum import JavaNumberError, parse_long
from mqadmin.remoting.client import RemotingClient

__all__ = ["PullResult", "RemotingSource"]

#: PullSysFlag.SUBSCRIPTION: the subscription travels in the header, so no heartbeat is needed first.
PULL_SYS_FLAG = 4
PULL_BATCH = 32


@dataclass(frozen=True, slots=True)
class PullResult:
    """One PULL_MESSAGE answer: the response code, the raw message records, and where to go next."""

    code: int
    body: bytes
    next_offset: int
    min_offset: int
    max_offset: int


class RemotingSource(AdminCore):
    """A :class:`~mqadmin.pipeline.collector.SnapshotSource` speaking the RocketMQ remoting protocol.

    Use as ``async with RemotingSource(settings) as source``; the connections close at the end.
    """

    def __init__(self, settings: AdminSettings, client: RemotingClient | None = None) -> None:
        if not settings.namesrv_addrs:
            raise ValueError("no name server address")
        super().__init__(settings, client)

    @classmethod
    def for_namesrv(cls, addrs: Sequence[str], timeout: float = 5.0) -> RemotingSource:
        return cls(AdminSettings(namesrv_addrs=tuple(addrs), timeout=timeout))

    async def __aenter__(self) -> RemotingSource:
        return self

    # ------------------------------------------------------------------------------ requests

    async def _namesrv(self, code: int, fields: RequestHeader | None = None) -> RemotingCommand:
        """A name server's answer; when none could be reached, the last one's error."""
        try:
            _, resp = await self.invoke_namesrv(code, fields)
        except NameServersUnavailableError as e:
            raise e.failures[-1][1] from None
        return resp

    async def _broker(
        self, addr: str, code: int, fields: RequestHeader | None = None, ok: tuple[int, ...] = (0,)
    ) -> RemotingCommand:
        return await self.invoke(addr, code, fields, ok=ok)

    # ------------------------------------------------------------------------------ SnapshotSource

    async def cluster_info(self) -> ClusterInfo:
        resp = await self._namesrv(RequestCode.GET_BROKER_CLUSTER_INFO)
        return ClusterInfo.decode(resp.body or b"{}")

    async def list_topics(self) -> list[str]:
        resp = await self._namesrv(RequestCode.GET_ALL_TOPIC_LIST_FROM_NAMESERVER)
        return list(TopicList.decode(resp.body or b"{}").topic_list)

    async def topic_stats(self, broker_addr: str, topic: str) -> TopicStatsTable | None:
        resp = await self._broker(
            broker_addr,
            RequestCode.GET_TOPIC_STATS_INFO,
            GetTopicStatsInfoRequestHeader(topic),
            ok=(ResponseCode.SUCCESS, ResponseCode.TOPIC_NOT_EXIST),
        )
        if resp.code == ResponseCode.TOPIC_NOT_EXIST:
            return None
        return TopicStatsTable.decode(resp.body or b"{}")

    async def list_groups(self, broker_addr: str) -> list[str]:
        resp = await self._broker(broker_addr, RequestCode.GET_ALL_SUBSCRIPTIONGROUP_CONFIG)
        wrapper = SubscriptionGroupWrapper.decode(resp.body or b"{}")
        return list(wrapper.subscription_group_table or {})

    async def consume_stats(self, broker_addr: str, group: str) -> ConsumeStats:
        resp = await self._broker(
            broker_addr, RequestCode.GET_CONSUME_STATS, GetConsumeStatsRequestHeader(group)
        )
        return ConsumeStats.decode(resp.body or b"{}")

    async def runtime_info(self, broker_addr: str) -> dict[str, str]:
        resp = await self._broker(broker_addr, RequestCode.GET_BROKER_RUNTIME_INFO)
        return dict(KVTable.decode(resp.body or b"{}").table or {})

    # ------------------------------------------------------------------------------ message export

    async def topic_route(self, topic: str) -> TopicRouteData:
        """Which brokers hold the topic and how many queues each (GET_ROUTEINFO_BY_TOPIC)."""
        resp = await self._namesrv(RequestCode.GET_ROUTEINFO_BY_TOPIC, GetRouteInfoRequestHeader(topic))
        return TopicRouteData.decode(resp.body or b"{}")

    async def _offset(self, addr: str, code: int, header: RequestHeader) -> int:
        resp = await self._broker(addr, code, header)
        raw = resp.ext("offset")
        try:
            return parse_long(raw) if raw else 0
        except JavaNumberError:
            raise BadResponseError(addr, f"offset is not a number: {raw!r}") from None

    async def min_offset(self, addr: str, topic: str, queue_id: int) -> int:
        return await self._offset(
            addr, RequestCode.GET_MIN_OFFSET, GetMinOffsetRequestHeader(topic, queue_id)
        )

    async def max_offset(self, addr: str, topic: str, queue_id: int) -> int:
        header = GetMaxOffsetRequestHeader(topic, queue_id, committed=True)
        return await self._offset(addr, RequestCode.GET_MAX_OFFSET, header)

    async def search_offset(self, addr: str, topic: str, queue_id: int, timestamp_ms: int) -> int:
        """The first queue offset stored at or after ``timestamp_ms`` (SEARCH_OFFSET_BY_TIMESTAMP, LOWER
        boundary as the admin client asks)."""
        header = SearchOffsetRequestHeader(topic, queue_id, timestamp_ms, boundary_type="LOWER")
        return await self._offset(addr, RequestCode.SEARCH_OFFSET_BY_TIMESTAMP, header)

    async def pull(
        self, addr: str, group: str, topic: str, queue_id: int, offset: int, max_nums: int = PULL_BATCH
    ) -> PullResult:
        """One PULL_MESSAGE without committing, suspending or a prior heartbeat (subscription ``*``)."""
        header = PullMessageRequestHeader(
            group,
            topic,
            queue_id,
            offset,
            max_nums,
            PULL_SYS_FLAG,
            0,
            0,
            "*",
            sub_version=0,
            expression_type="TAG",
        )
        ok = (
            ResponseCode.SUCCESS,
            ResponseCode.PULL_NOT_FOUND,
            ResponseCode.PULL_RETRY_IMMEDIATELY,
            ResponseCode.PULL_OFFSET_MOVED,
        )
        resp = await self._broker(addr, RequestCode.PULL_MESSAGE, header, ok=ok)

        def ext(name: str, default: int) -> int:
            value = resp.ext(name)
            try:
                return parse_long(value) if value else default
            except JavaNumberError:
                raise BadResponseError(addr, f"{name} is not a number: {value!r}") from None

        return PullResult(
            resp.code,
            resp.body or b"",
            ext("nextBeginOffset", offset),
            ext("minOffset", 0),
            ext("maxOffset", 0),
        )
