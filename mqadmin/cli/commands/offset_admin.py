"""Offsets: resetOffsetByTime, skipAccumulatedMessage, cloneGroupOffset and queryCq.

A reset asks each broker of the topic to compute the offsets and tell the online consumers
(INVOKE_BROKER_TO_RESET_OFFSET); with no consumer online the broker refuses (206) and the offsets
are committed queue by queue instead, as the Java tool falls back. ``resetOffsetByTime --dry-run``
shows, per queue, the committed offset and the one the reset would set, changing nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mqadmin.admin.consumers import EmptyConsumeStatsError
from mqadmin.admin.errors import AdminError
from mqadmin.admin.offsets import RollbackStats
from mqadmin.cli.command import Invocation, java_command
from mqadmin.cli.common import OurOpt
from mqadmin.cli.errors import CommandError
from mqadmin.cli.exitcodes import ExitCode
from mqadmin.cli.javaopts import JavaOpt
from mqadmin.cli.javatext import (
    Bean,
    fastjson_pretty,
    front_string_at_least,
    jformat,
    jstr,
)
from mqadmin.cli.nameargs import group_arg, strict_bool, topic_arg
from mqadmin.cli.optvalues import parse_int, parse_long
from mqadmin.cli.results import Plain, Result
from mqadmin.cli.safety import Step, confirm, on_terminal, safety_options, show_plan
from mqadmin.cli.timeargs import parse_time_ms
from mqadmin.protocol.bodies.consumption import ConsumeQueueView
from mqadmin.protocol.bodies.message_queue import MessageQueue, queue_key
from mqadmin.protocol.codes import ResponseCode
from mqadmin.protocol.javacoll import hash_map_capacity, hash_map_copy_capacity, hash_ordered
from mqadmin.remoting.errors import RemoteCommandError, RemotingError

_ROLLBACK_HEADER = "%-20s  %-20s  %-20s  %-20s  %-20s  %-20s%n"
_ROLLBACK_ROW = "%-20s  %-20d  %-20d  %-20d  %-20d  %-20d%n"
_OFFSET_HEADER = "%-40s  %-40s  %-40s%n"
_OFFSET_ROW = "%-40s  %-40d  %-40d%n"
SEPARATOR = "======================================\n"


def _java_hash_map_after_put_alls(tables: list[dict[MessageQueue, int]]) -> list[tuple[MessageQueue, int]]:
    """Iteration order of ``new HashMap()`` after ``putAll`` of each table (each a decoded ``HashMap``)."""
    entries: list[tuple[MessageQueue, int]] = []
    cap = 0
    threshold = 0
    for table in tables:
        if not table:
            continue
        src = list(hash_ordered(table, hash_map_capacity(len(table)), MessageQueue.java_hash).items())
        size = len(src)
        if cap == 0:
            cap = hash_map_copy_capacity(size)  # putAll into an empty HashMap sizes it as a copy
            threshold = int(cap * 0.75)
        else:
            while size > threshold:
                cap *= 2
                threshold = int(cap * 0.75)
        for mq, off in src:
            if any(k == mq for k, _ in entries):
                entries = [(k, off if k == mq else v) for k, v in entries]
                continue
            entries.append((mq, off))
            if len(entries) > threshold:
                cap *= 2
                threshold = int(cap * 0.75)
    if not entries:
        return []
    index = {mq: i for i, (mq, _) in enumerate(entries)}

    def bucket(mq: MessageQueue) -> tuple[int, int]:
        h = mq.java_hash() & 0xFFFFFFFF
        return ((h ^ (h >> 16)) & (cap - 1), index[mq])

    return sorted(entries, key=lambda e: bucket(e[0]))


async def clients_are_cpp(inv: Invocation, group: str) -> bool:
    """True when every online consumer of the group is a C++ client.

    The broker passes the new offsets on to the consumers in the body format the request's language
    asks for, and a C++ consumer only understands its own (Java's ``isC``); a group that cannot be
    looked up is treated as Java.
    """
    try:
        cc = await inv.admin.connections.examine_consumer_connection_info(group)
    except (AdminError, RemotingError):
        return False
    return {c.language for c in cc.connection_set} == {"CPP"}


@dataclass(slots=True)
class Rollback(Result):
    """A reset queue by queue under ``head``: each queue's offsets before and the one set; as data,
    ``doc`` with the rows as ``queues``."""

    head: str
    doc: dict[str, Any]
    rows: list[RollbackStats]
    last_column: str = "#resetOffset"

    def text(self) -> str:
        names = ("#brokerName", "#queueId", "#brokerOffset", "#consumerOffset", "#timestampOffset")
        lines = [self.head, jformat(_ROLLBACK_HEADER, *names, self.last_column)]
        lines.extend(
            jformat(
                _ROLLBACK_ROW,
                front_string_at_least(r.broker_name, 32),
                r.queue_id,
                r.broker_offset,
                r.consumer_offset,
                r.timestamp_offset,
                r.rollback_offset,
            )
            for r in self.rows
        )
        return "".join(lines)

    def data(self) -> dict[str, Any]:
        return {**self.doc, "queues": [r.to_json_obj() for r in self.rows]}


@dataclass(slots=True)
class NewOffsets(Result):
    """A reset the brokers did under ``head``: the new offset of each queue, from each broker's table
    (Java prints the ``HashMap`` it ``putAll``-s them into); as data, ``doc`` with them as ``offsets``."""

    head: str
    doc: dict[str, Any]
    tables: list[dict[MessageQueue, int]]

    def text(self) -> str:
        lines = [self.head, jformat(_OFFSET_HEADER, "#brokerName", "#queueId", "#offset")]
        lines.extend(
            jformat(_OFFSET_ROW, front_string_at_least(mq.broker_name, 32), mq.queue_id, off)
            for mq, off in _java_hash_map_after_put_alls(self.tables)
        )
        return "".join(lines)

    def data(self) -> dict[str, Any]:
        merged = {mq: off for table in self.tables for mq, off in table.items()}
        offsets = [
            {"brokerName": mq.broker_name, "queueId": mq.queue_id, "offset": merged[mq]}
            for mq in sorted(merged, key=queue_key)
        ]
        return {**self.doc, "offsets": offsets}


# ------------------------------------------------------------------------------- resetOffsetByTime

_DRY_RUN = OurOpt(
    ("--dry-run",),
    "dry_run",
    "Show, per queue, the committed offset and the one the reset would set; change nothing.",
    kind="flag",
)


@java_command(
    "resetOffsetByTime",
    [
        JavaOpt("g", "group", "set the consumer group", required=True),
        JavaOpt("t", "topic", "set the topic", required=True),
        JavaOpt(
            "s",
            "timestamp",
            "set the timestamp[now|currentTimeMillis|yyyy-MM-dd#HH:mm:ss:SSS]",
            required=True,
        ),
        JavaOpt("f", "force", "set the force rollback by timestamp switch[true|false]. Deprecated."),
        JavaOpt("b", "broker", "broker addr"),
        JavaOpt("q", "queue", "queue id"),
        JavaOpt("o", "offset", "Expect queue offset, not support old version broker"),
        JavaOpt("c", "cluster", "Cluster name or lmq parent topic, lmq is used to find the route."),
    ],
    json_doc='{"group": str, "topic": str, "force": bool, "timestamp": ms, "mode": "broker"|"queueByQueue"|'
    '"dryRun"|"singleQueue", "offsets": [{"brokerName": str, "queueId": int, "offset": int}] (mode broker), '
    '"queues": [{"brokerName": str, "queueId": int, "brokerOffset": int, "consumerOffset": int, '
    '"timestampOffset": int, "resetOffset": int}] (queueByQueue, dryRun), "offset": int (singleQueue)}',
    epilog="When every online consumer of the group is a C++ client, the reset is sent as the C++ "
    "client expects it (Java: the deprecated --cplus, which 5.3.3 ties to -c). "
    "--dry-run computes the new offsets as the queue-by-queue reset does (the group's committed "
    "offsets, then the offset of the timestamp per queue) and prints them in that table; nothing is "
    "committed and no consumer is told. On a terminal those new offsets are shown and confirmed first "
    "(--yes does not ask).",
    own=[safety_options()[0], _DRY_RUN],
)
async def reset_offset_by_time(
    inv: Invocation,
    group: str,
    topic: str,
    timestamp: str,
    force: str | None,
    broker: str | None,
    queue: str | None,
    offset: str | None,
    cluster: str | None,
    dry_run: bool,
    yes: bool,
) -> None:
    g, t, ts_text = group_arg(group), topic_arg(topic), timestamp.strip()
    cluster_name = cluster.strip() if cluster is not None else None
    ts = parse_time_ms(ts_text, "-s")
    is_force = strict_bool(force, "-f") if force is not None else True
    queue_id = parse_int(queue, "-q") if queue is not None else -1
    expect = parse_long(offset, "-o") if offset is not None else None
    admin = inv.admin
    base: dict[str, Any] = {"group": g, "topic": t, "force": is_force, "timestamp": ts}

    if broker is not None and queue_id >= 0 and not dry_run:
        addr = broker.strip()
        what = f"reset queue {queue_id} of topic {t} for group {g} to " + (
            f"offset {expect}" if expect is not None else f"the offset of {ts_text}"
        )
        confirm(f"reset consumer offset of group [{g}]", [Step("broker", addr, what)], yes)
        lines = [
            "start reset consumer offset by specified, "
            f"group[{g}], topic[{t}], queueId[{queue_id}], broker[{addr}], "
            f"timestamp(string)[{ts_text}], timestamp(long)[{ts}]\n"
        ]
        inv.out.text("".join(lines))
        target = (
            expect
            if expect is not None
            else await admin.broker.search_offset_at(addr, MessageQueue(t, None, queue_id), ts, 3.0)
        )
        inv.out.text(f"reset consumer offset to {target}\n")
        if target > 0:
            await admin.offsets.reset_offset_by_queue_id(addr, g, t, queue_id, target)
        if inv.out.structured:
            inv.out.data(
                {**base, "mode": "singleQueue", "brokerAddr": addr, "queueId": queue_id, "offset": target}
            )
        return

    by_spec = (
        "reset consumer offset by specified "
        f"consumerGroup[{g}], topic[{t}], force[{jstr(is_force)}], timestamp(string)[{ts_text}], "
        f"timestamp(long)[{ts}]\n"
    )
    if dry_run:
        rows = await admin.offsets.reset_offset_by_timestamp_old(
            g, t, ts, is_force, cluster_name, write=False
        )
        inv.out.emit(Rollback("dry run, nothing changed: " + by_spec, {**base, "mode": "dryRun"}, rows))
        return

    if on_terminal() and not yes:
        rows = await admin.offsets.reset_offset_by_timestamp_old(
            g, t, ts, is_force, cluster_name, write=False
        )
        steps = [
            Step("queue", f"{r.broker_name}:{r.queue_id}", f"{r.consumer_offset} -> {r.rollback_offset}")
            for r in rows
        ]
        confirm(f"reset consumer offset of group [{g}] on topic [{t}] to {ts_text}", steps, yes)
    try:
        is_cpp = await clients_are_cpp(inv, g)
        tables = await admin.offsets.reset_offset_by_timestamp(
            t, g, ts, is_force, is_cpp=is_cpp, cluster=cluster_name
        )
    except RemoteCommandError as e:
        if e.code != ResponseCode.CONSUMER_NOT_ONLINE:
            raise
        rows = await admin.offsets.reset_offset_by_timestamp_old(g, t, ts, is_force, cluster_name)
        inv.out.emit(Rollback(by_spec, {**base, "mode": "queueByQueue"}, rows))
        return
    head = (
        "start reset consumer offset by specified, "
        f"group[{g}], topic[{t}], force[{jstr(is_force)}], timestamp(string)[{ts_text}], "
        f"timestamp(long)[{ts}]\n"
    )
    inv.out.emit(NewOffsets(head, {**base, "mode": "broker"}, tables))


# -------------------------------------------------------------------------- skipAccumulatedMessage


@java_command(
    "skipAccumulatedMessage",
    [
        JavaOpt("g", "group", "set the consumer group", required=True),
        JavaOpt("t", "topic", "set the topic", required=True),
        JavaOpt("f", "force", "set the force rollback by timestamp switch[true|false]"),
        JavaOpt("c", "cluster", "Cluster name or lmq parent topic, lmq is used to find the route."),
    ],
    json_doc='{"group": str, "topic": str, "mode": "broker"|"queueByQueue", "offsets": [{"brokerName": str, '
    '"queueId": int, "offset": int}] (broker), "queues": [{"brokerName": str, "queueId": int, '
    '"brokerOffset": int, "consumerOffset": int, "timestampOffset": int, "resetOffset": int}] '
    "(queueByQueue, dryRun)}",
    epilog="--dry-run shows, per queue, the committed offset and the max offset the skip would set, "
    "changing nothing. On a terminal those offsets are shown and confirmed first (--yes does not ask).",
    own=safety_options(),
)
async def skip_accumulated_message(
    inv: Invocation,
    group: str,
    topic: str,
    force: str | None,
    cluster: str | None,
    dry_run: bool,
    yes: bool,
) -> None:
    g, t = group_arg(group), topic_arg(topic)
    cluster_name = cluster.strip() if cluster is not None else None
    is_force = strict_bool(force, "-f") if force is not None else True
    admin = inv.admin
    if dry_run or (on_terminal() and not yes):
        planned = await admin.offsets.reset_offset_by_timestamp_old(
            g, t, -1, is_force, cluster_name, write=False
        )
        if dry_run:
            doc = {"group": g, "topic": t, "mode": "dryRun"}
            head = f"dry run, nothing changed: skip the accumulated messages of group [{g}] on topic [{t}]\n"
            inv.out.emit(Rollback(head, doc, planned, last_column="#rollbackOffset"))
            return
        steps = [
            Step("queue", f"{r.broker_name}:{r.queue_id}", f"{r.consumer_offset} -> {r.rollback_offset}")
            for r in planned
        ]
        confirm(f"skip the accumulated messages of group [{g}] on topic [{t}]", steps, yes)
    try:
        is_cpp = await clients_are_cpp(inv, g)
        tables = await admin.offsets.reset_offset_by_timestamp(
            t, g, -1, is_force, is_cpp=is_cpp, cluster=cluster_name
        )
    except RemoteCommandError as e:
        if e.code != ResponseCode.CONSUMER_NOT_ONLINE:
            raise
        rows = await admin.offsets.reset_offset_by_timestamp_old(g, t, -1, is_force)
        doc = {"group": g, "topic": t, "mode": "queueByQueue"}
        inv.out.emit(Rollback("", doc, rows, last_column="#rollbackOffset"))
        return
    doc = {"group": g, "topic": t, "mode": "broker"}
    inv.out.emit(NewOffsets("", doc, tables))


# -------------------------------------------------------------------------------- cloneGroupOffset


@java_command(
    "cloneGroupOffset",
    [
        JavaOpt("s", "srcGroup", "set source consumer group", required=True, dest="src_group"),
        JavaOpt("d", "destGroup", "set destination consumer group", required=True, dest="dest_group"),
        JavaOpt("t", "topic", "set the topic", required=True),
        JavaOpt("o", "offline", "the group or the topic is offline"),
    ],
    json_doc='{"srcGroup": str, "destGroup": str, "topic": str, "queues": [{"topic": str, "brokerName": str, '
    '"queueId": int, "offset": int}]}',
    epilog="As the Java tool, every queue the source group has an offset on is copied (whatever its "
    "topic), to the brokers of the topic's route; -o has no effect. A source group without a %RETRY% "
    "topic is looked up on every broker (Java fails). --dry-run lists the offsets that would be copied "
    "(with --json: dryRun and a plan), changing nothing; on a terminal they are confirmed first (--yes "
    "does not ask).",
    own=safety_options(),
)
async def clone_group_offset(
    inv: Invocation,
    src_group: str,
    dest_group: str,
    topic: str,
    offline: str | None,
    dry_run: bool,
    yes: bool,
) -> None:
    src, dest, t = group_arg(src_group, "-s"), group_arg(dest_group, "-d"), topic_arg(topic)
    if dry_run or (on_terminal() and not yes):
        try:
            stats = await inv.admin.consumers.examine_consume_stats(src, any_broker_if_no_route=True)
        except EmptyConsumeStatsError as e:
            raise CommandError(f"nothing to clone: {e}", ExitCode.NOT_FOUND) from None
        copied = sorted(
            ((mq, w.consumer_offset) for mq, w in stats.offset_table.items() if w.consumer_offset >= 0),
            key=lambda kv: kv[0].java_sort_key(),
        )
        steps = [
            Step("queue", f"{mq.topic}@{mq.broker_name}:{mq.queue_id}", f"commit {off} for group {dest}")
            for mq, off in copied
        ]
        title = f"clone the offsets of group [{src}] to group [{dest}] (topic [{t}])"
        if dry_run:
            queues = [
                {"topic": mq.topic, "brokerName": mq.broker_name, "queueId": mq.queue_id, "offset": off}
                for mq, off in copied
            ]
            show_plan(inv, title, steps, {"srcGroup": src, "destGroup": dest, "topic": t, "queues": queues})
            return
        confirm(title, steps, yes)
    try:
        done = await inv.admin.offsets.clone_group_offset(src, dest, t)
    except EmptyConsumeStatsError as e:
        raise CommandError(f"nothing to clone: {e}", ExitCode.NOT_FOUND) from None
    queues = [
        {"topic": mq.topic, "brokerName": mq.broker_name, "queueId": mq.queue_id, "offset": off}
        for mq, off in done
    ]
    text = f"clone group offset success. srcGroup[{src}], destGroup=[{dest}], topic[{t}]"
    inv.out.emit(Plain({"srcGroup": src, "destGroup": dest, "topic": t, "queues": queues}, text))


# ----------------------------------------------------------------------------------------- queryCq


def _subscription_bean(sd: Any) -> Bean:
    from mqadmin.cli.javatext import JavaSet

    return Bean(
        classFilterMode=sd.class_filter_mode,
        codeSet=JavaSet(sd.code_set or []),
        expressionType=sd.expression_type,
        subString=sd.sub_string,
        subVersion=sd.sub_version,
        tagsSet=JavaSet(sd.tags_set or []),
        topic=sd.topic,
    )


def _cq_row_text(row: dict[str, Any]) -> str:
    return (
        f"ConsumeQueueData{{physicOffset={row['physicOffset']}, physicSize={row['physicSize']}, "
        f"tagsCode={row['tagsCode']}, extendDataJson='{jstr(row['extendDataJson'])}', "
        f"bitMap='{jstr(row['bitMap'])}', eval={jstr(row['eval'])}, msg='{jstr(row['msg'])}'}}"
    )


@java_command(
    "queryCq",
    [
        JavaOpt("t", "topic", "topic name", required=True),
        JavaOpt("q", "queue", "queue num, ie. 1", required=True),
        JavaOpt("i", "index", "start queue index.", required=True),
        JavaOpt("c", "count", "how many."),
        JavaOpt("b", "broker", "broker addr."),
        JavaOpt("g", "consumer", "consumer group."),
    ],
    json_doc='{"brokerAddr": str, "subscriptionData": {...}|null, "filterData": str|null, '
    '"maxQueueIndex": int, "minQueueIndex": int, "queueData": [{"index": int, "physicOffset": int, '
    '"physicSize": int, "tagsCode": int, '
    '"extendDataJson": str|null, "bitMap": str|null, "eval": bool, "msg": str|null}]}',
)
async def query_cq(
    inv: Invocation,
    topic: str,
    queue: str,
    index: str,
    count: str | None,
    broker: str | None,
    consumer: str | None,
) -> None:
    t = topic_arg(topic)
    queue_id = parse_int(queue, "-q")
    start = parse_long(index, "-i")
    n = parse_int(count if count is not None else "10", "-c")
    group = group_arg(consumer) if consumer is not None else None
    admin = inv.admin
    addr = broker.strip() if broker is not None else ""
    if not addr:
        route = await admin.namesrv.examine_topic_route_info(t)
        if not route.broker_datas:
            raise CommandError(f"the route of {t} has no broker")
        master = (route.broker_datas[0].broker_addrs or {}).get(0)
        if master is None:
            raise CommandError(f"broker {route.broker_datas[0].broker_name} of {t} has no master")
        addr = master
    view = await admin.consumption.query_consume_queue(addr, t, queue_id, start, n, group)
    inv.out.emit(CqView(addr, start, view))


@dataclass(slots=True)
class CqView(Result):
    """queryCq: the consume queue's entries from ``start``, with the group's subscription and filter."""

    addr: str
    start: int
    view: ConsumeQueueView

    def text(self) -> str:
        view = self.view
        lines: list[str] = []
        if view.subscription is not None:
            lines.append(
                "Subscription data: \n" + fastjson_pretty(_subscription_bean(view.subscription)) + "\n"
            )
            lines.append(SEPARATOR)
        if view.filter_data is not None:
            lines.append(f"Filter data: \n{view.filter_data}\n")
            lines.append(SEPARATOR)
        lines.append(f"Queue data: \nmax: {view.max_queue_index}, min: {view.min_queue_index}\n")
        lines.append(SEPARATOR)
        for i, row in enumerate(view.queue_data, self.start):
            lines.append(f"idx: {i}\n{_cq_row_text(row)}\n{SEPARATOR}")
        return "".join(lines)

    def data(self) -> dict[str, Any]:
        view = self.view
        return {
            "brokerAddr": self.addr,
            "subscriptionData": None if view.subscription is None else view.subscription.to_json_obj(),
            "filterData": view.filter_data,
            "maxQueueIndex": view.max_queue_index,
            "minQueueIndex": view.min_queue_index,
            "queueData": [{"index": i, **row} for i, row in enumerate(view.queue_data, self.start)],
        }
