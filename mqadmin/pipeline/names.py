"""RocketMQ's own topics and groups, which the jobs leave out unless asked (``--all``).

Every broker carries them (auto-creation template, delay levels, transactions, traces, per-group
retry and dead-letter topics, the topics named after the cluster and the broker) and the tools'
groups; they would fill the idle and skew reports with noise. The rule follows the Java
``TopicValidator`` and ``MixAll`` lists; the fixed topic names are ``TopicValidator``'s set, kept
in :mod:`mqadmin.admin.topics`.
"""

from __future__ import annotations

from mqadmin.admin.topics import DLQ_PREFIX, RETRY_PREFIX, SYSTEM_TOPICS
from mqadmin.protocol.names import SYSTEM_GROUPS as MIXALL_SYSTEM_GROUPS
from mqadmin.protocol.names import is_system_group as is_mixall_system_group

__all__ = [
    "REPLY_TOPIC_SUFFIX",
    "SYSTEM_GROUPS",
    "SYSTEM_GROUP_PREFIXES",
    "SYSTEM_TOPICS",
    "SYSTEM_TOPIC_PREFIXES",
    "is_system_group",
    "is_system_topic",
]

SYSTEM_TOPIC_PREFIXES: tuple[str, ...] = ("rmq_sys_", RETRY_PREFIX, DLQ_PREFIX, "%LMQ%", "%SYS%")
REPLY_TOPIC_SUFFIX = "_REPLY_TOPIC"
"""A broker creates ``<cluster>_REPLY_TOPIC`` for request-reply messaging."""

SYSTEM_GROUPS: frozenset[str] = MIXALL_SYSTEM_GROUPS | {""}
"""``MixAll``'s system consumer groups (kept in :mod:`mqadmin.admin.brokers`), and the empty name."""
SYSTEM_GROUP_PREFIXES: tuple[str, ...] = ("CID_RMQ_SYS_",)


def is_system_topic(
    topic: str, clusters: frozenset[str] = frozenset(), brokers: frozenset[str] = frozenset()
) -> bool:
    """A topic RocketMQ itself keeps, given the cluster and broker names (topics are named after them)."""
    return (
        topic in SYSTEM_TOPICS
        or topic.startswith(SYSTEM_TOPIC_PREFIXES)
        or topic in clusters
        or topic in brokers
        or (topic.endswith(REPLY_TOPIC_SUFFIX) and topic[: -len(REPLY_TOPIC_SUFFIX)] in clusters)
    )


def is_system_group(group: str) -> bool:
    """``MixAll.isSysConsumerGroup``, and a group without a name."""
    return group == "" or is_mixall_system_group(group)
