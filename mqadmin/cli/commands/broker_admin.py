"""Broker commands that change brokers: updateBrokerConfig, and the housekeeping requests
cleanUnusedTopic, cleanExpiredCQ and deleteExpiredCommitLog (brokerStatus and getBrokerConfig, which
only read, are :mod:`.broker_info`).

Text output is the Java 5.3.3 tool's. Commands that address a whole cluster ask its brokers all at
once and print in the Java order; a broker that fails is reported on stderr and the exit code is 6
when others answered. A missing ``-b``/``-c`` is a usage error (exit 2) where Java prints its help.
A config entry the broker would refuse (a line break, a bad permission) is refused before any
request (exit 2).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from mqadmin.cli.brokertargets import Changed
from mqadmin.cli.command import Invocation, java_command
from mqadmin.cli.exitcodes import ExitCode
from mqadmin.cli.javaopts import JavaOpt
from mqadmin.cli.optvalues import need_target
from mqadmin.cli.results import Plain
from mqadmin.cli.safety import Step, confirm, probe, safety_options, setting_step, show_plan
from mqadmin.protocol.javacoll import java_hash_order

TARGETS_DOC = '[{"addr": str, "ok": bool, "error": str?}]'


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
