"""topicRoute: a topic's route as the name server answers it, as the Java 5.3.3 tool prints it.

The text is fastjson's pretty printer over the route bean, or with ``-l`` the Java table (sorted by
broker name, up to the first broker without queue data, where Java fails).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mqadmin.cli.command import Invocation, java_command
from mqadmin.cli.errors import CommandError
from mqadmin.cli.javaopts import JavaOpt
from mqadmin.cli.javatext import fastjson_pretty, java_map_string, jformat
from mqadmin.cli.results import Result
from mqadmin.cli.routeview import broker_addrs_in_java_order, route_bean, to_standard_json
from mqadmin.protocol.bodies.route import TopicRouteData
from mqadmin.protocol.javacoll import java_string_sort_key

TOPIC = JavaOpt("t", "topic", "topic name", required=True)

_ROUTE_FORMAT = "%-45s %-32s %-50s %-10s %-11s %-5s%n"


def _missing_queue_data(route: TopicRouteData) -> str | None:
    """Why ``-l`` fails (Java throws at the first broker without queue data), or None."""
    by_broker = {qd.broker_name for qd in route.queue_datas or []}
    brokers = sorted(route.broker_datas or [], key=lambda b: java_string_sort_key(b.broker_name or ""))
    missing = next((bd.broker_name for bd in brokers if bd.broker_name not in by_broker), None)
    return None if missing is None else f"the route has no queue data for broker {missing}"


def _route_list_text(route: TopicRouteData) -> str:
    """The ``-l`` table, up to the first broker without queue data (where Java fails)."""
    by_broker = {qd.broker_name: qd for qd in route.queue_datas or []}
    brokers = sorted(route.broker_datas or [], key=lambda b: java_string_sort_key(b.broker_name or ""))
    lines = [
        jformat(
            _ROUTE_FORMAT, "#ClusterName", "#BrokerName", "#BrokerAddrs", "#ReadQueue", "#WriteQueue", "#Perm"
        )
    ]
    total_read = total_write = 0
    for bd in brokers:
        qd = by_broker.get(bd.broker_name)
        if qd is None:
            return "".join(lines)
        addrs = (
            java_map_string(broker_addrs_in_java_order(bd).items()) if bd.broker_addrs is not None else "null"
        )
        row = (bd.cluster, bd.broker_name, addrs, qd.read_queue_nums, qd.write_queue_nums, qd.perm)
        lines.append(jformat(_ROUTE_FORMAT, *row))
        total_read += qd.read_queue_nums
        total_write += qd.write_queue_nums
    lines.append("-" * 158 + "\n")
    lines.append(jformat(_ROUTE_FORMAT, "Total:", len(by_broker), "", total_read, total_write, ""))
    return "".join(lines)


@dataclass(slots=True)
class RouteView(Result):
    """topicRoute: the route as fastjson pretty-prints it, or as the ``-l`` table (``listed``)."""

    route: TopicRouteData
    listed: bool

    def text(self) -> str:
        if self.listed:
            return _route_list_text(self.route)
        return fastjson_pretty(route_bean(self.route)) + "\n"

    def data(self) -> dict[str, Any]:
        return to_standard_json(route_bean(self.route))


@java_command(
    "topicRoute",
    [TOPIC, JavaOpt("l", "list", "Use list format to print data", has_arg=False, dest="list_format")],
    json_doc='{"brokerDatas": [{"brokerAddrs": {"<brokerId>": "host:port"}, "brokerName": str, '
    '"cluster": str, "enableActingMaster": bool, "zoneName": str?}], '
    '"filterServerTable": {"<brokerAddr>": [str]}, '
    '"orderTopicConf": str?, "queueDatas": [{"brokerName": str, "perm": int, "readQueueNums": int, '
    '"topicSysFlag": int, "writeQueueNums": int}], "topicQueueMappingByBroker": {...}?} '
    "(the route as the name server holds it; -l prints the same data)",
)
async def topic_route(inv: Invocation, topic: str, list_format: bool) -> None:
    route = await inv.admin.namesrv.examine_topic_route_info(topic.strip())
    inv.out.emit(RouteView(route, list_format))
    problem = _missing_queue_data(route) if list_format and not inv.out.structured else None
    if problem:
        raise CommandError(problem)
