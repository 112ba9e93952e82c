"""Topic administration on brokers and name servers: create, delete, stats, configs, order confs.

``examine_topic_config`` is where 4.x and 5.x brokers part: the 5.x tool asks GET_TOPIC_CONFIG (351),
which a 4.x broker answers with REQUEST_CODE_NOT_SUPPORTED, and the Java 5.3.3 tool then fails
(``topicStatus`` against a 4.9.8 broker). Here such a broker is asked the older way instead,
GET_ALL_TOPIC_CONFIG (21), and the topic is picked from its table, so the same call works on both.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from functools import partial

from mqadmin.admin.broker import BrokerOps
from mqadmin.admin.core import AdminCore
from mqadmin.admin.errors import BadResponseError, RemoteCommandError
from mqadmin.admin.family import Family, decoded
from mqadmin.admin.fanout import FanOutResult
from mqadmin.admin.namesrv import NamesrvOps
from mqadmin.protocol import names
from mqadmin.protocol.bodies.route import TopicRouteData
from mqadmin.protocol.bodies.topic import TopicConfig, TopicConfigSerializeWrapper
from mqadmin.protocol.bodies.topic_stats import TopicStatsTable
from mqadmin.protocol.codes import RequestCode, ResponseCode
from mqadmin.protocol.command import RemotingCommand
from mqadmin.protocol.errors import ProtocolError
from mqadmin.protocol.headers.base import HeaderError
from mqadmin.protocol.headers.topic import (
    CreateTopicListRequestHeader,
    CreateTopicRequestHeader,
    DeleteTopicRequestHeader,
    GetTopicConfigRequestHeader,
    GetTopicStatsInfoRequestHeader,
    queue_nums_refusal,
    topic_config_refusal,
)
from mqadmin.protocol.javacoll import concurrent_hash_order, java_hash_order
from mqadmin.protocol.perm import perm_is_valid

__all__ = [
    "DEFAULT_TOPIC",
    "DLQ_PREFIX",
    "ORDER_TOPIC_CONFIG",
    "RETRY_PREFIX",
    "SYSTEM_TOPICS",
    "TopicAdminOps",
    "check_order_conf",
    "check_topic_config",
    "check_topic_name",
    "create_topic_header",
    "is_system_topic",
]

DEFAULT_TOPIC = "TBW102"
"""``createTopicKey``: the topic whose settings a broker copies for auto-created topics."""
ORDER_TOPIC_CONFIG = "ORDER_TOPIC_CONFIG"
"""Name-server KV namespace of the order confs (``brokerName:queueNums;...`` per topic)."""
RETRY_PREFIX = names.RETRY_GROUP_TOPIC_PREFIX
DLQ_PREFIX = "%DLQ%"

SYSTEM_TOPICS = names.SYSTEM_TOPICS
"""``TopicValidator``'s system topic set (5.3.3)."""
is_system_topic = names.is_system_topic


def create_topic_header(config: TopicConfig, default_topic: str = DEFAULT_TOPIC) -> CreateTopicRequestHeader:
    """The UPDATE_AND_CREATE_TOPIC header for ``config``, checked (name, numbers, attributes).

    A 5.x tool adds ``attributes`` (``+key=value`` pairs joined by commas, ``AttributeParser``) and
    ``force``; they are sent when ``config.attributes`` is not None. A bad topic raises
    :class:`HeaderError` before anything is sent.
    """
    return CreateTopicRequestHeader.from_config(config, default_topic).check()


def check_topic_name(topic: str, *, deleting: bool = False) -> str:
    """``TopicValidator.validateTopic`` of a topic about to be named in a request; :class:`HeaderError`
    if bad. ``deleting`` allows a legal name longer than 127 characters (an older release made it)."""
    if deleting:
        DeleteTopicRequestHeader(topic=topic).check()
        return topic
    why = names.check_topic(topic)
    if why is not None:
        raise HeaderError(why)
    return topic


def check_order_conf(conf: str) -> str:
    """An order conf (``brokerName:queueNums;...``) clients can read: every item a broker name and a
    queue count (Java's clients parse it with ``Integer.parseInt`` and fail on anything else)."""
    from mqadmin.protocol.javanum import JavaNumberError, parse_int

    for item in conf.split(";"):
        if not item:
            continue
        name, sep, nums = item.rpartition(":")
        why = names.check_name("broker", name) if sep else f"the order conf item {item!r} is not name:num"
        if why is None:
            try:
                why = queue_nums_refusal("the queue count of " + name, parse_int(nums))
            except JavaNumberError as e:
                why = f"the order conf item {item!r}: {e}"
        if why is not None:
            raise HeaderError(why, ResponseCode.INVALID_PARAMETER)
    return conf


def check_topic_config(config: TopicConfig) -> TopicConfig:
    """A topic of a batch (18) checked as the broker will check it; :class:`HeaderError` if bad."""
    topic = config.topic_name or ""
    why = names.check_topic(topic)
    if why is not None:
        raise HeaderError(why)
    why = topic_config_refusal(
        config.read_queue_nums,
        config.write_queue_nums,
        config.perm,
        config.topic_filter_type,
        config.topic_sys_flag,
    )
    if why is not None:
        raise HeaderError(f"topic {topic}: {why}", ResponseCode.INVALID_PARAMETER)
    return config


class TopicAdminOps(Family):
    """What ``DefaultMQAdminExt`` asks of brokers and name servers about topics."""

    def __init__(self, core: AdminCore, namesrv: NamesrvOps, broker: BrokerOps) -> None:
        super().__init__(core)
        self.namesrv = namesrv
        self.broker = broker
        self._no_get_topic_config: set[str] = set()
        """Brokers of this admin that refused GET_TOPIC_CONFIG: they get the older request only."""

    # ------------------------------------------------------------------------ create and delete

    async def create_and_update_topic_config(
        self, addr: str, config: TopicConfig, default_topic: str = DEFAULT_TOPIC
    ) -> None:
        """UPDATE_AND_CREATE_TOPIC on one broker; a bad topic is refused before sending (the core
        checks every declared header once, as it builds the request)."""
        hdr = CreateTopicRequestHeader.from_config(config, default_topic)
        await self.core.invoke(addr, RequestCode.UPDATE_AND_CREATE_TOPIC, hdr)

    async def create_and_update_topic_config_list(self, addr: str, configs: list[TopicConfig]) -> None:
        """UPDATE_AND_CREATE_TOPIC_LIST (5.x brokers): many topics in one request.

        A broker without the batch request (4.x answers REQUEST_CODE_NOT_SUPPORTED) gets one
        UPDATE_AND_CREATE_TOPIC per topic instead, all at once.
        """
        from mqadmin.protocol import fastjson

        for c in configs:
            check_topic_config(c)
        body = fastjson.dumps({"topicConfigList": [c.to_json_obj() for c in configs]}).encode("utf-8")
        resp = await self.core.invoke(
            addr,
            RequestCode.UPDATE_AND_CREATE_TOPIC_LIST,
            CreateTopicListRequestHeader(),
            body=body,
            ok=(ResponseCode.SUCCESS, ResponseCode.REQUEST_CODE_NOT_SUPPORTED),
        )
        if resp.code == ResponseCode.REQUEST_CODE_NOT_SUPPORTED:
            await self.core.gather(*(self.create_and_update_topic_config(addr, c) for c in configs))

    async def delete_group_topics(self, group: str, addrs: list[str]) -> list[BaseException]:
        """Drop ``%RETRY%<group>`` and ``%DLQ%<group>`` from the brokers ``addrs`` (a cluster's masters
        and slaves) and every name server, as the Java 5.3.3 tool does after deleting a group.

        As Java ``deleteTopic(topic, cluster)``: 215 to each broker, 216 to each name server, and the
        topic's order config removed (102). Returns the failures (none raised).
        """
        failures: list[BaseException] = []
        for topic in (RETRY_PREFIX + group, DLQ_PREFIX + group):
            brokers = await self.core.fan_out(
                addrs,
                partial(self.delete_topic_in_broker, topic=topic),
                code=RequestCode.DELETE_TOPIC_IN_BROKER,
            )
            names = await self.core.fan_out(
                self.core.namesrv_addrs,
                partial(self.delete_topic_in_namesrv, topic=topic),
                code=RequestCode.DELETE_TOPIC_IN_NAMESRV,
            )
            kv = await self.namesrv.delete_kv_config(ORDER_TOPIC_CONFIG, topic)
            for result in (brokers, names, kv):
                failures.extend(result.errors[a] for a in result.order if a in result.errors)
        return failures

    async def delete_topic_in_broker(self, addr: str, topic: str) -> None:
        """DELETE_TOPIC_IN_BROKER."""
        await self.core.invoke(
            addr, RequestCode.DELETE_TOPIC_IN_BROKER, DeleteTopicRequestHeader(topic=topic)
        )

    async def delete_topic_in_namesrv(self, addr: str, topic: str, cluster: str | None = None) -> None:
        """DELETE_TOPIC_IN_NAMESRV on one name server (with ``cluster``: only that cluster's brokers)."""
        fields: dict[str, str | None] = {"clusterName": cluster, "topic": topic}
        await self.core.invoke(addr, RequestCode.DELETE_TOPIC_IN_NAMESRV, fields)

    # ------------------------------------------------------------------------ topic configs

    async def get_all_topic_config(self, addr: str) -> TopicConfigSerializeWrapper:
        """GET_ALL_TOPIC_CONFIG: the broker's whole topic table (in the order it was sent)."""
        from mqadmin.protocol.bodies.topic import TopicConfigSerializeWrapper

        resp = await self.core.invoke(addr, RequestCode.GET_ALL_TOPIC_CONFIG)
        return decoded(addr, resp.body or b"{}", "topic configs", TopicConfigSerializeWrapper.decode)

    async def get_system_topic_list_from_broker(self, addr: str) -> list[str]:
        """GET_SYSTEM_TOPIC_LIST_FROM_BROKER: the topics the broker made for itself."""
        from mqadmin.protocol.bodies.topic_list import TopicList

        resp = await self.core.invoke(addr, RequestCode.GET_SYSTEM_TOPIC_LIST_FROM_BROKER)
        try:
            return TopicList.decode(resp.body or b"{}").topic_list
        except ProtocolError as e:
            raise BadResponseError(addr, f"system topic list: {e}") from None

    async def get_user_topic_config(self, addr: str, special: bool = False) -> TopicConfigSerializeWrapper:
        """The topic table without system topics (``getUserTopicConfig``), ``ConcurrentHashMap`` order.

        ``special`` keeps the retry and DLQ topics; topics with an invalid permission are dropped.
        """
        wrapper, system = await self.core.gather(
            self.get_all_topic_config(addr), self.get_system_topic_list_from_broker(addr)
        )
        table = wrapper.topic_config_table or {}
        sys_set = set(system)
        kept = {}
        for name in concurrent_hash_order(list(table)):
            tc = table[name]
            tname = tc.topic_name or ""
            if tname in sys_set or is_system_topic(tname):
                continue
            if not special and tname.startswith((RETRY_PREFIX, DLQ_PREFIX)):
                continue
            if not perm_is_valid(tc.perm):
                continue
            kept[name] = tc
        wrapper.topic_config_table = kept
        return wrapper

    async def examine_topic_config(self, addr: str, topic: str) -> TopicConfig | None:
        """One topic's config on one broker; None when the broker does not have the topic.

        GET_TOPIC_CONFIG (351) first; a broker that does not know that request (4.x: code 3) is
        asked GET_ALL_TOPIC_CONFIG (21) instead, and is not asked 351 again by this client.
        """
        from mqadmin.protocol.bodies.topic import TopicConfig

        legacy = self._no_get_topic_config
        if addr not in legacy:
            resp = await self.core.invoke(
                addr,
                RequestCode.GET_TOPIC_CONFIG,
                GetTopicConfigRequestHeader(topic=topic, lo=True),
                ok=(
                    ResponseCode.SUCCESS,
                    ResponseCode.TOPIC_NOT_EXIST,
                    ResponseCode.REQUEST_CODE_NOT_SUPPORTED,
                ),
            )
            if resp.code == ResponseCode.TOPIC_NOT_EXIST:
                return None
            if resp.code == ResponseCode.SUCCESS:
                try:
                    return TopicConfig.decode(resp.body or b"{}")
                except ProtocolError as e:
                    raise BadResponseError(addr, f"topic config of {topic}: {e}") from None
            legacy.add(addr)
        table = (await self.get_all_topic_config(addr)).topic_config_table or {}
        return table.get(topic)

    async def examine_topic_config_from_route(
        self, topic: str, route: TopicRouteData
    ) -> dict[str, TopicConfig]:
        """The topic's config on each broker of its route (``MQAdminUtils.examineTopicConfigFromRoute``).

        Brokers without the topic are left out; any other error answer is raised.
        """
        brokers = [(bd.broker_name or "", bd.select_broker_addr()) for bd in route.broker_datas or []]
        asked = [(name, addr) for name, addr in brokers if addr is not None]
        configs = await self.core.gather(*(self.examine_topic_config(addr, topic) for _, addr in asked))
        out: dict[str, TopicConfig] = {}
        for (name, _), tc in zip(asked, configs, strict=True):
            if tc is not None:
                out[name] = tc
        return {k: out[k] for k in java_hash_order(list(out))}

    # ------------------------------------------------------------------------ stats

    async def examine_topic_stats_in_broker(self, addr: str, topic: str) -> TopicStatsTable:
        """GET_TOPIC_STATS_INFO: min/max offset and last store time of each queue on one broker."""
        from mqadmin.protocol.bodies.topic_stats import TopicStatsTable

        hdr = GetTopicStatsInfoRequestHeader(topic=topic)
        resp = await self.core.invoke(addr, RequestCode.GET_TOPIC_STATS_INFO, hdr)
        try:
            return TopicStatsTable.decode(resp.body or b"{}")
        except ProtocolError as e:
            raise BadResponseError(addr, f"topic stats of {topic}: {e}") from None

    async def examine_topic_stats(
        self,
        topic: str,
        route: TopicRouteData | None = None,
        *,
        failures: list[BaseException] | None = None,
    ) -> TopicStatsTable:
        """The stats of every queue of the topic (``examineTopicStats``): 105, 202 per broker, 351 per broker.

        An empty result is an error, as in Java ("Not found the topic stats info"). With a
        ``failures`` list, brokers that fail are added to it and the others' queues returned. A
        static topic (its route has queue mappings) also gets its logical rows (Java 5.3.3,
        its logical rows).
        """
        from mqadmin.admin.errors import AdminError

        if route is None:
            route = await self.namesrv.examine_topic_route_info(topic)

        async def one(addr: str) -> TopicStatsTable:
            stats, _ = await self.core.gather(
                self.examine_topic_stats_in_broker(addr, topic),
                self.examine_topic_config(addr, topic),  # 5.x's static-topic check (module doc)
            )
            return stats

        merged = await self._merged_stats(route, one, failures)
        if not merged.offset_table and not failures:
            raise AdminError(f"no queue stats found for topic {topic}")
        if route.topic_queue_mapping_by_broker:
            await self._add_logical_stats(topic, route, merged)
        return merged

    async def _add_logical_stats(self, topic: str, route: TopicRouteData, stats: TopicStatsTable) -> None:
        """Java 5.3.3 ``examineTopicStats`` of a static topic: one more row per logical queue, under
        the mock broker name (``__syslo__global__``), in logical offsets."""
        from mqadmin.admin.errors import AdminError
        from mqadmin.admin.static_stats import mapping_details
        from mqadmin.protocol.staticmapping import MappingError, logical_topic_stats

        details = await mapping_details(self.core, topic, route)
        try:
            stats.offset_table.update(logical_topic_stats(topic, details, stats.offset_table))
        except MappingError as e:
            raise AdminError(f"the queue mappings of static topic {topic} do not add up: {e}") from None

    async def examine_topic_stats_by_cluster(
        self, topic: str, cluster: str, *, failures: list[BaseException] | None = None
    ) -> TopicStatsTable:
        """``topicStatus -c``: 202 to each broker of the route of ``cluster`` (a cluster or LMQ parent)."""
        route = await self.namesrv.examine_topic_route_info(cluster)
        return await self._merged_stats(
            route, lambda a: self.examine_topic_stats_in_broker(a, topic), failures
        )

    async def _merged_stats(
        self,
        route: TopicRouteData,
        call: Callable[[str], Awaitable[TopicStatsTable]],
        failures: list[BaseException] | None,
    ) -> TopicStatsTable:
        """``call`` on each master of ``route``, all at once, merged; the first failure raised unless
        ``failures`` collects them (then raised only when every broker failed)."""
        from mqadmin.protocol.bodies.topic_stats import TopicStatsTable

        addrs = [a for a in (bd.select_broker_addr() for bd in route.broker_datas or []) if a is not None]
        answers = await self.core.fan_out(addrs, call, code=RequestCode.GET_TOPIC_STATS_INFO)
        merged = TopicStatsTable({}, 0.0)
        for addr in answers.order:
            if addr in answers.errors:
                if failures is None or answers.all_failed:
                    raise answers.errors[addr]
                failures.append(answers.errors[addr])
                continue
            merged.offset_table.update(answers.results[addr].offset_table)
        return merged

    # ------------------------------------------------------------------------ order confs (name server KV)

    async def get_order_conf(self, topic: str) -> str | None:
        """The topic's order conf from the name server KV store (None when it has none)."""
        return await self.namesrv.get_kv_config(ORDER_TOPIC_CONFIG, topic)

    async def put_order_conf(self, topic: str, conf: str) -> FanOutResult[str, RemotingCommand]:
        return await self.namesrv.put_kv_config(ORDER_TOPIC_CONFIG, topic, conf)

    async def delete_order_conf(self, topic: str) -> FanOutResult[str, RemotingCommand]:
        return await self.namesrv.delete_kv_config(ORDER_TOPIC_CONFIG, topic)

    async def create_or_update_order_conf(
        self, topic: str, conf: str, is_cluster: bool
    ) -> FanOutResult[str, RemotingCommand]:
        """``createOrUpdateOrderConf``: a cluster conf replaces the value; a broker conf is merged in.

        A broker conf (``brokerName:num``) replaces that broker's entry of the current value and keeps
        the others, joined in Java ``HashMap`` order.
        """
        if not is_cluster:
            try:
                old = await self.get_order_conf(topic)
            except RemoteCommandError:
                old = None  # Java prints the failure and carries on with an empty conf
            items: dict[str, str] = {}
            for item in (old or "").split(";"):
                if item:
                    items[item.split(":", 1)[0]] = item
            name = conf.split(":", 1)[0]
            items[name] = conf
            conf = ";".join(items[k] for k in java_hash_order(list(items)))
        return await self.put_order_conf(topic, conf)
