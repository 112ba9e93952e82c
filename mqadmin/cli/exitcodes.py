"""Exit codes of ``mqadmin``: what a runbook script or a monitor can branch on.

The Java tool exits 0 even when a command fails; we do not.
"""

from __future__ import annotations

from enum import IntEnum

__all__ = ["DESCRIPTIONS", "ExitCode"]


class ExitCode(IntEnum):
    """An exit code, by name."""

    OK = 0
    ERROR = 1
    USAGE = 2
    REMOTE = 3
    UNREACHABLE = 4
    TIMEOUT = 5
    PARTIAL = 6
    NOT_FOUND = 7
    THRESHOLD = 8
    INTERRUPTED = 130


DESCRIPTIONS: dict[ExitCode, str] = {
    ExitCode.OK: "The command did what it was asked.",
    ExitCode.ERROR: "Any other failure: an unknown context, an unusable answer, a question on a "
    "terminal answered no.",
    ExitCode.USAGE: "The command line could not be used (unknown option, missing argument, a bad option "
    "value such as a malformed address, number or name); nothing was sent.",
    ExitCode.REMOTE: "A name server or broker answered with an error code; the code, the remark and the "
    "address are on stderr.",
    ExitCode.UNREACHABLE: "A name server or broker could not be reached (connection refused, no route, "
    "connection closed).",
    ExitCode.TIMEOUT: "A name server or broker did not answer within --timeout.",
    ExitCode.PARTIAL: "A command that asks several servers got some answers but not all; what it got is "
    "printed, each failure is on stderr.",
    ExitCode.NOT_FOUND: "What was asked for does not exist: no such topic, consumer group or message "
    "(the servers answered, none knows it).",
    ExitCode.THRESHOLD: "An alert threshold was crossed: consumerProgress --max-lag N found a group with "
    "more than N messages not consumed, or --stuck-after S a stuck one (messages waiting on a queue whose "
    "consumer position is older than S seconds), or analyze lag --max-lag N / --stuck over its snapshots, "
    "or doctor made a finding of its --fail-on severity or worse; the data is printed as usual, each alert "
    "on stderr.",
    ExitCode.INTERRUPTED: "Interrupted (SIGINT).",
}
