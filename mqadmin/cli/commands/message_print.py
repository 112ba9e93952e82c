"""Reading queues: printMsg, printMsgByQueue, consumeMessage (pulls as the Java ``TOOLS_CONSUMER``).

The text is the Java 5.3.3 tool's, down to consumeMessage's counting (an empty queue uses up one of
``-c``) and the inclusive end of its ranges. Bad input is refused before anything is sent, with one
line on stderr (Java prints some of these on stdout and exits 0): a time that is not a time, a
range that runs backwards, an unknown charset, a non-positive count.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from mqadmin.admin.messages import PullResult
from mqadmin.cli.command import Invocation, java_command
from mqadmin.cli.commands.message_text import (
    MESSAGE_JSON_DOC,
    decode_body,
    java_charset,
    message_json,
    message_string,
)
from mqadmin.cli.common import OurOpt
from mqadmin.cli.errors import usage_error
from mqadmin.cli.javaopts import JavaOpt
from mqadmin.cli.javatext import jformat
from mqadmin.cli.nameargs import group_arg, topic_arg
from mqadmin.cli.optvalues import parse_int, parse_long
from mqadmin.cli.timeargs import parse_time_ms
from mqadmin.protocol.bodies.message_queue import MessageQueue
from mqadmin.protocol.javacoll import java_hash_order
from mqadmin.protocol.javanum import parse_bool
from mqadmin.protocol.message_record import MessageExt

DASHES = "-" * 56 + "\n"
PULL_BATCH = 32
TIME_HELP = "[currentTimeMillis|yyyy-MM-dd#HH:mm:ss:SSS]"
CHARSET = JavaOpt("c", "charsetName ", "CharsetName(eg: UTF-8,GBK)", dest="charset")
SUB_EXPRESSION = JavaOpt(
    "s", "subExpression ", "Subscribe Expression(eg: TagA || TagB)", dest="sub_expression"
)
BEGIN = JavaOpt("b", "beginTimestamp ", "Begin timestamp" + TIME_HELP, dest="begin")
END = JavaOpt("e", "endTimestamp ", "End timestamp" + TIME_HELP, dest="end")
QUEUE_JSON_DOC = (
    '{"queues": [{"topic": str, "brokerName": str, "queueId": int, "minOffset": int, "maxOffset": int, '
    '"status": str|null, "messages": [' + MESSAGE_JSON_DOC + "]}]}"
)


def time_range(begin: str | None, end: str | None) -> tuple[int | None, int | None]:
    b = parse_time_ms(begin, "-b") if begin is not None else None
    e = parse_time_ms(end, "-e") if end is not None else None
    if b is not None and e is not None and b > e:
        raise usage_error(f"the time range is backwards: begin {begin.strip()} is after end {end.strip()}")  # type: ignore[union-attr]
    return b, e


def message_line(msg: MessageExt, body: str) -> str:
    """``MSGID: <id> <MessageExt.toString()> BODY: <body>``."""
    return f"MSGID: {msg.client_msg_id} {message_string(msg)} BODY: {body}\n"


def _pull_ahead(inv: Invocation, mq: MessageQueue, sub: str, offset: int) -> asyncio.Task[PullResult]:
    return asyncio.ensure_future(inv.admin.messages.pull_message(mq, sub, offset, PULL_BATCH))


async def _range(inv: Invocation, mq: MessageQueue, begin: int | None, end: int | None) -> tuple[int, int]:
    admin = inv.admin
    lo = await admin.messages.min_offset(mq)
    hi = await admin.messages.max_offset(mq)
    if begin is not None:
        lo = await admin.messages.search_offset(mq, begin)
    if end is not None:
        hi = await admin.messages.search_offset(mq, end)
    return lo, hi


# ------------------------------------------------------------------------------------------ printMsg


_JSON_LINES = OurOpt(
    ("--json-lines",),
    "json_lines",
    "Stream: one JSON message a line as each batch arrives (the shape of --json's messages), "
    "instead of one document at the end.",
    kind="flag",
)


@java_command(
    "printMsg",
    [
        JavaOpt("t", "topic", "topic name", required=True),
        CHARSET,
        SUB_EXPRESSION,
        BEGIN,
        END,
        JavaOpt("d", "printBody ", "print body", dest="print_body"),
        JavaOpt("l", "lmqParentTopic", "Lmq parent topic, lmq is used to find the route.", dest="lmq_parent"),
    ],
    json_doc=QUEUE_JSON_DOC + " (body null with -d false); with --json-lines one message object a line",
    own=[_JSON_LINES],
    blocking=False,  # the next pull is read ahead on the loop
)
async def print_msg(
    inv: Invocation,
    topic: str,
    charset: str | None,
    sub_expression: str | None,
    begin: str | None,
    end: str | None,
    print_body: str | None,
    lmq_parent: str | None,
    json_lines: bool,
) -> None:
    topic = topic_arg(topic)
    codec = java_charset(charset) if charset is not None else "utf-8"
    sub = sub_expression.strip() if sub_expression is not None else "*"
    show_body = print_body is None or parse_bool(print_body.strip())
    b, e = time_range(begin, end)
    admin = inv.admin
    route_topic = topic_arg(lmq_parent, "-l") if lmq_parent is not None else topic
    queues = await admin.messages.fetch_subscribe_message_queues(route_topic)
    if route_topic != topic:
        admin.messages.share_route(topic, route_topic)
        queues = [MessageQueue(topic, q.broker_name, q.queue_id) for q in queues]
    out = inv.out
    docs: list[dict[str, Any]] = []
    for mq in queues:
        lo, hi = await _range(inv, mq, b, e)
        if not json_lines:
            out.text(f"minOffset={lo}, maxOffset={hi}, {mq}\n")
        doc: dict[str, Any] = {
            "topic": mq.topic,
            "brokerName": mq.broker_name,
            "queueId": mq.queue_id,
            "minOffset": lo,
            "maxOffset": hi,
            "status": None,
            "messages": [],
        }
        docs.append(doc)
        offset = lo
        ahead = _pull_ahead(inv, mq, sub, offset) if offset < hi else None
        while ahead is not None:
            try:
                r = await ahead
            except Exception as exc:
                inv.report(exc)
                break
            inv.any_success = True
            offset = r.next_begin_offset
            # the next pull travels while this batch is printed (Java waits; the output is the same)
            keep_going = r.status in ("FOUND", "NO_MATCHED_MSG") and offset < hi
            ahead = _pull_ahead(inv, mq, sub, offset) if keep_going else None
            if json_lines:
                for m in r.messages if r.status == "FOUND" else ():
                    out.json_line(message_json(m, codec if show_body else None))
                if r.status not in ("FOUND", "NO_MATCHED_MSG"):
                    break
            elif r.status == "FOUND":
                if out.structured:
                    doc["messages"].extend(message_json(m, codec if show_body else None) for m in r.messages)
                else:
                    out.text(
                        "".join(
                            message_line(m, decode_body(m.body, codec) if show_body else "NOT PRINT BODY")
                            for m in r.messages
                        )
                    )
            elif r.status == "NO_MATCHED_MSG":
                out.text(f"{mq} no matched msg. status=NO_MATCHED_MSG, offset={offset}\n")
            else:
                doc["status"] = r.status
                out.text(f"{mq} print msg finished. status={r.status}, offset={offset}\n")
                break
        if not json_lines:
            out.text(DASHES)
    if out.structured and not json_lines:
        out.data({"queues": docs})


# ----------------------------------------------------------------------------------- printMsgByQueue


def tag_counts_in_java_order(counts: dict[str, int]) -> list[tuple[str, int]]:
    """``HashMap<String, AtomicLong>`` entries sorted by count, highest first (a stable sort)."""
    ordered = java_hash_order(list(counts))
    return sorted(((t, counts[t]) for t in ordered), key=lambda tc: -tc[1])


@java_command(
    "printMsgByQueue",
    [
        JavaOpt("t", "topic", "topic name", required=True),
        JavaOpt("a", "brokerName ", "broker name", required=True, dest="broker_name"),
        JavaOpt("i", "queueId ", "queue id", required=True, dest="queue_id"),
        CHARSET,
        SUB_EXPRESSION,
        BEGIN,
        END,
        JavaOpt("p", "print msg", "print msg. eg: true | false(default)", dest="print_msg"),
        JavaOpt("d", "printBody ", "print body. eg: true | false(default)", dest="print_body"),
        JavaOpt("f", "calculate", "calculate by tag. eg: true | false(default)", dest="calculate"),
    ],
    json_doc='{"topic": str, "brokerName": str, "queueId": int, "minOffset": int, "maxOffset": int, '
    '"messages": ['
    + MESSAGE_JSON_DOC
    + '] (with -p true), "tags": [{"tag": str, "count": int}] (with -f true)}',
)
async def print_msg_by_queue(
    inv: Invocation,
    topic: str,
    broker_name: str,
    queue_id: str,
    charset: str | None,
    sub_expression: str | None,
    begin: str | None,
    end: str | None,
    print_msg: str | None,
    print_body: str | None,
    calculate: str | None,
) -> None:
    codec = java_charset(charset) if charset is not None else "utf-8"
    show = print_msg is not None and parse_bool(print_msg.strip())
    show_body = print_body is not None and parse_bool(print_body.strip())
    by_tag = calculate is not None and parse_bool(calculate.strip())
    sub = sub_expression.strip() if sub_expression is not None else "*"
    mq = MessageQueue(topic_arg(topic), broker_name.strip(), parse_int(queue_id, "-i", 0, terse=True))
    b, e = time_range(begin, end)
    admin = inv.admin
    lo, hi = await _range(inv, mq, b, e)
    out = inv.out
    counts: dict[str, int] = {}
    messages: list[dict[str, Any]] = []
    offset = lo
    while offset < hi:
        r = await admin.messages.pull_message(mq, sub, offset, PULL_BATCH)
        offset = r.next_begin_offset
        if r.status != "FOUND":
            break
        if by_tag:
            for m in r.messages:
                tag = m.tags
                if tag is not None and tag.strip():
                    counts[tag] = counts.get(tag, 0) + 1
        if show:
            if out.structured:
                messages.extend(message_json(m, codec if show_body else None) for m in r.messages)
            else:
                out.text(
                    "".join(
                        message_line(m, decode_body(m.body, codec) if show_body else "NOT PRINT BODY")
                        for m in r.messages
                    )
                )
    ranked = tag_counts_in_java_order(counts) if by_tag else []
    if out.structured:
        doc: dict[str, Any] = {
            "topic": mq.topic,
            "brokerName": mq.broker_name,
            "queueId": mq.queue_id,
            "minOffset": lo,
            "maxOffset": hi,
        }
        if show:
            doc["messages"] = messages
        if by_tag:
            doc["tags"] = [{"tag": t, "count": c} for t, c in ranked]
        out.data(doc)
        return
    out.text("".join(jformat("Tag: %-30s Count: %s%n", t, c) for t, c in ranked))


# ------------------------------------------------------------------------------------ consumeMessage


class _Consumer:
    """``ConsumeMessageCommand``'s pulls: inclusive ranges, every message printed with its body."""

    def __init__(self, inv: Invocation, group: str) -> None:
        self.inv = inv
        self.group = group
        self.queues: list[dict[str, Any]] = []

    async def pull_range(self, mq: MessageQueue, lo: int, hi: int) -> None:
        out = self.inv.out
        doc: dict[str, Any] = {
            "topic": mq.topic,
            "brokerName": mq.broker_name,
            "queueId": mq.queue_id,
            "from": lo,
            "to": hi,
            "status": None,
            "messages": [],
        }
        self.queues.append(doc)
        offset = lo
        while offset <= hi:
            try:
                r: PullResult = await self.inv.admin.messages.pull_message(
                    mq, "*", offset, hi - offset + 1, self.group
                )
            except Exception as exc:
                self.inv.report(exc)
                return
            self.inv.any_success = True
            offset = r.next_begin_offset
            if r.status == "FOUND":
                doc["messages"].extend(message_json(m) for m in r.messages)
                out.text("Consume ok\n" + "".join(message_line(m, decode_body(m.body)) for m in r.messages))
            elif r.status == "NO_MATCHED_MSG":
                out.text(f"{mq} no matched msg. status={r.status}, offset={offset}\n")
            else:
                doc["status"] = r.status
                out.text(f"{mq} print msg finished. status={r.status}, offset={offset}\n")
                return


@java_command(
    "consumeMessage",
    [
        JavaOpt("t", "topic", "Topic name", required=True),
        JavaOpt("b", "brokerName", "Broker name", dest="broker_name"),
        JavaOpt("i", "queueId", "Queue Id", dest="queue_id"),
        JavaOpt("o", "offset", "Queue offset"),
        JavaOpt("g", "consumerGroup", "Consumer group name", dest="group"),
        JavaOpt("s", "beginTimestamp ", "Begin timestamp" + TIME_HELP, dest="begin"),
        JavaOpt("e", "endTimestamp ", "End timestamp" + TIME_HELP, dest="end"),
        JavaOpt("c", "MessageNumber", "Number of message to be consumed", dest="count"),
    ],
    json_doc='{"queues": [{"topic": str, "brokerName": str, "queueId": int, "from": int, "to": int, '
    '"status": str|null, "messages": [' + MESSAGE_JSON_DOC + "]}]}",
)
async def consume_message(
    inv: Invocation,
    topic: str,
    broker_name: str | None,
    queue_id: str | None,
    offset: str | None,
    group: str | None,
    begin: str | None,
    end: str | None,
    count: str | None,
) -> None:
    from mqadmin.admin.messages import TOOLS_CONSUMER

    topic = topic_arg(topic)
    group_name = group_arg(group) if group is not None else TOOLS_CONSUMER
    total = parse_long(count, "-c", 128, terse=True)
    if total <= 0:
        raise usage_error("Please input a positive messageNumber!")
    broker = broker_name.strip() if broker_name is not None else None
    if queue_id is not None and broker is None:
        raise usage_error("Please set the brokerName before queueId!")
    if offset is not None and queue_id is None:
        raise usage_error("Please set queueId before offset!")
    start = parse_long(offset, "-o", 0, terse=True)
    b = parse_time_ms(begin, "-s") if begin is not None else 0
    e = parse_time_ms(end, "-e") if end is not None else 0
    now = time.time_ns() // 1_000_000  # after the times, so that -s now and -e now are not in the future
    if b > now:
        raise usage_error("Please set the beginTimestamp before now!")
    if end is not None:
        if e > now:
            raise usage_error("Please set the endTimestamp before now!")
        if b > e:
            raise usage_error(
                "Please make sure that the beginTimestamp is less than or equal to the endTimestamp"
            )
    consumer = _Consumer(inv, group_name)
    admin = inv.admin
    out = inv.out
    if queue_id is None:
        left = total
        for mq in await admin.messages.fetch_subscribe_message_queues(topic):
            if left == 0:
                break
            lo, hi = await _range(inv, mq, b or None, e or None)
            if hi - lo > left:
                out.text(f"The older {left} message of the {mq.queue_id} queue will be provided\n")
                hi = lo + left - 1
                left = 0
            else:
                left = left - (hi - lo) - 1
            await consumer.pull_range(mq, lo, hi)
    else:
        assert broker is not None
        mq = MessageQueue(topic, broker, parse_int(queue_id, "-i", 0, terse=True))
        lo, hi = await _range(inv, mq, b or None, e or None)
        if start > hi:
            out.text(f"{mq} no matched msg, offset={start}\n")
        else:
            lo = max(lo, start)
            if hi - lo > total:
                out.text(f"The oldler {total} message will be provided\n")
                hi = lo + total - 1
            await consumer.pull_range(mq, lo, hi)
    if out.structured:
        out.data({"queues": consumer.queues})
