"""Name server requests: routes, cluster info, topic lists, KV config, configs, write permission.

Calls that any name server can answer fail over along the list (:meth:`AdminCore.invoke_namesrv`);
calls that change or read one server's own state go to every server (or the ones asked for), each
with its own result, like Java's ``putKVConfig``/``wipeWritePermOfBroker`` loops.

Requests carry the declared headers of :mod:`mqadmin.protocol.headers.namesrv`, checked before
anything is sent: a name no name server could hold raises :class:`HeaderError` (the CLI's usage
error), once, rather than one failure per name server.
"""

from __future__ import annotations

from collections.abc import Iterable

from mqadmin.admin.core import AdminCore
from mqadmin.admin.errors import BadResponseError
from mqadmin.admin.family import Family
from mqadmin.admin.fanout import FanOutResult
from mqadmin.protocol.bodies.cluster import ClusterInfo
from mqadmin.protocol.bodies.route import MASTER_ID, TopicRouteData
from mqadmin.protocol.codes import RequestCode, ResponseCode
from mqadmin.protocol.command import RemotingCommand
from mqadmin.protocol.errors import ProtocolError

# Each request's own headers and bodies are imported in its method: a route query loads the route
# types only, the KV, config and permission requests their own.

__all__ = ["NamesrvOps"]


def _body(addr: str, resp: RemotingCommand, what: str) -> bytes:
    if not resp.body:
        raise BadResponseError(addr, f"{what} has no body")
    return resp.body


def _count(addr: str, resp: RemotingCommand, name: str) -> int:
    from mqadmin.protocol.javanum import JavaNumberError, parse_int

    raw = resp.ext(name)
    try:
        return parse_int(raw) if raw is not None else 0
    except JavaNumberError:
        raise BadResponseError(addr, f"{name} is not a number: {raw!r}") from None


class NamesrvOps(Family):
    """What ``DefaultMQAdminExt`` asks of name servers."""

    def __init__(self, core: AdminCore) -> None:
        super().__init__(core)
        self._broker_addrs: dict[tuple[str, bool], str] = {}

    # ------------------------------------------------------------------------- any name server

    async def examine_topic_route_info(self, topic: str) -> TopicRouteData:
        """GET_ROUTEINFO_BY_TOPIC; an unknown topic raises RemoteCommandError code 17 (TOPIC_NOT_EXIST)."""
        from mqadmin.protocol.headers.namesrv.route import GetRouteInfoRequestHeader

        header = GetRouteInfoRequestHeader(topic=topic)
        addr, resp = await self.core.invoke_namesrv(RequestCode.GET_ROUTEINFO_BY_TOPIC, header)
        try:
            return TopicRouteData.decode(_body(addr, resp, "the route"))
        except ProtocolError as e:
            raise BadResponseError(addr, f"route of {topic}: {e}") from None

    async def examine_broker_cluster_info(self) -> ClusterInfo:
        """GET_BROKER_CLUSTER_INFO: every broker group and the cluster it belongs to."""
        from mqadmin.protocol.bodies.cluster import ClusterInfo

        addr, resp = await self.core.invoke_namesrv(RequestCode.GET_BROKER_CLUSTER_INFO)
        try:
            return ClusterInfo.decode(_body(addr, resp, "the cluster info"))
        except ProtocolError as e:
            raise BadResponseError(addr, f"cluster info: {e}") from None

    async def broker_addr_by_name(self, broker_name: str, *, master_only: bool) -> str | None:
        """``broker_name``'s address from the cluster info: the master, else (unless ``master_only``)
        any member; None when no cluster lists it.

        A queue named with ``-b`` may be on a broker the topic's route does not list (yet): a Java
        client finds any broker it knows and sends there, and the broker decides. An address found is
        kept, so a long pull loop asks the name server once.
        """
        key = (broker_name, master_only)
        if key not in self._broker_addrs:
            info = await self.examine_broker_cluster_info()
            bd = (info.broker_addr_table or {}).get(broker_name)
            addrs = (bd.broker_addrs if bd is not None else None) or {}
            addr = addrs.get(MASTER_ID)
            if addr is None and not master_only and addrs:
                addr = addrs[min(addrs)]
            if addr is None:
                return None
            self._broker_addrs[key] = addr
        return self._broker_addrs[key]

    async def fetch_all_topic_list(self) -> list[str]:
        """GET_ALL_TOPIC_LIST_FROM_NAMESERVER: topic names in the order the name server sent them."""
        addr, resp = await self.core.invoke_namesrv(RequestCode.GET_ALL_TOPIC_LIST_FROM_NAMESERVER)
        return self._topic_names(addr, resp)

    async def fetch_topics_by_cluster(self, cluster: str) -> list[str]:
        """GET_TOPICS_BY_CLUSTER: the topics on the brokers of one cluster."""
        from mqadmin.protocol.headers.namesrv.topics import GetTopicsByClusterRequestHeader

        header = GetTopicsByClusterRequestHeader(cluster=cluster)
        addr, resp = await self.core.invoke_namesrv(RequestCode.GET_TOPICS_BY_CLUSTER, header)
        return self._topic_names(addr, resp)

    async def get_topic_cluster_list(self, topic: str) -> list[str]:
        """Clusters holding the topic's first broker (Java ``getTopicClusterList``), cluster-table order."""
        info = await self.examine_broker_cluster_info()
        route = await self.examine_topic_route_info(topic)
        if not route.broker_datas:
            return []
        broker_name = route.broker_datas[0].broker_name
        out: list[str] = []
        for cluster, names in (info.cluster_addr_table or {}).items():
            if broker_name in names and cluster not in out:
                out.append(cluster)
        return out

    async def get_kv_config(self, namespace: str, key: str) -> str | None:
        """GET_KV_CONFIG: one value, or None when the name server has no such key."""
        from mqadmin.protocol.headers.namesrv.kvconfig import (
            GetKVConfigRequestHeader,
            GetKVConfigResponseHeader,
        )

        _, resp = await self.core.invoke_namesrv(
            RequestCode.GET_KV_CONFIG,
            GetKVConfigRequestHeader(namespace=namespace, key=key),
            ok=(ResponseCode.SUCCESS, ResponseCode.QUERY_NOT_FOUND),
        )
        if resp.code == ResponseCode.QUERY_NOT_FOUND:
            return None
        return GetKVConfigResponseHeader.decode(resp.ext_fields, lenient=True).value

    async def get_kv_list_by_namespace(self, namespace: str) -> dict[str, str]:
        """GET_KVLIST_BY_NAMESPACE: a whole namespace (empty when the name server has none)."""
        from mqadmin.protocol.headers.namesrv.kvconfig import GetKVListByNamespaceRequestHeader

        addr, resp = await self.core.invoke_namesrv(
            RequestCode.GET_KVLIST_BY_NAMESPACE,
            GetKVListByNamespaceRequestHeader(namespace=namespace),
            ok=(ResponseCode.SUCCESS, ResponseCode.QUERY_NOT_FOUND),
        )
        if resp.code != ResponseCode.SUCCESS or not resp.body:
            return {}
        from mqadmin.protocol.bodies.kv import KVTable

        try:
            return KVTable.decode(resp.body).table or {}
        except ProtocolError as e:
            raise BadResponseError(addr, f"KV list: {e}") from None

    # ------------------------------------------------------------------------- every name server

    async def get_namesrv_config(
        self, addrs: Iterable[str] | None = None
    ) -> FanOutResult[str, dict[str, str]]:
        """GET_NAMESRV_CONFIG from each name server: its settings in the order they were sent."""
        from mqadmin.admin.fanout import FanOutResult
        from mqadmin.protocol.bodies.properties import string_to_properties

        result = await self.core.invoke_each_namesrv(RequestCode.GET_NAMESRV_CONFIG, addrs=addrs)
        out: FanOutResult[str, dict[str, str]] = FanOutResult(order=result.order, errors=result.errors)
        for addr, resp in result.results.items():
            try:
                out.results[addr] = string_to_properties(resp.body or b"")
            except ProtocolError as e:
                out.errors[addr] = BadResponseError(addr, f"name server config: {e}")
        return out

    async def update_namesrv_config(
        self, properties: dict[str, str], addrs: Iterable[str] | None = None
    ) -> FanOutResult[str, RemotingCommand]:
        """UPDATE_NAMESRV_CONFIG on each name server (``key=value`` lines, unescaped, as Java).

        An entry :func:`config_entry_refusal` refuses (a line break would make a line of its own)
        raises :class:`HeaderError`: nothing is sent.
        """
        from mqadmin.protocol.bodies.properties import properties_to_string
        from mqadmin.protocol.configentry import config_entry_refusal
        from mqadmin.protocol.headers.base import HeaderError

        for k, v in properties.items():
            why = config_entry_refusal(k, v, value_controls=True)
            if why is not None:
                raise HeaderError(why)

        body = properties_to_string(properties).encode("utf-8")
        return await self.core.invoke_each_namesrv(RequestCode.UPDATE_NAMESRV_CONFIG, body=body, addrs=addrs)

    async def put_kv_config(self, namespace: str, key: str, value: str) -> FanOutResult[str, RemotingCommand]:
        """PUT_KV_CONFIG on every name server (each keeps its own KV store)."""
        from mqadmin.protocol.headers.namesrv.kvconfig import PutKVConfigRequestHeader

        header = PutKVConfigRequestHeader(namespace=namespace, key=key, value=value).check()
        return await self.core.invoke_each_namesrv(RequestCode.PUT_KV_CONFIG, header)

    async def delete_kv_config(self, namespace: str, key: str) -> FanOutResult[str, RemotingCommand]:
        """DELETE_KV_CONFIG on every name server."""
        from mqadmin.protocol.headers.namesrv.kvconfig import DeleteKVConfigRequestHeader

        header = DeleteKVConfigRequestHeader(namespace=namespace, key=key).check()
        return await self.core.invoke_each_namesrv(RequestCode.DELETE_KV_CONFIG, header)

    async def wipe_write_perm_of_broker(self, broker_name: str) -> FanOutResult[str, int]:
        """WIPE_WRITE_PERM_OF_BROKER on every name server: how many topics each one changed."""
        from mqadmin.protocol.headers.namesrv.writeperm import WipeWritePermOfBrokerRequestHeader

        header = WipeWritePermOfBrokerRequestHeader(broker_name=broker_name).check()
        result = await self.core.invoke_each_namesrv(RequestCode.WIPE_WRITE_PERM_OF_BROKER, header)
        return _counts(result, "wipeTopicCount")

    async def add_write_perm_of_broker(self, broker_name: str) -> FanOutResult[str, int]:
        """ADD_WRITE_PERM_OF_BROKER on every name server: how many topics each one changed."""
        from mqadmin.protocol.headers.namesrv.writeperm import AddWritePermOfBrokerRequestHeader

        header = AddWritePermOfBrokerRequestHeader(broker_name=broker_name).check()
        result = await self.core.invoke_each_namesrv(RequestCode.ADD_WRITE_PERM_OF_BROKER, header)
        return _counts(result, "addTopicCount")

    # ------------------------------------------------------------------------- helpers

    @staticmethod
    def _topic_names(addr: str, resp: RemotingCommand) -> list[str]:
        from mqadmin.protocol.bodies.topic_list import TopicList

        try:
            return TopicList.decode(_body(addr, resp, "the topic list")).topic_list
        except ProtocolError as e:
            raise BadResponseError(addr, f"topic list: {e}") from None


def _counts(result: FanOutResult[str, RemotingCommand], name: str) -> FanOutResult[str, int]:
    from mqadmin.admin.fanout import FanOutResult

    out: FanOutResult[str, int] = FanOutResult(order=result.order, errors=dict(result.errors))
    for addr, resp in result.results.items():
        try:
            out.results[addr] = _count(addr, resp, name)
        except BadResponseError as e:
            out.errors[addr] = e
    return out
