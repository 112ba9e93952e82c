"""What the ACL 2.0 commands (:mod:`mqadmin.cli.commands.auth_admin`, :mod:`mqadmin.cli.commands.auth_acl`)
share: the wording of their ``-c | -b`` option groups, Java's trimming and splitting of option values,
the brokers a read asks, a change made on each member at once, and the copy of users or ACLs from
one broker to another (the ``-b``/``-c`` group and members themselves: :mod:`mqadmin.cli.brokertargets`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from mqadmin.cli.brokertargets import all_members, change_each, target_opts
from mqadmin.cli.command import Invocation
from mqadmin.cli.errors import CommandError
from mqadmin.cli.javaopts import JavaOpt

T = TypeVar("T")

__all__ = [
    "change",
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


async def change(
    inv: Invocation,
    broker_addr: str | None,
    cluster_name: str | None,
    call: Callable[[str], Awaitable[Any]],
    line: str,
    data: dict[str, Any],
) -> None:
    """One change on the broker or on every member of the cluster; ``line % addr`` per success."""
    await change_each(inv, await all_members(inv, broker_addr, cluster_name), call, line, data)


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
) -> None:
    """copyUser/copyAcl: the ``wanted`` names (comma-separated; all when none) read from the source,
    each created on the target or updated where it is already, with Java's ``copy WHAT of NAME from A
    to B success.`` line; as data, ``{"from", "to", "<what>s": [{key: name, "action": ...}]}``."""
    source, target = from_broker.strip(), to_broker.strip()
    names = split_list(trim(wanted))
    if names:
        found = [await get(source, n) for n in names]
        items = [i for i in found if i is not None]
    else:
        items = await list_all(source)
    copied: list[dict[str, str]] = []
    for item in items:
        name = name_of(item)
        if await get(target, name) is None:
            await create(target, item)
            action = "created"
        else:
            await update(target, item)
            action = "updated"
        copied.append({key: name or "", "action": action})
        inv.out.text(f"copy {what} of {name} from {source} to {target} success.\n")
    if inv.out.structured:
        inv.out.data({"from": source, "to": target, f"{what}s": copied})
