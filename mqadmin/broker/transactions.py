"""Transactional messages: half messages (Java ``TransactionalMessageService``) and END_TRANSACTION (37).

A message sent with ``TRAN_MSG=true`` is stored as a *half* message in ``RMQ_SYS_TRANS_HALF_TOPIC``
(its real topic and queue kept in ``REAL_TOPIC``/``REAL_QID``), invisible to consumers. The
producer's END_TRANSACTION commit re-puts it to the real topic; commit and rollback both record the
outcome in ``RMQ_SYS_TRANS_OP_HALF_TOPIC``. Not done: the periodic check-back of half messages that
were never ended (CHECK_TRANSACTION_STATE to the producer).
"""

from __future__ import annotations

import logging

from mqadmin.broker.admission import Admission
from mqadmin.broker.services import MessageWriter, now_ms
from mqadmin.broker.store import MessageStore, PutResult
from mqadmin.broker.topics import TRANS_HALF_TOPIC, TRANS_OP_HALF_TOPIC, TopicManager
from mqadmin.broker.wire import answer
from mqadmin.protocol import names
from mqadmin.protocol.codes import RequestCode, ResponseCode
from mqadmin.protocol.command import RemotingCommand
from mqadmin.protocol.errors import ProtocolError
from mqadmin.protocol.headers.message import EndTransactionRequestHeader
from mqadmin.protocol.javacoll import java_hash_dict
from mqadmin.protocol.javanum import JavaNumberError, parse_int
from mqadmin.protocol.message import MessageConst, MessageSysFlag
from mqadmin.protocol.message_record import MessageExt, decode_message
from mqadmin.protocol.perm import PERM_READ, PERM_WRITE
from mqadmin.remoting.client import Connection, Handler

__all__ = ["TransactionService"]

log = logging.getLogger("mqadmin.broker")

REMOVE_TAG = "d"


class TransactionService:
    """Half messages in, committed messages out; code 37."""

    def __init__(
        self, *, topics: TopicManager, store: MessageStore, admission: Admission, writer: MessageWriter
    ) -> None:
        self.topics = topics
        self.store = store
        self.admission = admission
        self.writer = writer

    def handlers(self) -> dict[int, Handler]:
        return {RequestCode.END_TRANSACTION: self.end_transaction}

    def _ensure_topic(self, topic: str) -> None:
        self.topics.create_in_send_back(topic, 1, PERM_READ | PERM_WRITE, 0)

    def prepare(self, msg: MessageExt) -> PutResult:
        """``parseHalfMessageInner``: park the message in the half topic, queue 0."""
        self._ensure_topic(TRANS_HALF_TOPIC)
        props = dict(msg.properties)
        props[MessageConst.PROPERTY_REAL_TOPIC] = msg.topic
        props[MessageConst.PROPERTY_REAL_QUEUE_ID] = str(msg.queue_id)
        msg.properties = java_hash_dict(props)
        msg.sys_flag = MessageSysFlag.reset_transaction_value(
            msg.sys_flag, MessageSysFlag.TRANSACTION_NOT_TYPE
        )
        msg.topic = TRANS_HALF_TOPIC
        msg.queue_id = 0
        return self.writer.put_message(msg)

    def end_transaction(self, conn: Connection, cmd: RemotingCommand) -> RemotingCommand | None:
        h = EndTransactionRequestHeader.decode(cmd.ext_fields)
        group = h.producer_group
        state_offset = h.tran_state_table_offset
        commit_log_offset = h.commit_log_offset
        kind = h.commit_or_rollback
        if kind not in (MessageSysFlag.TRANSACTION_COMMIT_TYPE, MessageSysFlag.TRANSACTION_ROLLBACK_TYPE):
            return None
        raw = self.store.look_message(commit_log_offset)
        half = None
        if raw is not None:
            try:
                half, _ = decode_message(raw, decompress=False)
            except ProtocolError:
                half = None
        if half is None or half.topic != TRANS_HALF_TOPIC:
            return answer(cmd, ResponseCode.SYSTEM_ERROR, "Find prepared transaction message failed")
        if half.properties.get(MessageConst.PROPERTY_PRODUCER_GROUP) != group:
            return answer(cmd, 1, "The producer group wrong")
        if half.queue_offset != state_offset:
            return answer(cmd, 1, "The transaction state table offset wrong")
        if half.commit_log_offset != commit_log_offset:
            return answer(cmd, 1, "The commit log offset wrong")
        # the topic the message is for decides, not the one the request names (a 4.x client names none)
        real = half.properties.get(MessageConst.PROPERTY_REAL_TOPIC, "")
        self.admission.require(conn, cmd, "Topic", real, ("Pub",))
        if kind == MessageSysFlag.TRANSACTION_COMMIT_TYPE:
            props = dict(half.properties)
            real_topic = props.pop(MessageConst.PROPERTY_REAL_TOPIC, "")
            try:
                real_qid = parse_int(props.pop(MessageConst.PROPERTY_REAL_QUEUE_ID, "0") or "0")
            except JavaNumberError:
                real_qid = -1
            bad = names.check_topic(real_topic)
            if bad is not None or real_qid < 0:  # only a half message this broker parked gets here
                log.warning("half message at %d has no usable real topic/queue: %s", commit_log_offset, bad)
                return answer(cmd, ResponseCode.SYSTEM_ERROR, "Find prepared transaction message failed")
            props.pop(MessageConst.PROPERTY_TRANSACTION_PREPARED, None)
            body, flag = half.stored_body()
            final = MessageExt(
                topic=real_topic,
                flag=half.flag,
                properties=props,
                body=body,
                queue_id=real_qid,
                sys_flag=MessageSysFlag.reset_transaction_value(flag, MessageSysFlag.TRANSACTION_COMMIT_TYPE),
                born_timestamp=half.born_timestamp,
                born_host=half.born_host,
                born_port=half.born_port,
                reconsume_times=half.reconsume_times,
                prepared_transaction_offset=commit_log_offset,
            )
            result = self.writer.put_message(final)
            if result.status.name not in (
                "PUT_OK",
                "FLUSH_DISK_TIMEOUT",
                "FLUSH_SLAVE_TIMEOUT",
                "SLAVE_NOT_AVAILABLE",
            ):
                return answer(cmd, 1, f"Create mapped file failed. {result.status.name}")
        self._write_op(half)
        return answer(cmd, 0)

    def _write_op(self, half: MessageExt) -> None:
        """``deletePrepareMessage``: the op record that says this half message is finished."""
        self._ensure_topic(TRANS_OP_HALF_TOPIC)
        op = MessageExt(
            topic=TRANS_OP_HALF_TOPIC,
            properties={"TAGS": REMOVE_TAG},
            body=str(half.queue_offset).encode(),
            queue_id=0,
            born_timestamp=now_ms(),
            born_host=self.writer.store_host,
            born_port=self.writer.store_port,
        )
        self.writer.put_message(op)
