"""``MQAdmin``: one :class:`AdminCore` and the families of requests over it, one attribute each.

``admin.<family>`` is the family class of ``mqadmin/admin/<family>.py``, built on first use and kept
for the admin's lifetime; its methods keep the names of Java's ``DefaultMQAdminExt``
(``admin.topics.create_and_update_topic_config(...)``, ``admin.consumers.examine_consume_stats(...)``).
A family that asks another one gets it here, in its constructor. A family's module is imported
inside its property, so ``mqadmin topicRoute`` loads the name-server family only.
"""

from __future__ import annotations

from functools import cached_property
from typing import TYPE_CHECKING

from mqadmin.admin.core import AdminCore
from mqadmin.admin.settings import AdminSettings
from mqadmin.remoting.blocking import BlockingClient

if TYPE_CHECKING:  # each family is imported when first used; the async client brings asyncio
    from mqadmin.admin.acl import AclOps
    from mqadmin.admin.auth import AuthOps
    from mqadmin.admin.broker import BrokerOps
    from mqadmin.admin.broker_ops import BrokerOpsAdmin
    from mqadmin.admin.brokers import BrokerAdminOps
    from mqadmin.admin.cold_data import ColdDataOps
    from mqadmin.admin.connections import ConnectionOps
    from mqadmin.admin.consumers import ConsumerOps
    from mqadmin.admin.consumption import ConsumptionOps
    from mqadmin.admin.controller import ControllerOps
    from mqadmin.admin.groups import GroupOps
    from mqadmin.admin.messages import MessageOps
    from mqadmin.admin.namesrv import NamesrvOps
    from mqadmin.admin.offsets import OffsetOps
    from mqadmin.admin.producers import ProducerOps
    from mqadmin.admin.static_topics import StaticTopicOps
    from mqadmin.admin.topics import TopicAdminOps
    from mqadmin.remoting.client import RemotingClient


__all__ = ["MQAdmin"]


class MQAdmin:
    """Async admin client for a RocketMQ cluster (use ``async with MQAdmin(settings) as admin``).

    ``core`` sends the requests (name server failover, signing, timeouts, fan-out); every other
    attribute is a family of requests over it.
    """

    def __init__(
        self,
        settings: AdminSettings,
        client: RemotingClient | BlockingClient | None = None,
        *,
        blocking: bool = False,
    ) -> None:
        self.core = AdminCore(settings, client, blocking=blocking)

    async def __aenter__(self) -> MQAdmin:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def close(self) -> None:
        await self.core.close()

    # ------------------------------------------------------------------------------ name servers

    @cached_property
    def namesrv(self) -> NamesrvOps:
        """Routes, cluster info, topic lists, KV config, name server configs, write permission."""
        from mqadmin.admin.namesrv import NamesrvOps

        return NamesrvOps(self.core)

    @cached_property
    def acl(self) -> AclOps:
        """ACL 1.0: plain access configs, global white addresses, ACL versions."""
        from mqadmin.admin.acl import AclOps

        return AclOps(self.core)

    @cached_property
    def cold_data(self) -> ColdDataOps:
        """Cold data flow control of a broker."""
        from mqadmin.admin.cold_data import ColdDataOps

        return ColdDataOps(self.core)

    @cached_property
    def auth(self) -> AuthOps:
        """ACL 2.0: users and access rules."""
        from mqadmin.admin.auth import AuthOps

        return AuthOps(self.core)

    # ------------------------------------------------------------------------------ brokers

    @cached_property
    def broker(self) -> BrokerOps:
        """One broker's answers: consume stats, queue offsets, runtime stats, who consumes a topic."""
        from mqadmin.admin.broker import BrokerOps

        return BrokerOps(self.core, self.namesrv)

    @cached_property
    def brokers(self) -> BrokerAdminOps:
        """Broker configs, addresses by cluster, housekeeping requests, client versions."""
        from mqadmin.admin.brokers import BrokerAdminOps

        return BrokerAdminOps(self.core, self.namesrv)

    @cached_property
    def broker_ops(self) -> BrokerOpsAdmin:
        """Broker containers, RocksDB, pop records, message request modes, read-ahead."""
        from mqadmin.admin.broker_ops import BrokerOpsAdmin

        return BrokerOpsAdmin(self.core)

    @cached_property
    def controller(self) -> ControllerOps:
        """The HA controller: metadata, sync state, elections, configs."""
        from mqadmin.admin.controller import ControllerOps

        return ControllerOps(self.core, self.namesrv)

    # ------------------------------------------------------------------------------ topics and groups

    @cached_property
    def topics(self) -> TopicAdminOps:
        """Topic configs, stats, order configs, deletion."""
        from mqadmin.admin.topics import TopicAdminOps

        return TopicAdminOps(self.core, self.namesrv, self.broker)

    @cached_property
    def static_topics(self) -> StaticTopicOps:
        """Static topics: creation, remapping, their configs and logical queues."""
        from mqadmin.admin.static_topics import StaticTopicOps

        return StaticTopicOps(self.core, self.namesrv, self.topics)

    @cached_property
    def groups(self) -> GroupOps:
        """Subscription group configs, the group tables of brokers, and deletion of groups."""
        from mqadmin.admin.groups import GroupOps

        return GroupOps(self.core, self.namesrv)

    @cached_property
    def consumers(self) -> ConsumerOps:
        """A group's consume stats (static topics' queues made logical)."""
        from mqadmin.admin.consumers import ConsumerOps

        return ConsumerOps(self.core, self.namesrv, self.broker)

    @cached_property
    def connections(self) -> ConnectionOps:
        """A group's consumer connections: who is online, on which broker."""
        from mqadmin.admin.connections import ConnectionOps

        return ConnectionOps(self.core, self.namesrv)

    @cached_property
    def consumption(self) -> ConsumptionOps:
        """A consumer's running info, a broker's consume stats of every group, consume queues."""
        from mqadmin.admin.consumption import ConsumptionOps

        return ConsumptionOps(self.core, self.namesrv)

    @cached_property
    def offsets(self) -> OffsetOps:
        """Committing, resetting and cloning a group's offsets."""
        from mqadmin.admin.offsets import OffsetOps

        return OffsetOps(self.core, self.namesrv, self.broker, self.topics, self.consumers)

    @cached_property
    def producers(self) -> ProducerOps:
        """A group's producer connections and a broker's producer table."""
        from mqadmin.admin.producers import ProducerOps

        return ProducerOps(self.core, self.namesrv)

    @cached_property
    def messages(self) -> MessageOps:
        """Message lookups, pulls, tracks, queue offsets through the route."""
        from mqadmin.admin.messages import MessageOps

        return MessageOps(self.core, self.namesrv, self.broker)
