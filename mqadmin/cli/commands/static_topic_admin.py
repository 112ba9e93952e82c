"""Static-topic commands of the Java 5.3.3 tool: updateStaticTopic and remappingStaticTopic.

Both read the topic's config and mapping on every broker, write what they found to
``<tmpdir>/<topic>-<epoch>.before`` and the plan to ``<topic>-<epoch>.after`` (printing Java's lines,
including remapping's second "old mapping data" line), then send each broker its part. Where Java
would stop half-way, these check first: unknown brokers, a queue count over 1024, a plan that does
not add up (every logical queue once, one epoch, leaders among the targets) or that a broker would
refuse are one line on stderr and nothing is written to any broker.

``-mf`` takes a plan file (a ``.after`` file, edited or not) instead of computing one; the Java tool
declares it but never reads it (it looks for an ``f`` option). The plan is checked the same way.
``-fr true`` makes the brokers keep queues the plan leaves out (Java's ``force``).
"""

from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path
from typing import Any

from mqadmin.admin.static_topics import master_addrs
from mqadmin.admin.topics import check_topic_name
from mqadmin.atomicfile import write_atomic
from mqadmin.cli.command import Invocation, java_command
from mqadmin.cli.errors import CommandError
from mqadmin.cli.exitcodes import ExitCode
from mqadmin.cli.javaopts import JavaOpt
from mqadmin.cli.optvalues import parse_int
from mqadmin.cli.results import Plain
from mqadmin.cli.safety import Step, confirm, safety_options, show_plan
from mqadmin.protocol.bodies.cluster import ClusterInfo
from mqadmin.protocol.bodies.static_topic import (
    SUFFIX_AFTER,
    SUFFIX_BEFORE,
    TYPE_CREATE_OR_UPDATE,
    TopicConfigAndQueueMapping,
    TopicRemappingDetailWrapper,
)
from mqadmin.protocol.errors import ProtocolError
from mqadmin.protocol.javacoll import java_hash_order
from mqadmin.protocol.javanum import parse_bool
from mqadmin.protocol.staticmapping import (
    MappingError,
    check_name_epoch_num,
    check_plan,
    check_queue_num,
    complete_non_target_brokers,
    copy_plan,
    create_mapping,
    leader_id_map,
    remap,
)

TARGETS = (
    JavaOpt(
        "c",
        "clusters",
        "remapping static topic to clusters, comma separated",
        group="target",
        group_required=True,
    ),
    JavaOpt(
        "b",
        "brokers",
        "remapping static topic to brokers, comma separated",
        group="target",
        group_required=True,
    ),
)
TOPIC = JavaOpt("t", "topic", "topic name", required=True)
FORCE = JavaOpt("fr", "forceReplace", "Force replace the old mapping", dest="force_replace")

SAFETY_EPILOG = (
    "--dry-run lists, per broker, the queues it holds and will hold, writing neither a broker nor a "
    "mapping file (with --json: dryRun and a plan of {role, addr, action, changes}). On a terminal the "
    "plan is shown and confirmed first (--yes does not ask)."
)
PLAN_DOC = (
    '{"topic": str, "epoch": int, "oldMappingFile": str?, "newMappingFile": str?, '
    '"brokerToMapIn": [str], "brokerToMapOut": [str], '
    '"brokers": [{"brokerName": str, "addr": str, "readQueueNums": int, "writeQueueNums": int, '
    '"leaderOf": {"<logical queue id>": <physical queue id>}}]}'
)


# ------------------------------------------------------------------------------------- helpers


def _mapping_error(e: MappingError) -> CommandError:
    return CommandError(str(e))


def _flush(inv: Invocation, lines: list[str]) -> None:
    """What was printed before a failure (the files written), as Java prints it first."""
    if lines and not inv.out.structured:
        inv.out.text("".join(lines))


def _targets(info: ClusterInfo, clusters: str | None, brokers: str | None) -> list[str]:
    """The brokers ``-b`` names, or the brokers of the clusters ``-c`` names (unknown clusters: none)."""
    out: list[str] = []
    if brokers is not None:
        out = [b.strip() for b in brokers.strip().split(",")]
    elif clusters is not None:
        table = info.cluster_addr_table or {}
        for cluster in clusters.strip().split(","):
            out.extend(table.get(cluster.strip()) or [])
    out = [b for b in dict.fromkeys(out) if b]
    if not out:
        raise CommandError("Find none brokers, do nothing")
    addrs = master_addrs(info)
    for broker in out:
        if broker not in addrs:
            raise CommandError(f"Can't find addr for broker {broker}")
    return out


def _same_cluster_brokers(info: ClusterInfo, brokers: list[str]) -> list[str]:
    """``getAllBrokersInSameCluster``: every broker of each cluster one of ``brokers`` is in."""
    out: dict[str, None] = {}
    for broker in brokers:
        if broker in out:
            continue
        for members in (info.cluster_addr_table or {}).values():
            if broker in members:
                out.update(dict.fromkeys(members))
                break
    return list(out)


def _write_temp(wrapper: TopicRemappingDetailWrapper, after: bool) -> str:
    """``TopicQueueMappingUtils.writeToTemp``: ``<tmpdir>/<topic>-<epoch>.before`` or ``.after``."""
    suffix = SUFFIX_AFTER if after else SUFFIX_BEFORE
    path = os.path.join(tempfile.gettempdir(), f"{wrapper.topic}-{wrapper.epoch}{suffix}")
    try:
        write_atomic(path, wrapper.encode())
    except OSError as e:
        raise CommandError(f"write file failed {path}: {e}") from None
    return path


def _read_plan(path_text: str, topic: str) -> TopicRemappingDetailWrapper:
    path = Path(path_text.strip())
    try:
        wrapper = TopicRemappingDetailWrapper.decode(path.read_bytes())
    except OSError as e:
        raise CommandError(f"cannot read the mapping file {path}: {e.strerror or e}") from None
    except ProtocolError as e:
        raise CommandError(f"{path}: {e}") from None
    try:
        check_plan(topic, wrapper.broker_config_map)
    except MappingError as e:
        raise CommandError(f"{path}: {e}") from None
    return wrapper


def _plan_json(
    topic: str, epoch: int, configs: dict[str, TopicConfigAndQueueMapping], addrs: dict[str, str]
) -> list[dict[str, Any]]:
    rows = []
    for broker in sorted(configs):
        cm = configs[broker]
        assert cm.mapping_detail is not None
        rows.append(
            {
                "brokerName": broker,
                "addr": addrs.get(broker),
                "readQueueNums": cm.config.read_queue_nums,
                "writeQueueNums": cm.config.write_queue_nums,
                "leaderOf": {str(k): v for k, v in leader_id_map(cm.mapping_detail).items()},
            }
        )
    return rows


async def _cluster_view(
    inv: Invocation, topic: str, clusters: str | None, brokers: str | None
) -> tuple[ClusterInfo, list[str], dict[str, str], dict[str, TopicConfigAndQueueMapping]]:
    """What both commands start from: the cluster, the target brokers (``-c``/``-b``), each broker's
    master address, and the topic's config and mapping on every broker that has it."""
    admin = inv.admin
    info = await admin.namesrv.examine_broker_cluster_info()
    if not info.cluster_addr_table:
        raise CommandError("The Cluster info is empty")
    targets = _targets(info, clusters, brokers)
    return info, targets, master_addrs(info), await admin.static_topics.examine_topic_config_all(topic, info)


def _preflight(
    inv: Invocation,
    info: ClusterInfo,
    configs: dict[str, TopicConfigAndQueueMapping],
    current: dict[str, TopicConfigAndQueueMapping],
    addrs: dict[str, str],
    force: bool,
    lines: list[str],
) -> None:
    """The plan completed with the cluster's other brokers and checked against every broker before
    the first write; a refusal prints what was written so far (the plan files) and nothing changes."""
    complete_non_target_brokers(configs, _same_cluster_brokers(info, list(configs)))
    try:
        inv.admin.static_topics.preflight(configs, current, addrs, force)
    except MappingError as e:
        _flush(inv, lines)
        raise _mapping_error(e) from None


def _queues(cm: TopicConfigAndQueueMapping | None) -> str:
    """A broker's part of a static topic in a plan line: its queues and the logical queues it leads."""
    if cm is None or cm.mapping_detail is None:
        return "nothing"
    ids = ", ".join(str(q) for q in leader_id_map(cm.mapping_detail))
    leads = f"leads logical queues {ids}" if ids else "leads no logical queue"
    return f"{cm.config.read_queue_nums} read/{cm.config.write_queue_nums} write queues, {leads}"


def _plan_steps(
    topic: str,
    configs: dict[str, TopicConfigAndQueueMapping],
    current: dict[str, TopicConfigAndQueueMapping],
    addrs: dict[str, str],
    map_in: list[str] | None = None,
    map_out: list[str] | None = None,
) -> list[Step]:
    """The plan, broker by broker in the order they are written: what each holds now and will hold
    (``map_in``/``map_out``: the brokers that take over logical queues and those that hand them over)."""
    steps = []
    for broker in java_hash_order(configs):
        old, new = current.get(broker), _queues(configs[broker])
        role = " (takes over queues)" if broker in (map_in or []) else ""
        role = " (hands over queues)" if broker in (map_out or []) else role
        what = f"create static topic {topic} on {broker}: {new}"
        if old is not None:
            what = f"update static topic {topic} on {broker}{role}: {_queues(old)} -> {new}"
        steps.append(Step("broker", addrs.get(broker, "?"), what))
    return steps


def _go_ahead(
    inv: Invocation,
    title: str,
    steps: list[Step],
    data: dict[str, Any],
    dry_run: bool,
    yes: bool,
    lines: list[str],
) -> bool:
    """The plan shown (``--dry-run``: True, the command ends there, no broker written) or confirmed on a
    terminal; a refusal prints the plan files written so far, as a failure would."""
    if dry_run:
        show_plan(inv, title, steps, data)
        return True
    try:
        confirm(title, steps, yes)
    except CommandError:
        _flush(inv, lines)
        raise
    return False


# ------------------------------------------------------------------------------------- updateStaticTopic


@java_command(
    "updateStaticTopic",
    [
        *TARGETS,
        TOPIC,
        JavaOpt("qn", "totalQueueNum", "total queue num", required=True, dest="total_queue_num"),
        JavaOpt("mf", "mapFile", "The mapping data file name", dest="map_file"),
        FORCE,
    ],
    json_doc=PLAN_DOC,
    epilog="Every broker of the plan is checked before the first is written: an unknown broker, more "
    "than 1024 queues or a plan that does not add up changes nothing. -mf reads a plan file (Java "
    "declares the option but ignores it). " + SAFETY_EPILOG,
    own=safety_options(),
)
async def update_static_topic(
    inv: Invocation,
    clusters: str | None,
    brokers: str | None,
    topic: str,
    total_queue_num: str,
    map_file: str | None,
    force_replace: str | None,
    dry_run: bool,
    yes: bool,
) -> None:
    t = check_topic_name(topic.strip())
    queue_num = parse_int(total_queue_num, "-qn")
    try:
        check_queue_num(queue_num)
    except MappingError as e:
        raise CommandError(f"-qn: {e}", ExitCode.USAGE) from None
    force = force_replace is not None and parse_bool(force_replace.strip())
    plan = _read_plan(map_file, t) if map_file is not None else None
    admin = inv.admin
    info, targets, addrs, current = await _cluster_view(inv, t, clusters, brokers)
    lines: list[str] = []
    data: dict[str, Any] = {"topic": t}
    if plan is not None:
        configs = plan.broker_config_map
        epoch = plan.epoch
    else:
        try:
            epoch = check_name_epoch_num(t, current)[0] if current else int(time.time() * 1000)
            if not dry_run:
                old = TopicRemappingDetailWrapper(t, TYPE_CREATE_OR_UPDATE, epoch, current)
                data["oldMappingFile"] = path = _write_temp(old, False)
                lines.append(f"The old mapping data is written to file {path}\n")
            configs = copy_plan(current)
            wrapper = create_mapping(
                t, queue_num, list(dict.fromkeys([*targets, *current])), configs, int(time.time() * 1000)
            )
        except MappingError as e:
            _flush(inv, lines)
            raise _mapping_error(e) from None
        epoch = wrapper.epoch
        if not dry_run:
            data["newMappingFile"] = path = _write_temp(wrapper, True)
            lines.append(f"The new mapping data is written to file {path}\n")
        force = False  # Java computes a plan that needs no force
    _preflight(inv, info, configs, current, addrs, force, lines)
    data.update(
        epoch=epoch, brokerToMapIn=[], brokerToMapOut=[], brokers=_plan_json(t, epoch, configs, addrs)
    )
    steps = _plan_steps(t, configs, current, addrs)
    if _go_ahead(inv, f"create or update static topic [{t}]", steps, data, dry_run, yes, lines):
        return
    await admin.static_topics.update_topic_config_mapping_all(configs, addrs, force)
    inv.out.emit(Plain(data, "".join(lines)))


# ------------------------------------------------------------------------------------- remappingStaticTopic


@java_command(
    "remappingStaticTopic",
    [*TARGETS, TOPIC, JavaOpt("mf", "mapFile", "The mapping data file name ", dest="map_file"), FORCE],
    json_doc=PLAN_DOC,
    epilog="The logical queues move so that the target brokers lead them all; a moved queue's offsets "
    "continue on its new broker from the next 10000 boundary after its last offset, and its older "
    "messages stay readable through the new leader. " + SAFETY_EPILOG,
    own=safety_options(),
)
async def remapping_static_topic(
    inv: Invocation,
    clusters: str | None,
    brokers: str | None,
    topic: str,
    map_file: str | None,
    force_replace: str | None,
    dry_run: bool,
    yes: bool,
) -> None:
    t = check_topic_name(topic.strip())
    force = force_replace is not None and parse_bool(force_replace.strip())
    plan = _read_plan(map_file, t) if map_file is not None else None
    admin = inv.admin
    info, targets, addrs, current = await _cluster_view(inv, t, clusters, brokers)
    lines: list[str] = []
    data: dict[str, Any] = {"topic": t}
    if plan is None:
        if not current:
            raise CommandError("No topic route to do the remapping", ExitCode.NOT_FOUND)
        try:
            epoch = check_name_epoch_num(t, current)[0]
            if not dry_run:
                old = TopicRemappingDetailWrapper(t, TYPE_CREATE_OR_UPDATE, epoch, current)
                data["oldMappingFile"] = path = _write_temp(old, False)
                lines.append(f"The old mapping data is written to file {path}\n")
            plan = remap(t, copy_plan(current), targets, int(time.time() * 1000))
        except MappingError as e:
            _flush(inv, lines)
            raise _mapping_error(e) from None
        if not dry_run:
            data["newMappingFile"] = path = _write_temp(plan, True)
            lines.append(f"The old mapping data is written to file {path}\n")  # sic: Java's text
        force = False
    configs = plan.broker_config_map
    _preflight(inv, info, configs, current, addrs, force, lines)
    data.update(
        epoch=plan.epoch,
        brokerToMapIn=sorted(plan.broker_to_map_in),
        brokerToMapOut=sorted(plan.broker_to_map_out),
        brokers=_plan_json(t, plan.epoch, configs, addrs),
    )
    steps = _plan_steps(t, configs, current, addrs, plan.broker_to_map_in, plan.broker_to_map_out)
    if _go_ahead(inv, f"remap static topic [{t}]", steps, data, dry_run, yes, lines):
        return
    try:
        await admin.static_topics.remapping_static_topic(
            t, plan.broker_to_map_in, plan.broker_to_map_out, configs, addrs, force
        )
    except MappingError as e:
        _flush(inv, lines)
        raise _mapping_error(e) from None
    inv.out.emit(Plain(data, "".join(lines)))
