"""The brokers a ``-b ADDR | -c CLUSTER`` command acts on, and that option group: the one broker of
``-b``, or the masters, or every master and slave of the ``-c`` cluster, as the Java commands pick
them (``fetchMasterAddrByClusterName``, ``fetchMasterAndSlaveAddrByClusterName``, or the
master-to-slaves map with Java's ``============`` banners).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from mqadmin.cli.command import Invocation
from mqadmin.cli.javaopts import JavaOpt
from mqadmin.cli.results import Errors, Result, with_errors

__all__ = [
    "BROKERS_DOC",
    "Changed",
    "Member",
    "all_members",
    "bannered_members",
    "change_each",
    "master_addrs",
    "target_opts",
]

BROKERS_DOC = '"brokers": [{"addr": str, "ok": bool, "error": str?}], "errors": [...]?'
"""The JSON members a command over these brokers adds: the :meth:`Invocation.on_each` rows and failures."""


def target_opts(cluster_desc: str, broker_desc: str, broker_first: bool = False) -> list[JavaOpt]:
    """The required ``-c | -b`` group with the Java command's wording, in the order it adds them."""
    cluster = JavaOpt(
        "c", "clusterName", cluster_desc, group="target", group_required=True, dest="cluster_name"
    )
    broker = JavaOpt("b", "brokerAddr", broker_desc, group="target", group_required=True, dest="broker_addr")
    return [broker, cluster] if broker_first else [cluster, broker]


async def all_members(inv: Invocation, broker_addr: str | None, cluster_name: str | None) -> list[str]:
    """``-b``, or every master and slave of the ``-c`` cluster."""
    if broker_addr is not None:
        return [broker_addr.strip()]
    return await inv.admin.brokers.fetch_master_and_slave_addrs((cluster_name or "").strip())


async def master_addrs(inv: Invocation, broker_addr: str | None, cluster_name: str | None) -> list[str]:
    """``-b``, or the masters of the ``-c`` cluster (none when it has none)."""
    if broker_addr is not None:
        return [broker_addr.strip()]
    return await inv.admin.brokers.fetch_master_addrs((cluster_name or "").strip())


async def change_each(
    inv: Invocation,
    addrs: list[str],
    call: Callable[[str], Awaitable[Any]],
    line: str,
    data: dict[str, Any],
    tail: str = "",
) -> None:
    """One change asked of every broker at once: ``line % addr`` printed per success (in ``addrs``
    order), then ``tail`` if any succeeded; as data, ``data`` with the rows (:data:`BROKERS_DOC`)."""
    _, rows = await inv.on_each(addrs, call)
    inv.out.emit(Changed(rows, line, data, tail, inv.error_list()))


@dataclass(slots=True, frozen=True)
class Changed(Result):
    """What :func:`change_each` answers: ``line % addr`` per broker that took the change, then
    ``tail`` when any did; the document is the command's ``doc`` with the ``brokers`` rows."""

    brokers: list[dict[str, Any]]
    line: str
    doc: dict[str, Any]
    tail: str = ""
    errors: Errors = field(default_factory=list)

    def text(self) -> str:
        done = [self.line % r["addr"] for r in self.brokers if r["ok"]]
        return "".join(done) + (self.tail if done else "")

    def data(self) -> dict[str, Any]:
        return with_errors({**self.doc, "brokers": self.brokers}, self.errors)


@dataclass(slots=True, frozen=True)
class Member:
    """One broker of :func:`bannered_members`."""

    addr: str
    """The address; ``NO_MASTER`` (:mod:`mqadmin.admin.brokers`) for a group that has no master."""
    role: str
    """``master`` or ``slave``."""
    master: str | None
    """A slave's master."""
    banner: str
    """The line Java prints above its answer: ``============ADDR============`` and a line end."""

    def row(self, answer: dict[str, Any]) -> dict[str, Any]:
        """The JSON row: addr, role, master (of a slave), then what :meth:`Invocation.on_each` said."""
        out: dict[str, Any] = {"addr": self.addr, "role": self.role}
        if self.master is not None:
            out["master"] = self.master
        out.update(answer)
        return out


async def bannered_members(
    inv: Invocation, broker_addr: str | None, cluster_name: str | None
) -> list[Member]:
    """``-b`` as a master, or each master of the ``-c`` cluster then its slaves, with the banners Java
    prints (``============Master: M============``, ``============My Master: M=====Slave: S============``)."""
    if broker_addr is not None:
        addr = broker_addr.strip()
        return [Member(addr, "master", None, f"============{addr}============\n")]
    out: list[Member] = []
    groups = await inv.admin.brokers.fetch_master_slave_map((cluster_name or "").strip())
    for master, slaves in groups.items():
        out.append(Member(master, "master", None, f"============Master: {master}============\n"))
        out.extend(
            Member(s, "slave", master, f"============My Master: {master}=====Slave: {s}============\n")
            for s in slaves
        )
    return out
