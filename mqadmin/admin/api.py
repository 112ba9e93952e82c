"""``MQAdmin``: the admin API as one object, composed of one mixin per family of requests.

A family module defines ``class XxxOps(AdminCore)`` (or a subclass of another family it builds on)
with async methods named like Java's ``DefaultMQAdminExt``; adding it to the bases below makes its
methods available to every command.
"""

from __future__ import annotations

from mqadmin.admin.acl import AclOps
from mqadmin.admin.auth import AuthOps
from mqadmin.admin.broker import BrokerOps
from mqadmin.admin.broker_ops import BrokerOpsAdmin
from mqadmin.admin.brokers import BrokerAdminOps
from mqadmin.admin.cold_data import ColdDataOps
from mqadmin.admin.consumers import ConsumerOps
from mqadmin.admin.controller import ControllerOps
from mqadmin.admin.groups import GroupOps
from mqadmin.admin.messages import MessageOps
from mqadmin.admin.namesrv import NamesrvOps
from mqadmin.admin.static_topics import StaticTopicOps
from mqadmin.admin.topics import TopicAdminOps

__all__ = ["MQAdmin"]


class MQAdmin(
    AclOps,
    ColdDataOps,
    AuthOps,
    StaticTopicOps,
    ConsumerOps,
    GroupOps,
    MessageOps,
    ControllerOps,
    BrokerOpsAdmin,
    TopicAdminOps,
    BrokerAdminOps,
    BrokerOps,
    NamesrvOps,
):
    """Async admin client for a RocketMQ cluster (use ``async with MQAdmin(settings) as admin``)."""

    async def __aenter__(self) -> MQAdmin:
        return self
