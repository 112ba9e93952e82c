"""Checks of the consumer groups: clients subscribing differently, lag growing (with or without a
consumer online), retry topics growing, messages in a DLQ, more consumers than queues."""

from __future__ import annotations

from functools import partial

from mqadmin.doctor.check import Check
from mqadmin.doctor.findings import Finding, Severity
from mqadmin.doctor.view import ClusterView, LagSample
from mqadmin.protocol.bodies.connection import ConsumerConnection
from mqadmin.protocol.bodies.consumption import ConsumerRunningInfo
from mqadmin.protocol.names import DLQ_GROUP_TOPIC_PREFIX, RETRY_GROUP_TOPIC_PREFIX

__all__ = ["CHECKS"]


async def _online(view: ClusterView) -> dict[str, tuple[str, ConsumerConnection]]:
    """group → (the master asked, its online clients), for the groups with a client online."""
    groups = await view.online_groups()
    got, _ = await view.each(groups, lambda g: view.connection(g, groups[g]))
    return {g: (groups[g], cc) for g, cc in got.items() if cc is not None and cc.connection_set}


def _subscriptions(info: ConsumerRunningInfo) -> list[str]:
    """A client's subscriptions as ``topic@expression`` (its retry topic's left out: every client has it)."""
    subs = info.subscriptions
    return sorted(
        f"{s.topic}@{s.sub_string}" for s in subs if not (s.topic or "").startswith(RETRY_GROUP_TOPIC_PREFIX)
    )


async def subscription_differs(view: ClusterView) -> list[Finding]:
    out: list[Finding] = []
    for group, (addr, cc) in sorted((await _online(view)).items()):
        ids = sorted({c.client_id for c in cc.connection_set if c.client_id})
        if len(ids) < 2:
            continue
        infos, failed = await view.each(ids, partial(view.running_info, group, addr=addr))
        seen = {i: _subscriptions(info) for i, info in infos.items()}
        if len({tuple(s) for s in seen.values()}) < 2:
            continue
        evidence: dict[str, object] = {"clients": len(ids), "subscriptions": seen}
        if failed:
            evidence["unanswered"] = sorted(failed)
        out.append(
            Finding(
                "subscription-differs",
                Severity.CRITICAL,
                f"group {group}",
                f"{len(seen)} clients subscribe differently ({len({tuple(s) for s in seen.values()})} sets)",
                evidence,
                "the broker keeps one subscription per group: messages for the others are filtered out "
                "and lost to them",
                f"mqadmin consumerStatus -g {group}",
            )
        )
    return out


async def more_consumers_than_queues(view: ClusterView) -> list[Finding]:
    out: list[Finding] = []
    ns = view.namesrv_addrs[0]
    for group, (_, cc) in sorted((await _online(view)).items()):
        if cc.message_model == "BROADCASTING":
            continue
        clients = len(cc.connection_set)
        topics = [t for t in cc.subscription_table if not t.startswith(RETRY_GROUP_TOPIC_PREFIX)]
        routes, _ = await view.each(topics, lambda t: view.route_of(ns, t))
        for topic, route in sorted(routes.items()):
            queues = sum(q.read_queue_nums for q in route.queue_datas or [])
            if 0 < queues < clients:
                out.append(
                    Finding(
                        "more-consumers-than-queues",
                        Severity.INFO,
                        f"group {group}",
                        f"{clients} clients share the {queues} queues of {topic}",
                        {"topic": topic, "clients": clients, "queues": queues},
                        f"{clients - queues} of them get no queue and sit idle",
                        f"mqadmin consumerConnection -g {group}",
                    )
                )
    return out


def _growth(first: LagSample, second: LagSample, group: str, topic: str) -> tuple[int, int, int]:
    """(lag before, lag now, messages consumed in between) of one group and topic."""
    before = first.totals.get((group, topic))
    now = second.totals[(group, topic)]
    lag_before = before.lag if before is not None else 0
    consumed = now.consumer_offset - before.consumer_offset if before is not None else 0
    return lag_before, now.lag, max(0, consumed)


async def _growing(
    view: ClusterView,
) -> list[tuple[str, str, int, int, int, float, ConsumerConnection | None]]:
    """(group, topic, lag before, lag now, consumed, seconds, online clients) of every growing lag."""
    first, second = await view.lag_samples()
    seconds = round(second.at - first.at, 1)
    found = []
    for group, topic in sorted(second.totals):
        if topic.startswith((RETRY_GROUP_TOPIC_PREFIX, DLQ_GROUP_TOPIC_PREFIX)):
            continue
        before, now, consumed = _growth(first, second, group, topic)
        if now > 0 and now - before >= view.limits.lag_growth:
            found.append((group, topic, before, now, consumed, seconds))
    conns, _ = await view.each(sorted({g for g, *_ in found}), lambda g: view.connection(g, second.where[g]))
    return [(*f, conns.get(f[0])) for f in found]


async def lag_growing(view: ClusterView) -> list[Finding]:
    out: list[Finding] = []
    for group, topic, before, now, consumed, seconds, cc in await _growing(view):
        if cc is None or not cc.connection_set:
            continue  # lag-no-consumer says it
        out.append(
            Finding(
                "lag-growing",
                Severity.WARNING,
                f"group {group}",
                f"lag on {topic} grew from {before} to {now} in {seconds:g} s",
                {
                    "topic": topic,
                    "lagBefore": before,
                    "lagNow": now,
                    "consumed": consumed,
                    "windowMs": round(seconds * 1000),
                    "clients": len(cc.connection_set),
                },
                "its consumers fall behind (or are stuck when nothing was consumed): messages wait longer "
                "and longer",
                f"mqadmin consumerProgress -g {group}",
            )
        )
    return out


async def lag_no_consumer(view: ClusterView) -> list[Finding]:
    out: list[Finding] = []
    for group, topic, before, now, _, seconds, cc in await _growing(view):
        if cc is not None and cc.connection_set:
            continue
        out.append(
            Finding(
                "lag-no-consumer",
                Severity.CRITICAL,
                f"group {group}",
                f"lag on {topic} grew from {before} to {now} in {seconds:g} s with no consumer online",
                {
                    "topic": topic,
                    "lagBefore": before,
                    "lagNow": now,
                    "windowMs": round(seconds * 1000),
                    "clients": 0,
                },
                "nobody consumes what keeps arriving: it waits until its files are reclaimed",
                f"mqadmin consumerConnection -g {group}",
            )
        )
    return out


async def retry_growing(view: ClusterView) -> list[Finding]:
    first, second = await view.lag_samples()
    seconds = round(second.at - first.at, 1)
    out: list[Finding] = []
    for (group, topic), now in sorted(second.totals.items()):
        if topic != RETRY_GROUP_TOPIC_PREFIX + group:
            continue
        before = first.totals.get((group, topic))
        grew = now.broker_offset - (before.broker_offset if before is not None else now.broker_offset)
        if grew >= view.limits.retry_growth:
            out.append(
                Finding(
                    "retry-growing",
                    Severity.WARNING,
                    f"group {group}",
                    f"{grew} messages sent back to {topic} in {seconds:g} s",
                    {
                        "topic": topic,
                        "sentBack": grew,
                        "windowMs": round(seconds * 1000),
                        "retryLag": now.lag,
                    },
                    "its consumers fail on messages and send them back; after 16 tries they go to the DLQ",
                    f"mqadmin consumerStatus -g {group}",
                )
            )
    return out


async def dlq_messages(view: ClusterView) -> list[Finding]:
    ns = view.namesrv_addrs[0]
    topics = [t for t in await view.topic_list_of(ns) if t.startswith(DLQ_GROUP_TOPIC_PREFIX)]
    routes, _ = await view.each(topics, lambda t: view.route_of(ns, t))
    masters = {b.name: b.addr for b in await view.masters()}
    out: list[Finding] = []
    for topic, route in sorted(routes.items()):
        addrs = [
            masters[bd.broker_name or ""] for bd in route.broker_datas or [] if bd.broker_name in masters
        ]
        stats, _ = await view.each(
            addrs, partial(view.admin.topics.examine_topic_stats_in_broker, topic=topic)
        )
        count = sum(o.max_offset - o.min_offset for s in stats.values() for o in s.offset_table.values())
        if count >= view.limits.dlq_messages:
            group = topic.removeprefix(DLQ_GROUP_TOPIC_PREFIX)
            out.append(
                Finding(
                    "dlq-messages",
                    Severity.WARNING,
                    f"group {group}",
                    f"{count} messages in {topic}",
                    {"topic": topic, "messages": count},
                    "each failed 16 times and is no longer delivered: they wait for someone to look at them",
                    f"mqadmin printMsg -t {topic}",
                )
            )
    return out


CHECKS = (
    Check(
        "subscription-differs",
        "a consumer group whose online clients subscribe to different topics or tag expressions",
        subscription_differs,
    ),
    Check(
        "lag-no-consumer",
        "a group whose lag grew over the window with no client online",
        lag_no_consumer,
    ),
    Check(
        "lag-growing",
        "a group whose lag grew over the window while its clients are online",
        lag_growing,
    ),
    Check("dlq-messages", "a group's %DLQ% topic that holds messages", dlq_messages),
    Check(
        "retry-growing",
        "a group's %RETRY% topic that took messages over the window (consumption failing)",
        retry_growing,
    ),
    Check(
        "more-consumers-than-queues",
        "a clustering group with more clients online than a subscribed topic has queues (idle clients)",
        more_consumers_than_queues,
    ),
)
