"""Topic administration: create/update (17), create a list (18), delete (215), all configs (21),
one config (351, as a 5.x broker answers it), queue stats (202), system topics (305), queue
housekeeping (306, 316, 329) and consume-queue inspection (321).
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Coroutine
from typing import TYPE_CHECKING, Any

from mqadmin.broker.processors.wire import (
    NOT_SET_REMARK,
    RequestError,
    answer,
    guarded,
    opt_str,
    req_int,
    req_long,
    req_str,
)
from mqadmin.broker.topics import validate_topic
from mqadmin.protocol import fastjson
from mqadmin.protocol.bodies import _json as j
from mqadmin.protocol.bodies.message_queue import MessageQueue
from mqadmin.protocol.bodies.stats import TopicOffset, TopicStatsTable
from mqadmin.protocol.bodies.topic import TopicConfig, TopicList
from mqadmin.protocol.codes import RequestCode
from mqadmin.protocol.command import RemotingCommand
from mqadmin.protocol.errors import ProtocolError
from mqadmin.remoting.client import Connection, Handler

if TYPE_CHECKING:
    from mqadmin.broker.controller import BrokerController

__all__ = ["TopicAdminProcessor"]

log = logging.getLogger("mqadmin.broker")

INVALID_PARAMETER = 29


class TopicAdminProcessor:
    """Codes 17, 18, 21, 202, 215, 305, 306, 316, 321, 329 and 351."""

    def __init__(self, broker: BrokerController) -> None:
        self.broker = broker

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
        bad = validate_topic(topic)
        if bad is not None:
            return bad
        if self.broker.topics.is_system_topic(topic):
            return f"The topic[{topic}] is conflict with system topic."
        return None

    # ------------------------------------------------------------------------------ 17, 18, 215

    @guarded
    def update_and_create_topic(
        self, conn: Connection, cmd: RemotingCommand
    ) -> RemotingCommand | Coroutine[Any, Any, RemotingCommand]:
        try:
            requested = TopicConfig.from_create_topic_fields(cmd.ext_fields or {})
        except ProtocolError as e:
            raise RequestError(
                f"org.apache.rocketmq.remoting.exception.RemotingCommandException: {e}"
            ) from None
        topic = requested.topic_name or ""
        log.info("updateAndCreateTopic called by %s", conn.remote_addr)
        bad = self._refuse_name(topic)
        if bad is not None:
            return answer(cmd, 1, bad)
        tc = TopicConfig(
            topic_name=topic,
            read_queue_nums=requested.read_queue_nums,
            write_queue_nums=requested.write_queue_nums,
            perm=requested.perm,
            topic_filter_type=requested.topic_filter_type,
            topic_sys_flag=requested.topic_sys_flag,
        )
        b = self.broker
        b.topics.update(tc)
        b.register_topic_change(topic)

        async def after_registration() -> RemotingCommand:
            await b.registered()  # Java registers synchronously before answering
            return answer(cmd, 0, NOT_SET_REMARK)

        return after_registration()

    @guarded
    def update_and_create_topic_list(self, conn: Connection, cmd: RemotingCommand) -> RemotingCommand:
        """5.x's batch create; a 4.9.8 broker lacks it, a 5.x tool may send it."""
        try:
            body = j.decode_object(cmd.body or b"", "CreateTopicListRequestBody")
            configs = [TopicConfig.from_json_obj(x) for x in body.get("topicConfigList") or []]
        except ProtocolError as e:
            raise RequestError(f"decode CreateTopicListRequestBody failed: {e}") from None
        for tc in configs:
            bad = self._refuse_name(tc.topic_name or "")
            if bad is not None:
                return answer(cmd, INVALID_PARAMETER, bad)
        b = self.broker
        for tc in configs:
            tc.attributes = None
        b.topics.update_many(configs)
        if configs:
            b.register_topic_change(configs[0].topic_name if len(configs) == 1 else None)
        return answer(cmd, 0)

    @guarded
    def delete_topic(self, conn: Connection, cmd: RemotingCommand) -> RemotingCommand:
        topic = req_str(cmd, "topic")
        log.info("deleteTopic %s called by %s", topic, conn.remote_addr)
        bad = self._refuse_name(topic)
        if bad is not None:
            return answer(cmd, 1, bad)
        b = self.broker
        b.topics.delete(topic)
        b.store.clean_unused_topics(set(b.topics.table))
        return answer(cmd, 0)

    # ------------------------------------------------------------------------------ 21, 351, 305

    @guarded
    def all_topic_config(self, conn: Connection, cmd: RemotingCommand) -> RemotingCommand:
        content = self.broker.topics.encode()
        if not self.broker.topics.table:
            return answer(cmd, 1, "No topic in this broker", {})
        return answer(cmd, 0, None, {}, content.encode())

    @guarded
    def topic_config(self, conn: Connection, cmd: RemotingCommand) -> RemotingCommand:
        """GET_TOPIC_CONFIG as a 5.x broker answers it (a 4.9.8 broker has no such code)."""
        topic = req_str(cmd, "topic")
        tc = self.broker.topics.get(topic)
        if tc is None:
            return answer(cmd, 17, f"No topic in this broker. topic: {topic}")
        out = dataclasses.replace(tc, attributes={})
        return answer(cmd, 0, None, None, out.encode())

    @guarded
    def system_topics(self, conn: Connection, cmd: RemotingCommand) -> RemotingCommand:
        body = TopicList(self.broker.topics.system_topic_list())
        return answer(cmd, 0, None, None, body.encode())

    # ------------------------------------------------------------------------------ 202

    @guarded
    def topic_stats(self, conn: Connection, cmd: RemotingCommand) -> RemotingCommand:
        topic = req_str(cmd, "topic")
        b = self.broker
        tc = b.topics.get(topic)
        if tc is None:
            return answer(cmd, 17, f"topic[{topic}] not exist")
        table = {}
        for qid in range(tc.write_queue_nums):
            mn = max(b.store.min_offset(topic, qid), 0)
            mx = max(b.store.max_offset(topic, qid), 0)
            ts = b.store.message_store_time(topic, qid, mx - 1) if mx > 0 else 0
            table[MessageQueue(topic, b.config.broker_name, qid)] = TopicOffset(mn, mx, ts)
        return answer(cmd, 0, None, None, TopicStatsTable(table).encode())

    # ------------------------------------------------------------------------------ 306, 316, 329

    @guarded
    def clean_expired_consume_queue(self, conn: Connection, cmd: RemotingCommand) -> RemotingCommand:
        log.warning("invoke cleanExpiredConsumeQueue by %s", conn.remote_addr)
        self.broker.store.clean_expired_consume_queues()
        return answer(cmd, 0)

    @guarded
    def clean_unused_topic(self, conn: Connection, cmd: RemotingCommand) -> RemotingCommand:
        log.warning("invoke cleanUnusedTopic by %s", conn.remote_addr)
        b = self.broker
        b.store.clean_unused_topics(set(b.topics.table))
        return answer(cmd, 0)

    @guarded
    def delete_expired_commitlog(self, conn: Connection, cmd: RemotingCommand) -> RemotingCommand:
        log.warning("invoke deleteExpiredCommitLog by %s", conn.remote_addr)
        self.broker.store.delete_expired_files()
        return answer(cmd, 0)

    # ------------------------------------------------------------------------------ 321

    @guarded
    def query_consume_queue(self, conn: Connection, cmd: RemotingCommand) -> RemotingCommand:
        topic = req_str(cmd, "topic")
        queue_id = req_int(cmd, "queueId")
        index = req_long(cmd, "index")
        count = req_int(cmd, "count")
        group = opt_str(cmd, "consumerGroup")
        b = self.broker
        if queue_id not in b.store.queues().get(topic, []):
            return answer(cmd, 1, f"{queue_id}@{topic} is not exist!")
        body: dict[str, Any] = {
            "maxQueueIndex": b.store.max_offset(topic, queue_id),
            "minQueueIndex": b.store.min_offset(topic, queue_id),
        }
        if group is not None:
            sub = b.consumers.find_subscription(group, topic)
            if sub is None:
                body["filterData"] = f"{group}@{topic} is not online!"
            else:
                body["subscriptionData"] = sub.to_json_obj()
        entries = b.store.consume_queue_entries(topic, queue_id, index, count)
        if not entries:
            return answer(cmd, 0, f"Index {index} of {queue_id}@{topic} is not exist!")
        body["queueData"] = [
            {"eval": False, "physicOffset": phy, "physicSize": size, "tagsCode": code}
            for phy, size, code in entries
        ]
        return answer(cmd, 0, NOT_SET_REMARK, None, fastjson.dumps(dict(sorted(body.items()))).encode())
