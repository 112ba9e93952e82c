"""One change on each of some brokers, planned first: the commands whose ``--dry-run`` plan is a line
per broker saying what it would do there, from what the broker holds now (createUser, updateAcl,
updateAclConfig, updateGlobalWhiteAddr, ...; the plan itself is :mod:`mqadmin.cli.safety`'s), and
the batch commands' plan, a line per broker and config (updateTopicList, updateSubGroupList).

The brokers are read for the plan only when it is shown (``--dry-run``, or a terminal about to be
asked), so a script sends the Java tool's requests and nothing else. A secret given on the command
line never appears in a plan: it is :data:`MASK` there, in text and JSON.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Any, TypeVar

from mqadmin.cli.brokertargets import change_each
from mqadmin.cli.command import Invocation
from mqadmin.cli.safety import Step, confirm, failed, plan_shown, probe, show_plan, unknown

T = TypeVar("T")
C = TypeVar("C")

__all__ = ["MASK", "masked", "planned_batch", "planned_change"]

MASK = "******"
"""What a plan shows for a password or secret key (the same whatever its length)."""


def masked(secret: str | None) -> str | None:
    """:data:`MASK` for a secret that is given, None for none."""
    return None if secret is None else MASK


async def planned_change(
    inv: Invocation,
    addrs: list[str],
    *,
    look: Callable[[str], Awaitable[T]],
    step: Callable[[str, T], Step],
    what: str,
    title: str,
    data: dict[str, Any],
    planned: dict[str, Any] | None = None,
    dry_run: bool,
    yes: bool,
    call: Callable[[str], Awaitable[Any]],
    line: str,
    tail: str = "",
) -> None:
    """``call`` on every broker of ``addrs`` at once (``line % addr`` per success, ``data`` with the
    brokers' rows as the document), after the plan where it is shown: ``look(addr)`` read on every
    broker, ``step(addr, answer)`` the plan's line for it (where the read fails: ``what``, and why the
    rest cannot be told); the plan's document is ``data`` with ``planned`` and the brokers asked."""
    if plan_shown(dry_run, yes):
        found = await probe(inv, addrs, look)
        steps = [
            Step("broker", a, f"{what}; {unknown(inv, v)}") if failed(v) else step(a, v)
            for a, v in found.items()
        ]
        if dry_run:
            rows = [{"addr": a, "ok": None} for a in addrs]
            show_plan(inv, title, steps, {**data, **(planned or {}), "brokers": rows})
            return
        confirm(title, steps, yes)
    await change_each(inv, addrs, call, line, data, tail)


async def planned_batch(
    inv: Invocation,
    addrs: list[str],
    configs: Sequence[C],
    *,
    look: Callable[[str], Awaitable[T]],
    step: Callable[[str, C, T | BaseException], Step],
    title: str,
    doc: dict[str, Any],
    dry_run: bool,
    yes: bool,
) -> bool:
    """The plan of a batch of ``configs`` sent to every broker of ``addrs``, where it is shown: each
    broker's table read once (``look``), ``step(addr, config, table)`` a line per broker and config;
    ``doc`` is the dry run's document. True after a dry run: nothing is to be sent."""
    if not plan_shown(dry_run, yes):
        return False
    tables = await probe(inv, addrs, look)
    steps = [step(addr, cfg, table) for addr, table in tables.items() for cfg in configs]
    if dry_run:
        show_plan(inv, title, steps, doc)
        return True
    confirm(title, steps, yes)
    return False
