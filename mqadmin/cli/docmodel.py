"""The command line as data, read from the click definitions, for the completions and the man page.

Every registered command is loaded (this is a build-time tool, import cost does not matter here)
and described as a tree of :class:`CmdSpec`: name, one-line description, options and, for groups
such as ``context``, sub-commands.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import click

from mqadmin.cli.app import load_command
from mqadmin.cli.clickcommand import JavaCommand
from mqadmin.cli.common import common_options
from mqadmin.cli.registry import COMMANDS

__all__ = ["CmdSpec", "OptSpec", "common_specs", "load_specs"]


@dataclass(frozen=True, slots=True)
class OptSpec:
    shorts: tuple[str, ...]
    """``-t`` style names."""
    longs: tuple[str, ...]
    """``--topic`` style names (both halves of a ``--tls/--no-tls`` pair)."""
    takes_value: bool
    help: str
    metavar: str = ""
    choices: tuple[str, ...] = ()
    required: bool = False

    @property
    def names(self) -> tuple[str, ...]:
        """Names a shell can offer as one word (a few Java long names contain a space)."""
        return self.shorts + tuple(n for n in self.longs if " " not in n)


@dataclass(slots=True)
class CmdSpec:
    name: str
    summary: str
    family: str
    options: list[OptSpec] = field(default_factory=list)
    arguments: list[str] = field(default_factory=list)
    subcommands: list[CmdSpec] = field(default_factory=list)
    java: JavaCommand | None = None


def _opt_spec(p: click.Option) -> OptSpec:
    names = [*p.opts, *p.secondary_opts]
    shorts = tuple(n for n in names if len(n) == 2 and n[0] == "-" and n[1] != "-")
    longs = tuple(n for n in names if n.startswith("--"))
    choices = tuple(str(c) for c in p.type.choices) if isinstance(p.type, click.Choice) else ()
    metavar = p.metavar or ""
    return OptSpec(shorts, longs, not p.is_flag, p.help or "", metavar, choices, bool(p.required))


def _help_spec() -> OptSpec:
    return OptSpec(("-h",), ("--help",), False, "Print help")


def _spec(cmd: click.Command, entry_family: str, summary: str | None = None) -> CmdSpec:
    spec = CmdSpec(
        name=cmd.name or "",
        summary=summary or cmd.get_short_help_str(limit=200),
        family=entry_family,
        java=cmd if isinstance(cmd, JavaCommand) else None,
    )
    spec.options.append(_help_spec())
    for p in cmd.params:
        if isinstance(p, click.Option) and not p.hidden:
            spec.options.append(_opt_spec(p))
        elif isinstance(p, click.Argument):
            spec.arguments.append(p.human_readable_name)
    if isinstance(cmd, click.Group):
        for name in cmd.list_commands(click.Context(cmd)):
            sub = cmd.get_command(click.Context(cmd), name)
            if sub is not None and not sub.hidden:
                spec.subcommands.append(_spec(sub, entry_family))
    return spec


def load_specs() -> list[CmdSpec]:
    """Every registered command, in registry order."""
    return [_spec(load_command(e), e.family, e.summary) for e in COMMANDS]


def common_specs() -> list[OptSpec]:
    """The options the group itself takes (before the command name)."""
    return [_opt_spec(p) for p in common_options()] + [
        OptSpec((), ("--version",), False, "Print the version and exit."),
        _help_spec(),
    ]
