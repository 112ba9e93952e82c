"""Name server commands: KV config, write permission, and the name servers' own configuration.

Each of these addresses every name server of the list (``-n``, or the configured list), as the Java
tool does, all at once; the output lists them in the Java tool's order. When some name servers fail,
what the others answered is printed, each failure goes to stderr, and the exit code is 6.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mqadmin.admin.fanout import FanOutResult
from mqadmin.cli.command import CommandSpec, Invocation, java_command
from mqadmin.cli.errors import PartialFailure, describe
from mqadmin.cli.javaopts import JavaOpt
from mqadmin.cli.javatext import jformat
from mqadmin.cli.results import Errors, Plain, Result, with_errors
from mqadmin.cli.safety import Step, confirm, plan_shown, safety_options, show_plan
from mqadmin.protocol.javacoll import java_hash_order, properties_order

NAMESPACE = JavaOpt("s", "namespace", "set the namespace", required=True)
KEY = JavaOpt("k", "key", "set the key name", required=True)
BROKER_NAME = JavaOpt("b", "brokerName", "broker name", required=True, dest="broker_name")


def _raise_if_failed(inv: Invocation, errors: dict[str, BaseException], order: list[str]) -> None:
    failed = [errors[a] for a in order if a in errors]
    if failed:
        inv.any_success = len(failed) < len(order)
        raise PartialFailure(failed)


def _changed_everywhere(
    inv: Invocation, result: FanOutResult[str, Any], data: dict[str, Any], text: str
) -> None:
    """A change asked of every name server: a failure if any failed, else ``text`` (or ``data`` with
    the name servers changed)."""
    _raise_if_failed(inv, result.errors, result.order)
    inv.out.emit(Plain({**data, "nameServers": result.order}, text))


# ------------------------------------------------------------------------------------- KV config


@java_command(
    "updateKvConfig",
    [NAMESPACE, KEY, JavaOpt("v", "value", "set the key value", required=True)],
    fanout=True,
    json_doc='{"namespace": str, "key": str, "value": str, "nameServers": [str]} (the name servers updated)',
    epilog="--dry-run lists, per name server, the value the key would get (with --json: dryRun and a "
    "plan of {role, addr, action, changes}), changing nothing. On a terminal the plan is shown and "
    "confirmed first (--yes does not ask).",
    own=safety_options(),
)
async def update_kv_config(
    inv: Invocation, namespace: str, key: str, value: str, dry_run: bool, yes: bool
) -> None:
    ns, k, v = namespace.strip(), key.strip(), value.strip()
    addrs = java_hash_order(inv.admin.core.namesrv_addrs)
    steps = [Step("name server", a, f"set key {k} of namespace {ns} to {v!r}") for a in addrs]
    title = f"create or update kv config [{ns}] [{k}]"
    if dry_run:
        show_plan(inv, title, steps, {"namespace": ns, "key": k, "value": v, "nameServers": []})
        return
    confirm(title, steps, yes)
    result = await inv.admin.namesrv.put_kv_config(ns, k, v)
    data = {"namespace": ns, "key": k, "value": v}
    _changed_everywhere(inv, result, data, "create or update kv config to namespace success.\n")


@java_command(
    "deleteKvConfig",
    [NAMESPACE, KEY],
    fanout=True,
    json_doc='{"namespace": str, "key": str, "nameServers": [str]}',
    epilog="--dry-run lists the name servers the key would be deleted from (with --json: dryRun and a "
    "plan of {role, addr, action, changes}), changing nothing. On a terminal the plan is shown and "
    "confirmed first (--yes does not ask).",
    own=safety_options(),
)
async def delete_kv_config(inv: Invocation, namespace: str, key: str, dry_run: bool, yes: bool) -> None:
    ns, k = namespace.strip(), key.strip()
    addrs = java_hash_order(inv.admin.core.namesrv_addrs)
    steps = [Step("name server", a, f"delete key {k} of namespace {ns}") for a in addrs]
    title = f"delete kv config [{ns}] [{k}]"
    if dry_run:
        show_plan(inv, title, steps, {"namespace": ns, "key": k, "nameServers": []})
        return
    confirm(title, steps, yes)
    result = await inv.admin.namesrv.delete_kv_config(ns, k)
    _changed_everywhere(
        inv, result, {"namespace": ns, "key": k}, "delete kv config from namespace success.\n"
    )


# ------------------------------------------------------------------------------- write permission


async def _perm_plan(inv: Invocation, name: str, wipe: bool) -> list[Step]:
    """Per name server: what wipeWritePerm or addWritePerm would do to the routes of broker ``name``."""
    from mqadmin.admin.errors import AdminError, RemotingError

    admin = inv.admin
    try:
        info = await admin.namesrv.examine_broker_cluster_info()
        known: bool | None = name in (info.broker_addr_table or {})
    except (AdminError, RemotingError):
        known = None
    change = (
        f"remove the write permission of broker {name} from every topic route (producers stop sending)"
        if wipe
        else f"give broker {name} back the write permission on every topic route (producers send to it)"
    )
    what = {
        True: change,
        False: f"broker {name} is not registered: nothing to change",
        None: f"{change}, if registered there",
    }[known]
    return [
        Step("name server", a, what, changes=known is not False)
        for a in java_hash_order(admin.core.namesrv_addrs)
    ]


async def _write_perm(inv: Invocation, broker_name: str, wipe: bool, dry_run: bool, yes: bool) -> None:
    name = broker_name.strip()
    admin = inv.admin
    if plan_shown(dry_run, yes):
        steps = await _perm_plan(inv, name, wipe)
        title = f"{'wipe' if wipe else 'add'} write perm of broker[{name}]"
        if dry_run:
            planned = [{"nameServer": s.addr, "ok": None, "topicCount": None} for s in steps]
            show_plan(inv, title, steps, {"brokerName": name, "results": planned})
            return
        confirm(title, steps, yes)
    result = await (
        admin.namesrv.wipe_write_perm_of_broker(name)
        if wipe
        else admin.namesrv.add_write_perm_of_broker(name)
    )
    rows: list[dict[str, Any]] = []
    for addr in result.order:
        if addr in result.results:
            inv.any_success = True
            rows.append({"nameServer": addr, "ok": True, "topicCount": result.results[addr]})
        else:
            rep = inv.report(result.errors[addr])
            rows.append({"nameServer": addr, "ok": False, "error": rep.message})
    inv.out.emit(WritePermChanged(name, "wipe" if wipe else "add", rows))


@dataclass(slots=True, frozen=True)
class WritePermChanged(Result):
    """wipeWritePerm/addWritePerm: per name server, how many topic routes changed, or Failed."""

    broker_name: str
    verb: str
    results: list[dict[str, Any]]

    def text(self) -> str:
        head = f"{self.verb} write perm of broker[{self.broker_name}] in name server"
        return "".join(
            f"{head}[{r['nameServer']}] OK, {r['topicCount']}\n"
            if r["ok"]
            else f"{head}[{r['nameServer']}] Failed\n"
            for r in self.results
        )

    def data(self) -> dict[str, Any]:
        return {"brokerName": self.broker_name, "results": self.results}


_PERM_DOC = (
    '{"brokerName": str, "results": [{"nameServer": str, "ok": true, "topicCount": int} | '
    '{"nameServer": str, "ok": false, "error": str}]} (topicCount: topics whose permission changed)'
)


def _write_perm_command(name: str, wipe: bool) -> CommandSpec:
    @java_command(
        name,
        [BROKER_NAME],
        fanout=True,
        json_doc=_PERM_DOC,
        epilog="--dry-run shows, per name server, whether the broker is registered and what would "
        "change (with --json: dryRun and a plan of {role, addr, action, changes}). On a terminal that "
        "plan is shown and confirmed first (--yes does not ask).",
        own=safety_options(),
    )
    async def command(inv: Invocation, broker_name: str, dry_run: bool, yes: bool) -> None:
        await _write_perm(inv, broker_name, wipe, dry_run, yes)

    return command


wipe_write_perm = _write_perm_command("wipeWritePerm", wipe=True)
add_write_perm = _write_perm_command("addWritePerm", wipe=False)


# ------------------------------------------------------------------------------- name server config


@dataclass(slots=True, frozen=True)
class NamesrvConfigs(Result):
    """getNamesrvConfig: each name server's config (``configs``: of those that answered, in the order
    asked). Java collects them in a ``HashMap<>(4)`` by address and prints each ``Properties``."""

    configs: dict[str, dict[str, str]]
    errors: Errors

    def text(self) -> str:
        parts = []
        for addr in java_hash_order(list(self.configs), 4):
            props = self.configs[addr]
            parts.append(f"============{addr}============\n")
            parts.extend(jformat("%-50s=  %s\n", k, props[k]) for k in properties_order(list(props)))
        return "".join(parts)

    def data(self) -> dict[str, Any]:
        from mqadmin.cli.output import server_value

        servers = [
            {"addr": a, "config": {k: server_value(v) for k, v in sorted(props.items())}}
            for a, props in self.configs.items()
        ]
        return with_errors({"nameServers": servers}, self.errors)


@java_command(
    "getNamesrvConfig",
    [],
    fanout=True,
    json_doc='{"nameServers": [{"addr": str, "config": {"<key>": value}}]} (keys sorted, values typed: '
    "numbers, booleans, else strings; mqadmin schema getNamesrvConfig)",
)
async def get_namesrv_config(inv: Invocation) -> None:
    result = await inv.admin.namesrv.get_namesrv_config(inv.namesrv_given)
    configs = {a: result.results[a] for a in result.order if a in result.results}
    failed = [result.errors[a] for a in result.order if a in result.errors]
    # what a partial answer (exit 6) lacks, as every fan-out's document says it
    errors = [describe(e, inv.settings_if_resolved).as_json()["error"] for e in failed]
    inv.out.emit(NamesrvConfigs(configs, errors))
    _raise_if_failed(inv, result.errors, result.order)


@java_command(
    "updateNamesrvConfig",
    [
        JavaOpt("k", "key", "config key", required=True),
        JavaOpt("v", "value", "config value", required=True),
    ],
    fanout=True,
    json_doc='{"key": str, "value": str, "nameServers": [str]}',
    epilog="--dry-run lists the name servers that would get the setting (with --json: dryRun and a plan "
    "of {role, addr, action, changes}), changing nothing. On a terminal the plan is shown and confirmed "
    "first (--yes does not ask).",
    own=safety_options(),
)
async def update_namesrv_config(inv: Invocation, key: str, value: str, dry_run: bool, yes: bool) -> None:
    k, v = key.strip(), value.strip()
    given = inv.namesrv_given
    targets = list(given) if given is not None else java_hash_order(inv.admin.core.namesrv_addrs)
    steps = [Step("name server", a, f"set {k} = {v}") for a in targets]
    if dry_run:
        show_plan(inv, "update name server config", steps, {"key": k, "value": v, "nameServers": []})
        return
    confirm("update name server config", steps, yes)
    result = await inv.admin.namesrv.update_namesrv_config({k: v}, given)
    shown = "" if given is None else "[" + ", ".join(given) + "]"
    text = f"update name server config success!{shown}\n{k} : {v}\n"
    _changed_everywhere(inv, result, {"key": k, "value": v}, text)
