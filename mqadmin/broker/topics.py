"""The broker's topic table (Java ``TopicConfigManager``), persisted as ``config/topics.json``.

It starts with the topics a 4.9.8 broker always has (``TBW102`` for auto-creation, the cluster and
broker-name topics, ``SCHEDULE_TOPIC_XXXX``, ...), then the file's entries are laid over them.
Every change bumps the table's DataVersion and persists at once. Creations that must reach the
name servers (auto-created topics, retry and DLQ topics) call ``on_auto_create``, which the
controller wires to a oneway registration, as Java's ``registerBrokerAll(false, true, true)``.
Inside :meth:`TopicManager.batched` (one request creating many topics, a heartbeat naming many
groups) the writes and the registrations wait for the block's end: one of each per request, so the
cost of a request grows with its elements, not with their square.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

from mqadmin.broker.config import BrokerConfig
from mqadmin.broker.jsonfile import Coalesced, load_config_file, persist_config_file, pretty_json
from mqadmin.broker.static_topics import TopicQueueMappings
from mqadmin.protocol import names
from mqadmin.protocol.bodies.topic import (
    DataVersion,
    TopicConfig,
    TopicConfigSerializeWrapper,
)
from mqadmin.protocol.perm import PERM_INHERIT, PERM_READ, PERM_WRITE, perm_to_string

__all__ = [
    "AUTO_CREATE_TOPIC",
    "NOT_ALLOWED_SEND_TOPICS",
    "SCHEDULE_TOPIC",
    "TopicManager",
    "topic_config_string",
    "validate_topic",
]

log = logging.getLogger("mqadmin.broker")

AUTO_CREATE_TOPIC = "TBW102"
SCHEDULE_TOPIC = "SCHEDULE_TOPIC_XXXX"
SCHEDULE_TOPIC_QUEUE_NUM = 18
SELF_TEST_TOPIC = "SELF_TEST_TOPIC"
BENCHMARK_TOPIC = "BenchmarkTest"
OFFSET_MOVED_EVENT = "OFFSET_MOVED_EVENT"
TRANS_HALF_TOPIC = "RMQ_SYS_TRANS_HALF_TOPIC"
TRANS_OP_HALF_TOPIC = "RMQ_SYS_TRANS_OP_HALF_TOPIC"
TRANS_CHECK_MAX_TIME_TOPIC = "TRANS_CHECK_MAX_TIME_TOPIC"
RETRY_PREFIX = names.RETRY_GROUP_TOPIC_PREFIX
DLQ_PREFIX = names.DLQ_GROUP_TOPIC_PREFIX

NOT_ALLOWED_SEND_TOPICS = names.NOT_ALLOWED_SEND_TOPICS
"""``TopicValidator.NOT_ALLOWED_SEND_TOPIC_SET``."""

_STATIC_SYSTEM_TOPICS = (
    SCHEDULE_TOPIC,
    BENCHMARK_TOPIC,
    TRANS_HALF_TOPIC,
    "RMQ_SYS_TRACE_TOPIC",
    TRANS_OP_HALF_TOPIC,
    TRANS_CHECK_MAX_TIME_TOPIC,
    SELF_TEST_TOPIC,
    OFFSET_MOVED_EVENT,
)

TOPIC_MAX_LENGTH = names.TOPIC_MAX_LENGTH


def validate_topic(topic: str | None) -> str | None:
    """``TopicValidator.validateTopic``: the remark of the failed check, or None when valid.

    The one implementation is :func:`mqadmin.protocol.names.check_topic` (a whole-string match: a
    final newline is refused, as Java's ``matches()`` refuses it).
    """
    return names.check_topic(topic)


def topic_config_string(tc: TopicConfig) -> str:
    """``TopicConfig.toString``, which some error remarks embed."""
    return (
        f"TopicConfig [topicName={tc.topic_name}, readQueueNums={tc.read_queue_nums}, "
        f"writeQueueNums={tc.write_queue_nums}, perm={perm_to_string(tc.perm)}, "
        f"topicFilterType={tc.topic_filter_type}, topicSysFlag={tc.topic_sys_flag}, "
        f"order={'true' if tc.order else 'false'}]"
    )


def _new(name: str, queues: int = 16, perm: int = PERM_READ | PERM_WRITE) -> TopicConfig:
    return TopicConfig(topic_name=name, read_queue_nums=queues, write_queue_nums=queues, perm=perm)


class TopicManager:
    """Topic configs by name, in insertion order (bodies order them as Java's table iterates)."""

    def __init__(self, config: BrokerConfig, config_dir: Path) -> None:
        self.config = config
        self.path = config_dir / "topics.json"
        self.table: dict[str, TopicConfig] = {}
        self.data_version = DataVersion()
        self.system_topics: set[str] = set(_STATIC_SYSTEM_TOPICS)
        self.on_auto_create: Callable[[], None] = lambda: None
        self._writes = Coalesced()
        self.mappings = TopicQueueMappings(config, config_dir)
        """Static topics' queue mappings (``topicQueueMapping.json``), kept beside their configs."""
        self._builtin()

    def _builtin(self) -> None:
        """The topics ``TopicConfigManager``'s constructor puts in, in its order."""
        c = self.config
        rw = PERM_READ | PERM_WRITE
        self._put_system(_new(SELF_TEST_TOPIC, 1))
        if c.auto_create_topic_enable:
            self._put_system(_new(AUTO_CREATE_TOPIC, c.default_topic_queue_nums, rw | PERM_INHERIT))
        self._put_system(_new(BENCHMARK_TOPIC, 1024))
        self._put_system(
            _new(c.broker_cluster_name, 16, PERM_INHERIT | (rw if c.cluster_topic_enable else 0))
        )
        self._put_system(_new(c.broker_name, 1, PERM_INHERIT | (rw if c.broker_topic_enable else 0)))
        self._put_system(_new(OFFSET_MOVED_EVENT, 1))
        self._put_system(_new(SCHEDULE_TOPIC, SCHEDULE_TOPIC_QUEUE_NUM))
        if c.trace_topic_enable:
            self._put_system(_new(c.msg_trace_topic_name, 1))
        self._put_system(_new(f"{c.broker_cluster_name}_REPLY_TOPIC", 1))

    def _put_system(self, tc: TopicConfig) -> None:
        assert tc.topic_name is not None
        self.system_topics.add(tc.topic_name)
        self.table[tc.topic_name] = tc

    # ------------------------------------------------------------------------------ persistence

    def load(self) -> None:
        def decode(obj: Any) -> None:
            wrapper = TopicConfigSerializeWrapper.from_json_obj(obj)
            self.table.update(wrapper.topic_config_table or {})
            if wrapper.data_version is not None:
                self.data_version = DataVersion(wrapper.data_version.timestamp, wrapper.data_version.counter)

        load_config_file(self.path, decode)
        self.mappings.load()

    def encode(self, pretty: bool = False) -> str:
        wrapper = self.wrapper()
        if pretty:
            return pretty_json(wrapper.to_json_obj())
        return wrapper.encode().decode()

    def wrapper(self, only: str | None = None) -> TopicConfigSerializeWrapper:
        """The table with its version; ``only`` keeps just one topic (the registration after 17)."""
        table = self.table if only is None else {only: self.table[only]}
        return TopicConfigSerializeWrapper(dict(table), self.data_version)

    def persist(self) -> None:
        persist_config_file(self.path, self.encode(pretty=True))

    def _changed(self) -> None:
        self.data_version.next_version()
        self._writes.ask(self.persist)

    def _auto_created(self) -> None:
        self._writes.ask(self._register)

    def _register(self) -> None:
        self.on_auto_create()

    def batched(self) -> AbstractContextManager[None]:
        """Changes made inside are written once and registered once, when the outermost block ends.

        Whatever ends the block (an exception included), what changed in memory reaches the file
        and the name servers, so the table and its file never disagree for long.
        """
        return self._writes.batch()

    # ------------------------------------------------------------------------------ queries

    def get(self, topic: str) -> TopicConfig | None:
        return self.table.get(topic)

    def is_system_topic(self, topic: str) -> bool:
        """``TopicValidator.isSystemTopic``: the built-in set or the ``rmq_sys_`` prefix."""
        return topic in self.system_topics or topic.startswith("rmq_sys_")

    def system_topic_list(self) -> list[str]:
        """The system-topic set as GET_SYSTEM_TOPIC_LIST_FROM_BROKER (305) lists it."""
        return sorted(self.system_topics)

    def is_order_topic(self, topic: str) -> bool:
        tc = self.table.get(topic)
        return tc is not None and tc.order

    # ------------------------------------------------------------------------------ changes

    def update(self, tc: TopicConfig) -> None:
        """UPDATE_AND_CREATE_TOPIC: replace the entry, bump the version, persist."""
        self.update_many([tc])

    def update_many(self, configs: list[TopicConfig]) -> None:
        """Replace several entries with one version bump and one write (the 5.x batch create)."""
        for tc in configs:
            assert tc.topic_name is not None
            old = self.table.get(tc.topic_name)
            self.table[tc.topic_name] = tc
            log.info("%s topic config %s", "update" if old else "create new", topic_config_string(tc))
        if configs:
            self._changed()

    def delete(self, topic: str) -> bool:
        if self.table.pop(topic, None) is None:
            log.warning("delete topic config failed, topic: %s not exists", topic)
            return False
        log.info("delete topic config OK, topic: %s", topic)
        self.mappings.delete(topic)
        self._changed()
        return True

    def create_in_send(
        self, topic: str, default_topic: str, client_queue_nums: int, topic_sys_flag: int
    ) -> TopicConfig | None:
        """``createTopicInSendMessageMethod``: inherit from ``default_topic`` when it allows it."""
        tc = self.table.get(topic)
        if tc is not None:
            return tc
        default = self.table.get(default_topic)
        if default is None:
            log.warning(
                "create new topic %s failed: the default topic %s does not exist", topic, default_topic
            )
            return None
        if default_topic == AUTO_CREATE_TOPIC and not self.config.auto_create_topic_enable:
            default.perm = PERM_READ | PERM_WRITE
        if not default.perm & PERM_INHERIT:
            log.warning(
                "create new topic %s failed: default topic %s has perm %d", topic, default_topic, default.perm
            )
            return None
        queues = max(0, min(client_queue_nums, default.write_queue_nums))
        tc = TopicConfig(
            topic_name=topic,
            read_queue_nums=queues,
            write_queue_nums=queues,
            perm=default.perm & ~PERM_INHERIT,
            topic_filter_type=default.topic_filter_type,
            topic_sys_flag=topic_sys_flag,
        )
        log.info("create new topic by default topic %s: %s", default_topic, topic_config_string(tc))
        self.table[topic] = tc
        self._changed()
        self._auto_created()
        return tc

    def create_in_send_back(self, topic: str, queue_nums: int, perm: int, topic_sys_flag: int) -> TopicConfig:
        """``createTopicInSendMessageBackMethod``: retry and DLQ topics, made on first use."""
        tc = self.table.get(topic)
        if tc is not None:
            return tc
        tc = TopicConfig(
            topic_name=topic,
            read_queue_nums=queue_nums,
            write_queue_nums=queue_nums,
            perm=perm,
            topic_sys_flag=topic_sys_flag,
        )
        log.info("create new topic %s", topic_config_string(tc))
        self.table[topic] = tc
        self._changed()
        self._auto_created()
        return tc

    def update_order_topics(self, order_topics: set[str]) -> None:
        """``updateOrderTopicConfig``: the ORDER_TOPIC_CONFIG namespace a name server returned."""
        changed = False
        for topic in order_topics:
            tc = self.table.get(topic)
            if tc is not None and not tc.order:
                tc.order = True
                changed = True
        for topic, tc in self.table.items():
            if topic not in order_topics and tc.order:
                tc.order = False
                changed = True
        if changed:
            self._changed()
