"""The consumers of a group that are online, as the Java 5.3.3 tool shows them.

consumerStatus, consumer (their running state) and consumerConnection (their connections and
subscriptions), all found through the group's consumer connections.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mqadmin.admin.connections import NoConnectionError
from mqadmin.admin.errors import AdminError
from mqadmin.cli.command import Invocation, java_command
from mqadmin.cli.common import OurOpt
from mqadmin.cli.errors import CommandError
from mqadmin.cli.exitcodes import ExitCode
from mqadmin.cli.javaopts import JavaOpt
from mqadmin.cli.javatext import jformat, jstr
from mqadmin.cli.javatime import human_millis
from mqadmin.cli.nameargs import group_arg
from mqadmin.cli.results import Result
from mqadmin.protocol.bodies.connection import ConsumerConnection
from mqadmin.protocol.bodies.consumption import ConsumerRunningInfo
from mqadmin.protocol.codes import RequestCode, ResponseCode
from mqadmin.protocol.javacoll import concurrent_hash_order, java_string_sort_key, properties_order
from mqadmin.protocol.javanum import parse_bool
from mqadmin.protocol.names import RETRY_GROUP_TOPIC_PREFIX as RETRY_PREFIX
from mqadmin.protocol.version import version_name
from mqadmin.remoting.errors import RemoteCommandError, RemotingError

# ------------------------------------------------------------------------------------ text helpers


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


# ------------------------------------------------------------------------ consumerStatus, consumer


async def _connection(inv: Invocation, group: str, broker: str | None) -> ConsumerConnection:
    try:
        return await inv.admin.connections.examine_consumer_connection_info(group, broker)
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
    save: str | None,
) -> None:
    """A row per client, then the analysis; with ``--save DIR`` each client's running info is written
    to ``DIR/<now>/<clientId>`` (Java writes ``<now>/<clientId>`` into the working directory on every
    run; a read-only command should not leave files behind, so the file column is ``-`` unless saved)."""
    now = int(time.time() * 1000)
    infos: dict[str, ConsumerRunningInfo] = {}
    lines: list[str] = []
    clients: list[dict[str, Any]] = []
    index = 1
    for conn in cc.connection_set:
        cid = conn.client_id or ""
        try:
            info = await inv.admin.consumption.get_consumer_running_info(group, cid, jstack)
        except (AdminError, RemotingError) as e:
            inv.report(e)
            continue
        if info is None:
            continue
        infos[cid] = info
        if save is None:
            path = None
        else:
            path = _save_running_info(inv, Path(save) / str(now) / cid, info)
        if save is not None and path is None:
            continue
        inv.any_success = True
        version = version_name(conn.version)
        lines.append(row(index, cid, version, path or "-"))
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


def _save_running_info(inv: Invocation, path: Path, info: ConsumerRunningInfo) -> str | None:
    """Write one client's running info where ``--save`` asked; the path written, or None (reported)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(running_info_text(info), encoding="utf-8")
    except OSError as e:
        inv.report(CommandError(f"cannot write {path}: {e}"))
        return None
    return str(path)


_SAVE = OurOpt(
    ("--save",),
    "save",
    metavar="DIR",
    help="Write each consumer's running info to DIR/<now>/<clientId> (the Java tool always writes "
    "<now>/<clientId> into the working directory; without --save nothing is written and the file "
    "column shows -).",
)


async def _one_running_info(inv: Invocation, group: str, client_id: str, jstack: bool) -> None:
    info = await inv.admin.consumption.get_consumer_running_info(group, client_id, jstack)
    if info is None:
        raise CommandError(f"no broker of group {group}'s %RETRY% topic to ask")
    inv.out.emit(RunningInfo(group, client_id, info))


@dataclass(slots=True)
class RunningInfo(Result):
    """consumerStatus/consumer -i: one client's running info, as Java's ``formatString``."""

    group: str
    client_id: str
    info: ConsumerRunningInfo

    def text(self) -> str:
        return running_info_text(self.info)

    def data(self) -> dict[str, Any]:
        return {"group": self.group, "clientId": self.client_id, "runningInfo": self.info.to_json_obj()}


_RUNNING_JSON = (
    '{"group": str, "consumers": [{"index": int, "clientId": str, "version": str, "file": str|null}], '
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
    epilog="Without -i, each consumer's running info is written to DIR/<now>/<clientId> only with "
    "--save DIR (the Java tool writes <now>/<clientId> under the current directory every time).",
    own=[_SAVE],
)
async def consumer_status(
    inv: Invocation,
    consumer_group: str,
    client_id: str | None,
    broker_addr: str | None,
    jstack: bool,
    save: str | None,
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
        inv, group, cc, jstack, lambda i, cid, v, p: jformat("%-10d %-40s %-20s %s%n", i, cid, v, p), save
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
    "in its output format: one line per online consumer (index, client id, version, file), then the "
    "subscription check; the running info is written to DIR/<now>/<clientId> only with --save DIR; "
    "-i prints one client's running info.",
    own=[_SAVE],
)
async def consumer(
    inv: Invocation, consumer_group: str, jstack: bool, client_id: str | None, save: str | None
) -> None:
    group = group_arg(consumer_group)
    cc = await _connection(inv, group, None)
    if client_id is not None:
        await _one_running_info(inv, group, client_id.strip(), jstack)
        return
    await _running_infos(
        inv,
        group,
        cc,
        jstack,
        lambda i, cid, v, p: f"{i:03d}" + jformat("  %-40s %-20s %s%n", cid, v, p),
        save,
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
    inv.out.emit(ConnectionView(group, cc))


@dataclass(slots=True)
class ConnectionView(Result):
    """consumerConnection: the group's clients online and what they subscribe to (Java prints the
    subscriptions in ``ConcurrentHashMap`` order; the document sorts them by topic)."""

    group: str
    connection: ConsumerConnection

    def text(self) -> str:
        cc = self.connection
        lines = [jformat("%-36s %-22s %-10s %s%n", "#ClientId", "#ClientAddr", "#Language", "#Version")]
        for c in cc.connection_set:
            version = version_name(c.version)
            lines.append(jformat("%-36s %-22s %-10s %s%n", c.client_id, c.client_addr, c.language, version))
        lines.append("\nBelow is subscription:\n")
        lines.append(jformat("%-20s %s%n", "#Topic", "#SubExpression"))
        for topic in concurrent_hash_order(list(cc.subscription_table)):
            sd = cc.subscription_table[topic]
            lines.append(jformat("%-20s %s%n", sd.topic, sd.sub_string))
        lines.append("\n")
        lines.append(f"ConsumeType: {jstr(cc.consume_type)}\n")
        lines.append(f"MessageModel: {jstr(cc.message_model)}\n")
        lines.append(f"ConsumeFromWhere: {jstr(cc.consume_from_where)}\n")
        return "".join(lines)

    def data(self) -> dict[str, Any]:
        cc = self.connection
        conns = [
            {"clientId": c.client_id, "clientAddr": c.client_addr, "language": c.language}
            | {"version": version_name(c.version)}
            for c in cc.connection_set
        ]
        table = cc.subscription_table
        subs = [{"topic": table[t].topic, "subExpression": table[t].sub_string} for t in sorted(table)]
        return {
            "group": self.group,
            "connections": conns,
            "subscriptions": subs,
            "consumeType": cc.consume_type,
            "messageModel": cc.message_model,
            "consumeFromWhere": cc.consume_from_where,
        }
