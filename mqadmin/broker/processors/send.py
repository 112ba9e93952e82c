"""Producing: SEND_MESSAGE (10), SEND_MESSAGE_V2 (310), SEND_BATCH_MESSAGE (320), and the consumer's
send-back of a failed message, CONSUMER_SEND_MSG_BACK (36) — Java's ``SendMessageProcessor``.

Checks run in Java's order (start time, permissions, topic name, auto-creation from the default
topic, queue id) with Java's codes and remarks. The stored properties are the request's with
``CLUSTER`` added and ``WAIT`` removed, in ``HashMap`` order; bornHost is the sender's address.
Every answer carries ``MSG_REGION`` and ``TRACE_ON``; a success adds the offset message id, the
queue id and the queue offset.
"""

from __future__ import annotations

import dataclasses
import logging
import random

from mqadmin.broker.admission import Admission
from mqadmin.broker.clients import ConsumerManager
from mqadmin.broker.config import BrokerSettings
from mqadmin.broker.groups import GroupManager
from mqadmin.broker.processors.static_forward import not_leader
from mqadmin.broker.services import MessageWriter, now_ms
from mqadmin.broker.static_topics import QueueContext
from mqadmin.broker.stats import BrokerStats
from mqadmin.broker.store import MessageStore
from mqadmin.broker.store.results import PutResult
from mqadmin.broker.topics import DLQ_PREFIX, RETRY_PREFIX, TopicManager, topic_config_string
from mqadmin.broker.transactions import TransactionService
from mqadmin.broker.wire import FAQ_SUFFIX, answer, hash_ordered
from mqadmin.protocol import names
from mqadmin.protocol.bodies.topic import TopicConfig
from mqadmin.protocol.codes import RequestCode, ResponseCode
from mqadmin.protocol.command import RemotingCommand
from mqadmin.protocol.errors import ProtocolError
from mqadmin.protocol.headers.base import HeaderError
from mqadmin.protocol.headers.message import (
    ConsumerSendMsgBackRequestHeader,
    SendHeader,
    SendMessageRequestHeader,
    SendMessageRequestHeaderV2,
    check_stored_topic,
)
from mqadmin.protocol.javanum import parse_bool
from mqadmin.protocol.message import MessageConst, MessageSysFlag, properties_to_string, string_to_properties
from mqadmin.protocol.message_record import MessageExt, decode_batch, decode_message
from mqadmin.protocol.perm import PERM_READ, PERM_WRITE
from mqadmin.remoting.client import Connection, Handler

__all__ = ["SendProcessor"]

log = logging.getLogger("mqadmin.broker")

V3_4_9 = 186  # MQVersion.Version.V3_4_9.ordinal(): from here a request's maxReconsumeTimes is honoured
DLQ_NUMS_PER_GROUP = 1
TOPIC_SYS_FLAG_UNIT = 1
TOPIC_SYS_FLAG_UNIT_SUB = 2

_PUT_ERRORS = {
    "CREATE_MAPEDFILE_FAILED": (1, "create mapped file failed, server is busy or broken."),
    "OS_PAGECACHE_BUSY": (1, "[PC_SYNCHRONIZED]broker busy, start flow control for a while"),
    "UNKNOWN_ERROR": (1, "UNKNOWN_ERROR"),
    "LMQ_CONSUME_QUEUE_NUM_EXCEEDED": (
        1,
        "[LMQ_CONSUME_QUEUE_NUM_EXCEEDED]broker config enableLmq and enableMultiDispatch, lmq consumeQueue "
        "num exceed maxLmqConsumeQueueNum config num, default limit 2w.",
    ),
}
_PUT_OK_CODES = {"PUT_OK": 0, "FLUSH_DISK_TIMEOUT": 10, "FLUSH_SLAVE_TIMEOUT": 12, "SLAVE_NOT_AVAILABLE": 11}


def decode_send_header(cmd: RemotingCommand) -> SendHeader:
    """The request's send header, decoded once (V2 and batch requests use the one-letter names)."""
    if cmd.code == RequestCode.SEND_MESSAGE:
        return SendMessageRequestHeader.decode(cmd.ext_fields)
    try:
        return SendMessageRequestHeaderV2.decode(cmd.ext_fields)
    except HeaderError as e:  # name the missing field as V1 does (``<topic>``, not ``<b>``)
        for f in SendMessageRequestHeaderV2.fields():
            if f"<{f.java}>" in e.remark:
                raise HeaderError(e.remark.replace(f"<{f.java}>", f"<{_camel(f.attr)}>"), e.code) from None
        raise


def _camel(attr: str) -> str:
    head, *rest = attr.split("_")
    return head + "".join(p[:1].upper() + p[1:] for p in rest)


def illegal_remark(limit: int) -> str:
    """The MESSAGE_ILLEGAL remark, quoting ``maxMessageSize``."""
    return (
        "the message is illegal, maybe msg body or properties length not matched. "
        f"msg body length limit {limit}B, msg properties length limit 32KB."
    )


def split_addr(addr: str) -> tuple[str, int]:
    """``host:port`` (IPv6 hosts bracketed) as a pair."""
    host, _, port = addr.rpartition(":")
    return host.strip("[]"), int(port or 0)


class SendProcessor:
    """Codes 10, 310, 320 and 36."""

    def __init__(
        self,
        *,
        settings: BrokerSettings,
        topics: TopicManager,
        groups: GroupManager,
        consumers: ConsumerManager,
        stats: BrokerStats,
        store: MessageStore,
        admission: Admission,
        transactions: TransactionService,
        writer: MessageWriter,
    ) -> None:
        self.settings = settings
        self.topics = topics
        self.groups = groups
        self.consumers = consumers
        self.stats = stats
        self.store = store
        self.admission = admission
        self.transactions = transactions
        self.writer = writer

    def handlers(self) -> dict[int, Handler]:
        return {
            RequestCode.SEND_MESSAGE: self.send,
            RequestCode.SEND_MESSAGE_V2: self.send,
            RequestCode.SEND_BATCH_MESSAGE: self.send,
            RequestCode.CONSUMER_SEND_MSG_BACK: self.send_back,
        }

    # ------------------------------------------------------------------------------ send

    def send(self, conn: Connection, cmd: RemotingCommand) -> RemotingCommand:
        h = decode_send_header(cmd)
        cfg = self.settings.broker
        static = self.topics.mappings.context(h.topic, h.queue_id, select_one=True)
        if static is not None:  # a static topic: the logical queue's physical queue on this broker
            if not static.is_leader or static.leader is None:
                return not_leader(cmd, static, h.queue_id)
            h = dataclasses.replace(h, queue_id=static.leader.queue_id)
        ext: dict[str, object] = {"MSG_REGION": cfg.region_id, "TRACE_ON": cfg.trace_on}

        if now_ms() < cfg.start_accept_send_request_time_stamp:
            return answer(
                cmd, 1, f"broker unable to service, until {cfg.start_accept_send_request_time_stamp}", ext
            )
        refused = self._check(conn, h)
        if refused is not None:
            return answer(cmd, refused[0], refused[1], ext)
        tc = self.topics.get(h.topic)
        assert tc is not None
        queue_id = h.queue_id if h.queue_id >= 0 else random.randrange(max(tc.write_queue_nums, 1))
        answered_queue = queue_id  # what the answer says, even when the message goes to the DLQ
        if h.batch or cmd.code == RequestCode.SEND_BATCH_MESSAGE:
            return self._send_batch(conn, cmd, h, tc, queue_id, ext, static)

        topic = h.topic
        if topic.startswith(RETRY_PREFIX):
            routed = self._retry_or_dlq(cmd, h)
            if isinstance(routed, tuple):
                return answer(cmd, routed[0], routed[1], ext)
            if routed is not None:
                topic, queue_id = routed, 0
        sys_flag = h.sys_flag
        if tc.topic_filter_type == "MULTI_TAG":
            sys_flag |= MessageSysFlag.MULTI_TAGS_FLAG

        props = string_to_properties(h.properties)
        props[MessageConst.PROPERTY_CLUSTER] = cfg.broker_cluster_name
        props.pop(MessageConst.PROPERTY_WAIT_STORE_MSG_OK, None)
        msg = self._message(
            conn,
            topic,
            queue_id,
            h.flag,
            sys_flag,
            h.born_timestamp,
            h.reconsume_times or 0,
            props,
            cmd.body or b"",
        )

        if parse_bool(props.get(MessageConst.PROPERTY_TRANSACTION_PREPARED)):
            if cfg.reject_transaction_message:
                return answer(
                    cmd, 16, f"the broker[{cfg.broker_ip1}] sending transaction message is forbidden", ext
                )
            result = self.transactions.prepare(msg)
        else:
            result = self.writer.put_message(msg)
        return self._put_answer(cmd, result, answered_queue, msg.topic, ext, static)

    def _check(self, conn: Connection, h: SendHeader) -> tuple[int, str] | None:
        """``msgCheck``: permission, topic name, auto-creation, queue id."""
        cfg = self.settings.broker
        if not cfg.broker_permission & PERM_WRITE and self.topics.is_order_topic(h.topic):
            return 16, f"the broker[{cfg.broker_ip1}] sending message is forbidden"
        bad = names.check_topic(h.topic)
        if bad is not None:
            return ResponseCode.SYSTEM_ERROR, bad
        if names.is_not_allowed_send_topic(h.topic):
            return ResponseCode.NO_PERMISSION, f"Sending message to topic[{h.topic}] is forbidden."
        tc = self.topics.get(h.topic)
        if tc is None:
            sys_flag = 0
            if h.unit_mode:
                sys_flag = (
                    TOPIC_SYS_FLAG_UNIT_SUB if h.topic.startswith(RETRY_PREFIX) else TOPIC_SYS_FLAG_UNIT
                )
            log.warning("the topic %s not exist, producer: %s", h.topic, conn.remote_addr)
            tc = self.topics.create_in_send(h.topic, h.default_topic, h.default_topic_queue_nums, sys_flag)
            if tc is None and h.topic.startswith(RETRY_PREFIX):
                tc = self.topics.create_in_send_back(h.topic, 1, PERM_READ | PERM_WRITE, sys_flag)
            if tc is None:
                return 17, f"topic[{h.topic}] not exist, apply first please!{FAQ_SUFFIX}"
        if h.queue_id >= max(tc.write_queue_nums, tc.read_queue_nums):
            return (
                1,
                f"request queueId[{h.queue_id}] is illegal, {topic_config_string(tc)} "
                f"Producer: {conn.remote_addr}",
            )
        return None

    def _retry_or_dlq(self, cmd: RemotingCommand, h: SendHeader) -> str | tuple[int, str] | None:
        """``handleRetryAndDLQ``: a retry that used up its attempts goes to the group's DLQ."""
        group = h.topic[len(RETRY_PREFIX) :]
        g = self.groups.find(group)
        if g is None:
            return 26, f"subscription group not exist, {group} {FAQ_SUFFIX}"
        max_times = g.retry_max_times
        if cmd.version >= V3_4_9 and h.max_reconsume_times is not None:
            max_times = h.max_reconsume_times
        if (h.reconsume_times or 0) >= max_times:
            dlq = DLQ_PREFIX + group
            self.topics.create_in_send_back(dlq, DLQ_NUMS_PER_GROUP, PERM_READ | PERM_WRITE, 0)
            return dlq
        return None

    def _message(
        self,
        conn: Connection,
        topic: str,
        queue_id: int,
        flag: int,
        sys_flag: int,
        born: int,
        reconsume: int,
        props: dict[str, str],
        body: bytes,
    ) -> MessageExt:
        born_host, born_port = split_addr(conn.remote_addr or "0.0.0.0:0")
        if ":" in born_host:
            sys_flag |= MessageSysFlag.BORNHOST_V6_FLAG
        return MessageExt(
            topic=topic,
            flag=flag,
            properties=hash_ordered(props),
            body=body,
            queue_id=queue_id,
            sys_flag=sys_flag,
            born_timestamp=born,
            born_host=born_host,
            born_port=born_port,
            store_host=self.writer.store_host,
            store_port=self.writer.store_port,
            reconsume_times=reconsume,
        )

    def _put_answer(
        self,
        cmd: RemotingCommand,
        result: PutResult,
        queue_id: int,
        topic: str,
        ext: dict[str, object],
        static: QueueContext | None = None,
    ) -> RemotingCommand:
        status = result.status.name
        code = _PUT_OK_CODES.get(status)
        if code is None:
            if status in ("MESSAGE_ILLEGAL", "PROPERTIES_SIZE_EXCEEDED"):
                limit = self.settings.store.max_message_size
                return answer(cmd, 13, illegal_remark(limit), ext)
            if status == "SERVICE_NOT_AVAILABLE":
                remark = (
                    "service not available now. It may be caused by one of the following reasons: the "
                    f"broker's disk is full [{self.writer.disk_util()}], messages are put to the slave, "
                    "message store has been shut down, etc."
                )
                return answer(cmd, 14, remark, ext)
            code, remark = _PUT_ERRORS.get(status, (1, "UNKNOWN_ERROR DEFAULT"))
            return answer(cmd, code, remark, ext)
        self.stats.inc_topic_put(topic, result.msg_num, result.wrote_bytes)
        ext.update(msgId=result.msg_id, queueId=queue_id, queueOffset=result.queue_offset)
        if static is not None:  # the logical queue id and offset (Java rewriteResponseForStaticTopic)
            ext["queueId"], ext["queueOffset"] = static.send_answer(result.queue_offset)
        return answer(cmd, code, None, ext)

    def _send_batch(
        self,
        conn: Connection,
        cmd: RemotingCommand,
        h: SendHeader,
        tc: TopicConfig,
        queue_id: int,
        ext: dict[str, object],
        static: QueueContext | None = None,
    ) -> RemotingCommand:
        """``asyncSendBatchMessage``: every entry gets the batch's properties (with CLUSTER) appended."""
        if len(h.topic) > 127:
            return answer(cmd, 13, f"message topic length too long {len(h.topic)}", ext)
        sys_flag = h.sys_flag
        if tc.topic_filter_type == "MULTI_TAG":
            sys_flag |= MessageSysFlag.MULTI_TAGS_FLAG
        batch_props = string_to_properties(h.properties)
        batch_props[MessageConst.PROPERTY_CLUSTER] = self.settings.broker.broker_cluster_name
        batch_text = properties_to_string(hash_ordered(batch_props), trailing_separator=False)
        try:
            entries = decode_batch(cmd.body or b"")
        except ProtocolError as e:
            log.warning("bad batch body from %s: %s", conn.remote_addr, e)
            return answer(cmd, 13, illegal_remark(self.settings.store.max_message_size), ext)
        if not entries:
            return answer(cmd, 13, illegal_remark(self.settings.store.max_message_size), ext)
        msgs = []
        for entry in entries:
            inner = properties_to_string(entry.properties, trailing_separator=False)
            text = inner + ("\x02" if inner and not inner.endswith("\x02") else "") + batch_text
            if MessageConst.PROPERTY_TRANSACTION_PREPARED in entry.properties or entry.delay_time_level > 0:
                return answer(cmd, 13, illegal_remark(self.settings.store.max_message_size), ext)
            msg = self._message(
                conn,
                h.topic,
                queue_id,
                entry.flag,
                sys_flag,
                h.born_timestamp,
                h.reconsume_times or 0,
                {},
                entry.body,
            )
            msg.properties = string_to_properties(text)
            msgs.append(msg)
        result = self.writer.put_messages(msgs)
        return self._put_answer(cmd, result, queue_id, h.topic, ext, static)

    # ------------------------------------------------------------------------------ send back

    def send_back(self, conn: Connection, cmd: RemotingCommand) -> RemotingCommand:
        """CONSUMER_SEND_MSG_BACK: into ``%RETRY%group`` after a delay, or ``%DLQ%group`` at the end.

        The group is checked by its header (Java's group rules), and the retry topic derived from
        it must be one the store can hold, before anything is created or written. With ACL on, the
        message at the offset must be of a topic the group subscribes to (or its own retry topic):
        the offset is the sender's choice, and a copy in ``%RETRY%group`` is readable by the group.
        """
        h = ConsumerSendMsgBackRequestHeader.decode(cmd.ext_fields)
        group = h.group
        offset = h.offset
        delay_level = h.delay_level
        new_topic = RETRY_PREFIX + group
        if check_stored_topic(new_topic) is not None:  # Java: the put fails, MESSAGE_ILLEGAL
            return answer(cmd, ResponseCode.SYSTEM_ERROR, "MESSAGE_ILLEGAL")
        raw = self.store.look_message(offset)  # read first: a refused copy creates nothing either
        try:
            orig = decode_message(raw, decompress=False)[0] if raw is not None else None
        except ProtocolError:
            orig = None
        if orig is not None and self.admission.enabled and not self._subscribes(group, orig.topic):
            return answer(
                cmd,
                ResponseCode.NO_PERMISSION,
                f"the group {group} does not subscribe to the topic of the message at offset {offset}",
            )
        g = self.groups.find(group)
        if g is None:
            return answer(cmd, 26, f"subscription group not exist, {group} {FAQ_SUFFIX}")
        if not self.settings.broker.broker_permission & PERM_WRITE:
            return answer(
                cmd, 16, f"the broker[{self.settings.broker.broker_ip1}] sending message is forbidden"
            )
        if g.retry_queue_nums <= 0:
            return answer(cmd, 0)
        queue_id = random.randrange(99999999) % g.retry_queue_nums
        sys_flag = TOPIC_SYS_FLAG_UNIT_SUB if h.unit_mode else 0
        tc = self.topics.create_in_send_back(new_topic, g.retry_queue_nums, PERM_READ | PERM_WRITE, sys_flag)
        if not tc.perm & PERM_WRITE:
            return answer(cmd, 16, f"the topic[{new_topic}] sending message is forbidden")
        if orig is None:
            return answer(cmd, ResponseCode.SYSTEM_ERROR, f"look message by offset failed, {offset}")
        props = dict(orig.properties)
        if MessageConst.PROPERTY_RETRY_TOPIC not in props:
            props[MessageConst.PROPERTY_RETRY_TOPIC] = orig.topic
        props[MessageConst.PROPERTY_WAIT_STORE_MSG_OK] = "false"
        max_times = g.retry_max_times
        if cmd.version >= V3_4_9 and h.max_reconsume_times is not None:
            max_times = h.max_reconsume_times
        if orig.reconsume_times >= max_times or delay_level < 0:
            new_topic = DLQ_PREFIX + group
            if check_stored_topic(new_topic) is not None:
                return answer(cmd, ResponseCode.SYSTEM_ERROR, "MESSAGE_ILLEGAL")
            queue_id = random.randrange(99999999) % DLQ_NUMS_PER_GROUP
            self.topics.create_in_send_back(new_topic, DLQ_NUMS_PER_GROUP, PERM_READ | PERM_WRITE, 0)
            props[MessageConst.PROPERTY_DELAY_TIME_LEVEL] = "0"
        else:
            if delay_level == 0:
                delay_level = 3 + orig.reconsume_times
            props[MessageConst.PROPERTY_DELAY_TIME_LEVEL] = str(delay_level)
        origin = props.get(MessageConst.PROPERTY_ORIGIN_MESSAGE_ID)
        props[MessageConst.PROPERTY_ORIGIN_MESSAGE_ID] = origin if origin and origin.strip() else orig.msg_id
        body, stored_flag = orig.stored_body()
        msg = MessageExt(
            topic=new_topic,
            flag=orig.flag,
            properties=hash_ordered(props),
            body=body,
            queue_id=queue_id,
            sys_flag=stored_flag,
            born_timestamp=orig.born_timestamp,
            born_host=orig.born_host,
            born_port=orig.born_port,
            store_host=self.writer.store_host,
            store_port=self.writer.store_port,
            reconsume_times=orig.reconsume_times + 1,
        )
        result = self.writer.put_message(msg)
        if result.status.name == "PUT_OK":
            back_topic = props.get(MessageConst.PROPERTY_RETRY_TOPIC) or orig.topic
            self.stats.inc_send_back(group, back_topic)
            if msg.topic != new_topic:  # delayed: stored in SCHEDULE_TOPIC_XXXX
                self.stats.inc_topic_put(msg.topic, 1, result.wrote_bytes)
            return answer(cmd, 0)
        return answer(cmd, 1, result.status.name)

    def _subscribes(self, group: str, topic: str) -> bool:
        """``topic`` is the group's own retry topic or one its consumers registered a subscription to."""
        return topic == RETRY_PREFIX + group or self.consumers.find_subscription(group, topic) is not None
