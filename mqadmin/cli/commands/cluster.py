"""``clusterList``: every broker of every cluster with its runtime stats (or ``-m`` message totals).

The broker list comes from the name server; each broker address is then asked for its runtime table
(GET_BROKER_RUNTIME_INFO), all at once, bounded by ``--deadline``. Rows come out in the Java tool's
order (clusters in ``HashMap`` order, broker names sorted, broker ids in ``HashMap`` order) and
format, number rounding included; the document lists them by cluster, broker name and id. A
broker that does not answer still gets its row, with the values Java prints then, and a line on
stderr; the exit code is then 6.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, ClassVar

from mqadmin.cli.command import Invocation, java_command, once
from mqadmin.cli.common import WATCH_COUNT
from mqadmin.cli.errors import CommandError
from mqadmin.cli.exitcodes import ExitCode
from mqadmin.cli.javaopts import JavaOpt
from mqadmin.cli.javatext import jformat, to_float32
from mqadmin.cli.output import epoch_ms, number, tps
from mqadmin.cli.results import Errors, Result, with_errors
from mqadmin.cli.routeview import broker_addrs_in_java_order
from mqadmin.cli.tablelayout import TableLayout
from mqadmin.protocol.bodies.cluster import ClusterInfo
from mqadmin.protocol.javacoll import java_hash_order, java_string_sort_key
from mqadmin.protocol.javanum import JavaNumberError, parse_bool, parse_double, parse_int, parse_long

_HEADER = jformat(
    "%-22s  %-22s  %-4s  %-22s %-16s  %16s  %30s  %-22s  %-11s  %-12s  %-8s  %-10s%n",
    "#Cluster Name",
    "#Broker Name",
    "#BID",
    "#Addr",
    "#Version",
    "#InTPS(LOAD)",
    "#OutTPS(LOAD)",
    "#Timer(Progress)",
    "#PCWait(ms)",
    "#Hour",
    "#SPACE",
    "#ACTIVATED",
)
_ROW = "%-22s  %-22s  %-4s  %-22s %-16s  %16s  %30s  %-22s  %11s  %-12s  %-8s  %10s%n"
_MORE_HEADER = jformat(
    "%-16s  %-32s %14s %14s %14s %14s%n",
    "#Cluster Name",
    "#Broker Name",
    "#InTotalYest",
    "#OutTotalYest",
    "#InTotalToday",
    "#OutTotalToday",
)
_MORE_ROW = "%-16s  %-32s %14d %14d %14d %14d%n"


@dataclass(slots=True, frozen=True)
class Target:
    """One member of a cluster: cluster, broker name, broker id and address."""

    cluster: str
    broker_name: str
    broker_id: int
    addr: str


def members_of(info: ClusterInfo, cluster_name: str) -> list[Target]:
    """Every (cluster, broker, id, address) of the cluster (all clusters for ``""``), by those keys."""
    cat = info.cluster_addr_table or {}
    bat = info.broker_addr_table or {}
    out: list[Target] = []
    for cluster in [cluster_name] if cluster_name else sorted(cat):
        for name in sorted(set(cat.get(cluster) or [])):
            bd = bat.get(name)
            if bd is not None:
                out.extend(
                    Target(cluster, name, bid, addr) for bid, addr in sorted((bd.broker_addrs or {}).items())
                )
    return out


def targets_of(info: ClusterInfo, cluster_name: str) -> list[Target]:
    """Every (cluster, broker, id, address) in the Java tool's printing order."""
    cat = info.cluster_addr_table or {}
    bat = info.broker_addr_table or {}
    clusters = [cluster_name] if cluster_name else java_hash_order(list(cat))
    out: list[Target] = []
    for cluster in clusters:
        names = sorted(set(cat.get(cluster) or []), key=java_string_sort_key)
        for name in names:
            bd = bat.get(name)
            if bd is None:
                continue
            for bid, addr in broker_addrs_in_java_order(bd).items():
                out.append(Target(cluster, name, bid, addr))
    return out


def _not_blank(s: str | None) -> bool:
    return s is not None and s.strip() != ""


def base_row(t: Target, table: dict[str, str] | None, now_ms: int) -> tuple[str, dict[str, Any], str | None]:
    """One default-mode row: (text, JSON object, problem) from the runtime table (None: fetch failed).

    Mirrors ``ClusterListSubCommand.printClusterBaseInfo``: values read before a parse failure keep
    their value, the rest keep their initial ones; ``problem`` says what failed to parse.
    """
    problem: str | None = None
    version: str | None = ""
    in_tps = out_tps = 0.0
    send_q: str | None = ""
    pull_q: str | None = ""
    ack_q: str | None = ""
    send_w: str | None = ""
    pull_w: str | None = ""
    ack_w: str | None = ""
    pc_wait: str | None = ""
    earliest: str | None = ""
    ratio: str | None = ""
    timer = [0, 0, 0]
    timer_tps = [0.0, 0.0]
    active = False
    if table is not None:
        active = parse_bool(table.get("brokerActive"))
        put_tps = table.get("putTps")
        get_tps = table.get("getTransferredTps")
        send_q = table.get("sendThreadPoolQueueSize")
        pull_q = table.get("pullThreadPoolQueueSize")
        ack_q = table.get("ackThreadPoolQueueSize", "N")
        send_w = table.get("sendThreadPoolQueueHeadWaitTimeMills")
        pull_w = table.get("pullThreadPoolQueueHeadWaitTimeMills")
        ack_w = table.get("ackThreadPoolQueueHeadWaitTimeMills", "N")
        pc_wait = table.get("pageCacheLockTimeMills")
        earliest = table.get("earliestMessageTimeStamp")
        ratio = table.get("commitLogDiskRatio")
        try:
            for i, key in enumerate(("timerReadBehind", "timerOffsetBehind", "timerCongestNum")):
                timer[i] = parse_long(table.get(key))
            for i, key in enumerate(("timerEnqueueTps", "timerDequeueTps")):
                timer_tps[i] = to_float32(parse_double(table.get(key)))
        except ValueError:
            pass
        version = table.get("brokerVersionDesc")
        try:
            if _not_blank(put_tps):
                in_tps = parse_double((put_tps or "").split(" ")[0])
            if _not_blank(get_tps):
                out_tps = parse_double((get_tps or "").split(" ")[0])
        except ValueError as e:
            problem = f"bad TPS value from {t.addr}: {e}"
    hour = 0.0
    if earliest:
        try:
            hour = (now_ms - parse_long(earliest)) / 1000.0 / 60.0 / 60.0
        except ValueError:
            problem = f"bad earliestMessageTimeStamp from {t.addr}: {earliest!r}"
    space = 0.0
    if ratio:
        try:
            space = parse_double(ratio)
        except ValueError:
            problem = f"bad commitLogDiskRatio from {t.addr}: {ratio!r}"
    congest = to_float32(to_float32(float(timer[2])) / to_float32(10000.0))
    timer_col = jformat("%d-%d(%.1fw, %.1f, %.1f)", timer[0], timer[1], congest, *timer_tps)
    in_col = jformat("%9.2f(%s,%sms)", in_tps, send_q, send_w)
    out_col = jformat("%9.2f(%s,%sms|%s,%sms)", out_tps, pull_q, pull_w, ack_q, ack_w)
    hour_col, space_col = jformat("%2.2f", hour), jformat("%.4f", space)
    row = (t.cluster, t.broker_name, t.broker_id, t.addr, version, in_col, out_col, timer_col, pc_wait)
    text = jformat(_ROW, *row, hour_col, space_col, active)
    data: dict[str, Any] = {
        "cluster": t.cluster,
        "brokerName": t.broker_name,
        "brokerId": t.broker_id,
        "addr": t.addr,
        "version": version or None,
        "putTps": tps(in_tps) if table is not None else None,
        "getTps": tps(out_tps) if table is not None else None,
        "sendThreadPoolQueueSize": number(send_q),
        "sendThreadPoolQueueHeadWaitTimeMs": number(send_w),
        "pullThreadPoolQueueSize": number(pull_q),
        "pullThreadPoolQueueHeadWaitTimeMs": number(pull_w),
        "ackThreadPoolQueueSize": number(ack_q),
        "ackThreadPoolQueueHeadWaitTimeMs": number(ack_w),
        "timer": {
            "readBehind": timer[0],
            "offsetBehind": timer[1],
            "congestNum": timer[2],
            "enqueueTps": tps(timer_tps[0]),
            "dequeueTps": tps(timer_tps[1]),
        },
        "pageCacheLockTimeMs": number(pc_wait),
        # the Java column is hours since this time; -1 or 0 (a broker that does not say) is null
        "earliestMessageTimestamp": epoch_ms(earliest),
        "commitLogDiskRatio": number(ratio),
        "activated": active,
        "ok": table is not None,
    }
    return text, data, problem


def more_row(t: Target, table: dict[str, str] | None) -> tuple[str, dict[str, Any]]:
    """One ``-m`` row: yesterday's and today's put/get totals (0 for what cannot be computed)."""
    vals = [0, 0, 0, 0]
    if table is not None:
        keys = (
            ("msgPutTotalTodayMorning", "msgPutTotalYesterdayMorning"),
            ("msgGetTotalTodayMorning", "msgGetTotalYesterdayMorning"),
            ("msgPutTotalTodayNow", "msgPutTotalTodayMorning"),
            ("msgGetTotalTodayNow", "msgGetTotalTodayMorning"),
        )
        try:
            for i, (a, b) in enumerate(keys):
                vals[i] = parse_long(table.get(a)) - parse_long(table.get(b))
        except ValueError:
            pass
    text = jformat(_MORE_ROW, t.cluster, t.broker_name, *vals)
    data = {
        "cluster": t.cluster,
        "brokerName": t.broker_name,
        "brokerId": t.broker_id,
        "addr": t.addr,
        "putTotalYesterday": vals[0] if table is not None else None,
        "getTotalYesterday": vals[1] if table is not None else None,
        "putTotalToday": vals[2] if table is not None else None,
        "getTotalToday": vals[3] if table is not None else None,
        "ok": table is not None,
    }
    return text, data


_WHO = ("cluster", "brokerName", "brokerId", "addr")
_LAYOUT = TableLayout(
    {"brokers": (*_WHO, "version", "putTps", "getTps", "commitLogDiskRatio", "activated", "ok")}
)
_MORE_LAYOUT = TableLayout(
    {"brokers": (*_WHO, "putTotalYesterday", "getTotalYesterday", "putTotalToday", "getTotalToday", "ok")}
)
"""``--output table``: one row per broker, the columns an operator scans (the rest is in ``--json``)."""


@dataclass(slots=True)
class ClusterBrokers(Result):
    """clusterList: each broker's row (its text line and its document item). Java prints them with
    the clusters in ``HashMap`` order, broker names sorted and ids in ``HashMap`` order; the document
    by cluster, broker name and id."""

    timestamp: int
    info: ClusterInfo
    cluster_name: str
    rows: dict[Target, tuple[str, dict[str, Any]]]
    errors: Errors

    layout: ClassVar[TableLayout | None] = _LAYOUT

    header: ClassVar[str] = _HEADER

    def text(self) -> str:
        order = targets_of(self.info, self.cluster_name)
        return self.header + "".join(self.rows[t][0] for t in order if t in self.rows)

    def data(self) -> dict[str, Any]:
        brokers = [self.rows[t][1] for t in members_of(self.info, self.cluster_name) if t in self.rows]
        return with_errors({"timestamp": self.timestamp, "brokers": brokers}, self.errors)


class ClusterTotals(ClusterBrokers):
    """clusterList -m: yesterday's and today's message totals per broker."""

    layout: ClassVar[TableLayout | None] = _MORE_LAYOUT
    header: ClassVar[str] = _MORE_HEADER


async def _one_round(inv: Invocation, cluster_name: str, more: bool, compact: bool) -> None:
    admin = inv.admin
    info = await admin.namesrv.examine_broker_cluster_info()
    inv.any_success = True  # the name server answered: broker failures make it a partial result
    members = members_of(info, cluster_name)
    stats = await admin.core.fan_out(
        list(dict.fromkeys(t.addr for t in members)),
        admin.broker.fetch_broker_runtime_stats,
        deadline=inv.deadline,
    )
    now_ms = int(time.time() * 1000)
    rows: dict[Target, tuple[str, dict[str, Any]]] = {}
    for t in members:
        table = stats.results.get(t.addr)
        if table is None:
            inv.report(stats.errors[t.addr])
        if more:
            rows[t] = more_row(t, table)
        else:
            text, data, problem = base_row(t, table, now_ms)
            if problem:
                inv.report(CommandError(problem))
            rows[t] = (text, data)
    view = ClusterTotals if more else ClusterBrokers
    inv.out.emit(view(now_ms, info, cluster_name, rows, inv.error_list()), compact=compact)


def check_count(interval: Any, count: int | None) -> None:
    """``--count`` without ``-i`` is a usage error (clusterList's ``-i`` is its own)."""
    if count is not None and interval is None:
        raise CommandError("--count needs -i SECONDS", ExitCode.USAGE)


@java_command(
    "clusterList",
    [
        JavaOpt("m", "moreStats", "Print more stats", has_arg=False, dest="more_stats"),
        JavaOpt("i", "interval", "specify intervals numbers, it is in seconds"),
        JavaOpt("c", "clusterName", "which cluster", dest="cluster_name"),
    ],
    fanout=True,
    own=[WATCH_COUNT],
    json_doc='{"timestamp": ms, "brokers": [{"cluster", "brokerName", "brokerId", "addr", "version", '
    '"putTps", "getTps", "sendThreadPoolQueueSize", "sendThreadPoolQueueHeadWaitTimeMs", '
    '"pullThreadPoolQueueSize", "pullThreadPoolQueueHeadWaitTimeMs", "ackThreadPoolQueueSize", '
    '"ackThreadPoolQueueHeadWaitTimeMs", "timer": {"readBehind", "offsetBehind", "congestNum", '
    '"enqueueTps", "dequeueTps"}, "pageCacheLockTimeMs", "earliestMessageTimestamp", '
    '"commitLogDiskRatio", "activated", "ok"}], "errors"?}; with -m each broker has "putTotalYesterday", '
    '"getTotalYesterday", "putTotalToday", "getTotalToday" instead; with -i one line per round '
    "(mqadmin schema clusterList)",
    blocking=once,  # a -i watch sleeps on the event loop
)
async def cluster_list(
    inv: Invocation,
    more_stats: bool,
    interval: str | None,
    cluster_name: str | None,
    watch_count: int | None = None,
) -> ExitCode | int | None:
    if watch_count is not None:  # the watch module (and click) only for a watch
        check_count(interval, watch_count)
    period: float | None = None
    if interval is not None:
        try:
            period = float(parse_int(interval.strip()))
        except JavaNumberError:
            raise CommandError(
                f"-i takes a whole number of seconds, not {interval!r}", ExitCode.USAGE
            ) from None
        if period < 0:
            raise CommandError(f"-i takes a whole number of seconds, not {interval!r}", ExitCode.USAGE)
    cluster = cluster_name.strip() if cluster_name is not None else ""
    if cluster:
        from mqadmin.admin.brokers import check_cluster_name

        check_cluster_name(cluster)
    if period is None:
        await _one_round(inv, cluster, more_stats, compact=False)
        return None
    from mqadmin.cli.watch import Watch

    # as Java, a round that fails ends the watch
    return await Watch(inv, period, watch_count).run(
        lambda: _one_round(inv, cluster, more_stats, compact=True), survive=False
    )
