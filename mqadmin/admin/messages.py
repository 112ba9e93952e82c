"""Finding and reading messages: by offset id, by key or unique key, by queue offset, by time.

What the Java tools reach through ``DefaultMQAdminExt`` and ``DefaultMQPullConsumer``:
VIEW_MESSAGE_BY_ID (33) to the store address an offset id names, QUERY_MESSAGE (12) to every broker
of a topic, PULL_MESSAGE (11) from one queue, the queue's min/max offsets and the offset of a time
(31, 30, 29), CONSUME_MESSAGE_DIRECTLY (309) and GET_CONSUMER_RUNNING_INFO (307) relayed by a broker
to a consumer, and the consumer-group track of a message (300, 203, 208).

Records are decoded as the Java client does (bodies inflated, MIN/MAX_OFFSET added after a pull);
rendering them is the CLI's business.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from mqadmin.admin.broker import BrokerOps, offset_field
from mqadmin.admin.core import AdminCore
from mqadmin.admin.errors import AdminError, BadResponseError
from mqadmin.admin.family import Family
from mqadmin.admin.namesrv import NamesrvOps
from mqadmin.protocol import fastjson, names
from mqadmin.protocol.bodies.message_queue import MessageQueue
from mqadmin.protocol.bodies.route import MASTER_ID, TopicRouteData
from mqadmin.protocol.codes import RequestCode, ResponseCode
from mqadmin.protocol.command import RemotingCommand
from mqadmin.protocol.errors import ProtocolError
from mqadmin.protocol.headers.base import RequestHeader
from mqadmin.protocol.javacoll import bucket_order, hash_map_capacity
from mqadmin.protocol.javanum import INT_MAX
from mqadmin.protocol.message import MessageConst
from mqadmin.protocol.message_record import MessageExt, decode_message, decode_messages
from mqadmin.protocol.msgid import decode_offset_msg_id
from mqadmin.protocol.perm import PERM_READ
from mqadmin.remoting.errors import RemoteCommandError, RemotingError

__all__ = [
    "TOOLS_CONSUMER",
    "BrokerNotFoundError",
    "MessageNotFoundError",
    "MessageOps",
    "MessageTrack",
    "PullResult",
    "QueryResult",
    "parse_sub_expression",
    "queues_in_hash_set_order",
    "subscribe_queues",
]

TOOLS_CONSUMER = "TOOLS_CONSUMER"
"""The group the Java tools pull with (``MixAll.TOOLS_CONSUMER_GROUP``)."""
RETRY_PREFIX = names.RETRY_GROUP_TOPIC_PREFIX
_PULL_FLAG_SUBSCRIPTION = 0x4
_SUSPEND_TIMEOUT_MS = 20000
_REQ_T = "ReqT"
"""``MixAll.REQ_T``: the request type ``StreamTypeRPCHook`` adds (0, STREAM)."""
_UNIQUE_KEY_QUERY = "_UNIQUE_KEY_QUERY"
_PULL_STATUS = {0: "FOUND", 19: "NO_NEW_MSG", 20: "NO_MATCHED_MSG", 21: "OFFSET_ILLEGAL"}


class MessageNotFoundError(AdminError):
    """The brokers answered, and none holds the message asked for."""


class BrokerNotFoundError(AdminError):
    """A broker name that neither the topic's route nor the cluster info knows (Java: ``The
    broker[X] not exist``)."""

    def __init__(self, broker_name: str, topic: str) -> None:
        super().__init__(
            f"The broker[{broker_name}] not exist (not in the route of topic {topic}, nor in the clusters "
            "the name server knows)"
        )
        self.broker_name = broker_name


@dataclass(slots=True)
class PullResult:
    """A PULL_MESSAGE answer as ``PullAPIWrapper.processPullResult`` leaves it."""

    status: str
    """``FOUND``, ``NO_NEW_MSG``, ``NO_MATCHED_MSG`` or ``OFFSET_ILLEGAL``."""
    next_begin_offset: int
    min_offset: int
    max_offset: int
    messages: list[MessageExt] = field(default_factory=list)


@dataclass(slots=True)
class QueryResult:
    """Messages a QUERY_MESSAGE fan-out found, and the brokers that could not be asked."""

    messages: list[MessageExt]
    index_last_update_timestamp: int
    failures: list[RemotingError] = field(default_factory=list)
    brokers: list[str] = field(default_factory=list)


@dataclass(slots=True)
class MessageTrack:
    """``MessageTrack``: what one consumer group did with a message."""

    consumer_group: str
    track_type: str = "UNKNOWN"
    exception_desc: str | None = None

    def __str__(self) -> str:
        return (
            f"MessageTrack [consumerGroup={self.consumer_group}, trackType={self.track_type}, "
            f"exceptionDesc={'null' if self.exception_desc is None else self.exception_desc}]"
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "consumerGroup": self.consumer_group,
            "trackType": self.track_type,
            "exceptionDesc": self.exception_desc,
        }


def parse_sub_expression(expr: str | None) -> frozenset[str] | None:
    """``FilterAPI.buildSubscriptionData``: the tags of ``A || B``; None means every message."""
    if expr is None or expr.strip() in ("", "*"):
        return None
    tags = frozenset(t.strip() for t in expr.split("||") if t.strip())
    return tags or None


def queues_in_hash_set_order(queues: Sequence[MessageQueue]) -> list[MessageQueue]:
    """A Java ``HashSet<MessageQueue>`` filled one by one, in iteration order."""
    unique = list(dict.fromkeys(queues))
    return bucket_order(unique, hash_map_capacity(len(unique)), MessageQueue.java_hash)


def subscribe_queues(topic: str, route: TopicRouteData) -> list[MessageQueue]:
    """The readable queues of a route (``topicRouteData2TopicSubscribeInfo``), in HashSet order."""
    queues: list[MessageQueue] = []
    for qd in route.queue_datas or []:
        if qd.perm & PERM_READ and qd.broker_name is not None:
            queues.extend(MessageQueue(topic, qd.broker_name, i) for i in range(qd.read_queue_nums))
    return queues_in_hash_set_order(queues)


def _offset(addr: str, resp: RemotingCommand, name: str = "offset") -> int:
    return offset_field(addr, resp.ext(name), name)


def _store_addr(msg_id: str) -> tuple[str, int]:
    """(``host:port`` to ask, commit-log offset) of an offset message id."""
    host, port, offset = decode_offset_msg_id(msg_id)
    if not 0 < port < 65536:
        raise ProtocolError(f"{msg_id} is not an offset message id: its port field is {port}")
    addr = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    return addr, offset


class MessageOps(Family):
    """Message lookups, pulls and offsets (see the module docstring)."""

    def __init__(self, core: AdminCore, namesrv: NamesrvOps, broker: BrokerOps) -> None:
        super().__init__(core)
        self.namesrv = namesrv
        self.broker = broker
        self._routes: dict[str, TopicRouteData] = {}
        """Routes asked for once per admin object, as a client caches them."""

    # ------------------------------------------------------------------------------ routes

    async def topic_route_cached(self, topic: str, *, refresh: bool = False) -> TopicRouteData:
        """The topic's route, asked of the name server once per admin object (as a client caches it)."""
        cache = self._routes
        if refresh or topic not in cache:
            cache[topic] = await self.namesrv.examine_topic_route_info(topic)
        return cache[topic]

    def share_route(self, topic: str, route_topic: str) -> None:
        """Reach ``topic``'s queues through ``route_topic``'s route (an LMQ through its parent)."""
        cache = self._routes
        if route_topic in cache:
            cache[topic] = cache[route_topic]

    async def broker_addr_of(self, topic: str, broker_name: str) -> str:
        """The master address of ``broker_name`` (else any member): from the topic's route, else
        from the cluster info (:meth:`NamesrvOps.broker_addr_by_name`; the broker answers for the topic)."""
        for refresh in (False, True):
            try:
                route = await self.topic_route_cached(topic, refresh=refresh)
            except RemoteCommandError as e:
                if e.code != ResponseCode.TOPIC_NOT_EXIST:
                    raise
                break  # no route at all: the named broker may still hold the topic
            for bd in route.broker_datas or []:
                if bd.broker_name == broker_name and bd.broker_addrs:
                    addr = bd.broker_addrs.get(MASTER_ID)
                    return addr if addr is not None else next(iter(bd.broker_addrs.values()))
        addr = await self.namesrv.broker_addr_by_name(broker_name, master_only=False)
        if addr is None:
            raise BrokerNotFoundError(broker_name, topic)
        return addr

    async def fetch_subscribe_message_queues(self, topic: str) -> list[MessageQueue]:
        """The readable queues of a topic in the order Java's tools walk them (a HashSet's)."""
        return subscribe_queues(topic, await self.topic_route_cached(topic, refresh=True))

    # ------------------------------------------------------------------------------ offsets

    async def _queue_request(self, mq: MessageQueue, code: int, header: RequestHeader) -> int:
        header.check()  # a bad topic is refused before the route is even asked for
        assert mq.topic is not None and mq.broker_name is not None
        addr = await self.broker_addr_of(mq.topic, mq.broker_name)
        resp = await self.core.invoke(addr, code, header)
        return _offset(addr, resp)

    async def min_offset(self, mq: MessageQueue) -> int:
        """GET_MIN_OFFSET: the first offset still in the queue."""
        from mqadmin.protocol.headers.offset_query import GetMinOffsetRequestHeader

        assert mq.topic is not None
        header = GetMinOffsetRequestHeader(mq.topic, mq.queue_id, bname=mq.broker_name)
        return await self._queue_request(mq, RequestCode.GET_MIN_OFFSET, header)

    async def max_offset(self, mq: MessageQueue) -> int:
        """GET_MAX_OFFSET: the offset the next message will get."""
        from mqadmin.protocol.headers.offset_query import max_offset_header

        max_offset_header(mq).check()  # a bad topic is refused before the route is even asked for
        assert mq.topic is not None and mq.broker_name is not None
        return await self.broker.max_offset_at(await self.broker_addr_of(mq.topic, mq.broker_name), mq)

    async def search_offset(self, mq: MessageQueue, timestamp: int, boundary: str = "LOWER") -> int:
        """SEARCH_OFFSET_BY_TIMESTAMP of a queue, its broker found from the route: the offset of
        ``timestamp`` (ms), see :func:`~mqadmin.protocol.headers.offset_query.search_offset_header`."""
        from mqadmin.protocol.headers.offset_query import search_offset_header

        search_offset_header(mq, timestamp, boundary).check()  # a bad topic: refused before the route
        assert mq.topic is not None and mq.broker_name is not None
        addr = await self.broker_addr_of(mq.topic, mq.broker_name)
        return await self.broker.search_offset_at(addr, mq, timestamp, boundary=boundary)

    # ------------------------------------------------------------------------------ pull

    async def pull_message(
        self,
        mq: MessageQueue,
        sub_expression: str | None,
        offset: int,
        max_nums: int,
        group: str = TOOLS_CONSUMER,
    ) -> PullResult:
        """One non-blocking PULL_MESSAGE, as ``DefaultMQPullConsumer.pull`` sends it."""
        from mqadmin.protocol.headers.message import PullMessageRequestHeader

        if offset < 0:
            raise AdminError("offset < 0")
        if max_nums <= 0:
            raise AdminError("maxNums <= 0")
        assert mq.topic is not None and mq.broker_name is not None
        expr = "*" if sub_expression is None or not sub_expression.strip() else sub_expression
        header = PullMessageRequestHeader(
            group,
            mq.topic,
            mq.queue_id,
            offset,
            max_nums,
            _PULL_FLAG_SUBSCRIPTION,
            0,
            _SUSPEND_TIMEOUT_MS,
            expr,
            sub_version=0,
            expression_type="TAG",
            max_msg_bytes=INT_MAX,
            bname=mq.broker_name,
        ).check()
        addr = await self.broker_addr_of(mq.topic, mq.broker_name)
        # the tools' pull consumer runs with StreamTypeRPCHook, which adds ReqT beside the header
        fields: dict[str, str | None] = {**header.to_ext(), _REQ_T: "0"}
        resp = await self.core.invoke(addr, RequestCode.PULL_MESSAGE, fields, ok=tuple(_PULL_STATUS))
        status = _PULL_STATUS[resp.code]
        result = PullResult(
            status,
            _offset(addr, resp, "nextBeginOffset"),
            _offset(addr, resp, "minOffset"),
            _offset(addr, resp, "maxOffset"),
        )
        if status != "FOUND" or not resp.body:
            return result
        try:
            messages = decode_messages(resp.body)
        except ProtocolError as e:
            raise BadResponseError(addr, f"pulled messages: {e}") from None
        tags = parse_sub_expression(sub_expression)
        if tags is not None:
            messages = [m for m in messages if m.tags is not None and m.tags in tags]
        lo, hi = str(result.min_offset), str(result.max_offset)
        delta = _offset(addr, resp, "offsetDelta")  # 0 when absent
        for m in messages:
            m.queue_offset += delta  # a static topic's generation: physical offsets made logical
            if (m.properties.get(MessageConst.PROPERTY_TRANSACTION_PREPARED) or "").lower() == "true":
                m.transaction_id = m.unique_key
            m.properties[MessageConst.PROPERTY_MIN_OFFSET] = lo
            m.properties[MessageConst.PROPERTY_MAX_OFFSET] = hi
            m.broker_name = mq.broker_name
            m.queue_id = mq.queue_id
        result.messages = messages
        return result

    # ------------------------------------------------------------------------------ by id and key

    async def view_message(self, msg_id: str, topic: str | None = None) -> MessageExt:
        """VIEW_MESSAGE_BY_ID to the store address an offset id names.

        A malformed id raises ProtocolError; a broker that has no record there answers code 1.
        """
        from mqadmin.protocol.headers.message import ViewMessageRequestHeader

        addr, offset = _store_addr(msg_id)
        header = ViewMessageRequestHeader(topic, offset=offset)
        resp = await self.core.invoke(addr, RequestCode.VIEW_MESSAGE_BY_ID, header)
        try:
            msg, _ = decode_message(resp.body or b"")
        except ProtocolError as e:
            raise BadResponseError(addr, f"the message at offset {offset}: {e}") from None
        return msg

    async def query_message(
        self,
        topic: str,
        key: str,
        *,
        max_num: int = 64,
        begin: int = 0,
        end: int = (1 << 63) - 1,
        unique: bool = False,
        cluster: str | None = None,
    ) -> QueryResult:
        """QUERY_MESSAGE to every broker of the topic (``MQAdminImpl.queryMessage``).

        ``unique`` looks the key up as a unique key (UNIQ_KEY) and keeps exact matches; otherwise
        messages whose KEYS contain ``key`` and whose topic is ``topic``. Results come broker by
        broker in route order, each in commit-log order. Nothing found raises MessageNotFoundError,
        unless some broker could not be asked: then that failure is raised.
        """
        from mqadmin.protocol.headers.message import QueryMessageRequestHeader

        header = QueryMessageRequestHeader(topic, key, max_num, begin, end).check()
        route = await self.topic_route_cached(topic)
        addrs: list[str] = []
        for bd in route.broker_datas or []:
            if cluster and bd.cluster != cluster:
                continue
            addr = bd.select_broker_addr()
            if addr and addr not in addrs:
                addrs.append(addr)
        if not addrs:
            where = f" in cluster {cluster}" if cluster else ""
            raise AdminError(f"The topic[{topic}] has no broker{where} to ask (route info)")
        # Java's client sets _UNIQUE_KEY_QUERY beside the declared header
        fields: dict[str, str | None] = {**header.to_ext(), _UNIQUE_KEY_QUERY: "true" if unique else "false"}

        async def ask(addr: str) -> RemotingCommand:
            return await self.core.invoke(
                addr,
                RequestCode.QUERY_MESSAGE,
                fields,
                ok=(ResponseCode.SUCCESS, ResponseCode.QUERY_NOT_FOUND),
            )

        # every broker at once, on either client; each ask ends on its own request timeout
        answers = await self.core.fan_out(addrs, ask, code=RequestCode.QUERY_MESSAGE)
        found: list[MessageExt] = []
        failures: list[RemotingError] = []
        last_update = 0
        for addr, resp in answers.items():
            if isinstance(resp, RemotingError):
                failures.append(resp)
                continue
            if isinstance(resp, BaseException):
                raise resp
            if resp.code != ResponseCode.SUCCESS:
                continue
            last_update = max(last_update, _offset(addr, resp, "indexLastUpdateTimestamp"))
            try:
                records = decode_messages(resp.body or b"")
            except ProtocolError as e:
                raise BadResponseError(addr, f"queried messages: {e}") from None
            for m in records:
                if unique:
                    if m.client_msg_id == key:
                        found.append(m)
                elif m.topic == topic and key in (m.keys or "").split(MessageConst.KEY_SEPARATOR):
                    found.append(m)
        if not found:
            if failures:
                raise failures[0]
            kind = "unique key" if unique else "key"
            raise MessageNotFoundError(f"no message with {kind} {key} in topic {topic}")
        return QueryResult(found, last_update, failures, addrs)

    async def _known_broker_addrs(self, topic: str) -> set[str]:
        """Every broker address of the topic's route, and of the whole cluster info."""
        addrs: set[str] = set()
        try:
            route = await self.topic_route_cached(topic)
        except RemoteCommandError:
            route = None
        for bd in (route.broker_datas if route is not None else None) or []:
            addrs.update((bd.broker_addrs or {}).values())
        if addrs:
            return addrs
        info = await self.namesrv.examine_broker_cluster_info()
        for bd in (info.broker_addr_table or {}).values():
            addrs.update((bd.broker_addrs or {}).values())
        return addrs

    async def find_message(self, topic: str, msg_id: str, cluster: str | None = None) -> MessageExt:
        """A message by offset id (VIEW_MESSAGE_BY_ID) or by unique key (QUERY_MESSAGE).

        An id is taken for an offset id only when the store address it encodes is a broker the
        name server knows (a unique key's "address" is the producer's ip and pid, which can look
        like an address, as the C++ client's ids do). Unlike Java, a broker that cannot be reached
        is reported as such, and no address outside the cluster is ever dialled.
        """
        try:
            addr, _ = _store_addr(msg_id)
        except ProtocolError:
            addr = None
        if addr is not None and _plain(addr) in await self._known_broker_addrs(topic):
            try:
                return await self.view_message(msg_id, topic)
            except RemoteCommandError as e:
                not_there: Exception = e
            try:
                result = await self.query_message(topic, msg_id, max_num=32, unique=True, cluster=cluster)
            except (MessageNotFoundError, RemoteCommandError):
                raise not_there from None
            return result.messages[0]
        result = await self.query_message(topic, msg_id, max_num=32, unique=True, cluster=cluster)
        return result.messages[0]

    # ------------------------------------------------------------------------------ consumers

    async def consumer_running_info(self, group: str, client_id: str, jstack: bool = False) -> dict[str, Any]:
        """GET_CONSUMER_RUNNING_INFO, relayed by a broker of the group's retry topic to the client."""
        from mqadmin.protocol.headers.consumption import GetConsumerRunningInfoRequestHeader

        route = await self.namesrv.examine_topic_route_info(RETRY_PREFIX + group)
        for bd in route.broker_datas or []:
            addr = bd.select_broker_addr()
            if addr:
                break
        else:
            raise AdminError(f"no broker serves consumer group {group}")
        header = GetConsumerRunningInfoRequestHeader(group, client_id, jstack_enable=jstack)
        resp = await self.core.invoke(addr, RequestCode.GET_CONSUMER_RUNNING_INFO, header)
        return _json_body(addr, resp, "consumer running info")

    async def consume_message_directly(
        self, group: str, client_id: str, topic: str, msg: MessageExt
    ) -> dict[str, Any]:
        """CONSUME_MESSAGE_DIRECTLY: the consumer client consumes ``msg`` now and says how it went."""
        from mqadmin.protocol.headers.consumption import ConsumeMessageDirectlyResultRequestHeader

        addr = msg.store_address if ":" not in msg.store_host else f"[{msg.store_host}]:{msg.store_port}"
        header = ConsumeMessageDirectlyResultRequestHeader(
            group,
            client_id,
            msg.offset_msg_id if msg.unique_key else msg.client_msg_id,
            topic=topic,
        )
        resp = await self.core.invoke(addr, RequestCode.CONSUME_MESSAGE_DIRECTLY, header)
        return _json_body(addr, resp, "consume result")

    async def message_track_detail(self, msg: MessageExt) -> list[MessageTrack]:
        """What each group consuming the topic did with ``msg`` (``messageTrackDetail``)."""
        groups = await self.broker.query_topic_consume_by_who(
            msg.topic, await self.namesrv.examine_topic_route_info(msg.topic)
        )
        tracks: list[MessageTrack] = []
        for group in groups:
            tracks.append(await self._track_one(msg, group))
        return tracks

    async def _track_one(self, msg: MessageExt, group: str) -> MessageTrack:
        mt = MessageTrack(group)
        try:
            conn = await self._track_connection(group)
        except RemoteCommandError as e:
            if e.request_code == RequestCode.GET_ROUTEINFO_BY_TOPIC:
                mt.exception_desc = (
                    f"org.apache.rocketmq.client.exception.MQClientException: CODE: {e.code}  DESC: "
                    f"{e.remark}, org.apache.rocketmq.client.impl.MQClientAPIImpl."
                    "getTopicRouteInfoFromNameServer(MQClientAPIImpl.java:1998)"
                )
            else:
                if e.code == ResponseCode.CONSUMER_NOT_ONLINE:
                    mt.track_type = "NOT_ONLINE"
                mt.exception_desc = f"CODE:{e.code} DESC:{e.remark}"
            return mt
        except _NotOnline:
            mt.exception_desc = (
                "org.apache.rocketmq.client.exception.MQClientException: CODE: 206  DESC: Not found the "
                "consumer group connection\nFor more information, please visit the url, "
                "https://rocketmq.apache.org/docs/bestPractice/06FAQ, org.apache.rocketmq.tools.admin."
                "DefaultMQAdminExtImpl.examineConsumerConnectionInfo(DefaultMQAdminExtImpl.java:616)"
            )
            return mt
        except (RemotingError, AdminError) as e:
            mt.exception_desc = str(e)
            return mt
        consume_type = conn.get("consumeType")
        if consume_type == "CONSUME_ACTIVELY":
            mt.track_type = "PULL"
        elif consume_type == "CONSUME_PASSIVELY":
            try:
                consumed = await self._track_consumed(msg, group)
            except RemoteCommandError as e:
                if e.code == ResponseCode.CONSUMER_NOT_ONLINE:
                    mt.track_type = "NOT_ONLINE"
                    mt.exception_desc = f"CODE:{e.code} DESC:{e.remark}"
                elif e.code == 213:  # BROADCAST_CONSUMPTION
                    mt.track_type = "CONSUME_BROADCASTING"
                return mt
            except (RemotingError, AdminError) as e:
                mt.exception_desc = str(e)
                return mt
            if not consumed:
                mt.track_type = "NOT_CONSUME_YET"
            else:
                mt.track_type = "CONSUMED"
                sub = (conn.get("subscriptionTable") or {}).get(msg.topic)
                tags = set(sub.get("tagsSet") or []) if isinstance(sub, dict) else None
                if tags is not None and tags and "*" not in tags and msg.tags not in tags:
                    mt.track_type = "CONSUMED_BUT_FILTERED"
        return mt

    async def _track_connection(self, group: str) -> dict[str, Any]:
        from mqadmin.protocol.headers.connections import GetConsumerConnectionListRequestHeader

        route = await self.namesrv.examine_topic_route_info(RETRY_PREFIX + group)
        datas = route.broker_datas or []
        if not datas:
            raise _NotOnline()
        addr = datas[random.randrange(len(datas))].select_broker_addr()  # any of them
        if not addr:
            raise _NotOnline()
        header = GetConsumerConnectionListRequestHeader(group)
        resp = await self.core.invoke(addr, RequestCode.GET_CONSUMER_CONNECTION_LIST, header)
        data = _json_body(addr, resp, "consumer connection")
        if not data.get("connectionSet"):
            raise _NotOnline()
        return data

    async def _track_consumed(self, msg: MessageExt, group: str) -> bool:
        from mqadmin.protocol.bodies.cluster import ClusterInfo

        route = await self.namesrv.examine_topic_route_info(RETRY_PREFIX + group)
        info: ClusterInfo = await self.namesrv.examine_broker_cluster_info()
        store = msg.store_address
        for bd in route.broker_datas or []:
            addr = bd.select_broker_addr()
            if not addr:
                continue
            stats = await self.broker.get_consume_stats(addr, group)
            for mq, ow in (stats.offset_table or {}).items():
                if mq.topic != msg.topic or mq.queue_id != msg.queue_id:
                    continue
                data = (info.broker_addr_table or {}).get(mq.broker_name or "")
                master = (data.broker_addrs or {}).get(MASTER_ID) if data is not None else None
                if master == store and ow.consumer_offset > msg.queue_offset:
                    return True
        return False


def _plain(addr: str) -> str:
    """``host:port`` as name servers list brokers (IPv6 without brackets)."""
    host, _, port = addr.rpartition(":")
    return f"{host.strip('[]')}:{port}"


class _NotOnline(Exception):
    """examineConsumerConnectionInfo found no connection (Java's MQClientException 206)."""


def _json_body(addr: str, resp: RemotingCommand, what: str) -> dict[str, Any]:
    if not resp.body:
        raise BadResponseError(addr, f"the {what} has no body")
    try:
        data = fastjson.loads(resp.body)
    except ProtocolError as e:
        raise BadResponseError(addr, f"{what}: {e}") from None
    if not isinstance(data, dict):
        raise BadResponseError(addr, f"{what} is not an object")
    return data
