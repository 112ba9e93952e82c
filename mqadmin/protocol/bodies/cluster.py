"""``ClusterInfo``: every broker group and which cluster holds it (GET_BROKER_CLUSTER_INFO).

The name server serializes its live tables, so their Java types set the order of the body:

============================  ==================================  ===================================
table                         4.x name server                     5.x name server
============================  ==================================  ===================================
``brokerAddrTable``           ``new HashMap<>(128)``              ``new ConcurrentHashMap<>(128)``
``clusterAddrTable``          ``new HashMap<>(32)``               ``new ConcurrentHashMap<>(32)``
cluster → broker names        ``HashSet``                         ``HashSet``
``brokerAddrs`` per broker    ``new HashMap<>()``                 ``new HashMap<>()``
============================  ==================================  ===================================

A 5.x ``BrokerData`` always carries ``enableActingMaster`` and a 4.x one never does, so the body
itself tells which name server wrote it; the writer follows the same rule.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mqadmin.protocol import fastjson
from mqadmin.protocol.bodies import fieldcheck as j
from mqadmin.protocol.bodies.declared import DeclaredBody, to_json, wire
from mqadmin.protocol.bodies.route import BrokerData
from mqadmin.protocol.javacoll import bucket_order, chm_capacity, hash_map_capacity, hash_ordered

__all__ = ["ClusterInfo"]


def _name_set(v: Any, what: str) -> list[str]:
    return list(dict.fromkeys(j.req_str_list(v, what)))


@dataclass(slots=True)
class ClusterInfo(DeclaredBody):
    """The name server's broker table and cluster table, as ``clusterList`` shows them:
    ``broker_addr_table`` is broker name → broker group, ``cluster_addr_table`` cluster name →
    broker names (a Java ``Set``; kept as a list to keep its order)."""

    broker_addr_table: dict[str, BrokerData] | None = wire(
        read=lambda v, what: j.map_of(v, what, BrokerData.from_json_obj)
    )
    cluster_addr_table: dict[str, list[str]] | None = wire(
        read=lambda v, what: j.map_of(v, what, _name_set),
        write=lambda v, _: {k: _set_order(names) for k, names in v.items()},
    )

    def _is_5x(self) -> bool:
        bat = self.broker_addr_table or {}
        return any(b.enable_acting_master is not None for b in bat.values())

    def _capacities(self) -> tuple[int, int]:
        bat = self.broker_addr_table or {}
        cat = self.cluster_addr_table or {}
        if self._is_5x():
            return chm_capacity(len(bat), 128), chm_capacity(len(cat), 32)
        return hash_map_capacity(len(bat), 128), hash_map_capacity(len(cat), 32)

    # The hand-written part: both tables are ordered by capacities that follow the name server's
    # version, which only the broker table tells; and the name server's encoder, the text of
    # to_json_obj() at f-string speed (a test holds it to the declaration).
    def to_json_obj(self, standard: bool = False) -> dict[str, Any]:
        """The body's JSON values in Java order (``standard`` only quotes the numeric keys)."""
        out = to_json(self, standard)
        bat_cap, cat_cap = self._capacities()
        for key, cap in (("brokerAddrTable", bat_cap), ("clusterAddrTable", cat_cap)):
            if key in out:
                out[key] = hash_ordered(out[key], cap)
        return out

    def encode(self, standard: bool = False) -> bytes:
        q = fastjson.quote
        bat_cap, cat_cap = self._capacities()
        parts = []
        if self.broker_addr_table is not None:
            bat = hash_ordered(self.broker_addr_table, bat_cap)
            items = [f"{q(k)}:{v._text(q, standard, 'live')}" for k, v in bat.items()]
            parts.append('"brokerAddrTable":{' + ",".join(items) + "}")
        if self.cluster_addr_table is not None:
            cat = hash_ordered(self.cluster_addr_table, cat_cap)
            items = [f"{q(k)}:[{','.join([q(x) for x in _set_order(v)])}]" for k, v in cat.items()]
            parts.append('"clusterAddrTable":{' + ",".join(items) + "}")
        return ("{" + ",".join(parts) + "}").encode()

    def all_addrs_of_cluster(self, cluster: str) -> list[str]:
        """Every member address of the cluster's brokers (``retrieveAllAddrByCluster``)."""
        out: list[str] = []
        for name in (self.cluster_addr_table or {}).get(cluster, []):
            bd = (self.broker_addr_table or {}).get(name)
            if bd is not None and bd.broker_addrs:
                out.extend(bd.broker_addrs.values())
        return out


def _set_order(names: list[str]) -> list[str]:
    """A ``HashSet<String>`` built by add, in its iteration order."""
    if len(names) < 2:
        return list(names)
    return bucket_order(dict.fromkeys(names), hash_map_capacity(len(names)))
