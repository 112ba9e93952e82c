"""The static-topic tools' bodies of RocketMQ 5.x (``statictopic`` package): a topic's config with its
mapping on each broker, the remapping plan the tool writes, a broker's mapping file.

The mapping values themselves are :mod:`mqadmin.protocol.bodies.queue_mapping`'s; this module names
them too, as the Java package does, so a static-topic caller finds every type in one place.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Self

from mqadmin.protocol.bodies import fieldcheck as j
from mqadmin.protocol.bodies.queue_mapping import (
    METADATA_SCOPE_GLOBAL,
    LogicQueueMappingItem,
    TopicQueueMappingDetail,
    TopicQueueMappingInfo,
)
from mqadmin.protocol.bodies.topic import DataVersion, TopicConfig
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


def _config_map(v: Any, what: str) -> dict[str, TopicConfigAndQueueMapping]:
    return j.map_of(v, what, TopicConfigAndQueueMapping.from_json_obj) or {}


def _str_set(v: Any, what: str) -> list[str]:
    return list(dict.fromkeys(j.str_list(v, what) or []))


TYPE_CREATE_OR_UPDATE = "CREATE_OR_UPDATE"
TYPE_REMAPPING = "REMAPPING"
SUFFIX_BEFORE = ".before"
SUFFIX_AFTER = ".after"


@dataclass(slots=True)
class TopicRemappingDetailWrapper(j.JsonBody):
    """A static topic's configs on every broker, before or after a change (``TopicRemappingDetailWrapper``).

    The tool writes one to ``<tmpdir>/<topic>-<epoch>.before`` and ``.after``; ``-mf`` reads one back.
    ``brokerConfigMap`` is a ``HashMap``, the two broker sets ``HashSet``s.
    """

    topic: str | None = None
    type: str | None = None
    epoch: int = 0
    broker_config_map: dict[str, TopicConfigAndQueueMapping] = field(default_factory=dict)
    broker_to_map_in: list[str] = field(default_factory=list)
    broker_to_map_out: list[str] = field(default_factory=list)

    @classmethod
    def from_json_obj(cls, obj: Any, what: str = "TopicRemappingDetailWrapper") -> Self:
        d = j.obj(obj, what)
        return cls(
            topic=j.opt_str(d.get("topic"), "topic"),
            type=j.opt_str(d.get("type"), "type"),
            epoch=j.int64(d.get("epoch"), "epoch"),
            broker_config_map=_config_map(d.get("brokerConfigMap", {}), "brokerConfigMap"),
            broker_to_map_in=_str_set(d.get("brokerToMapIn", []), "brokerToMapIn"),
            broker_to_map_out=_str_set(d.get("brokerToMapOut", []), "brokerToMapOut"),
        )

    def to_json_obj(self, standard: bool = False) -> dict[str, Any]:
        configs = java_hash_dict(self.broker_config_map)
        return j.drop_none(
            {
                "brokerConfigMap": {k: v.to_json_obj(standard) for k, v in configs.items()},
                "brokerToMapIn": java_hash_order(self.broker_to_map_in),
                "brokerToMapOut": java_hash_order(self.broker_to_map_out),
                "epoch": self.epoch,
                "topic": self.topic,
                "type": self.type,
            }
        )


@dataclass(slots=True)
class TopicQueueMappingSerializeWrapper(j.JsonBody):
    """A broker's static mappings as ``config/topicQueueMapping.json`` holds them."""

    topic_queue_mapping_info_map: dict[str, TopicQueueMappingDetail] = field(default_factory=dict)
    data_version: DataVersion | None = None

    @classmethod
    def from_json_obj(cls, obj: Any, what: str = "TopicQueueMappingSerializeWrapper") -> Self:
        d = j.obj(obj, what)
        dv = d.get("dataVersion")
        details = j.map_of(d.get("topicQueueMappingInfoMap", {}), "topicQueueMappingInfoMap", _detail) or {}
        return cls(details, None if dv is None else DataVersion.from_json_obj(dv, "dataVersion"))

    def to_json_obj(self, standard: bool = False) -> dict[str, Any]:
        table = hash_ordered(
            self.topic_queue_mapping_info_map, chm_capacity(len(self.topic_queue_mapping_info_map))
        )
        out: dict[str, Any] = {}
        if self.data_version is not None:
            out["dataVersion"] = self.data_version.to_json_obj()
        out["topicQueueMappingInfoMap"] = {k: v.to_json_obj(standard) for k, v in table.items()}
        return out


def _detail(v: Any, what: str) -> TopicQueueMappingDetail:
    return TopicQueueMappingDetail.from_json_obj(j.obj(v, what), what)
