"""Consuming: PULL_MESSAGE (11), Java's ``PullMessageProcessor``, with long polling.

The checks and the status-to-code table follow 4.9.8 (FOUND → 0, nothing yet → 19, offset out of
range → 21, filtered out → 20). A pull with the SUSPEND flag that finds nothing is parked in the
:class:`~mqadmin.broker.longpoll.PullHoldService` and answered when a message arrives or its
suspend timeout runs out. A pull answered with 21 also appends an ``OFFSET_MOVED_EVENT`` message,
as a Java master does.
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass
from typing import cast

from mqadmin.broker.clients import ConsumerManager
from mqadmin.broker.cold_data import ColdDataCgCtrService
from mqadmin.broker.config import BrokerSettings
from mqadmin.broker.groups import GroupManager
from mqadmin.broker.longpoll import HeldPull, PullHoldService
from mqadmin.broker.offsets import OffsetManager
from mqadmin.broker.processors.static_forward import Forwarding, forward_pull
from mqadmin.broker.services import MessageWriter, now_ms
from mqadmin.broker.stats import BrokerStats, StoreStats
from mqadmin.broker.store import MessageStore
from mqadmin.broker.topics import OFFSET_MOVED_EVENT, TopicManager
from mqadmin.broker.version import BrokerVersion
from mqadmin.broker.wire import FAQ_SUFFIX, answer
from mqadmin.protocol.codes import RequestCode, ResponseCode
from mqadmin.protocol.command import RemotingCommand
from mqadmin.protocol.fastjson import dumps
from mqadmin.protocol.headers.message import PullMessageRequestHeader
from mqadmin.protocol.javacoll import java_hash_dict, java_string_hash
from mqadmin.protocol.message_record import MessageExt
from mqadmin.protocol.perm import PERM_READ
from mqadmin.protocol.staticmapping import PullOffsets
from mqadmin.remoting.client import Connection, Handler

__all__ = ["PullProcessor", "Subscription"]

log = logging.getLogger("mqadmin.broker")

FLAG_COMMIT_OFFSET = 0x1
FLAG_SUSPEND = 0x2
FLAG_SUBSCRIPTION = 0x4

_CODES = {
    "FOUND": 0,
    "MESSAGE_WAS_REMOVING": 20,
    "NO_MATCHED_MESSAGE": 20,
    "OFFSET_FOUND_NULL": 19,
    "OFFSET_OVERFLOW_BADLY": 21,
    "OFFSET_OVERFLOW_ONE": 19,
    "OFFSET_TOO_SMALL": 21,
}


@dataclass(frozen=True, slots=True)
class Subscription:
    """What a pull filters by: TAG expressions become a set of tag hash codes (None: everything)."""

    expression_type: str
    sub_string: str
    tag_codes: frozenset[int] | None

    @classmethod
    def build(cls, sub_string: str | None, expression_type: str | None) -> Subscription:
        """``FilterAPI.buildSubscriptionData``: ``a || b`` → tags a and b; empty or ``*`` → all."""
        etype = expression_type or "TAG"
        text = sub_string or ""
        if etype != "TAG":
            return cls(etype, text, None)
        if not text or text.strip() == "*":
            return cls(etype, "*", None)
        tags = [t.strip() for t in text.split("||")]
        return cls(etype, text, frozenset(java_string_hash(t) for t in tags if t))


class PullProcessor:
    """Code 11."""

    def __init__(
        self,
        *,
        settings: BrokerSettings,
        version: BrokerVersion,
        topics: TopicManager,
        groups: GroupManager,
        offsets: OffsetManager,
        consumers: ConsumerManager,
        cold_data: ColdDataCgCtrService,
        stats: BrokerStats,
        store_stats: StoreStats,
        store: MessageStore,
        hold: PullHoldService,
        writer: MessageWriter,
        forwarding: Forwarding,
    ) -> None:
        self.settings = settings
        self.version = version
        self.topics = topics
        self.groups = groups
        self.offsets = offsets
        self.consumers = consumers
        self.cold_data = cold_data
        self.stats = stats
        self.store_stats = store_stats
        self.store = store
        self.hold = hold
        self.writer = writer
        self.forwarding = forwarding

    def handlers(self) -> dict[int, Handler]:
        return {RequestCode.PULL_MESSAGE: self.pull}

    def pull(
        self, conn: Connection, cmd: RemotingCommand
    ) -> RemotingCommand | asyncio.Future[RemotingCommand | None] | None:
        return self._process(conn, cmd, allow_suspend=True)

    def replay(self, held: HeldPull) -> RemotingCommand | None:
        """The second, non-suspending execution of a parked pull (Java ``executeRequestWhenWakeup``)."""
        try:
            resp = self._process(held.conn, held.cmd, allow_suspend=False)
        except Exception as e:
            log.exception("held pull failed")
            return answer(held.cmd, 1, f"{type(e).__name__}: {e}")
        assert not isinstance(resp, asyncio.Future)
        return resp

    def _process(
        self, conn: Connection, cmd: RemotingCommand, allow_suspend: bool
    ) -> RemotingCommand | asyncio.Future[RemotingCommand | None] | None:
        h = PullMessageRequestHeader.decode(cmd.ext_fields)
        group = h.consumer_group
        topic = h.topic
        queue_id = h.queue_id
        offset = h.queue_offset
        max_nums = h.max_msg_nums
        sys_flag = h.sys_flag
        commit_offset = h.commit_offset
        suspend_ms = h.suspend_timeout_millis
        sub_version = h.sub_version
        cfg = self.settings.broker
        empty: dict[str, object] = {}

        if not cfg.broker_permission & PERM_READ:
            return answer(cmd, 16, f"the broker[{cfg.broker_ip1}] pulling message is forbidden", empty)
        g = self.groups.find(group)
        if g is None:
            return answer(cmd, 26, f"subscription group [{group}] does not exist, {FAQ_SUFFIX}", empty)
        if not g.consume_enable:
            return answer(cmd, 16, f"subscription group no permission, {group}", empty)
        has_suspend = bool(sys_flag & FLAG_SUSPEND)
        tc = self.topics.get(topic)
        if tc is None:
            log.error("the topic %s not exist, consumer: %s", topic, conn.remote_addr)
            return answer(cmd, 17, f"topic[{topic}] not exist, apply first please! {FAQ_SUFFIX}", empty)
        if not tc.perm & PERM_READ:
            return answer(cmd, 16, f"the topic[{topic}] pulling message is forbidden", empty)
        static = self.topics.mappings.context(topic, queue_id, select_one=False, lo=h.lo)
        if static is not None:  # a static topic: the generation holding the logical offset
            why = static.pull_refusal()
            if why is not None:
                return answer(cmd, ResponseCode.NOT_LEADER_FOR_QUEUE, why)
            item, offset, max_nums = static.pull_target(offset, max_nums)
            queue_id = item.queue_id
            if item.bname != cfg.broker_name:
                if not allow_suspend:  # a held pull woken after a remapping: asked again at once
                    again = {"suggestWhichBrokerId": 0, "nextBeginOffset": h.queue_offset}
                    again.update(minOffset=h.queue_offset, maxOffset=h.queue_offset)
                    return answer(cmd, ResponseCode.PULL_RETRY_IMMEDIATELY, "the queue moved", again)
                return forward_pull(self.forwarding, cmd, h, static, item, offset, max_nums)
        if queue_id < 0 or queue_id >= tc.read_queue_nums:
            remark = f"queueId[{queue_id}] is illegal, topic:[{topic}] topicConfig.readQueueNums:"
            return answer(cmd, 1, f"{remark}[{tc.read_queue_nums}] consumer:[/{conn.remote_addr}]", empty)

        if sys_flag & FLAG_SUBSCRIPTION:
            sub = Subscription.build(h.subscription, h.expression_type)
        else:
            cg = self.consumers.get(group)
            if cg is None:
                return answer(cmd, 24, f"the consumer's group info not exist{FAQ_SUFFIX}", empty)
            if not g.consume_broadcast_enable and cg.message_model == "BROADCASTING":
                return answer(cmd, 16, f"the consumer group[{group}] can not consume by broadcast way", empty)
            sd = cg.subscriptions.get(topic)
            if sd is None:
                return answer(cmd, 24, f"the consumer's subscription not exist{FAQ_SUFFIX}", empty)
            if sd.sub_version < sub_version:
                return answer(cmd, 25, "the consumer's subscription not latest", empty)
            sub = Subscription.build(sd.sub_string, sd.expression_type)
        if sub.expression_type != "TAG" and not cfg.enable_property_filter:
            remark = "The broker does not support consumer to filter message by "
            return answer(cmd, 1, remark + sub.expression_type, empty)

        if self.version.five_x and self.cold_data.needs_flow_control(group):  # 5.x cold data flow control
            if self.store.in_cold_area(topic, queue_id, offset, self.cold_data.hot_ratio):
                consumers = self.consumers.get(group)
                consume_type = consumers.consume_type if consumers is not None else None
                if consume_type == "CONSUME_PASSIVELY":
                    remark = "This consumer group is reading cold data. It has been flow control"
                    return answer(cmd, ResponseCode.SYSTEM_BUSY, remark, empty)
                if consume_type == "CONSUME_ACTIVELY":
                    max_nums = 1
        started = time.monotonic()
        result = self.store.get_messages(
            topic,
            queue_id,
            offset,
            max_nums,
            self.settings.store.max_transfer_bytes_on_message_in_memory,
            cast("set[int] | None", sub.tag_codes),  # only membership is tested: a frozenset serves
        )
        if result.cold_data_sum and self.version.five_x:
            self.cold_data.on_pull(group, result.cold_data_sum)
        status = result.status.name
        count = len(result.messages)
        elapsed = int((time.monotonic() - started) * 1000)
        self.store_stats.on_get(status == "FOUND", count, elapsed)
        self.offsets.commit_pull(group, topic, queue_id, result.next_begin_offset)  # 5.x pullOffset
        if status in ("NO_MATCHED_LOGIC_QUEUE", "NO_MESSAGE_IN_QUEUE"):
            code = 21 if offset != 0 else 19
        else:
            code = _CODES.get(status, 1)
        ext = {
            "suggestWhichBrokerId": 0,
            "nextBeginOffset": result.next_begin_offset,
            "minOffset": result.min_offset,
            "maxOffset": result.max_offset,
        }
        if static is not None:  # logical offsets in the answer (Java rewriteResponseForStaticTopic)
            got = PullOffsets(code, result.next_begin_offset, result.min_offset, result.max_offset)
            told = static.pull_answer(offset, got)
            code = told.code
            ext.update(
                nextBeginOffset=told.next_begin_offset,
                minOffset=told.min_offset,
                maxOffset=told.max_offset,
                offsetDelta=told.offset_delta,
            )
        resp: RemotingCommand | asyncio.Future[RemotingCommand | None] | None
        if code == 0:
            body = b"".join(result.messages)
            self.stats.inc_group_get(group, topic, count, len(body))
            resp = answer(cmd, 0, status, ext, body)
        elif code == 19 and allow_suspend and has_suspend:
            hold_ms = suspend_ms if cfg.long_polling_enable else cfg.short_polling_time_mills
            resp = self.hold.hold(conn, cmd, topic, queue_id, offset, sub.tag_codes, hold_ms / 1000)
        else:
            resp = answer(cmd, code, status, ext)
            if code == 21:
                self._offset_moved_event(group, topic, queue_id, offset, result.next_begin_offset)
        if allow_suspend and sys_flag & FLAG_COMMIT_OFFSET:
            kept = (queue_id, commit_offset) if static is None else static.local_commit(commit_offset)
            if kept is not None:  # a static topic's: physical, in the generation holding the offset
                self.offsets.commit(group, topic, *kept)
        return resp

    def _offset_moved_event(self, group: str, topic: str, queue_id: int, requested: int, new: int) -> None:
        """``generateOffsetMovedEvent``: a record of the correction in topic OFFSET_MOVED_EVENT."""
        body = dumps(
            {
                "consumerGroup": group,
                "messageQueue": {
                    "brokerName": self.settings.broker.broker_name,
                    "queueId": queue_id,
                    "topic": topic,
                },
                "offsetNew": new,
                "offsetRequest": requested,
            }
        ).encode()
        props = java_hash_dict({"TAGS": group, "DELAY": "0", "KEYS": group})
        msg = MessageExt(
            topic=OFFSET_MOVED_EVENT,
            properties=props,
            body=body,
            queue_id=0,
            born_timestamp=now_ms(),
            born_host=self.writer.store_host,
            born_port=self.writer.store_port,
            store_host=self.writer.store_host,
            store_port=self.writer.store_port,
        )
        try:
            self.writer.put_message(msg)
        except Exception:
            log.exception("generateOffsetMovedEvent failed")
