"""RocketMQ's own topics and groups, which the jobs leave out unless asked (``--all``).

Every broker carries them (auto-creation template, delay levels, transactions, traces, per-group
retry and dead-letter topics, the topics named after the cluster and the broker) and the tools'
groups; they would fill the idle and skew reports with noise. The rule follows the Java
``TopicValidator`` and ``MixAll`` lists.
"""

from __future__ import annotations

__all__ = [
    "REPLY_TOPIC_SUFFIX",
    "SYSTEM_GROUPS",
    "SYSTEM_GROUP_PREFIXES",
    "SYSTEM_TOPICS",
    "SYSTEM_TOPIC_PREFIXES",
    "is_system_group",
    "is_system_topic",
]

SYSTEM_TOPICS: frozenset[str] = frozenset(
    {
        "TBW102",
        "SCHEDULE_TOPIC_XXXX",
        "BenchmarkTest",
        "RMQ_SYS_TRANS_HALF_TOPIC",
        "RMQ_SYS_TRACE_TOPIC",
        "RMQ_SYS_TRANS_OP_HALF_TOPIC",
        "TRANS_CHECK_MAX_TIME_TOPIC",
        "SELF_TEST_TOPIC",
        "OFFSET_MOVED_EVENT",
        "DefaultHeartBeatSyncerTopic",
    }
)
SYSTEM_TOPIC_PREFIXES: tuple[str, ...] = ("rmq_sys_", "%RETRY%", "%DLQ%", "%LMQ%", "%SYS%")
REPLY_TOPIC_SUFFIX = "_REPLY_TOPIC"
"""A broker creates ``<cluster>_REPLY_TOPIC`` for request-reply messaging."""

SYSTEM_GROUPS: frozenset[str] = frozenset(
    {
        "TOOLS_CONSUMER",
        "FILTERSRV_CONSUMER",
        "SELF_TEST_C_GROUP",
        "CID_ONS-HTTP-PROXY",
        "CID_ONSAPI_PULL",
        "CID_ONSAPI_PERMISSION",
        "CID_ONSAPI_OWNER",
        "CID_SYS_RMQ_TRANS",
        "",
    }
)
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
    return group in SYSTEM_GROUPS or group.startswith(SYSTEM_GROUP_PREFIXES)
