"""Cold data flow control commands of the Java 5.3.3 tool: getColdDataFlowCtrInfo,
updateColdDataFlowCtrGroupConfig and removeColdDataFlowCtrGroupConfig.

Text output is the 5.3.3 tool's: the broker's report as fastjson prints a ``JSONObject`` (a
``HashMap`` at every level, TAB-indented), with each group's ``lastColdReadTimeMills`` and
``createTimeMills`` turned into ``...Format`` dates. ``-c`` asks the cluster's brokers at once (every
member for the report, the masters for the updates, as Java); a broker that fails is reported on
stderr (exit 6 when others answered). Java prints nothing when neither ``-b`` nor ``-c`` is given;
that is a usage error here (exit 2), and so is a group name Java's rules refuse or a threshold that is
not a whole number of bytes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mqadmin.cli.brokertargets import BROKERS_DOC, Member, bannered_members, master_addrs
from mqadmin.cli.command import Invocation, java_command
from mqadmin.cli.errors import CommandError
from mqadmin.cli.exitcodes import ExitCode
from mqadmin.cli.javaopts import JavaOpt
from mqadmin.cli.nameargs import group_arg
from mqadmin.cli.optvalues import need_target, parse_long
from mqadmin.cli.plannedchange import planned_change
from mqadmin.cli.results import Errors, Result, with_errors
from mqadmin.cli.safety import Step, safety_options
from mqadmin.protocol.javacoll import java_hash_order


def _hash_map(value: Any) -> Any:
    """A parsed JSON value as ``JSON.parseObject`` holds it: every object a ``HashMap``."""
    if isinstance(value, dict):
        return {k: _hash_map(value[k]) for k in java_hash_order(list(value))}
    if isinstance(value, list):
        return [_hash_map(v) for v in value]
    return value


def render_info(text: str) -> tuple[Any, str]:
    """(the report as JSON data, the text Java prints after the banner) of one broker's answer."""
    from mqadmin.cli.javatext import fastjson_pretty
    from mqadmin.cli.javatime import format_date
    from mqadmin.protocol import fastjson
    from mqadmin.protocol.errors import ProtocolError

    try:
        report = fastjson.loads(text)
    except ProtocolError as e:
        raise CommandError(f"the broker's cold data report is not JSON: {e}") from None
    if not isinstance(report, dict):
        raise CommandError("the broker's cold data report is not a JSON object")
    shown = dict(report)
    runtime = report.get("runtimeTable")
    if isinstance(runtime, dict):
        table: dict[str, Any] = {}
        for group, entry in runtime.items():
            if isinstance(entry, dict):
                entry = dict(entry)
                for ms_key, text_key in (
                    ("lastColdReadTimeMills", "lastColdReadTimeFormat"),
                    ("createTimeMills", "createTimeFormat"),
                ):
                    ms = entry.pop(ms_key, None)
                    if isinstance(ms, int):
                        entry[text_key] = format_date(ms)
            table[group] = entry
        shown["runtimeTable"] = table
    return report, fastjson_pretty(_hash_map(shown)) + "\n"


# ------------------------------------------------------------------------------------- getColdDataFlowCtrInfo


@java_command(
    "getColdDataFlowCtrInfo",
    [
        JavaOpt("b", "brokerAddr", "get from which broker", dest="broker_addr"),
        JavaOpt("c", "clusterName", "get from which cluster", dest="cluster_name"),
    ],
    fanout=True,
    json_doc='{"brokers": [{"addr": str, "role": "master"|"slave", "master": str?, "ok": bool, '
    '"info": {"runtimeTable": {group: {"coldAcc": int, "createTimeMills": int, '
    '"lastColdReadTimeMills": int}}, '
    '"configTable": {group: int}, "cgColdReadThreshold": int, "globalColdReadThreshold": int, '
    '"globalAcc": int}|null?, "error": str?}], "errors": [...]?}',
)
async def get_cold_data_flow_ctr_info(
    inv: Invocation, broker_addr: str | None, cluster_name: str | None
) -> None:
    from mqadmin.admin.brokers import NO_MASTER

    need_target(broker_addr, cluster_name)
    members = [m for m in await bannered_members(inv, broker_addr, cluster_name) if m.addr != NO_MASTER]
    texts, rows = await inv.on_each(
        [m.addr for m in members], inv.admin.cold_data.get_cold_data_flow_ctr_info
    )
    row_of = {r["addr"]: r for r in rows}
    inv.out.emit(ColdDataFlow(members, [m.row(row_of[m.addr]) for m in members], texts, inv.error_list()))


@dataclass(slots=True, frozen=True)
class ColdDataFlow(Result):
    """getColdDataFlowCtrInfo: each broker's cold-read flow control table (``tables``: the text each
    broker that answered sent, None for none), under Java's banner."""

    members: list[Member]
    brokers: list[dict[str, Any]]
    tables: dict[str, str | None]
    errors: Errors

    def text(self) -> str:
        lines: list[str] = []
        for member in (m for m in self.members if m.addr in self.tables):
            lines.append(" " + member.banner)  # Java's banner starts with a space here
            table = self.tables[member.addr]
            lines.append(
                f"Broker[{member.addr}] has no cold ctr table !\n" if table is None else render_info(table)[1]
            )
        return "".join(lines)

    def data(self) -> dict[str, Any]:
        rows = []
        for row in self.brokers:
            if row["addr"] in self.tables:
                table = self.tables[row["addr"]]
                row = {**row, "info": None if table is None else render_info(table)[0]}
            rows.append(row)
        return with_errors({"brokers": rows}, self.errors)


# ------------------------------------------------------------------------------------- group thresholds


async def _masters(inv: Invocation, broker_addr: str | None, cluster_name: str | None) -> list[str]:
    need_target(broker_addr, cluster_name)
    return await master_addrs(inv, broker_addr, cluster_name)


def _threshold(text: str) -> str:
    value = text.strip()
    if parse_long(value, "-v") < 0:
        raise CommandError("-v takes a number of bytes, 0 or more", ExitCode.USAGE)
    return value


def _step(addr: str, group: str, value: str | None, report: str | None) -> Step:
    """One master's line of the plan of setting (``value``) or removing (None) ``group``'s threshold:
    the threshold it reports now (``configTable``) and after."""
    try:
        table = render_info(report)[0].get("configTable") if report is not None else None
    except CommandError as e:
        return Step("broker", addr, f"cannot tell ({e})")
    now = table.get(group) if isinstance(table, dict) else None
    if value is None:
        if now is None:
            return Step("broker", addr, f"no threshold for {group}, nothing to remove", changes=False)
        return Step("broker", addr, f"remove the threshold of {group} ({now} bytes)")
    if now is not None and str(now) == str(int(value)):
        return Step("broker", addr, f"threshold of {group} is already {now} bytes", changes=False)
    was = "not set" if now is None else f"{now} bytes"
    return Step("broker", addr, f"threshold of {group}: {was} -> {int(value)} bytes")


_SAFETY_EPILOG = (
    "--dry-run lists, per master, the group's threshold now and after, changing nothing (with --json: "
    "dryRun and a plan of {role, addr, action, changes}). On a terminal the plan is shown and confirmed "
    "first (--yes does not ask)."
)


@java_command(
    "updateColdDataFlowCtrGroupConfig",
    [
        JavaOpt("b", "brokerAddr", "update which broker", dest="broker_addr"),
        JavaOpt("c", "clusterName", "update which cluster", dest="cluster_name"),
        JavaOpt("g", "consumerGroup", "specific consumerGroup", required=True, dest="consumer_group"),
        JavaOpt("v", "threshold", "cold read threshold value", required=True),
    ],
    fanout=True,
    json_doc=f'{{"consumerGroup": str, "threshold": int, {BROKERS_DOC}}}',
    epilog=_SAFETY_EPILOG,
    own=safety_options(),
)
async def update_cold_data_flow_ctr_group_config(
    inv: Invocation,
    broker_addr: str | None,
    cluster_name: str | None,
    consumer_group: str,
    threshold: str,
    dry_run: bool,
    yes: bool,
) -> None:
    group = group_arg(consumer_group)
    value = _threshold(threshold)
    admin = inv.admin
    await planned_change(
        inv,
        await _masters(inv, broker_addr, cluster_name),
        look=admin.cold_data.get_cold_data_flow_ctr_info,
        step=lambda a, report: _step(a, group, value, report),
        what=f"set the threshold of {group} to {int(value)} bytes",
        title=f"set the cold read threshold of consumer group [{group}]",
        data={"consumerGroup": group, "threshold": int(value)},
        dry_run=dry_run,
        yes=yes,
        call=lambda a: admin.cold_data.update_cold_data_flow_ctr_group_config(a, {group: value}),
        line="updateColdDataFlowCtrGroupConfig success, %s\n",
    )


@java_command(
    "removeColdDataFlowCtrGroupConfig",
    [
        JavaOpt("b", "brokerAddr", "update which broker", dest="broker_addr"),
        JavaOpt("c", "clusterName", "update which cluster", dest="cluster_name"),
        JavaOpt(
            "g",
            "consumerGroup",
            "the consumer group will remove from the config",
            required=True,
            dest="consumer_group",
        ),
    ],
    fanout=True,
    json_doc=f'{{"consumerGroup": str, {BROKERS_DOC}}}',
    epilog=_SAFETY_EPILOG,
    own=safety_options(),
)
async def remove_cold_data_flow_ctr_group_config(
    inv: Invocation,
    broker_addr: str | None,
    cluster_name: str | None,
    consumer_group: str,
    dry_run: bool,
    yes: bool,
) -> None:
    group = group_arg(consumer_group)
    admin = inv.admin
    await planned_change(
        inv,
        await _masters(inv, broker_addr, cluster_name),
        look=admin.cold_data.get_cold_data_flow_ctr_info,
        step=lambda a, report: _step(a, group, None, report),
        what=f"remove the threshold of {group}",
        title=f"remove the cold read threshold of consumer group [{group}]",
        data={"consumerGroup": group},
        dry_run=dry_run,
        yes=yes,
        call=lambda a: admin.cold_data.remove_cold_data_flow_ctr_group_config(a, group),
        line="remove broker cold read threshold success, %s\n",
    )
