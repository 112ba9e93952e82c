"""What the ACL 2.0 commands (:mod:`mqadmin.cli.commands.auth_admin`, :mod:`mqadmin.cli.commands.auth_acl`)
share: the wording of their ``-c | -b`` option groups, Java's trimming and splitting of option values,
the brokers a read asks, and the copy of users or ACLs from one broker to another (the ``-b``/``-c``
group and members themselves: :mod:`mqadmin.cli.brokertargets`; a change on each member:
:mod:`mqadmin.cli.plannedchange`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from mqadmin.cli.brokertargets import target_opts
from mqadmin.cli.command import Invocation
from mqadmin.cli.errors import CommandError
from mqadmin.cli.javaopts import JavaOpt

T = TypeVar("T")

__all__ = [
    "copy_between",
    "copy_doc",
    "copy_opts",
    "masters",
    "nowhere",
    "read_addrs",
    "read_opts",
    "split_list",
    "targets_opts",
    "trim",
]


def targets_opts(what: str, verb: str) -> list[JavaOpt]:
    """The group of a change: ``-c`` ("VERB WHAT to which cluster") then ``-b``."""
    return target_opts(f"{verb} {what} to which cluster", f"{verb} {what} to which broker")


def read_opts(what: str, verb: str, end: str = "") -> list[JavaOpt]:
    """The group of a get or list: ``-b`` ("VERB WHAT for which broker") then ``-c``."""
    return target_opts(
        f"{verb} {what} for specified cluster{end}", f"{verb} {what} for which broker{end}", broker_first=True
    )


def trim(value: str | None) -> str | None:
    """``StringUtils.trim``."""
    return None if value is None else value.strip()


def split_list(value: str | None) -> list[str] | None:
    """``StringUtils.split(value, ',')`` then trim: empty pieces go."""
    if value is None:
        return None
    return [p.strip() for p in value.split(",") if p]


async def masters(inv: Invocation, cluster_name: str, command: str) -> list[str]:
    """The masters of the ``-c`` cluster; none is Java's "there is no broker in cluster."."""
    addrs = await inv.admin.brokers.fetch_master_addrs(cluster_name.strip())
    if not addrs:
        raise CommandError(f"{command} command failed, there is no broker in cluster.")
    return addrs


async def read_addrs(
    inv: Invocation, broker_addr: str | None, cluster_name: str | None, command: str
) -> list[str]:
    """Where a get or list asks: ``-b``, or the masters of the ``-c`` cluster."""
    if broker_addr is not None:
        return [broker_addr.strip()]
    return await masters(inv, cluster_name or "", command)


def nowhere(addrs: list[str]) -> str:
    """The brokers of :func:`read_addrs` as the line saying none of them has the thing names them."""
    return addrs[0] if len(addrs) == 1 else f"the {len(addrs)} masters of the cluster"


def copy_opts(what: str, names: JavaOpt) -> list[JavaOpt]:
    """copyUser/copyAcl's ``-f`` and ``-t`` with Java's wording, then the option naming what to copy."""
    source = f"the source broker that the {what}s copy from"
    target = f"the target broker that the {what}s copy to"
    return [
        JavaOpt("f", "fromBroker", source, required=True, dest="from_broker"),
        JavaOpt("t", "toBroker", target, required=True, dest="to_broker"),
        names,
    ]


def copy_doc(what: str, key: str) -> str:
    """The JSON shape :func:`copy_between` writes."""
    return f'{{"from": str, "to": str, "{what}s": [{{"{key}": str, "action": "created"|"updated"}}]}}'


async def copy_between(
    inv: Invocation,
    from_broker: str,
    to_broker: str,
    wanted: str | None,
    *,
    list_all: Callable[[str], Awaitable[list[T]]],
    get: Callable[[str, str | None], Awaitable[T | None]],
    create: Callable[[str, T], Awaitable[Any]],
    update: Callable[[str, T], Awaitable[Any]],
    name_of: Callable[[T], str | None],
    what: str,
    key: str,
    dry_run: bool,
    yes: bool,
) -> None:
    """copyUser/copyAcl: the ``wanted`` names (comma-separated; all when none) read from the source,
    each created on the target or updated where it is already, with Java's ``copy WHAT of NAME from A
    to B success.`` line; as data, ``{"from", "to", "<what>s": [{key: name, "action": ...}]}``.
    Where the plan is shown (:mod:`mqadmin.cli.safety`) the target is read for all of them first;
    otherwise each is read just before its copy, as Java does."""
    from mqadmin.cli.safety import Step, confirm, plan_shown, show_plan

    source, target = from_broker.strip(), to_broker.strip()
    names = split_list(trim(wanted))
    steps: list[Step] = []
    if names:
        found = [await get(source, n) for n in names]
        items = [i for i in found if i is not None]
        missing = [n for n, i in zip(names, found, strict=True) if i is None]
        steps = [Step("broker", source, f"no {what} {n}, nothing to copy", changes=False) for n in missing]
    else:
        items = await list_all(source)
    planned = plan_shown(dry_run, yes)
    there: list[bool | None] = [None] * len(items)
    if planned:
        there = [await get(target, name_of(i)) is not None for i in items]
        steps += [
            Step("broker", target, f"{'update' if t else 'create'} {what} {name_of(i)} as on {source}")
            for i, t in zip(items, there, strict=True)
        ]
        title = f"copy {what}s from [{source}] to [{target}]"
        if dry_run:
            rows = [
                {key: name_of(i) or "", "action": "updated" if t else "created"}
                for i, t in zip(items, there, strict=True)
            ]
            show_plan(inv, title, steps, {"from": source, "to": target, f"{what}s": rows})
            return
        confirm(title, steps, yes)
    copied: list[dict[str, str]] = []
    for item, known in zip(items, there, strict=True):
        name = name_of(item)
        if known is None:
            known = await get(target, name) is not None
        if known:
            await update(target, item)
            action = "updated"
        else:
            await create(target, item)
            action = "created"
        copied.append({key: name or "", "action": action})
        inv.out.text(f"copy {what} of {name} from {source} to {target} success.\n")
    if inv.out.structured:
        inv.out.data({"from": source, "to": target, f"{what}s": copied})
