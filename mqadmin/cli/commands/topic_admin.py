"""Topic commands answered by brokers: updateTopic, updateTopicList, deleteTopic, updateTopicPerm,
topicStatus and updateOrderConf.

Text output is the Java 5.3.3 tool's. Where the Java tool asks a cluster's brokers one after the
other and stops at the first failure, these ask them all at once, print what succeeded in the Java
order, report each failure on stderr and exit 6 (some failed) or with the failure's code (all
failed). Where Java prints its help for a missing ``-b``/``-c``, this is a usage error (exit 2).

Names and numbers are checked before any request, as the broker will check them (topic name,
queue counts 1..1024, permission, attributes, order confs): a bad one is one line and exit 2.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from mqadmin.admin.brokers import check_cluster_name
from mqadmin.admin.errors import AdminError, RemoteCommandError, RemotingError
from mqadmin.admin.topics import check_order_conf, check_topic_config, check_topic_name, create_topic_header
from mqadmin.cli.command import Invocation, java_command, read_json_list
from mqadmin.cli.errors import CommandError
from mqadmin.cli.exitcodes import ExitCode
from mqadmin.cli.javaopts import JavaOpt
from mqadmin.cli.javatext import front_string_at_least, java_map_string, jformat, jstr
from mqadmin.cli.javatime import human_time
from mqadmin.cli.optvalues import need_target, parse_int
from mqadmin.cli.plannedchange import planned_batch
from mqadmin.cli.results import Errors, Plain, Result, with_errors
from mqadmin.cli.safety import (
    Step,
    confirm,
    failed,
    not_found,
    on_terminal,
    probe,
    safety_options,
    show_plan,
    unknown,
)
from mqadmin.protocol.bodies.message_queue import MessageQueue, queue_key
from mqadmin.protocol.bodies.topic import TopicConfig, parse_attributes
from mqadmin.protocol.bodies.topic_stats import TopicOffset
from mqadmin.protocol.codes import ResponseCode
from mqadmin.protocol.errors import ProtocolError
from mqadmin.protocol.fastjson import java_double
from mqadmin.protocol.javacoll import java_hash_dict, java_hash_order
from mqadmin.protocol.javanum import parse_bool
from mqadmin.protocol.perm import perm_to_string

TOPIC = JavaOpt("t", "topic", "topic name", required=True)

TOPIC_CONFIG_DOC = (
    '{"topicName": str, "readQueueNums": int, "writeQueueNums": int, "perm": int, '
    '"topicFilterType": "SINGLE_TAG"|"MULTI_TAG", "topicSysFlag": int, "order": bool, '
    '"attributes": {str: str}}'
)
TARGETS_DOC = '[{"addr": str, "ok": bool, "error": str?}]'


# ------------------------------------------------------------------------------------- helpers


@dataclass(slots=True)
class TopicConfigView(Result):
    """A topic's config as the 5.3.3 tool prints it (``TopicConfig.toString()``) and as a document."""

    config: TopicConfig

    def text(self) -> str:
        tc = self.config
        attrs = java_map_string(java_hash_dict(tc.attributes or {}).items())
        return (
            f"TopicConfig [topicName={jstr(tc.topic_name)}, readQueueNums={tc.read_queue_nums}, "
            f"writeQueueNums={tc.write_queue_nums}, perm={perm_to_string(tc.perm)}, "
            f"topicFilterType={jstr(tc.topic_filter_type)}, topicSysFlag={tc.topic_sys_flag}, "
            f"order={jstr(tc.order)}, attributes={attrs}]"
        )

    def data(self) -> dict[str, Any]:
        tc = self.config
        return {
            "topicName": tc.topic_name,
            "readQueueNums": tc.read_queue_nums,
            "writeQueueNums": tc.write_queue_nums,
            "perm": tc.perm,
            "topicFilterType": tc.topic_filter_type,
            "topicSysFlag": tc.topic_sys_flag,
            "order": tc.order,
            "attributes": dict(tc.attributes or {}),
        }


def all_ok(rows: list[dict[str, Any]]) -> bool:
    """Every broker (or name server) of a fan-out's rows answered."""
    return all(r["ok"] for r in rows)


def ok_addrs(rows: list[dict[str, Any]]) -> list[str]:
    """The addresses that answered, in the order asked."""
    return [r["addr"] for r in rows if r["ok"]]


# ------------------------------------------------------------------------------------- updateTopic

BROKER_OR_CLUSTER = (
    JavaOpt(
        "b",
        "brokerAddr",
        "create topic to which broker",
        group="target",
        group_required=True,
        dest="broker_addr",
    ),
    JavaOpt(
        "c",
        "clusterName",
        "create topic to which cluster",
        group="target",
        group_required=True,
        dest="cluster_name",
    ),
)


@java_command(
    "updateTopic",
    [
        *BROKER_OR_CLUSTER,
        JavaOpt("a", "attributes", "attribute(+a=b,+c=d,-e)"),
        TOPIC,
        JavaOpt("r", "readQueueNums", "set read queue nums", dest="read_queue_nums"),
        JavaOpt("w", "writeQueueNums", "set write queue nums", dest="write_queue_nums"),
        JavaOpt("p", "perm", "set topic's permission(2|4|6), intro[2:W 4:R; 6:RW]"),
        JavaOpt("o", "order", "set topic's order(true|false)"),
        JavaOpt("u", "unit", "is unit topic (true|false)"),
        JavaOpt("s", "hasUnitSub", "has unit sub (true|false)", dest="has_unit_sub"),
    ],
    fanout=True,
    json_doc=f'{{"topicConfig": {TOPIC_CONFIG_DOC}, "brokers": {TARGETS_DOC}, "orderConf": str?, '
    '"errors": [...]?} (orderConf: what was stored on the name servers with -o true)',
    epilog="--dry-run lists, per broker, whether the topic would be created or what of its config would "
    "change (queues shrinking included), changing nothing (with --json: dryRun and a plan of {role, addr, "
    "action, changes}). On a terminal the plan is shown and confirmed first (--yes does not ask).",
    own=safety_options(),
)
async def update_topic(
    inv: Invocation,
    broker_addr: str | None,
    cluster_name: str | None,
    attributes: str | None,
    topic: str,
    read_queue_nums: str | None,
    write_queue_nums: str | None,
    perm: str | None,
    order: str | None,
    unit: str | None,
    has_unit_sub: str | None,
    dry_run: bool,
    yes: bool,
) -> None:
    tc = TopicConfig(topic_name=topic.strip(), read_queue_nums=8, write_queue_nums=8, attributes={})
    if attributes is not None:
        try:
            tc.attributes = parse_attributes(attributes.strip()) if attributes.strip() else {}
        except ProtocolError as e:
            raise CommandError(f"-a: {e}", ExitCode.USAGE) from None
    if read_queue_nums is not None:
        tc.read_queue_nums = parse_int(read_queue_nums, "-r")
    if write_queue_nums is not None:
        tc.write_queue_nums = parse_int(write_queue_nums, "-w")
    if perm is not None:
        tc.perm = parse_int(perm, "-p")
    is_unit = unit is not None and parse_bool(unit.strip())
    center_sync = has_unit_sub is not None and parse_bool(has_unit_sub.strip())
    tc.topic_sys_flag = (1 if is_unit else 0) | (2 if center_sync else 0)
    tc.order = order is not None and parse_bool(order.strip())
    create_topic_header(tc)  # a bad name or number: one line, exit 2, nothing sent

    admin = inv.admin
    if broker_addr is not None:
        addr = broker_addr.strip()
        if await _update_topic_planned(inv, [addr], tc, "broker", dry_run, yes):
            return
        await admin.topics.create_and_update_topic_config(addr, tc)
        created = TopicCreated(TopicConfigView(tc), [{"addr": addr, "ok": True}], "broker")
        if tc.order:
            name = await admin.brokers.broker_name_by_addr(addr)
            created.order_conf = f"{name}:{tc.write_queue_nums}"
            await _store_order_conf(inv, tc.topic_name or "", created.order_conf, is_cluster=False)
        inv.out.emit(created)
        return

    cluster = check_cluster_name((cluster_name or "").strip())
    info = await admin.namesrv.examine_broker_cluster_info()
    masters = await admin.brokers.fetch_master_addrs(cluster, info)
    if await _update_topic_planned(inv, masters, tc, "cluster", dry_run, yes):
        return
    _, rows = await inv.on_each(masters, lambda a: admin.topics.create_and_update_topic_config(a, tc))
    created = TopicCreated(TopicConfigView(tc), rows, "cluster")
    if all_ok(rows) and tc.order:
        names = await admin.brokers.fetch_broker_names(cluster, info)
        created.order_conf = ";".join(f"{n}:{tc.write_queue_nums}" for n in names)
        await _store_order_conf(inv, tc.topic_name or "", created.order_conf, is_cluster=True)
    created.errors = inv.error_list()
    inv.out.emit(created)


async def _update_topic_planned(
    inv: Invocation, addrs: list[str], tc: TopicConfig, mode: str, dry_run: bool, yes: bool
) -> bool:
    """updateTopic's plan: shown (True: the command ends there), or confirmed on a terminal; a
    script without ``--dry-run`` asks the brokers nothing more."""
    if not dry_run and (yes or not on_terminal()):
        return False
    t = tc.topic_name or ""
    configs = await probe(inv, addrs, lambda a: inv.admin.topics.examine_topic_config(a, t))
    steps = [_topic_step(inv, addr, tc, old) for addr, old in configs.items()]
    title = f"update topic [{t}]"
    if dry_run:
        doc = TopicCreated(TopicConfigView(tc), [{"addr": a, "ok": None} for a in addrs], mode).data()
        show_plan(inv, title, steps, doc)
        return True
    confirm(title, steps, yes)
    return False


def _topic_step(inv: Invocation, addr: str, tc: TopicConfig, old: TopicConfig | BaseException | None) -> Step:
    """What sending ``tc`` would do on the broker at ``addr``, which has ``old`` (None: not the topic;
    a failure: it could not be asked): create the topic, or what of its config changes."""
    t = tc.topic_name or ""
    if isinstance(old, BaseException):
        return Step("broker", addr, unknown(inv, old))
    if old is None:
        queues = f"{tc.read_queue_nums} read/{tc.write_queue_nums} write queues, {perm_to_string(tc.perm)}"
        return Step("broker", addr, f"create topic {t} ({queues})")
    shrink = {
        "readQueueNums": tc.read_queue_nums < old.read_queue_nums,
        "writeQueueNums": tc.write_queue_nums < old.write_queue_nums,
    }
    diffs = [
        f"{name} {a} -> {b}" + (" (fewer queues)" if shrink.get(name) else "")
        for name, a, b in (
            ("readQueueNums", old.read_queue_nums, tc.read_queue_nums),
            ("writeQueueNums", old.write_queue_nums, tc.write_queue_nums),
            ("perm", perm_to_string(old.perm), perm_to_string(tc.perm)),
            ("topicSysFlag", old.topic_sys_flag, tc.topic_sys_flag),
            ("order", old.order, tc.order),
        )
        if a != b
    ]
    what = "update topic " + t + ": " + ", ".join(diffs) if diffs else f"topic {t} is already so"
    return Step("broker", addr, what, changes=bool(diffs))


@dataclass(slots=True)
class TopicCreated(Result):
    """updateTopic: the config sent, the brokers it went to and the order conf stored with ``-o true``.

    With ``-b`` (``scope`` broker) Java prints the order conf before the success line; with ``-c``
    after the brokers' lines, and the config only when every master took it."""

    config: TopicConfigView
    brokers: list[dict[str, Any]]
    scope: str
    order_conf: str | None = None
    errors: Errors = field(default_factory=list)

    def text(self) -> str:
        created = "".join(f"create topic to {addr} success.\n" for addr in ok_addrs(self.brokers))
        if not all_ok(self.brokers):
            return created
        conf = ""
        if self.order_conf is not None:
            conf = f"set {self.scope} orderConf. isOrder=true, orderConf=[{self.order_conf}]\n"
        head = conf + created if self.scope == "broker" else created + conf
        return head + self.config.text() + "\n"

    def data(self) -> dict[str, Any]:
        doc: dict[str, Any] = {"topicConfig": self.config.data(), "brokers": self.brokers}
        if self.order_conf is not None:
            doc["orderConf"] = self.order_conf
        return with_errors(doc, self.errors)


async def _store_order_conf(inv: Invocation, topic: str, conf: str, *, is_cluster: bool) -> None:
    result = await inv.admin.topics.create_or_update_order_conf(topic, conf, is_cluster)
    for addr in result.order:
        if addr in result.errors:
            inv.report(result.errors[addr])


# ------------------------------------------------------------------------------------- updateTopicList


def _read_topic_configs(path: str) -> list[TopicConfig]:
    data = read_json_list(path, "topic configs")
    out = []
    for i, item in enumerate(data):
        try:
            tc = TopicConfig.from_json_obj(item, f"topic config #{i + 1}")
        except ProtocolError as e:
            raise CommandError(f"{path}: {e}") from None
        if not tc.topic_name:
            raise CommandError(f"{path}: topic config #{i + 1} has no topicName")
        if tc.attributes is None:
            tc.attributes = {}
        out.append(check_topic_config(tc))
    return out


@dataclass(slots=True)
class TopicListSubmitted(Result):
    """updateTopicList: the topics of the file and the brokers the batch went to."""

    topics: list[str | None]
    brokers: list[dict[str, Any]]
    errors: Errors

    def text(self) -> str:
        return "".join(
            f"submit batch of topic config to {addr} success, please check the result later.\n"
            for addr in ok_addrs(self.brokers)
        )

    def data(self) -> dict[str, Any]:
        return with_errors({"topics": self.topics, "brokers": self.brokers}, self.errors)


@java_command(
    "updateTopicList",
    [
        *BROKER_OR_CLUSTER,
        JavaOpt(
            "f",
            "filename",
            "Path to a file with list of org.apache.rocketmq.common.TopicConfig in json format",
            required=True,
        ),
    ],
    fanout=True,
    json_doc=f'{{"topics": [str], "brokers": {TARGETS_DOC}, "errors": [...]?}}',
    epilog="A broker that does not know the batch request (4.x) gets one UPDATE_AND_CREATE_TOPIC "
    "per topic instead. --dry-run lists, per broker and topic, whether the topic would be created or what "
    "of its config would change (queues shrinking included), changing nothing (with --json: dryRun and a "
    "plan of {role, addr, action, changes}). On a terminal the plan is shown and confirmed first (--yes "
    "does not ask).",
    own=safety_options(),
)
async def update_topic_list(
    inv: Invocation,
    broker_addr: str | None,
    cluster_name: str | None,
    filename: str,
    dry_run: bool,
    yes: bool,
) -> None:
    configs = _read_topic_configs(filename.strip())
    if not configs and not dry_run:
        inv.warn(f"{filename.strip()} holds no topic configs; nothing was sent")
        return
    admin = inv.admin
    if broker_addr is not None:
        addrs = [broker_addr.strip()]
    else:
        addrs = await admin.brokers.fetch_master_addrs((cluster_name or "").strip())
    names = [c.topic_name for c in configs]
    if await planned_batch(
        inv,
        addrs,
        configs,
        look=admin.topics.get_all_topic_config,
        step=lambda addr, tc, table: _topic_step(
            inv,
            addr,
            tc,
            table
            if isinstance(table, BaseException)
            else (table.topic_config_table or {}).get(tc.topic_name or ""),
        ),
        title=f"create or update {len(configs)} topics of {filename.strip()}",
        doc=TopicListSubmitted(names, [{"addr": a, "ok": None} for a in addrs], []).data(),
        dry_run=dry_run,
        yes=yes,
    ):
        return
    _, rows = await inv.on_each(addrs, lambda a: admin.topics.create_and_update_topic_config_list(a, configs))
    inv.out.emit(TopicListSubmitted(names, rows, inv.error_list()))


# ------------------------------------------------------------------------------------- deleteTopic


@dataclass(slots=True)
class TopicDeleted(Result):
    """deleteTopic: the masters asked, and the name servers (asked only when every master deleted it)."""

    topic: str
    cluster: str
    brokers: list[dict[str, Any]]
    name_servers: list[dict[str, Any]]
    errors: Errors

    def text(self) -> str:
        if not all_ok(self.brokers):
            return ""
        text = f"delete topic [{self.topic}] from cluster [{self.cluster}] success.\n"
        if all_ok(self.name_servers):
            text += f"delete topic [{self.topic}] from NameServer success.\n"
        return text

    def data(self) -> dict[str, Any]:
        doc = {"topic": self.topic, "cluster": self.cluster, "brokers": self.brokers}
        return with_errors({**doc, "nameServers": self.name_servers}, self.errors)


@java_command(
    "deleteTopic",
    [
        TOPIC,
        JavaOpt("c", "clusterName", "delete topic from which cluster", required=True, dest="cluster_name"),
    ],
    fanout=True,
    json_doc=f'{{"topic": str, "cluster": str, "brokers": {TARGETS_DOC}, "nameServers": {TARGETS_DOC}, '
    '"errors": [...]?} (nameServers is empty when a broker failed: the name servers are then left '
    "alone)",
    epilog="A topic that neither a master of the cluster nor the name servers' route has is left "
    "alone: one line on stderr says so and the exit code is 7 (the Java tool prints success). --dry-run "
    "lists, per master and name server, what would be deleted (with --json: dryRun, exists and a plan "
    "of {role, addr, action, changes}). On a terminal the plan is shown and confirmed first (--yes "
    "does not ask).",
    own=safety_options(),
)
async def delete_topic(
    inv: Invocation, topic: str, cluster_name: str, dry_run: bool, yes: bool
) -> ExitCode | None:
    admin = inv.admin
    t, cluster = topic.strip(), cluster_name.strip()
    check_topic_name(t, deleting=True)
    masters = await admin.brokers.fetch_master_addrs(cluster)
    namesrvs = java_hash_order(list(admin.core.namesrv_addrs))
    steps, exists = await _delete_topic_plan(inv, t, cluster, masters, namesrvs)
    title = f"delete topic [{t}] from cluster [{cluster}]"
    missing = (
        f"topic {t} does not exist in cluster {cluster}: no master has it and no name server routes it there"
    )
    if dry_run:
        brokers = [{"addr": a, "ok": None} for a in masters]
        doc = {"topic": t, "cluster": cluster, "exists": exists, "brokers": brokers, "nameServers": []}
        doc["nameServers"] = [{"addr": a, "ok": None} for a in namesrvs]
        show_plan(inv, title, steps, doc)
        return not_found(inv, missing) if exists is False else None
    if exists is False:  # nothing to delete: no "success" line, the one line that says why
        raise CommandError(missing, ExitCode.NOT_FOUND)
    confirm(title, steps, yes)
    _, brokers = await inv.on_each(masters, lambda a: admin.topics.delete_topic_in_broker(a, t))
    name_servers: list[dict[str, Any]] = []
    if all_ok(brokers):
        _, name_servers = await inv.on_each(
            namesrvs, lambda a: admin.topics.delete_topic_in_namesrv(a, t, cluster)
        )
    inv.out.emit(TopicDeleted(t, cluster, brokers, name_servers, inv.error_list()))
    return None


async def _delete_topic_plan(
    inv: Invocation, topic: str, cluster: str, masters: list[str], namesrvs: list[str]
) -> tuple[list[Step], bool | None]:
    """What deleteTopic would do on each master and name server, and whether the topic exists there
    (None: a server could not be asked, so it may)."""
    admin = inv.admin
    configs = await probe(inv, masters, lambda a: admin.topics.examine_topic_config(a, topic))
    routed: bool | None
    try:
        route = await admin.namesrv.examine_topic_route_info(topic)
        routed = any(bd.cluster == cluster for bd in route.broker_datas or [])
    except RemoteCommandError as e:
        if e.code != ResponseCode.TOPIC_NOT_EXIST:
            raise
        routed = False
    except (AdminError, RemotingError):
        routed = None
    steps: list[Step] = []
    for addr, tc in configs.items():
        if failed(tc):
            steps.append(Step("broker", addr, unknown(inv, tc)))
        elif tc is None:
            steps.append(Step("broker", addr, "not there, nothing to delete", changes=False))
        else:
            perm = perm_to_string(tc.perm)
            queues = f"{tc.read_queue_nums} read/{tc.write_queue_nums} write queues, {perm}"
            steps.append(Step("broker", addr, f"delete topic {topic} ({queues}) and its offsets"))
    for addr in namesrvs:
        what = f"delete the route of {topic} in cluster {cluster}" if routed else "no route there"
        steps.append(Step("name server", addr, what, changes=routed is not False))
    on_broker = [tc for tc in configs.values() if not failed(tc)]
    if any(tc is not None for tc in on_broker) or routed:
        return steps, True
    if len(on_broker) < len(configs) or routed is None:
        return steps, None
    return steps, False


# ------------------------------------------------------------------------------------- updateTopicPerm


@dataclass(slots=True)
class PermChanged(Result):
    """updateTopicPerm: each broker's old permission and whether it took the new one; with ``-b``, the
    config sent."""

    topic: str
    perm: int
    brokers: list[dict[str, Any]]
    config: TopicConfigView | None = None
    errors: Errors = field(default_factory=list)

    def text(self) -> str:
        text = "".join(
            f"update topic perm from {r['oldPerm']} to {self.perm} in {r['addr']} success.\n"
            for r in self.brokers
            if r["ok"]
        )
        return text + (f"{self.config.text()}.\n" if self.config is not None else "")

    def data(self) -> dict[str, Any]:
        changed = any(r["ok"] for r in self.brokers)
        doc: dict[str, Any] = {"topic": self.topic, "perm": self.perm, "changed": changed}
        doc["brokers"] = self.brokers
        if self.config is not None:
            doc["topicConfig"] = self.config.data()
        return with_errors(doc, self.errors)


@java_command(
    "updateTopicPerm",
    [
        JavaOpt("b", "brokerAddr", "create topic to which broker", dest="broker_addr"),
        JavaOpt("c", "clusterName", "create topic to which cluster", dest="cluster_name"),
        TOPIC,
        JavaOpt("p", "perm", "set topic's permission(2|4|6), intro[2:W; 4:R; 6:RW]", required=True),
    ],
    fanout=True,
    json_doc=f'{{"topic": str, "perm": int, "changed": bool, "brokers": [{{"addr": str, "oldPerm": int, '
    f'"ok": bool, "error": str?}}], "topicConfig": {TOPIC_CONFIG_DOC}?, "errors": [...]?}}',
    epilog="--dry-run lists, per master, the permission it has and the one it would get (with --json: "
    "dryRun and a plan of {role, addr, action, changes}). On a terminal the plan is shown and confirmed "
    "first (--yes does not ask).",
    own=safety_options(),
)
async def update_topic_perm(
    inv: Invocation,
    broker_addr: str | None,
    cluster_name: str | None,
    topic: str,
    perm: str,
    dry_run: bool,
    yes: bool,
) -> None:
    need_target(broker_addr, cluster_name)
    admin = inv.admin
    t = topic.strip()
    new_perm = parse_int(perm, "-p")
    create_topic_header(TopicConfig(topic_name=t, perm=new_perm))  # name and permission
    if broker_addr is None:
        check_cluster_name((cluster_name or "").strip())
    route = await admin.namesrv.examine_topic_route_info(t)
    if not route.queue_datas:
        raise CommandError(f"the route of topic {t} has no queue data")
    first = route.queue_datas[0]
    by_name = {qd.broker_name: qd for qd in route.queue_datas}

    def config_for(broker_name: str | None) -> TopicConfig:
        qd = by_name.get(broker_name, first)
        return TopicConfig(
            topic_name=t,
            read_queue_nums=qd.read_queue_nums,
            write_queue_nums=qd.write_queue_nums,
            perm=new_perm,
            topic_sys_flag=qd.topic_sys_flag,
            attributes={},
        )

    if broker_addr is not None:
        addr = broker_addr.strip()
        name = next(
            (bd.broker_name for bd in route.broker_datas or [] if (bd.broker_addrs or {}).get(0) == addr),
            None,
        )
        if name is None:
            raise CommandError(f"no master broker at {addr} in the route of topic {t}")
        old = by_name[name].perm if name in by_name else 0
        row = {"addr": addr, "oldPerm": old, "ok": True}
        if dry_run or old != new_perm:
            step = _perm_step(addr, old, new_perm)
            if dry_run:
                doc = {"topic": t, "perm": new_perm, "changed": False, "brokers": [{**row, "ok": None}]}
                show_plan(inv, f"update perm of topic [{t}]", [step], doc)
                return
            confirm(f"update perm of topic [{t}]", [step], yes)
        if old == new_perm:
            doc = {"topic": t, "perm": new_perm, "changed": False, "brokers": [row]}
            inv.out.emit(Plain(doc, "new perm equals to the old one!\n"))
            return
        tc = config_for(name)
        await admin.topics.create_and_update_topic_config(addr, tc)
        inv.out.emit(PermChanged(t, new_perm, [row], TopicConfigView(tc)))
        return

    info = await admin.namesrv.examine_broker_cluster_info()
    masters = await admin.brokers.fetch_master_addrs((cluster_name or "").strip(), info)
    name_of = {(bd.broker_addrs or {}).get(0): name for name, bd in (info.broker_addr_table or {}).items()}
    configs = {addr: config_for(name_of.get(addr)) for addr in masters}
    olds = {addr: by_name.get(name_of.get(addr), first).perm for addr in masters}
    steps = [_perm_step(addr, olds[addr], new_perm) for addr in masters]
    if dry_run:
        planned = [{"addr": a, "oldPerm": olds[a], "ok": None} for a in masters]
        doc = {"topic": t, "perm": new_perm, "changed": False, "brokers": planned}
        show_plan(inv, f"update perm of topic [{t}] in cluster [{(cluster_name or '').strip()}]", steps, doc)
        return
    confirm(f"update perm of topic [{t}] in cluster [{(cluster_name or '').strip()}]", steps, yes)
    _, rows = await inv.on_each(masters, lambda a: admin.topics.create_and_update_topic_config(a, configs[a]))
    for row in rows:
        row["oldPerm"] = by_name.get(name_of.get(str(row["addr"])), first).perm
    inv.out.emit(PermChanged(t, new_perm, rows, errors=inv.error_list()))


def _order_conf_planned(inv: Invocation, topic: str, how: str, what: str, dry_run: bool, yes: bool) -> bool:
    """updateOrderConf's plan: shown (True: the command ends there) or confirmed on a terminal."""
    addrs = java_hash_order(list(inv.admin.core.namesrv_addrs))
    steps = [Step("name server", a, what) for a in addrs]
    title = f"{how} orderConf of topic [{topic}]"
    if dry_run:
        show_plan(inv, title, steps, {"topic": topic, "method": how, "nameServers": []})
        return True
    confirm(title, steps, yes)
    return False


def _perm_step(addr: str, old: int, new: int) -> Step:
    if old == new:
        return Step("broker", addr, f"perm stays {perm_to_string(old)}", changes=False)
    return Step("broker", addr, f"perm {perm_to_string(old)} -> {perm_to_string(new)}")


# ------------------------------------------------------------------------------------- topicStatus


_STATUS_HEAD = "%-32s  %-4s  %-20s  %-20s    %s%n"
_STATUS_ROW = "%-32s  %-4d  %-20d  %-20d    %s%n"


@dataclass(slots=True)
class TopicStatus(Result):
    """topicStatus: each queue's offsets and last update, and the topic's put rate."""

    topic: str
    offsets: dict[MessageQueue, TopicOffset]
    put_tps: float
    errors: Errors

    def text(self) -> str:
        lines = [jformat(_STATUS_HEAD, "#Broker Name", "#QID", "#Min Offset", "#Max Offset", "#Last Updated")]
        for mq in sorted(self.offsets, key=MessageQueue.java_sort_key):
            off = self.offsets[mq]
            human = human_time(off.last_update_timestamp) if off.last_update_timestamp > 0 else ""
            name = front_string_at_least(mq.broker_name, 32)
            lines.append(jformat(_STATUS_ROW, name, mq.queue_id, off.min_offset, off.max_offset, human))
        lines.append(f"\nTopic Put TPS: {java_double(self.put_tps)}\n")
        return "".join(lines)

    def data(self) -> dict[str, Any]:
        rows = [
            {
                "brokerName": mq.broker_name,
                "queueId": mq.queue_id,
                "minOffset": off.min_offset,
                "maxOffset": off.max_offset,
                "lastUpdateTimestamp": off.last_update_timestamp,
            }
            for mq, off in sorted(self.offsets.items(), key=lambda kv: queue_key(kv[0]))
        ]
        return with_errors({"topic": self.topic, "queues": rows, "putTps": self.put_tps}, self.errors)


@java_command(
    "topicStatus",
    [TOPIC, JavaOpt("c", "cluster", "cluster name or lmq parent topic, lmq is used to find the route.")],
    json_doc='{"topic": str, "queues": [{"brokerName": str, "queueId": int, "minOffset": int, '
    '"maxOffset": int, "lastUpdateTimestamp": ms|null}], "putTps": num|null, "errors"?}',
    epilog="Brokers that do not know GET_TOPIC_CONFIG (4.x) are asked GET_ALL_TOPIC_CONFIG instead, "
    "so this works against 4.x and 5.x brokers alike. When some brokers do not answer, the queues of "
    "the others are shown, each failure is on stderr and the exit code is 6.",
    watch=True,
)
async def topic_status(inv: Invocation, topic: str, cluster: str | None) -> None:
    t = topic.strip()
    admin = inv.admin
    failures: list[BaseException] = []  # brokers that did not answer: the others' queues are shown
    if cluster is not None:
        stats = await admin.topics.examine_topic_stats_by_cluster(t, cluster.strip(), failures=failures)
    else:
        stats = await admin.topics.examine_topic_stats(t, failures=failures)
    for exc in failures:
        inv.report(exc)
    inv.any_success = True
    tps = stats.topic_put_tps or 0.0
    inv.out.emit(TopicStatus(t, stats.offset_table, tps, inv.error_list()))


# ------------------------------------------------------------------------------------- updateOrderConf


@java_command(
    "updateOrderConf",
    [
        TOPIC,
        JavaOpt("v", "orderConf", "set order conf [eg. brokerName1:num;brokerName2:num]", dest="order_conf"),
        JavaOpt("m", "method", "option type [eg. put|get|delete", required=True),
    ],
    fanout=True,
    json_doc='{"topic": str, "method": "get"|"put"|"delete", "orderConf": str?, '
    f'"nameServers": {TARGETS_DOC}?, "errors": [...]?}}',
    epilog="--dry-run (put, delete) lists the name servers and the order conf each would get or lose "
    "(with --json: dryRun and a plan of {role, addr, action, changes}), changing nothing. On a terminal "
    "the plan is shown and confirmed first (--yes does not ask).",
    own=safety_options(),
)
async def update_order_conf(
    inv: Invocation, topic: str, order_conf: str | None, method: str, dry_run: bool, yes: bool
) -> None:
    admin = inv.admin
    t, how = topic.strip(), method.strip()
    check_topic_name(t)
    if how == "get":
        conf = await admin.topics.get_order_conf(t)
        if conf is None:
            raise CommandError(f"no order conf for topic {t} on the name server", ExitCode.REMOTE)
        doc = {"topic": t, "method": how, "orderConf": conf}
        inv.out.emit(Plain(doc, f"get orderConf success. topic=[{t}], orderConf=[{conf}] "))
        return
    if how == "put":
        conf = (order_conf or "").strip()
        if not conf:
            raise CommandError("please set orderConf with option -v.", ExitCode.USAGE)
        check_order_conf(conf)
        if _order_conf_planned(inv, t, how, f"set the order conf of topic {t} to {conf}", dry_run, yes):
            return
        result = await admin.topics.put_order_conf(t, conf)
        text = f"update orderConf success. topic=[{t}], orderConf=[{conf}]"
    elif how == "delete":
        conf = None
        if _order_conf_planned(inv, t, how, f"delete the order conf of topic {t}", dry_run, yes):
            return
        result = await admin.topics.delete_order_conf(t)
        text = f"delete orderConf success. topic=[{t}]"
    else:
        raise CommandError(f"-m must be put, get or delete, not {method!r}", ExitCode.USAGE)
    _, rows = inv.tally(result)
    data: dict[str, Any] = {"topic": t, "method": how, "nameServers": rows}
    if conf is not None:
        data["orderConf"] = conf
    inv.out.emit(Plain(data, "" if inv.failures else text, inv.error_list()))
