"""Topic commands answered by name servers: topicClusterList, topicList, allocateMQ (topicRoute is
:mod:`.topic_route`).

Text output is the Java 5.3.3 tool's, including its orders: Java ``HashSet``/``HashMap`` iteration
for topic, cluster and ip lists (:mod:`mqadmin.protocol.javacoll`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mqadmin.cli.command import Invocation, java_command
from mqadmin.cli.errors import CommandError
from mqadmin.cli.javaopts import JavaOpt
from mqadmin.cli.javatext import (
    Bean,
    fastjson_compact,
    front_string_at_least,
    jformat,
)
from mqadmin.cli.results import Errors, Result, with_errors
from mqadmin.protocol import names
from mqadmin.protocol.bodies.route import TopicRouteData
from mqadmin.protocol.javacoll import java_hash_order
from mqadmin.remoting.errors import RemotingConnectError, RemotingTimeoutError

TOPIC = JavaOpt("t", "topic", "topic name", required=True)
RETRY_PREFIX = names.RETRY_GROUP_TOPIC_PREFIX
DLQ_PREFIX = "%DLQ%"


@dataclass(slots=True)
class Names(Result):
    """A set of names (topics, clusters) under ``key``: the text lists them in the order of the
    Java ``HashSet`` filled in the order received; the document sorts them."""

    key: str
    names: list[str]

    def text(self) -> str:
        return "".join(f"{n}\n" for n in java_hash_order(self.names))

    def data(self) -> dict[str, Any]:
        return {self.key: sorted(self.names)}


# ------------------------------------------------------------------------------- topicClusterList


@java_command(
    "topicClusterList",
    [TOPIC],
    json_doc='{"clusters": [str]} (the clusters holding the topic\'s first broker)',
)
async def topic_cluster_list(inv: Invocation, topic: str) -> None:
    from mqadmin.protocol.headers.base import HeaderError
    from mqadmin.protocol.headers.namesrv import route_topic_refusal

    t = topic.strip()
    why = route_topic_refusal(t)  # the route is asked after the cluster table: check it first
    if why is not None:
        raise HeaderError(why)
    inv.out.emit(Names("clusters", list(await inv.admin.namesrv.get_topic_cluster_list(t))))


# ------------------------------------------------------------------------------------- topicList


async def _topic_rows(
    inv: Invocation, topic: str, cluster_table: dict[str, list[str]]
) -> tuple[str | None, list[str], BaseException | None]:
    """(cluster, consumer groups, failure) of one topic, as ``TopicListSubCommand`` finds them.

    Java asks the route's first broker for the groups and fails the topic when it does not answer;
    here the next broker of the route is asked instead, and only when none answers is the topic's
    failure returned (its cluster, which comes from the route, is kept).
    """
    admin = inv.admin
    route = await admin.namesrv.examine_topic_route_info(topic)
    if not route.broker_datas:
        raise CommandError(f"topic {topic} has no broker in its route")
    broker_name = route.broker_datas[0].broker_name
    cluster: str | None = None
    for name in java_hash_order(list(cluster_table)):
        if broker_name in cluster_table[name]:
            cluster = name
            break
    failure: BaseException | None = None
    for bd in route.broker_datas:
        try:
            one_broker = TopicRouteData(queue_datas=route.queue_datas, broker_datas=[bd])
            groups = await admin.broker.query_topic_consume_by_who(topic, one_broker)
        except (RemotingConnectError, RemotingTimeoutError) as e:
            failure = failure or e
            continue
        return cluster, list(groups), None
    return cluster, [], failure


@java_command(
    "topicList",
    [JavaOpt("c", "clusterModel", "clusterModel", has_arg=False, dest="cluster_model")],
    fanout=True,
    json_doc='{"topics": [str]}; with -c: {"topics": [{"cluster": str|null, "topic": str, "groups": [str]}], '
    '"errors": [...]?} (retry and DLQ topics are left out with -c, as in Java)',
    blocking=lambda params: not params.get("cluster_model"),  # -c asks a broker per topic, at once
)
async def topic_list(inv: Invocation, cluster_model: bool) -> None:
    admin = inv.admin
    if not cluster_model:
        inv.out.emit(Names("topics", list(await admin.namesrv.fetch_all_topic_list())))
        return

    info = await admin.namesrv.examine_broker_cluster_info()
    listed = list(await admin.namesrv.fetch_all_topic_list())
    topics = [t for t in listed if not t.startswith(RETRY_PREFIX) and not t.startswith(DLQ_PREFIX)]
    table = info.cluster_addr_table or {}
    inv.any_success = True  # the name server answered: failures per topic make it a partial result
    result = await admin.core.fan_out(topics, lambda t: _topic_rows(inv, t, table), deadline=inv.deadline)
    rows: list[dict[str, Any]] = []
    cut = inv.report_cut_off(result, "topics")
    for topic in topics:
        if topic in result.results:
            cluster, groups, failure = result.results[topic]
            if failure is not None:  # a frozen broker fails every topic it holds: said once
                inv.report_once(failure)
        else:
            if topic not in cut:
                inv.report_once(result.errors[topic])
            cluster, groups = "", []
        rows.append({"cluster": cluster, "topic": topic, "groups": groups})
    inv.out.emit(TopicClusters(listed, rows, inv.error_list()))


@dataclass(slots=True)
class TopicClusters(Result):
    """topicList -c: each topic's cluster and consuming groups. Java prints the topics in the order
    of the ``HashSet`` of every topic ``listed`` (retry and DLQ topics included), and each topic's
    groups in their own set's; the document sorts both."""

    listed: list[str]
    rows: list[dict[str, Any]]
    errors: Errors

    def text(self) -> str:
        lines = [jformat("%-20s  %-48s  %-48s%n", "#Cluster Name", "#Topic", "#Consumer Group")]
        by_topic = {r["topic"]: r for r in self.rows}
        for row in (by_topic[t] for t in java_hash_order(self.listed) if t in by_topic):
            cluster, topic = (
                front_string_at_least(row["cluster"], 20),
                front_string_at_least(row["topic"], 64),
            )
            for group in java_hash_order(row["groups"]) or [""]:
                lines.append(
                    jformat("%-20s  %-64s  %-64s%n", cluster, topic, front_string_at_least(group, 64))
                )
        return "".join(lines)

    def data(self) -> dict[str, Any]:
        rows = [{**r, "groups": sorted(r["groups"])} for r in sorted(self.rows, key=lambda r: r["topic"])]
        return with_errors({"topics": rows}, self.errors)


# ------------------------------------------------------------------------------------- allocateMQ


def _java_split(text: str, sep: str) -> list[str]:
    """``String.split``: trailing empty strings dropped (but ``""`` splits into ``[""]``)."""
    if text == "":
        return [""]
    parts = text.split(sep)
    while parts and parts[-1] == "":
        parts.pop()
    return parts


@java_command(
    "allocateMQ",
    [TOPIC, JavaOpt("i", "ipList", "ipList", required=True, dest="ip_list")],
    json_doc='{"result": {"<ip>": [{"brokerName": str, "queueId": int, "topic": str}]}}',
)
async def allocate_mq(inv: Invocation, topic: str, ip_list: str) -> None:
    from mqadmin.admin.allocate import allocate_averagely
    from mqadmin.admin.messages import subscribe_queues

    topic = topic.strip()
    ips = _java_split(ip_list.strip(), ",")
    route = await inv.admin.namesrv.examine_topic_route_info(topic)
    queues = subscribe_queues(topic, route)
    result: dict[str, list[dict[str, object]]] = {}
    for ip in ips:
        try:
            share = allocate_averagely(ip, queues, ips)
        except ValueError as e:
            raise CommandError(f"cannot allocate the queues of {topic}: {e}") from None
        result[ip] = [mq.to_json_obj() for mq in share]
    inv.out.emit(Allocation(result))


@dataclass(slots=True)
class Allocation(Result):
    """allocateMQ: each client ip's queues; Java prints the map in ``HashMap`` order, compact."""

    shares: dict[str, list[dict[str, object]]]

    def text(self) -> str:
        ordered = java_hash_order(list(self.shares))
        return (
            fastjson_compact(Bean(result={ip: [Bean(q) for q in self.shares[ip]] for ip in ordered})) + "\n"
        )

    def data(self) -> dict[str, Any]:
        return {"result": self.shares}
