"""What the ACL 2.0 commands (:mod:`mqadmin.cli.commands.auth_admin`, :mod:`mqadmin.cli.commands.auth_acl`)
share: the required ``-c | -b`` option group, Java's trimming and splitting of option values, the
brokers a ``-b``/``-c`` command acts on, and a change made on each of them at once.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from mqadmin.cli.command import Invocation
from mqadmin.cli.errors import CommandError
from mqadmin.cli.javaopts import JavaOpt

__all__ = ["TARGETS_DOC", "all_members", "change", "masters", "split_list", "targets_opts", "trim"]

TARGETS_DOC = '"brokers": [{"addr": str, "ok": bool, "error": str?}], "errors": [...]?'


def targets_opts(what: str, verb: str) -> list[JavaOpt]:
    """The required ``-c | -b`` group, in the order the Java command adds it."""
    return [
        JavaOpt(
            "c",
            "clusterName",
            f"{verb} {what} to which cluster",
            group="target",
            group_required=True,
            dest="cluster_name",
        ),
        JavaOpt(
            "b",
            "brokerAddr",
            f"{verb} {what} to which broker",
            group="target",
            group_required=True,
            dest="broker_addr",
        ),
    ]


def trim(value: str | None) -> str | None:
    """``StringUtils.trim``."""
    return None if value is None else value.strip()


def split_list(value: str | None) -> list[str] | None:
    """``StringUtils.split(value, ',')`` then trim: empty pieces go."""
    if value is None:
        return None
    return [p.strip() for p in value.split(",") if p]


async def all_members(inv: Invocation, broker_addr: str | None, cluster_name: str | None) -> list[str]:
    """``-b``, or every master and slave of the ``-c`` cluster (``fetchMasterAndSlaveAddrByClusterName``)."""
    if broker_addr is not None:
        return [broker_addr.strip()]
    return await inv.admin.fetch_master_and_slave_addrs((cluster_name or "").strip())


async def masters(inv: Invocation, cluster_name: str, command: str) -> list[str]:
    """The masters of the ``-c`` cluster; none is Java's "there is no broker in cluster."."""
    addrs = await inv.admin.fetch_master_addrs(cluster_name.strip())
    if not addrs:
        raise CommandError(f"{command} command failed, there is no broker in cluster.")
    return addrs


async def change(
    inv: Invocation,
    broker_addr: str | None,
    cluster_name: str | None,
    call: Callable[[str], Awaitable[Any]],
    line: str,
    data: dict[str, Any],
) -> None:
    """One change on the broker or on every member of the cluster; ``line % addr`` per success."""
    addrs = await all_members(inv, broker_addr, cluster_name)
    done, rows = await inv.on_each(addrs, call)
    data["brokers"] = rows
    inv.out.emit(inv.add_errors(data), lambda: "".join(line % a for a in addrs if a in done))
