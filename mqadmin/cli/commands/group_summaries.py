"""consumerProgress without -g: a summary row per group that has a ``%RETRY%`` topic, as the Java 5.3.3
tool prints it (count, version, type, model, TPS, total diff of each group).

The other half of :mod:`.consumer_progress`, which imports it when no group is given: a run for one
group does not load the group listing and connection summaries.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import Any

from mqadmin.admin.errors import AdminError
from mqadmin.admin.tablenames import askable_groups
from mqadmin.cli.exitcodes import ExitCode
from mqadmin.cli.invocation import Invocation
from mqadmin.cli.javatext import front_string_at_least, jformat, jstr
from mqadmin.cli.lagalert import Thresholds, alert_exit, group_alerts, stuck_of
from mqadmin.cli.results import Errors, Result, with_errors
from mqadmin.protocol.bodies.connection import ConsumerConnection
from mqadmin.protocol.bodies.consume_stats import ConsumeStats
from mqadmin.protocol.bodies.message_queue import MessageQueue
from mqadmin.protocol.javacoll import java_hash_order
from mqadmin.protocol.names import RETRY_GROUP_TOPIC_PREFIX as RETRY_PREFIX
from mqadmin.protocol.version import version_name
from mqadmin.remoting.errors import RemoteCommandError, RemotingError

__all__ = ["GroupSummaries", "all_groups_progress", "group_summary_row", "parse_group_of_retry_topic"]

_GROUPS_HEADER = "%-64s  %-6s  %-24s %-5s  %-14s  %-7s  %s%n"
_GROUPS_ROW = "%-64s  %-6d  %-24s %-5s  %-14s  %-7d  %d%n"


def parse_group_of_retry_topic(topic: str) -> str:
    """``KeyBuilder.parseGroup``: the group of ``%RETRY%<group>`` (pop retry: ``%RETRY%<group>+<topic>``)."""
    if "+" in topic:
        parts = topic.split("+")
        if len(parts) == 2:
            return parts[0][len(RETRY_PREFIX) :]
    return topic[len(RETRY_PREFIX) :]


def _quiet(exc: BaseException) -> bool:
    """Answers that only mean "no stats"/"offline" for a group (Java shows zeros or OFFLINE for them)."""
    return isinstance(exc, AdminError | RemoteCommandError) or not isinstance(exc, RemotingError)


async def _one_group_summary(
    inv: Invocation, group: str
) -> tuple[ConsumeStats | None, ConsumerConnection | None, list[BaseException]]:
    admin = inv.admin
    problems: list[BaseException] = []
    stats: ConsumeStats | None = None
    conn: ConsumerConnection | None = None
    try:
        stats = await admin.consumers.examine_consume_stats(group, failures=problems)
    except Exception as e:
        if not _quiet(e):
            problems.append(e)
    try:
        conn = await admin.connections.examine_consumer_connection_info(group)
    except Exception as e:
        if not _quiet(e):
            problems.append(e)
    return stats, conn, problems


def group_summary_row(
    group: str, stats: ConsumeStats | None, conn: ConsumerConnection | None
) -> tuple[str, dict[str, Any]]:
    """One ``consumerProgress`` (all groups) row: its text and its JSON object."""
    count = len(conn.connection_set) if conn is not None else 0
    ctype = conn.consume_type if conn is not None else None
    model = conn.message_model if conn is not None else None
    version = version_name(conn.min_version()) if conn is not None and count > 0 else "OFFLINE"
    type_desc = ("PULL" if ctype == "CONSUME_ACTIVELY" else "PUSH") if count else ""
    model_desc = jstr(model) if count and ctype == "CONSUME_PASSIVELY" else ""
    tps = int(stats.consume_tps) if stats is not None else 0
    diff = stats.total_diff() if stats is not None else 0
    text = jformat(
        _GROUPS_ROW, front_string_at_least(group, 64), count, version, type_desc, model_desc, tps, diff
    )
    data = {
        "group": group,
        "count": count,
        "version": version if count else None,
        "type": type_desc or None,
        "model": model_desc or None,
        "consumeTps": round(stats.consume_tps, 2) if stats is not None else None,
        "diffTotal": diff,
    }
    return text, data


async def all_groups_progress(inv: Invocation, limits: Thresholds) -> ExitCode | None:
    admin = inv.admin
    listed = list(await admin.namesrv.fetch_all_topic_list())
    inv.any_success = True
    groups, skipped = askable_groups(_retry_groups(listed))
    for name in dict.fromkeys(skipped):
        inv.warn(name.note())
    # a group's summary is a route, consume stats (three request timeouts, as Java) and a connection
    # lookup: the default deadline leaves room for all of them, so a frozen broker is reported as the
    # request that timed out, not as groups cut off
    deadline = inv.common.deadline if inv.common.deadline is not None else inv.settings.timeout * 6
    result = await admin.core.fan_out(groups, lambda g: _one_group_summary(inv, g), deadline=deadline)
    found: dict[str, tuple[ConsumeStats | None, ConsumerConnection | None]] = {}
    alerts: list[str] = []
    stuck: dict[str, list[MessageQueue]] = {}
    if limits.stuck_after is not None:  # every group watched at once, on the loop
        import asyncio

        watched = [(g, r[0]) for g, r in result.results.items()]
        stuck_lists = await asyncio.gather(
            *(stuck_of(s, partial(admin.consumers.examine_consume_stats, g), limits) for g, s in watched)
        )
        stuck = {g: found for (g, _), found in zip(watched, stuck_lists, strict=True)}
    cut = inv.report_cut_off(result, "groups")
    for group in groups:
        if group in result.errors:
            if group not in cut:
                inv.report_once(result.errors[group])
            stats, conn = None, None
        else:
            stats, conn, problems = result.results[group]
            for p in problems:  # a frozen broker fails every group: said once
                inv.report_once(p)
        found[group] = (stats, conn)
        alerts += group_alerts(group, stats, limits, stuck.get(group, []))
    inv.out.emit(GroupSummaries(listed, found, alerts if limits.active else None, inv.error_list()))
    return alert_exit(inv, alerts)


def _retry_groups(topics: list[str]) -> list[str]:
    """The groups of the ``%RETRY%`` topics among ``topics``, in their order."""
    return [parse_group_of_retry_topic(t) for t in topics if t.startswith(RETRY_PREFIX)]


@dataclass(slots=True)
class GroupSummaries(Result):
    """consumerProgress without -g: a summary row per group that has a ``%RETRY%`` topic. Java meets
    the groups in the ``HashSet`` order of every topic ``listed``; the document sorts them."""

    listed: list[str]
    groups: dict[str, tuple[ConsumeStats | None, ConsumerConnection | None]]
    alerts: list[str] | None
    errors: Errors

    def text(self) -> str:
        head = ("#Group", "#Count", "#Version", "#Type", "#Model", "#TPS", "#Diff Total")
        order = dict.fromkeys(g for g in _retry_groups(java_hash_order(self.listed)) if g in self.groups)
        rows = (group_summary_row(g, *self.groups[g])[0] for g in order)
        return jformat(_GROUPS_HEADER, *head) + "".join(rows)

    def data(self) -> dict[str, Any]:
        doc: dict[str, Any] = {
            "groups": [group_summary_row(g, *self.groups[g])[1] for g in sorted(self.groups)]
        }
        if self.alerts is not None:
            doc["alerts"] = self.alerts
        return with_errors(doc, self.errors)
