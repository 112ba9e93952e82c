"""Java ``mqadmin`` options as data: short letter, long name, wording, argument, required, group.

Each command declares its options once, in the order the Java sub-command adds them; the click
parameters, the Java-style help, the completions and the man page are all made from that list.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["HELP", "NAMESRV", "JavaOpt"]


@dataclass(frozen=True, slots=True)
class JavaOpt:
    """One commons-cli ``Option`` of a Java sub-command."""

    short: str | None
    long: str
    desc: str
    has_arg: bool = True
    required: bool = False
    group: str | None = None
    """Options sharing a group name form a commons-cli ``OptionGroup`` (shown as ``-b <arg> | -c <arg>``)."""
    group_required: bool = False
    dest: str | None = None
    """The Python parameter name; defaults to the long name without trailing blanks."""

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
