"""consumerProgress: how far each group has consumed, as the Java 5.3.3 tool shows it.

Text output is the Java tool's, orders included (``TreeMap`` sorting). Where Java fails for no good
reason we do better, and say so in the help epilog:

- ``consumerProgress -g G`` for a group without a ``%RETRY%`` topic (it never had a consumer retry,
  Java fails with code 17) looks the group up on every broker and shows what it finds, possibly no
  queue at all; so does a group with no committed offset (Java fails with code 206);
- a 4.x broker without GET_TOPIC_CONFIG (351) does not make consumerProgress fail or show zeros;
- without -g, a group whose name no request may carry (``%RETRY%`` alone names the group ``""``) is
  left out with a warning: Java asks for it, fails, and shows it as an OFFLINE row of zeros.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mqadmin.admin.consumers import EmptyConsumeStatsError, sorted_queues
from mqadmin.admin.errors import AdminError
from mqadmin.cli.command import Invocation, java_command
from mqadmin.cli.errors import CommandError
from mqadmin.cli.exitcodes import ExitCode
from mqadmin.cli.javaopts import JavaOpt
from mqadmin.cli.javatext import front_string_at_least, jformat
from mqadmin.cli.javatime import format_date
from mqadmin.cli.lagalert import Thresholds, alert_exit, alert_options, group_alerts, stuck_of
from mqadmin.cli.nameargs import group_arg, topic_arg
from mqadmin.cli.results import Errors, Result, with_errors
from mqadmin.protocol.bodies.consume_stats import ConsumeStats
from mqadmin.protocol.bodies.message_queue import MessageQueue, queue_key
from mqadmin.remoting.errors import RemotingError

# -------------------------------------------------------------------------------- consumerProgress

_PROGRESS_HEADER = "%-64s  %-32s  %-4s  %-20s  %-20s  %-20s %-20s%s%n"
_PROGRESS_ROW = "%-64s  %-32s  %-4d  %-20d  %-20d  %-20d %-20d %s%n"
_PROGRESS_HEADER_IP = "%-64s  %-32s  %-4s  %-20s  %-20s  %-20s %-20s %-20s%s%n"
_PROGRESS_ROW_IP = "%-64s  %-32s  %-4d  %-20d  %-20d  %-20s %-20d %-20d %s%n"


async def _client_of_queue(inv: Invocation, group: str) -> dict[MessageQueue, str]:
    """Which client (its IP) holds each queue; empty when that cannot be found (Java logs and goes on)."""
    out: dict[MessageQueue, str] = {}
    try:
        cc = await inv.admin.connections.examine_consumer_connection_info(group)
        for conn in cc.connection_set:
            cid = conn.client_id or ""
            info = await inv.admin.consumption.get_consumer_running_info(group, cid, False)
            if info is None:
                continue
            for mq in info.mq_table:
                out[mq] = cid.split("@")[0]
    except (AdminError, RemotingError):
        pass
    return out


async def _check_group_known(inv: Invocation, group: str, stats: ConsumeStats) -> None:
    """A group without any committed offset that no broker has a subscription group for, and with no
    consumer online, is a misspelt name, not a group with lag: the brokers answer consume stats for any
    name (offset 0, the whole topic as lag). Raises a NOT_FOUND error for it."""
    if any(w.consumer_offset > 0 for w in stats.offset_table.values()):
        return
    hits, errors = await inv.admin.groups.find_subscription_group_config(group)
    if hits or errors:  # known, or some broker could not say: do not call it unknown
        return
    try:
        conn = await inv.admin.connections.examine_consumer_connection_info(group)
        if conn.connection_set:
            return
    except (AdminError, RemotingError):
        pass
    raise CommandError(
        f"no broker knows the consumer group {group} (no subscription group, no committed offset, no "
        "consumer online); 'mqadmin consumerProgress' without -g lists the groups",
        ExitCode.NOT_FOUND,
    )


async def _group_progress(
    inv: Invocation, group: str, topic: str | None, cluster: str | None, show_ip: bool, limits: Thresholds
) -> ExitCode | None:
    failures: list[BaseException] = []
    try:
        stats = await inv.admin.consumers.examine_consume_stats(
            group, topic, cluster, any_broker_if_no_route=True, failures=failures
        )
        empty: EmptyConsumeStatsError | None = None
    except EmptyConsumeStatsError as e:
        if e.broadcasting:
            raise
        stats, empty = ConsumeStats(), e
    if not failures:
        await _check_group_known(inv, group, stats)
    if empty is not None and topic is not None and cluster is None and not failures:
        await inv.admin.namesrv.examine_topic_route_info(topic)  # a misspelt -t is no topic at all: exit 7
    if empty is not None:
        inv.warn(
            f"group {group} has no committed offset on any queue"
            + (" (it has no %RETRY% topic: no consumer of it ever retried)" if empty.no_route else "")
        )
    for exc in failures:
        inv.report(exc)
    inv.any_success = True
    clients = await _client_of_queue(inv, group) if show_ip else None
    stuck = await stuck_of(
        stats,
        lambda: inv.admin.consumers.examine_consume_stats(group, topic, cluster, any_broker_if_no_route=True),
        limits,
    )
    alerts = group_alerts(group, stats, limits, stuck)
    progress = GroupProgress(group, stats, clients, alerts if limits.active else None, inv.error_list())
    inv.out.emit(progress)
    return alert_exit(inv, alerts)


@dataclass(slots=True)
class GroupProgress(Result):
    """consumerProgress -g: each queue's offsets, lag and last consume time, and the group's totals.

    Java sorts the queues as ``MessageQueue.compareTo`` does; the document by topic, broker name and
    queue id. ``clients`` (with ``-s true``) is the client IP holding each queue."""

    group: str
    stats: ConsumeStats
    clients: dict[MessageQueue, str] | None
    alerts: list[str] | None
    errors: Errors

    def _queue(self, mq: MessageQueue) -> dict[str, Any]:
        w = self.stats.offset_table[mq]
        row: dict[str, Any] = {
            "topic": mq.topic,
            "brokerName": mq.broker_name,
            "queueId": mq.queue_id,
            "brokerOffset": w.broker_offset,
            "consumerOffset": w.consumer_offset,
            "diff": w.broker_offset - w.consumer_offset,
            "inflight": (w.pull_offset or 0) - w.consumer_offset,
            "lastTimestamp": w.last_timestamp,
        }
        if self.clients is not None:
            row["clientIP"] = self.clients.get(mq, "N/A")
        return row

    def text(self) -> str:
        ip = self.clients is not None
        head = ("#Topic", "#Broker Name", "#QID", "#Broker Offset", "#Consumer Offset")
        tail = ("#Diff", "#Inflight", "#LastTime")
        lines = [
            jformat(_PROGRESS_HEADER_IP if ip else _PROGRESS_HEADER, *head, *(["#Client IP"] * ip), *tail)
        ]
        for mq in sorted_queues(self.stats):
            q = self._queue(mq)
            who = (
                front_string_at_least(mq.topic, 64),
                front_string_at_least(mq.broker_name, 32),
                mq.queue_id,
            )
            offsets = (q["brokerOffset"], q["consumerOffset"])
            last = "N/A" if q["lastTimestamp"] == 0 else format_date(q["lastTimestamp"])
            if ip:
                lines.append(
                    jformat(_PROGRESS_ROW_IP, *who, *offsets, q["clientIP"], q["diff"], q["inflight"], last)
                )
            else:
                lines.append(jformat(_PROGRESS_ROW, *who, *offsets, q["diff"], q["inflight"], last))
        totals = self._totals()
        lines.append("\n")
        lines.append(jformat("Consume TPS: %.2f%n", self.stats.consume_tps))
        lines.append(jformat("Consume Diff Total: %d%n", totals["diffTotal"]))
        lines.append(jformat("Consume Inflight Total: %d%n", totals["inflightTotal"]))
        return "".join(lines)

    def _totals(self) -> dict[str, int]:
        queues = [self._queue(mq) for mq in self.stats.offset_table]
        return {
            "diffTotal": sum(q["diff"] for q in queues),
            "inflightTotal": sum(q["inflight"] for q in queues),
        }

    def data(self) -> dict[str, Any]:
        queues = [self._queue(mq) for mq in sorted(self.stats.offset_table, key=queue_key)]
        doc: dict[str, Any] = {"group": self.group, "queues": queues, "consumeTps": self.stats.consume_tps}
        doc.update(self._totals())
        if self.alerts is not None:
            doc["alerts"] = self.alerts
        return with_errors(doc, self.errors)


@java_command(
    "consumerProgress",
    [
        JavaOpt("g", "groupName", "consumer group name", dest="group_name"),
        JavaOpt("t", "topicName", "topic name", dest="topic_name"),
        JavaOpt("s", "showClientIP", "Show Client IP per Queue", dest="show_client_ip"),
        JavaOpt("c", "cluster", "Cluster name or lmq parent topic, lmq is used to find the route."),
    ],
    fanout=True,
    json_doc='with -g: {"group": str, "queues": [{"topic": str, "brokerName": str, "queueId": int, '
    '"brokerOffset": int, "consumerOffset": int, "clientIP": str (with -s true), "diff": int, '
    '"inflight": int, '
    '"lastTimestamp": ms}], "consumeTps": num, "diffTotal": int, "inflightTotal": int}; '
    'without -g: {"groups": [{"group": str, "count": int, "version": str|null, "type": "PUSH"|"PULL"|null, '
    '"model": str|null, "consumeTps": num|null, "diffTotal": int}], "errors": [...]?}; '
    'with --max-lag or --stuck-after both have "alerts": [str]',
    epilog="A group given with -g that has no %RETRY% topic or no committed offset is shown with the "
    "queues found on the brokers (maybe none), not failed as the Java tool does; a group no broker "
    "knows at all (no subscription group, no committed offset, no consumer online) is an error, exit 7. "
    "When some brokers do not answer, the queues of the others are shown, each failure is on stderr "
    "and the exit code is 6. --max-lag and --stuck-after turn the command into a check for cron or "
    "Nagios: exit 8 when a threshold is crossed (a server failure's code wins over it).",
    own=alert_options(),
    watch=True,
    blocking=lambda p: p.get("stuck_after") is None and p.get("interval") is None,  # --stuck-after waits
)
async def consumer_progress(
    inv: Invocation,
    group_name: str | None,
    topic_name: str | None,
    show_client_ip: str | None,
    cluster: str | None,
    max_lag: int | None,
    stuck_after: float | None,
) -> ExitCode | None:
    show_ip = show_client_ip is not None and show_client_ip.lower() == "true"
    limits = Thresholds.of(max_lag, stuck_after)
    if group_name is None:
        from mqadmin.cli.commands.group_summaries import all_groups_progress  # the other half of the command

        return await all_groups_progress(inv, limits)
    group = group_arg(group_name)
    topic = topic_arg(topic_name) if topic_name is not None else None
    cluster_value = cluster.strip() if cluster is not None and topic is not None else None
    return await _group_progress(inv, group, topic, cluster_value, show_ip, limits)
