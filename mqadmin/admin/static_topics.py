"""Static topics, the requests: read every broker's config and mapping, write a plan, remap.

``MQAdminUtils`` of the Java tool: ``examineTopicConfigAll`` (GET_TOPIC_CONFIG with ``lo=true`` on
the master of every broker of the cluster info), ``updateTopicConfigMappingAll`` and
``remappingStaticTopic`` (UPDATE_AND_CREATE_STATIC_TOPIC, 513, in its five steps), and the logical
rows ``examineTopicStats`` adds for a static topic. The plans themselves are
:mod:`mqadmin.protocol.staticmapping`'s.

Java writes broker after broker and stops at the first refusal, leaving the brokers before it
changed. Here every broker of a plan must have a master address, and each broker's new detail
must be one it will accept given what it holds now (the same check the broker makes), before the
first request is sent.
"""

from __future__ import annotations

from collections.abc import Mapping

from mqadmin.admin.core import AdminCore
from mqadmin.admin.errors import AdminError, BadResponseError
from mqadmin.admin.family import Family
from mqadmin.admin.namesrv import NamesrvOps
from mqadmin.admin.topics import TopicAdminOps
from mqadmin.protocol.bodies.cluster import ClusterInfo
from mqadmin.protocol.bodies.message_queue import MessageQueue
from mqadmin.protocol.bodies.static_topic import TopicConfigAndQueueMapping
from mqadmin.protocol.bodies.topic_stats import TopicStatsTable
from mqadmin.protocol.codes import RequestCode, ResponseCode
from mqadmin.protocol.errors import ProtocolError
from mqadmin.protocol.headers.static_topic import CreateStaticTopicRequestHeader
from mqadmin.protocol.headers.topic import GetTopicConfigRequestHeader
from mqadmin.protocol.javacoll import java_hash_order
from mqadmin.protocol.staticmapping import (
    DEFAULT_BLOCK_SEQ_SIZE,
    copy_plan,
    decide_logic_offsets,
    merge_broker_detail,
)

__all__ = ["StaticTopicOps", "master_addrs"]

DEFAULT_TOPIC = "TBW102"
"""``createTopicKey``."""


def master_addrs(info: ClusterInfo) -> dict[str, str]:
    """broker name → its master's address (``ClientMetadata.findMasterBrokerAddr``: broker id 0)."""
    out: dict[str, str] = {}
    for name, bd in (info.broker_addr_table or {}).items():
        addr = (bd.broker_addrs or {}).get(0)
        if addr is not None:
            out[name] = addr
    return out


class StaticTopicOps(Family):
    """The static-topic part of ``DefaultMQAdminExt`` and ``MQAdminUtils``."""

    def __init__(self, core: AdminCore, namesrv: NamesrvOps, topics: TopicAdminOps) -> None:
        super().__init__(core)
        self.namesrv = namesrv
        self.topics = topics

    async def examine_topic_config_and_mapping(
        self, addr: str, topic: str
    ) -> TopicConfigAndQueueMapping | None:
        """GET_TOPIC_CONFIG with ``lo=true``: the topic's config and mapping; None without the topic."""
        resp = await self.core.invoke(
            addr,
            RequestCode.GET_TOPIC_CONFIG,
            GetTopicConfigRequestHeader(topic=topic, lo=True),
            ok=(ResponseCode.SUCCESS, ResponseCode.TOPIC_NOT_EXIST),
        )
        if resp.code == ResponseCode.TOPIC_NOT_EXIST:
            return None
        try:
            return TopicConfigAndQueueMapping.decode(resp.body or b"{}")
        except ProtocolError as e:
            raise BadResponseError(addr, f"topic config of {topic}: {e}") from None

    async def examine_topic_config_all(
        self, topic: str, info: ClusterInfo | None = None
    ) -> dict[str, TopicConfigAndQueueMapping]:
        """``examineTopicConfigAll``: the topic on the master of every broker the name servers know."""
        if info is None:
            info = await self.namesrv.examine_broker_cluster_info()
        addrs = master_addrs(info)
        answers = await self.core.fan_out(
            list(addrs),
            lambda b: self.examine_topic_config_and_mapping(addrs[b], topic),
            code=RequestCode.GET_TOPIC_CONFIG,
            addr_of=lambda b: addrs[b],
        )
        out: dict[str, TopicConfigAndQueueMapping] = {}
        for broker in answers.order:
            if broker in answers.errors:
                raise answers.errors[broker]
            cm = answers.results[broker]
            if cm is not None:
                out[broker] = cm
        return {k: out[k] for k in java_hash_order(out)}

    async def create_static_topic(
        self, addr: str, cm: TopicConfigAndQueueMapping, force: bool, default_topic: str = DEFAULT_TOPIC
    ) -> None:
        """UPDATE_AND_CREATE_STATIC_TOPIC: one broker's config and mapping detail."""
        tc = cm.config
        assert cm.mapping_detail is not None
        header = CreateStaticTopicRequestHeader(
            topic=tc.topic_name or "",
            default_topic=default_topic,
            read_queue_nums=tc.read_queue_nums,
            write_queue_nums=tc.write_queue_nums,
            perm=tc.perm,
            topic_filter_type=tc.topic_filter_type or "SINGLE_TAG",
            topic_sys_flag=tc.topic_sys_flag,
            order=tc.order,
            force=force,
        )
        await self.core.invoke(
            addr, RequestCode.UPDATE_AND_CREATE_STATIC_TOPIC, header, cm.mapping_detail.encode()
        )

    # ------------------------------------------------------------------------ before writing

    def preflight(
        self,
        configs: Mapping[str, TopicConfigAndQueueMapping],
        current: Mapping[str, TopicConfigAndQueueMapping],
        addrs: Mapping[str, str],
        force: bool,
    ) -> None:
        """Refuse a plan some broker would refuse, before anything is sent (module docstring)."""
        for broker in configs:
            if broker not in addrs:
                raise AdminError(f"Can't find addr for broker {broker}")
        for broker, cm in configs.items():
            old = current.get(broker)
            detail = cm.mapping_detail
            assert detail is not None
            merge_broker_detail(None if old is None else old.mapping_detail, detail, force)

    async def update_topic_config_mapping_all(
        self, configs: Mapping[str, TopicConfigAndQueueMapping], addrs: Mapping[str, str], force: bool
    ) -> list[str]:
        """``updateTopicConfigMappingAll``: every broker of the plan, in the map's order."""
        done = []
        for broker in java_hash_order(configs):
            await self.create_static_topic(addrs[broker], configs[broker], force)
            done.append(broker)
        return done

    async def remapping_static_topic(
        self,
        topic: str,
        map_in: list[str],
        map_out: list[str],
        configs: dict[str, TopicConfigAndQueueMapping],
        addrs: Mapping[str, str],
        force: bool,
        block: int = DEFAULT_BLOCK_SEQ_SIZE,
    ) -> None:
        """``MQAdminUtils.remappingStaticTopic``: the new leaders take writes, the old ones stop, the
        new generations get their logic offsets from the old leaders' last offsets, the rest follow."""
        tables: dict[str, TopicStatsTable] = {}

        def max_offset(mq: MessageQueue) -> int | None:
            for table in tables.values():
                off = table.offset_table.get(mq)
                if off is not None:
                    return off.max_offset
            return None

        async def read_stats() -> None:
            for broker in java_hash_order(map_out):
                tables[broker] = await self.topics.examine_topic_stats_in_broker(addrs[broker], topic)

        # before anything is written: every old leader's queue has stats to decide an offset from
        await read_stats()
        decide_logic_offsets(topic, copy_plan(configs), java_hash_order(map_out), max_offset, block)
        for broker in java_hash_order(map_in):  # 1: new leaders writable (logic offset -1)
            await self.create_static_topic(addrs[broker], configs[broker], force)
        for broker in java_hash_order(map_out):  # 2: old leaders stop taking writes
            await self.create_static_topic(addrs[broker], configs[broker], force)
        await read_stats()  # 3: decide the logic offsets from the last offsets now
        decide_logic_offsets(topic, configs, java_hash_order(map_out), max_offset, block)
        for broker in java_hash_order(map_in):  # 4: new leaders with their logic offsets
            await self.create_static_topic(addrs[broker], configs[broker], force)
        for broker in java_hash_order(configs):  # 5: the other brokers
            if broker not in map_in and broker not in map_out:
                await self.create_static_topic(addrs[broker], configs[broker], force)
