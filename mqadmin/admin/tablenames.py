"""Names read back from a server's tables that no request may name: which to skip, and why.

A Java broker keeps whatever reached its tables: a subscription group named ``""`` (clients create
it), a name with characters outside ``TopicValidator``'s set, a lone surrogate (a Java broker sends
it as ``?``). Java's own tools never ask about such a name: a request naming it is refused before it
is sent (``Validators.checkGroup``) or by the broker, and they log and go on. Everything here that
walks a table (snapshot, statsAll, consumerProgress, exportMetadata, exportMetrics) filters through
:func:`askable_groups` / :func:`askable_topics` first, so one bad entry is a note, not a failure.

The rules are the ones our requests are checked with (:mod:`mqadmin.protocol.names`): a group must
pass ``check_group``; a topic must not be blank and must use ``TopicValidator``'s characters (its
length is left to the broker, which keeps ``%RETRY%`` topics of up to 255 characters).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from mqadmin.protocol import names

__all__ = [
    "GROUP_NAME_REGEX",
    "SkippedName",
    "askable_groups",
    "askable_topics",
    "group_refusal",
    "topic_refusal",
]

GROUP_NAME_REGEX = rf"\A[%|a-zA-Z0-9_-]{{1,{names.GROUP_MAX_LENGTH}}}\z"
""":func:`group_refusal`'s rule as one regular expression in Java's syntax (Spark's ``rlike``), for a
data frame's rows: ``\\z``, as ``$`` would let a name end with a newline."""


@dataclass(frozen=True, slots=True)
class SkippedName:
    """A name left out of an enumeration: what it names (``group`` or ``topic``) and why."""

    kind: str
    name: str
    reason: str

    def note(self) -> str:
        """One line for a person: the name as a literal (it may be empty or unprintable) and why."""
        return f"{self.kind} {self.name!r} skipped: {self.reason}"


def group_refusal(group: str) -> str | None:
    """Why no request may name ``group`` (Java's ``Validators.checkGroup`` remark), or None."""
    return names.check_group(group)


def topic_refusal(topic: str) -> str | None:
    """Why no request may name ``topic`` (blank, or characters ``TopicValidator`` refuses), or None."""
    if not topic or not topic.strip():
        return "The specified topic is blank."
    if not names.check_topic_or_group_chars(topic):
        return f"The specified topic contains illegal characters, allowing only {names.ALLOWED}"
    return None


def _split(
    kind: str, items: Iterable[str], refusal: Callable[[str], str | None]
) -> tuple[list[str], list[SkippedName]]:
    kept: list[str] = []
    skipped: list[SkippedName] = []
    for name in items:
        why = refusal(name)
        if why is None:
            kept.append(name)
        else:
            skipped.append(SkippedName(kind, name, why))
    return kept, skipped


def askable_groups(groups: Iterable[str]) -> tuple[list[str], list[SkippedName]]:
    """``groups`` in their order, split into the ones a request may name and the ones to skip."""
    return _split("group", groups, group_refusal)


def askable_topics(topics: Iterable[str]) -> tuple[list[str], list[SkippedName]]:
    """``topics`` in their order, split into the ones a request may name and the ones to skip."""
    return _split("topic", topics, topic_refusal)
