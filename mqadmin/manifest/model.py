"""What a manifest declares for one cluster, as values the diff compares.

A topic or a group is a :class:`Declared`: the fields the manifest gives (``readQueues``, ``retryMaxTimes``,
``attr:message.type`` for an attribute), the brokers that hold it (None: every broker of the cluster),
and fields that differ on some brokers. Fields a manifest leaves out are not looked at: a manifest
manages what it says, as ``kubectl apply`` does. Users, ACL entries, order configs and broker config
keys are simpler values. :class:`ClusterManifest` is one cluster's declarations, several documents of
one cluster merged, each resource remembering where it was declared (``file:line``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = [
    "ATTR",
    "FIVE_X_GROUP_FIELDS",
    "Acl1Account",
    "AclEntry",
    "ClusterManifest",
    "Declared",
    "UserSpec",
    "group_fields_of",
    "topic_fields_of",
]

ATTR = "attr:"
"""Prefix of a 5.x attribute among a resource's fields (``attr:message.type``)."""

FIVE_X_GROUP_FIELDS = frozenset({"orderly", "consumeTimeoutMinute"})
"""Group fields only 5.x brokers keep (the attributes too)."""

TOPIC_FIELDS: dict[str, str] = {
    "readQueues": "read_queue_nums",
    "writeQueues": "write_queue_nums",
    "perm": "perm",
}
"""Manifest field -> ``TopicConfig`` attribute."""

GROUP_FIELDS: dict[str, str] = {
    "retryQueues": "retry_queue_nums",
    "retryMaxTimes": "retry_max_times",
    "broadcast": "consume_broadcast_enable",
    "consumeEnable": "consume_enable",
    "consumeFromMinEnable": "consume_from_min_enable",
    "orderly": "consume_message_orderly",
    "consumeTimeoutMinute": "consume_timeout_minute",
    "brokerId": "broker_id",
    "whichBrokerWhenConsumeSlowly": "which_broker_when_consume_slowly",
    "notifyConsumerIdsChangedEnable": "notify_consumer_ids_changed_enable",
}
"""Manifest field -> ``SubscriptionGroupConfig`` attribute."""


def _with_attributes(out: dict[str, Any], attributes: Mapping[str, str] | None) -> dict[str, Any]:
    for k, v in sorted((attributes or {}).items()):
        out[ATTR + k.removeprefix("+")] = v
    return out


def topic_fields_of(config: Any) -> dict[str, Any]:
    """The manifest fields of a broker's ``TopicConfig``."""
    out = {k: getattr(config, a) for k, a in TOPIC_FIELDS.items()}
    return _with_attributes(out, config.attributes)


def group_fields_of(config: Any) -> dict[str, Any]:
    """The manifest fields of a broker's ``SubscriptionGroupConfig`` (5.x ones only when it has them)."""
    out = {k: getattr(config, a) for k, a in GROUP_FIELDS.items() if getattr(config, a) is not None}
    return _with_attributes(out, config.attributes)


@dataclass(frozen=True, slots=True)
class Declared:
    """A topic or a subscription group as declared."""

    name: str
    fields: Mapping[str, Any]
    brokers: tuple[str, ...] | None = None
    per_broker: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    origin: str = ""

    def on(self, broker: str) -> dict[str, Any]:
        """The fields wanted on one broker."""
        return {**self.fields, **self.per_broker.get(broker, {})}


@dataclass(frozen=True, slots=True)
class UserSpec:
    """An ACL 2.0 user; ``password`` is the secret as resolved (None: not managed)."""

    name: str
    password: str | None = None
    user_type: str | None = None
    user_status: str | None = None
    origin: str = ""


@dataclass(frozen=True, slots=True)
class AclEntry:
    """One entry of a subject's ACL 2.0 policy: one resource, its actions, addresses, decision."""

    subject: str
    resource: str
    actions: tuple[str, ...]
    source_ips: tuple[str, ...] = ()
    decision: str = "Allow"
    origin: str = ""

    def key(self) -> tuple[str, str]:
        return (self.subject, self.resource)

    def same(self, other: AclEntry) -> bool:
        """Equal as a broker keeps them: actions and addresses as sets, the decision by name."""
        return (
            {a.lower() for a in self.actions} == {a.lower() for a in other.actions}
            and set(self.source_ips) == set(other.source_ips)
            and self.decision.lower() == other.decision.lower()
        )


@dataclass(frozen=True, slots=True)
class Acl1Account:
    """An ACL 1.0 account: the managed fields (``admin``, ``topicPerms``, ...) and its secret key."""

    access_key: str
    fields: Mapping[str, Any]
    secret_key: str | None = None
    origin: str = ""


@dataclass(slots=True)
class ClusterManifest:
    """Everything declared for one cluster (documents of the same cluster merged)."""

    cluster: str
    topics: dict[str, Declared] = field(default_factory=dict)
    groups: dict[str, Declared] = field(default_factory=dict)
    order_configs: dict[str, str] = field(default_factory=dict)
    broker_config: dict[str, str] = field(default_factory=dict)
    users: dict[str, UserSpec] = field(default_factory=dict)
    acls: dict[tuple[str, str], AclEntry] = field(default_factory=dict)
    acl1_white: list[str] | None = None
    """ACL 1.0 global white addresses (None: not managed)."""
    acl1_accounts: dict[str, Acl1Account] = field(default_factory=dict)
    origins: dict[tuple[str, str], str] = field(default_factory=dict)
    """(section, name) -> where it was declared, for the refusal of a second declaration."""
