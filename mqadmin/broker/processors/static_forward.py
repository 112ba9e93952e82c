"""Requests on a logical queue of a static topic, answered in logical terms: here for the generations
this broker holds, on their broker for the others (Java's ``RpcClient``: physical ids, ``lo=false``,
the address from the name servers). The mappings themselves are :mod:`mqadmin.broker.static_topics`.

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
from typing import Any

from mqadmin.broker.config import BrokerConfig
from mqadmin.broker.offsets import OffsetManager
from mqadmin.broker.static_topics import QueueContext
from mqadmin.broker.store import MessageStore
from mqadmin.broker.wire import answer
from mqadmin.protocol.acl import RequestSigner
from mqadmin.protocol.bodies.cluster import ClusterInfo
from mqadmin.protocol.bodies.static_topic import LogicQueueMappingItem
from mqadmin.protocol.codes import RequestCode, ResponseCode
from mqadmin.protocol.command import RemotingCommand
from mqadmin.protocol.headers.consumer import (
    GetEarliestMsgStoretimeRequestHeader,
    GetMaxOffsetRequestHeader,
    GetMinOffsetRequestHeader,
    QueryConsumerOffsetRequestHeader,
    SearchOffsetRequestHeader,
    UpdateConsumerOffsetRequestHeader,
)
from mqadmin.protocol.headers.message import PullMessageRequestHeader
from mqadmin.protocol.javanum import parse_long
from mqadmin.protocol.staticmapping import (
    MappingError,
    PullOffsets,
    end_offset_decided,
    find_item,
    physical_offset,
    static_offset_loosely,
    static_offset_strictly,
)
from mqadmin.remoting.client import RemotingClient
from mqadmin.remoting.logthrottle import ThrottledLog

__all__ = [
    "FORWARD_FAILED",
    "Forwarding",
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


@dataclass(frozen=True, slots=True)
class Forwarding:
    """What answering a logical queue needs: this broker's names, its own store and offsets for the
    generations it holds, and a client (with the inner credentials) for the others."""

    config: BrokerConfig
    store: MessageStore
    offsets: OffsetManager
    client: RemotingClient
    signer: Callable[[], RequestSigner | None]


# ------------------------------------------------------------------------------ asking another broker

FORWARD_TIMEOUT_S = 3.0
"""``BrokerConfig.forwardTimeout``."""
FLAG_COMMIT_OFFSET = 0x1
FLAG_SUSPEND = 0x2
NOT_FOUND_REMARK = "Not found, maybe this group consumer boot first"


MASTER_ID = 0


async def _master_addr(fwd: Forwarding, bname: str) -> str | None:
    """The registered master address of broker ``bname`` when it is a broker of this broker's own
    cluster, from the first name server that says so; None otherwise (nothing is forwarded)."""
    own = fwd.config.broker_cluster_name
    for ns in fwd.config.namesrv_list:
        req = RemotingCommand.request(RequestCode.GET_BROKER_CLUSTER_INFO, {})
        try:
            resp = await fwd.client.invoke(ns, req, FORWARD_TIMEOUT_S)
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
    fwd: Forwarding,
    cmd: RemotingCommand,
    header: Any,
    item: LogicQueueMappingItem,
    **changes: Any,
) -> RemotingCommand:
    """``cmd``'s request to the broker of ``item`` (RpcClient), ``header`` rewritten for it: the
    item's physical queue, ``lo=false``, its broker name, and ``changes``."""
    rewritten = dataclasses.replace(header, queue_id=item.queue_id, lo=False, bname=item.bname, **changes)
    addr = await _master_addr(fwd, item.bname or "")
    if addr is None:  # not a broker of this cluster: neither the request nor the credentials go out
        raise MappingError(
            f"Can't find addr for broker {item.bname} in cluster {fwd.config.broker_cluster_name}"
        )
    req = RemotingCommand.request(cmd.code, rewritten.to_ext(), version=cmd.version)
    signer = fwd.signer()
    if signer is not None:
        signer(req)
    return await fwd.client.invoke(addr, req, FORWARD_TIMEOUT_S)


async def _relay(
    fwd: Forwarding,
    cmd: RemotingCommand,
    header: Any,
    item: LogicQueueMappingItem,
    told: Callable[[RemotingCommand], RemotingCommand],
) -> RemotingCommand:
    """The request asked on ``item``'s broker (:func:`_ask`): a failure or an error code is answered
    as it came, a success through ``told``."""
    try:
        resp = await _ask(fwd, cmd, header, item)
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
    fwd: Forwarding,
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
                fwd,
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
    fwd: Forwarding,
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

    if item.bname == fwd.config.broker_name:
        store = fwd.store
        topic = static.topic
        return told(
            store.max_offset(topic, item.queue_id) if want_max else store.min_offset(topic, item.queue_id)
        )

    return _relay(fwd, cmd, header, item, lambda resp: told(parse_long(resp.ext("offset"))))


def earliest_answer(
    fwd: Forwarding,
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
    if item.bname == fwd.config.broker_name:
        ts = fwd.store.earliest_message_time(static.topic, item.queue_id)
        return answer(cmd, ResponseCode.SUCCESS, None, {"timestamp": ts})

    def told(resp: RemotingCommand) -> RemotingCommand:
        return answer(cmd, ResponseCode.SUCCESS, None, {"timestamp": parse_long(resp.ext("timestamp"))})

    return _relay(fwd, cmd, header, item, told)


# ------------------------------------------------------------------------ consumer offsets (14, 15)


def commit_answer(
    fwd: Forwarding,
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
    if item.bname == fwd.config.broker_name:
        fwd.offsets.commit(header.consumer_group, header.topic, item.queue_id, physical)
        return answer(cmd, ResponseCode.SUCCESS, None, {})

    async def remote() -> RemotingCommand:
        try:
            resp = await _ask(fwd, cmd, header, item, commit_offset=physical)
        except Exception as e:
            return _failed(cmd, e)
        return answer(cmd, resp.code, resp.remark, {})

    return remote()


def query_answer(
    fwd: Forwarding,
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
            if item.bname == fwd.config.broker_name:
                offset = fwd.offsets.query(header.consumer_group, header.topic, item.queue_id)
                if offset < 0:
                    continue
            else:
                try:
                    resp = await _ask(fwd, cmd, header, item, set_zero_if_not_found=False)
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
    fwd: Forwarding, cmd: RemotingCommand, header: SearchOffsetRequestHeader, static: QueueContext
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
            if item.bname == fwd.config.broker_name:
                found = fwd.store.offset_by_time(static.topic, item.queue_id, header.timestamp)
                if found > 0:
                    offset = static_offset_strictly(item, found)
                    break
                continue
            try:
                resp = await _ask(fwd, cmd, header, item)
            except Exception as e:
                return _failed(cmd, e)
            found = parse_long(resp.ext("offset") or "-1") if resp.code == ResponseCode.SUCCESS else -1
            if found < 0 or (end_offset_decided(item) and found >= item.end_offset):
                continue
            offset = static_offset_strictly(item, found)
        return answer(cmd, ResponseCode.SUCCESS, None, {"offset": offset})

    return walk()
