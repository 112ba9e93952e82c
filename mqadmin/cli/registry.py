"""Every command the CLI offers, by name: where it lives, its family and its one-line description.

Listing commands (``mqadmin --help``) reads only this table; a command's module is imported when
that command runs, so ``mqadmin topicRoute`` pays for nothing else.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class CommandEntry:
    name: str
    module: str  # dotted path under mqadmin.cli.commands
    family: str
    summary: str


FAMILIES: tuple[str, ...] = ("tools",)

COMMANDS: tuple[CommandEntry, ...] = (
    CommandEntry("demo", "demo", "tools", "Run mqadmin on the embedded default (loopback only)."),
)

BY_NAME: dict[str, CommandEntry] = {c.name: c for c in COMMANDS}
