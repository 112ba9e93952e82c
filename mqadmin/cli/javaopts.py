"""Java ``mqadmin`` options as data: short letter, long name, wording, argument, required, group.

Each command declares its options once, in the order the Java sub-command adds them; the click
parameters, the Java-style help, the completions and the man page are all made from that list.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["HELP", "NAMESRV", "JavaOpt", "group_refusal"]


@dataclass(slots=True, frozen=True)
class JavaOpt:
    """One commons-cli ``Option`` of a Java sub-command.

    ``group``: options sharing a group name form a commons-cli ``OptionGroup`` (shown as
    ``-b <arg> | -c <arg>``). ``dest``: the Python parameter name; defaults to the long name without
    trailing blanks. ``enforced``: False for a ``required`` option that we do not require (the help
    still says Java's words).
    """

    short: str | None
    long: str
    desc: str
    has_arg: bool = True
    required: bool = False
    group: str | None = None
    group_required: bool = False
    dest: str | None = None
    enforced: bool = True

    @property
    def must_be_given(self) -> bool:
        return self.required and self.enforced

    @property
    def key(self) -> str:
        """commons-cli's option key: the short name, else the long name."""
        return self.short or self.long

    @property
    def param(self) -> str:
        return self.dest or self.long.strip()

    @property
    def flags(self) -> list[str]:
        """How it is typed: ``-t`` and ``--topic`` (Java's long name, trailing blanks dropped)."""
        out = []
        if self.short:
            out.append(f"-{self.short}")
        out.append(f"--{self.long.strip()}")
        return out


HELP = JavaOpt("h", "help", "Print help", has_arg=False)
NAMESRV = JavaOpt(
    "n",
    "namesrvAddr",
    "Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876'",
    dest="namesrv",
)


def group_refusal(opts: Sequence[JavaOpt], params: Mapping[str, Any]) -> str | None:
    """What commons-cli says of the options' groups as given (two of one group, or none of a required
    group), or None when they are right."""
    groups: dict[str, list[JavaOpt]] = {}
    for o in opts:
        if o.group:
            groups.setdefault(o.group, []).append(o)
    for members in groups.values():
        given = [o for o in members if params.get(o.param) not in (None, False)]
        if len(given) > 1:
            return (
                f"The option '{given[1].key}' was specified but an option from this group has already "
                f"been selected: '{given[0].key}'"
            )
        if not given and members[0].group_required:
            names = ", ".join(f"-{o.short}" if o.short else f"--{o.long}" for o in members)
            return f"Missing required option: one of {names}"
    return None
