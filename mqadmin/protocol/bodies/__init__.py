"""Typed remoting bodies, one module per family, each byte-compatible with the Java side.

Every type is a slotted dataclass with snake_case attributes and the same four doors (for the
types declared with :mod:`mqadmin.protocol.bodies.declared`, the first two come from the
declaration):
``from_json_obj(obj)`` / ``to_json_obj(standard=False)`` between the type and plain JSON values
(Java property names, properties sorted as fastjson sorts them, maps in the iteration order of the
Java map behind them), and ``decode(body)`` / ``encode(standard=False)`` between the type and the
bytes on the wire. Decoding is tolerant as fastjson is (unknown properties ignored, missing ones at
Java's defaults) but rejects a property of the wrong JSON type with :class:`ProtocolError`.

Where 4.x and 5.x bodies differ, a 5.x-only property is ``None`` in a 4.x body so that each
re-encodes exactly as its peer wrote it. Configuration bodies are ``Properties`` text, handled by
:func:`string_to_properties` and :func:`properties_to_string`.

Names are imported on first use (PEP 562): a command that needs one body type does not pay for all.
"""

from __future__ import annotations

import importlib
from typing import Any

_WHERE: dict[str, str] = {
    "BrokerData": "mqadmin.protocol.bodies.route",
    "ClusterInfo": "mqadmin.protocol.bodies.cluster",
    "Connection": "mqadmin.protocol.bodies.connection",
    "ConsumeStats": "mqadmin.protocol.bodies.consume_stats",
    "ConsumerConnection": "mqadmin.protocol.bodies.connection",
    "CustomizedRetryPolicy": "mqadmin.protocol.bodies.group",
    "DataVersion": "mqadmin.protocol.bodies.dataversion",
    "ExponentialRetryPolicy": "mqadmin.protocol.bodies.group",
    "GroupRetryPolicy": "mqadmin.protocol.bodies.group",
    "KVTable": "mqadmin.protocol.bodies.kv",
    "LogicQueueMappingItem": "mqadmin.protocol.bodies.logic_queues",
    "MessageQueue": "mqadmin.protocol.bodies.message_queue",
    "OffsetWrapper": "mqadmin.protocol.bodies.consume_stats",
    "ProducerConnection": "mqadmin.protocol.bodies.connection",
    "QueueData": "mqadmin.protocol.bodies.route",
    "RegisterBrokerBody": "mqadmin.protocol.bodies.register",
    "SimpleSubscriptionData": "mqadmin.protocol.bodies.group",
    "SubscriptionData": "mqadmin.protocol.bodies.connection",
    "SubscriptionGroupConfig": "mqadmin.protocol.bodies.group",
    "SubscriptionGroupWrapper": "mqadmin.protocol.bodies.group",
    "TopicConfig": "mqadmin.protocol.bodies.topic",
    "TopicConfigAndMappingSerializeWrapper": "mqadmin.protocol.bodies.topic",
    "TopicConfigSerializeWrapper": "mqadmin.protocol.bodies.topic",
    "TopicList": "mqadmin.protocol.bodies.topic_list",
    "TopicOffset": "mqadmin.protocol.bodies.topic_stats",
    "TopicQueueMappingDetail": "mqadmin.protocol.bodies.logic_queues",
    "TopicQueueMappingInfo": "mqadmin.protocol.bodies.queue_mapping",
    "TopicRouteData": "mqadmin.protocol.bodies.route",
    "TopicStatsTable": "mqadmin.protocol.bodies.topic_stats",
    "properties_order": "mqadmin.protocol.bodies.properties",
    "properties_to_string": "mqadmin.protocol.bodies.properties",
    "string_to_properties": "mqadmin.protocol.bodies.properties",
}

__all__ = sorted(_WHERE)


def __getattr__(name: str) -> Any:
    try:
        module = _WHERE[name]
    except KeyError:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_WHERE))
