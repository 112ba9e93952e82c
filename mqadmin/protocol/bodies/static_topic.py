"""The static-topic tools' bodies of RocketMQ 5.x (``statictopic`` package): a topic's config with its
mapping on each broker, the remapping plan the tool writes, a broker's mapping file.

The mapping values themselves are :mod:`mqadmin.protocol.bodies.queue_mapping`'s; this module names
them too, as the Java package does, so a static-topic caller finds every type in one place.
The wrappers are declared once (:mod:`mqadmin.protocol.bodies.declared`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Self

from mqadmin.protocol.bodies import fieldcheck as j
from mqadmin.protocol.bodies.dataversion import DataVersion
from mqadmin.protocol.bodies.declared import DeclaredBody, wire
from mqadmin.protocol.bodies.logic_queues import LogicQueueMappingItem, TopicQueueMappingDetail
from mqadmin.protocol.bodies.queue_mapping import METADATA_SCOPE_GLOBAL, TopicQueueMappingInfo
from mqadmin.protocol.bodies.topic import TopicConfig
from mqadmin.protocol.javacoll import (
    chm_capacity,
    hash_ordered,
    java_hash_dict,
    java_hash_order,
)

__all__ = [
    "METADATA_SCOPE_GLOBAL",
    "SUFFIX_AFTER",
    "SUFFIX_BEFORE",
    "TYPE_CREATE_OR_UPDATE",
    "TYPE_REMAPPING",
    "LogicQueueMappingItem",
    "TopicConfigAndQueueMapping",
    "TopicQueueMappingDetail",
    "TopicQueueMappingInfo",
    "TopicQueueMappingSerializeWrapper",
    "TopicRemappingDetailWrapper",
]


# ------------------------------------------------------------------------------------ tool bodies


@dataclass(slots=True)
class TopicConfigAndQueueMapping(j.JsonBody):
    """A topic's config on one broker with its static mapping (``TopicConfigAndQueueMapping``).

    GET_TOPIC_CONFIG (351) answers it (``mappingDetail`` only when asked with ``lo=true`` and the
    topic is static); the static-topic commands keep one per broker. Java's class extends
    ``TopicConfig``: the JSON is the config's fields with ``mappingDetail`` among them.

    The hand-written part: the two methods below, because the members of a subclass sit in one
    object with the config's own, which a declaration of two fields cannot say.
    """

    config: TopicConfig
    mapping_detail: TopicQueueMappingDetail | None = None

    @property
    def topic_name(self) -> str | None:
        return self.config.topic_name

    @classmethod
    def from_json_obj(cls, obj: Any, what: str = "TopicConfigAndQueueMapping") -> Self:
        d = j.obj(obj, what)
        detail = d.get("mappingDetail")
        config = TopicConfig.from_json_obj(d, what)
        return cls(
            config,
            None if detail is None else TopicQueueMappingDetail.from_json_obj(j.obj(detail, "mappingDetail")),
        )

    def to_json_obj(self, standard: bool = False) -> dict[str, Any]:
        out = self.config.to_json_obj(standard)
        if self.mapping_detail is not None:
            out["mappingDetail"] = self.mapping_detail.to_json_obj(standard)
        return dict(sorted(out.items()))


def _str_set(v: Any, what: str) -> list[str]:
    return list(dict.fromkeys(j.str_list(v, what) or []))


TYPE_CREATE_OR_UPDATE = "CREATE_OR_UPDATE"
TYPE_REMAPPING = "REMAPPING"
SUFFIX_BEFORE = ".before"
SUFFIX_AFTER = ".after"


@dataclass(slots=True)
class TopicRemappingDetailWrapper(DeclaredBody):
    """A static topic's configs on every broker, before or after a change (``TopicRemappingDetailWrapper``).

    The tool writes one to ``<tmpdir>/<topic>-<epoch>.before`` and ``.after``; ``-mf`` reads one back.
    ``brokerConfigMap`` is a ``HashMap``, the two broker sets ``HashSet``s.
    """

    topic: str | None = wire(read=j.opt_str)
    type: str | None = wire(read=j.opt_str)
    epoch: int = wire(default=0, read=j.int64)
    broker_config_map: dict[str, TopicConfigAndQueueMapping] = wire(
        factory=dict,
        read=lambda v, what: j.map_of(v, what, TopicConfigAndQueueMapping.from_json_obj) or {},
        write=lambda v, standard: {k: x.to_json_obj(standard) for k, x in java_hash_dict(v).items()},
    )
    broker_to_map_in: list[str] = wire(factory=list, read=_str_set, write=lambda v, _: java_hash_order(v))
    broker_to_map_out: list[str] = wire(factory=list, read=_str_set, write=lambda v, _: java_hash_order(v))


def _details(v: Any, what: str) -> dict[str, TopicQueueMappingDetail]:
    return j.map_of(v, what, lambda x, w: TopicQueueMappingDetail.from_json_obj(j.obj(x, w), w)) or {}


def _chm_ordered(v: dict[str, TopicQueueMappingDetail], standard: bool) -> dict[str, Any]:
    """A ``ConcurrentHashMap`` as it iterates (its capacity follows its size)."""
    return {k: x.to_json_obj(standard) for k, x in hash_ordered(v, chm_capacity(len(v))).items()}


@dataclass(slots=True)
class TopicQueueMappingSerializeWrapper(DeclaredBody):
    """A broker's static mappings as ``config/topicQueueMapping.json`` holds them."""

    topic_queue_mapping_info_map: dict[str, TopicQueueMappingDetail] = wire(
        factory=dict, read=_details, write=_chm_ordered
    )
    data_version: DataVersion | None = wire(
        read=lambda v, what: None if v is None else DataVersion.from_json_obj(v, what),
        write=lambda v, _: v.to_json_obj(),
    )
