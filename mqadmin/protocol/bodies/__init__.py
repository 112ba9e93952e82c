"""Typed remoting bodies, one module per family, each byte-compatible with the Java side.

Every type is a slotted dataclass with snake_case attributes and the same four doors:
``from_json_obj(obj)`` / ``to_json_obj(standard=False)`` between the type and plain JSON values
(Java property names, properties sorted as fastjson sorts them, maps in the iteration order of the
Java map behind them), and ``decode(body)`` / ``encode(standard=False)`` between the type and the
bytes on the wire. Decoding is tolerant as fastjson is (unknown properties ignored, missing ones at
Java's defaults) but rejects a property of the wrong JSON type with :class:`ProtocolError`.

Where 4.x and 5.x bodies differ, a 5.x-only property is ``None`` in a 4.x body so that each
re-encodes exactly as its peer wrote it. Configuration bodies are ``Properties`` text, handled by
:func:`string_to_properties` and :func:`properties_to_string`.
"""

from mqadmin.protocol.bodies.cluster import ClusterInfo
from mqadmin.protocol.bodies.connection import (
    Connection,
    ConsumerConnection,
    ProducerConnection,
    SubscriptionData,
)
from mqadmin.protocol.bodies.group import (
    CustomizedRetryPolicy,
    ExponentialRetryPolicy,
    GroupRetryPolicy,
    SimpleSubscriptionData,
    SubscriptionGroupConfig,
    SubscriptionGroupWrapper,
)
from mqadmin.protocol.bodies.kv import KVTable
from mqadmin.protocol.bodies.message_queue import MessageQueue
from mqadmin.protocol.bodies.properties import properties_order, properties_to_string, string_to_properties
from mqadmin.protocol.bodies.register import RegisterBrokerBody
from mqadmin.protocol.bodies.route import BrokerData, QueueData, TopicRouteData
from mqadmin.protocol.bodies.static_topic import (
    LogicQueueMappingItem,
    TopicQueueMappingDetail,
    TopicQueueMappingInfo,
)
from mqadmin.protocol.bodies.stats import ConsumeStats, OffsetWrapper, TopicOffset, TopicStatsTable
from mqadmin.protocol.bodies.topic import (
    DataVersion,
    TopicConfig,
    TopicConfigAndMappingSerializeWrapper,
    TopicConfigSerializeWrapper,
    TopicList,
)

__all__ = [
    "BrokerData",
    "ClusterInfo",
    "Connection",
    "ConsumeStats",
    "ConsumerConnection",
    "CustomizedRetryPolicy",
    "DataVersion",
    "ExponentialRetryPolicy",
    "GroupRetryPolicy",
    "KVTable",
    "LogicQueueMappingItem",
    "MessageQueue",
    "OffsetWrapper",
    "ProducerConnection",
    "QueueData",
    "RegisterBrokerBody",
    "SimpleSubscriptionData",
    "SubscriptionData",
    "SubscriptionGroupConfig",
    "SubscriptionGroupWrapper",
    "TopicConfig",
    "TopicConfigAndMappingSerializeWrapper",
    "TopicConfigSerializeWrapper",
    "TopicList",
    "TopicOffset",
    "TopicQueueMappingDetail",
    "TopicQueueMappingInfo",
    "TopicRouteData",
    "TopicStatsTable",
    "properties_order",
    "properties_to_string",
    "string_to_properties",
]
