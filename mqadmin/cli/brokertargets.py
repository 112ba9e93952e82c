"""The brokers a ``-b ADDR | -c CLUSTER`` command acts on, and that option group: the one broker of
``-b``, or the masters, or every master and slave of the ``-c`` cluster, as the Java commands pick
them (``fetchMasterAddrByClusterName``, ``fetchMasterAndSlaveAddrByClusterName``).
"""

from __future__ import annotations

from mqadmin.cli.command import Invocation
from mqadmin.cli.javaopts import JavaOpt

__all__ = ["all_members", "master_addrs", "target_opts"]


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
    return await inv.admin.fetch_master_and_slave_addrs((cluster_name or "").strip())


async def master_addrs(inv: Invocation, broker_addr: str | None, cluster_name: str | None) -> list[str]:
    """``-b``, or the masters of the ``-c`` cluster (none when it has none)."""
    if broker_addr is not None:
        return [broker_addr.strip()]
    return await inv.admin.fetch_master_addrs((cluster_name or "").strip())
