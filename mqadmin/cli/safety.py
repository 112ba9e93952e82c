"""The safety net of the destructive commands: ``--dry-run``, and a question on a terminal.

``--dry-run`` shows what the command would change, server by server, and changes nothing. On a
terminal (stdin and stdout both TTYs) the command shows the same plan on stderr and asks before it
acts, unless ``--yes``. Without a terminal (a script, cron, a pipe) it acts at once, as the Java tool
does, so runbooks keep working.
"""

from __future__ import annotations

import sys
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from mqadmin.cli.command import Invocation
from mqadmin.cli.common import OurOpt
from mqadmin.cli.errors import CommandError
from mqadmin.cli.exitcodes import ExitCode
from mqadmin.cli.results import Result

__all__ = [
    "Plan",
    "Step",
    "answers",
    "confirm",
    "failed",
    "not_found",
    "on_terminal",
    "plan_shown",
    "probe",
    "safety_options",
    "setting_step",
    "show_plan",
]


def safety_options() -> list[OurOpt]:
    """``--yes`` and ``--dry-run``."""
    return [
        OurOpt(
            ("--yes",),
            "yes",
            "Do not ask on a terminal (without a terminal the command never asks).",
            kind="flag",
        ),
        OurOpt(
            ("--dry-run",),
            "dry_run",
            "Show what would change, server by server; change nothing.",
            kind="flag",
        ),
    ]


@dataclass(slots=True)
class Step:
    """What the command would do on one server (``role``: ``broker`` or ``name server``), or why it
    would do nothing there (``changes`` False: the topic is not on that broker)."""

    role: str
    addr: str
    what: str
    changes: bool = True

    def line(self) -> str:
        return f"  {self.role} {self.addr}: {self.what}\n"

    def as_json(self) -> dict[str, Any]:
        role = "nameServer" if self.role == "name server" else self.role
        return {"role": role, "addr": self.addr, "action": self.what, "changes": self.changes}


def on_terminal() -> bool:
    """A person at a terminal: both stdin and stdout are TTYs (a pipe on either side is a script)."""
    try:
        return sys.stdin.isatty() and sys.stdout.isatty()
    except (AttributeError, ValueError):
        return False


def plan_shown(dry_run: bool, yes: bool) -> bool:
    """Whether the command shows its plan: ``--dry-run``, or a terminal that will be asked. Only
    then are the servers read for it, so a script sends the Java tool's requests and nothing else."""
    return dry_run or (not yes and on_terminal())


def plan_text(title: str, steps: list[Step]) -> str:
    return title + "\n" + "".join(s.line() for s in steps)


@dataclass(slots=True)
class Plan(Result):
    """The ``--dry-run`` answer: the plan as text, or the command's ``doc`` with ``dryRun`` and the
    ``plan``."""

    title: str
    steps: list[Step]
    doc: dict[str, Any]

    def text(self) -> str:
        return plan_text(f"dry run, nothing changed: {self.title}", self.steps)

    def data(self) -> dict[str, Any]:
        return {**self.doc, "dryRun": True, "plan": [s.as_json() for s in self.steps]}


def show_plan(inv: Invocation, title: str, steps: list[Step], doc: dict[str, Any]) -> None:
    """Write the ``--dry-run`` :class:`Plan`."""
    inv.out.emit(Plan(title, steps, doc))


def confirm(title: str, steps: list[Step], yes: bool) -> None:
    """On a terminal, unless ``--yes``: show the plan on stderr and ask; a no changes nothing (exit 1)."""
    if yes or not on_terminal():
        return
    import click

    click.echo(plan_text(title, steps), err=True, nl=False)
    try:
        agreed = click.confirm("Go ahead?", default=False, err=True)
    except click.Abort:  # Ctrl-D or Ctrl-C at the question
        agreed = False
    if not agreed:
        raise CommandError("nothing was changed (not confirmed; --yes skips the question)", ExitCode.ERROR)


async def probe(inv: Invocation, addrs: list[str], call: Callable[[str], Awaitable[Any]]) -> dict[str, Any]:
    """``call(addr)`` on every address at once, for the plan: the answer, or the failure itself
    (not reported: the command's own request to that server will be, or the plan says it)."""
    return answers(await inv.admin.core.fan_out(addrs, call, deadline=inv.deadline))


def answers(result: Any) -> dict[str, Any]:
    """A fan-out's answer or failure per server, in the order asked (what :func:`probe` returns)."""
    return {a: result.results[a] if a in result.results else result.errors[a] for a in result.order}


def failed(value: Any) -> bool:
    return isinstance(value, BaseException)


def unknown(inv: Invocation, value: BaseException) -> str:
    """A plan's words for a server that could not be asked."""
    from mqadmin.cli.errors import describe

    return f"cannot tell ({describe(value, inv.settings_if_resolved).message})"


def setting_step(inv: Invocation, role: str, addr: str, settings: Any, key: str, value: str) -> Step:
    """One server's part of a settings update: the value of ``key`` now (``settings``, as
    :func:`probe` answered) and the one it would get."""
    if failed(settings):
        return Step(role, addr, unknown(inv, settings))
    if key not in settings:
        return Step(role, addr, f"{key} is not one of its settings; it would be set to {value}")
    if settings[key] == value:
        return Step(role, addr, f"{key} is {value} already", changes=False)
    return Step(role, addr, f"{key}: {settings[key]} -> {value}")


def on_any(addrs: list[str]) -> str:
    """The brokers asked, as the end of a line saying none of them has the thing."""
    return addrs[0] if len(addrs) == 1 else f"any of the {len(addrs)} brokers asked"


def not_found(inv: Invocation, message: str) -> ExitCode:
    """Say on stderr that what was to be deleted does not exist; the exit code that says so (7)."""
    inv.say(message)
    return ExitCode.NOT_FOUND
