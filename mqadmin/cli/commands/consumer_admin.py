"""Consumer groups, consumers, producers and their connections, as the Java 5.3.3 tool shows them.

updateSubGroup, updateSubGroupList, deleteSubGroup, getConsumerConfig, consumerProgress,
consumerStatus, consumer, consumerConnection, producerConnection, producer.

Text output is the Java tool's, orders included (``HashMap``/``Properties`` iteration, ``TreeMap``
sorting). Where Java fails for no good reason we do better, and say so in the help epilog:

- ``consumerProgress -g G`` for a group without a ``%RETRY%`` topic (it never had a consumer retry,
  Java fails with code 17) looks the group up on every broker and shows what it finds, possibly no
  queue at all; so does a group with no committed offset (Java fails with code 206);
- a 4.x broker without GET_TOPIC_CONFIG (351) does not make consumerProgress fail or show zeros;
- a broker that does not take a batch (225, updateSubGroupList) gets one request per group;
- an unknown cluster, a bad number or a missing file is one stderr line and a non-zero exit code;
- a group name Java's rules refuse, a number the broker would not keep (``-q -1``) or a flag that is
  neither true nor false (``-o maybe``, which Java reads as false) is a usage error (exit 2) and
  nothing is sent.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from mqadmin.admin.consumers import (
    ConsumerRunningInfo,
    EmptyConsumeStatsError,
    NoConnectionError,
    sorted_queues,
)
from mqadmin.admin.errors import AdminError
from mqadmin.cli.command import Invocation, java_command, read_json_list
from mqadmin.cli.errors import CommandError
from mqadmin.cli.exitcodes import ExitCode
from mqadmin.cli.javaopts import JavaOpt
from mqadmin.cli.javatext import front_string_at_least, java_map_string, jformat, jstr
from mqadmin.cli.javatime import format_date, human_millis
from mqadmin.cli.lagalert import Thresholds, alert_options, group_alerts
from mqadmin.cli.nameargs import group_arg, strict_bool, topic_arg
from mqadmin.cli.optvalues import in_range, need_target, parse_int, parse_long
from mqadmin.protocol import names
from mqadmin.protocol.bodies.group import GroupRetryPolicy, SubscriptionGroupConfig
from mqadmin.protocol.bodies.message_queue import MessageQueue
from mqadmin.protocol.bodies.stats import ConsumeStats
from mqadmin.protocol.codes import RequestCode, ResponseCode
from mqadmin.protocol.errors import ProtocolError
from mqadmin.protocol.headers.consumer import (
    RETRY_QUEUE_NUMS_MAX,
    check_subscription_group,
)
from mqadmin.protocol.javacoll import (
    concurrent_hash_order,
    java_hash_order,
    java_string_sort_key,
    properties_order,
)
from mqadmin.protocol.javanum import parse_bool
from mqadmin.protocol.version import version_name
from mqadmin.remoting.errors import RemoteCommandError, RemotingError

if TYPE_CHECKING:
    from mqadmin.protocol.bodies.connection import ConsumerConnection


RETRY_PREFIX = names.RETRY_GROUP_TOPIC_PREFIX

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
    return json.loads(cfg.as_5x().encode(standard=True))


def running_info_text(info: ConsumerRunningInfo) -> str:
    """``ConsumerRunningInfo.formatString`` (5.3.3)."""
    out = ["#Consumer Properties#\n"]
    for key in properties_order(list(info.properties)):
        out.append(jformat("%-40s: %s%n", key, info.properties[key]))
    out.append("\n\n#Consumer Subscription#\n")
    for i, s in enumerate(info.subscriptions, 1):
        out.append(
            f"{i:03d}"
            + jformat(
                " Topic: %-40s ClassFilter: %-8s SubExpression: %s%n",
                s.topic,
                s.class_filter_mode,
                s.sub_string,
            )
        )
    out.append("\n\n#Consumer Offset#\n")
    out.append(jformat("%-64s  %-32s  %-4s  %-20s%n", "#Topic", "#Broker Name", "#QID", "#Consumer Offset"))
    for mq, pq in info.mq_table.items():
        out.append(
            jformat("%-32s  %-32s  %-4d  %-20d%n", mq.topic, mq.broker_name, mq.queue_id, pq.commit_offset)
        )
    out.append("\n\n#Consumer MQ Detail#\n")
    out.append(jformat("%-64s  %-32s  %-4s  %-20s%n", "#Topic", "#Broker Name", "#QID", "#ProcessQueueInfo"))
    for mq, pq in info.mq_table.items():
        pq_text = (
            f"ProcessQueueInfo [commitOffset={pq.commit_offset}, "
            f"cachedMsgMinOffset={pq.cached_msg_min_offset}, "
            f"cachedMsgMaxOffset={pq.cached_msg_max_offset}, cachedMsgCount={pq.cached_msg_count}, "
            f"cachedMsgSizeInMiB={pq.cached_msg_size_in_mib}, "
            f"transactionMsgMinOffset={pq.transaction_msg_min_offset}, "
            f"transactionMsgMaxOffset={pq.transaction_msg_max_offset}, "
            f"transactionMsgCount={pq.transaction_msg_count}, "
            f"locked={jstr(pq.locked)}, tryUnlockTimes={pq.try_unlock_times}, "
            f"lastLockTimestamp={human_millis(pq.last_lock_timestamp)}, droped={jstr(pq.droped)}, "
            f"lastPullTimestamp={human_millis(pq.last_pull_timestamp)}, "
            f"lastConsumeTimestamp={human_millis(pq.last_consume_timestamp)}]"
        )
        out.append(jformat("%-64s  %-32s  %-4d  %s%n", mq.topic, mq.broker_name, mq.queue_id, pq_text))
    out.append("\n\n#Consumer Pop Detail#\n")
    out.append(jformat("%-32s  %-32s  %-4s  %-20s%n", "#Topic", "#Broker Name", "#QID", "#ProcessQueueInfo"))
    for mq, pop in info.mq_pop_table.items():
        pop_text = (
            f"PopProcessQueueInfo [waitAckCount:{pop.wait_ack_count}, droped:{jstr(pop.droped)}, "
            f"lastPopTimestamp:{pop.last_pop_timestamp}]"
        )
        out.append(jformat("%-32s  %-32s  %-4d  %s%n", mq.topic, mq.broker_name, mq.queue_id, pop_text))
    out.append("\n\n#Consumer RT&TPS#\n")
    out.append(
        jformat(
            "%-64s  %14s %14s %14s %14s %18s %25s%n",
            "#Topic",
            "#Pull RT",
            "#Pull TPS",
            "#Consume RT",
            "#ConsumeOK TPS",
            "#ConsumeFailed TPS",
            "#ConsumeFailedMsgsInHour",
        )
    )
    for topic, st in info.status_table.items():
        out.append(
            jformat(
                "%-32s  %14.2f %14.2f %14.2f %14.2f %18.2f %25d%n",
                topic,
                st.pull_rt,
                st.pull_tps,
                st.consume_rt,
                st.consume_ok_tps,
                st.consume_failed_tps,
                st.consume_failed_msgs,
            )
        )
    out.append("\n\n#User Consume Info#\n")
    for k, v in info.user_consumer_info.items():
        out.append(jformat("%-40s: %s%n", k, v))
    if info.jstack is not None:
        out.append("\n\n#Consumer jstack#\n" + info.jstack)
    return "".join(out)


def _is_push(info: ConsumerRunningInfo) -> bool:
    return info.property("PROP_CONSUME_TYPE") == "CONSUME_PASSIVELY"


def subscriptions_agree(infos: dict[str, ConsumerRunningInfo], now_ms: int) -> bool:
    """``ConsumerRunningInfo.analyzeSubscription``: all clients subscribe alike (checked once started)."""
    first = next(iter(infos.values()))
    started = first.property("PROP_CONSUMER_START_TIMESTAMP")
    try:
        started_long_ago = started is not None and now_ms - int(started) > 2 * 60 * 1000
    except ValueError:
        started_long_ago = False
    if not (_is_push(first) and started_long_ago):
        return True
    keys = [[s.tree_key for s in info.subscriptions] for info in infos.values()]
    return all(k == keys[0] for k in keys)


def process_queue_problems(client_id: str, info: ConsumerRunningInfo, now_ms: int) -> str:
    """``ConsumerRunningInfo.analyzeProcessQueue``: queues that cannot be locked or seem blocked."""
    if not _is_push(info):
        return ""
    orderly = parse_bool(info.property("PROP_CONSUMEORDERLY"))
    out = []
    for mq, pq in info.mq_table.items():
        if orderly:
            if not pq.locked:
                out.append(f"{client_id} {mq} can't lock for a while, {now_ms - pq.last_lock_timestamp}ms\n")
            elif pq.droped and pq.try_unlock_times > 0:
                out.append(f"{client_id} {mq} unlock {pq.try_unlock_times} times, still failed\n")
        else:
            diff = now_ms - pq.last_consume_timestamp
            if diff > 60_000 and pq.cached_msg_count > 0:
                out.append(f"{client_id} {mq} can't consume for a while, maybe blocked, {diff}ms\n")
    return "".join(out)


async def cluster_masters(inv: Invocation, cluster: str) -> list[str]:
    """The master addresses of a cluster (Java ``HashSet`` order); an unknown cluster is an error."""
    from mqadmin.admin.brokers import ClusterNotFoundError

    try:
        return await inv.admin.fetch_master_addrs(cluster)
    except ClusterNotFoundError:
        raise CommandError(
            f"cluster {cluster} is not known to the name server; 'mqadmin clusterList' lists the clusters"
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
        from mqadmin.protocol import fastjson

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
)
async def update_sub_group(
    inv: Invocation, broker_addr: str | None, cluster_name: str | None, group_name: str, **opts: str | None
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
    result = await admin.fan_out(
        addrs, lambda a: admin.create_and_update_subscription_group_config(a, cfg), deadline=inv.deadline
    )
    lines, rows = [], []
    for addr in result.order:
        ok = addr in result.results
        rows.append({"brokerAddr": addr, "ok": ok})
        if ok:
            inv.any_success = True
            lines.append(f"create subscription group to {addr} success.\n")
        else:
            inv.report(result.errors[addr])
    if inv.out.structured:
        doc: dict[str, Any] = {"config": group_config_json(cfg), "brokers": rows}
        inv.out.data(inv.add_errors(doc))
    else:
        inv.out.text("".join(lines) + group_config_string(cfg))


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
)
async def update_sub_group_list(
    inv: Invocation, broker_addr: str | None, cluster_name: str | None, filename: str
) -> None:
    configs = _read_group_list(filename.strip())
    if not configs:
        inv.out.emit({"groups": [], "brokers": []}, lambda: "")
        return
    admin = inv.admin
    if broker_addr is not None:
        addrs = [broker_addr.strip()]
        line = "submit batch of group config to {} success, please check the result later.\n"
    else:
        addrs = await cluster_masters(inv, (cluster_name or "").strip())
        line = "submit batch of subscription group config to {} success, please check the result later.\n"
    result = await admin.fan_out(
        addrs,
        lambda a: admin.create_and_update_subscription_group_config_list(a, configs),
        deadline=inv.deadline,
    )
    lines, rows = [], []
    for addr in result.order:
        if addr in result.results:
            inv.any_success = True
            lines.append(line.format(addr))
            rows.append({"brokerAddr": addr, "ok": True, "batch": result.results[addr]})
        else:
            inv.report(result.errors[addr])
            rows.append({"brokerAddr": addr, "ok": False, "batch": False})
    if inv.out.structured:
        doc: dict[str, Any] = {"groups": [c.group_name for c in configs], "brokers": rows}
        inv.out.data(inv.add_errors(doc))
    else:
        inv.out.text("".join(lines))


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
)
async def delete_sub_group(
    inv: Invocation,
    broker_addr: str | None,
    cluster_name: str | None,
    group_name: str,
    remove_offset: str | None,
) -> None:
    need_target(broker_addr, cluster_name)
    group = group_arg(group_name)
    clean = strict_bool(remove_offset, "-r") if remove_offset is not None else False
    admin = inv.admin
    cluster = None if broker_addr is not None else (cluster_name or "").strip()
    addrs = [broker_addr.strip()] if broker_addr is not None else await cluster_masters(inv, cluster or "")
    result = await admin.fan_out(
        addrs, lambda a: admin.delete_subscription_group(a, group, clean), deadline=inv.deadline
    )
    lines, rows = [], []
    for addr in result.order:
        ok = addr in result.results
        rows.append({"brokerAddr": addr, "ok": ok})
        if not ok:
            inv.report(result.errors[addr])
            continue
        inv.any_success = True
        if cluster is None:
            lines.append(f"delete subscription group [{group}] from broker [{addr}] success.\n")
        else:
            lines.append(
                f"delete subscription group [{group}] from broker [{addr}] in cluster [{cluster}] success.\n"
            )
    deleted: list[str] = []
    if cluster is not None and inv.any_success:
        problems = await admin.delete_group_topics(group, cluster)
        for exc in problems:
            inv.report(exc)
        if not problems:
            deleted = [RETRY_PREFIX + group, "%DLQ%" + group]
    if inv.out.structured:
        doc: dict[str, Any] = {"group": group, "cluster": cluster, "brokers": rows, "topicsDeleted": deleted}
        inv.out.data(inv.add_errors(doc))
    else:
        inv.out.text("".join(lines))


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
    hits, errors = await inv.admin.find_subscription_group_config(group)
    if not hits and not errors:
        raise CommandError(f"no broker has the subscription group {group}", ExitCode.NOT_FOUND)
    for exc in errors:
        inv.report(exc)
    if hits:
        inv.any_success = True
    lines: list[str] = []
    for hit in hits:
        lines.append(
            f"============================={hit.cluster}:{hit.broker_name}=============================\n"
        )
        for name, value in config_fields(hit.config):
            lines.append(jformat("%s%-40s=  %s\n", "", name, "" if value is None else value))
    if inv.out.structured:
        doc: dict[str, Any] = {
            "group": group,
            "brokers": [
                {
                    "cluster": h.cluster,
                    "brokerName": h.broker_name,
                    "brokerAddr": h.broker_addr,
                    "config": group_config_json(h.config),
                }
                for h in hits
            ],
        }
        inv.out.data(inv.add_errors(doc))
    else:
        inv.out.text("".join(lines))


# -------------------------------------------------------------------------------- consumerProgress

_PROGRESS_HEADER = "%-64s  %-32s  %-4s  %-20s  %-20s  %-20s %-20s%s%n"
_PROGRESS_ROW = "%-64s  %-32s  %-4d  %-20d  %-20d  %-20d %-20d %s%n"
_PROGRESS_HEADER_IP = "%-64s  %-32s  %-4s  %-20s  %-20s  %-20s %-20s %-20s%s%n"
_PROGRESS_ROW_IP = "%-64s  %-32s  %-4d  %-20d  %-20d  %-20s %-20d %-20d %s%n"
_GROUPS_HEADER = "%-64s  %-6s  %-24s %-5s  %-14s  %-7s  %s%n"
_GROUPS_ROW = "%-64s  %-6d  %-24s %-5s  %-14s  %-7d  %d%n"


def parse_group_of_retry_topic(topic: str) -> str:
    """``KeyBuilder.parseGroup``: the group of ``%RETRY%<group>`` (pop retry: ``%RETRY%<group>+<topic>``)."""
    if "+" in topic:
        parts = topic.split("+")
        if len(parts) == 2:
            return parts[0][len(RETRY_PREFIX) :]
    return topic[len(RETRY_PREFIX) :]


async def _client_of_queue(inv: Invocation, group: str) -> dict[MessageQueue, str]:
    """Which client (its IP) holds each queue; empty when that cannot be found (Java logs and goes on)."""
    out: dict[MessageQueue, str] = {}
    try:
        cc = await inv.admin.examine_consumer_connection_info(group)
        for conn in cc.connection_set:
            cid = conn.client_id or ""
            info = await inv.admin.get_consumer_running_info(group, cid, False)
            if info is None:
                continue
            for mq in info.mq_table:
                out[mq] = cid.split("@")[0]
    except (AdminError, RemotingError):
        pass
    return out


async def _check_group_known(inv: Invocation, group: str, stats: ConsumeStats) -> None:
    """A group without any committed offset that no broker has a subscription group for, and with no
    consumer online, is a misspelt name, not a group with lag: the brokers answer consume stats for any
    name (offset 0, the whole topic as lag). Raises a NOT_FOUND error for it."""
    if any(w.consumer_offset > 0 for w in stats.offset_table.values()):
        return
    hits, errors = await inv.admin.find_subscription_group_config(group)
    if hits or errors:  # known, or some broker could not say: do not call it unknown
        return
    try:
        conn = await inv.admin.examine_consumer_connection_info(group)
        if conn.connection_set:
            return
    except (AdminError, RemotingError):
        pass
    raise CommandError(
        f"no broker knows the consumer group {group} (no subscription group, no committed offset, no "
        "consumer online); 'mqadmin consumerProgress' without -g lists the groups",
        ExitCode.NOT_FOUND,
    )


async def _group_progress(
    inv: Invocation, group: str, topic: str | None, cluster: str | None, show_ip: bool, limits: Thresholds
) -> ExitCode | None:
    failures: list[BaseException] = []
    try:
        stats = await inv.admin.examine_consume_stats(
            group, topic, cluster, any_broker_if_no_route=True, failures=failures
        )
        empty: EmptyConsumeStatsError | None = None
    except EmptyConsumeStatsError as e:
        if e.broadcasting:
            raise
        stats, empty = ConsumeStats(), e
    if not failures:
        await _check_group_known(inv, group, stats)
    if empty is not None:
        inv.warn(
            f"group {group} has no committed offset on any queue"
            + (" (it has no %RETRY% topic: no consumer of it ever retried)" if empty.no_route else "")
        )
    for exc in failures:
        inv.report(exc)
    inv.any_success = True
    clients = await _client_of_queue(inv, group) if show_ip else {}
    lines = [
        jformat(
            _PROGRESS_HEADER_IP if show_ip else _PROGRESS_HEADER,
            "#Topic",
            "#Broker Name",
            "#QID",
            "#Broker Offset",
            "#Consumer Offset",
            *(["#Client IP"] if show_ip else []),
            "#Diff",
            "#Inflight",
            "#LastTime",
        )
    ]
    rows: list[dict[str, Any]] = []
    diff_total = inflight_total = 0
    for mq in sorted_queues(stats):
        w = stats.offset_table[mq]
        diff = w.broker_offset - w.consumer_offset
        inflight = (w.pull_offset or 0) - w.consumer_offset
        diff_total += diff
        inflight_total += inflight
        last = "N/A" if w.last_timestamp == 0 else format_date(w.last_timestamp)
        head = (front_string_at_least(mq.topic, 64), front_string_at_least(mq.broker_name, 32), mq.queue_id)
        row: dict[str, Any] = {
            "topic": mq.topic,
            "brokerName": mq.broker_name,
            "queueId": mq.queue_id,
            "brokerOffset": w.broker_offset,
            "consumerOffset": w.consumer_offset,
            "diff": diff,
            "inflight": inflight,
            "lastTimestamp": w.last_timestamp,
        }
        if show_ip:
            ip = clients.get(mq, "N/A")
            row["clientIP"] = ip
            lines.append(
                jformat(_PROGRESS_ROW_IP, *head, w.broker_offset, w.consumer_offset, ip, diff, inflight, last)
            )
        else:
            lines.append(
                jformat(_PROGRESS_ROW, *head, w.broker_offset, w.consumer_offset, diff, inflight, last)
            )
        rows.append(row)
    lines.append("\n")
    lines.append(jformat("Consume TPS: %.2f%n", stats.consume_tps))
    lines.append(jformat("Consume Diff Total: %d%n", diff_total))
    lines.append(jformat("Consume Inflight Total: %d%n", inflight_total))
    doc: dict[str, Any] = {
        "group": group,
        "queues": rows,
        "consumeTps": stats.consume_tps,
        "diffTotal": diff_total,
        "inflightTotal": inflight_total,
    }
    alerts = group_alerts(group, stats, limits)
    if limits.active:
        doc["alerts"] = alerts
    inv.out.emit(inv.add_errors(doc), lambda: "".join(lines))
    return alert_exit(inv, alerts)


def alert_exit(inv: Invocation, alerts: list[str]) -> ExitCode | None:
    """Each alert on stderr; THRESHOLD when any, unless a server failed (that failure's code wins)."""
    for a in alerts:
        click.echo(f"mqadmin {inv.name}: ALERT: {a}", err=True)
    return ExitCode.THRESHOLD if alerts and not inv.failures else None


def _quiet(exc: BaseException) -> bool:
    """Answers that only mean "no stats"/"offline" for a group (Java shows zeros or OFFLINE for them)."""
    return isinstance(exc, AdminError | RemoteCommandError) or not isinstance(exc, RemotingError)


async def _one_group_summary(
    inv: Invocation, group: str
) -> tuple[ConsumeStats | None, ConsumerConnection | None, list[BaseException]]:
    admin = inv.admin
    problems: list[BaseException] = []
    stats: ConsumeStats | None = None
    conn: ConsumerConnection | None = None
    try:
        stats = await admin.examine_consume_stats(group, failures=problems)
    except Exception as e:
        if not _quiet(e):
            problems.append(e)
    try:
        conn = await admin.examine_consumer_connection_info(group)
    except Exception as e:
        if not _quiet(e):
            problems.append(e)
    return stats, conn, problems


def group_summary_row(
    group: str, stats: ConsumeStats | None, conn: ConsumerConnection | None
) -> tuple[str, dict[str, Any]]:
    """One ``consumerProgress`` (all groups) row: its text and its JSON object."""
    count = len(conn.connection_set) if conn is not None else 0
    ctype = conn.consume_type if conn is not None else None
    model = conn.message_model if conn is not None else None
    version = version_name(conn.min_version()) if conn is not None and count > 0 else "OFFLINE"
    type_desc = ("PULL" if ctype == "CONSUME_ACTIVELY" else "PUSH") if count else ""
    model_desc = jstr(model) if count and ctype == "CONSUME_PASSIVELY" else ""
    tps = int(stats.consume_tps) if stats is not None else 0
    diff = stats.total_diff() if stats is not None else 0
    text = jformat(
        _GROUPS_ROW, front_string_at_least(group, 64), count, version, type_desc, model_desc, tps, diff
    )
    data = {
        "group": group,
        "count": count,
        "version": version if count else None,
        "type": type_desc or None,
        "model": model_desc or None,
        "tps": tps,
        "diffTotal": diff,
    }
    return text, data


async def _all_groups_progress(inv: Invocation, limits: Thresholds) -> ExitCode | None:
    admin = inv.admin
    inv.out.text(
        jformat(_GROUPS_HEADER, "#Group", "#Count", "#Version", "#Type", "#Model", "#TPS", "#Diff Total")
    )
    topics = java_hash_order(await admin.fetch_all_topic_list())
    inv.any_success = True
    groups = [parse_group_of_retry_topic(t) for t in topics if t.startswith(RETRY_PREFIX)]
    # a group's summary is a route, consume stats (three request timeouts, as Java) and a connection
    # lookup: the default deadline leaves room for all of them, so a frozen broker is reported as the
    # request that timed out, not as groups cut off
    deadline = inv.common.deadline if inv.common.deadline is not None else inv.settings.timeout * 6
    result = await admin.fan_out(groups, lambda g: _one_group_summary(inv, g), deadline=deadline)
    lines, rows, alerts = [], [], []
    cut = inv.report_cut_off(result, "groups")
    for group in groups:
        if group in result.errors:
            if group not in cut:
                inv.report_once(result.errors[group])
            stats, conn = None, None
        else:
            stats, conn, problems = result.results[group]
            for p in problems:  # a frozen broker fails every group: said once
                inv.report_once(p)
        text, data = group_summary_row(group, stats, conn)
        lines.append(text)
        rows.append(data)
        alerts += group_alerts(group, stats, limits)
    if inv.out.structured:
        doc: dict[str, Any] = {"groups": rows}
        if limits.active:
            doc["alerts"] = alerts
        inv.out.data(inv.add_errors(doc))
    else:
        inv.out.text("".join(lines))
    return alert_exit(inv, alerts)


@java_command(
    "consumerProgress",
    [
        JavaOpt("g", "groupName", "consumer group name", dest="group_name"),
        JavaOpt("t", "topicName", "topic name", dest="topic_name"),
        JavaOpt("s", "showClientIP", "Show Client IP per Queue", dest="show_client_ip"),
        JavaOpt("c", "cluster", "Cluster name or lmq parent topic, lmq is used to find the route."),
    ],
    fanout=True,
    json_doc='with -g: {"group": str, "queues": [{"topic": str, "brokerName": str, "queueId": int, '
    '"brokerOffset": int, "consumerOffset": int, "clientIP": str (with -s true), "diff": int, '
    '"inflight": int, '
    '"lastTimestamp": ms}], "consumeTps": num, "diffTotal": int, "inflightTotal": int}; '
    'without -g: {"groups": [{"group": str, "count": int, "version": str|null, "type": "PUSH"|"PULL"|null, '
    '"model": str|null, "tps": int, "diffTotal": int}], "errors": [...]?}; '
    'with --max-lag or --stuck-after both have "alerts": [str]',
    epilog="A group given with -g that has no %RETRY% topic or no committed offset is shown with the "
    "queues found on the brokers (maybe none), not failed as the Java tool does; a group no broker "
    "knows at all (no subscription group, no committed offset, no consumer online) is an error, exit 7. "
    "When some brokers do not answer, the queues of the others are shown, each failure is on stderr "
    "and the exit code is 6. --max-lag and --stuck-after turn the command into a check for cron or "
    "Nagios: exit 8 when a threshold is crossed (a server failure's code wins over it).",
    own=alert_options(),
    watch=True,
)
async def consumer_progress(
    inv: Invocation,
    group_name: str | None,
    topic_name: str | None,
    show_client_ip: str | None,
    cluster: str | None,
    max_lag: int | None,
    stuck_after: float | None,
) -> ExitCode | None:
    show_ip = show_client_ip is not None and show_client_ip.lower() == "true"
    limits = Thresholds.of(max_lag, stuck_after)
    if group_name is None:
        return await _all_groups_progress(inv, limits)
    group = group_arg(group_name)
    topic = topic_arg(topic_name) if topic_name is not None else None
    cluster_value = cluster.strip() if cluster is not None and topic is not None else None
    return await _group_progress(inv, group, topic, cluster_value, show_ip, limits)


# ------------------------------------------------------------------------ consumerStatus, consumer


async def _connection(inv: Invocation, group: str, broker: str | None) -> ConsumerConnection:
    try:
        return await inv.admin.examine_consumer_connection_info(group, broker)
    except NoConnectionError:
        raise CommandError(f"no consumer of group {group} is online", ExitCode.REMOTE) from None
    except RemoteCommandError as e:
        if e.code != ResponseCode.TOPIC_NOT_EXIST or e.request_code != RequestCode.GET_ROUTEINFO_BY_TOPIC:
            raise
        raise CommandError(
            f"no consumer of group {group} is online: the name server has no {RETRY_PREFIX}{group} topic, "
            "so no consumer of the group ever connected to a broker",
            ExitCode.REMOTE,
        ) from None


async def _running_infos(
    inv: Invocation,
    group: str,
    cc: ConsumerConnection,
    jstack: bool,
    row: Callable[[int, str, str, str], str],
) -> None:
    """Each client's running info saved to ``<now>/<clientId>``, a row per client, then the analysis."""
    now = int(time.time() * 1000)
    infos: dict[str, ConsumerRunningInfo] = {}
    lines: list[str] = []
    clients: list[dict[str, Any]] = []
    index = 1
    for conn in cc.connection_set:
        cid = conn.client_id or ""
        try:
            info = await inv.admin.get_consumer_running_info(group, cid, jstack)
        except (AdminError, RemotingError) as e:
            inv.report(e)
            continue
        if info is None:
            continue
        infos[cid] = info
        path = f"{now}/{cid}"
        try:
            Path(path).parent.mkdir(parents=True, exist_ok=True)
            Path(path).write_text(running_info_text(info), encoding="utf-8")
        except OSError as e:
            inv.report(CommandError(f"cannot write {path}: {e}"))
            continue
        inv.any_success = True
        version = version_name(conn.version)
        lines.append(row(index, cid, version, path))
        clients.append({"index": index, "clientId": cid, "version": version, "file": path})
        index += 1
    same = None
    problems = ""
    if infos:
        ordered = {k: infos[k] for k in sorted(infos, key=java_string_sort_key)}
        same = subscriptions_agree(ordered, now)
        if same:
            lines.append("\n\nSame subscription in the same group of consumer")
            lines.append("\n\nRebalance OK\n")
            problems = "".join(process_queue_problems(cid, info, now) for cid, info in ordered.items())
            lines.append(problems)
        else:
            lines.append("\n\nWARN: Different subscription in the same group of consumer!!!")
    if inv.out.structured:
        doc: dict[str, Any] = {
            "group": group,
            "consumers": clients,
            "sameSubscription": same,
            "problems": problems.splitlines(),
        }
        inv.out.data(inv.add_errors(doc))
    else:
        inv.out.text("".join(lines))


async def _one_running_info(inv: Invocation, group: str, client_id: str, jstack: bool) -> None:
    info = await inv.admin.get_consumer_running_info(group, client_id, jstack)
    if info is None:
        raise CommandError(f"no broker of group {group}'s %RETRY% topic to ask")
    inv.out.emit(
        {"group": group, "clientId": client_id, "runningInfo": info.to_json_obj()},
        lambda: running_info_text(info),
    )


_RUNNING_JSON = (
    '{"group": str, "consumers": [{"index": int, "clientId": str, "version": str, "file": str}], '
    '"sameSubscription": bool|null, "problems": [str], "errors": [...]?}; with -i: {"group": str, '
    '"clientId": str, "runningInfo": {"properties": {..}, "subscriptionSet": [..], "mqTable": [..], '
    '"mqPopTable": [..], "statusTable": {..}, "userConsumerInfo": {..}, "jstack": str|null}}'
)


@java_command(
    "consumerStatus",
    [
        JavaOpt("g", "consumerGroup", "consumer group name", required=True, dest="consumer_group"),
        JavaOpt("i", "clientId", "The consumer's client id", dest="client_id"),
        JavaOpt("b", "brokerAddr", "broker address", dest="broker_addr"),
        JavaOpt("s", "jstack", "Run jstack command in the consumer progress", has_arg=False),
    ],
    json_doc=_RUNNING_JSON,
    epilog="Without -i, each consumer's running info is written to <now>/<clientId> under the "
    "current directory, as the Java tool does.",
)
async def consumer_status(
    inv: Invocation, consumer_group: str, client_id: str | None, broker_addr: str | None, jstack: bool
) -> None:
    group = group_arg(consumer_group)
    cc = await _connection(inv, group, broker_addr.strip() if broker_addr is not None else None)
    if client_id is not None:
        await _one_running_info(inv, group, client_id.strip(), jstack)
        return
    inv.out.text(
        jformat("%-10s %-40s %-20s %s%n", "#Index", "#ClientId", "#Version", "#ConsumerRunningInfoFile")
    )
    await _running_infos(
        inv, group, cc, jstack, lambda i, cid, v, p: jformat("%-10d %-40s %-20s %s%n", i, cid, v, p)
    )


@java_command(
    "consumer",
    [
        JavaOpt("g", "consumerGroup", "consumer group name", required=True, dest="consumer_group"),
        JavaOpt("s", "jstack", "Run jstack command in the consumer progress", has_arg=False),
        JavaOpt("i", "clientId", "The consumer's client id", dest="client_id"),
    ],
    json_doc=_RUNNING_JSON,
    epilog="Not registered in the Java tool (its class ConsumerSubCommand exists); this is what it does, "
    "in its output format: one line per online consumer (index, client id, version, file) with its "
    "running info written to <now>/<clientId>, then the subscription check; -i prints one client's "
    "running info.",
)
async def consumer(inv: Invocation, consumer_group: str, jstack: bool, client_id: str | None) -> None:
    group = group_arg(consumer_group)
    cc = await _connection(inv, group, None)
    if client_id is not None:
        await _one_running_info(inv, group, client_id.strip(), jstack)
        return
    await _running_infos(
        inv, group, cc, jstack, lambda i, cid, v, p: f"{i:03d}" + jformat("  %-40s %-20s %s%n", cid, v, p)
    )


# ------------------------------------------------------------------------------------- connections


@java_command(
    "consumerConnection",
    [
        JavaOpt("g", "consumerGroup", "consumer group name", required=True, dest="consumer_group"),
        JavaOpt("b", "brokerAddr", "broker address", dest="broker_addr"),
    ],
    json_doc='{"group": str, "connections": [{"clientId": str, "clientAddr": str, "language": str, '
    '"version": str}], "subscriptions": [{"topic": str, "subExpression": str}], "consumeType": str, '
    '"messageModel": str, "consumeFromWhere": str}',
)
async def consumer_connection(inv: Invocation, consumer_group: str, broker_addr: str | None) -> None:
    group = group_arg(consumer_group)
    cc = await _connection(inv, group, broker_addr.strip() if broker_addr is not None else None)
    lines = [jformat("%-36s %-22s %-10s %s%n", "#ClientId", "#ClientAddr", "#Language", "#Version")]
    conns = []
    for c in cc.connection_set:
        version = version_name(c.version)
        lines.append(jformat("%-36s %-22s %-10s %s%n", c.client_id, c.client_addr, c.language, version))
        conns.append(
            {"clientId": c.client_id, "clientAddr": c.client_addr, "language": c.language, "version": version}
        )
    lines.append("\nBelow is subscription:\n")
    lines.append(jformat("%-20s %s%n", "#Topic", "#SubExpression"))
    subs = []
    for topic in concurrent_hash_order(list(cc.subscription_table)):
        sd = cc.subscription_table[topic]
        lines.append(jformat("%-20s %s%n", sd.topic, sd.sub_string))
        subs.append({"topic": sd.topic, "subExpression": sd.sub_string})
    lines.append("\n")
    lines.append(f"ConsumeType: {jstr(cc.consume_type)}\n")
    lines.append(f"MessageModel: {jstr(cc.message_model)}\n")
    lines.append(f"ConsumeFromWhere: {jstr(cc.consume_from_where)}\n")
    doc = {
        "group": group,
        "connections": conns,
        "subscriptions": subs,
        "consumeType": cc.consume_type,
        "messageModel": cc.message_model,
        "consumeFromWhere": cc.consume_from_where,
    }
    inv.out.emit(doc, lambda: "".join(lines))


@java_command(
    "producerConnection",
    [
        JavaOpt("g", "producerGroup", "producer group name", required=True, dest="producer_group"),
        JavaOpt("t", "topic", "topic name", required=True),
    ],
    json_doc='{"group": str, "topic": str, "connections": [{"clientId": str, "clientAddr": str, '
    '"language": str, "version": str}]}',
)
async def producer_connection(inv: Invocation, producer_group: str, topic: str) -> None:
    group, t = group_arg(producer_group), topic_arg(topic)
    try:
        pc = await inv.admin.examine_producer_connection_info(group, t)
    except NoConnectionError:
        raise CommandError(f"no producer of group {group} is online", ExitCode.REMOTE) from None
    lines, conns = [], []
    for i, c in enumerate(pc.connection_set, 1):
        version = version_name(c.version)
        lines.append(
            f"{i:04d}" + jformat("  %-32s %-22s %-8s %s%n", c.client_id, c.client_addr, c.language, version)
        )
        conns.append(
            {"clientId": c.client_id, "clientAddr": c.client_addr, "language": c.language, "version": version}
        )
    inv.out.emit({"group": group, "topic": t, "connections": conns}, lambda: "".join(lines))


@java_command(
    "producer",
    [JavaOpt("b", "broker", "broker address", required=True)],
    json_doc='{"broker": str, "groups": {"<group>": [{"clientId": str, "remoteIP": str, "language": str, '
    '"version": int, "lastUpdateTimestamp": ms}]}}',
)
async def producer(inv: Invocation, broker: str) -> None:
    addr = broker.strip()
    table = await inv.admin.get_all_producer_info(addr)
    lines = []
    groups: dict[str, Any] = {}
    for group in java_hash_order(list(table)):
        infos = table[group]
        groups[group] = [p.to_json_obj() for p in infos]
        if not infos:
            lines.append(f"producer group ({group}) instances are empty\n")
            continue
        for p in infos:
            lines.append(f"producer group ({group}) instance : {p.java_string()}\n")
    inv.out.emit({"broker": addr, "groups": groups}, lambda: "".join(lines))
