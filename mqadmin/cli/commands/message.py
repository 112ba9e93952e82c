"""Message lookups: queryMsgById, queryMsgByKey, queryMsgByUniqueKey, queryMsgByOffset,
queryMsgTraceById, and our decodeMessageId.

The text is the Java 5.3.3 tool's. Where Java misbehaves we say what went wrong instead:

- an id that is not 32 or 56 hex characters is refused before anything is sent (Java 5.3.3 tries
  it as a unique key over the last three days and reports "no message");
- an offset id whose broker is down, or has no message there, is reported as such (Java falls back
  to a unique-key query and reports "no message");
- a unique id is looked up over the whole index, not only the last three days;
- ``-b`` after ``-e`` is refused (Java asks the brokers and reports "no message").
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from mqadmin.cli.command import Invocation, java_command
from mqadmin.cli.commands.message_text import (
    MESSAGE_JSON_DOC,
    check_range,
    decode_body,
    detail_block,
    java_charset,
    message_json,
    tracks_text,
    write_body_file,
)
from mqadmin.cli.errors import CommandError, PartialFailure, usage_error
from mqadmin.cli.exitcodes import ExitCode
from mqadmin.cli.javaopts import JavaOpt
from mqadmin.cli.javatext import jformat
from mqadmin.cli.javatime import format_date, human_time
from mqadmin.cli.nameargs import group_arg, topic_arg
from mqadmin.cli.optvalues import parse_int, parse_long
from mqadmin.cli.results import Plain, Result
from mqadmin.protocol.errors import ProtocolError
from mqadmin.protocol.javanum import LONG_MAX, parse_bool
from mqadmin.protocol.message import Message
from mqadmin.protocol.message_record import MessageExt
from mqadmin.protocol.msgid import decode_offset_msg_id, decode_unique_id, java_ip_string, parse_unique_id

CLUSTER = JavaOpt("c", "cluster", "Cluster name or lmq parent topic, lmq is used to find the route.")
BODY_FORMAT = JavaOpt("f", "bodyFormat", "print message body by the specified format", dest="body_format")


def check_msg_id(msg_id: str) -> str:
    """An id as the brokers know it: 32 or 56 hex characters (upper-cased)."""
    text = msg_id.strip()
    if len(text) not in (32, 56):
        raise usage_error(
            f"{text!r} is not a message id: an id has 32 or 56 hex characters, this one has {len(text)}"
        )
    try:
        bytes.fromhex(text)
    except ValueError:
        raise usage_error(f"{text!r} is not a message id: it is not hexadecimal") from None
    return text.upper()


def split_ids(value: str) -> list[str]:
    """``StringUtils.split(ids, ",")``, each id checked."""
    ids = [check_msg_id(p) for p in value.strip().split(",") if p.strip()]
    if not ids:
        raise usage_error("-i names no message id")
    return ids


def opt_strip(value: str | None) -> str | None:
    return value.strip() if value is not None else None


def consume_result_string(data: dict[str, Any]) -> str:
    """``ConsumeMessageDirectlyResult.toString()`` of the client's JSON answer."""

    def b(name: str, default: bool) -> str:
        v = data.get(name, default)
        return "true" if v is True else "false" if v is False else str(v)

    remark = data.get("remark")
    return (
        f"ConsumeMessageDirectlyResult [order={b('order', False)}, autoCommit={b('autoCommit', True)}, "
        f"consumeResult={data.get('consumeResult')}, remark={'null' if remark is None else remark}, "
        f"spentTimeMills={data.get('spentTimeMills', 0)}]"
    )


def is_push(info: dict[str, Any]) -> bool:
    """``ConsumerRunningInfo.isPushType``: the client says it consumes passively."""
    props = info.get("properties")
    return isinstance(props, dict) and props.get("PROP_CONSUME_TYPE") == "CONSUME_PASSIVELY"


async def tracks_of(inv: Invocation, msg: MessageExt, *, newline_each: bool) -> list[dict[str, Any]] | None:
    """Print what follows a detail block: the groups' tracks (``messageTrackDetail``).

    When they cannot be found the failure goes to stderr and nothing is printed, as in Java (whose
    stack trace leaves the block printed); the exit code then says the result is partial.
    """
    try:
        tracks = await inv.admin.messages.message_track_detail(msg)
    except Exception as e:
        inv.any_success = True
        inv.report(e)
        return None
    inv.out.text(tracks_text(tracks, newline_each=newline_each))
    return [t.to_json() for t in tracks]


def _as_message(msg: MessageExt) -> Message:
    """The found message as the Java tool resends it: topic, flag, properties (UNIQ_KEY kept), body."""
    return Message(topic=msg.topic, flag=msg.flag, properties=dict(msg.properties), body=msg.body)


# ------------------------------------------------------------------------------------ queryMsgById


@java_command(
    "queryMsgById",
    [
        JavaOpt("t", "topic", "topic name", required=True),
        JavaOpt("i", "msgId", "Message Id", required=True, dest="msg_id"),
        JavaOpt("g", "consumerGroup", "consumer group name", dest="group"),
        JavaOpt("d", "clientId", "The consumer's client id", dest="client_id"),
        JavaOpt("s", "sendMessage", "resend message", dest="send_message"),
        JavaOpt("u", "unitName", "unit name", dest="unit_name"),
        BODY_FORMAT,
        CLUSTER,
    ],
    json_doc='{"messages": ['
    + MESSAGE_JSON_DOC[:-1]
    + ', "bodyPath": str, "tracks": [{"consumerGroup": str, '
    '"trackType": str, "exceptionDesc": str|null}]|null}]}; with -s true: {"resent": [{"originalMsgId": str, '
    '"sendResult": {"sendStatus": str, "msgId": str, "offsetMsgId": str, "brokerName": str, "queueId": int, '
    '"queueOffset": int}}]}; with -g and -d: {"results": [{"msgId": str, "pushConsumer": bool, '
    '"consumeResult": {"order": bool, "autoCommit": bool, "consumeResult": str, "remark": str|null, '
    '"spentTimeMills": int}|null}]}',
)
async def query_msg_by_id(
    inv: Invocation,
    topic: str,
    msg_id: str,
    group: str | None,
    client_id: str | None,
    send_message: str | None,
    unit_name: str | None,
    body_format: str | None,
    cluster: str | None,
) -> None:
    topic = topic_arg(topic)
    ids = split_ids(msg_id)
    cluster = opt_strip(cluster)
    admin = inv.admin
    if group is not None and client_id is not None:
        await _push_directly(inv, topic, ids, group_arg(group), client_id.strip(), cluster)
        return
    if send_message is not None:
        if parse_bool(send_message.strip()):
            await _resend(inv, topic, ids, cluster)
        return
    codec = java_charset(body_format) if body_format is not None else None
    found: list[dict[str, Any]] = []
    for one in ids:
        msg = await admin.messages.find_message(topic, one, cluster)
        path = write_body_file(msg)
        body_text = decode_body(msg.body, codec) if codec is not None else None
        inv.out.text(detail_block(msg, path, body_text=body_text))
        tracks = await tracks_of(inv, msg, newline_each=True)
        entry = message_json(msg, codec or "utf-8")
        entry.update(bodyPath=path, tracks=tracks)
        found.append(entry)
    if inv.out.structured:
        inv.out.data({"messages": found})


async def _push_directly(
    inv: Invocation, topic: str, ids: list[str], group: str, client_id: str, cluster: str | None
) -> None:
    admin = inv.admin
    results: list[dict[str, Any]] = []
    for one in ids:
        try:
            info = await admin.messages.consumer_running_info(group, client_id)
            if not is_push(info):
                inv.out.text(f"this {client_id} client is not push consumer ,not support direct push \n")
                results.append({"msgId": one, "pushConsumer": False, "consumeResult": None})
                continue
            msg = await admin.messages.find_message(topic, one, cluster)
            data = await admin.messages.consume_message_directly(group, client_id, topic, msg)
        except Exception as e:  # each id on its own, as Java does
            inv.report(e)
            continue
        inv.any_success = True
        inv.out.text(consume_result_string(data))
        results.append({"msgId": one, "pushConsumer": True, "consumeResult": data})
    if inv.out.structured:
        inv.out.data({"results": results})


async def _resend(inv: Invocation, topic: str, ids: list[str], cluster: str | None) -> None:
    from mqadmin.admin.producer import Producer

    admin = inv.admin
    producer = Producer(admin, "ReSendMsgById")
    resent: list[dict[str, Any]] = []
    for one in ids:
        try:
            msg = await admin.messages.find_message(topic, one, cluster)
            inv.out.text(f"prepare resend msg. originalMsgId={one}")
            result = await producer.send(_as_message(msg))
        except Exception as e:
            inv.report(e)
            continue
        inv.any_success = True
        inv.out.text(str(result))
        resent.append({"originalMsgId": one, "sendResult": result.to_json()})
    if inv.out.structured:
        inv.out.data({"resent": resent})


# ------------------------------------------------------------------------------------ queryMsgByKey


@java_command(
    "queryMsgByKey",
    [
        JavaOpt("t", "topic", "Topic name", required=True),
        JavaOpt("k", "msgKey", "Message Key", required=True, dest="msg_key"),
        JavaOpt("b", "beginTimestamp", "Begin timestamp(ms). default:0, eg:1676730526212", dest="begin"),
        JavaOpt(
            "e", "endTimestamp", "End timestamp(ms). default:Long.MAX_VALUE, eg:1676730526212", dest="end"
        ),
        JavaOpt(
            "m",
            "maxNum",
            "The maximum number of messages returned by the query, default:64",
            dest="max_num",
        ),
        CLUSTER,
    ],
    fanout=True,
    json_doc='{"messages": [' + MESSAGE_JSON_DOC + '], "errors": [...]?} (brokers that could not be asked)',
)
async def query_msg_by_key(
    inv: Invocation,
    topic: str,
    msg_key: str,
    begin: str | None,
    end: str | None,
    max_num: str | None,
    cluster: str | None,
) -> None:
    topic, key = topic_arg(topic), msg_key.strip()
    b = parse_long(begin, "-b", 0, terse=True)
    e = parse_long(end, "-e", LONG_MAX, terse=True)
    check_range(b, e)
    n = parse_int(max_num, "-m", 64, terse=True)
    if n <= 0:
        raise usage_error(f"-m takes a positive number, not {max_num!r}")
    result = await inv.admin.messages.query_message(
        topic, key, max_num=n, begin=b, end=e, unique=False, cluster=opt_strip(cluster) or None
    )
    lines = [jformat("%-50s %4s %40s%n", "#Message ID", "#QID", "#Offset")]
    for msg in result.messages:
        lines.append(jformat("%-50s %4d %40d%n", msg.client_msg_id, msg.queue_id, msg.queue_offset))
    if inv.out.structured:
        data: dict[str, Any] = {"messages": [message_json(m) for m in result.messages]}
        if result.failures:
            data["errors"] = [{"addr": f.addr, "message": str(f)} for f in result.failures]
        inv.out.data(data)
    else:
        inv.out.text("".join(lines))
    if result.failures:
        inv.any_success = True
        raise PartialFailure(list(result.failures))


# ------------------------------------------------------------------------------- queryMsgByUniqueKey


@dataclass(slots=True, frozen=True)
class PushedDirectly(Result):
    """queryMsgByUniqueKey -g -d: what the push consumer answered when handed the message."""

    msg_id: str
    result: Any

    def text(self) -> str:
        return consume_result_string(self.result)

    def data(self) -> dict[str, Any]:
        return {"msgId": self.msg_id, "pushConsumer": True, "consumeResult": self.result}


@java_command(
    "queryMsgByUniqueKey",
    [
        JavaOpt("i", "msgId", "Message Id", required=True, dest="msg_id"),
        JavaOpt("g", "consumerGroup", "consumer group name", dest="group"),
        JavaOpt("d", "clientId", "The consumer's client id", dest="client_id"),
        JavaOpt("t", "topic", "The topic of msg", required=True),
        JavaOpt("a", "showAll", "Print all message, the limit is 32", has_arg=False, dest="show_all"),
        CLUSTER,
    ],
    json_doc='{"messages": ['
    + MESSAGE_JSON_DOC[:-1]
    + ', "bodyPath": str, "tracks": [...]}]}; with -g and -d: '
    '{"msgId": str, "pushConsumer": bool, "consumeResult": {...}|null}',
)
async def query_msg_by_unique_key(
    inv: Invocation,
    msg_id: str,
    group: str | None,
    client_id: str | None,
    topic: str,
    show_all: bool,
    cluster: str | None,
) -> None:
    one = check_msg_id(msg_id)
    topic = topic_arg(topic)
    admin = inv.admin
    if group is not None and client_id is not None:
        g, cid = group_arg(group), client_id.strip()
        info = await admin.messages.consumer_running_info(g, cid)
        if not is_push(info):
            doc = {"msgId": one, "pushConsumer": False, "consumeResult": None}
            why = f"get consumer info failed or this {cid} client is not push consumer, "
            why += "not support direct push \n"
            inv.out.emit(Plain(doc, why))
            return
        msg = await admin.messages.find_message(topic, one)
        data = await admin.messages.consume_message_directly(g, cid, topic, msg)
        inv.out.emit(PushedDirectly(one, data))
        return
    result = await admin.messages.query_message(
        topic, one, max_num=32, unique=True, cluster=opt_strip(cluster) or None
    )
    msgs = sorted(result.messages, key=lambda m: m.store_timestamp)
    if not show_all:
        msgs = msgs[:1]
    out: list[dict[str, Any]] = []
    for i, msg in enumerate(msgs):
        path = write_body_file(msg, f"_{i}" if i else "")
        inv.out.text(detail_block(msg, path, offset_id_line=False))
        tracks = await tracks_of(inv, msg, newline_each=False)
        entry = message_json(msg)
        entry.update(bodyPath=path, tracks=tracks)
        out.append(entry)
    if inv.out.structured:
        inv.out.data({"messages": out})


# ---------------------------------------------------------------------------------- queryMsgByOffset


@java_command(
    "queryMsgByOffset",
    [
        JavaOpt("t", "topic", "topic name", required=True),
        JavaOpt("b", "brokerName", "Broker Name", required=True, dest="broker_name"),
        JavaOpt("i", "queueId", "Queue Id", required=True, dest="queue_id"),
        JavaOpt("o", "offset", "Queue Offset", required=True),
        BODY_FORMAT,
    ],
    json_doc='{"message": ' + MESSAGE_JSON_DOC[:-1] + ', "bodyPath": str, "tracks": [...]}}',
)
async def query_msg_by_offset(
    inv: Invocation, topic: str, broker_name: str, queue_id: str, offset: str, body_format: str | None
) -> None:
    from mqadmin.protocol.bodies.message_queue import MessageQueue

    codec = java_charset(body_format) if body_format is not None else None
    qid = parse_int(queue_id, "-i", 0, terse=True)
    off = parse_long(offset, "-o", 0, terse=True)
    if off < 0:
        raise usage_error(f"-o takes an offset of 0 or more, not {offset!r}")
    mq = MessageQueue(topic_arg(topic), broker_name.strip(), qid)
    admin = inv.admin
    pulled = await admin.messages.pull_message(mq, "*", off, 1)
    if pulled.status != "FOUND" or not pulled.messages:
        raise CommandError(
            f"no message at offset {off} of {mq} ({pulled.status}; the queue holds offsets "
            f"{pulled.min_offset} to {pulled.max_offset - 1})"
            if pulled.max_offset > pulled.min_offset
            else f"no message at offset {off} of {mq} ({pulled.status}; the queue is empty)",
            ExitCode.NOT_FOUND,
        )
    msg = pulled.messages[0]
    path = write_body_file(msg)
    body_text = decode_body(msg.body, codec) if codec is not None else None
    inv.out.text(detail_block(msg, path, body_text=body_text))
    tracks = await tracks_of(inv, msg, newline_each=True)
    if inv.out.structured:
        entry = message_json(msg, codec or "utf-8")
        entry.update(bodyPath=path, tracks=tracks)
        inv.out.data({"message": entry})


# --------------------------------------------------------------------------------- queryMsgTraceById

_TRACE_FORMAT = "%-10s %-20s %-20s %-20s %-10s %-10s%n"


def _java_split(text: str, sep: str) -> list[str]:
    parts = text.split(sep)
    while len(parts) > 1 and parts[-1] == "":
        parts.pop()
    return parts


def trace_views(msg_id: str, trace_msg: MessageExt) -> list[dict[str, Any]]:
    """``TraceView.decodeFromTraceTransData``: the Pub and SubAfter records about ``msg_id``."""
    body = (trace_msg.body or b"").decode("utf-8", "replace")
    views: list[dict[str, Any]] = []
    if not body:
        return views
    for context in _java_split(body, "\x02"):
        f = _java_split(context, "\x01")
        try:
            if f[0] == "Pub":
                view = {
                    "type": "Pub",
                    "timestamp": int(f[1]),
                    "group": f[3],
                    "msgId": f[5],
                    "costTime": int(f[10]),
                    "success": len(f) >= 13 and f[12 if len(f) == 13 else 13].lower() == "true",
                }
            elif f[0] == "SubAfter":
                view = {
                    "type": "SubAfter",
                    "timestamp": int(f[7]) if len(f) >= 9 else 0,
                    "group": f[8] if len(f) >= 9 else None,
                    "msgId": f[2],
                    "costTime": int(f[3]),
                    "success": f[4].lower() == "true",
                }
            elif f[0] in ("SubBefore", "EndTransaction", "Recall"):
                view = {"type": f[0], "msgId": f[5]}
            else:
                continue
        except (IndexError, ValueError):
            raise CommandError(
                f"the trace message {trace_msg.client_msg_id} holds a malformed {f[0]} record"
            ) from None
        if view["msgId"] != msg_id:
            continue
        view["clientHost"] = trace_msg.born_host
        views.append(view)
    return views


@java_command(
    "queryMsgTraceById",
    [
        JavaOpt("i", "msgId", "Message Id", required=True, dest="msg_id"),
        JavaOpt("t", "traceTopic", "The name value of message trace topic", dest="trace_topic"),
        JavaOpt("b", "beginTimestamp", "Begin timestamp(ms). default:0, eg:1676730526212", dest="begin"),
        JavaOpt(
            "e", "endTimestamp", "End timestamp(ms). default:Long.MAX_VALUE, eg:1676730526212", dest="end"
        ),
        JavaOpt(
            "c",
            "maxNum",
            "The maximum number of messages returned by the query, default:64",
            dest="max_num",
        ),
    ],
    json_doc='{"traces": [{"type": "Pub"|"SubAfter", "group": str|null, "clientHost": str, "timestamp": int, '
    '"costTime": int, "success": bool, "msgId": str}]}',
)
async def query_msg_trace_by_id(
    inv: Invocation,
    msg_id: str,
    trace_topic: str | None,
    begin: str | None,
    end: str | None,
    max_num: str | None,
) -> None:
    from mqadmin.admin.producer import TRACE_TOPIC

    one = msg_id.strip()
    if not one:
        raise usage_error("-i names no message id")
    topic = topic_arg(trace_topic) if trace_topic is not None else TRACE_TOPIC
    b = parse_long(begin, "-b", 0, terse=True)
    e = parse_long(end, "-e", LONG_MAX, terse=True)
    check_range(b, e)
    n = parse_int(max_num, "-c", 64, terse=True)
    from mqadmin.admin.messages import MessageNotFoundError

    try:
        result = await inv.admin.messages.query_message(topic, one, max_num=n, begin=b, end=e)
    except MessageNotFoundError:
        raise CommandError(f"no trace of message {one} in trace topic {topic}", ExitCode.NOT_FOUND) from None
    views = [v for m in result.messages for v in trace_views(one, m)]
    shown = [v for v in views if v["type"] in ("Pub", "SubAfter")]
    if inv.out.structured:
        inv.out.data({"traces": [{k: v[k] for k in sorted(v)} for v in shown]})
        return
    out: list[str] = []
    for v in views:
        if v["type"] != "Pub":
            continue
        out.append(
            jformat(
                _TRACE_FORMAT, "#Type", "#ProducerGroup", "#ClientHost", "#SendTime", "#CostTimes", "#Status"
            )
        )
        out.append(_trace_row("Pub", v))
        out.append("\n")
    groups: dict[str | None, list[dict[str, Any]]] = {}
    for v in views:
        if v["type"] == "SubAfter":
            groups.setdefault(v["group"], []).append(v)
    for g in _hash_map_order(list(groups)):
        out.append(
            jformat(
                _TRACE_FORMAT,
                "#Type",
                "#ConsumerGroup",
                "#ClientHost",
                "#ConsumerTime",
                "#CostTimes",
                "#Status",
            )
        )
        out.extend(_trace_row("Sub", v) for v in groups[g])
        out.append("\n")
    inv.out.text("".join(out))


def _hash_map_order(keys: list[str | None]) -> list[str | None]:
    """A ``HashMap<String, ...>`` iteration order where the null key (hash 0) is allowed."""
    from mqadmin.protocol.javacoll import java_string_hash

    cap = 16
    while len(keys) > cap * 3 // 4:
        cap <<= 1

    def bucket(k: str | None) -> int:
        if k is None:
            return 0
        h = java_string_hash(k) & 0xFFFFFFFF
        return (h ^ (h >> 16)) & (cap - 1)

    return sorted(keys, key=bucket)


def _trace_row(kind: str, v: dict[str, Any]) -> str:
    return jformat(
        _TRACE_FORMAT,
        kind,
        v["group"],
        v["clientHost"],
        format_date(v["timestamp"]),
        f"{v['costTime']}ms",
        "success" if v["success"] else "failed",
    )


# ---------------------------------------------------------------------------------- decodeMessageId


def describe_id(msg_id: str, now_ms: int | None = None) -> dict[str, Any]:
    """What an id says: an offset id's store address and offset, or a unique key's fields."""
    try:
        host, port, offset = decode_offset_msg_id(msg_id)
    except ProtocolError as e:
        raise usage_error(f"{msg_id!r} is not a message id: {e}") from None
    if 0 < port < 65536:
        store = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
        return {"msgId": msg_id, "kind": "offset", "storeHost": store, "commitLogOffset": offset}
    fields = decode_unique_id(msg_id)
    info = parse_unique_id(msg_id, now_ms=now_ms)
    return {
        "msgId": msg_id,
        "kind": "unique",
        "ip": java_ip_string(fields.ip),
        "pid": fields.pid,
        "classLoaderHash": f"{fields.class_loader_hash & 0xFFFFFFFF:08X}",
        "timestamp": info.timestamp_ms,
        "counter": fields.counter,
    }


def _describe_text(d: dict[str, Any]) -> str:
    rows = [("Message ID:", d["msgId"])]
    if d["kind"] == "offset":
        rows += [("Kind:", "offset id (where a broker stored it)"), ("Store Host:", d["storeHost"]),
                 ("CommitLog Offset:", d["commitLogOffset"])]  # fmt: skip
    else:
        rows += [
            ("Kind:", "unique key (made by the producer)"),
            ("Producer IP:", d["ip"]),
            ("Producer PID:", d["pid"]),
            ("ClassLoader Hash:", d["classLoaderHash"]),
            ("Born Time:", f"{human_time(d['timestamp'])} (month taken as the latest possible)"),
            ("Counter:", d["counter"]),
        ]
    return "".join(jformat("%-20s %s%n", k, v) for k, v in rows)


@java_command(
    "decodeMessageId",
    [JavaOpt("i", "messageId", "unique message ID", required=True, dest="message_id")],
    json_doc='{"ids": [{"msgId": str, "kind": "offset", "storeHost": "ip:port", "commitLogOffset": int} | '
    '{"msgId": str, "kind": "unique", "ip": str, "pid": int, "classLoaderHash": str, "timestamp": int, '
    '"counter": int}]}',
)
async def decode_message_id(inv: Invocation, message_id: str) -> None:
    now = int(time.time() * 1000)
    ids = [describe_id(one, now) for one in split_ids(message_id)]
    inv.out.emit(DecodedIds(ids))


@dataclass(slots=True, frozen=True)
class DecodedIds(Result):
    """decodeMessageId: what each id says (where it was stored, or who made it and when)."""

    ids: list[dict[str, Any]]

    def text(self) -> str:
        return "\n".join(_describe_text(d) for d in self.ids)

    def data(self) -> dict[str, Any]:
        return {"ids": self.ids}
