"""Names that arrive from outside (topic, group, cluster, broker, KV namespace and key), checked once.

The rules are Java's: ``TopicValidator`` for topics (``^[%|a-zA-Z0-9_-]+$``, at most 127 chars),
the client ``Validators.checkGroup`` for groups (same characters, at most 255). Java leaves cluster
and broker names and KV keys free; we add what keeps a name harmless when it becomes a path, a file,
a log line or a JSON key: printable, no lone surrogate, no NUL or other control character, no path
separator in a name that becomes a file name. Each check returns Java's remark, or None when the
name is good, so a server can answer with it and a CLI can print it.
"""

from __future__ import annotations

import re

__all__ = [
    "DLQ_GROUP_TOPIC_PREFIX",
    "GROUP_MAX_LENGTH",
    "NAME_MAX_LENGTH",
    "NOT_ALLOWED_SEND_TOPICS",
    "QUEUE_NUMS_MAX",
    "RETRY_GROUP_TOPIC_PREFIX",
    "RETRY_TOPIC_MAX_LENGTH",
    "SYSTEM_GROUPS",
    "SYSTEM_TOPICS",
    "TOPIC_MAX_LENGTH",
    "bad_text",
    "check_consumed_topic",
    "check_consumed_topic_or_blank",
    "check_group",
    "check_kv_key",
    "check_kv_namespace",
    "check_name",
    "check_topic",
    "check_topic_or_group_chars",
    "is_not_allowed_send_topic",
    "is_system_group",
    "is_system_topic",
    "leaves_directory",
]

TOPIC_MAX_LENGTH = 127
"""``TopicValidator.TOPIC_MAX_LENGTH``."""
RETRY_TOPIC_MAX_LENGTH = 255
"""``HookUtils.MAX_TOPIC_LENGTH`` (5.3.3): a ``%RETRY%`` topic may be this long, any other topic 127."""
QUEUE_NUMS_MAX = 1024
"""The most queues a topic (or a group's retry topic) may ask for. Java sets no limit; every queue is
listed in stats and offered to rebalancing, so a huge count only costs (1024 is the largest queue
count Java itself creates, for ``BenchmarkTest``)."""
GROUP_MAX_LENGTH = 255
"""``Validators.CHARACTER_MAX_LENGTH``: the longest group name Java creates."""
NAME_MAX_LENGTH = 255
"""Our limit for cluster and broker names (Java has none; a file name holds 255 bytes)."""
KV_MAX_LENGTH = 4096
"""Our limit for a KV namespace or key."""

RETRY_GROUP_TOPIC_PREFIX = "%RETRY%"
DLQ_GROUP_TOPIC_PREFIX = "%DLQ%"
SYSTEM_TOPIC_PREFIX = "rmq_sys_"

SYSTEM_TOPICS = frozenset(
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
        "CHECKPOINT_TOPIC",
    }
)
"""``TopicValidator.SYSTEM_TOPIC_SET`` of 5.3.3 (plus anything starting ``rmq_sys_``)."""

NOT_ALLOWED_SEND_TOPICS = frozenset(
    {
        "SCHEDULE_TOPIC_XXXX",
        "RMQ_SYS_TRANS_HALF_TOPIC",
        "RMQ_SYS_TRANS_OP_HALF_TOPIC",
        "TRANS_CHECK_MAX_TIME_TOPIC",
        "SELF_TEST_TOPIC",
        "OFFSET_MOVED_EVENT",
    }
)
"""``TopicValidator.NOT_ALLOWED_SEND_TOPIC_SET``."""

_TOPIC_CHARSET = "%|abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-"
"""The characters of ``ALLOWED``: a name made only of them strips to nothing (no regex needed)."""
ALLOWED = "^[%|a-zA-Z0-9_-]+$"
# C0/C1 controls, DEL, lone surrogates, and the non-characters U+FFFE/U+FFFF
_BAD_TEXT = re.compile(r"[\x00-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff]")
_SURROGATE_OR_NUL = re.compile(r"[\x00\ud800-\udfff]")


def bad_text(s: str, *, controls: bool = False) -> str | None:
    """Why ``s`` cannot be kept (a lone surrogate or NUL; any control char when ``controls``), or None.

    A lone surrogate cannot be written as UTF-8 and a NUL cannot be part of a path: text with
    either is refused wherever it arrives, before it can become state.
    """
    if s.isascii() and ("\x00" not in s if not controls else s.isprintable()):
        return None  # the common case, without a regex: printable ASCII holds none of them
    m = (_BAD_TEXT if controls else _SURROGATE_OR_NUL).search(s)
    if m is None:
        return None
    c = ord(m.group())
    if 0xD800 <= c <= 0xDFFF:
        return f"contains a lone surrogate (U+{c:04X})"
    if c == 0:
        return "contains a NUL character"
    return f"contains a control character (U+{c:04X})"


def leaves_directory(name: str) -> bool:
    """Whether ``name``, used as one level of a path, would name no file of its own directory:
    empty, ``.``, ``..``, or holding a path separator."""
    return name in ("", ".", "..") or "/" in name or "\\" in name


def _blank(s: str | None) -> bool:
    """``UtilAll.isBlank``: null, empty or only whitespace."""
    return s is None or not s.strip()


def check_topic_or_group_chars(s: str) -> bool:
    """``!TopicValidator.isTopicOrGroupIllegal``: only ``%|a-zA-Z0-9_-`` (and not empty)."""
    return s != "" and not s.strip(_TOPIC_CHARSET)


def check_topic(topic: str | None) -> str | None:
    """``TopicValidator.validateTopic`` of 5.3.3: its remark, or None for a good topic."""
    if topic is None or _blank(topic):
        return "The specified topic is blank."
    if not check_topic_or_group_chars(topic):
        return f"The specified topic contains illegal characters, allowing only {ALLOWED}"
    if len(topic) > TOPIC_MAX_LENGTH:
        return "The specified topic is longer than topic max length."
    return None


def is_system_topic(topic: str) -> bool:
    """``TopicValidator.isSystemTopic``."""
    return topic in SYSTEM_TOPICS or topic.startswith(SYSTEM_TOPIC_PREFIX)


SYSTEM_GROUPS = frozenset(
    {
        "DEFAULT_CONSUMER",
        "DEFAULT_PRODUCER",
        "TOOLS_CONSUMER",
        "SCHEDULE_CONSUMER",
        "FILTERSRV_CONSUMER",
        "__MONITOR_CONSUMER",
        "CLIENT_INNER_PRODUCER",
        "SELF_TEST_P_GROUP",
        "SELF_TEST_C_GROUP",
        "CID_ONS-HTTP-PROXY",
        "CID_ONSAPI_PERMISSION",
        "CID_ONSAPI_OWNER",
        "CID_ONSAPI_PULL",
        "CID_RMQ_SYS_TRANS",
    }
)
"""``MixAll.isSysConsumerGroup``'s predefined names (5.3.3)."""


def is_system_group(group: str) -> bool:
    """Groups ``getUserSubscriptionGroup`` leaves out."""
    return group.startswith("CID_RMQ_SYS_") or group in SYSTEM_GROUPS


def is_not_allowed_send_topic(topic: str) -> bool:
    """``TopicValidator.isNotAllowedSendTopic``."""
    return topic in NOT_ALLOWED_SEND_TOPICS


def check_group(group: str | None) -> str | None:
    """``Validators.checkGroup``: blank, longer than 255, or characters outside ``%|a-zA-Z0-9_-``."""
    if group is None or _blank(group):
        return "the specified group is blank"
    if len(group) > GROUP_MAX_LENGTH:
        return f"the specified group is longer than group max length {GROUP_MAX_LENGTH}."
    if not check_topic_or_group_chars(group):
        return f"the specified group[{group}] contains illegal characters, allowing only {ALLOWED}"
    return None


def check_consumed_topic(topic: str | None) -> str | None:
    """``TopicValidator.validateTopic``, or the ``%RETRY%``/``%DLQ%`` topic of a legal group.

    Java creates a group's retry and dead-letter topics whatever the group's length (up to 255),
    so a consumer of a long group commits and reads offsets on a topic longer than 127 characters.
    """
    if topic is not None:
        for prefix in (RETRY_GROUP_TOPIC_PREFIX, DLQ_GROUP_TOPIC_PREFIX):
            if topic.startswith(prefix) and check_group(topic[len(prefix) :]) is None:
                return None
    return check_topic(topic)


def check_consumed_topic_or_blank(topic: str | None) -> str | None:
    """Blank (Java's "every topic of the group") or :func:`check_consumed_topic`."""
    return None if topic is None or not topic.strip() else check_consumed_topic(topic)


def check_name(kind: str, name: str | None) -> str | None:
    """A cluster or broker name (``kind`` says which, for the remark): printable, no ``/``, 1..255 chars.

    Java takes any string here; these names end up in file names, JSON keys and log lines, so
    we refuse the ones that could not be stored or that would escape a directory.
    """
    if name is None or _blank(name):
        return f"the {kind} name is blank"
    if len(name) > NAME_MAX_LENGTH:
        return f"the {kind} name is longer than {NAME_MAX_LENGTH}"
    why = bad_text(name, controls=True)
    if why is not None:
        return f"the {kind} name {why}"
    if leaves_directory(name):
        return f"the {kind} name [{name}] is not a valid file name"
    return None


def _check_kv(kind: str, s: str | None) -> str | None:
    if s is None:
        return f"the KV {kind} is null"
    if len(s) > KV_MAX_LENGTH:
        return f"the KV {kind} is longer than {KV_MAX_LENGTH}"
    why = bad_text(s)
    return None if why is None else f"the KV {kind} {why}"


def check_kv_namespace(namespace: str | None) -> str | None:
    """A KV config namespace: any text Java stores (no lone surrogate, no NUL), at most 4096 chars."""
    return _check_kv("namespace", namespace)


def check_kv_key(key: str | None) -> str | None:
    """A KV config key: as for namespaces."""
    return _check_kv("key", key)
