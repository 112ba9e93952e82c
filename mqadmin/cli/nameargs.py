"""Option values that name something (a group, a topic) or say true/false, checked before any request.

Shared by the command families; a bad value is a usage error (exit 2, one line) and nothing is sent.
"""

from __future__ import annotations

from mqadmin.cli.errors import CommandError
from mqadmin.cli.exitcodes import ExitCode
from mqadmin.protocol import javanum, names

__all__ = ["group_arg", "send_topic_arg", "strict_bool", "topic_arg"]


def strict_bool(value: str, option: str) -> bool:
    """A true/false option of updateSubGroup and deleteSubGroup: ``true`` or ``false`` in any case.

    Java reads these with ``Boolean.parseBoolean``, which turns anything that is not ``true`` into
    false: ``-o maybe``, ``-s yes`` or ``-r 1`` silently mean false and the group is created or
    kept with the opposite of what the operator probably meant. We refuse such a value instead
    (a usage error, nothing sent): an operator retypes one word, and a runbook with a typo fails
    loudly rather than changing a group the wrong way.
    """
    text = value.strip()
    if text.lower() not in ("true", "false"):
        raise CommandError(f"{option} takes true or false, not {value!r}", ExitCode.USAGE)
    return javanum.parse_bool(text)


def group_arg(text: str, option: str = "-g") -> str:
    """A group name with Java's rules (``Validators.checkGroup``); a bad one is a usage error."""
    group = text.strip()
    why = names.check_group(group)
    if why is not None:
        raise CommandError(f"{option}: {why}", ExitCode.USAGE)
    return group


def topic_arg(text: str, option: str = "-t") -> str:
    """A topic a consumer reads (``TopicValidator``, or a legal group's retry/DLQ topic); else exit 2."""
    topic = text.strip()
    why = names.check_consumed_topic(topic)
    if why is not None:
        raise CommandError(f"{option}: {why}", ExitCode.USAGE)
    return topic


def send_topic_arg(text: str, option: str = "-t") -> str:
    """A topic to send to: ``TopicValidator``'s rules and not a topic Java forbids sending to."""
    topic = text.strip()
    why = names.check_topic(topic)
    if why is None and names.is_not_allowed_send_topic(topic):
        why = f"Sending message to topic[{topic}] is forbidden."
    if why is not None:
        raise CommandError(f"{option}: {why}", ExitCode.USAGE)
    return topic
