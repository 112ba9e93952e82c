"""The broker's static-topic mappings (Java ``TopicQueueMappingManager``), persisted as
``config/topicQueueMapping.json`` in Java's shape (``{"dataVersion":..,"topicQueueMappingInfoMap":
{topic: TopicQueueMappingDetail}}``, fastjson pretty text, ``.bak`` kept, as every config file).

A mapping arrives with UPDATE_AND_CREATE_STATIC_TOPIC (513) together with the topic's config: both
are checked first (:func:`~mqadmin.protocol.staticmapping.merge_broker_detail`, the header's
numbers), then kept; the mapping file is written before ``topics.json``, so a refused request writes
neither (a crash between the two writes leaves the new mapping beside the old config; the tool's
next run, which checks both, says so). Details in the file that do not add up are left out at load.

Sends, pulls, consumer offsets, min/max offsets, time searches and earliest store times name a
*logical* queue of a static topic; :meth:`TopicQueueMappings.context` finds its generations here,
and :class:`QueueContext` translates between logical and physical terms. Answering such a request,
and asking another broker for a generation it holds, is the processors' part
(:mod:`mqadmin.broker.processors.static_forward`).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mqadmin.broker.config import BrokerConfig
from mqadmin.broker.jsonfile import load_config_file, persist_config_file, pretty_json
from mqadmin.protocol import names
from mqadmin.protocol.bodies.static_topic import (
    LogicQueueMappingItem,
    TopicQueueMappingDetail,
    TopicQueueMappingInfo,
    TopicQueueMappingSerializeWrapper,
)
from mqadmin.protocol.bodies.topic import (
    DataVersion,
    TopicConfigAndMappingSerializeWrapper,
    TopicConfigSerializeWrapper,
)
from mqadmin.protocol.staticmapping import (
    MappingError,
    PullOffsets,
    check_broker_detail,
    find_item,
    mapping_info,
    merge_broker_detail,
    physical_offset,
    rewrite_pull_answer,
    static_offset_loosely,
)
from mqadmin.remoting.logthrottle import ThrottledLog

__all__ = ["QueueContext", "TopicQueueMappings"]

log = logging.getLogger("mqadmin.broker")
_peer_log = ThrottledLog(log)  # lines a remote peer can cause


@dataclass(slots=True)
class QueueContext:
    """A request's logical queue on this broker (Java ``TopicQueueMappingContext``)."""

    topic: str
    global_id: int
    detail: TopicQueueMappingDetail
    items: list[LogicQueueMappingItem] | None
    current: LogicQueueMappingItem | None = None

    @property
    def leader(self) -> LogicQueueMappingItem | None:
        return self.items[-1] if self.items else None

    @property
    def is_leader(self) -> bool:
        leader = self.leader
        return leader is not None and leader.bname == self.detail.bname

    # ------------------------------------------------------------------ send

    def send_answer(self, physical_offset: int) -> tuple[int, int]:
        """``rewriteResponseForStaticTopic`` of a send: the logical queue id and offset to answer."""
        leader = self.leader
        assert leader is not None
        return self.global_id, static_offset_loosely(leader, physical_offset)

    # ------------------------------------------------------------------ pull

    def pull_refusal(self) -> str | None:
        if self.is_leader:
            return None
        return (
            f"{self.topic}-{self.global_id} cannot find mapping item in request process of current "
            f"broker {self.detail.bname}"
        )

    def pull_target(self, logical_offset: int, max_nums: int) -> tuple[LogicQueueMappingItem, int, int]:
        """The generation holding ``logical_offset``, the physical offset there, and the batch size
        (no more than what is left of a closed generation)."""
        item = find_item(self.items, logical_offset, True)
        assert item is not None  # the leader's own item has a decided logic offset
        self.current = item
        if item.end_offset > item.start_offset:
            max_nums = min(item.end_offset - item.start_offset, max_nums)
        return item, physical_offset(item, logical_offset), max_nums

    def local_commit(self, logical_offset: int) -> tuple[int, int] | None:
        """Where a pull's commit of ``logical_offset`` is kept on this broker: (physical queue id,
        physical offset) of the generation holding it; None when another broker holds it."""
        item = find_item(self.items, logical_offset, True)
        if item is None or item.bname != self.detail.bname:
            return None
        return item.queue_id, physical_offset(item, logical_offset)

    def pull_answer(self, request_offset: int, got: PullOffsets) -> PullOffsets:
        assert self.items is not None and self.current is not None
        return rewrite_pull_answer(self.items, self.detail, self.global_id, self.current, request_offset, got)


class TopicQueueMappings:
    """Mappings by topic; every change bumps the version and persists at once."""

    def __init__(self, config: BrokerConfig, config_dir: Path) -> None:
        self.config = config
        self.path = config_dir / "topicQueueMapping.json"
        self.table: dict[str, TopicQueueMappingDetail] = {}
        self.data_version = DataVersion()

    # ------------------------------------------------------------------ persistence

    def load(self) -> None:
        def decode(obj: Any) -> None:
            wrapper = TopicQueueMappingSerializeWrapper.from_json_obj(obj)
            for topic, detail in wrapper.topic_queue_mapping_info_map.items():
                try:  # a file edited by hand: what does not add up is left out, and said
                    check_broker_detail(detail, topic, self.config.broker_name, names.QUEUE_NUMS_MAX)
                except MappingError as e:
                    log.error("%s: the mapping of static topic %s is left out: %s", self.path, topic, e)
                    continue
                self.table[topic] = detail
            if wrapper.data_version is not None:
                self.data_version = wrapper.data_version

        load_config_file(self.path, decode)

    def encode(self, pretty: bool = False) -> str:
        wrapper = TopicQueueMappingSerializeWrapper(dict(self.table), self.data_version)
        return pretty_json(wrapper.to_json_obj()) if pretty else wrapper.encode().decode()

    def persist(self) -> None:
        persist_config_file(self.path, lambda: self.encode(pretty=True))

    # ------------------------------------------------------------------ queries and changes

    def get(self, topic: str) -> TopicQueueMappingDetail | None:
        return self.table.get(topic)

    def merged(self, detail: TopicQueueMappingDetail, force: bool) -> TopicQueueMappingDetail:
        """What would be kept if ``detail`` arrived now (raises ``MappingError``; changes nothing)."""
        assert detail.topic is not None
        return merge_broker_detail(self.table.get(detail.topic), detail, force)

    def put(self, detail: TopicQueueMappingDetail) -> None:
        """Keep a detail :meth:`merged` made, bump the version, persist."""
        assert detail.topic is not None
        old = self.table.get(detail.topic)
        self.table[detail.topic] = detail
        self.data_version.next_version()
        self.persist()
        _peer_log.log(
            logging.INFO,
            "mapping updated",
            "Update topic queue mapping of %s (epoch %s -> %d)",
            detail.topic,
            old and old.epoch,
            detail.epoch,
        )

    def delete(self, topic: str) -> None:
        if self.table.pop(topic, None) is not None:
            log.info("delete topic queue mapping OK, static topic: %s", topic)
            self.data_version.next_version()
            self.persist()

    def all_topic_config(self, topics: TopicConfigSerializeWrapper) -> TopicConfigAndMappingSerializeWrapper:
        """GET_ALL_TOPIC_CONFIG of a 5.3.3 broker: the topic table with every mapping detail."""
        return TopicConfigAndMappingSerializeWrapper(
            topics.topic_config_table,
            topics.data_version,
            topic_queue_mapping_detail_map=dict(self.table),
            mapping_data_version=self.data_version,
        )

    def infos(self, only: str | None = None) -> dict[str, TopicQueueMappingInfo]:
        """What a registration carries (``cloneAsMappingInfo`` of each, or of ``only``)."""
        topics = self.table if only is None else [t for t in (only,) if t in self.table]
        return {t: mapping_info(self.table[t]) for t in topics}

    def context(
        self, topic: str, queue_id: int, *, select_one: bool, lo: bool | None = None
    ) -> QueueContext | None:
        """``buildTopicQueueMappingContext``: None for a topic that is not static here (or ``lo=false``,
        a request another broker forwarded with physical ids)."""
        if lo is False or not self.table:
            return None
        detail = self.table.get(topic)
        if detail is None:
            return None
        hosted = detail.hosted_queues or {}
        gid = queue_id
        if gid < 0 and select_one and hosted:
            gid = min(hosted)
        items = hosted.get(gid) if gid >= 0 else None
        return QueueContext(topic, gid, detail, items or None)
