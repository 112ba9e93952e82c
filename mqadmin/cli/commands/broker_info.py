"""Broker commands that read: brokerStatus (runtime tables) and getBrokerConfig (configs), as the Java
5.3.3 tool prints them (``TreeMap`` and ``Properties`` orders). The commands that change brokers are
:mod:`.broker_admin`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from mqadmin.cli.command import Invocation, java_command
from mqadmin.cli.javaopts import JavaOpt
from mqadmin.cli.javatext import jformat
from mqadmin.cli.optvalues import need_target
from mqadmin.cli.results import Errors, Result, with_errors
from mqadmin.protocol.javacoll import java_string_sort_key, properties_order

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
