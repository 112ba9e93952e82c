"""Consumer groups on the brokers, as the Java 5.3.3 tool shows them.

updateSubGroup, updateSubGroupList, deleteSubGroup, getConsumerConfig.

Text output is the Java tool's, orders included (``HashMap``/``Properties`` iteration). Where Java
fails for no good reason we do better, and say so in the help epilog:

- a broker that does not take a batch (225, updateSubGroupList) gets one request per group;
- an unknown cluster, a bad number or a missing file is one stderr line and a non-zero exit code;
- a group name Java's rules refuse, a number the broker would not keep (``-q -1``) or a flag that is
  neither true nor false (``-o maybe``, which Java reads as false) is a usage error (exit 2) and
  nothing is sent.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from mqadmin.admin.groups import GroupConfigHit
from mqadmin.cli.command import Invocation, java_command, read_json_list
from mqadmin.cli.errors import CommandError
from mqadmin.cli.exitcodes import ExitCode
from mqadmin.cli.javaopts import JavaOpt
from mqadmin.cli.javatext import java_map_string, jformat, jstr
from mqadmin.cli.nameargs import group_arg, strict_bool
from mqadmin.cli.optvalues import in_range, need_target, parse_int, parse_long
from mqadmin.cli.plannedchange import planned_batch
from mqadmin.cli.results import Errors, Result, with_errors
from mqadmin.cli.safety import (
    Step,
    confirm,
    failed,
    not_found,
    probe,
    safety_options,
    show_plan,
    unknown,
)
from mqadmin.protocol import fastjson
from mqadmin.protocol.bodies.group import GroupRetryPolicy, SubscriptionGroupConfig, SubscriptionGroupWrapper
from mqadmin.protocol.errors import ProtocolError
from mqadmin.protocol.headers.consumer import RETRY_QUEUE_NUMS_MAX, check_subscription_group
from mqadmin.protocol.javacoll import java_hash_order
from mqadmin.protocol.names import RETRY_GROUP_TOPIC_PREFIX as RETRY_PREFIX

# ------------------------------------------------------------------------------------ text helpers


def _guava(name: str, fields: list[tuple[str, Any]]) -> str:
    """Guava ``MoreObjects.toStringHelper``: ``Name{k=v, k2=v2}``."""
    return name + "{" + ", ".join(f"{k}={v}" for k, v in fields) + "}"


def retry_policy_string(p: GroupRetryPolicy | None) -> str:
    """``GroupRetryPolicy.toString`` (5.x)."""
    if p is None:
        return "null"
    exp = p.exponential_retry_policy
    cus = p.customized_retry_policy
    exp_s = (
        "null"
        if exp is None
        else _guava(
            "ExponentialRetryPolicy",
            [("initial", exp.initial), ("max", exp.max), ("multiplier", exp.multiplier)],
        )
    )
    cus_s = (
        "null"
        if cus is None
        else _guava(
            "CustomizedRetryPolicy",
            [("next", "null" if cus.next is None else "[" + ", ".join(str(x) for x in cus.next) + "]")],
        )
    )
    return _guava(
        "GroupRetryPolicy",
        [("type", jstr(p.type)), ("exponentialRetryPolicy", exp_s), ("customizedRetryPolicy", cus_s)],
    )


def _subscription_set_string(cfg: SubscriptionGroupConfig) -> str | None:
    subs = cfg.subscription_data_set
    if subs is None:
        return None
    items = [
        _guava(
            "SimpleSubscriptionData",
            [
                ("topic", jstr(s.topic)),
                ("expressionType", jstr(s.expression_type)),
                ("expression", jstr(s.expression)),
                ("version", s.version),
            ],
        )
        for s in subs
    ]
    return "[" + ", ".join(items) + "]"


def _attributes_string(attrs: dict[str, str] | None) -> str | None:
    if attrs is None:
        return None
    return java_map_string((k, attrs[k]) for k in java_hash_order(list(attrs)))


def config_fields(cfg: SubscriptionGroupConfig) -> list[tuple[str, str | None]]:
    """The declared fields of the 5.3.3 ``SubscriptionGroupConfig`` and their ``toString`` (None = null)."""
    c = cfg.as_5x()
    return [
        ("groupName", c.group_name),
        ("consumeEnable", jstr(c.consume_enable)),
        ("consumeFromMinEnable", jstr(c.consume_from_min_enable)),
        ("consumeBroadcastEnable", jstr(c.consume_broadcast_enable)),
        ("consumeMessageOrderly", jstr(c.consume_message_orderly)),
        ("retryQueueNums", jstr(c.retry_queue_nums)),
        ("retryMaxTimes", jstr(c.retry_max_times)),
        ("groupRetryPolicy", retry_policy_string(c.group_retry_policy)),
        ("brokerId", jstr(c.broker_id)),
        ("whichBrokerWhenConsumeSlowly", jstr(c.which_broker_when_consume_slowly)),
        ("notifyConsumerIdsChangedEnable", jstr(c.notify_consumer_ids_changed_enable)),
        ("groupSysFlag", jstr(c.group_sys_flag)),
        ("consumeTimeoutMinute", jstr(c.consume_timeout_minute)),
        ("subscriptionDataSet", _subscription_set_string(c)),
        ("attributes", _attributes_string(c.attributes)),
    ]


def group_config_string(cfg: SubscriptionGroupConfig) -> str:
    """``SubscriptionGroupConfig.toString`` of the 5.3.3 tool."""
    return _guava("SubscriptionGroupConfig", [(k, jstr(v)) for k, v in config_fields(cfg)])


def group_config_json(cfg: SubscriptionGroupConfig) -> dict[str, Any]:
    """A group config as standard JSON (the wire names, 5.x properties filled in)."""
    doc: dict[str, Any] = json.loads(cfg.as_5x().encode(standard=True).decode("utf-8", "surrogatepass"))
    return doc


async def cluster_masters(inv: Invocation, cluster: str) -> list[str]:
    """The master addresses of a cluster (Java ``HashSet`` order); an unknown cluster is an error."""
    from mqadmin.admin.brokers import ClusterNotFoundError

    try:
        return await inv.admin.brokers.fetch_master_addrs(cluster)
    except ClusterNotFoundError:
        raise CommandError(
            f"cluster {cluster} is not known to the name server; 'mqadmin clusterList' lists the clusters",
            ExitCode.NOT_FOUND,
        ) from None


# ---------------------------------------------------------------------------------- updateSubGroup

BROKER_ADDR = JavaOpt("b", "brokerAddr", "create subscription group to which broker", dest="broker_addr")
CLUSTER_NAME = JavaOpt("c", "clusterName", "create subscription group to which cluster", dest="cluster_name")

_RETRY_POLICY_HELP = (
    'the json string of retry policy ( exp: {"type":"EXPONENTIAL","exponentialRetryPolicy":{"initial":5000,'
    '"max":7200000,"multiplier":2}} '
    '{"type":"CUSTOMIZED","customizedRetryPolicy":{"next":[1000,5000,10000]}} )'
)


def _apply_group_options(cfg: SubscriptionGroupConfig, opts: dict[str, str | None]) -> None:
    """The options in the order Java applies them (s, m, d, o, q, r, p, i, w, a, attributes).

    Numbers are read as Java reads them (``Integer.parseInt``/``Long.parseLong``) and must be in the
    range the broker keeps (see ``check_subscription_group``); flags must be true or false
    (:func:`strict_bool`). Any refusal is a usage error before anything is sent.
    """
    if opts["consume_enable"] is not None:
        cfg.consume_enable = strict_bool(opts["consume_enable"], "-s")
    if opts["consume_from_min_enable"] is not None:
        cfg.consume_from_min_enable = strict_bool(opts["consume_from_min_enable"], "-m")
    if opts["consume_broadcast_enable"] is not None:
        cfg.consume_broadcast_enable = strict_bool(opts["consume_broadcast_enable"], "-d")
    if opts["consume_message_orderly"] is not None:
        cfg.consume_message_orderly = strict_bool(opts["consume_message_orderly"], "-o")
    if opts["retry_queue_nums"] is not None:
        n = parse_int(opts["retry_queue_nums"], "-q")
        cfg.retry_queue_nums = in_range(n, "-q", 0, RETRY_QUEUE_NUMS_MAX)
    if opts["retry_max_times"] is not None:
        cfg.retry_max_times = in_range(parse_int(opts["retry_max_times"], "-r"), "-r", 0)
    if opts["group_retry_policy"] is not None:
        try:
            cfg.group_retry_policy = GroupRetryPolicy.from_json_obj(
                fastjson.loads(opts["group_retry_policy"])
            )
        except (ProtocolError, TypeError, ValueError) as e:
            raise CommandError(f"-p is not a retry policy in JSON: {e}", ExitCode.USAGE) from None
    if opts["broker_id"] is not None:
        cfg.broker_id = in_range(parse_long(opts["broker_id"], "-i"), "-i", 0)
    if opts["which_broker_when_consume_slowly"] is not None:
        n = parse_long(opts["which_broker_when_consume_slowly"], "-w")
        cfg.which_broker_when_consume_slowly = in_range(n, "-w", 0)
    if opts["notify_consumer_ids_changed"] is not None:
        cfg.notify_consumer_ids_changed_enable = strict_bool(opts["notify_consumer_ids_changed"], "-a")
    if opts["attributes"] is not None:
        from mqadmin.protocol.bodies.topic import parse_attributes

        try:
            cfg.attributes = parse_attributes(opts["attributes"].strip())
        except ProtocolError as e:
            raise CommandError(f"--attributes: {e}", ExitCode.USAGE) from None
    why = check_subscription_group(cfg)  # what is left: the retry policy's numbers
    if why is not None:
        raise CommandError(why, ExitCode.USAGE)


@java_command(
    "updateSubGroup",
    [
        BROKER_ADDR,
        CLUSTER_NAME,
        JavaOpt("g", "groupName", "consumer group name", required=True, dest="group_name"),
        JavaOpt("s", "consumeEnable", "consume enable", dest="consume_enable"),
        JavaOpt("m", "consumeFromMinEnable", "from min offset", dest="consume_from_min_enable"),
        JavaOpt("d", "consumeBroadcastEnable", "broadcast", dest="consume_broadcast_enable"),
        JavaOpt("o", "consumeMessageOrderly", "consume message orderly", dest="consume_message_orderly"),
        JavaOpt("q", "retryQueueNums", "retry queue nums", dest="retry_queue_nums"),
        JavaOpt("r", "retryMaxTimes", "retry max times", dest="retry_max_times"),
        JavaOpt("p", "groupRetryPolicy", _RETRY_POLICY_HELP, dest="group_retry_policy"),
        JavaOpt("i", "brokerId", "consumer from which broker id", dest="broker_id"),
        JavaOpt(
            "w",
            "whichBrokerWhenConsumeSlowly",
            "which broker id when consume slowly",
            dest="which_broker_when_consume_slowly",
        ),
        JavaOpt(
            "a", "notifyConsumerIdsChanged", "notify consumerId changed", dest="notify_consumer_ids_changed"
        ),
        JavaOpt(None, "attributes", "attribute(+a=b,+c=d,-e)"),
    ],
    fanout=True,
    json_doc='{"config": {<SubscriptionGroupConfig properties>}, '
    '"brokers": [{"brokerAddr": str, "ok": bool}], '
    '"errors": [...]?}',
    epilog="--dry-run lists the brokers the subscription group would be created or updated on (with "
    "--json: dryRun and a plan of {role, addr, action, changes}), changing nothing. On a terminal the "
    "plan is shown and confirmed first (--yes does not ask).",
    own=safety_options(),
)
async def update_sub_group(
    inv: Invocation,
    broker_addr: str | None,
    cluster_name: str | None,
    group_name: str,
    dry_run: bool = False,
    yes: bool = False,
    **opts: str | None,
) -> None:
    need_target(broker_addr, cluster_name)
    cfg = SubscriptionGroupConfig(
        group_name=group_arg(group_name), consume_broadcast_enable=False, consume_from_min_enable=False
    ).as_5x()
    _apply_group_options(cfg, opts)
    admin = inv.admin
    if broker_addr is not None:
        addrs = [broker_addr.strip()]
    else:
        addrs = await cluster_masters(inv, (cluster_name or "").strip())
    steps = [Step("broker", a, f"create or update subscription group {cfg.group_name}") for a in addrs]
    title = f"create or update subscription group [{cfg.group_name}]"
    if dry_run:
        show_plan(
            inv, title, steps, GroupCreated(cfg, [{"brokerAddr": a, "ok": None} for a in addrs], []).data()
        )
        return
    confirm(title, steps, yes)
    result = await admin.core.fan_out(
        addrs,
        lambda a: admin.groups.create_and_update_subscription_group_config(a, cfg),
        deadline=inv.deadline,
    )
    rows = []
    for addr in result.order:
        ok = addr in result.results
        rows.append({"brokerAddr": addr, "ok": ok})
        if ok:
            inv.any_success = True
        else:
            inv.report(result.errors[addr])
    inv.out.emit(GroupCreated(cfg, rows, inv.error_list()))


@dataclass(slots=True)
class GroupCreated(Result):
    """updateSubGroup: a line per broker that took the group, then the config as Java prints it."""

    config: SubscriptionGroupConfig
    brokers: list[dict[str, Any]]
    errors: Errors

    def text(self) -> str:
        done = "".join(
            f"create subscription group to {r['brokerAddr']} success.\n" for r in self.brokers if r["ok"]
        )
        return done + group_config_string(self.config)

    def data(self) -> dict[str, Any]:
        return with_errors({"config": group_config_json(self.config), "brokers": self.brokers}, self.errors)


# ------------------------------------------------------------------------------ updateSubGroupList


def _read_group_list(path_text: str) -> list[SubscriptionGroupConfig]:
    data = read_json_list(path_text, "subscription group configs")
    try:
        configs = [SubscriptionGroupConfig.from_json_obj(x).as_5x() for x in data if x is not None]
    except ProtocolError as e:
        raise CommandError(f"{path_text}: {e}") from None
    for cfg in configs:  # one bad entry and nothing is sent
        why = check_subscription_group(cfg)
        if why is not None:
            raise CommandError(f"{path_text}: {why}", ExitCode.USAGE)
    return configs


@java_command(
    "updateSubGroupList",
    [
        JavaOpt(
            "b",
            "brokerAddr",
            "create groups to which broker",
            group="target",
            group_required=True,
            dest="broker_addr",
        ),
        JavaOpt(
            "c",
            "clusterName",
            "create groups to which cluster",
            group="target",
            group_required=True,
            dest="cluster_name",
        ),
        JavaOpt(
            "f",
            "filename",
            "Path to a file with a list of org.apache.rocketmq.remoting.protocol.subscription."
            "SubscriptionGroupConfig in json format",
            required=True,
        ),
    ],
    fanout=True,
    json_doc='{"groups": [str], "brokers": [{"brokerAddr": str, "ok": bool, "batch": bool}], '
    '"errors": [...]?} '
    '("batch" is false where the broker took one request per group)',
    epilog="--dry-run lists, per broker and group, whether the subscription group would be created or "
    "which of its properties would change, changing nothing (with --json: dryRun and a plan of {role, "
    "addr, action, changes}). On a terminal the plan is shown and confirmed first (--yes does not ask).",
    own=safety_options(),
)
async def update_sub_group_list(
    inv: Invocation,
    broker_addr: str | None,
    cluster_name: str | None,
    filename: str,
    dry_run: bool,
    yes: bool,
) -> None:
    configs = _read_group_list(filename.strip())
    if not configs and not dry_run:
        inv.out.emit(GroupListSubmitted([], [], "", []))
        return
    admin = inv.admin
    if broker_addr is not None:
        addrs = [broker_addr.strip()]
        line = "submit batch of group config to {} success, please check the result later.\n"
    else:
        addrs = await cluster_masters(inv, (cluster_name or "").strip())
        line = "submit batch of subscription group config to {} success, please check the result later.\n"
    names = [c.group_name for c in configs]
    planned = [{"brokerAddr": a, "ok": None, "batch": None} for a in addrs]
    if await planned_batch(
        inv,
        addrs,
        configs,
        look=admin.groups.get_all_subscription_group,
        step=lambda addr, cfg, table: _group_step(inv, addr, cfg, table),
        title=f"create or update {len(configs)} subscription groups of {filename.strip()}",
        doc=GroupListSubmitted(names, planned, line, []).data(),
        dry_run=dry_run,
        yes=yes,
    ):
        return
    result = await admin.core.fan_out(
        addrs,
        lambda a: admin.groups.create_and_update_subscription_group_config_list(a, configs),
        deadline=inv.deadline,
    )
    rows = []
    for addr in result.order:
        if addr in result.results:
            inv.any_success = True
            rows.append({"brokerAddr": addr, "ok": True, "batch": result.results[addr]})
        else:
            inv.report(result.errors[addr])
            rows.append({"brokerAddr": addr, "ok": False, "batch": False})
    inv.out.emit(GroupListSubmitted(names, rows, line, inv.error_list()))


def _group_step(
    inv: Invocation, addr: str, cfg: SubscriptionGroupConfig, table: SubscriptionGroupWrapper | BaseException
) -> Step:
    """What sending ``cfg`` would do on the broker at ``addr``, whose group table is ``table`` (a
    failure: it could not be asked): create the group, or which of its properties change."""
    name = cfg.group_name
    if isinstance(table, BaseException):
        return Step("broker", addr, unknown(inv, table))
    old = (table.subscription_group_table or {}).get(name or "")
    if old is None:
        return Step("broker", addr, f"create subscription group {name}")
    before, after = group_config_json(old), group_config_json(cfg)
    diffs = [
        f"{k} {_plan_value(before.get(k))} -> {_plan_value(v)}"
        for k, v in after.items()
        if before.get(k) != v
    ]
    if not diffs:
        return Step("broker", addr, f"subscription group {name} is already so", changes=False)
    return Step("broker", addr, f"update subscription group {name}: " + ", ".join(diffs))


def _plan_value(value: Any) -> str:
    """A property's value in a plan line: JSON, as the file holds it."""
    return json.dumps(value, separators=(",", ":"))


@dataclass(slots=True)
class GroupListSubmitted(Result):
    """updateSubGroupList: the groups of the file and, per broker, whether it took them (``line``:
    Java's success line, ``{}`` for the address)."""

    groups: list[str | None]
    brokers: list[dict[str, Any]]
    line: str
    errors: Errors

    def text(self) -> str:
        return "".join(self.line.format(r["brokerAddr"]) for r in self.brokers if r["ok"])

    def data(self) -> dict[str, Any]:
        return with_errors({"groups": self.groups, "brokers": self.brokers}, self.errors)


# ---------------------------------------------------------------------------------- deleteSubGroup


@java_command(
    "deleteSubGroup",
    [
        JavaOpt("b", "brokerAddr", "delete subscription group from which broker", dest="broker_addr"),
        JavaOpt("c", "clusterName", "delete subscription group from which cluster", dest="cluster_name"),
        JavaOpt("g", "groupName", "subscription group name", required=True, dest="group_name"),
        JavaOpt("r", "removeOffset", "remove offset", dest="remove_offset"),
    ],
    fanout=True,
    json_doc='{"group": str, "cluster": str|null, "brokers": [{"brokerAddr": str, "ok": bool}], '
    '"topicsDeleted": [str] (with -c: the group\'s %RETRY% and %DLQ% topics), "errors": [...]?}',
    epilog="A group that none of the brokers has is deleted as the Java tool does (its lines are "
    "printed), and the exit code is 7. --dry-run lists, per broker, what would be deleted (with --json: "
    "dryRun, exists and a plan of {role, addr, action, changes}). On a terminal the plan is shown and "
    "confirmed first (--yes does not ask).",
    own=safety_options(),
)
async def delete_sub_group(
    inv: Invocation,
    broker_addr: str | None,
    cluster_name: str | None,
    group_name: str,
    remove_offset: str | None,
    dry_run: bool,
    yes: bool,
) -> ExitCode | None:
    need_target(broker_addr, cluster_name)
    group = group_arg(group_name)
    clean = strict_bool(remove_offset, "-r") if remove_offset is not None else False
    admin = inv.admin
    cluster = None if broker_addr is not None else (cluster_name or "").strip()
    addrs = [broker_addr.strip()] if broker_addr is not None else await cluster_masters(inv, cluster or "")
    steps, exists = await _delete_group_plan(inv, group, cluster, addrs, clean)
    where = f"broker [{addrs[0]}]" if cluster is None and addrs else f"cluster [{cluster}]"
    title = f"delete subscription group [{group}] from {where}"
    missing = f"subscription group {group} does not exist on {'that broker' if cluster is None else where}"
    if dry_run:
        plan: dict[str, Any] = {"group": group, "cluster": cluster, "exists": exists, "topicsDeleted": []}
        show_plan(inv, title, steps, {**plan, "brokers": [{"brokerAddr": a, "ok": None} for a in addrs]})
        return not_found(inv, missing) if exists is False else None
    if exists is not False:
        confirm(title, steps, yes)
    result = await admin.core.fan_out(
        addrs, lambda a: admin.groups.delete_subscription_group(a, group, clean), deadline=inv.deadline
    )
    rows = []
    for addr in result.order:
        ok = addr in result.results
        rows.append({"brokerAddr": addr, "ok": ok})
        if ok:
            inv.any_success = True
        else:
            inv.report(result.errors[addr])
    deleted: list[str] = []
    if cluster is not None and inv.any_success:
        try:
            addrs = await admin.brokers.fetch_master_and_slave_addrs(cluster)
        except Exception as e:
            problems: list[BaseException] = [e]
        else:
            problems = await admin.topics.delete_group_topics(group, addrs)
        for exc in problems:
            inv.report(exc)
        if not problems:
            deleted = [RETRY_PREFIX + group, "%DLQ%" + group]
    inv.out.emit(GroupDeleted(group, cluster, rows, deleted, inv.error_list()))
    return not_found(inv, missing) if exists is False and not inv.failures else None


@dataclass(slots=True)
class GroupDeleted(Result):
    """deleteSubGroup: a line per broker that deleted the group; with ``-c``, the cluster's
    ``%RETRY%`` and ``%DLQ%`` topics of the group deleted too."""

    group: str
    cluster: str | None
    brokers: list[dict[str, Any]]
    topics_deleted: list[str]
    errors: Errors

    def text(self) -> str:
        where = "" if self.cluster is None else f" in cluster [{self.cluster}]"
        return "".join(
            f"delete subscription group [{self.group}] from broker [{r['brokerAddr']}]{where} success.\n"
            for r in self.brokers
            if r["ok"]
        )

    def data(self) -> dict[str, Any]:
        doc = {"group": self.group, "cluster": self.cluster, "brokers": self.brokers}
        return with_errors({**doc, "topicsDeleted": self.topics_deleted}, self.errors)


async def _delete_group_plan(
    inv: Invocation, group: str, cluster: str | None, addrs: list[str], clean: bool
) -> tuple[list[Step], bool | None]:
    """What deleteSubGroup would do on each broker, and whether any has the group (None: a broker
    could not be asked)."""
    admin = inv.admin
    tables = await probe(inv, addrs, admin.groups.get_all_subscription_group)
    steps: list[Step] = []
    has: list[bool] = []
    for addr, wrapper in tables.items():
        if failed(wrapper):
            steps.append(Step("broker", addr, unknown(inv, wrapper)))
            continue
        there = group in (wrapper.subscription_group_table or {})
        has.append(there)
        if there:
            what = f"delete subscription group {group}" + (" and its offsets" if clean else "")
            steps.append(Step("broker", addr, what))
        else:
            steps.append(Step("broker", addr, "not there, nothing to delete", changes=False))
    if cluster is not None:
        topics = f"{RETRY_PREFIX}{group} and %DLQ%{group}"
        steps.append(Step("cluster", cluster, f"delete topics {topics} from its brokers and name servers"))
    if any(has):
        return steps, True
    return steps, None if len(has) < len(tables) else False


# ------------------------------------------------------------------------------- getConsumerConfig


@java_command(
    "getConsumerConfig",
    [JavaOpt("g", "groupName", "subscription group name", required=True, dest="group_name")],
    fanout=True,
    json_doc='{"group": str, "brokers": [{"cluster": str|null, "brokerName": str, "brokerAddr": str, '
    '"config": {<SubscriptionGroupConfig properties>}}], "errors": [...]?}',
)
async def get_consumer_config(inv: Invocation, group_name: str) -> None:
    group = group_arg(group_name)
    hits, errors = await inv.admin.groups.find_subscription_group_config(group)
    if not hits and not errors:
        raise CommandError(f"no broker has the subscription group {group}", ExitCode.NOT_FOUND)
    for exc in errors:
        inv.report(exc)
    if hits:
        inv.any_success = True
    inv.out.emit(ConsumerConfigs(group, hits, inv.error_list()))


@dataclass(slots=True)
class ConsumerConfigs(Result):
    """getConsumerConfig: the group's config on each broker that has it, under Java's banner."""

    group: str
    hits: list[GroupConfigHit]
    errors: Errors

    def text(self) -> str:
        lines: list[str] = []
        for hit in self.hits:
            banner = "============================="
            lines.append(f"{banner}{hit.cluster}:{hit.broker_name}{banner}\n")
            for name, value in config_fields(hit.config):
                lines.append(jformat("%s%-40s=  %s\n", "", name, "" if value is None else value))
        return "".join(lines)

    def data(self) -> dict[str, Any]:
        brokers = [
            {
                "cluster": h.cluster,
                "brokerName": h.broker_name,
                "brokerAddr": h.broker_addr,
                "config": group_config_json(h.config),
            }
            for h in self.hits
        ]
        return with_errors({"group": self.group, "brokers": brokers}, self.errors)
