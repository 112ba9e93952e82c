"""Consumer-group administration: subscription groups (200, 201, 207), consume progress (208, 317),
who consumes a topic (300) and consume time spans (303).

A subscription group is kept only when its name passes Java's group rules and its numbers make sense
(:func:`~mqadmin.protocol.headers.consumer.check_subscription_group`); a refused one changes nothing.
"""

from __future__ import annotations

import datetime as dt
import logging
from typing import Any

from mqadmin.broker.clients import ConsumerManager
from mqadmin.broker.config import BrokerSettings
from mqadmin.broker.groups import GroupManager
from mqadmin.broker.offsets import OffsetManager
from mqadmin.broker.services import now_ms
from mqadmin.broker.stats import BrokerStats
from mqadmin.broker.store import MessageStore
from mqadmin.broker.topics import TopicManager
from mqadmin.broker.wire import RequestError, answer
from mqadmin.protocol import fastjson
from mqadmin.protocol.bodies.answers import GroupList, QueryConsumeTimeSpanBody, QueueTimeSpan
from mqadmin.protocol.bodies.consume_stats import ConsumeStats, OffsetWrapper
from mqadmin.protocol.bodies.group import SubscriptionGroupConfig
from mqadmin.protocol.bodies.message_queue import MessageQueue
from mqadmin.protocol.codes import RequestCode, ResponseCode
from mqadmin.protocol.command import RemotingCommand
from mqadmin.protocol.errors import ProtocolError
from mqadmin.protocol.headers.consumer import (
    DeleteSubscriptionGroupRequestHeader,
    GetConsumeStatsInBrokerHeader,
    GetConsumeStatsRequestHeader,
    QueryConsumeTimeSpanRequestHeader,
    QueryTopicConsumeByWhoRequestHeader,
    check_subscription_group,
)
from mqadmin.protocol.javacoll import chm_capacity, hash_ordered
from mqadmin.remoting.client import Connection, Handler

__all__ = ["GroupAdminProcessor"]

log = logging.getLogger("mqadmin.broker")


def _time_str(ms: int) -> str:
    """``UtilAll.timeMillisToHumanString2``-style ``yyyy-MM-dd HH:mm:ss,SSS`` (local time)."""
    t = dt.datetime.fromtimestamp(ms / 1000)
    return t.strftime("%Y-%m-%d %H:%M:%S,") + f"{ms % 1000:03d}"


class GroupAdminProcessor:
    """Codes 200, 201, 207, 208, 300, 303 and 317."""

    def __init__(
        self,
        *,
        settings: BrokerSettings,
        topics: TopicManager,
        groups: GroupManager,
        offsets: OffsetManager,
        consumers: ConsumerManager,
        stats: BrokerStats,
        store: MessageStore,
    ) -> None:
        self.settings = settings
        self.topics = topics
        self.groups = groups
        self.offsets = offsets
        self.consumers = consumers
        self.stats = stats
        self.store = store

    def handlers(self) -> dict[int, Handler]:
        return {
            RequestCode.UPDATE_AND_CREATE_SUBSCRIPTIONGROUP: self.update_group,
            RequestCode.GET_ALL_SUBSCRIPTIONGROUP_CONFIG: self.all_groups,
            RequestCode.DELETE_SUBSCRIPTIONGROUP: self.delete_group,
            RequestCode.GET_CONSUME_STATS: self.consume_stats,
            RequestCode.GET_BROKER_CONSUME_STATS: self.broker_consume_stats,
            RequestCode.QUERY_TOPIC_CONSUME_BY_WHO: self.consumed_by_who,
            RequestCode.QUERY_CONSUME_TIME_SPAN: self.consume_time_span,
        }

    # ------------------------------------------------------------------------------ 200, 201, 207

    def update_group(self, conn: Connection, cmd: RemotingCommand) -> RemotingCommand:
        try:
            cfg = SubscriptionGroupConfig.decode(cmd.body or b"")
        except ProtocolError as e:
            raise RequestError(f"decode SubscriptionGroupConfig failed: {e}") from None
        why = check_subscription_group(cfg)
        if why is not None:
            log.warning("updateAndCreateSubscriptionGroup from %s refused: %s", conn.remote_addr, why)
            return answer(cmd, ResponseCode.INVALID_PARAMETER, why)
        log.info("updateAndCreateSubscriptionGroup called by %s", conn.remote_addr)
        self.groups.update(cfg)
        return answer(cmd, ResponseCode.SUCCESS)

    def all_groups(self, conn: Connection, cmd: RemotingCommand) -> RemotingCommand:
        return answer(cmd, ResponseCode.SUCCESS, None, None, self.groups.encode().encode())

    def delete_group(self, conn: Connection, cmd: RemotingCommand) -> RemotingCommand:
        h = DeleteSubscriptionGroupRequestHeader.decode(cmd.ext_fields)
        group = h.group_name
        log.info("deleteSubscriptionGroup %s called by %s", group, conn.remote_addr)
        self.groups.delete(group)
        # 4.x tools say removeOffset, 5.x tools cleanOffset: either asks for the offsets to go
        if h.remove_offset or h.clean_offset:
            self.offsets.remove_group(group)
        return answer(cmd, ResponseCode.SUCCESS)

    # ------------------------------------------------------------------------------ 208, 317

    def _stats_for(self, group: str, topic: str, queues: str, with_pull: bool = False) -> ConsumeStats | None:
        """One topic's ConsumeStats for the group (None when Java skips the topic).

        ``with_pull`` adds the 5.x ``pullOffset`` (the end of the group's latest pull, never below
        the committed offset): a 5.x tool prints pullOffset - consumerOffset as in flight, and
        without it would read 0 there and print a negative count.
        """
        tc = self.topics.get(topic)
        if tc is None:
            log.warning("consumeStats, topic config not exist, %s", topic)
            return None
        cg = self.consumers.get(group)
        if cg is not None and cg.subscriptions and topic not in cg.subscriptions:
            return None
        stats = ConsumeStats()
        count = tc.read_queue_nums if queues == "read" else tc.write_queue_nums
        static = self.topics.mappings.get(topic) is not None  # Java keeps -1 there ("double read check")
        for qid in range(count):
            broker_offset = max(self.store.max_offset(topic, qid), 0)
            consumer_offset = self.offsets.query(group, topic, qid)
            if not static:
                consumer_offset = max(consumer_offset, 0)
            last = 0
            if consumer_offset > 0:
                ts = self.store.message_store_time(topic, qid, consumer_offset - 1)
                if ts > 0:
                    last = ts
            pull_offset = (
                max(consumer_offset, self.offsets.query_pull(group, topic, qid)) if with_pull else None
            )
            stats.offset_table[MessageQueue(topic, self.settings.broker.broker_name, qid)] = OffsetWrapper(
                broker_offset, consumer_offset, last, pull_offset=pull_offset
            )
        stats.consume_tps = self.stats.group_get_tps(group, topic)
        return stats

    def consume_stats(self, conn: Connection, cmd: RemotingCommand) -> RemotingCommand:
        h = GetConsumeStatsRequestHeader.decode(cmd.ext_fields)
        group, topic = h.consumer_group, h.topic
        topics = [topic] if topic and topic.strip() else self.offsets.topics_of_group(group)
        total = ConsumeStats()
        for t in topics:
            s = self._stats_for(group, t, "read", with_pull=True)
            if s is None:
                continue
            total.offset_table.update(s.offset_table)
            total.consume_tps += s.consume_tps
        return answer(cmd, ResponseCode.SUCCESS, None, None, total.encode())

    def broker_consume_stats(self, conn: Connection, cmd: RemotingCommand) -> RemotingCommand:
        is_order = GetConsumeStatsInBrokerHeader.decode(cmd.ext_fields).is_order is True
        groups = self.groups.table
        ordered = hash_ordered(groups, chm_capacity(len(groups), 1024))
        entries: list[dict[str, Any]] = []
        total_diff = 0
        for group in ordered:
            stats_list = []
            for topic in self.offsets.topics_of_group(group):
                tc = self.topics.get(topic)
                if tc is None or (is_order and not tc.order):
                    continue
                s = self._stats_for(group, topic, "write")
                if s is None:
                    continue
                total_diff += s.total_diff()
                stats_list.append(s.to_json_obj())
            entries.append({group: stats_list})
        body = {"brokerAddr": self.settings.broker_addr, "consumeStatsList": entries, "totalDiff": total_diff}
        return answer(cmd, ResponseCode.SUCCESS, None, None, fastjson.dumps(body).encode())

    # ------------------------------------------------------------------------------ 300, 303

    def consumed_by_who(self, conn: Connection, cmd: RemotingCommand) -> RemotingCommand:
        topic = QueryTopicConsumeByWhoRequestHeader.decode(cmd.ext_fields).topic
        groups = list(
            dict.fromkeys(self.consumers.groups_of_topic(topic) + self.offsets.groups_of_topic(topic))
        )
        return answer(cmd, ResponseCode.SUCCESS, None, None, GroupList(groups).encode())

    def consume_time_span(self, conn: Connection, cmd: RemotingCommand) -> RemotingCommand:
        h = QueryConsumeTimeSpanRequestHeader.decode(cmd.ext_fields)
        topic, group = h.topic, h.group
        tc = self.topics.get(topic)
        if tc is None:
            return answer(cmd, ResponseCode.TOPIC_NOT_EXIST, f"topic[{topic}] not exist")
        spans = []
        for qid in range(tc.write_queue_nums):
            store = self.store
            min_time = store.earliest_message_time(topic, qid)
            max_offset = store.max_offset(topic, qid)
            max_time = store.message_store_time(topic, qid, max_offset - 1)
            consumer_offset = self.offsets.query(group, topic, qid)
            consume_time = (
                store.message_store_time(topic, qid, consumer_offset - 1) if consumer_offset > 0 else min_time
            )
            delay = 0
            if consumer_offset < max_offset:
                delay = now_ms() - store.message_store_time(topic, qid, consumer_offset)
            spans.append(
                QueueTimeSpan(
                    MessageQueue(topic, self.settings.broker.broker_name, qid),
                    min_time,
                    max_time,
                    consume_time,
                    delay,
                    _time_str(min_time),
                    _time_str(max_time),
                    _time_str(consume_time),
                )
            )
        return answer(cmd, ResponseCode.SUCCESS, None, None, QueryConsumeTimeSpanBody(spans).encode())
