"""Subscription groups on brokers: create or update (200, 225), delete (207), find (106 + 201) and
the group tables (201).

A group lives on every broker it was created on; the commands address one broker (``-b``) or the
masters of a cluster (``-c``). Deleting a group by cluster also drops its ``%RETRY%`` and ``%DLQ%``
topics from the brokers and the name servers, as the Java 5.3.3 tool does.

A config is checked before it is sent (:func:`check_config`): a group name Java's rules refuse, or a
number out of range, raises :class:`HeaderError` and nothing goes out (Java would send and store it).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from mqadmin.admin.core import AdminCore
from mqadmin.admin.family import Family, decoded
from mqadmin.admin.namesrv import NamesrvOps
from mqadmin.protocol import fastjson, names
from mqadmin.protocol.bodies.group import SubscriptionGroupConfig, SubscriptionGroupWrapper
from mqadmin.protocol.codes import RequestCode, ResponseCode
from mqadmin.protocol.headers.base import HeaderError
from mqadmin.protocol.javacoll import java_hash_order
from mqadmin.remoting.errors import RemoteCommandError

__all__ = ["DLQ_PREFIX", "ORDER_TOPIC_CONFIG", "RETRY_PREFIX", "GroupConfigHit", "GroupOps", "check_config"]

RETRY_PREFIX = names.RETRY_GROUP_TOPIC_PREFIX
DLQ_PREFIX = "%DLQ%"
ORDER_TOPIC_CONFIG = "ORDER_TOPIC_CONFIG"


def check_config(config: SubscriptionGroupConfig) -> SubscriptionGroupConfig:
    """``config`` when the broker would keep it, else :class:`HeaderError` (INVALID_PARAMETER)."""
    from mqadmin.protocol.headers.consumer import check_subscription_group

    why = check_subscription_group(config)
    if why is not None:
        raise HeaderError(why, ResponseCode.INVALID_PARAMETER)
    return config


@dataclass(frozen=True, slots=True)
class GroupConfigHit:
    """Where a group's config was found: cluster (None if no cluster lists the broker), broker, address."""

    cluster: str | None
    broker_name: str
    broker_addr: str
    config: SubscriptionGroupConfig


class GroupOps(Family):
    """What ``DefaultMQAdminExt`` asks of brokers about subscription groups."""

    def __init__(self, core: AdminCore, namesrv: NamesrvOps) -> None:
        super().__init__(core)
        self.namesrv = namesrv

    async def create_and_update_subscription_group_config(
        self, addr: str, config: SubscriptionGroupConfig
    ) -> None:
        """UPDATE_AND_CREATE_SUBSCRIPTIONGROUP: the whole config as the body."""
        body = check_config(config).encode()
        await self.core.invoke(addr, RequestCode.UPDATE_AND_CREATE_SUBSCRIPTIONGROUP, body=body)

    async def create_and_update_subscription_group_config_list(
        self, addr: str, configs: Sequence[SubscriptionGroupConfig]
    ) -> bool:
        """UPDATE_AND_CREATE_SUBSCRIPTIONGROUP_LIST (5.x); True when the broker took the batch.

        A broker without the batch request (4.x, REQUEST_CODE_NOT_SUPPORTED) gets one
        UPDATE_AND_CREATE_SUBSCRIPTIONGROUP per group instead, and False is returned.
        """
        body = fastjson.dumps({"groupConfigList": [check_config(c).to_json_obj() for c in configs]}).encode()
        try:
            await self.core.invoke(addr, RequestCode.UPDATE_AND_CREATE_SUBSCRIPTIONGROUP_LIST, body=body)
            return True
        except RemoteCommandError as e:
            if e.code != ResponseCode.REQUEST_CODE_NOT_SUPPORTED:
                raise
        for config in configs:
            await self.create_and_update_subscription_group_config(addr, config)
        return False

    async def delete_subscription_group(self, addr: str, group: str, remove_offset: bool = False) -> None:
        """DELETE_SUBSCRIPTIONGROUP; ``remove_offset`` also drops the group's committed offsets.

        The flag travels as ``removeOffset`` (what 4.x brokers read) and ``cleanOffset`` (5.x).
        """
        from mqadmin.protocol.headers.consumer import DeleteSubscriptionGroupRequestHeader

        header = DeleteSubscriptionGroupRequestHeader(
            group_name=group, remove_offset=remove_offset, clean_offset=remove_offset
        )
        await self.core.invoke(addr, RequestCode.DELETE_SUBSCRIPTIONGROUP, header)

    async def find_subscription_group_config(
        self, group: str
    ) -> tuple[list[GroupConfigHit], list[BaseException]]:
        """Every broker holding ``group`` (``getConsumerConfig``), in the Java tool's order.

        Brokers come in ``HashMap`` order of their names; each is asked once (all at once) for its
        group table. Returns the hits and the brokers that could not be asked.
        """
        info = await self.namesrv.examine_broker_cluster_info()
        brokers = info.broker_addr_table or {}
        clusters = info.cluster_addr_table or {}
        cluster_order = java_hash_order(list(clusters))
        targets: list[tuple[str, str | None, str]] = []
        for name in java_hash_order(list(brokers)):
            addr = brokers[name].select_broker_addr()
            if addr is None:
                continue
            cluster = next((c for c in cluster_order if name in (clusters.get(c) or [])), None)
            targets.append((name, cluster, addr))
        tables = await self.core.fan_out(
            [t[2] for t in targets],
            self.get_all_subscription_group,
            code=RequestCode.GET_ALL_SUBSCRIPTIONGROUP_CONFIG,
        )
        hits: list[GroupConfigHit] = []
        errors: list[BaseException] = []
        for name, cluster, addr in targets:
            if addr in tables.errors:
                errors.append(tables.errors[addr])
                continue
            config = (tables.results[addr].subscription_group_table or {}).get(group)
            if config is not None:
                hits.append(GroupConfigHit(cluster, name, addr, config))
        return hits, errors

    # ------------------------------------------------------------------------ group tables

    async def get_all_subscription_group(self, addr: str) -> SubscriptionGroupWrapper:
        """GET_ALL_SUBSCRIPTIONGROUP_CONFIG: the broker's group table (in the order it was sent)."""
        resp = await self.core.invoke(addr, RequestCode.GET_ALL_SUBSCRIPTIONGROUP_CONFIG)
        return decoded(addr, resp.body or b"{}", "subscription groups", SubscriptionGroupWrapper.decode)

    async def get_user_subscription_group(self, addr: str) -> SubscriptionGroupWrapper:
        """The group table without the system groups (``getUserSubscriptionGroup``)."""
        wrapper = await self.get_all_subscription_group(addr)
        table = wrapper.subscription_group_table or {}
        wrapper.subscription_group_table = {g: c for g, c in table.items() if not names.is_system_group(g)}
        return wrapper
