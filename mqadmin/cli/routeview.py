"""A topic route as the Java 5.3.3 client holds it, for printing: beans in fastjson order.

The Java tool prints the client's ``TopicRouteData`` bean, so the text shows the client's view:
``brokerAddrs`` as a ``HashMap<Long, String>``, ``enableActingMaster`` always present (the 5.3.3
bean's default is false), properties sorted by name, nulls left out.
"""

from __future__ import annotations

from typing import Any

from mqadmin.cli.javatext import Bean, JavaSet
from mqadmin.protocol.bodies.route import BrokerData, QueueData, TopicRouteData
from mqadmin.protocol.javacoll import java_hash_order

__all__ = ["broker_addrs_in_java_order", "route_bean", "to_standard_json"]


def broker_addrs_in_java_order(bd: BrokerData) -> dict[int, str]:
    addrs = bd.broker_addrs or {}
    return {k: addrs[k] for k in java_hash_order(list(addrs))}


def _broker_bean(bd: BrokerData) -> Bean:
    return Bean(
        brokerAddrs=broker_addrs_in_java_order(bd) if bd.broker_addrs is not None else None,
        brokerName=bd.broker_name,
        cluster=bd.cluster,
        enableActingMaster=bool(bd.enable_acting_master),
        zoneName=bd.zone_name,
    )


def _queue_bean(qd: QueueData) -> Bean:
    return Bean(
        brokerName=qd.broker_name,
        perm=qd.perm,
        readQueueNums=qd.read_queue_nums,
        topicSysFlag=qd.topic_sys_flag,
        writeQueueNums=qd.write_queue_nums,
    )


def _as_bean(value: Any) -> Any:
    """A bean of JSON values; a map keyed by numbers (``currIdMap``) stays a map."""
    if isinstance(value, dict):
        inner = {k: _as_bean(v) for k, v in value.items()}
        return inner if any(not isinstance(k, str) for k in value) or not value else Bean(inner)
    if isinstance(value, list):
        return [_as_bean(v) for v in value]
    return value


def route_bean(route: TopicRouteData) -> Bean:
    """The ``TopicRouteData`` bean of the Java 5.3.3 client."""
    fst = route.filter_server_table
    tqm = route.topic_queue_mapping_by_broker
    return Bean(
        brokerDatas=None if route.broker_datas is None else [_broker_bean(b) for b in route.broker_datas],
        filterServerTable=None if fst is None else {k: fst[k] for k in java_hash_order(list(fst))},
        orderTopicConf=route.order_topic_conf,
        queueDatas=None if route.queue_datas is None else [_queue_bean(q) for q in route.queue_datas],
        topicQueueMappingByBroker=None
        if tqm is None
        else {k: _as_bean(tqm[k].to_json_obj()) for k in java_hash_order(list(tqm))},
    )


def to_standard_json(value: Any) -> Any:
    """Plain JSON values of beans/maps/sets: numeric keys quoted, bean properties sorted, nulls dropped."""
    if isinstance(value, Bean):
        return {k: to_standard_json(value[k]) for k in sorted(value) if value[k] is not None}
    if isinstance(value, dict):
        return {str(k): to_standard_json(v) for k, v in value.items() if v is not None}
    if isinstance(value, JavaSet | list | tuple):
        return [to_standard_json(v) for v in value]
    return value
