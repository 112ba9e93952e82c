"""Topic administration: create/update (17), create a list (18), delete (215), all configs (21),
one config (351, as a 5.x broker answers it), queue stats (202), system topics (305), queue
housekeeping (306, 316, 329) and consume-queue inspection (321).
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Coroutine
from typing import Any

from mqadmin.broker.clients import ConsumerManager
from mqadmin.broker.config import BrokerSettings
from mqadmin.broker.registration import Registrar
from mqadmin.broker.store import MessageStore
from mqadmin.broker.topics import TopicManager
from mqadmin.broker.version import BrokerVersion
from mqadmin.broker.wire import NOT_SET_REMARK, RequestError, answer
from mqadmin.protocol import fastjson, names
from mqadmin.protocol.bodies import fieldcheck as j
from mqadmin.protocol.bodies.message_queue import MessageQueue
from mqadmin.protocol.bodies.static_topic import TopicConfigAndQueueMapping
from mqadmin.protocol.bodies.topic import TopicConfig
from mqadmin.protocol.bodies.topic_list import TopicList
from mqadmin.protocol.bodies.topic_stats import TopicOffset, TopicStatsTable
from mqadmin.protocol.codes import RequestCode, ResponseCode
from mqadmin.protocol.command import RemotingCommand
from mqadmin.protocol.errors import ProtocolError
from mqadmin.protocol.headers.topic import (
    MIXED_NOT_SUPPORTED,
    CreateTopicRequestHeader,
    DeleteTopicRequestHeader,
    GetTopicConfigRequestHeader,
    GetTopicStatsInfoRequestHeader,
    QueryConsumeQueueRequestHeader,
    topic_config_refusal,
)
from mqadmin.remoting.client import Connection, Handler

__all__ = ["TopicAdminProcessor"]

log = logging.getLogger("mqadmin.broker")


class TopicAdminProcessor:
    """Codes 17, 18, 21, 202, 215, 305, 306, 316, 321, 329 and 351."""

    def __init__(
        self,
        *,
        settings: BrokerSettings,
        version: BrokerVersion,
        topics: TopicManager,
        consumers: ConsumerManager,
        store: MessageStore,
        registration: Registrar,
    ) -> None:
        self.settings = settings
        self.version = version
        self.topics = topics
        self.consumers = consumers
        self.store = store
        self.registration = registration

    def handlers(self) -> dict[int, Handler]:
        return {
            RequestCode.UPDATE_AND_CREATE_TOPIC: self.update_and_create_topic,
            RequestCode.UPDATE_AND_CREATE_TOPIC_LIST: self.update_and_create_topic_list,
            RequestCode.DELETE_TOPIC_IN_BROKER: self.delete_topic,
            RequestCode.GET_ALL_TOPIC_CONFIG: self.all_topic_config,
            RequestCode.GET_TOPIC_CONFIG: self.topic_config,
            RequestCode.GET_TOPIC_STATS_INFO: self.topic_stats,
            RequestCode.GET_SYSTEM_TOPIC_LIST_FROM_BROKER: self.system_topics,
            RequestCode.CLEAN_EXPIRED_CONSUMEQUEUE: self.clean_expired_consume_queue,
            RequestCode.CLEAN_UNUSED_TOPIC: self.clean_unused_topic,
            RequestCode.DELETE_EXPIRED_COMMITLOG: self.delete_expired_commitlog,
            RequestCode.QUERY_CONSUME_QUEUE: self.query_consume_queue,
        }

    def _refuse_name(self, topic: str) -> str | None:
        """4.9.8's ``TopicValidator.validateTopic`` and system-topic check (18, 215: names a header
        does not check as 17's does)."""
        return names.check_topic(topic) or self._refuse_system(topic)

    def _refuse_system(self, topic: str) -> str | None:
        if self.topics.is_system_topic(topic):
            return f"The topic[{topic}] is conflict with system topic."
        return None

    # ------------------------------------------------------------------------------ 17, 18, 215

    def update_and_create_topic(
        self, conn: Connection, cmd: RemotingCommand
    ) -> RemotingCommand | Coroutine[Any, Any, RemotingCommand]:
        hdr = CreateTopicRequestHeader.decode(cmd.ext_fields)  # the name is checked here, once
        topic = hdr.topic
        log.info("updateAndCreateTopic called by %s", conn.remote_addr)
        bad = self._refuse_system(topic)
        if bad is not None:
            return answer(cmd, ResponseCode.SYSTEM_ERROR, bad)
        bad = hdr.refusal()
        if bad is not None:
            log.warning("updateAndCreateTopic %s from %s refused: %s", topic, conn.remote_addr, bad)
            return answer(cmd, ResponseCode.INVALID_PARAMETER, bad)
        self.topics.update(hdr.to_config())
        registered = self.registration.topic_changed(topic)

        async def after_registration() -> RemotingCommand:
            await registered  # Java registers synchronously before answering
            return answer(cmd, ResponseCode.SUCCESS, NOT_SET_REMARK)

        return after_registration()

    def update_and_create_topic_list(self, conn: Connection, cmd: RemotingCommand) -> RemotingCommand:
        """5.x's batch create; a 4.9.8 broker lacks it, a 5.x tool may send it. One bad topic
        refuses the whole list (5.3.3 checks them all before creating any)."""
        try:
            body = j.decode_object(cmd.body or b"", "CreateTopicListRequestBody")
            listed = body.get("topicConfigList")
            configs = j.list_of(listed, "topicConfigList", TopicConfig.from_json_obj) or []
        except ProtocolError as e:
            raise RequestError(f"decode CreateTopicListRequestBody failed: {e}") from None
        for tc in configs:
            bad = self._refuse_name(tc.topic_name or "") or _list_entry_refusal(tc)
            if bad is not None:
                log.warning("updateAndCreateTopicList from %s refused: %s", conn.remote_addr, bad)
                return answer(cmd, ResponseCode.INVALID_PARAMETER, bad)
        for tc in configs:
            tc.attributes = None
        self.topics.update_many(configs)
        if configs:
            self.registration.topic_changed(configs[0].topic_name if len(configs) == 1 else None)
        return answer(cmd, ResponseCode.SUCCESS)

    def delete_topic(self, conn: Connection, cmd: RemotingCommand) -> RemotingCommand:
        topic = DeleteTopicRequestHeader.decode(cmd.ext_fields).topic
        log.info("deleteTopic %s called by %s", topic, conn.remote_addr)
        bad = self._refuse_name(topic)
        if bad is not None:
            return answer(cmd, ResponseCode.SYSTEM_ERROR, bad)
        self.topics.delete(topic)
        self.store.clean_unused_topics(set(self.topics.table))
        return answer(cmd, ResponseCode.SUCCESS)

    # ------------------------------------------------------------------------------ 21, 351, 305

    def all_topic_config(self, conn: Connection, cmd: RemotingCommand) -> RemotingCommand:
        if self.version.five_x:  # 5.3.3: a TopicConfigAndMappingSerializeWrapper, the mappings included
            content = self.topics.mappings.all_topic_config(self.topics.wrapper()).encode().decode()
        else:
            content = self.topics.encode()
        if not self.topics.table:
            return answer(cmd, ResponseCode.SYSTEM_ERROR, "No topic in this broker", {})
        return answer(cmd, ResponseCode.SUCCESS, None, {}, content.encode())

    def topic_config(self, conn: Connection, cmd: RemotingCommand) -> RemotingCommand:
        """GET_TOPIC_CONFIG as a 5.x broker answers it (a 4.9.8 broker has no such code)."""
        hdr = GetTopicConfigRequestHeader.decode(cmd.ext_fields)
        topic = hdr.topic
        tc = self.topics.get(topic)
        if tc is None:
            return answer(cmd, ResponseCode.TOPIC_NOT_EXIST, f"No topic in this broker. topic: {topic}")
        out = dataclasses.replace(tc, attributes={})
        mapping = self.topics.mappings.get(topic) if hdr.lo else None
        if mapping is not None:  # a static topic asked with lo=true: TopicConfigAndQueueMapping
            body = TopicConfigAndQueueMapping(out, mapping).encode()
            return answer(cmd, ResponseCode.SUCCESS, None, None, body)
        return answer(cmd, ResponseCode.SUCCESS, None, None, out.encode())

    def system_topics(self, conn: Connection, cmd: RemotingCommand) -> RemotingCommand:
        body = TopicList(self.topics.system_topic_list())
        return answer(cmd, ResponseCode.SUCCESS, None, None, body.encode())

    # ------------------------------------------------------------------------------ 202

    def topic_stats(self, conn: Connection, cmd: RemotingCommand) -> RemotingCommand:
        topic = GetTopicStatsInfoRequestHeader.decode(cmd.ext_fields).topic
        tc = self.topics.get(topic)
        if tc is None:
            return answer(cmd, ResponseCode.TOPIC_NOT_EXIST, f"topic[{topic}] not exist")
        table = {}
        for qid in range(tc.write_queue_nums):
            mn = max(self.store.min_offset(topic, qid), 0)
            mx = max(self.store.max_offset(topic, qid), 0)
            ts = self.store.message_store_time(topic, qid, mx - 1) if mx > 0 else 0
            table[MessageQueue(topic, self.settings.broker.broker_name, qid)] = TopicOffset(mn, mx, ts)
        return answer(cmd, ResponseCode.SUCCESS, None, None, TopicStatsTable(table).encode())

    # ------------------------------------------------------------------------------ 306, 316, 329

    def clean_expired_consume_queue(self, conn: Connection, cmd: RemotingCommand) -> RemotingCommand:
        log.warning("invoke cleanExpiredConsumeQueue by %s", conn.remote_addr)
        self.store.clean_expired_consume_queues()
        return answer(cmd, ResponseCode.SUCCESS)

    def clean_unused_topic(self, conn: Connection, cmd: RemotingCommand) -> RemotingCommand:
        log.warning("invoke cleanUnusedTopic by %s", conn.remote_addr)
        self.store.clean_unused_topics(set(self.topics.table))
        return answer(cmd, ResponseCode.SUCCESS)

    def delete_expired_commitlog(self, conn: Connection, cmd: RemotingCommand) -> RemotingCommand:
        log.warning("invoke deleteExpiredCommitLog by %s", conn.remote_addr)
        self.store.delete_expired_files()
        return answer(cmd, ResponseCode.SUCCESS)

    # ------------------------------------------------------------------------------ 321

    def query_consume_queue(self, conn: Connection, cmd: RemotingCommand) -> RemotingCommand:
        hdr = QueryConsumeQueueRequestHeader.decode(cmd.ext_fields)
        topic, queue_id, index, count = hdr.topic, hdr.queue_id, hdr.index, hdr.count
        group = hdr.consumer_group
        if queue_id not in self.store.queues().get(topic, []):
            return answer(cmd, ResponseCode.SYSTEM_ERROR, f"{queue_id}@{topic} is not exist!")
        body: dict[str, Any] = {
            "maxQueueIndex": self.store.max_offset(topic, queue_id),
            "minQueueIndex": self.store.min_offset(topic, queue_id),
        }
        if group is not None:
            sub = self.consumers.find_subscription(group, topic)
            if sub is None:
                body["filterData"] = f"{group}@{topic} is not online!"
            else:
                body["subscriptionData"] = sub.to_json_obj()
        entries = self.store.consume_queue_entries(topic, queue_id, index, count)
        if not entries:
            return answer(cmd, ResponseCode.SUCCESS, f"Index {index} of {queue_id}@{topic} is not exist!")
        body["queueData"] = [
            {"eval": False, "physicOffset": phy, "physicSize": size, "tagsCode": code}
            for phy, size, code in entries
        ]
        out = fastjson.dumps(dict(sorted(body.items()))).encode()
        return answer(cmd, ResponseCode.SUCCESS, NOT_SET_REMARK, None, out)


def _list_entry_refusal(tc: TopicConfig) -> str | None:
    """The numbers of one topic of an 18 body, and 5.3.3's MIXED check on its attributes."""
    bad = topic_config_refusal(
        tc.read_queue_nums, tc.write_queue_nums, tc.perm, tc.topic_filter_type, tc.topic_sys_flag
    )
    if bad is None and (tc.attributes or {}).get("+message.type") == "MIXED":
        return MIXED_NOT_SUPPORTED
    return bad
