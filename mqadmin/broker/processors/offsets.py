"""Offsets: committed consumer offsets (14, 15, 43, 308, 314) and queue positions (29, 30, 31, 32, 45).

QUERY_CONSUMER_OFFSET answers 0 for a group that never committed on a queue whose first message is
still in memory, exactly as 4.9.8 does (that is why a fresh consumer reads a topic from the start);
otherwise QUERY_NOT_FOUND, and the client applies its consumeFromWhere.

Every header is read once as its declared type (:mod:`mqadmin.protocol.headers.consumer`): a group
or topic Java would refuse is answered with an error before anything is kept.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Coroutine
from typing import Any

from mqadmin.broker.config import BrokerSettings
from mqadmin.broker.offsets import OffsetManager
from mqadmin.broker.processors.static_forward import (
    Forwarding,
    commit_answer,
    earliest_answer,
    offset_answer,
    query_answer,
    search_answer,
)
from mqadmin.broker.schedule import ScheduleService
from mqadmin.broker.store import MessageStore
from mqadmin.broker.topics import TopicManager
from mqadmin.broker.wire import answer
from mqadmin.protocol.codes import RequestCode, ResponseCode
from mqadmin.protocol.command import RemotingCommand
from mqadmin.protocol.fastjson import dumps
from mqadmin.protocol.headers.consumer import (
    CloneGroupOffsetRequestHeader,
    GetEarliestMsgStoretimeRequestHeader,
    GetMaxOffsetRequestHeader,
    GetMinOffsetRequestHeader,
    QueryConsumerOffsetRequestHeader,
    QueryCorrectionOffsetHeader,
    SearchOffsetRequestHeader,
    UpdateConsumerOffsetRequestHeader,
)
from mqadmin.remoting.client import Connection, Handler

__all__ = ["OffsetProcessor"]

LONG_MAX = (1 << 63) - 1
NOT_FOUND_REMARK = "Not found, V3_0_6_SNAPSHOT maybe this group consumer boot first"
NOT_FOUND_NO_ZERO_REMARK = "Not found, do not set to zero, maybe this group boot first"


def memory_bytes() -> int:
    """Physical memory, for the 'message is on disk' rule (``accessMessageInMemoryMaxRatio``)."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        return 8 << 30


class OffsetProcessor:
    """Codes 14, 15, 29, 30, 31, 32, 43, 45, 308 and 314."""

    def __init__(
        self,
        *,
        settings: BrokerSettings,
        topics: TopicManager,
        offsets: OffsetManager,
        store: MessageStore,
        schedule: ScheduleService,
        forwarding: Forwarding,
    ) -> None:
        self.settings = settings
        self.topics = topics
        self.offsets = offsets
        self.store = store
        self.schedule = schedule
        self.forwarding = forwarding
        self._memory = memory_bytes()

    def handlers(self) -> dict[int, Handler]:
        return {
            RequestCode.QUERY_CONSUMER_OFFSET: self.query_consumer_offset,
            RequestCode.UPDATE_CONSUMER_OFFSET: self.update_consumer_offset,
            RequestCode.SEARCH_OFFSET_BY_TIMESTAMP: self.search_offset_by_timestamp,
            RequestCode.GET_MAX_OFFSET: self.get_max_offset,
            RequestCode.GET_MIN_OFFSET: self.get_min_offset,
            RequestCode.GET_EARLIEST_MSG_STORETIME: self.get_earliest_msg_storetime,
            RequestCode.GET_ALL_CONSUMER_OFFSET: self.get_all_consumer_offset,
            RequestCode.GET_ALL_DELAY_OFFSET: self.get_all_delay_offset,
            RequestCode.QUERY_CORRECTION_OFFSET: self.query_correction_offset,
            RequestCode.CLONE_GROUP_OFFSET: self.clone_group_offset,
        }

    def in_disk(self, topic: str, queue_id: int, cq_offset: int) -> bool:
        """``checkInDiskByConsumeOffset``: the message is further behind than RAM would cache."""
        store = self.store
        entries = store.consume_queue_entries(topic, queue_id, cq_offset, 1)
        if not entries:
            return False
        phys = entries[0][0]
        ratio = self.settings.store.access_message_in_memory_max_ratio
        return store.commitlog_max_offset - phys > self._memory * ratio // 100

    def query_consumer_offset(
        self, conn: Connection, cmd: RemotingCommand
    ) -> RemotingCommand | Coroutine[Any, Any, RemotingCommand]:
        h = QueryConsumerOffsetRequestHeader.decode(cmd.ext_fields)
        static = self.topics.mappings.context(h.topic, h.queue_id, select_one=False, lo=h.lo)
        if static is not None:  # a logical queue of a static topic
            walked = query_answer(self.forwarding, cmd, h, static)
            if walked is not None:
                return walked
            assert static.leader is not None  # one generation from 0: its physical queue
            h = dataclasses.replace(h, queue_id=static.leader.queue_id)
        offset = self.offsets.query(h.consumer_group, h.topic, h.queue_id)
        if offset >= 0:
            return answer(cmd, ResponseCode.SUCCESS, None, {"offset": offset})
        if h.set_zero_if_not_found is False:  # 5.x clients may ask not to be given 0
            return answer(cmd, ResponseCode.QUERY_NOT_FOUND, NOT_FOUND_NO_ZERO_REMARK, {})
        if self.store.min_offset(h.topic, h.queue_id) <= 0 and not self.in_disk(h.topic, h.queue_id, 0):
            return answer(cmd, ResponseCode.SUCCESS, None, {"offset": 0})
        return answer(cmd, ResponseCode.QUERY_NOT_FOUND, NOT_FOUND_REMARK, {})

    def update_consumer_offset(
        self, conn: Connection, cmd: RemotingCommand
    ) -> RemotingCommand | Coroutine[Any, Any, RemotingCommand]:
        h = UpdateConsumerOffsetRequestHeader.decode(cmd.ext_fields)
        static = self.topics.mappings.context(h.topic, h.queue_id, select_one=False, lo=h.lo)
        if static is not None:  # a logical queue of a static topic
            return commit_answer(self.forwarding, cmd, h, static)
        self.offsets.commit(h.consumer_group, h.topic, h.queue_id, h.commit_offset)
        return answer(cmd, ResponseCode.SUCCESS, None, {})

    def search_offset_by_timestamp(
        self, conn: Connection, cmd: RemotingCommand
    ) -> RemotingCommand | Coroutine[Any, Any, RemotingCommand]:
        h = SearchOffsetRequestHeader.decode(cmd.ext_fields)
        static = self.topics.mappings.context(h.topic, h.queue_id, select_one=False, lo=h.lo)
        if static is not None:  # a logical queue of a static topic: each generation in turn
            return search_answer(self.forwarding, cmd, h, static)
        offset = self.store.offset_by_time(h.topic, h.queue_id, h.timestamp)
        return answer(cmd, ResponseCode.SUCCESS, None, {"offset": offset})

    def get_max_offset(
        self, conn: Connection, cmd: RemotingCommand
    ) -> RemotingCommand | Coroutine[Any, Any, RemotingCommand]:
        h = GetMaxOffsetRequestHeader.decode(cmd.ext_fields)
        static = self.topics.mappings.context(h.topic, h.queue_id, select_one=False, lo=h.lo)
        if static is not None:  # a logical queue of a static topic
            return offset_answer(self.forwarding, cmd, h, static, want_max=True)
        offset = self.store.max_offset(h.topic, h.queue_id)
        return answer(cmd, ResponseCode.SUCCESS, None, {"offset": offset})

    def get_min_offset(
        self, conn: Connection, cmd: RemotingCommand
    ) -> RemotingCommand | Coroutine[Any, Any, RemotingCommand]:
        h = GetMinOffsetRequestHeader.decode(cmd.ext_fields)
        static = self.topics.mappings.context(h.topic, h.queue_id, select_one=False, lo=h.lo)
        if static is not None:  # a logical queue of a static topic
            return offset_answer(self.forwarding, cmd, h, static, want_max=False)
        offset = self.store.min_offset(h.topic, h.queue_id)
        return answer(cmd, ResponseCode.SUCCESS, None, {"offset": offset})

    def get_earliest_msg_storetime(
        self, conn: Connection, cmd: RemotingCommand
    ) -> RemotingCommand | Coroutine[Any, Any, RemotingCommand]:
        h = GetEarliestMsgStoretimeRequestHeader.decode(cmd.ext_fields)
        static = self.topics.mappings.context(h.topic, h.queue_id, select_one=False, lo=h.lo)
        if static is not None:  # a logical queue of a static topic: its oldest generation's
            return earliest_answer(self.forwarding, cmd, h, static)
        ts = self.store.earliest_message_time(h.topic, h.queue_id)
        return answer(cmd, ResponseCode.SUCCESS, None, {"timestamp": ts})

    def get_all_consumer_offset(self, conn: Connection, cmd: RemotingCommand) -> RemotingCommand:
        return answer(cmd, ResponseCode.SUCCESS, None, None, self.offsets.encode().encode())

    def get_all_delay_offset(self, conn: Connection, cmd: RemotingCommand) -> RemotingCommand:
        return answer(cmd, ResponseCode.SUCCESS, None, None, self.schedule.encode().encode())

    def query_correction_offset(self, conn: Connection, cmd: RemotingCommand) -> RemotingCommand:
        """Per queue the lowest offset any group (but the filtered ones) committed, for the compare group."""
        h = QueryCorrectionOffsetHeader.decode(cmd.ext_fields)
        topic = h.topic
        filters = [g for g in (h.filter_groups or "").split(",") if g.strip()]
        queues = {q for key, t in self.offsets.table.items() if key.split("@")[0] == topic for q in t}
        mins = {q: self.store.min_offset(topic, q) for q in queues}
        correction = self.offsets.min_offsets_of_topic(topic, filters, mins)
        for q, committed in (self.offsets.queues_of(h.compare_group, topic) or {}).items():
            if q in correction and correction[q] > committed:
                correction[q] = LONG_MAX
        body = dumps({"correctionOffsets": correction}).encode()
        return answer(cmd, ResponseCode.SUCCESS, None, None, body)

    def clone_group_offset(self, conn: Connection, cmd: RemotingCommand) -> RemotingCommand:
        h = CloneGroupOffsetRequestHeader.decode(cmd.ext_fields)
        topics = [h.topic] if h.topic and h.topic.strip() else self.offsets.topics_of_group(h.src_group)
        for t in topics:
            if self.topics.get(t) is not None:
                self.offsets.clone(h.src_group, h.dest_group, t)
        return answer(cmd, ResponseCode.SUCCESS)
