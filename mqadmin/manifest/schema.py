"""The manifest's JSON Schema (draft 2020-12), and a checker of the part of JSON Schema it uses.

The schema is stated once, here; ``mqadmin schema manifest`` prints the copy shipped with the CLI's
schemas, which a test holds equal to this one. The checker walks the YAML nodes themselves, not the
values built from them, so every refusal names the file, the line and the member
(``prod.yaml:14: topics.Orders.perm: 9 is more than 7``), and it runs before anything is sent.
Only the keywords the schema below uses are understood: ``type``, ``properties``, ``required``,
``additionalProperties``, ``propertyNames``, ``enum``, ``const``, ``minimum``, ``maximum``,
``minLength``, ``pattern``, ``items``, ``minItems``, ``anyOf`` and local ``$ref``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import yaml

__all__ = ["KIND", "MANIFEST_SCHEMA", "SchemaError", "check_document", "scalar_value"]

KIND = "ClusterManifest"

_NAME = {"type": "string", "minLength": 1}
_TEXT_MAP = {"type": "object", "additionalProperties": {"type": ["string", "integer", "number", "boolean"]}}
_BROKERS = {
    "description": "The broker names that hold it; every broker of the cluster when left out.",
    "type": "array",
    "items": _NAME,
    "minItems": 1,
}
_SECRET = {
    "description": "A secret: ${VAR} (text taken from the environment), or where to read it from.",
    "anyOf": [
        {"type": "string"},
        {
            "type": "object",
            "required": ["secretFrom"],
            "additionalProperties": False,
            "properties": {
                "secretFrom": {
                    "type": "object",
                    "additionalProperties": False,
                    "properties": {"env": _NAME, "file": _NAME},
                    "minProperties": 1,
                }
            },
        },
    ],
}

_ACL1_PERM = {"type": "string", "enum": ["DENY", "PUB", "SUB", "PUB|SUB", "SUB|PUB"]}

_TOPIC_FIELDS: dict[str, Any] = {
    "readQueues": {"type": "integer", "minimum": 1, "maximum": 1024},
    "writeQueues": {"type": "integer", "minimum": 1, "maximum": 1024},
    "perm": {"description": "2 read, 4 write, 6 both", "type": "integer", "minimum": 0, "maximum": 7},
    "messageType": {
        "description": "5.x: the topic's message.type attribute.",
        "type": "string",
        "enum": ["UNSPECIFIED", "NORMAL", "FIFO", "DELAY", "TRANSACTION"],
    },
    "attributes": {"description": "5.x topic attributes (queue.type, ...): key to value.", **_TEXT_MAP},
}
_GROUP_FIELDS: dict[str, Any] = {
    "retryQueues": {"type": "integer", "minimum": 0, "maximum": 1024},
    "retryMaxTimes": {"type": "integer", "minimum": -1, "maximum": 65535},
    "broadcast": {"description": "consumeBroadcastEnable", "type": "boolean"},
    "consumeEnable": {"type": "boolean"},
    "consumeFromMinEnable": {"type": "boolean"},
    "orderly": {"description": "5.x: consumeMessageOrderly", "type": "boolean"},
    "consumeTimeoutMinute": {"description": "5.x", "type": "integer", "minimum": 0},
    "brokerId": {"type": "integer", "minimum": 0},
    "whichBrokerWhenConsumeSlowly": {"type": "integer", "minimum": 0},
    "notifyConsumerIdsChangedEnable": {"type": "boolean"},
    "attributes": {"description": "5.x group attributes: key to value.", **_TEXT_MAP},
}


def _resource(fields: dict[str, Any], what: str) -> dict[str, Any]:
    return {
        "description": f"One {what}: the fields given are kept as given; those left out are not looked at "
        "(a new one takes the broker's defaults).",
        "type": ["object", "null"],
        "additionalProperties": False,
        "properties": {
            **fields,
            "brokers": _BROKERS,
            "perBroker": {
                "description": "Fields that differ on some brokers: broker name to fields.",
                "type": "object",
                "additionalProperties": {
                    "type": "object",
                    "additionalProperties": False,
                    "properties": fields,
                },
            },
        },
    }


MANIFEST_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": "urn:mqadmin:schema:v1:manifest",
    "title": "mqadmin manifest: a cluster as code (mqadmin manifest, diff -f, apply -f)",
    "description": "One YAML document per cluster (several in a file, separated by ---; several files or a "
    "folder in one run). Text values may name environment variables as ${VAR} or ${VAR:-default}. "
    "Secrets (passwords) are never written in a manifest: ${VAR} or secretFrom {env|file}.",
    "type": "object",
    "required": ["apiVersion", "kind", "cluster"],
    "additionalProperties": False,
    "properties": {
        "apiVersion": {"const": "mqadmin/v1"},
        "kind": {"const": KIND},
        "cluster": _NAME,
        "mode": {
            "description": "What the cluster was when exported (4.x or 5.x); informational.",
            "type": "string",
            "enum": ["4.x", "5.x", "mixed"],
        },
        "topics": {
            "description": "Topic name to topic.",
            "type": "object",
            "additionalProperties": _resource(_TOPIC_FIELDS, "topic"),
        },
        "groups": {
            "description": "Subscription group name to group.",
            "type": "object",
            "additionalProperties": _resource(_GROUP_FIELDS, "subscription group"),
        },
        "orderConfigs": {
            "description": "The name servers' ORDER_TOPIC_CONFIG: topic to brokerName:queueNums;...",
            "type": "object",
            "additionalProperties": {"type": "string", "pattern": "^[^;:]+:[0-9]+(;[^;:]+:[0-9]+)*;?$"},
        },
        "brokerConfig": {
            "description": "Chosen broker config keys, the same on every broker of the cluster.",
            "type": "object",
            "additionalProperties": {"type": ["string", "integer", "number", "boolean"]},
        },
        "users": {
            "description": "5.x ACL 2.0 users: username to user.",
            "type": "object",
            "additionalProperties": {
                "type": "object",
                "additionalProperties": False,
                "properties": {
                    "password": _SECRET,
                    "userType": {"type": "string", "enum": ["Super", "Normal"]},
                    "userStatus": {"type": "string", "enum": ["enable", "disable"]},
                },
            },
        },
        "acls": {
            "description": "5.x ACL 2.0 policies: subject (User:NAME) to its entries, one per resource.",
            "type": "object",
            "propertyNames": {"pattern": "^User:.+$"},
            "additionalProperties": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["resource", "actions"],
                    "additionalProperties": False,
                    "properties": {
                        "resource": _NAME,
                        "actions": {
                            "type": "array",
                            "minItems": 1,
                            "items": {
                                "enum": ["All", "Pub", "Sub", "Create", "Update", "Delete", "Get", "List"]
                            },
                        },
                        "sourceIps": {"type": "array", "items": _NAME},
                        "decision": {"enum": ["Allow", "Deny"]},
                    },
                },
            },
        },
        "acl1": {
            "description": "ACL 1.0 (plain_acl.yml of 4.x brokers), where the cluster has it on.",
            "type": "object",
            "additionalProperties": False,
            "properties": {
                "globalWhiteAddrs": {"type": "array", "items": _NAME},
                "accounts": {
                    "description": "Access key to account.",
                    "type": "object",
                    "additionalProperties": {
                        "type": "object",
                        "additionalProperties": False,
                        "properties": {
                            "secretKey": _SECRET,
                            "admin": {"type": "boolean"},
                            "whiteRemoteAddress": {"type": "string"},
                            "defaultTopicPerm": _ACL1_PERM,
                            "defaultGroupPerm": _ACL1_PERM,
                            "topicPerms": {"type": "array", "items": _NAME},
                            "groupPerms": {"type": "array", "items": _NAME},
                        },
                    },
                },
            },
        },
    },
}


class SchemaError(Exception):
    """A manifest refused: where (file and line, 1-based) and why."""

    def __init__(self, source: str, line: int, path: str, reason: str) -> None:
        super().__init__(source, line, path, reason)
        self.source = source
        self.line = line
        self.path = path
        self.reason = reason

    def __str__(self) -> str:
        where = f"{self.path}: " if self.path else ""
        return f"{self.source}:{self.line}: {where}{self.reason}"


_TYPES: dict[str, tuple[str, ...]] = {
    "object": ("mapping",),
    "array": ("sequence",),
    "string": ("tag:yaml.org,2002:str",),
    "integer": ("tag:yaml.org,2002:int",),
    "number": ("tag:yaml.org,2002:int", "tag:yaml.org,2002:float"),
    "boolean": ("tag:yaml.org,2002:bool",),
    "null": ("tag:yaml.org,2002:null",),
}
_CONSTRUCTOR = yaml.constructor.SafeConstructor()


def scalar_value(node: yaml.ScalarNode) -> Any:
    """The value of one YAML scalar, as the safe loader reads it."""
    return _CONSTRUCTOR.construct_object(node, deep=True)


def _kind(node: yaml.Node) -> str:
    if isinstance(node, yaml.MappingNode):
        return "mapping"
    if isinstance(node, yaml.SequenceNode):
        return "sequence"
    return node.tag


def _shown(node: yaml.Node) -> str:
    if isinstance(node, yaml.MappingNode):
        return "a mapping"
    if isinstance(node, yaml.SequenceNode):
        return "a list"
    value = node.value
    return repr(value if len(value) <= 40 else value[:37] + "...")


class _Checker:
    def __init__(self, source: str, root: dict[str, Any]) -> None:
        self.source = source
        self.root = root

    def error(self, node: yaml.Node, path: str, reason: str) -> SchemaError:
        return SchemaError(self.source, node.start_mark.line + 1, path, reason)

    def resolve(self, schema: dict[str, Any]) -> dict[str, Any]:
        ref = schema.get("$ref")
        if ref is None:
            return schema
        target: Any = self.root
        for part in ref.removeprefix("#/").split("/"):
            target = target[part]
        return dict(target)

    def errors(self, node: yaml.Node, schema: dict[str, Any], path: str) -> Iterator[SchemaError]:
        """Every refusal of ``node`` by ``schema``, the first one first."""
        schema = self.resolve(schema)
        if "anyOf" in schema:
            branches = [(b, list(self.errors(node, b, path))) for b in schema["anyOf"]]
            if all(errs for _, errs in branches):
                kind = _kind(node)
                typed = [errs for b, errs in branches if kind in _TYPES[b.get("type", "null")]]
                yield (typed or [branches[0][1]])[0][0]
            return
        kind = _kind(node)
        types = schema.get("type")
        if types is not None:
            allowed = [types] if isinstance(types, str) else types
            if not any(kind in _TYPES[t] for t in allowed):
                yield self.error(node, path, f"is {_shown(node)}, not {' or '.join(allowed)}")
                return
        if isinstance(node, yaml.ScalarNode):
            yield from self._scalar(node, schema, path)
        elif isinstance(node, yaml.MappingNode):
            yield from self._mapping(node, schema, path)
        elif isinstance(node, yaml.SequenceNode):
            if len(node.value) < schema.get("minItems", 0):
                yield self.error(node, path, f"needs at least {schema['minItems']} item(s)")
            items = schema.get("items")
            if items is not None:
                for i, item in enumerate(node.value):
                    yield from self.errors(item, items, f"{path}[{i}]")

    def _scalar(self, node: yaml.ScalarNode, schema: dict[str, Any], path: str) -> Iterator[SchemaError]:
        value = scalar_value(node)
        if "const" in schema and value != schema["const"]:
            yield self.error(node, path, f"is {_shown(node)}, must be {schema['const']!r}")
        enum = schema.get("enum")
        if enum is not None and not any(value == e and type(value) is type(e) for e in enum):
            yield self.error(node, path, f"is {_shown(node)}, not one of {', '.join(map(str, enum))}")
        if isinstance(value, int | float) and not isinstance(value, bool):
            if "minimum" in schema and value < schema["minimum"]:
                yield self.error(node, path, f"{value} is less than {schema['minimum']}")
            if "maximum" in schema and value > schema["maximum"]:
                yield self.error(node, path, f"{value} is more than {schema['maximum']}")
        if isinstance(value, str):
            if len(value) < schema.get("minLength", 0):
                yield self.error(node, path, "is empty")
            pattern = schema.get("pattern")
            if pattern is not None and not _compiled(pattern).search(value):
                yield self.error(node, path, f"is {_shown(node)}, which does not match {pattern}")

    def _mapping(self, node: yaml.MappingNode, schema: dict[str, Any], path: str) -> Iterator[SchemaError]:
        props: dict[str, Any] = schema.get("properties", {})
        extra = schema.get("additionalProperties", True)
        names = schema.get("propertyNames")
        seen: dict[str, yaml.Node] = {}
        for key_node, value_node in node.value:
            if not isinstance(key_node, yaml.ScalarNode):
                yield self.error(key_node, path, "a key must be text")
                continue
            key = str(scalar_value(key_node))
            where = f"{path}.{key}" if path else key
            if key in seen:
                first = seen[key].start_mark.line + 1
                yield self.error(key_node, where, f"given twice (first on line {first})")
                continue
            seen[key] = key_node
            if names is not None:
                yield from self.errors(key_node, {"type": "string", **names}, where)
            if key in props:
                yield from self.errors(value_node, props[key], where)
            elif extra is False:
                known = ", ".join(props)
                yield self.error(key_node, where, f"unknown member (known: {known})")
            elif isinstance(extra, dict):
                yield from self.errors(value_node, extra, where)
        for req in schema.get("required", ()):
            if req not in seen:
                yield self.error(node, path, f"{req} is missing")
        if len(seen) < schema.get("minProperties", 0):
            yield self.error(node, path, "is empty")


_PATTERNS: dict[str, re.Pattern[str]] = {}


def _compiled(pattern: str) -> re.Pattern[str]:
    compiled = _PATTERNS.get(pattern)
    if compiled is None:
        compiled = _PATTERNS[pattern] = re.compile(pattern)
    return compiled


def check_document(node: yaml.Node, source: str) -> None:
    """Raise the first :class:`SchemaError` of one YAML document against :data:`MANIFEST_SCHEMA`."""
    for err in _Checker(source, MANIFEST_SCHEMA).errors(node, MANIFEST_SCHEMA, ""):
        raise err
