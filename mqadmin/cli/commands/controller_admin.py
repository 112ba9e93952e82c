"""Controller and HA commands of 5.3.3: haStatus, getBrokerEpoch, getSyncStateSet,
getControllerMetaData, getControllerConfig, updateControllerConfig, electMaster, cleanBrokerMetadata.

Text output is the Java tool's. Where Java prints its help for want of ``-b``/``-c`` ours is a usage
error (exit 2); where Java prints nothing because the broker, broker name or cluster is unknown,
ours prints nothing on stdout either, says so on stderr and exits 7. Java's ``electMaster`` reads the
answer's body as the wrong type and so never lists the set's members; its text is kept, the
members are in ``--json``. ``-i N`` repeats a command every N seconds (3 when blank) until stopped.
The controller commands sign with the usual credentials (``--access-key``/``--secret-key``, a context,
``tools.yml``), which our controller asks for when it has ``controllerAuth`` on.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from mqadmin.admin.controller import check_controller_addr, config_settings
from mqadmin.cli.brokertargets import master_addrs
from mqadmin.cli.command import Invocation, java_command, once
from mqadmin.cli.errors import CommandError, usage_error
from mqadmin.cli.exitcodes import ExitCode
from mqadmin.cli.javaopts import JavaOpt
from mqadmin.cli.javatext import jformat, jstr
from mqadmin.cli.optvalues import need_target, parse_int, parse_long
from mqadmin.cli.results import Errors, Plain, Result, with_errors
from mqadmin.cli.safety import Step, answers, confirm, plan_shown, safety_options, setting_step, show_plan
from mqadmin.cli.serverconfigs import emit_server_configs, raise_if_failed
from mqadmin.protocol.javacoll import java_hash_order

INTERVAL = JavaOpt("i", "interval", "the interval(second) of get info")
CLUSTER = JavaOpt("c", "clusterName", "which cluster", dest="cluster_name")
CONTROLLER_LIST = JavaOpt(
    "a",
    "controllerAddress",
    "Controller address list, eg: 192.168.0.1:9878;192.168.0.2:9878",
    required=True,
    dest="controller_address",
)


def _controllers(text: str) -> list[str]:
    """The ``-a`` list as Java splits it (``trim().split(";")``), blanks dropped."""
    return [a for a in text.strip().split(";") if a]


async def _repeat(inv: Invocation, interval: str | None, one: Callable[[bool], Awaitable[None]]) -> None:
    """Java's ``-i``: run ``one`` once, or every ``interval`` seconds (3 when blank) until stopped."""
    if interval is None:
        await one(False)
        return
    period = 3 if not interval.strip() else parse_int(interval, "-i")
    if period < 0:
        raise CommandError(f"-i takes a whole number of seconds, not {interval!r}", ExitCode.USAGE)
    while True:
        await one(True)
        inv.failures.clear()
        await asyncio.sleep(period)


def _not_found(inv: Invocation, what: str, repeating: bool) -> None:
    """Nothing to show: exit 7 after one round, a warning between the rounds of ``-i``."""
    if repeating:
        inv.warn(what)
        return
    raise CommandError(what, ExitCode.NOT_FOUND)


# ------------------------------------------------------------------------------------- haStatus


def _ha_text(addr: str, info: Any) -> str:
    from mqadmin.cli.javatime import human_time

    if info.master:
        out = [
            f"\n#MasterAddr\t{addr}\n#MasterCommitLogMaxOffset\t{info.master_commit_log_max_offset}\n"
            f"#SlaveNum\t{len(info.ha_connection_info)}\n#InSyncSlaveNum\t{info.in_sync_slave_nums}\n",
            jformat(
                "%-32s  %-16s %16s %16s %16s %16s\n",
                "#SlaveAddr",
                "#SlaveAckOffset",
                "#Diff",
                "#TransferSpeed(KB/s)",
                "#Status",
                "#TransferFromWhere",
            ),
        ]
        for c in info.ha_connection_info:
            out.append(
                jformat(
                    "%-32s  %-16d %16d %16.2f %16s %16d\n",
                    c.addr,
                    c.slave_ack_offset,
                    c.diff,
                    c.transferred_byte_in_second / 1024.0,
                    "OK" if c.in_sync else "Fall Behind",
                    c.transfer_from_where,
                )
            )
        return "".join(out)
    cl = info.ha_client_runtime_info
    return (
        f"\n#MasterAddr\t{jstr(cl.master_addr)}\n#CommitLogMaxOffset\t{cl.max_offset}\n"
        + jformat("#TransferSpeed(KB/s)\t%.2f\n", cl.transferred_byte_in_second / 1024.0)
        + f"#LastReadTime\t{human_time(cl.last_read_timestamp)}\n"
        + f"#LastWriteTime\t{human_time(cl.last_write_timestamp)}\n"
        + f"#MasterFlushOffset\t{cl.master_flush_offset}\n"
    )


@java_command(
    "haStatus",
    [CLUSTER, JavaOpt("b", "brokerAddr", "which broker to fetch", dest="broker_addr"), INTERVAL],
    fanout=True,
    json_doc='{"brokers": [{"addr": str, "ok": true, "ha": HARuntimeInfo} | {"addr": str, "ok": false, '
    '"error": str}], "errors": [...]?} (HARuntimeInfo: the broker\'s body, fastjson names: master, '
    "masterCommitLogMaxOffset, inSyncSlaveNums, haConnectionInfo, haClientRuntimeInfo); "
    "with -i one compact document per round",
    blocking=once,  # -i repeats it with a pause on the loop
)
async def ha_status(
    inv: Invocation, cluster_name: str | None, broker_addr: str | None, interval: str | None
) -> None:
    need_target(broker_addr, cluster_name)
    admin = inv.admin

    async def one(compact: bool) -> None:
        addrs = await master_addrs(inv, broker_addr, cluster_name)
        infos, rows = await inv.on_each(addrs, admin.controller.get_broker_ha_status)
        inv.out.emit(HaStatus(rows, infos, inv.error_list()), compact=compact)

    await _repeat(inv, interval, one)


@dataclass(frozen=True, slots=True)
class HaStatus(Result):
    """haStatus: each master's HA runtime info (``infos``: of the masters that answered)."""

    brokers: list[dict[str, Any]]
    infos: dict[str, Any]
    errors: Errors

    def text(self) -> str:
        return "".join(
            _ha_text(r["addr"], self.infos[r["addr"]]) for r in self.brokers if r["addr"] in self.infos
        )

    def data(self) -> dict[str, Any]:
        rows = [
            {**r, "ha": self.infos[r["addr"]].to_json_obj()} if r["addr"] in self.infos else r
            for r in self.brokers
        ]
        return with_errors({"brokers": rows}, self.errors)


# ------------------------------------------------------------------------------------- getBrokerEpoch


def _epoch_text(addr: str, cache: Any) -> str:
    out = [f"\n#clusterName\t{jstr(cache.cluster_name)}\n#brokerName\t{jstr(cache.broker_name)}"]
    out.append(f"\n#brokerAddr\t{addr}\n#brokerId\t{cache.broker_id}")
    for e in _closed_epochs(cache):
        out.append(f"\n#Epoch: {e.java_text()}")
    out.append("\n")
    return "".join(out)


def _closed_epochs(cache: Any) -> list[Any]:
    """The epochs as the Java tool shows them: the last one ends at the broker's max offset."""
    from mqadmin.protocol.bodies.controller import EpochEntry

    entries = [EpochEntry(e.epoch, e.start_offset, e.end_offset) for e in cache.epoch_list]
    if entries:
        entries[-1].end_offset = cache.max_offset
    return entries


@java_command(
    "getBrokerEpoch",
    [CLUSTER, JavaOpt("b", "brokerName", "which broker to fetch", dest="broker_name"), INTERVAL],
    fanout=True,
    json_doc='{"brokers": [{"addr": str, "ok": true, "clusterName": str, "brokerName": str, "brokerId": int, '
    '"maxOffset": int, "epochs": [{"epoch": int, "startOffset": int, "endOffset": int}]} | '
    '{"addr": str, "ok": false, "error": str}], "errors": [...]?} (the last epoch ends at maxOffset)',
    blocking=once,  # -i repeats it with a pause on the loop
)
async def get_broker_epoch(
    inv: Invocation, cluster_name: str | None, broker_name: str | None, interval: str | None
) -> None:
    need_target(broker_name, cluster_name)
    admin = inv.admin

    async def one(compact: bool) -> None:
        if broker_name is not None:
            name = broker_name.strip()
            addrs = await admin.controller.fetch_broker_member_addrs(name)
            if not addrs:
                _not_found(inv, f"no broker named {name!r} is registered with the name server", compact)
                return
        else:
            addrs = await admin.brokers.fetch_master_and_slave_addrs((cluster_name or "").strip())
        caches, rows = await inv.on_each(addrs, admin.controller.get_broker_epoch_cache)
        inv.out.emit(BrokerEpochs(rows, caches, inv.error_list()), compact=compact)

    await _repeat(inv, interval, one)


@dataclass(frozen=True, slots=True)
class BrokerEpochs(Result):
    """getBrokerEpoch: each broker's epochs (``caches``: of the brokers that answered)."""

    brokers: list[dict[str, Any]]
    caches: dict[str, Any]
    errors: Errors

    def text(self) -> str:
        return "".join(
            _epoch_text(r["addr"], self.caches[r["addr"]]) for r in self.brokers if r["addr"] in self.caches
        )

    def data(self) -> dict[str, Any]:
        rows = []
        for row in self.brokers:
            c = self.caches.get(row["addr"])
            if c is not None:
                epochs = [
                    {"epoch": e.epoch, "startOffset": e.start_offset, "endOffset": e.end_offset}
                    for e in _closed_epochs(c)
                ]
                who = {"clusterName": c.cluster_name, "brokerName": c.broker_name, "brokerId": c.broker_id}
                row = {**row, **who, "maxOffset": c.max_offset, "epochs": epochs}
            rows.append(row)
        return with_errors({"brokers": rows}, self.errors)


# ------------------------------------------------------------------------------------- getSyncStateSet


def _sync_text(table: dict[str, Any]) -> str:
    out: list[str] = []
    for name in java_hash_order(list(table)):
        r = table[name]
        out.append(
            f"\n#brokerName\t{name}\n#MasterBrokerId\t{jstr(r.master_broker_id)}\n"
            f"#MasterAddr\t{jstr(r.master_address)}\n#MasterEpoch\t{r.master_epoch}\n"
            f"#SyncStateSetEpoch\t{r.sync_state_set_epoch}\n#SyncStateSetNums\t{len(r.in_sync_replicas)}\n"
        )
        out.extend(f"\nInSyncReplica:\t{m.java_text()}\n" for m in r.in_sync_replicas)
        out.extend(f"\nNotInSyncReplica:\t{m.java_text()}\n" for m in r.not_in_sync_replicas)
    return "".join(out)


@dataclass(frozen=True, slots=True)
class SyncStates(Result):
    """getSyncStateSet: each broker set's master and in-sync replicas, as the controller holds them."""

    info: Any

    def text(self) -> str:
        return _sync_text(self.info.replicas_info_table)

    def data(self) -> dict[str, Any]:
        result: dict[str, Any] = self.info.to_json_obj()
        return result


@java_command(
    "getSyncStateSet",
    [
        JavaOpt(
            "a", "controllerAddress", "the address of controller", required=True, dest="controller_address"
        ),
        CLUSTER,
        JavaOpt("b", "brokerName", "which broker to fetch", dest="broker_name"),
        INTERVAL,
    ],
    json_doc='{"replicasInfoTable": {"<broker name>": {"masterBrokerId": int?, "masterAddress": str?, '
    '"masterEpoch": int, "syncStateSetEpoch": int, "inSyncReplicas": [ReplicaIdentity], '
    '"notInSyncReplicas": [ReplicaIdentity]}}} (ReplicaIdentity: {"brokerName", "brokerId", '
    '"brokerAddress", "alive"}); with -i one compact document per round',
    blocking=once,  # -i repeats it with a pause on the loop
)
async def get_sync_state_set(
    inv: Invocation,
    controller_address: str,
    cluster_name: str | None,
    broker_name: str | None,
    interval: str | None,
) -> None:
    need_target(broker_name, cluster_name)
    controllers = _controllers(controller_address)
    if not controllers:
        raise CommandError("-a names no controller", ExitCode.USAGE)
    admin = inv.admin

    async def one(compact: bool) -> None:
        if broker_name is not None:
            wanted = [broker_name.strip()]
        else:
            wanted = await admin.brokers.fetch_broker_names((cluster_name or "").strip())
        info = await admin.controller.get_in_sync_state_data(controllers[0], wanted)
        inv.out.emit(SyncStates(info), compact=compact)
        if not info.replicas_info_table:
            known = f"the controller at {controllers[0]} knows no broker set of {', '.join(wanted)}"
            _not_found(inv, known, compact)

    await _repeat(inv, interval, one)


# ------------------------------------------------------------------------------------- metadata


@java_command(
    "getControllerMetaData",
    [
        JavaOpt(
            "a", "controllerAddress", "the address of controller", required=True, dest="controller_address"
        )
    ],
    json_doc='{"group": str?, "controllerLeaderId": str?, "controllerLeaderAddress": str?, '
    '"isLeader": bool, "peers": [str]}',
)
async def get_controller_metadata(inv: Invocation, controller_address: str) -> None:
    meta = await inv.admin.controller.get_controller_metadata(controller_address.strip())
    peers = [p for p in (meta.peers or "").split(";") if p] if meta.peers else []
    data = {
        "group": meta.group,
        "controllerLeaderId": meta.controller_leader_id,
        "controllerLeaderAddress": meta.controller_leader_address,
        "isLeader": meta.is_leader,
        "peers": peers,
    }
    text = (
        f"\n#ControllerGroup\t{jstr(meta.group)}\n#ControllerLeaderId\t{jstr(meta.controller_leader_id)}"
        f"\n#ControllerLeaderAddress\t{jstr(meta.controller_leader_address)}"
        + "".join(f"\n#Peer:\t{p}" for p in peers)
        + "\n"
    )
    inv.out.emit(Plain(data, text))


# ------------------------------------------------------------------------------------- config


@java_command(
    "getControllerConfig",
    [CONTROLLER_LIST],
    fanout=True,
    json_doc='{"<controller>": {"<key>": "<value>"}} (keys sorted)',
)
async def get_controller_config(inv: Invocation, controller_address: str) -> None:
    controllers = _controllers(controller_address)
    if not controllers:
        raise CommandError("-a names no controller", ExitCode.USAGE)
    answers = await inv.admin.controller.get_controller_config_answers(controllers)
    for addr, answer in answers.results.items():
        if answer.warning:
            inv.warn(f"controller {addr}: {answer.warning}")
    emit_server_configs(inv, config_settings(answers))


@java_command(
    "updateControllerConfig",
    [
        CONTROLLER_LIST,
        JavaOpt("k", "key", "config key", required=True),
        JavaOpt("v", "value", "config value", required=True),
    ],
    fanout=True,
    json_doc='{"key": str, "value": str, "controllers": [str]}',
    epilog="--dry-run shows, per controller, the value now and the one it would get (with --json: dryRun "
    "and a plan of {role, addr, action, changes}), changing nothing. On a terminal that plan is shown and "
    "confirmed first (--yes does not ask).",
    own=safety_options(),
)
async def update_controller_config(
    inv: Invocation, controller_address: str, key: str, value: str, dry_run: bool, yes: bool
) -> None:
    from mqadmin.protocol.configentry import config_entry_refusal

    k, v = key.strip(), value.strip()
    controllers = _controllers(controller_address)
    if not controllers:
        raise CommandError("-a names no controller", ExitCode.USAGE)
    for addr in controllers:
        check_controller_addr(addr)
    why = config_entry_refusal(k, v, value_controls=True)
    if why is not None:
        raise usage_error(why)
    if plan_shown(dry_run, yes):
        now = answers(await inv.admin.controller.get_controller_config(controllers))
        steps = [setting_step(inv, "controller", a, settings, k, v) for a, settings in now.items()]
        title = f"update controller config {k}={v}"
        if dry_run:
            show_plan(inv, title, steps, {"key": k, "value": v, "controllers": []})
            return
        confirm(title, steps, yes)
    result = await inv.admin.controller.update_controller_config({k: v}, controllers)
    raise_if_failed(inv, result)
    text = f"update controller config success![{', '.join(controllers)}]\n{k} : {v}\n"
    inv.out.emit(Plain({"key": k, "value": v, "controllers": result.order}, text))


# ------------------------------------------------------------------------------------- electMaster

_BROKER_NAME_OPT = JavaOpt(
    "bn",
    "brokerName",
    "The broker name of the replicas that require to be manipulated",
    required=True,
    dest="broker_name",
)


@java_command(
    "electMaster",
    [
        JavaOpt(
            "a", "controllerAddress", "The address of controller", required=True, dest="controller_address"
        ),
        JavaOpt(
            "b",
            "brokerId",
            "The id of the broker which requires to become master",
            required=True,
            dest="broker_id",
        ),
        _BROKER_NAME_OPT,
        JavaOpt("c", "clusterName", "the clusterName of broker", required=True, dest="cluster_name"),
    ],
    json_doc='{"clusterName": str, "brokerName": str, "masterBrokerId": int?, "masterAddress": str?, '
    '"masterEpoch": int?, "syncStateSetEpoch": int?, "brokerAddrs": {"<broker id>": str}}',
    epilog="--dry-run says which broker the controller would be asked to elect (with --json: dryRun and "
    "a plan of {role, addr, action, changes}), changing nothing. On a terminal the plan is shown and "
    "confirmed first (--yes does not ask).",
    own=safety_options(),
)
async def elect_master(
    inv: Invocation,
    controller_address: str,
    broker_id: str,
    broker_name: str,
    cluster_name: str,
    dry_run: bool,
    yes: bool,
) -> None:
    cluster, name = cluster_name.strip(), broker_name.strip()
    bid = parse_long(broker_id, "-b")
    addr = controller_address.strip()
    steps = [Step("controller", addr, f"elect broker {bid} of {name} (cluster {cluster}) as the master")]
    title = f"elect a master for broker [{name}]"
    if dry_run:
        doc = {"clusterName": cluster, "brokerName": name, "masterBrokerId": bid}
        show_plan(inv, title, steps, doc)
        return
    confirm(title, steps, yes)
    got, group = await inv.admin.controller.elect_master(controller_address.strip(), cluster, name, bid)
    members = group.broker_addrs if group is not None else {}
    data = {
        "clusterName": cluster,
        "brokerName": name,
        "masterBrokerId": got.master_broker_id,
        "masterAddress": got.master_address,
        "masterEpoch": got.master_epoch,
        "syncStateSetEpoch": got.sync_state_set_epoch,
        "brokerAddrs": {str(k): members[k] for k in sorted(members)},
    }
    text = (
        f"\n#ClusterName\t{cluster}\n#BrokerName\t{name}\n#BrokerMasterAddr\t{jstr(got.master_address)}"
        f"\n#MasterEpoch\t{jstr(got.master_epoch)}\n#SyncStateSetEpoch\t{jstr(got.sync_state_set_epoch)}\n"
    )
    inv.out.emit(Plain(data, text))


# ------------------------------------------------------------------------------------- cleanBrokerMetadata


@java_command(
    "cleanBrokerMetadata",
    [
        JavaOpt(
            "a", "controllerAddress", "The address of controller", required=True, dest="controller_address"
        ),
        JavaOpt(
            "b",
            "brokerControllerIdsToClean",
            "The brokerController id list which requires to clean metadata. eg: 1;2;3, means that clean "
            "broker-1, broker-2 and broker-3",
            dest="broker_ids",
        ),
        _BROKER_NAME_OPT,
        JavaOpt("c", "clusterName", "The clusterName of broker", dest="cluster_name"),
        JavaOpt(
            "l",
            "cleanLivingBroker",
            "Whether clean up living brokers,default value is false",
            has_arg=False,
            dest="clean_living",
        ),
    ],
    json_doc='{"brokerName": str, "clusterName": str?, "brokerControllerIdsToClean": str?, '
    '"cleanLivingBroker": bool}',
    epilog="--dry-run says what the controller would be asked to clean (with --json: dryRun and a plan "
    "of {role, addr, action, changes}), changing nothing. On a terminal the plan is shown and "
    "confirmed first (--yes does not ask).",
    own=safety_options(),
)
async def clean_broker_metadata(
    inv: Invocation,
    controller_address: str,
    broker_ids: str | None,
    broker_name: str,
    cluster_name: str | None,
    clean_living: bool,
    dry_run: bool,
    yes: bool,
) -> None:
    name = broker_name.strip()
    cluster = cluster_name.strip() if cluster_name is not None else None
    ids = broker_ids.strip() if broker_ids is not None else None
    if ids is not None:
        for part in ids.split(";"):
            parse_long(part, "-b (brokerControllerIdsToClean, e.g. 1;2;3)")
    if not clean_living and not cluster:
        raise CommandError(
            "cleanLivingBroker option is false, clusterName option can not be empty.", ExitCode.USAGE
        )
    which = f"brokers {ids}" if ids else "every broker"
    living = "including living ones" if clean_living else "not living ones"
    what = f"clean the metadata of {which} of {name} ({living})"
    steps = [Step("controller", controller_address.strip(), what)]
    title = f"clean broker [{name}] metadata on the controller"
    doc = {"brokerName": name, "clusterName": cluster, "brokerControllerIdsToClean": ids}
    if dry_run:
        show_plan(inv, title, steps, {**doc, "cleanLivingBroker": clean_living})
        return
    confirm(title, steps, yes)
    await inv.admin.controller.clean_controller_broker_data(
        controller_address.strip(), cluster, name, ids, clean_living
    )
    data = {
        "brokerName": name,
        "clusterName": cluster,
        "brokerControllerIdsToClean": ids,
        "cleanLivingBroker": clean_living,
    }
    inv.out.emit(Plain(data, f"clear broker {name} metadata from controller success! \n"))
