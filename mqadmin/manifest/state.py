"""What a cluster holds, read in a few requests per broker: the other side of every diff and export.

Per master broker: its version (GET_BROKER_RUNTIME_INFO), its whole topic table (21) and system
topic list (203), its whole group table (201), and when asked its config (26), its ACL 2.0 users
and policies (3005, 3010, 5.x only) and its ACL 1.0 accounts and white addresses (54). From the
name servers: the cluster table (106) and the order configs (219). So a diff of thousands of topics
costs the same handful of requests as one of a few.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from mqadmin.admin.acl import AclConfig
from mqadmin.admin.api import MQAdmin
from mqadmin.admin.errors import AdminError
from mqadmin.admin.topics import DLQ_PREFIX, ORDER_TOPIC_CONFIG, RETRY_PREFIX, is_system_topic
from mqadmin.manifest.model import AclEntry
from mqadmin.protocol.bodies.auth import UserInfo
from mqadmin.protocol.bodies.group import SubscriptionGroupConfig
from mqadmin.protocol.bodies.route import MASTER_ID
from mqadmin.protocol.bodies.topic import TopicConfig
from mqadmin.protocol.codes import RequestCode
from mqadmin.protocol.names import is_system_group
from mqadmin.protocol.version import V5_0_0_SNAPSHOT
from mqadmin.remoting.errors import RemoteCommandError

__all__ = ["BrokerState", "ClusterState", "read_state", "user_topic"]


def user_topic(topic: str, system: set[str]) -> bool:
    """A topic someone made (not the broker's own, not a group's retry or dead-letter topic)."""
    return not (topic in system or is_system_topic(topic) or topic.startswith((RETRY_PREFIX, DLQ_PREFIX)))


@dataclass(slots=True)
class BrokerState:
    """One master broker's part."""

    name: str
    addr: str
    five_x: bool
    topics: dict[str, TopicConfig]
    system_topics: set[str]
    groups: dict[str, SubscriptionGroupConfig]
    config: dict[str, str] | None = None
    users: dict[str, UserInfo] | None = None
    """None: not asked, or the broker keeps no ACL 2.0 users (4.x)."""
    acls: dict[tuple[str, str], AclEntry] | None = None
    auth_refusal: str | None = None
    """Why a 5.x broker gave no ACL 2.0 users and policies when asked."""
    acl1: AclConfig | None = None
    """ACL 1.0 as the broker holds it; None: not asked, or ACL 1.0 is off there."""

    def user_topics(self, include_system: bool = False) -> dict[str, TopicConfig]:
        if include_system:
            return dict(self.topics)
        return {t: c for t, c in self.topics.items() if user_topic(t, self.system_topics)}

    def user_groups(self, include_system: bool = False) -> dict[str, SubscriptionGroupConfig]:
        if include_system:
            return dict(self.groups)
        return {g: c for g, c in self.groups.items() if not is_system_group(g)}


@dataclass(slots=True)
class ClusterState:
    """A cluster as read: its master brokers by name, the name servers' order configs."""

    cluster: str
    brokers: dict[str, BrokerState] = field(default_factory=dict)
    order_configs: dict[str, str] = field(default_factory=dict)

    @property
    def mode(self) -> str:
        """``5.x``, ``4.x`` or ``mixed``."""
        kinds = {b.five_x for b in self.brokers.values()}
        return "mixed" if len(kinds) > 1 else "5.x" if kinds == {True} else "4.x"


async def read_state(
    admin: MQAdmin, cluster: str, *, config: bool = False, auth: bool = False, acl1: bool = False
) -> ClusterState:
    """The cluster's masters and what they hold; ``config``/``auth``/``acl1`` also read broker
    configs, ACL 2.0 users and policies, and ACL 1.0 accounts and white addresses. A broker that
    cannot be read fails the whole read: a diff against part of a cluster would say things are
    missing that are not."""
    info = await admin.namesrv.examine_broker_cluster_info()
    names = (info.cluster_addr_table or {}).get(cluster)
    if names is None:
        from mqadmin.admin.brokers import ClusterNotFoundError

        raise ClusterNotFoundError(cluster)
    masters: dict[str, str] = {}
    for name in sorted(names):
        bd = (info.broker_addr_table or {}).get(name)
        addr = (bd.broker_addrs or {}).get(MASTER_ID) if bd is not None else None
        if addr is None:
            raise AdminError(
                f"broker {name} of cluster {cluster} has no master: nothing can be read or changed"
            )
        masters[name] = addr

    async def one(name: str) -> BrokerState:
        return await _read_broker(admin, name, masters[name], config=config, auth=auth, acl1=acl1)

    answers = await admin.core.fan_out(list(masters), one, code=RequestCode.GET_ALL_TOPIC_CONFIG)
    for name in answers.order:
        if name in answers.errors:
            raise answers.errors[name]
    state = ClusterState(cluster, {n: answers.results[n] for n in answers.order})
    state.order_configs = dict(await admin.namesrv.get_kv_list_by_namespace(ORDER_TOPIC_CONFIG))
    return state


async def _read_broker(
    admin: MQAdmin, name: str, addr: str, *, config: bool, auth: bool, acl1: bool
) -> BrokerState:
    runtime = await admin.broker.fetch_broker_runtime_stats(addr)
    five_x = _is_five_x(runtime)
    topics = (await admin.topics.get_all_topic_config(addr)).topic_config_table or {}
    system = set(await admin.topics.get_system_topic_list_from_broker(addr))
    groups = (await admin.groups.get_all_subscription_group(addr)).subscription_group_table or {}
    state = BrokerState(name, addr, five_x, dict(topics), system, dict(groups))
    if config:
        state.config = await admin.brokers.get_broker_config(addr)
    if auth and five_x:
        try:
            users = await admin.auth.list_user(addr)
            acls = await admin.auth.list_acl(addr)
        except RemoteCommandError as e:  # a 5.x broker without an ACL 2.0 metadata provider
            state.auth_refusal = f"the broker answers {e.code}: {e.remark or 'no remark'}"
        else:
            state.users = {u.username or "": u for u in users}
            state.acls = {entry.key(): entry for acl in acls for entry in _entries(acl)}
    if acl1:
        try:
            state.acl1 = await admin.acl.examine_broker_cluster_acl_config(addr)
        except RemoteCommandError:  # ACL 1.0 is off there (SYSTEM_ERROR), or the broker lacks it
            state.acl1 = None
    return state


def _is_five_x(runtime: dict[str, str]) -> bool:
    try:
        return int(runtime.get("brokerVersion", "0")) >= V5_0_0_SNAPSHOT
    except ValueError:
        return runtime.get("brokerVersionDesc", "").startswith("V5")


def _entries(acl: Any) -> list[AclEntry]:
    out: list[AclEntry] = []
    for policy in acl.policies or ():
        if (policy.policy_type or "Custom").lower() != "custom":
            continue
        for e in policy.entries or ():
            out.append(
                AclEntry(
                    acl.subject or "",
                    e.resource or "",
                    tuple(e.actions or ()),
                    tuple(e.source_ips or ()),
                    e.decision or "Allow",
                )
            )
    return out
