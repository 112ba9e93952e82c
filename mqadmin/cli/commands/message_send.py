"""Sending: sendMessage, checkMsgSendRT, and the broker/cluster probes sendMsgStatus and clusterRT.

All of them send through :class:`mqadmin.admin.producer.Producer` (SEND_MESSAGE_V2, unique keys of
Java's layout) and print what the Java 5.3.3 tool prints. A send that fails ends the command with
the reason on stderr (Java's "Send [3] times, still failed" hides it behind a stack trace); the
probes keep going and report failed sends in their rows and exit code.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mqadmin.admin.producer import SendResult
from mqadmin.cli.command import Invocation, java_command
from mqadmin.cli.errors import CommandError, PartialFailure, usage_error
from mqadmin.cli.exitcodes import ExitCode
from mqadmin.cli.javaopts import JavaOpt
from mqadmin.cli.javatext import java_f, jformat
from mqadmin.cli.javatime import millis_group, now_ms
from mqadmin.cli.nameargs import send_topic_arg
from mqadmin.cli.optvalues import parse_int, parse_long
from mqadmin.cli.results import Result
from mqadmin.protocol.bodies.message_queue import MessageQueue
from mqadmin.protocol.javanum import parse_bool
from mqadmin.protocol.message import Message

_RESULT_FORMAT = "%-32s  %-4s  %-20s    %s%n"


def _check(exc: Exception) -> Exception:
    """A message Java refuses before sending is bad input (usage), not a server failure."""
    from mqadmin.admin.producer import MessageCheckError

    if isinstance(exc, MessageCheckError):
        return CommandError(str(exc), ExitCode.USAGE)
    return exc


# ------------------------------------------------------------------------------------- sendMessage


@java_command(
    "sendMessage",
    [
        JavaOpt("t", "topic", "Topic name", required=True),
        JavaOpt("p", "body", "UTF-8 string format of the message body", required=True),
        JavaOpt("k", "key", "Message keys"),
        JavaOpt("c", "tags", "Message tags"),
        JavaOpt("b", "broker", "Send message to target broker"),
        JavaOpt("i", "qid", "Send message to target queue"),
        JavaOpt("m", "msgTraceEnable", "Message Trace Enable, Default: false", dest="trace"),
    ],
    json_doc='{"brokerName": str, "queueId": int, "sendStatus": str, "msgId": str (the unique key), '
    '"offsetMsgId": str, "queueOffset": int}',
)
async def send_message(
    inv: Invocation,
    topic: str,
    body: str,
    key: str | None,
    tags: str | None,
    broker: str | None,
    qid: str | None,
    trace: str | None,
) -> None:
    from mqadmin.admin.producer import Producer

    topic = send_topic_arg(topic)
    data = body.strip()
    keys = key.strip() if key is not None else None
    tag = tags.strip() if tags is not None else None
    broker_name = broker.strip() if broker is not None else None
    queue_id = -1
    if qid is not None:
        if broker_name is None:
            raise usage_error("Broker name must be set if the queue is chosen!")
        queue_id = parse_int(qid, "-i", -1, terse=True)
    msg = Message(topic=topic, body=data.encode("utf-8"))
    if tag:
        msg.tags = tag
    if keys:
        msg.keys = keys
    msg.wait_store_msg_ok = True
    producer = Producer(inv.admin, millis_group(), trace=trace is not None and parse_bool(trace.strip()))
    try:
        if broker_name is not None and queue_id > -1:
            result = await producer.send(msg, MessageQueue(topic, broker_name, queue_id))
        else:
            result = await producer.send(msg)
    except Exception as exc:
        raise _check(exc) from None
    finally:
        await producer.close()
    inv.out.emit(Sent(result))


@dataclass(slots=True)
class Sent(Result):
    """sendMessage: where the message went and how the broker took it."""

    result: SendResult

    def text(self) -> str:
        r = self.result
        head = jformat(_RESULT_FORMAT, "#Broker Name", "#QID", "#Send Result", "#MsgId")
        return head + jformat(_RESULT_FORMAT, r.queue.broker_name, r.queue.queue_id, r.status, r.msg_id)

    def data(self) -> dict[str, Any]:
        return self.result.to_json()


# ---------------------------------------------------------------------------------- checkMsgSendRT


@java_command(
    "checkMsgSendRT",
    [
        JavaOpt("t", "topic", "topic name", required=True),
        JavaOpt("a", "amount", "message amount | default 100"),
        JavaOpt("s", "size", "message size | default 128 Byte"),
    ],
    json_doc='{"sends": [{"brokerName": str, "queueId": int, "success": bool, "rtMs": int}], '
    '"avgRtMs": float|null (the first send is not counted), "errors": [...]?}',
)
async def check_msg_send_rt(inv: Invocation, topic: str, amount: str | None, size: str | None) -> None:
    from mqadmin.admin.producer import Producer

    topic = send_topic_arg(topic)
    n = parse_long(amount, "-a", 100, terse=True)
    length = parse_long(size, "-s", 128, terse=True)
    if length < 0:
        raise usage_error(f"-s takes a size of 0 or more, not {size!r}")
    producer = Producer(inv.admin, millis_group())
    msg = Message(topic=topic, body=b"a" * length)
    msg.wait_store_msg_ok = True
    chosen = {"broker": "", "queue": 0}

    def select(queues: Any, i: int) -> MessageQueue:
        mq: MessageQueue = queues[i % len(queues)]
        chosen["broker"], chosen["queue"] = mq.broker_name or "", mq.queue_id
        return mq

    out = inv.out
    out.text(jformat(_RESULT_FORMAT, "#Broker Name", "#QID", "#Send Result", "#RT"))
    sends: list[dict[str, Any]] = []
    elapsed = 0
    failures: list[BaseException] = []
    for i in range(n):
        start = now_ms()
        try:
            await producer.send(msg, selector=lambda qs, i=i: select(qs, i))  # type: ignore[misc]
            ok = True
        except Exception as exc:
            ok = False
            if not failures:
                failures.append(_check(exc))
        end = now_ms()
        if i != 0:
            elapsed += end - start
        sends.append(
            {"brokerName": chosen["broker"], "queueId": chosen["queue"], "success": ok, "rtMs": end - start}
        )
        out.text(jformat(_RESULT_FORMAT, chosen["broker"], chosen["queue"], ok, end - start))
    avg = elapsed / (n - 1) if n != 1 else float("nan")
    out.text(f"Avg RT: {java_f(avg, 2)}\n")
    if out.structured:
        data: dict[str, Any] = {"sends": sends, "avgRtMs": None if n <= 1 else round(avg, 2)}
        if failures:
            data["errors"] = inv.error_list() or [{"message": str(failures[0])}]
        out.data(data)
    if failures:
        inv.any_success = any(s["success"] for s in sends)
        raise PartialFailure(failures) if inv.any_success else failures[0]


# ----------------------------------------------------------------------------------- sendMsgStatus


def _hello_body(size: int) -> bytes:
    return b"hello jodie" * max(0, (size + 10) // 11)


@java_command(
    "sendMsgStatus",
    [
        JavaOpt(
            "b",
            "brokerName",
            "Broker Name e.g. clusterName_brokerName as DefaultCluster_broker-a",
            required=True,
            dest="broker_name",
        ),
        JavaOpt("s", "messageSize", "Message Size, Default: 128", dest="message_size"),
        JavaOpt("c", "count", "send message count, Default: 50"),
    ],
    json_doc='{"sends": [{"rtMs": int, "sendStatus": str, "msgId": str, "offsetMsgId": str, '
    '"brokerName": str, "queueId": int, "queueOffset": int}]} (sent to the topic named after the broker)',
)
async def send_msg_status(
    inv: Invocation, broker_name: str, message_size: str | None, count: str | None
) -> None:
    from mqadmin.admin.producer import Producer

    topic = broker_name.strip()
    size = parse_int(message_size, "-s", 128, terse=True)
    n = parse_int(count, "-c", 50, terse=True)
    producer = Producer(inv.admin, "PID_SMSC")
    try:
        await producer.send(Message(topic=topic, body=_hello_body(16)))
    except Exception as exc:
        raise _check(exc) from None
    sends: list[dict[str, Any]] = []
    for _ in range(n):
        begin = now_ms()
        try:
            result = await producer.send(Message(topic=topic, body=_hello_body(size)))
        except Exception as exc:
            inv.any_success = bool(sends)
            raise _check(exc) from None
        rt = now_ms() - begin
        sends.append({"rtMs": rt, **result.to_json()})
        inv.out.text(f"rt={rt}ms, SendResult={result}\n")
    if inv.out.structured:
        inv.out.data({"sends": sends})
