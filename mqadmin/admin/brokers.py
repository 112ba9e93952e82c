"""Broker administration: the brokers of a cluster, broker configs, housekeeping and stats items.

The cluster helpers replay ``CommandUtil`` of the Java tool, orders included: a cluster's broker
names come from a ``HashSet``, the addresses are collected into a new ``HashSet`` (masters) or a
``HashMap`` of capacity 4 (master → slaves), so callers that print per broker print in Java's order.
"""

from __future__ import annotations

from mqadmin.admin.core import AdminCore
from mqadmin.admin.errors import AdminError, BadResponseError
from mqadmin.admin.family import Family
from mqadmin.admin.namesrv import NamesrvOps
from mqadmin.protocol import fastjson, names
from mqadmin.protocol.bodies.cluster import ClusterInfo
from mqadmin.protocol.bodies.route import MASTER_ID
from mqadmin.protocol.codes import RequestCode, ResponseCode
from mqadmin.protocol.configentry import config_entry_refusal
from mqadmin.protocol.errors import ProtocolError
from mqadmin.protocol.headers.base import HeaderError
from mqadmin.protocol.javacoll import java_hash_order
from mqadmin.protocol.javanum import JavaNumberError, parse_int

__all__ = [
    "NO_MASTER",
    "BrokerAdminOps",
    "ClusterNotFoundError",
    "check_broker_config_update",
    "check_cluster_name",
]

NO_MASTER = "NO_MASTER"
"""Key of the master → slaves map for broker groups without a master (5.3.3 ``CommandUtil``)."""


class ClusterNotFoundError(AdminError):
    """The name server knows no cluster of that name (Java prints ``[error] Make sure ...``)."""

    def __init__(self, cluster: str) -> None:
        super().__init__(
            f"cluster {cluster!r} not found: make sure the cluster name exists and the name server "
            "is the right one ('mqadmin clusterList' lists the clusters)"
        )
        self.cluster = cluster


def check_cluster_name(cluster: str) -> str:
    """A cluster name about to be looked up or sent (``names.check_name``); :class:`HeaderError` if bad."""
    why = names.check_name("cluster", cluster)
    if why is not None:
        raise HeaderError(why)
    return cluster


def check_broker_config_update(properties: dict[str, str]) -> dict[str, str]:
    """Entries of an UPDATE_BROKER_CONFIG checked before sending; :class:`HeaderError` if one is bad.

    Each entry must be one line (Java sends them unescaped: a line break would add an entry of its
    own), and ``brokerPermission`` a valid permission, as the Java tool checks it.
    """
    from mqadmin.protocol.headers.topic import perm_refusal

    for k, v in properties.items():
        why = config_entry_refusal(k, v)
        if why is not None:
            raise HeaderError(why, ResponseCode.INVALID_PARAMETER)
    perm = properties.get("brokerPermission")
    if perm is not None:
        try:
            why = perm_refusal(parse_int(perm), "brokerPermission")
        except JavaNumberError:
            why = f"brokerPermission value: {perm} is invalid."
        if why is not None:
            raise HeaderError(why, ResponseCode.INVALID_PARAMETER)
    return properties


class BrokerAdminOps(Family):
    """What ``DefaultMQAdminExt`` and ``CommandUtil`` ask of the brokers of a cluster."""

    def __init__(self, core: AdminCore, namesrv: NamesrvOps) -> None:
        super().__init__(core)
        self.namesrv = namesrv

    # ------------------------------------------------------------------------ cluster → brokers

    async def _cluster_names(self, cluster: str, info: ClusterInfo | None) -> tuple[ClusterInfo, list[str]]:
        check_cluster_name(cluster)
        if info is None:
            info = await self.namesrv.examine_broker_cluster_info()
        names = (info.cluster_addr_table or {}).get(cluster)
        if names is None:
            raise ClusterNotFoundError(cluster)
        return info, java_hash_order(names)

    async def fetch_master_addrs(self, cluster: str, info: ClusterInfo | None = None) -> list[str]:
        """Master addresses of the cluster (``fetchMasterAddrByClusterName``), Java ``HashSet`` order."""
        info, names = await self._cluster_names(cluster, info)
        bat = info.broker_addr_table or {}
        addrs: list[str] = []
        for name in names:
            bd = bat.get(name)
            master = (bd.broker_addrs or {}).get(MASTER_ID) if bd is not None else None
            if master is not None:
                addrs.append(master)
        return java_hash_order(addrs)

    async def fetch_master_and_slave_addrs(self, cluster: str, info: ClusterInfo | None = None) -> list[str]:
        """Every member address of the cluster (``fetchMasterAndSlaveAddrByClusterName``)."""
        info, names = await self._cluster_names(cluster, info)
        bat = info.broker_addr_table or {}
        addrs: list[str] = []
        for name in names:
            bd = bat.get(name)
            if bd is not None and bd.broker_addrs:
                addrs.extend(bd.broker_addrs[k] for k in java_hash_order(list(bd.broker_addrs)))
        return java_hash_order(addrs)

    async def fetch_master_slave_map(
        self, cluster: str, info: ClusterInfo | None = None
    ) -> dict[str, list[str]]:
        """Master address → slave addresses (``fetchMasterAndSlaveDistinguish``), ``HashMap(4)`` order.

        Broker groups without a master share the key :data:`NO_MASTER`.
        """
        info, names = await self._cluster_names(cluster, info)
        bat = info.broker_addr_table or {}
        out: dict[str, list[str]] = {}
        for name in names:
            bd = bat.get(name)
            if bd is None or bd.broker_addrs is None:
                continue
            addrs = bd.broker_addrs
            key = addrs.get(MASTER_ID, NO_MASTER)
            slaves = out.setdefault(key, [])
            slaves.extend(addrs[k] for k in java_hash_order(list(addrs)) if k != MASTER_ID and addrs[k])
        return {k: out[k] for k in java_hash_order(list(out), 4)}

    async def fetch_broker_names(self, cluster: str, info: ClusterInfo | None = None) -> list[str]:
        """Broker names of the cluster (``fetchBrokerNameByClusterName``); none at all is an error."""
        _, names = await self._cluster_names(cluster, info)
        if not names:
            raise ClusterNotFoundError(cluster)
        return names

    async def broker_name_by_addr(self, addr: str, info: ClusterInfo | None = None) -> str:
        """The name of the broker group that has a member at ``addr`` (``fetchBrokerNameByAddr``)."""
        if info is None:
            info = await self.namesrv.examine_broker_cluster_info()
        bat = info.broker_addr_table or {}
        for name in java_hash_order(list(bat)):
            if addr in (bat[name].broker_addrs or {}).values():
                return name
        raise AdminError(f"no broker at {addr} is registered with the name server")

    # ------------------------------------------------------------------------ broker config

    async def get_broker_config(self, addr: str) -> dict[str, str]:
        """GET_BROKER_CONFIG: the broker's settings in the order it sent them."""
        from mqadmin.protocol.bodies.properties import string_to_properties

        resp = await self.core.invoke(addr, RequestCode.GET_BROKER_CONFIG)
        try:
            return string_to_properties(resp.body or b"")
        except ProtocolError as e:
            raise BadResponseError(addr, f"broker config: {e}") from None

    async def update_broker_config(self, addr: str, properties: dict[str, str]) -> None:
        """UPDATE_BROKER_CONFIG with ``key=value`` lines, checked first (``check_broker_config_update``)."""
        from mqadmin.protocol.bodies.properties import properties_to_string

        body = properties_to_string(check_broker_config_update(properties)).encode("utf-8")
        await self.core.invoke(addr, RequestCode.UPDATE_BROKER_CONFIG, body=body)

    # ------------------------------------------------------------------------ housekeeping

    async def clean_expired_consume_queue(self, addr: str) -> bool:
        """CLEAN_EXPIRED_CONSUMEQUEUE: drop consume queues of topics the broker no longer has."""
        await self.core.invoke(addr, RequestCode.CLEAN_EXPIRED_CONSUMEQUEUE)
        return True

    async def delete_expired_commit_log(self, addr: str) -> bool:
        """DELETE_EXPIRED_COMMITLOG: delete commit-log files past their retention now."""
        await self.core.invoke(addr, RequestCode.DELETE_EXPIRED_COMMITLOG)
        return True

    async def clean_unused_topic(self, addr: str) -> bool:
        """CLEAN_UNUSED_TOPIC: drop stored queues of topics the broker no longer has."""
        await self.core.invoke(addr, RequestCode.CLEAN_UNUSED_TOPIC)
        return True

    # ------------------------------------------------------------------------ stats items

    async def view_broker_stats_data(self, addr: str, stats_name: str, stats_key: str) -> dict | None:
        """VIEW_BROKER_STATS_DATA: ``{"statsMinute": {...}, "statsHour": ..., "statsDay": ...}``.

        None when the broker has no such item (it answers SYSTEM_ERROR, Java's MQClientException).
        """
        from mqadmin.protocol.headers.broker import ViewBrokerStatsDataRequestHeader

        resp = await self.core.invoke(
            addr,
            RequestCode.VIEW_BROKER_STATS_DATA,
            ViewBrokerStatsDataRequestHeader(stats_name=stats_name, stats_key=stats_key),
            ok=(ResponseCode.SUCCESS, ResponseCode.SYSTEM_ERROR),
        )
        if resp.code != ResponseCode.SUCCESS or not resp.body:
            return None
        try:
            data = fastjson.loads(resp.body)
        except ProtocolError as e:
            raise BadResponseError(addr, f"stats data: {e}") from None
        if not isinstance(data, dict):
            raise BadResponseError(addr, "stats data is not an object")
        return data

    async def fetch_consumer_client_versions(self, group: str) -> list[tuple[str, int]]:
        """(language, version) of each online client of a group, as ``exportMetrics`` lists them.

        Java's ``examineConsumerConnectionInfo``: the route of the group's retry topic, one of its
        brokers (Java picks at random; this takes the first), GET_CONSUMER_CONNECTION_LIST. No
        route or no connection raises, as in Java.
        """
        from mqadmin.protocol.bodies.connection import ConsumerConnection
        from mqadmin.protocol.headers.connections import GetConsumerConnectionListRequestHeader

        hdr = GetConsumerConnectionListRequestHeader(consumer_group=group).check()  # before any request
        route = await self.namesrv.examine_topic_route_info("%RETRY%" + group)
        addr = next((a for a in (bd.select_broker_addr() for bd in route.broker_datas or []) if a), None)
        if addr is None:
            raise AdminError(f"the retry topic of group {group} has no broker")
        resp = await self.core.invoke(addr, RequestCode.GET_CONSUMER_CONNECTION_LIST, hdr)
        try:
            cc = ConsumerConnection.decode(resp.body or b"{}")
        except ProtocolError as e:
            raise BadResponseError(addr, f"consumer connections of {group}: {e}") from None
        if not cc.connection_set:
            raise AdminError(f"group {group} has no consumer online")
        return [(c.language or "", c.version) for c in cc.connection_set]
