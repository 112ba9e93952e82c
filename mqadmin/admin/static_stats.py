"""A static topic's queues seen as logical ones: each broker's queue mapping detail (GET_TOPIC_CONFIG,
351) and Java's ``MQAdminUtils.convertPhysicalConsumeStats`` over a group's consume stats.

Apart from :mod:`.consumers` and :mod:`.broker`: only a route with queue mappings (a static topic)
leads here, so the progress of a group of plain topics does not load the static-topic bodies.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from mqadmin.admin.core import AdminCore
from mqadmin.admin.errors import BadResponseError
from mqadmin.protocol.bodies import fieldcheck as j
from mqadmin.protocol.bodies.consume_stats import ConsumeStats, OffsetWrapper
from mqadmin.protocol.bodies.logic_queues import TopicQueueMappingDetail
from mqadmin.protocol.bodies.message_queue import MessageQueue
from mqadmin.protocol.bodies.route import TopicRouteData
from mqadmin.protocol.codes import RequestCode, ResponseCode
from mqadmin.protocol.errors import ProtocolError
from mqadmin.protocol.headers.topic import GetTopicConfigRequestHeader
from mqadmin.protocol.staticmapping import mock_broker_name, static_offset_strictly
from mqadmin.remoting.errors import RemoteCommandError

__all__ = ["convert_static_consume_stats", "mapping_details"]


async def mapping_details(
    core: AdminCore, topic: str, route: TopicRouteData
) -> list[TopicQueueMappingDetail]:
    """GET_TOPIC_CONFIG (351) of each broker of a static topic: its queue mapping detail."""
    out: list[TopicQueueMappingDetail] = []
    for bd in route.broker_datas or []:
        addr = bd.select_broker_addr()
        if addr is None:
            continue
        try:
            header = GetTopicConfigRequestHeader(topic=topic, lo=True)
            resp = await core.invoke(addr, RequestCode.GET_TOPIC_CONFIG, header)
        except RemoteCommandError as e:
            if e.code in (ResponseCode.TOPIC_NOT_EXIST, ResponseCode.REQUEST_CODE_NOT_SUPPORTED):
                continue
            raise
        try:
            detail = j.decode_object(resp.body or b"{}", "TopicConfigAndQueueMapping").get("mappingDetail")
            if detail is not None:
                out.append(TopicQueueMappingDetail.from_json_obj(detail))
        except ProtocolError as e:
            raise BadResponseError(addr, f"topic config of {topic}: {e}") from None
    return out


def convert_static_consume_stats(
    details: Iterable[TopicQueueMappingDetail], physical: ConsumeStats
) -> dict[MessageQueue, OffsetWrapper]:
    """``MQAdminUtils.convertPhysicalConsumeStats``: physical queues of a static topic → logical ones."""
    ordered = sorted(details, key=lambda d: -d.epoch)
    global_ids: dict[int, tuple[TopicQueueMappingDetail, list[Any]]] = {}
    for detail in ordered:
        for gid, items in (detail.hosted_queues or {}).items():
            if not items or items[-1].bname != detail.bname:
                continue  # only the leader's view counts
            global_ids.setdefault(gid, (detail, items))
    out: dict[MessageQueue, OffsetWrapper] = {}
    for gid, (detail, items) in global_ids.items():
        broker_offset = consumer_offset = last = -1
        for item in reversed(items):
            phy = physical.offset_table.get(MessageQueue(detail.topic, item.bname, item.queue_id))
            if phy is None:
                continue
            if consumer_offset == -1 and phy.consumer_offset >= 0:
                consumer_offset, last = phy.consumer_offset, phy.last_timestamp
            if broker_offset == -1 and item.logic_offset >= 0:
                broker_offset = static_offset_strictly(item, phy.broker_offset)
            if consumer_offset >= 0 and broker_offset >= 0:
                break
        if broker_offset >= 0 and consumer_offset >= 0:
            mq = MessageQueue(detail.topic, mock_broker_name(detail.scope), gid)
            out[mq] = OffsetWrapper(broker_offset, consumer_offset, last)
    return out
