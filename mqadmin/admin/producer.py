"""A small producer for the commands that send: sendMessage, checkMsgSendRT, sendMsgStatus, clusterRT.

It sends as ``DefaultMQProducer`` does, over the admin object's connections (so requests are signed
like every other one): the topic's route from a name server (falling back to the default topic
``TBW102`` when the topic has none, which lets a broker with ``autoCreateTopicEnable`` create it),
the publish queues in Java's order, round-robin queue selection from a random start, a
``UNIQ_KEY`` of Java's layout, zlib for bodies over 4 KiB, SEND_MESSAGE_V2 (310) with the
one-letter header, three attempts. A queue named by the caller may be on a broker the topic's route
does not list (or the topic may have no route yet): its broker is then found by name in the cluster
info, as a Java client finds any broker it knows, and that broker decides. With ``trace=True`` a
``Pub`` trace record of every successful send goes to the trace topic when the producer closes, as
``AsyncTraceDispatcher`` does.
"""

from __future__ import annotations

import os
import random
import socket
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from mqadmin.admin.api import MQAdmin
from mqadmin.admin.errors import AdminError, BadResponseError
from mqadmin.protocol import names
from mqadmin.protocol.bodies.message_queue import MessageQueue
from mqadmin.protocol.bodies.route import MASTER_ID, BrokerData, TopicRouteData
from mqadmin.protocol.codes import RequestCode, ResponseCode
from mqadmin.protocol.command import RemotingCommand
from mqadmin.protocol.headers.send import SendMessageRequestHeaderV2
from mqadmin.protocol.javacoll import java_hash_order
from mqadmin.protocol.message import (
    NAME_VALUE_SEPARATOR,
    PROPERTY_SEPARATOR,
    Message,
    MessageConst,
    MessageSysFlag,
    properties_to_string,
)
from mqadmin.protocol.msgid import UniqueIdGenerator
from mqadmin.protocol.perm import PERM_WRITE
from mqadmin.remoting.blocking import host_name
from mqadmin.remoting.errors import RemoteCommandError, RemotingError

__all__ = [
    "DEFAULT_TOPIC",
    "RETRY_CODES",
    "TRACE_TOPIC",
    "MessageCheckError",
    "NoWritableQueueError",
    "Producer",
    "SendResult",
    "check_message",
    "local_ip",
    "unique_ids",
]

DEFAULT_TOPIC = "TBW102"
DEFAULT_TOPIC_QUEUE_NUMS = 4
TRACE_TOPIC = "RMQ_SYS_TRACE_TOPIC"
MAX_MESSAGE_SIZE = 4 * 1024 * 1024
COMPRESS_OVER = 4096
COMPRESS_LEVEL = 5
TOPIC_MAX_LENGTH = names.TOPIC_MAX_LENGTH
_STATUS: dict[int, str] = {
    ResponseCode.SUCCESS: "SEND_OK",
    ResponseCode.FLUSH_DISK_TIMEOUT: "FLUSH_DISK_TIMEOUT",
    ResponseCode.FLUSH_SLAVE_TIMEOUT: "FLUSH_SLAVE_TIMEOUT",
    ResponseCode.SLAVE_NOT_AVAILABLE: "SLAVE_NOT_AVAILABLE",
}
RETRY_CODES = frozenset({17, 14, 1, 16, 204, 205, 2, 1500})
"""Broker answers after which Java's ``sendDefaultImpl`` tries again (5.3.3's list)."""


class NoWritableQueueError(AdminError):
    """The topic has a route, but no writable queue on a broker with a master."""


class MessageCheckError(AdminError):
    """A message Java's ``Validators`` refuses before anything is sent (bad input, not a failure)."""


def check_message(msg: Message) -> None:
    """``Validators.checkMessage``: what Java refuses before anything is sent."""
    topic = msg.topic
    if not topic or not topic.strip():
        raise MessageCheckError("The specified topic is blank")
    if len(topic) > TOPIC_MAX_LENGTH:
        raise MessageCheckError(f"The specified topic is longer than topic max length {TOPIC_MAX_LENGTH}.")
    if not names.check_topic_or_group_chars(topic):  # the whole name: "T\n" is refused, as by matches()
        raise MessageCheckError(
            f"The specified topic[{topic}] contains illegal characters, allowing only {names.ALLOWED}"
        )
    if names.is_not_allowed_send_topic(topic):
        raise MessageCheckError(f"Sending message to topic[{topic}] is forbidden.")
    for name, value in msg.properties.items():  # no escaping on the wire: these would split the entry
        if any(sep in s for s in (name, value or "") for sep in (NAME_VALUE_SEPARATOR, PROPERTY_SEPARATOR)):
            raise MessageCheckError(
                f"property {name!r} holds \\x01 or \\x02, the separators of a message's properties; "
                "the broker would read it as other properties"
            )
    if not msg.body:
        raise MessageCheckError("the message body length is zero")
    if len(msg.body) > MAX_MESSAGE_SIZE:
        raise MessageCheckError(f"the message body size over max value, MAX: {MAX_MESSAGE_SIZE}")


def local_ip() -> str:
    """The address a Java client puts in its unique ids (``UtilAll.getIP``): a public or private IPv4."""
    candidates: list[str] = []
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("192.0.2.1", 9))  # no packet is sent; this only picks the outgoing interface
            candidates.append(s.getsockname()[0])
    except OSError:
        pass
    try:
        candidates.extend(
            str(info[4][0])
            for info in socket.getaddrinfo(host_name(socket.gethostname()), None, socket.AF_INET)
        )
    except OSError:
        pass
    for ip in candidates:
        if not ip.startswith("127.") and ip != "0.0.0.0":
            return ip
    return "127.0.0.1"


_IDS: UniqueIdGenerator | None = None


def unique_ids() -> UniqueIdGenerator:
    """This process's unique-id generator (Java keeps one per class loader)."""
    global _IDS
    if _IDS is None:
        _IDS = UniqueIdGenerator(local_ip(), pid=os.getpid())
    return _IDS


@dataclass(slots=True)
class SendResult:
    """``SendResult``: status, unique id, offset id, queue and queue offset."""

    status: str
    msg_id: str
    offset_msg_id: str
    queue: MessageQueue
    queue_offset: int
    region_id: str | None = None
    trace_on: bool = True
    broker_addr: str = ""

    def __str__(self) -> str:
        """Java 5.3.3 ``SendResult.toString``."""
        return (
            f"SendResult [sendStatus={self.status}, msgId={self.msg_id}, offsetMsgId={self.offset_msg_id}, "
            f"messageQueue={self.queue}, queueOffset={self.queue_offset}, recallHandle=null]"
        )

    def to_json(self) -> dict[str, object]:
        return {
            "sendStatus": self.status,
            "msgId": self.msg_id,
            "offsetMsgId": self.offset_msg_id,
            "brokerName": self.queue.broker_name,
            "queueId": self.queue.queue_id,
            "queueOffset": self.queue_offset,
        }


class _PublishInfo:
    """A topic's writable queues and where round-robin selection is (from a random start, as Java's
    ``ThreadLocalIndex``)."""

    __slots__ = ("index", "queues", "route")

    def __init__(self, queues: list[MessageQueue], route: TopicRouteData, index: int | None = None) -> None:
        self.queues = queues
        self.route = route
        self.index = random.randrange(1 << 31) if index is None else index

    def select(self, last_broker: str | None = None) -> MessageQueue:
        """``TopicPublishInfo.selectOneMessageQueue``: the next queue, avoiding the broker that failed."""
        n = len(self.queues)
        if last_broker is not None:
            for _ in range(n):
                self.index += 1
                mq = self.queues[self.index % n]
                if mq.broker_name != last_broker:
                    return mq
        self.index += 1
        return self.queues[self.index % n]


def publish_queues(topic: str, route: TopicRouteData, limit: int | None = None) -> list[MessageQueue]:
    """``topicRouteData2TopicPublishInfo``: writable queues of brokers with a master, by broker name."""
    masters = {
        bd.broker_name for bd in route.broker_datas or [] if bd.broker_addrs and MASTER_ID in bd.broker_addrs
    }
    queues: list[MessageQueue] = []
    datas = sorted(route.queue_datas or [], key=lambda q: (q.broker_name or "").encode("utf-16-be"))
    for qd in datas:
        if not qd.perm & PERM_WRITE or qd.broker_name not in masters:
            continue
        n = qd.write_queue_nums if limit is None else min(limit, qd.read_queue_nums)
        queues.extend(MessageQueue(topic, qd.broker_name, i) for i in range(n))
    return queues


class Producer:
    """Sends messages through an admin object (see the module docstring)."""

    def __init__(
        self,
        admin: MQAdmin,
        group: str,
        *,
        trace: bool = False,
        trace_topic: str = TRACE_TOPIC,
        ids: UniqueIdGenerator | None = None,
        send_timeout: float | None = None,
        attempts: int = 3,
    ) -> None:
        self.admin = admin
        self.group = group
        self.trace = trace
        self.trace_topic = trace_topic
        self.ids = ids or unique_ids()
        self.send_timeout = (
            send_timeout if send_timeout is not None else min(admin.core.settings.timeout, 3.0)
        )
        self.attempts = attempts
        self._publish: dict[str, _PublishInfo] = {}
        self._traces: list[tuple[str, str]] = []  # (record, keys)

    # ------------------------------------------------------------------------------ routes

    async def publish_info(self, topic: str) -> _PublishInfo:
        """The topic's publish queues; the default topic's (at most 4 a broker) when it has no route."""
        info = self._publish.get(topic)
        if info is not None:
            return info
        try:
            route = await self.admin.namesrv.examine_topic_route_info(topic)
            queues = publish_queues(topic, route)
        except RemoteCommandError as e:
            if e.code != ResponseCode.TOPIC_NOT_EXIST:
                raise
            try:
                route = await self.admin.namesrv.examine_topic_route_info(DEFAULT_TOPIC)
            except RemoteCommandError as e2:
                if e2.code == ResponseCode.TOPIC_NOT_EXIST:
                    raise e from None
                raise
            queues = publish_queues(topic, route, DEFAULT_TOPIC_QUEUE_NUMS)
            if not queues:
                raise e from None
        if not queues:
            raise NoWritableQueueError(
                f"No route info of this topic: {topic} (no writable queue on a broker with a master)"
            )
        info = _PublishInfo(queues, route)
        self._publish[topic] = info
        return info

    async def queues(self, topic: str) -> list[MessageQueue]:
        return list((await self.publish_info(topic)).queues)

    async def broker_addr(self, topic: str, broker_name: str) -> str:
        """The master of ``broker_name``: from the topic's route, else from the cluster info."""
        datas: list[BrokerData] = []
        try:
            datas = (await self.publish_info(topic)).route.broker_datas or []
        except NoWritableQueueError:
            pass
        except RemoteCommandError as e:
            if e.code != ResponseCode.TOPIC_NOT_EXIST:
                raise
        for bd in datas:
            if bd.broker_name == broker_name and bd.broker_addrs and MASTER_ID in bd.broker_addrs:
                return bd.broker_addrs[MASTER_ID]
        addr = await self.admin.namesrv.broker_addr_by_name(broker_name, master_only=True)
        if addr is None:
            raise AdminError(f"The broker[{broker_name}] not exist")
        return addr

    # ------------------------------------------------------------------------------ sending

    async def send(
        self,
        msg: Message,
        queue: MessageQueue | None = None,
        *,
        selector: Callable[[Sequence[MessageQueue]], MessageQueue] | None = None,
    ) -> SendResult:
        """Send ``msg``: to ``queue`` (one attempt), to ``selector``'s pick (one attempt), or with retries."""
        check_message(msg)
        if queue is not None:
            if queue.topic != msg.topic:
                raise MessageCheckError("message's topic not equal mq's topic")
            assert queue.broker_name is not None
            return await self._send_to(msg, queue, await self.broker_addr(msg.topic, queue.broker_name))
        info = await self.publish_info(msg.topic)
        if selector is not None:
            mq = selector(info.queues)
            assert mq.broker_name is not None
            return await self._send_to(msg, mq, await self.broker_addr(msg.topic, mq.broker_name))
        last_broker: str | None = None
        last_error: BaseException | None = None
        deadline = time.monotonic() + self.send_timeout
        for attempt in range(self.attempts):
            if attempt and time.monotonic() > deadline:
                break
            mq = info.select(last_broker)
            assert mq.broker_name is not None
            last_broker = mq.broker_name
            try:
                return await self._send_to(msg, mq, await self.broker_addr(msg.topic, mq.broker_name))
            except RemoteCommandError as e:
                if e.code not in RETRY_CODES:
                    raise
                last_error = e
            except (RemotingError, AdminError) as e:
                last_error = e
        assert last_error is not None
        raise last_error

    async def _send_to(self, msg: Message, mq: MessageQueue, addr: str) -> SendResult:
        if msg.unique_key is None:
            msg.unique_key = self.ids.next_id()
        body = msg.body
        sys_flag = 0
        if len(body) > COMPRESS_OVER:
            import zlib

            body = zlib.compress(body, COMPRESS_LEVEL)
            sys_flag |= MessageSysFlag.COMPRESSED_FLAG | MessageSysFlag.COMPRESSION_ZLIB_TYPE
        if (msg.properties.get(MessageConst.PROPERTY_TRANSACTION_PREPARED) or "").lower() == "true":
            sys_flag |= MessageSysFlag.TRANSACTION_PREPARED_TYPE
        started = int(time.time() * 1000)
        props = {k: msg.properties[k] for k in java_hash_order(msg.properties)}
        resp = await self._invoke(
            addr,
            RequestCode.SEND_MESSAGE_V2,
            mq,
            sys_flag=sys_flag,
            flag=msg.flag,
            properties=properties_to_string(props),
            body=body,
            batch=False,
        )
        result = self._result(addr, resp, mq, msg.unique_key or "")
        if self.trace and result.trace_on and result.region_id is not None:
            self._trace_pub(msg, result, started, addr)
        return result

    async def send_batch(self, msgs: Sequence[Message], queue: MessageQueue) -> SendResult:
        """SEND_BATCH_MESSAGE (320) of ``msgs`` into one queue (``DefaultMQProducer.send(Collection)``)."""
        if not msgs:
            raise AdminError("a batch needs at least one message")
        for m in msgs:
            check_message(m)
            if m.topic != queue.topic:
                raise MessageCheckError("The topic of the messages in one batch should be the same")
            if m.unique_key is None:
                m.unique_key = self.ids.next_id()
        assert queue.broker_name is not None and queue.topic is not None
        addr = await self.broker_addr(queue.topic, queue.broker_name)
        from mqadmin.protocol.message_record import encode_batch  # the batch layout, for a batch only

        body = encode_batch(msgs)
        resp = await self._invoke(
            addr,
            RequestCode.SEND_BATCH_MESSAGE,
            queue,
            sys_flag=0,
            flag=0,
            properties="",
            body=body,
            batch=True,
        )
        return self._result(addr, resp, queue, ",".join(m.unique_key or "" for m in msgs))

    async def _invoke(
        self,
        addr: str,
        code: int,
        mq: MessageQueue,
        *,
        sys_flag: int,
        flag: int,
        properties: str,
        body: bytes,
        batch: bool,
    ) -> RemotingCommand:
        assert mq.topic is not None
        header = SendMessageRequestHeaderV2(
            self.group,
            mq.topic,
            DEFAULT_TOPIC,
            DEFAULT_TOPIC_QUEUE_NUMS,
            mq.queue_id,
            sys_flag,
            int(time.time() * 1000),
            flag,
            properties,
            reconsume_times=0,
            unit_mode=False,
            batch=batch,
            broker_name=mq.broker_name,
        )
        return await self.admin.core.invoke(
            addr, code, header, body, timeout=self.send_timeout, ok=tuple(_STATUS)
        )

    @staticmethod
    def _result(addr: str, resp: RemotingCommand, mq: MessageQueue, msg_id: str) -> SendResult:
        try:
            queue_id = int(resp.ext("queueId") or mq.queue_id)
            queue_offset = int(resp.ext("queueOffset") or 0)
        except ValueError:
            raise BadResponseError(addr, "queueId/queueOffset of the send answer are not numbers") from None
        return SendResult(
            _STATUS[resp.code],
            msg_id,
            resp.ext("msgId") or "",
            MessageQueue(mq.topic, mq.broker_name, queue_id),
            queue_offset,
            resp.ext("MSG_REGION"),
            (resp.ext("TRACE_ON") or "true").lower() != "false",
            addr,
        )

    # ------------------------------------------------------------------------------ trace

    def _trace_pub(self, msg: Message, result: SendResult, started: int, addr: str) -> None:
        """A ``Pub`` record as ``SendMessageTraceHookImpl`` + ``TraceDataEncoder`` write it."""
        cost = int(time.time() * 1000) - started
        fields = [
            "Pub",
            str(started),
            str(result.region_id),
            self.group,
            msg.topic,
            result.msg_id,
            str(msg.tags),
            str(msg.keys),
            addr,
            str(len(msg.body)),
            str(cost),
            "0",  # MessageType.Normal_Msg
            result.offset_msg_id,
            "true" if result.status == "SEND_OK" else "false",
        ]
        keys = [result.msg_id, *msg.key_list]
        self._traces.append(("\x01".join(fields) + "\x02", " ".join(dict.fromkeys(keys))))

    async def close(self) -> None:
        """Flush the trace records (failures are ignored, as Java only logs them)."""
        traces, self._traces = self._traces, []
        if not traces:
            return
        tracer = Producer(self.admin, f"_INNER_TRACE_PRODUCER-{self.group}-PRODUCE-1", ids=self.ids)
        for record, keys in traces:
            trace_msg = Message(self.trace_topic, body=record.encode("utf-8"))
            trace_msg.keys = keys
            try:
                await tracer.send(trace_msg)
            except (RemotingError, AdminError):
                pass
