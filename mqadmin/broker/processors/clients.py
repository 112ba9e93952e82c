"""Clients: heartbeats and unregistration (34, 35), consumer lists (38), config checks (46), orderly
locks (41, 42), connection listings (203, 204, 328), and the admin calls the broker relays to a
consumer (222 reset offsets, 223 consumer status, 307 running info, 309 consume directly).

A heartbeat registers the channel in its producer and consumer groups and creates the group's
``%RETRY%`` topic; when a consumer group changes, NOTIFY_CONSUMER_IDS_CHANGED goes to every
member, the sender included, before the heartbeat is answered (as the C++ capture shows).
A heartbeat is bounded by its declared budget (consumer groups, subscriptions per group, producer
groups): one over any bound is refused whole before a group or topic is made. What one heartbeat
creates is written once per file and registered with the name servers once.
"""

from __future__ import annotations

import logging
from typing import Any

from mqadmin.broker.clients import ClientChannel, ConsumerManager, ProducerManager
from mqadmin.broker.config import BrokerSettings
from mqadmin.broker.groups import GroupManager
from mqadmin.broker.locks import QueueLocks
from mqadmin.broker.offsets import OffsetManager
from mqadmin.broker.services import ClientNotifier
from mqadmin.broker.store import MessageStore
from mqadmin.broker.topics import RETRY_PREFIX, TopicManager
from mqadmin.broker.version import BrokerVersion
from mqadmin.broker.wire import NOT_SET_REMARK, RequestError, answer
from mqadmin.protocol import fastjson
from mqadmin.protocol.bodies import fieldcheck as j
from mqadmin.protocol.bodies.answers import (
    GetConsumerListByGroupResponseBody,
    GetConsumerStatusBody,
    LockBatchResponseBody,
    ProducerInfo,
    ProducerTableInfo,
    ResetOffsetBody,
)
from mqadmin.protocol.bodies.connection import (
    Connection as ConnectionData,
)
from mqadmin.protocol.bodies.connection import (
    ConsumerConnection,
    ProducerConnection,
)
from mqadmin.protocol.bodies.message_queue import MessageQueue
from mqadmin.protocol.codes import RequestCode, ResponseCode
from mqadmin.protocol.command import RemotingCommand
from mqadmin.protocol.errors import ProtocolError
from mqadmin.protocol.headers.base import HeaderError
from mqadmin.protocol.headers.consumer import (
    ConsumeMessageDirectlyResultRequestHeader,
    ConsumerData,
    GetConsumerConnectionListRequestHeader,
    GetConsumerListByGroupRequestHeader,
    GetConsumerRunningInfoRequestHeader,
    GetConsumerStatusRequestHeader,
    GetProducerConnectionListRequestHeader,
    HeartbeatData,
    LockBatchRequestBody,
    ResetOffsetRequestHeader,
    UnregisterClientRequestHeader,
)
from mqadmin.protocol.javacoll import hash_map_capacity, hash_ordered
from mqadmin.protocol.msgid import decode_offset_msg_id
from mqadmin.protocol.perm import PERM_READ, PERM_WRITE
from mqadmin.protocol.requests import limit
from mqadmin.remoting.client import Connection, Handler
from mqadmin.remoting.errors import RemotingTimeoutError

__all__ = ["ClientProcessor"]

log = logging.getLogger("mqadmin.broker")

V3_0_7_SNAPSHOT = 57
V3_1_8_SNAPSHOT = 63
RELAY_TIMEOUT_S = 10.0
TOPIC_SYS_FLAG_UNIT_SUB = 2


def _body(cmd: RemotingCommand, what: str) -> dict[Any, Any]:
    try:
        return j.decode_object(cmd.body or b"", what)
    except ProtocolError as e:
        raise RequestError(f"decode {what} failed: {e}") from None


def _over_budget(data: HeartbeatData) -> str | None:
    """Why the heartbeat exceeds its declared budget, or None (Java has no such bounds)."""
    code = RequestCode.HEART_BEAT
    groups, producers, subs = limit(code, "groups"), limit(code, "producers"), limit(code, "subscriptions")
    if len(data.consumers) > groups:
        return f"heartbeat names {len(data.consumers)} consumer groups, more than the limit of {groups}"
    if len(data.producer_groups) > producers:
        return (
            f"heartbeat names {len(data.producer_groups)} producer groups, more than the limit of {producers}"
        )
    for cd in data.consumers:
        if len(cd.subscriptions) > subs:
            n = len(cd.subscriptions)
            return f"heartbeat subscribes group {cd.group_name} to {n} topics, more than the limit of {subs}"
    return None


class ClientProcessor:
    """Codes 34, 35, 38, 41, 42, 46, 203, 204, 222, 223, 307, 309 and 328."""

    def __init__(
        self,
        *,
        settings: BrokerSettings,
        version: BrokerVersion,
        topics: TopicManager,
        groups: GroupManager,
        offsets: OffsetManager,
        consumers: ConsumerManager,
        producers: ProducerManager,
        locks: QueueLocks,
        store: MessageStore,
        notifier: ClientNotifier,
    ) -> None:
        self.settings = settings
        self.version = version
        self.topics = topics
        self.groups = groups
        self.offsets = offsets
        self.consumers = consumers
        self.producers = producers
        self.locks = locks
        self.store = store
        self.notifier = notifier

    def handlers(self) -> dict[int, Handler]:
        return {
            RequestCode.HEART_BEAT: self.heartbeat,
            RequestCode.UNREGISTER_CLIENT: self.unregister_client,
            RequestCode.GET_CONSUMER_LIST_BY_GROUP: self.consumer_list,
            RequestCode.CHECK_CLIENT_CONFIG: self.check_client_config,
            RequestCode.LOCK_BATCH_MQ: self.lock_batch,
            RequestCode.UNLOCK_BATCH_MQ: self.unlock_batch,
            RequestCode.GET_CONSUMER_CONNECTION_LIST: self.consumer_connections,
            RequestCode.GET_PRODUCER_CONNECTION_LIST: self.producer_connections,
            RequestCode.GET_ALL_PRODUCER_INFO: self.all_producer_info,
            RequestCode.INVOKE_BROKER_TO_RESET_OFFSET: self.reset_offset,
            RequestCode.INVOKE_BROKER_TO_GET_CONSUMER_STATUS: self.consumer_status,
            RequestCode.GET_CONSUMER_RUNNING_INFO: self.relay_to_consumer,
            RequestCode.CONSUME_MESSAGE_DIRECTLY: self.relay_to_consumer,
        }

    def _channel(self, conn: Connection, cmd: RemotingCommand, client_id: str) -> ClientChannel:
        return ClientChannel(conn, client_id, cmd.language, cmd.version)

    # ------------------------------------------------------------------------------ 34, 35, 38

    def heartbeat(self, conn: Connection, cmd: RemotingCommand) -> RemotingCommand:
        """Register the client in its groups; a body with any group or topic Java refuses changes nothing.

        A group that is not in the table and cannot be auto-created still registers its consumer
        (4.9.8 does) but gets no ``%RETRY%`` topic.
        """
        data = HeartbeatData.decode(cmd.body)
        over = _over_budget(data)
        if over is not None:
            raise RequestError(over, ResponseCode.SYSTEM_ERROR)
        info = self._channel(conn, cmd, data.client_id)
        with self.groups.batched(), self.topics.batched():  # one write of each file, one registration
            for cd in data.consumers:
                self._register_consumer(conn, cmd, data.client_id, cd)
        for group in data.producer_groups:
            self.producers.register(group, info)
        return answer(cmd, ResponseCode.SUCCESS)

    def _register_consumer(
        self, conn: Connection, cmd: RemotingCommand, client_id: str, cd: ConsumerData
    ) -> None:
        """One consumer group of a heartbeat: its config and ``%RETRY%`` topic, then the channel."""
        group = cd.group_name
        notify = True
        g = self.groups.find(group)
        if g is not None:
            notify = g.notify_consumer_ids_changed_enable
            flag = TOPIC_SYS_FLAG_UNIT_SUB if cd.unit_mode else 0
            self.topics.create_in_send_back(
                RETRY_PREFIX + group, g.retry_queue_nums, PERM_READ | PERM_WRITE, flag
            )
        self.consumers.register(
            group,
            self._channel(conn, cmd, client_id),
            cd.consume_type,
            cd.message_model,
            cd.consume_from_where,
            cd.subscriptions,
            notify,
        )

    def unregister_client(self, conn: Connection, cmd: RemotingCommand) -> RemotingCommand:
        h = UnregisterClientRequestHeader.decode(cmd.ext_fields)
        if h.producer_group:
            self.producers.unregister(h.producer_group, conn)
        if h.consumer_group:
            g = self.groups.find(h.consumer_group)
            notify = True if g is None else g.notify_consumer_ids_changed_enable
            self.consumers.unregister(h.consumer_group, conn, notify)
        return answer(cmd, ResponseCode.SUCCESS, None, {})

    def consumer_list(self, conn: Connection, cmd: RemotingCommand) -> RemotingCommand:
        group = GetConsumerListByGroupRequestHeader.decode(cmd.ext_fields).consumer_group
        g = self.consumers.get(group)
        if g is not None and g.channels:
            body = GetConsumerListByGroupResponseBody(g.client_ids()).encode()
            return answer(cmd, ResponseCode.SUCCESS, None, {}, body)
        log.warning("getConsumerGroupInfo failed, %s %s", group, conn.remote_addr)
        return answer(cmd, ResponseCode.SYSTEM_ERROR, f"no consumer for this group, {group}", {})

    def check_client_config(self, conn: Connection, cmd: RemotingCommand) -> RemotingCommand:
        data = _body(cmd, "CheckClientRequestBody")
        sub = data.get("subscriptionData")
        etype = sub.get("expressionType") if isinstance(sub, dict) else None
        if not etype or etype == "TAG":
            return answer(cmd, ResponseCode.SUCCESS)
        if not self.settings.broker.enable_property_filter:
            return answer(
                cmd,
                ResponseCode.SYSTEM_ERROR,
                f"The broker does not support consumer to filter message by {etype}",
            )
        return answer(cmd, ResponseCode.SUBSCRIPTION_PARSE_FAILED, "Do not support this filter expression")

    # ------------------------------------------------------------------------------ 41, 42

    def lock_batch(self, conn: Connection, cmd: RemotingCommand) -> RemotingCommand:
        req = LockBatchRequestBody.decode(cmd.body)
        locked = self.locks.try_lock_batch(req.consumer_group, req.mq_set, req.client_id)
        body = LockBatchResponseBody(locked).encode()
        return answer(cmd, ResponseCode.SUCCESS, None, None, body)

    def unlock_batch(self, conn: Connection, cmd: RemotingCommand) -> RemotingCommand:
        req = LockBatchRequestBody.decode(cmd.body, "UnlockBatchRequestBody")
        self.locks.unlock_batch(req.consumer_group, req.mq_set, req.client_id)
        return answer(cmd, ResponseCode.SUCCESS)

    # ------------------------------------------------------------------------------ 203, 204, 328

    def consumer_connections(self, conn: Connection, cmd: RemotingCommand) -> RemotingCommand:
        group = GetConsumerConnectionListRequestHeader.decode(cmd.ext_fields).consumer_group
        g = self.consumers.get(group)
        if g is None:
            return answer(cmd, ResponseCode.CONSUMER_NOT_ONLINE, f"the consumer group[{group}] not online")
        body = ConsumerConnection(
            connection_set=[
                ConnectionData(c.client_id, c.client_addr, c.language, c.version) for c in g.channels.values()
            ],
            subscription_table=dict(g.subscriptions),
            consume_type=g.consume_type,
            message_model=g.message_model,
            consume_from_where=g.consume_from_where,
        )
        return answer(cmd, ResponseCode.SUCCESS, None, None, body.encode())

    def producer_connections(self, conn: Connection, cmd: RemotingCommand) -> RemotingCommand:
        group = GetProducerConnectionListRequestHeader.decode(cmd.ext_fields).producer_group
        table = self.producers.groups.get(group)
        if table is None:
            return answer(cmd, ResponseCode.SYSTEM_ERROR, f"the producer group[{group}] not exist")
        body = ProducerConnection(
            [ConnectionData(c.client_id, c.client_addr, c.language, c.version) for c in table.values()]
        )
        return answer(cmd, ResponseCode.SUCCESS, None, None, body.encode())

    def all_producer_info(self, conn: Connection, cmd: RemotingCommand) -> RemotingCommand:
        data = {
            group: [
                ProducerInfo(c.client_id, "/" + c.client_addr, c.language, c.version, c.last_update)
                for c in table.values()
            ]
            for group, table in self.producers.groups.items()
        }
        return answer(cmd, ResponseCode.SUCCESS, None, None, ProducerTableInfo(data).encode())

    # ------------------------------------------------------------------------------ 222, 223

    def reset_offset(self, conn: Connection, cmd: RemotingCommand) -> RemotingCommand:
        """``Broker2Client.resetOffset``: compute the offsets and tell every online consumer.

        A 5.x header may name one queue (``queueId`` >= 0) and an ``offset`` (absent or -1: none,
        use ``timestamp``); 5.x ``resetOffsetByTime -b -q -o`` sends that. Then only that queue is
        reset, the broker commits the offset itself (the 5.x broker does, and the tool expects the
        reset done even with no consumer online), and the consumers hear of that queue alone.
        """
        h = ResetOffsetRequestHeader.decode(cmd.ext_fields)
        topic, group, timestamp, force = h.topic, h.group, h.timestamp, h.is_force
        queue_id, offset = h.queue_id, h.offset
        tc = self.topics.get(topic)
        if tc is None:
            return answer(
                cmd, 1, f"[reset-offset] reset offset failed, no topic in this broker. topic={topic}"
            )
        single = queue_id is not None and queue_id >= 0
        queues = [queue_id] if queue_id is not None and single else list(range(tc.write_queue_nums))
        table: dict[MessageQueue, int] = {}
        for qid in queues:
            mq = MessageQueue(topic, self.settings.broker.broker_name, qid)
            current = self.offsets.query(group, topic, qid)
            if current == -1:
                return answer(cmd, ResponseCode.SYSTEM_ERROR, f"THe consumer group <{group}> not exist")
            if single and offset is not None and offset != -1:
                low, high = self.store.min_offset(topic, qid), self.store.max_offset(topic, qid)
                if (low >= 0 and offset < low) or offset > high + 1:
                    return answer(
                        cmd,
                        ResponseCode.SYSTEM_ERROR,
                        f"Target offset {offset} not in consume queue range [{low}-{high}]",
                    )
                table[mq] = offset  # an explicit offset is taken as given, forward or back
                continue
            if timestamp == -1:
                target = self.store.max_offset(topic, qid)
            else:
                target = self.store.offset_by_time(topic, qid, timestamp)
            target = max(target, 0)
            table[mq] = target if force or target < current else current
        g = self.consumers.get(group)
        channels = [] if g is None else list(g.channels.values())
        if not channels and not single:
            remark = f"Consumer not online, so can not reset offset, Group: {group} Topic: {topic} "
            return answer(cmd, ResponseCode.CONSUMER_NOT_ONLINE, f"{remark}Timestamp: {timestamp}")
        for ch in channels:  # checked before anything changes, so a refusal leaves no half reset
            if ch.version < V3_0_7_SNAPSHOT:
                return answer(
                    cmd,
                    ResponseCode.SYSTEM_ERROR,
                    f"the client does not support this feature. version={ch.version}",
                )
        if single:
            for mq, off in table.items():
                self.offsets.commit(group, topic, mq.queue_id, off)
                self.offsets.forget_pull(group, topic, mq.queue_id)
        ordered = hash_ordered(table, hash_map_capacity(len(table)), MessageQueue.java_hash)
        if channels:
            notice_body = ResetOffsetBody(ordered, as_list=cmd.language == "CPP").encode()
            ext = {"topic": topic, "group": group, "timestamp": str(timestamp), "isForce": "false"}
            for ch in channels:
                self.notifier.send(ch.conn, RequestCode.RESET_CONSUMER_CLIENT_OFFSET, ext, notice_body)
        return answer(cmd, ResponseCode.SUCCESS, NOT_SET_REMARK, None, ResetOffsetBody(ordered).encode())

    async def consumer_status(self, conn: Connection, cmd: RemotingCommand) -> RemotingCommand:
        """``Broker2Client.getConsumeStatus``: ask each consumer (or the named one) for its offsets."""
        try:
            h = GetConsumerStatusRequestHeader.decode(cmd.ext_fields)
        except HeaderError as e:
            return answer(cmd, e.code, e.remark)
        topic, group, origin = h.topic, h.group, h.client_addr
        g = self.consumers.get(group)
        if g is None or not g.channels:
            return answer(
                cmd, ResponseCode.SYSTEM_ERROR, f"No Any Consumer online in the consumer group: [{group}]"
            )
        table: dict[str, Any] = {}
        for ch in list(g.channels.values()):
            if ch.version < V3_0_7_SNAPSHOT:
                return answer(
                    cmd,
                    ResponseCode.SYSTEM_ERROR,
                    f"the client does not support this feature. version={ch.version}",
                )
            if origin and origin != ch.client_id:
                continue
            req = RemotingCommand.request(
                RequestCode.GET_CONSUMER_STATUS_FROM_CLIENT,
                {"topic": topic, "group": group},
                version=self.version.ordinal,
            )
            try:
                resp = await ch.conn.invoke(req, 5.0)
                if resp.code == 0 and resp.body:
                    status = fastjson.loads(resp.body)
                    if isinstance(status, dict):
                        table[ch.client_id] = status.get("messageQueueTable") or {}
            except Exception as e:
                log.error("[get-consumer-status] %s %s: %s", group, ch.client_id, e)
            if origin:
                break
        return answer(cmd, ResponseCode.SUCCESS, NOT_SET_REMARK, None, GetConsumerStatusBody(table).encode())

    # ------------------------------------------------------------------------------ 307, 309

    async def relay_to_consumer(self, conn: Connection, cmd: RemotingCommand) -> RemotingCommand:
        """Forward to the named consumer and hand its answer back unchanged (``callConsumer``)."""
        try:
            if cmd.code == RequestCode.CONSUME_MESSAGE_DIRECTLY:
                direct = ConsumeMessageDirectlyResultRequestHeader.decode(cmd.ext_fields)
                group, client_id = direct.consumer_group, direct.client_id or ""
            else:
                info = GetConsumerRunningInfoRequestHeader.decode(cmd.ext_fields)
                group, client_id = info.consumer_group, info.client_id
        except HeaderError as e:
            return answer(cmd, e.code, e.remark)
        g = self.consumers.get(group)
        ch = None if g is None else g.find_channel(client_id)
        if ch is None:
            return answer(cmd, ResponseCode.SYSTEM_ERROR, f"The Consumer <{group}> <{client_id}> not online")
        if ch.version < V3_1_8_SNAPSHOT:
            remark = f"The Consumer <{client_id}> Version <{ch.version}> too low to finish, please upgrade it"
            return answer(cmd, ResponseCode.SYSTEM_ERROR, f"{remark} to V3_1_8_SNAPSHOT")
        ext = dict(cmd.ext_fields or {})
        body = cmd.body
        if cmd.code == RequestCode.CONSUME_MESSAGE_DIRECTLY:
            ext["brokerName"] = self.settings.broker.broker_name
            msg_id = ext.get("msgId")
            if msg_id:
                try:
                    body = self.store.look_message(decode_offset_msg_id(msg_id)[2])
                except ProtocolError:
                    body = None
        req = RemotingCommand.request(cmd.code, ext, body, version=self.version.ordinal)
        try:
            resp = await ch.conn.invoke(req, RELAY_TIMEOUT_S)
        except RemotingTimeoutError as e:
            return answer(
                cmd, ResponseCode.CONSUME_MSG_TIMEOUT, f"consumer <{group}> <{client_id}> Timeout: {e}"
            )
        except Exception as e:
            return answer(
                cmd, ResponseCode.SYSTEM_ERROR, f"invoke consumer <{group}> <{client_id}> Exception: {e}"
            )
        out = cmd.response(resp.code, resp.remark, resp.ext_fields, resp.body)
        out.version = resp.version
        out.language = resp.language
        return out
