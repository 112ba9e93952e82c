"""Checks of what the name servers say: do they agree, is a broker's write permission wiped, do a
topic's queues match across the brokers of its cluster, does an order config name a broker that is
gone."""

from __future__ import annotations

from collections import Counter
from typing import Any

from mqadmin.doctor.check import Check
from mqadmin.doctor.findings import Finding, Severity
from mqadmin.doctor.view import BrokerRef, ClusterView
from mqadmin.protocol.bodies.route import TopicRouteData
from mqadmin.protocol.names import is_system_topic
from mqadmin.protocol.perm import PERM_READ, PERM_WRITE

__all__ = ["CHECKS"]

ORDER_NAMESPACE = "ORDER_TOPIC_CONFIG"


def _perm(perm: int) -> str:
    return ("R" if perm & PERM_READ else "-") + ("W" if perm & PERM_WRITE else "-")


def _shape(route: TopicRouteData, brokers: set[str]) -> dict[str, tuple[int, int, int]]:
    """broker → (read queues, write queues, perm) of the route, for the brokers named."""
    return {
        q.broker_name or "": (q.read_queue_nums, q.write_queue_nums, q.perm)
        for q in route.queue_datas or []
        if (q.broker_name or "") in brokers
    }


async def namesrv_disagree(view: ClusterView) -> list[Finding]:
    infos, failed = await view.cluster_infos()
    out: list[Finding] = []
    name = "namesrv-disagree"
    for ns, e in failed.items():
        out.append(
            Finding(
                name,
                Severity.CRITICAL,
                f"name server {ns}",
                "does not answer",
                {"error": str(e) or type(e).__name__},
                "clients and brokers that list it lose routes and registrations through it",
                f"mqadmin clusterList -n {ns}",
            )
        )
    if len(infos) < 2:
        return out
    where: dict[BrokerRef, list[str]] = {}
    for b in await view.brokers():
        for ns, info in infos.items():
            bd = (info.broker_addr_table or {}).get(b.name)
            if bd is not None and (bd.broker_addrs or {}).get(b.broker_id) == b.addr:
                where.setdefault(b, []).append(ns)
    on_all: set[str] = set()
    for b, listed in where.items():
        missing = [ns for ns in infos if ns not in listed]
        if not missing:
            on_all.add(b.name)
            continue
        out.append(
            Finding(
                name,
                Severity.CRITICAL,
                f"broker {b.name}",
                f"{b.addr} (id {b.broker_id}) is registered with {len(listed)} of {len(infos)} name servers",
                {"addr": b.addr, "registeredWith": listed, "missingFrom": missing},
                "clients of the other name servers never route to it (and producers there see fewer queues)",
                f"mqadmin getBrokerConfig -b {b.addr}",
            )
        )
    routes = await view.routes()
    topics = sorted({t for r in routes.values() for t in r})
    for topic in topics:
        have = {ns: r[topic] for ns, r in routes.items() if topic in r}
        if len(have) < len(routes):
            missing = [ns for ns in routes if ns not in have]
            out.append(
                Finding(
                    name,
                    Severity.WARNING,
                    f"topic {topic}",
                    f"route on {len(have)} of {len(routes)} name servers",
                    {"routedBy": sorted(have), "missingFrom": missing},
                    "clients of the name servers without it cannot send to it or consume it",
                    f"mqadmin topicRoute -t {topic} -n {missing[0]}",
                )
            )
            continue
        shapes = {ns: _shape(r, on_all) for ns, r in have.items()}
        if len({tuple(sorted(s.items())) for s in shapes.values()}) > 1:
            evidence: dict[str, Any] = {
                ns: {b: f"r{r} w{w} {_perm(p)}" for b, (r, w, p) in sorted(s.items())}
                for ns, s in shapes.items()
            }
            first = next(iter(shapes))
            other = next(ns for ns in shapes if shapes[ns] != shapes[first])
            out.append(
                Finding(
                    name,
                    Severity.WARNING,
                    f"topic {topic}",
                    "the name servers give different routes",
                    evidence,
                    "clients see different queues (or permissions) depending on the name server they ask",
                    f"mqadmin topicRoute -t {topic} -n {other}",
                )
            )
    return out


async def write_perm_wiped(view: ClusterView) -> list[Finding]:
    out: list[Finding] = []
    masters = await view.masters()
    routes = await view.routes()
    configs, _ = await view.each(masters, lambda b: view.broker_config(b.addr))
    for b in masters:
        config = configs.get(b)
        broker_perm = int(config.get("brokerPermission", "6")) if config is not None else 6
        if not broker_perm & PERM_WRITE:
            out.append(
                Finding(
                    "write-perm-wiped",
                    Severity.CRITICAL,
                    f"broker {b.name}",
                    f"brokerPermission is {broker_perm} ({_perm(broker_perm)}): it takes no messages",
                    {"addr": b.addr, "brokerPermission": broker_perm},
                    "producers get no queue of it: its share of the traffic goes elsewhere or fails",
                    f"mqadmin updateBrokerConfig -b {b.addr} -k brokerPermission -v 6",
                )
            )
            continue
        for ns, by_topic in routes.items():
            mine = [
                (t, q.perm)
                for t, r in by_topic.items()
                for q in r.queue_datas or []
                if q.broker_name == b.name and not is_system_topic(t)
            ]
            wiped = sorted(t for t, perm in mine if not perm & PERM_WRITE)
            if mine and len(wiped) == len(mine):
                out.append(
                    Finding(
                        "write-perm-wiped",
                        Severity.CRITICAL,
                        f"broker {b.name}",
                        f"read-only in every route of name server {ns} ({len(wiped)} topics)",
                        {
                            "addr": b.addr,
                            "nameServer": ns,
                            "readOnlyTopics": len(wiped),
                            "examples": wiped[:3],
                        },
                        "producers that ask that name server send it nothing (a wipeWritePerm not undone?)",
                        f"mqadmin addWritePerm -b {b.name} -n {ns}",
                    )
                )
    return out


def _first_routes(routes: dict[str, dict[str, TopicRouteData]]) -> dict[str, TopicRouteData]:
    """topic → its route from the first name server that has it."""
    out: dict[str, TopicRouteData] = {}
    for by_topic in routes.values():
        for t, r in by_topic.items():
            out.setdefault(t, r)
    return out


async def topic_queues_differ(view: ClusterView) -> list[Finding]:
    masters = await view.masters()
    cluster_of = {b.name: b.cluster for b in masters}
    skip = set(cluster_of) | set(cluster_of.values())  # the topics named after a broker or cluster
    out: list[Finding] = []
    for topic, route in sorted(_first_routes(await view.routes()).items()):
        if topic in skip or is_system_topic(topic):
            continue
        by_cluster: dict[str, dict[str, tuple[int, int, int]]] = {}
        for q in route.queue_datas or []:
            c = cluster_of.get(q.broker_name or "")
            if c is not None:
                by_cluster.setdefault(c, {})[q.broker_name or ""] = (
                    q.read_queue_nums,
                    q.write_queue_nums,
                    q.perm,
                )
        for cluster, shapes in sorted(by_cluster.items()):
            if len(set(shapes.values())) > 1:
                r = max(s[0] for s in shapes.values())
                w = max(s[1] for s in shapes.values())
                perm = Counter(s[2] for s in shapes.values()).most_common(1)[0][0]
                out.append(
                    Finding(
                        "topic-queues-differ",
                        Severity.WARNING,
                        f"topic {topic}",
                        f"queues or permission differ across the brokers of {cluster}",
                        {b: f"r{s[0]} w{s[1]} {_perm(s[2])}" for b, s in sorted(shapes.items())},
                        "load spreads unevenly and a broker may take no writes for the topic",
                        f"mqadmin updateTopic -c {cluster} -t {topic} -r {r} -w {w} -p {perm}",
                    )
                )
            members = sorted(b for b, c in cluster_of.items() if c == cluster)
            absent = [b for b in members if b not in shapes]
            if absent and len(shapes) > 1:
                out.append(
                    Finding(
                        "topic-queues-differ",
                        Severity.INFO,
                        f"topic {topic}",
                        f"on {len(shapes)} of the {len(members)} brokers of {cluster}",
                        {"on": sorted(shapes), "absent": absent},
                        "the brokers without it take none of its traffic (fine if it was created with -b)",
                        f"mqadmin updateTopic -c {cluster} -t {topic}",
                    )
                )
    return out


async def order_conf_gone_broker(view: ClusterView) -> list[Finding]:
    known = {b.name for b in await view.brokers()}
    if view.cluster is not None:  # the brokers of every cluster: an order config may span clusters
        infos, _ = await view.cluster_infos()
        known |= {n for info in infos.values() for n in (info.broker_addr_table or {})}
    out: list[Finding] = []
    for topic, conf in sorted((await view.kv_list(ORDER_NAMESPACE)).items()):
        named = [part.split(":", 1)[0].strip() for part in conf.split(";") if part.strip()]
        gone = [n for n in named if n not in known]
        if not gone:
            continue
        kept = ";".join(
            p.strip() for p in conf.split(";") if p.strip() and p.split(":", 1)[0].strip() in known
        )
        fix = (
            f"mqadmin updateOrderConf -t {topic} -v {kept} -m put"
            if kept
            else f"mqadmin updateOrderConf -t {topic} -m delete"
        )
        out.append(
            Finding(
                "order-conf-gone-broker",
                Severity.WARNING,
                f"topic {topic}",
                f"its order config names {', '.join(gone)}, which no name server lists",
                {"orderConf": conf, "gone": gone},
                "ordered producers keep choosing queues of a broker that is not there and fail",
                fix,
            )
        )
    return out


CHECKS = (
    Check(
        "namesrv-disagree",
        "a name server that does not answer, a broker registered with some name servers only, a topic "
        "whose route differs between them",
        namesrv_disagree,
    ),
    Check(
        "write-perm-wiped",
        "a master read-only in every route of a name server (wipeWritePerm) or by its brokerPermission",
        write_perm_wiped,
    ),
    Check(
        "topic-queues-differ",
        "a topic whose queue counts or permission differ across the brokers of a cluster, or that misses "
        "some of them (info: fine when it was made with -b)",
        topic_queues_differ,
    ),
    Check(
        "order-conf-gone-broker",
        "an ORDER_TOPIC_CONFIG value that names a broker no name server lists",
        order_conf_gone_broker,
    ),
)
