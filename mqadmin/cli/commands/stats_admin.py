"""Statistics: statsAll (every topic's in/out rates and backlog per consumer group) and
brokerConsumeStats (every group's progress on one broker).

statsAll asks, per topic, who consumes it, the put rate of each master and the get rate and backlog
of each group: all topics at once (bounded by ``--deadline``), printed in the Java tool's order.
A failing stats request counts as zero, as in Java; a broker that cannot be reached is reported.
A topic or group whose name no request may carry (a blank group a Java broker keeps) is left out
with a warning, rather than shown as a row of zeros as Java does.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from mqadmin.admin.consumers import sorted_queues
from mqadmin.admin.errors import AdminError
from mqadmin.admin.tablenames import SkippedName, askable_groups, askable_topics
from mqadmin.cli.command import Invocation, java_command
from mqadmin.cli.javaopts import JavaOpt
from mqadmin.cli.javatext import front_string_at_least, jformat
from mqadmin.cli.javatime import format_date
from mqadmin.cli.nameargs import strict_bool
from mqadmin.cli.optvalues import in_range, parse_long
from mqadmin.cli.results import Result
from mqadmin.protocol.bodies.consumption import BrokerConsumeStats
from mqadmin.protocol.bodies.message_queue import queue_key
from mqadmin.protocol.javacoll import java_hash_order
from mqadmin.remoting.errors import RemoteCommandError, RemotingError

TOPIC_PUT_NUMS = "TOPIC_PUT_NUMS"
GROUP_GET_NUMS = "GROUP_GET_NUMS"

# ------------------------------------------------------------------------------ brokerConsumeStats

_BCS_HEADER = "%-64s  %-64s  %-32s  %-4s  %-20s  %-20s  %-20s  %s%n"
_BCS_ROW = "%-64s  %-64s  %-32s  %-4d  %-20d  %-20d  %-20d  %s%n"


@java_command(
    "brokerConsumeStats",
    [
        JavaOpt("b", "brokerAddr", "Broker address", required=True, dest="broker_addr"),
        JavaOpt("t", "timeoutMillis", "request timeout Millis", dest="timeout_millis"),
        JavaOpt("l", "level", "threshold of print diff"),
        JavaOpt("o", "order", "order topic"),
    ],
    json_doc='{"brokerAddr": str, "queues": [{"topic": str, "group": str, "brokerName": str, "queueId": int, '
    '"brokerOffset": int, "consumerOffset": int, "diff": int, "lastTimestamp": ms}], "diffTotal": int} '
    "(queues never consumed are left out, as in the text; diffTotal is the broker's total)",
)
async def broker_consume_stats(
    inv: Invocation, broker_addr: str, timeout_millis: str | None, level: str | None, order: str | None
) -> None:
    addr = broker_addr.strip()
    is_order = strict_bool(order, "-o") if order is not None else False
    timeout = in_range(parse_long(timeout_millis, "-t", 50_000), "-t", 1) / 1000
    diff_level = parse_long(level, "-l") if level is not None else 0
    stats = await inv.admin.consumption.fetch_broker_consume_stats(addr, is_order, timeout)
    inv.out.emit(BrokerLag(addr, stats, diff_level))


@dataclass(slots=True)
class BrokerLag(Result):
    """brokerConsumeStats: every queue consumed at all with a lag of ``level`` or more, per group.

    Java walks each entry's groups in ``HashMap`` order and each group's queues in
    ``MessageQueue.compareTo`` order; the document keeps the entries' order, groups sorted, queues by
    topic, broker name and queue id."""

    addr: str
    stats: BrokerConsumeStats
    level: int

    def _rows(
        self, group_order: Callable[[list[str]], list[str]], queue_order: Callable[[Any], list[Any]]
    ) -> list[tuple[str, Any, Any]]:
        out = []
        for entry in self.stats.consume_stats_list:
            for group in group_order(list(entry)):
                for cs in entry[group]:
                    for mq in queue_order(cs):
                        w = cs.offset_table[mq]
                        if w.broker_offset - w.consumer_offset >= self.level and w.last_timestamp > 0:
                            out.append((group, mq, w))
        return out

    def text(self) -> str:
        names = ("#Topic", "#Group", "#Broker Name", "#QID", "#Broker Offset", "#Consumer Offset", "#Diff")
        lines = [jformat(_BCS_HEADER, *names, "#LastTime")]
        for group, mq, w in self._rows(java_hash_order, sorted_queues):
            topic, broker = front_string_at_least(mq.topic, 64), front_string_at_least(mq.broker_name, 32)
            offsets = (w.broker_offset, w.consumer_offset, w.broker_offset - w.consumer_offset)
            lines.append(
                jformat(_BCS_ROW, topic, group, broker, mq.queue_id, *offsets, format_date(w.last_timestamp))
            )
        lines.append(f"\nDiff Total: {self.stats.total_diff}\n")
        return "".join(lines)

    def data(self) -> dict[str, Any]:
        rows = [
            {
                "topic": mq.topic,
                "group": group,
                "brokerName": mq.broker_name,
                "queueId": mq.queue_id,
                "brokerOffset": w.broker_offset,
                "consumerOffset": w.consumer_offset,
                "diff": w.broker_offset - w.consumer_offset,
                "lastTimestamp": w.last_timestamp,
            }
            for group, mq, w in self._rows(sorted, lambda cs: sorted(cs.offset_table, key=queue_key))
        ]
        return {"brokerAddr": self.addr, "queues": rows, "diffTotal": self.stats.total_diff}


# ---------------------------------------------------------------------------------------- statsAll

_ROW = "%-64s  %-64s %12d %11.2f %11.2f %14d %14d%n"
_ROW_NO_CONSUMER = "%-64s  %-64s %12d %11.2f %11s %14d %14s%n"


def _sum_24h(data: dict[str, Any]) -> int:
    """``compute24HourSum``: the day's sum, else the hour's, else the minute's."""
    for key in ("statsDay", "statsHour", "statsMinute"):
        item = data.get(key) or {}
        total = int(item.get("sum") or 0)
        if total != 0:
            return total
    return 0


def _tps(data: dict[str, Any]) -> float:
    return float((data.get("statsMinute") or {}).get("tps") or 0.0)


class _Rates:
    """Rates summed over the masters; transport failures kept aside to be reported."""

    def __init__(self) -> None:
        self.tps = 0.0
        self.total = 0
        self.problems: list[BaseException] = []


async def _rates(inv: Invocation, masters: list[str], name: str, key: str) -> _Rates:
    out = _Rates()
    for addr in masters:
        try:
            data = await inv.admin.brokers.view_broker_stats_data(addr, name, key)
        except (RemoteCommandError, AdminError):
            continue
        except RemotingError as e:
            out.problems.append(e)
            continue
        if data:
            out.tps += _tps(data)
            out.total += _sum_24h(data)
    return out


class _TopicRows:
    """What one topic adds: text lines, JSON rows, failures to report, group names left out."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.rows: list[dict[str, Any]] = []
        self.problems: list[BaseException] = []
        self.skipped: list[SkippedName] = []


async def _topic_rows(inv: Invocation, topic: str, active: bool) -> _TopicRows:
    """The rows of one topic (``StatsAllSubCommand.printTopicDetail``) and the failures to report.

    A topic whose route or consumers cannot be had (gone since the list was read) is left out, as in
    Java; only servers that cannot be reached are reported.
    """
    admin = inv.admin
    out = _TopicRows()
    try:
        route = await admin.namesrv.examine_topic_route_info(topic)
        consumers = java_hash_order(await admin.broker.query_topic_consume_by_who(topic, route))
    except (RemoteCommandError, AdminError):
        return out
    groups, out.skipped = askable_groups(consumers)
    masters = [
        a for a in ((bd.broker_addrs or {}).get(0) for bd in route.broker_datas or []) if a is not None
    ]
    put = await _rates(inv, masters, TOPIC_PUT_NUMS, topic)
    problems, lines, rows = out.problems, out.lines, out.rows
    problems.extend(put.problems)
    name64 = front_string_at_least(topic, 64)
    if not groups:
        if not active or put.total > 0:
            lines.append(jformat(_ROW_NO_CONSUMER, name64, "", 0, put.tps, "", put.total, "NO_CONSUMER"))
            rows.append(
                {
                    "topic": topic,
                    "group": None,
                    "accumulation": 0,
                    "putTps": put.tps,
                    "consumeTps": None,
                    "inMsg24Hour": put.total,
                    "outMsg24Hour": None,
                }
            )
        return out
    for group in groups:
        got = await _rates(inv, masters, GROUP_GET_NUMS, f"{topic}@{group}")
        problems.extend(got.problems)
        accumulate = 0
        try:
            accumulate = max(0, (await admin.consumers.examine_consume_stats(group, topic)).total_diff())
        except RemotingError as e:
            if not isinstance(e, RemoteCommandError):
                problems.append(e)
        except Exception:
            pass
        if not active or put.total > 0 or got.total > 0:
            lines.append(
                jformat(
                    _ROW,
                    name64,
                    front_string_at_least(group, 64),
                    accumulate,
                    put.tps,
                    got.tps,
                    put.total,
                    got.total,
                )
            )
            rows.append(
                {
                    "topic": topic,
                    "group": group,
                    "accumulation": accumulate,
                    "putTps": put.tps,
                    "consumeTps": got.tps,
                    "inMsg24Hour": put.total,
                    "outMsg24Hour": got.total,
                }
            )
    return out


@java_command(
    "statsAll",
    [
        JavaOpt("a", "activeTopic", "print active topic only", has_arg=False, dest="active_topic"),
        JavaOpt("t", "topic", "print select topic only"),
    ],
    fanout=True,
    json_doc='{"rows": [{"topic": str, "group": str|null, "accumulation": int, "putTps": num, '
    '"consumeTps": num|null, '
    '"inMsg24Hour": int, "outMsg24Hour": int|null}], "errors": [...]?} (group null: no consumer)',
    watch=True,
)
async def stats_all(inv: Invocation, active_topic: bool, topic: str | None) -> None:
    admin = inv.admin
    names = java_hash_order(await admin.namesrv.fetch_all_topic_list())
    inv.any_success = True
    inv.out.text(
        jformat(
            "%-64s  %-64s %12s %11s %11s %14s %14s%n",
            "#Topic",
            "#Consumer Group",
            "#Accumulation",
            "#InTPS",
            "#OutTPS",
            "#InMsg24Hour",
            "#OutMsg24Hour",
        )
    )
    listed, skipped = askable_topics(names)
    selected = [t for t in listed if not t.startswith(("%RETRY%", "%DLQ%")) and (not topic or t == topic)]
    result = await admin.core.fan_out(
        selected, lambda t: _topic_rows(inv, t, active_topic), deadline=inv.deadline
    )
    lines: list[str] = []
    rows: list[dict[str, Any]] = []
    cut = inv.report_cut_off(result, "topics")
    for t in selected:
        if t in result.errors:
            if t not in cut:
                inv.report_once(result.errors[t])
            continue
        got = result.results[t]
        for p in got.problems:  # a frozen broker fails every topic it holds: said once
            inv.report_once(p)
        lines.extend(got.lines)
        rows.extend(got.rows)
        skipped.extend(got.skipped)
    for name in dict.fromkeys(skipped):  # a group on many topics: said once
        inv.warn(name.note())
    if inv.out.structured:
        doc: dict[str, Any] = {"rows": rows}
        inv.out.data(inv.add_errors(doc))
    else:
        inv.out.text("".join(lines))
