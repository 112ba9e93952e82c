"""The broker's static-topic mappings (Java ``TopicQueueMappingManager``), persisted as
``config/topicQueueMapping.json`` in Java's shape (``{"dataVersion":..,"topicQueueMappingInfoMap":
{topic: TopicQueueMappingDetail}}``, fastjson pretty text, ``.bak`` kept, as every config file).

A mapping arrives with UPDATE_AND_CREATE_STATIC_TOPIC (513) together with the topic's config: both
are checked first (:func:`~mqadmin.protocol.staticmapping.merge_broker_detail`, the header's
numbers), then kept; the mapping file is written before ``topics.json``, so a refused request writes
neither (a crash between the two writes leaves the new mapping beside the old config; the tool's
next run, which checks both, says so). Details in the file that do not add up are left out at load.

Sends, pulls, consumer offsets, min/max offsets, time searches and earliest store times name a
*logical* queue of a static topic; :meth:`TopicQueueMappings.context` finds its generations here,
and the functions below answer in logical terms. A generation that lives on another broker is asked
there with physical ids and ``lo=false`` (Java's ``RpcClient``; its address from the name servers).

A mapping names brokers by name, and whoever can register a broker with a name server can give a
name an address: so a request is forwarded only to a broker of this broker's own cluster (in the
name server's cluster table, and its own entry says that cluster), at the master address registered
for it, and only such a request carries this broker's inner credentials. A failed forward is
answered with a remark that says it failed, never how (a refused connection and a timeout read the
same, so a forward cannot probe ports).
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mqadmin.broker.config import BrokerConfig
from mqadmin.broker.jsonfile import load_config_file, persist_config_file, pretty_json
from mqadmin.broker.processors.wire import answer
from mqadmin.protocol import names
from mqadmin.protocol.bodies.cluster import ClusterInfo
from mqadmin.protocol.bodies.static_topic import (
    LogicQueueMappingItem,
    TopicQueueMappingDetail,
    TopicQueueMappingInfo,
    TopicQueueMappingSerializeWrapper,
)
from mqadmin.protocol.bodies.topic import (
    DataVersion,
    TopicConfigAndMappingSerializeWrapper,
    TopicConfigSerializeWrapper,
)
from mqadmin.protocol.codes import RequestCode, ResponseCode
from mqadmin.protocol.command import RemotingCommand
from mqadmin.protocol.javanum import parse_long
from mqadmin.protocol.staticmapping import (
    MappingError,
    PullOffsets,
    check_broker_detail,
    end_offset_decided,
    find_item,
    mapping_info,
    merge_broker_detail,
    physical_offset,
    rewrite_pull_answer,
    static_offset_loosely,
    static_offset_strictly,
)
from mqadmin.remoting.logthrottle import ThrottledLog

if TYPE_CHECKING:
    from mqadmin.broker.server import BrokerController
    from mqadmin.protocol.headers.consumer import (
        GetEarliestMsgStoretimeRequestHeader,
        GetMaxOffsetRequestHeader,
        GetMinOffsetRequestHeader,
        QueryConsumerOffsetRequestHeader,
        SearchOffsetRequestHeader,
        UpdateConsumerOffsetRequestHeader,
    )
    from mqadmin.protocol.headers.message import PullMessageRequestHeader

__all__ = [
    "QueueContext",
    "TopicQueueMappings",
    "commit_answer",
    "earliest_answer",
    "forward_pull",
    "not_leader",
    "offset_answer",
    "query_answer",
    "search_answer",
]

log = logging.getLogger("mqadmin.broker")
_peer_log = ThrottledLog(log)  # lines a remote peer can cause


@dataclass(slots=True)
class QueueContext:
    """A request's logical queue on this broker (Java ``TopicQueueMappingContext``)."""

    topic: str
    global_id: int
    detail: TopicQueueMappingDetail
    items: list[LogicQueueMappingItem] | None
    current: LogicQueueMappingItem | None = None

    @property
    def leader(self) -> LogicQueueMappingItem | None:
        return self.items[-1] if self.items else None

    @property
    def is_leader(self) -> bool:
        leader = self.leader
        return leader is not None and leader.bname == self.detail.bname

    # ------------------------------------------------------------------ send

    def send_answer(self, physical_offset: int) -> tuple[int, int]:
        """``rewriteResponseForStaticTopic`` of a send: the logical queue id and offset to answer."""
        leader = self.leader
        assert leader is not None
        return self.global_id, static_offset_loosely(leader, physical_offset)

    # ------------------------------------------------------------------ pull

    def pull_refusal(self) -> str | None:
        if self.is_leader:
            return None
        return (
            f"{self.topic}-{self.global_id} cannot find mapping item in request process of current "
            f"broker {self.detail.bname}"
        )

    def pull_target(self, logical_offset: int, max_nums: int) -> tuple[LogicQueueMappingItem, int, int]:
        """The generation holding ``logical_offset``, the physical offset there, and the batch size
        (no more than what is left of a closed generation)."""
        item = find_item(self.items, logical_offset, True)
        assert item is not None  # the leader's own item has a decided logic offset
        self.current = item
        if item.end_offset > item.start_offset:
            max_nums = min(item.end_offset - item.start_offset, max_nums)
        return item, physical_offset(item, logical_offset), max_nums

    def local_commit(self, logical_offset: int) -> tuple[int, int] | None:
        """Where a pull's commit of ``logical_offset`` is kept on this broker: (physical queue id,
        physical offset) of the generation holding it; None when another broker holds it."""
        item = find_item(self.items, logical_offset, True)
        if item is None or item.bname != self.detail.bname:
            return None
        return item.queue_id, physical_offset(item, logical_offset)

    def pull_answer(self, request_offset: int, got: PullOffsets) -> PullOffsets:
        assert self.items is not None and self.current is not None
        return rewrite_pull_answer(self.items, self.detail, self.global_id, self.current, request_offset, got)


class TopicQueueMappings:
    """Mappings by topic; every change bumps the version and persists at once."""

    def __init__(self, config: BrokerConfig, config_dir: Path) -> None:
        self.config = config
        self.path = config_dir / "topicQueueMapping.json"
        self.table: dict[str, TopicQueueMappingDetail] = {}
        self.data_version = DataVersion()

    # ------------------------------------------------------------------ persistence

    def load(self) -> None:
        def decode(obj: Any) -> None:
            wrapper = TopicQueueMappingSerializeWrapper.from_json_obj(obj)
            for topic, detail in wrapper.topic_queue_mapping_info_map.items():
                try:  # a file edited by hand: what does not add up is left out, and said
                    check_broker_detail(detail, topic, self.config.broker_name, names.QUEUE_NUMS_MAX)
                except MappingError as e:
                    log.error("%s: the mapping of static topic %s is left out: %s", self.path, topic, e)
                    continue
                self.table[topic] = detail
            if wrapper.data_version is not None:
                self.data_version = wrapper.data_version

        load_config_file(self.path, decode)

    def encode(self, pretty: bool = False) -> str:
        wrapper = TopicQueueMappingSerializeWrapper(dict(self.table), self.data_version)
        return pretty_json(wrapper.to_json_obj()) if pretty else wrapper.encode().decode()

    def persist(self) -> None:
        persist_config_file(self.path, lambda: self.encode(pretty=True))

    # ------------------------------------------------------------------ queries and changes

    def get(self, topic: str) -> TopicQueueMappingDetail | None:
        return self.table.get(topic)

    def merged(self, detail: TopicQueueMappingDetail, force: bool) -> TopicQueueMappingDetail:
        """What would be kept if ``detail`` arrived now (raises ``MappingError``; changes nothing)."""
        assert detail.topic is not None
        return merge_broker_detail(self.table.get(detail.topic), detail, force)

    def put(self, detail: TopicQueueMappingDetail) -> None:
        """Keep a detail :meth:`merged` made, bump the version, persist."""
        assert detail.topic is not None
        old = self.table.get(detail.topic)
        self.table[detail.topic] = detail
        self.data_version.next_version()
        self.persist()
        _peer_log.log(
            logging.INFO,
            "mapping updated",
            "Update topic queue mapping of %s (epoch %s -> %d)",
            detail.topic,
            old and old.epoch,
            detail.epoch,
        )

    def delete(self, topic: str) -> None:
        if self.table.pop(topic, None) is not None:
            log.info("delete topic queue mapping OK, static topic: %s", topic)
            self.data_version.next_version()
            self.persist()

    def all_topic_config(self, topics: TopicConfigSerializeWrapper) -> TopicConfigAndMappingSerializeWrapper:
        """GET_ALL_TOPIC_CONFIG of a 5.3.3 broker: the topic table with every mapping detail."""
        return TopicConfigAndMappingSerializeWrapper(
            topics.topic_config_table,
            topics.data_version,
            topic_queue_mapping_detail_map=dict(self.table),
            mapping_data_version=self.data_version,
        )

    def infos(self, only: str | None = None) -> dict[str, TopicQueueMappingInfo]:
        """What a registration carries (``cloneAsMappingInfo`` of each, or of ``only``)."""
        topics = self.table if only is None else [t for t in (only,) if t in self.table]
        return {t: mapping_info(self.table[t]) for t in topics}

    def context(
        self, topic: str, queue_id: int, *, select_one: bool, lo: bool | None = None
    ) -> QueueContext | None:
        """``buildTopicQueueMappingContext``: None for a topic that is not static here (or ``lo=false``,
        a request another broker forwarded with physical ids)."""
        if lo is False or not self.table:
            return None
        detail = self.table.get(topic)
        if detail is None:
            return None
        hosted = detail.hosted_queues or {}
        gid = queue_id
        if gid < 0 and select_one and hosted:
            gid = min(hosted)
        items = hosted.get(gid) if gid >= 0 else None
        return QueueContext(topic, gid, detail, items or None)


# ------------------------------------------------------------------------------ asking another broker

FORWARD_TIMEOUT_S = 3.0
"""``BrokerConfig.forwardTimeout``."""
FLAG_COMMIT_OFFSET = 0x1
FLAG_SUSPEND = 0x2
NOT_FOUND_REMARK = "Not found, maybe this group consumer boot first"


MASTER_ID = 0


async def _master_addr(broker: BrokerController, bname: str) -> str | None:
    """The registered master address of broker ``bname`` when it is a broker of this broker's own
    cluster, from the first name server that says so; None otherwise (nothing is forwarded)."""
    own = broker.config.broker_cluster_name
    for ns in broker.config.namesrv_list:
        req = RemotingCommand.request(RequestCode.GET_BROKER_CLUSTER_INFO, {})
        try:
            resp = await broker.namesrv_client.invoke(ns, req, FORWARD_TIMEOUT_S)
            if resp.code != ResponseCode.SUCCESS:
                continue
            info = ClusterInfo.decode(resp.body or b"{}")
        except Exception as e:
            _peer_log.warning(
                "cluster info", "cluster info from %s for a static-topic request failed: %s", ns, e
            )
            continue
        addr = _member_master(info, own, bname)
        if addr is not None:
            return addr
    return None


def _member_master(info: ClusterInfo, cluster: str, bname: str) -> str | None:
    """``bname``'s master address in ``info`` if ``bname`` is a member of ``cluster`` there."""
    members = (info.cluster_addr_table or {}).get(cluster) or ()
    bd = (info.broker_addr_table or {}).get(bname)
    if bname not in members or bd is None or bd.cluster != cluster:
        return None
    addr = (bd.broker_addrs or {}).get(MASTER_ID)
    return addr or None


async def _ask(
    broker: BrokerController,
    cmd: RemotingCommand,
    header: Any,
    item: LogicQueueMappingItem,
    **changes: Any,
) -> RemotingCommand:
    """``cmd``'s request to the broker of ``item`` (RpcClient), ``header`` rewritten for it: the
    item's physical queue, ``lo=false``, its broker name, and ``changes``."""
    fwd = dataclasses.replace(header, queue_id=item.queue_id, lo=False, bname=item.bname, **changes)
    addr = await _master_addr(broker, item.bname or "")
    if addr is None:  # not a broker of this cluster: neither the request nor the credentials go out
        raise MappingError(
            f"Can't find addr for broker {item.bname} in cluster {broker.config.broker_cluster_name}"
        )
    req = RemotingCommand.request(cmd.code, fwd.to_ext(), version=cmd.version)
    from mqadmin.broker.auth import inner_signer

    signer = inner_signer(broker)
    if signer is not None:
        signer(req)
    return await broker.namesrv_client.invoke(addr, req, FORWARD_TIMEOUT_S)


async def _relay(
    broker: BrokerController,
    cmd: RemotingCommand,
    header: Any,
    item: LogicQueueMappingItem,
    told: Callable[[RemotingCommand], RemotingCommand],
) -> RemotingCommand:
    """The request asked on ``item``'s broker (:func:`_ask`): a failure or an error code is answered
    as it came, a success through ``told``."""
    try:
        resp = await _ask(broker, cmd, header, item)
    except Exception as e:
        return _failed(cmd, e)
    if resp.code != ResponseCode.SUCCESS:
        return answer(cmd, resp.code, resp.remark)
    return told(resp)


FORWARD_FAILED = "forward the request of the static topic to its broker failed"
"""The remark of a forward that got no answer, whatever the socket said (logged, not told)."""


def _failed(cmd: RemotingCommand, e: Exception) -> RemotingCommand:
    _peer_log.warning("forward failed", "static-topic request %d forwarded: %r", cmd.code, str(e))
    return answer(cmd, ResponseCode.SYSTEM_ERROR, str(e) if isinstance(e, MappingError) else FORWARD_FAILED)


def not_leader(cmd: RemotingCommand, static: QueueContext, requested: int) -> RemotingCommand:
    """NOT_LEADER_FOR_QUEUE with Java's remark (sic: "does not exit")."""
    remark = (
        f"{static.topic}-{requested} does not exit in request process of current broker {static.detail.bname}"
    )
    return answer(cmd, ResponseCode.NOT_LEADER_FOR_QUEUE, remark)


# ------------------------------------------------------------------------------ a pull of an older generation


def forward_pull(
    broker: BrokerController,
    cmd: RemotingCommand,
    header: PullMessageRequestHeader,
    static: QueueContext,
    item: LogicQueueMappingItem,
    physical: int,
    max_nums: int,
) -> asyncio.Future[RemotingCommand | None]:
    """The pull of a generation another broker holds: asked there with physical ids (``lo=false``,
    no suspend, no commit), its answer told in logical offsets (Java forwards it the same way)."""

    async def run() -> RemotingCommand | None:
        try:
            resp = await _ask(
                broker,
                cmd,
                header,
                item,
                queue_offset=physical,
                max_msg_nums=max_nums,
                sys_flag=header.sys_flag & ~(FLAG_SUSPEND | FLAG_COMMIT_OFFSET),
            )
            got = PullOffsets(
                resp.code,
                parse_long(resp.ext("nextBeginOffset") or "0"),
                parse_long(resp.ext("minOffset") or "0"),
                parse_long(resp.ext("maxOffset") or "0"),
            )
        except Exception as e:
            return _failed(cmd, e)
        told = static.pull_answer(physical, got)
        ext = {
            "suggestWhichBrokerId": 0,
            "nextBeginOffset": told.next_begin_offset,
            "minOffset": told.min_offset,
            "maxOffset": told.max_offset,
            "offsetDelta": told.offset_delta,
        }
        body = resp.body if told.code == ResponseCode.SUCCESS else None
        return answer(cmd, told.code, resp.remark, ext, body)

    return asyncio.ensure_future(run())


# ------------------------------------------------------------------------ GET_MAX_OFFSET, GET_MIN_OFFSET


def offset_answer(
    broker: BrokerController,
    cmd: RemotingCommand,
    header: GetMaxOffsetRequestHeader | GetMinOffsetRequestHeader,
    static: QueueContext,
    *,
    want_max: bool,
) -> RemotingCommand | Coroutine[Any, Any, RemotingCommand]:
    """GET_MAX_OFFSET/GET_MIN_OFFSET of a logical queue (Java ``rewriteRequestForStaticTopic`` of
    both): the newest (oldest) generation's physical offset, here or on its broker, told logically."""
    if not static.is_leader:
        return not_leader(cmd, static, static.global_id)
    item = find_item(static.items, (1 << 63) - 1 if want_max else 0, True)
    assert item is not None

    def told(physical: int) -> RemotingCommand:
        logical = (
            static_offset_strictly(item, physical) if want_max else static_offset_loosely(item, physical)
        )
        return answer(cmd, ResponseCode.SUCCESS, None, {"offset": logical})

    if item.bname == broker.config.broker_name:
        store = broker.store
        topic = static.topic
        return told(
            store.max_offset(topic, item.queue_id) if want_max else store.min_offset(topic, item.queue_id)
        )

    return _relay(broker, cmd, header, item, lambda resp: told(parse_long(resp.ext("offset"))))


def earliest_answer(
    broker: BrokerController,
    cmd: RemotingCommand,
    header: GetEarliestMsgStoretimeRequestHeader,
    static: QueueContext,
) -> RemotingCommand | Coroutine[Any, Any, RemotingCommand]:
    """GET_EARLIEST_MSG_STORETIME of a logical queue: its oldest generation's, asked on that
    generation's physical queue (Java forwards the logical queue id there)."""
    if not static.is_leader:
        return not_leader(cmd, static, static.global_id)
    item = find_item(static.items, 0, True)
    assert item is not None
    if item.bname == broker.config.broker_name:
        ts = broker.store.earliest_message_time(static.topic, item.queue_id)
        return answer(cmd, ResponseCode.SUCCESS, None, {"timestamp": ts})

    def told(resp: RemotingCommand) -> RemotingCommand:
        return answer(cmd, ResponseCode.SUCCESS, None, {"timestamp": parse_long(resp.ext("timestamp"))})

    return _relay(broker, cmd, header, item, told)


# ------------------------------------------------------------------------ consumer offsets (14, 15)


def commit_answer(
    broker: BrokerController,
    cmd: RemotingCommand,
    header: UpdateConsumerOffsetRequestHeader,
    static: QueueContext,
) -> RemotingCommand | Coroutine[Any, Any, RemotingCommand]:
    """UPDATE_CONSUMER_OFFSET of a logical queue: the generation holding the offset keeps it, as a
    physical offset on its physical queue, here or on its broker (``ConsumerManageProcessor``)."""
    if not static.is_leader:
        return not_leader(cmd, static, header.queue_id)
    item = find_item(static.items, header.commit_offset, True)
    assert item is not None
    physical = physical_offset(item, header.commit_offset)
    if item.bname == broker.config.broker_name:
        broker.offsets.commit(header.consumer_group, header.topic, item.queue_id, physical)
        return answer(cmd, ResponseCode.SUCCESS, None, {})

    async def remote() -> RemotingCommand:
        try:
            resp = await _ask(broker, cmd, header, item, commit_offset=physical)
        except Exception as e:
            return _failed(cmd, e)
        return answer(cmd, resp.code, resp.remark, {})

    return remote()


def query_answer(
    broker: BrokerController,
    cmd: RemotingCommand,
    header: QueryConsumerOffsetRequestHeader,
    static: QueueContext,
) -> RemotingCommand | Coroutine[Any, Any, RemotingCommand] | None:
    """QUERY_CONSUMER_OFFSET of a logical queue: the newest generation with a committed offset, told
    logically; None for a queue with one generation from 0 (asked as a physical queue, Java's shortcut)."""
    if not static.is_leader:
        return not_leader(cmd, static, header.queue_id)
    items = static.items or []
    if len(items) == 1 and items[0].logic_offset == 0:
        return None

    async def walk() -> RemotingCommand:
        for item in reversed(items):
            if item.bname == broker.config.broker_name:
                offset = broker.offsets.query(header.consumer_group, header.topic, item.queue_id)
                if offset < 0:
                    continue
            else:
                try:
                    resp = await _ask(broker, cmd, header, item, set_zero_if_not_found=False)
                except Exception as e:
                    return _failed(cmd, e)
                if resp.code == ResponseCode.QUERY_NOT_FOUND:
                    continue
                if resp.code != ResponseCode.SUCCESS:
                    return answer(cmd, ResponseCode.SYSTEM_ERROR, f"Unknown response code {resp.code}")
                offset = parse_long(resp.ext("offset"))
            return answer(cmd, ResponseCode.SUCCESS, None, {"offset": static_offset_strictly(item, offset)})
        return answer(cmd, ResponseCode.QUERY_NOT_FOUND, NOT_FOUND_REMARK, {})

    return walk()


# ------------------------------------------------------------------------ SEARCH_OFFSET_BY_TIMESTAMP


def search_answer(
    broker: BrokerController, cmd: RemotingCommand, header: SearchOffsetRequestHeader, static: QueueContext
) -> RemotingCommand | Coroutine[Any, Any, RemotingCommand]:
    """SEARCH_OFFSET_BY_TIMESTAMP of a logical queue: the generations from the oldest, each searched
    where it lives, the first hit told logically (Java's ``rewriteRequestForStaticTopic``; as there,
    a hit on another broker is kept only if no later generation has one)."""
    if not static.is_leader:
        return not_leader(cmd, static, static.global_id)
    items = [i for i in static.items or [] if i.logic_offset >= 0]

    async def walk() -> RemotingCommand:
        offset = -1
        for item in items:
            if item.bname == broker.config.broker_name:
                found = broker.store.offset_by_time(static.topic, item.queue_id, header.timestamp)
                if found > 0:
                    offset = static_offset_strictly(item, found)
                    break
                continue
            try:
                resp = await _ask(broker, cmd, header, item)
            except Exception as e:
                return _failed(cmd, e)
            found = parse_long(resp.ext("offset") or "-1") if resp.code == ResponseCode.SUCCESS else -1
            if found < 0 or (end_offset_decided(item) and found >= item.end_offset):
                continue
            offset = static_offset_strictly(item, found)
        return answer(cmd, ResponseCode.SUCCESS, None, {"offset": offset})

    return walk()
