"""Broker commands: brokerStatus, getBrokerConfig, updateBrokerConfig, and the housekeeping requests
cleanUnusedTopic, cleanExpiredCQ and deleteExpiredCommitLog.

Text output is the Java 5.3.3 tool's. Commands that address a whole cluster ask its brokers all at
once and print in the Java order; a broker that fails is reported on stderr and the exit code is 6
when others answered. A missing ``-b``/``-c`` is a usage error (exit 2) where Java prints its help.
A config entry the broker would refuse (a line break, a bad permission) is refused before any
request (exit 2).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from mqadmin.cli.brokertargets import Changed
from mqadmin.cli.command import Invocation, java_command
from mqadmin.cli.exitcodes import ExitCode
from mqadmin.cli.javaopts import JavaOpt
from mqadmin.cli.javatext import jformat
from mqadmin.cli.optvalues import need_target
from mqadmin.cli.results import Errors, Plain, Result, with_errors
from mqadmin.cli.safety import Step, confirm, probe, safety_options, setting_step, show_plan
from mqadmin.protocol.javacoll import java_hash_order, java_string_sort_key, properties_order

TARGETS_DOC = '[{"addr": str, "ok": bool, "error": str?}]'


# ------------------------------------------------------------------------------------- brokerStatus


@java_command(
    "brokerStatus",
    [
        JavaOpt("b", "brokerAddr", "Broker address", group="target", group_required=True, dest="broker_addr"),
        JavaOpt(
            "c", "clusterName", "which cluster", group="target", group_required=True, dest="cluster_name"
        ),
    ],
    fanout=True,
    json_doc='{"brokers": [{"cluster", "brokerName", "brokerId", "addr", "role": "master"|"slave"|null, '
    '"ok": bool, "stats": {...} | null, "error"?}], "errors"?} (stats: the runtime table typed: numbers '
    "as numbers, a rate of three windows as <name>10sTps, <name>1mTps, <name>10mTps; "
    "mqadmin schema brokerStatus)",
    watch=True,
)
async def broker_status(inv: Invocation, broker_addr: str | None, cluster_name: str | None) -> None:
    admin = inv.admin
    if broker_addr is not None:
        addr = broker_addr.strip()
        table = await admin.broker.fetch_broker_runtime_stats(addr)
        item = await inv.broker_item(addr, ok=True) if inv.out.structured else {"addr": addr, "ok": True}
        inv.out.emit(BrokerStatus([item], {addr: table}, one=True))
        return
    addrs = await admin.brokers.fetch_master_and_slave_addrs((cluster_name or "").strip())
    tables, rows = await inv.on_each(addrs, admin.broker.fetch_broker_runtime_stats)
    inv.out.emit(BrokerStatus(rows, tables, errors=inv.error_list()))


@dataclass(slots=True, frozen=True)
class BrokerStatus(Result):
    """brokerStatus: each broker's runtime table (``tables``: of those that answered). Java prints a
    ``TreeMap`` of it; with ``-b`` (``one``) without the address column."""

    brokers: list[dict[str, Any]]
    tables: dict[str, dict[str, str]]
    one: bool = False
    errors: Errors = field(default_factory=list)

    def text(self) -> str:
        lines: list[str] = []
        for addr in (r["addr"] for r in self.brokers if r["addr"] in self.tables):
            table = self.tables[addr]
            for k in sorted(table, key=java_string_sort_key):
                who = (
                    jformat("%-32s: %s%n", k, table[k])
                    if self.one
                    else jformat("%-24s %-32s: %s%n", addr, k, table[k])
                )
                lines.append(who)
        return "".join(lines)

    def data(self) -> dict[str, Any]:
        items = [_status_item(r, self.tables.get(r["addr"])) for r in self.brokers]
        return with_errors({"brokers": items}, self.errors)


def _role(broker_id: Any) -> str | None:
    if not isinstance(broker_id, int):
        return None
    return "master" if broker_id == 0 else "slave"


def _status_item(item: dict[str, Any], table: dict[str, str] | None) -> dict[str, Any]:
    """A brokerStatus item: who the broker is, its role, and its runtime table typed."""
    from mqadmin.cli.output import server_stats

    out: dict[str, Any] = {k: item[k] for k in ("cluster", "brokerName", "brokerId", "addr") if k in item}
    out["role"] = _role(item.get("brokerId"))
    out.update((k, v) for k, v in item.items() if k not in out)
    out["stats"] = server_stats(table) if table is not None else None
    return out


# ------------------------------------------------------------------------------------- getBrokerConfig


def _config_dump(props: dict[str, str]) -> str:
    """The config lines as Java prints a ``Properties``: its iteration order, then an empty line."""
    return "".join(jformat("%-50s=  %s\n", k, props[k]) for k in properties_order(list(props))) + "\n"


@java_command(
    "getBrokerConfig",
    [
        JavaOpt("b", "brokerAddr", "get which broker", dest="broker_addr"),
        JavaOpt("c", "clusterName", "get which cluster", dest="cluster_name"),
    ],
    fanout=True,
    json_doc='{"brokers": [{"cluster", "brokerName", "brokerId", "addr", "role": "master"|"slave", '
    '"master": str|null, "ok": bool, "config": {...}|null, "error"?}], "errors"?} (config keys sorted, '
    "values typed: numbers, booleans, else strings; mqadmin schema getBrokerConfig)",
)
async def get_broker_config(inv: Invocation, broker_addr: str | None, cluster_name: str | None) -> None:
    from mqadmin.admin.brokers import NO_MASTER

    need_target(broker_addr, cluster_name)
    admin = inv.admin
    if broker_addr is not None:
        addr = broker_addr.strip()
        props = await admin.brokers.get_broker_config(addr)
        if inv.out.structured:
            row = await inv.broker_item(addr, role="master", master=None, ok=True)
        else:
            row = {"addr": addr, "role": "master", "master": None, "ok": True}
        inv.out.emit(BrokerConfigs(None, [row], {addr: props}))
        return
    groups = await admin.brokers.fetch_master_slave_map((cluster_name or "").strip())
    targets: list[tuple[str, str, str | None]] = []  # (addr, role, master)
    for master, slaves in groups.items():
        if master != NO_MASTER:
            targets.append((master, "master", None))
        targets.extend((s, "slave", master) for s in slaves)
    configs, rows = await inv.on_each([a for a, _, _ in targets], admin.brokers.get_broker_config)
    row_of = {r["addr"]: r for r in rows}
    out_rows = [{**row_of[a], "role": role, "master": master} for a, role, master in targets]
    inv.out.emit(BrokerConfigs(groups, out_rows, configs, inv.error_list()))


@dataclass(slots=True, frozen=True)
class BrokerConfigs(Result):
    """getBrokerConfig: each broker's config (``configs``: of those that answered), under Java's
    master and slave banners (``groups``: master to slaves; None for the one broker of ``-b``)."""

    groups: dict[str, list[str]] | None
    brokers: list[dict[str, Any]]
    configs: dict[str, dict[str, str]]
    errors: Errors = field(default_factory=list)

    def _dump(self, addr: str) -> str:
        return _config_dump(self.configs[addr]) if addr in self.configs else ""

    def text(self) -> str:
        from mqadmin.admin.brokers import NO_MASTER

        if self.groups is None:
            addr = self.brokers[0]["addr"]
            return f"============{addr}============\n" + self._dump(addr)
        lines: list[str] = []
        for master, slaves in self.groups.items():
            lines.append(f"============Master: {master}============\n")
            if master != NO_MASTER:
                lines.append(self._dump(master))
            for slave in slaves:
                lines.append(f"============My Master: {master}=====Slave: {slave}============\n")
                lines.append(self._dump(slave))
        return "".join(lines)

    def data(self) -> dict[str, Any]:
        items = [_config_item(r, self.configs.get(r["addr"])) for r in self.brokers]
        return with_errors({"brokers": items}, self.errors)


def _config_item(row: dict[str, Any], props: dict[str, str] | None) -> dict[str, Any]:
    """A getBrokerConfig item: who the broker is (its own config says so when the name server does
    not list it), its role, and its config typed."""
    from mqadmin.cli.output import server_value

    config = {k: server_value(v) for k, v in sorted(props.items())} if props is not None else None
    own = config or {}
    out: dict[str, Any] = {
        "cluster": row.get("cluster") or own.get("brokerClusterName"),
        "brokerName": row.get("brokerName") or own.get("brokerName"),
        "brokerId": row.get("brokerId") if row.get("brokerId") is not None else own.get("brokerId"),
        "addr": row["addr"],
        "role": row.get("role"),
        "master": row.get("master"),
    }
    out.update((k, v) for k, v in row.items() if k not in out)
    out["config"] = config
    return out


# ------------------------------------------------------------------------------------- updateBrokerConfig


@java_command(
    "updateBrokerConfig",
    [
        JavaOpt("b", "brokerAddr", "update which broker", dest="broker_addr"),
        JavaOpt("c", "clusterName", "update which cluster", dest="cluster_name"),
        JavaOpt("a", "updateAllBroker", "update all brokers include slave", dest="update_all_broker"),
        JavaOpt("k", "key", "config key", required=True),
        JavaOpt("v", "value", "config value", required=True),
    ],
    fanout=True,
    json_doc=f'{{"key": str, "value": str, "brokers": {TARGETS_DOC}, "errors": [...]?}}',
    epilog="--dry-run shows, per broker, the value now and the one it would get (with --json: dryRun "
    "and a plan of {role, addr, action, changes}). On a terminal that plan is shown and confirmed "
    "first (--yes does not ask).",
    own=safety_options(),
)
async def update_broker_config(
    inv: Invocation,
    broker_addr: str | None,
    cluster_name: str | None,
    update_all_broker: str | None,
    key: str,
    value: str,
    dry_run: bool,
    yes: bool,
) -> None:
    from mqadmin.admin.brokers import check_broker_config_update

    need_target(broker_addr, cluster_name)
    k, v = key.strip(), value.strip()
    props = check_broker_config_update({k: v})
    admin = inv.admin
    if broker_addr is not None:
        addrs = [broker_addr.strip()]
    else:
        cluster = (cluster_name or "").strip()
        if update_all_broker is not None:
            addrs = await admin.brokers.fetch_master_and_slave_addrs(cluster)
        else:
            addrs = await admin.brokers.fetch_master_addrs(cluster)
    steps = await _config_plan(inv, addrs, k, v)
    title = f"update broker config {k}={v}"
    if dry_run:
        show_plan(
            inv, title, steps, {"key": k, "value": v, "brokers": [{"addr": a, "ok": None} for a in addrs]}
        )
        return
    confirm(title, steps, yes)
    _, rows = await inv.on_each(addrs, lambda a: admin.brokers.update_broker_config(a, props))
    line = "update broker config success, %s\n"
    inv.out.emit(Changed(rows, line, {"key": k, "value": v}, errors=inv.error_list()))


async def _config_plan(inv: Invocation, addrs: list[str], key: str, value: str) -> list[Step]:
    """Per broker: the value of ``key`` now, and the one the update would set."""
    configs = await probe(inv, addrs, inv.admin.brokers.get_broker_config)
    return [setting_step(inv, "broker", addr, config, key, value) for addr, config in configs.items()]


# ------------------------------------------------------------------------------------- housekeeping


_HOUSEKEEPING_DOC = (
    f'{{"result": bool, "brokers": {TARGETS_DOC}, "errors": [...]?}} '
    "(without -b and -c: every broker of every cluster)"
)


_HOUSEKEEPING_PLAN = {
    "clean_unused_topic": "delete the consume queues and offsets of topics it no longer has",
    "clean_expired_consume_queue": "delete the consume queues whose messages have all left the commit log",
    "delete_expired_commit_log": "delete the commit-log files older than its fileReservedTime",
}


async def _housekeeping(
    inv: Invocation,
    broker_addr: str | None,
    cluster: str | None,
    request: str,
    dry_run: bool = False,
    yes: bool = False,
) -> ExitCode | None:
    """``success``/``false`` (no newline) after asking the broker, a cluster's brokers or all brokers."""
    from mqadmin.admin.brokers import check_cluster_name

    if broker_addr is None and (cluster or "").strip():
        check_cluster_name((cluster or "").strip())
    admin = inv.admin
    call: Callable[[str], Awaitable[bool]] = getattr(admin.brokers, request)
    if broker_addr is not None:
        addrs = [broker_addr.strip()]
    else:
        info = await admin.namesrv.examine_broker_cluster_info()
        table = info.cluster_addr_table or {}
        name = (cluster or "").strip()
        if name and name not in table:
            from mqadmin.admin.brokers import ClusterNotFoundError

            raise ClusterNotFoundError(name)
        addrs = []
        for c in [name] if name else java_hash_order(list(table)):
            addrs.extend(await admin.brokers.fetch_master_and_slave_addrs(c, info))
    if request in _HOUSEKEEPING_PLAN and addrs:
        steps = [Step("broker", a, _HOUSEKEEPING_PLAN[request]) for a in addrs]
        title = f"{inv.name} on {len(addrs)} broker(s)"
        if dry_run:
            show_plan(
                inv, title, steps, {"result": None, "brokers": [{"addr": a, "ok": None} for a in addrs]}
            )
            return None
        confirm(title, steps, yes)
    done, rows = await inv.on_each(addrs, call)
    result = bool(addrs) and len(done) == len(addrs)
    if not addrs:
        inv.warn("no broker to ask")
    inv.out.emit(
        Plain({"result": result, "brokers": rows}, "success" if result else "false", inv.error_list())
    )
    return ExitCode.ERROR if not addrs else None


_CLUSTER_OPT = JavaOpt("c", "cluster", "clustername")
_BROKER_OPT = JavaOpt("b", "brokerAddr", "Broker address", dest="broker_addr")


_SAFETY_EPILOG = (
    "--dry-run lists the brokers that would be asked and what each would delete (with --json: dryRun "
    "and a plan of {role, addr, action, changes}). On a terminal that plan is shown and confirmed first "
    "(--yes does not ask)."
)


@java_command(
    "cleanUnusedTopic",
    [_BROKER_OPT, JavaOpt("c", "cluster", "cluster name")],
    fanout=True,
    json_doc=_HOUSEKEEPING_DOC,
    epilog=_SAFETY_EPILOG,
    own=safety_options(),
)
async def clean_unused_topic(
    inv: Invocation, broker_addr: str | None, cluster: str | None, dry_run: bool, yes: bool
) -> ExitCode | None:
    return await _housekeeping(inv, broker_addr, cluster, "clean_unused_topic", dry_run, yes)


@java_command(
    "cleanExpiredCQ",
    [_BROKER_OPT, _CLUSTER_OPT],
    fanout=True,
    json_doc=_HOUSEKEEPING_DOC,
    epilog=_SAFETY_EPILOG,
    own=safety_options(),
)
async def clean_expired_cq(
    inv: Invocation, broker_addr: str | None, cluster: str | None, dry_run: bool, yes: bool
) -> ExitCode | None:
    return await _housekeeping(inv, broker_addr, cluster, "clean_expired_consume_queue", dry_run, yes)


# The Java command declares its own -n with a shorter description; its help shows that one.
_NAMESRV_SHORT = JavaOpt("n", "namesrvAddr", "Name server address", dest="namesrv")


@java_command(
    "deleteExpiredCommitLog",
    [_NAMESRV_SHORT, _BROKER_OPT, _CLUSTER_OPT],
    fanout=True,
    json_doc=_HOUSEKEEPING_DOC,
    epilog=_SAFETY_EPILOG,
    own=safety_options(),
)
async def delete_expired_commit_log(
    inv: Invocation, broker_addr: str | None, cluster: str | None, dry_run: bool, yes: bool
) -> ExitCode | None:
    return await _housekeeping(inv, broker_addr, cluster, "delete_expired_commit_log", dry_run, yes)
