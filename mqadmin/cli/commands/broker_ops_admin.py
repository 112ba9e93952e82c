"""Broker operations of 5.x: setConsumeMode, addBroker, removeBroker, resetMasterFlushOffset,
setCommitLogReadAheadMode and exportPopRecord.

Text output is the Java 5.3.3 tool's, quirks included: setConsumeMode's last line has no newline,
setCommitLogReadAheadMode's banner starts with a space, and exportPopRecord exports unless ``-d`` is
``false`` (Java reads ``-d false`` as the dry run, so ``-d true`` exports, as recorded). Where Java
prints its help, prints nothing or a stack trace for a missing or bad option, this is a usage error
(one line, exit 2) before anything is sent. A command over a cluster's brokers asks each one, prints
what worked in the Java order, reports each failure on stderr and exits 6 when others answered.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mqadmin.cli.brokertargets import BROKERS_DOC, Member, bannered_members
from mqadmin.cli.command import Invocation, java_command
from mqadmin.cli.errors import usage_error
from mqadmin.cli.javaopts import JavaOpt
from mqadmin.cli.optvalues import need_target, parse_int, parse_long
from mqadmin.cli.results import Errors, Plain, Result, with_errors
from mqadmin.cli.safety import (
    Step,
    confirm,
    failed,
    plan_shown,
    probe,
    safety_options,
    setting_step,
    show_plan,
    unknown,
)
from mqadmin.protocol import names

MODES = ("PULL", "POP")
"""``MessageRequestMode`` constants (``valueOf`` is case-sensitive)."""

READ_AHEAD_KEY = "dataReadAheadEnable"
"""The broker setting a read-ahead mode sets (GET_BROKER_CONFIG shows it)."""
READ_AHEAD_ENABLE = {"0": "true", "1": "false"}
"""``dataReadAheadEnable`` after mode 0 (normal read-ahead) or 1 (random read)."""
READ_AHEAD_MODES = {"0": "normal read-ahead", "1": "random read"}


def _name(kind: str, value: str) -> str:
    """A topic or group name checked as the broker would check it (usage error if it cannot be one)."""
    why = names.check_topic(value) if kind == "topic" else names.check_group(value)
    if why is not None:
        raise usage_error(why)
    return value


# ------------------------------------------------------------------------------------- setConsumeMode


@java_command(
    "setConsumeMode",
    [
        JavaOpt("b", "brokerAddr", "create subscription group to which broker", dest="broker_addr"),
        JavaOpt("c", "clusterName", "create subscription group to which cluster", dest="cluster_name"),
        JavaOpt("t", "topicName", "topic name", required=True, dest="topic"),
        JavaOpt("g", "groupName", "consumer group name", required=True, dest="group"),
        JavaOpt("m", "mode", "consume mode. PULL/POP", required=True),
        JavaOpt("q", "popShareQueueNum", "num of queue which share in pop mode", dest="pop_share"),
    ],
    fanout=True,
    json_doc='{"topic": str, "group": str, "mode": "PULL"|"POP", "popShareQueueNum": int, '
    f"{BROKERS_DOC}}} (-c: every master of the cluster)",
    epilog="--dry-run shows, per broker, the group's consume mode on the topic now and the one it would "
    "get (with --json: dryRun and a plan of {role, addr, action, changes}), changing nothing. On a "
    "terminal that plan is shown and confirmed first (--yes does not ask).",
    own=safety_options(),
)
async def set_consume_mode(
    inv: Invocation,
    broker_addr: str | None,
    cluster_name: str | None,
    topic: str,
    group: str,
    mode: str,
    pop_share: str | None,
    dry_run: bool,
    yes: bool,
) -> None:
    t, g, m = _name("topic", topic.strip()), _name("group", group.strip()), mode.strip()
    if m not in MODES:
        raise usage_error(f"-m takes PULL or POP, not {mode!r}")
    share = parse_int(pop_share, "-q") if pop_share is not None else 0
    need_target(broker_addr, cluster_name)
    admin = inv.admin
    if broker_addr is not None:
        addrs = [broker_addr.strip()]
    else:
        addrs = await admin.brokers.fetch_master_addrs((cluster_name or "").strip())
    data = {"topic": t, "group": g, "mode": m, "popShareQueueNum": share}
    if plan_shown(dry_run, yes):
        wanted = _consume_mode(m, share)
        tables = await probe(inv, addrs, admin.broker_ops.get_all_message_request_mode)
        steps = [_consume_mode_step(inv, a, tables[a], t, g, wanted) for a in addrs]
        title = f"set the consume mode of group [{g}] on topic [{t}] to {wanted}"
        if dry_run:
            show_plan(inv, title, steps, {**data, "brokers": [{"addr": a, "ok": None} for a in addrs]})
            return
        confirm(title, steps, yes)
    if broker_addr is not None:  # one broker: its failure is the command's (Java prints nothing)
        await admin.broker_ops.set_message_request_mode(addrs[0], t, g, m, share)
        rows = [{"addr": addrs[0], "ok": True}]
    else:
        _, rows = await inv.on_each(
            addrs, lambda a: admin.broker_ops.set_message_request_mode(a, t, g, m, share)
        )
    inv.out.emit(ConsumeModeSet(data, rows, inv.error_list()))


def _consume_mode(mode: str, share: int) -> str:
    return f"{mode} (popShareQueueNum {share})"


def _consume_mode_step(inv: Invocation, addr: str, table: Any, topic: str, group: str, wanted: str) -> Step:
    """The group's mode on the topic in the broker's table now (PULL when it has none), and the one
    it would get."""
    if failed(table):
        return Step("broker", addr, unknown(inv, table))
    body = table.table.get(topic, {}).get(group)
    if body is None:
        return Step("broker", addr, f"none set (PULL by default) -> {wanted}")
    now = _consume_mode(body.mode, body.pop_share_queue_num)
    if now == wanted:
        return Step("broker", addr, f"{wanted} already", changes=False)
    return Step("broker", addr, f"{now} -> {wanted}")


@dataclass(slots=True, frozen=True)
class ConsumeModeSet(Result):
    """setConsumeMode: a line per broker that took it, then the mode set (printed whatever happened)."""

    doc: dict[str, Any]
    brokers: list[dict[str, Any]]
    errors: Errors

    def text(self) -> str:
        d = self.doc
        done = "".join(f"set consume mode to {r['addr']} success.\n" for r in self.brokers if r["ok"])
        return done + (
            f"topic[{d['topic']}] group[{d['group']}] consume mode[{d['mode']}] "
            f"popShareQueueNum[{d['popShareQueueNum']}]"
        )

    def data(self) -> dict[str, Any]:
        return with_errors({**self.doc, "brokers": self.brokers}, self.errors)


# ------------------------------------------------------------------------------------- container


@java_command(
    "addBroker",
    [
        JavaOpt("c", "brokerContainerAddr", "Broker container address", required=True, dest="container"),
        JavaOpt("b", "brokerConfigPath", "Broker config path", required=True, dest="config_path"),
    ],
    json_doc='{"container": str, "brokerConfigPath": str} (the path is read by the container)',
    epilog="--dry-run says what the container would be asked to start (with --json: dryRun and a plan "
    "of {role, addr, action, changes}), sending nothing. On a terminal the plan is shown and confirmed "
    "first (--yes does not ask).",
    own=safety_options(),
)
async def add_broker(inv: Invocation, container: str, config_path: str, dry_run: bool, yes: bool) -> None:
    addr, path = container.strip(), config_path.strip()
    why = names.bad_text(path)
    if why is not None or not path:
        raise usage_error(f"-b {why or 'is empty'}")
    data = {"container": addr, "brokerConfigPath": path}
    steps = [Step("container", addr, f"start a broker with the config file {path} (read by the container)")]
    if _planned(inv, f"add a broker to container [{addr}]", steps, data, dry_run, yes):
        return
    await inv.admin.broker_ops.add_broker_to_container(addr, path)
    inv.out.emit(Plain(data, f"add broker to {addr} success\n"))


@java_command(
    "removeBroker",
    [
        JavaOpt("c", "brokerContainerAddr", "Broker container address", required=True, dest="container"),
        JavaOpt(
            "b",
            "brokerIdentity",
            "Information to identify a broker: clusterName:brokerName:brokerId(dLedgerId for dLedger)",
            required=True,
            dest="identity",
        ),
    ],
    json_doc='{"container": str, "clusterName": str, "brokerName": str, "brokerId": int}',
    epilog="--dry-run says which broker the container would be asked to stop and remove (with --json: "
    "dryRun and a plan of {role, addr, action, changes}), sending nothing. On a terminal the plan is "
    "shown and confirmed first (--yes does not ask).",
    own=safety_options(),
)
async def remove_broker(inv: Invocation, container: str, identity: str, dry_run: bool, yes: bool) -> None:
    addr = container.strip()
    parts = identity.strip().split(":")
    if len(parts) < 3:
        raise usage_error(f"-b takes clusterName:brokerName:brokerId, not {identity!r}")
    cluster, broker = parts[0].strip(), parts[1].strip()
    broker_id = parse_long(parts[2], "the brokerId of -b")
    if broker_id < 0:
        raise usage_error("brokerId can't be negative")
    for kind, value in (("cluster", cluster), ("broker", broker)):
        why = names.check_name(kind, value)
        if why is not None:
            raise usage_error(why)
    data = {"container": addr, "clusterName": cluster, "brokerName": broker, "brokerId": broker_id}
    who = f"broker {broker_id} of {broker} (cluster {cluster})"
    steps = [Step("container", addr, f"stop and remove {who}")]
    if _planned(inv, f"remove a broker from container [{addr}]", steps, data, dry_run, yes):
        return
    await inv.admin.broker_ops.remove_broker_from_container(addr, cluster, broker, broker_id)
    inv.out.emit(Plain(data, f"remove broker from {addr} success\n"))


def _planned(
    inv: Invocation, title: str, steps: list[Step], doc: dict[str, Any], dry_run: bool, yes: bool
) -> bool:
    """A plan that takes no read: shown for ``--dry-run`` (True: nothing more to do), or confirmed."""
    if dry_run:
        show_plan(inv, title, steps, doc)
        return True
    confirm(title, steps, yes)
    return False


# ------------------------------------------------------------------------------------- flush offset


@java_command(
    "resetMasterFlushOffset",
    [
        JavaOpt("b", "brokerAddr", "which broker to reset", dest="broker_addr"),
        JavaOpt("o", "offset", "the offset to reset at"),
    ],
    json_doc='{"brokerAddr": str, "offset": int} (a master ignores the request and succeeds)',
    epilog="--dry-run says whether the broker is a slave that would take the offset or a master that "
    "ignores it (with --json: dryRun and a plan of {role, addr, action, changes}), changing nothing. On "
    "a terminal that plan is shown and confirmed first (--yes does not ask).",
    own=safety_options(),
)
async def reset_master_flush_offset(
    inv: Invocation, broker_addr: str | None, offset: str | None, dry_run: bool, yes: bool
) -> None:
    if broker_addr is None:
        raise usage_error("give the slave broker with -b ADDR")
    if offset is None:
        raise usage_error("give the offset with -o OFFSET")
    addr, value = broker_addr.strip(), parse_long(offset, "-o")
    data = {"brokerAddr": addr, "offset": value}
    if plan_shown(dry_run, yes):
        config = (await probe(inv, [addr], inv.admin.brokers.get_broker_config))[addr]
        if failed(config):
            step = Step("broker", addr, unknown(inv, config))
        elif config.get("brokerId", "0").strip() == "0":  # the broker's own test, as in Java
            step = Step("broker", addr, "a master (brokerId 0): it ignores the request", changes=False)
        else:
            step = Step(
                "broker", addr, f"a slave (brokerId {config['brokerId']}): its master flush offset -> {value}"
            )
        title = f"reset the master flush offset of broker [{addr}] to {value}"
        if dry_run:
            show_plan(inv, title, [step], data)
            return
        confirm(title, [step], yes)
    await inv.admin.broker_ops.reset_master_flush_offset(addr, value)
    inv.out.emit(Plain(data, f"reset master flush offset to {value} success\n"))


# ------------------------------------------------------------------------------------- read ahead


@java_command(
    "setCommitLogReadAheadMode",
    [
        JavaOpt("b", "brokerAddr", "set which broker", dest="broker_addr"),
        JavaOpt("c", "clusterName", "set which cluster", dest="cluster_name"),
        JavaOpt(
            "m",
            "commitLogReadAheadMode",
            "set the CommitLog read ahead mode; 0 is default, 1 random read",
            required=True,
            dest="mode",
        ),
    ],
    fanout=True,
    json_doc='{"mode": "0"|"1", "brokers": [{"addr": str, "role": "master"|"slave", "master": str?, '
    '"ok": bool, "result": str|null?, "error": str?}], "errors": [...]?} (result: the broker\'s remark)',
    epilog="--dry-run shows, per broker, its dataReadAheadEnable now and the one the mode sets (with "
    "--json: dryRun and a plan of {role, addr, action, changes}), changing nothing. On a terminal that "
    "plan is shown and confirmed first (--yes does not ask).",
    own=safety_options(),
)
async def set_commitlog_read_ahead_mode(
    inv: Invocation, broker_addr: str | None, cluster_name: str | None, mode: str, dry_run: bool, yes: bool
) -> None:
    from mqadmin.admin.brokers import NO_MASTER

    m = mode.strip()
    if m not in ("0", "1"):
        raise usage_error("set the read mode error; 0 is default, 1 random read")
    need_target(broker_addr, cluster_name)
    admin = inv.admin
    members = await bannered_members(inv, broker_addr, cluster_name)
    targets = [mb.addr for mb in members if mb.addr != NO_MASTER]
    if plan_shown(dry_run, yes):
        enable = READ_AHEAD_ENABLE[m]
        configs = await probe(inv, targets, admin.brokers.get_broker_config)
        steps = [setting_step(inv, "broker", a, configs[a], READ_AHEAD_KEY, enable) for a in targets]
        title = f"set the commit-log read-ahead mode to {m} ({READ_AHEAD_MODES[m]})"
        if dry_run:
            rows = [mb.row({"ok": None}) for mb in members if mb.addr != NO_MASTER]
            show_plan(inv, title, steps, {"mode": m, "brokers": rows})
            return
        confirm(title, steps, yes)
    results, rows = await inv.on_each(targets, lambda a: admin.broker_ops.set_commitlog_read_ahead_mode(a, m))
    row_of = {r["addr"]: r for r in rows}
    out_rows: list[dict[str, Any]] = []
    for member in members:
        if member.addr == NO_MASTER:
            continue
        row = member.row(row_of[member.addr])
        if member.addr in results:
            row["result"] = results[member.addr]
        out_rows.append(row)
    inv.out.emit(ReadAheadSet(m, members, out_rows, inv.error_list()))


@dataclass(slots=True, frozen=True)
class ReadAheadSet(Result):
    """setCommitLogReadAheadMode: Java's banner per master (or group without one) and slave, each
    followed by the broker's remark when it answered."""

    mode: str
    members: list[Member]
    brokers: list[dict[str, Any]]
    errors: Errors

    def text(self) -> str:
        answered = {r["addr"]: r for r in self.brokers if r["ok"]}
        lines: list[str] = []
        for member in self.members:
            lines.append(" " + member.banner)  # Java's banner starts with a space here
            row = answered.get(member.addr)
            if row is not None:
                result = row.get("result")
                lines.append(f"commitLog set readAhead mode rstStr{'null' if result is None else result}\n")
        return "".join(lines)

    def data(self) -> dict[str, Any]:
        return with_errors({"mode": self.mode, "brokers": self.brokers}, self.errors)


# ------------------------------------------------------------------------------------- pop records


@java_command(
    "exportPopRecord",
    [
        JavaOpt("c", "clusterName", "choose one cluster to export", dest="cluster_name"),
        JavaOpt("b", "brokerAddr", "choose one broker to export", dest="broker_addr"),
        JavaOpt("d", "dryRun", "no actual changes will be made", dest="dry_run"),
    ],
    fanout=True,
    json_doc='{"dryRun": bool, "brokers": [{"brokerName": str, "addr": str, "ok": bool, "error": str?}], '
    '"errors": [...]?} (dryRun is true only for -d false, as in Java)',
)
async def export_pop_record(
    inv: Invocation, cluster_name: str | None, broker_addr: str | None, dry_run: str | None
) -> None:
    from mqadmin.protocol.javacoll import java_hash_order

    dry = dry_run is not None and dry_run.lower() == "false"
    need_target(broker_addr, cluster_name)
    admin = inv.admin
    targets: list[tuple[str, str]] = []  # (brokerName, addr)
    if broker_addr is not None:
        addr = broker_addr.strip()
        props = await admin.brokers.get_broker_config(addr)
        targets.append((props.get("brokerName", "null"), addr))
    else:
        from mqadmin.admin.brokers import ClusterNotFoundError, check_cluster_name

        cluster = check_cluster_name((cluster_name or "").strip())
        info = await admin.namesrv.examine_broker_cluster_info()
        members = (info.cluster_addr_table or {}).get(cluster)
        if members is None:  # Java prints nothing at all
            raise ClusterNotFoundError(cluster)
        for name in java_hash_order(members):
            bd = (info.broker_addr_table or {}).get(name)
            if bd is None or not bd.broker_addrs:
                continue
            ids = java_hash_order(list(bd.broker_addrs))
            targets.extend((name, bd.broker_addrs[i]) for i in ids)

    async def export(addr: str) -> None:
        if not dry:
            await admin.broker_ops.export_pop_records(addr)

    _, rows = await inv.on_each([a for _, a in targets], export)
    row_of = {r["addr"]: r for r in rows}
    out_rows = [{"brokerName": name, **row_of[addr]} for name, addr in targets]
    inv.out.emit(PopRecordsExported(dry, out_rows, inv.error_list()))


@dataclass(slots=True, frozen=True)
class PopRecordsExported(Result):
    """exportPopRecord: a line per broker that exported (or, with ``-d false``, would have)."""

    dry: bool
    brokers: list[dict[str, Any]]
    errors: Errors

    def text(self) -> str:
        dry = "true" if self.dry else "false"
        return "".join(
            f"Export broker records, brokerName={r['brokerName']}, brokerAddr={r['addr']}, dryRun={dry}\n"
            for r in self.brokers
            if r["ok"]
        )

    def data(self) -> dict[str, Any]:
        return with_errors({"dryRun": self.dry, "brokers": self.brokers}, self.errors)
