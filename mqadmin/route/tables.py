"""The rows of the route tables and the values their operations take and give back.

These mirror the Java name server's ``RouteInfoManager`` entries (``BrokerData``, ``BrokerLiveInfo``,
``BrokerAddrInfo``, ``RegisterBrokerResult``, ``UnRegisterBrokerRequestHeader``); the wire types
(``QueueData``, ``TopicRouteData``...) live in :mod:`mqadmin.protocol.bodies`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from mqadmin.protocol.bodies.route import MASTER_ID
from mqadmin.protocol.javacoll import JavaHashMap

__all__ = [
    "DEFAULT_BROKER_CHANNEL_EXPIRED_MS",
    "MASTER_ID",
    "SYNC_BROKER_MEMBER_GROUP_PREFIX",
    "TOPIC_SYS_FLAG_UNIT",
    "TOPIC_SYS_FLAG_UNIT_SUB",
    "BrokerAddrInfo",
    "BrokerEntry",
    "BrokerLiveInfo",
    "DataVersionLike",
    "MinBrokerIdChange",
    "RegisterResult",
    "RouteConfig",
    "TopicConfigLike",
    "UnregisterRequest",
]

TOPIC_SYS_FLAG_UNIT = 1
TOPIC_SYS_FLAG_UNIT_SUB = 2

DEFAULT_BROKER_CHANNEL_EXPIRED_MS = 120_000
"""A broker silent for longer than this (unless it said otherwise at registration) is dropped."""

SYNC_BROKER_MEMBER_GROUP_PREFIX = "rmq_sys_SYNC_BROKER_MEMBER_"

BrokerAddrInfo = tuple[str, str]
"""``(clusterName, brokerAddr)``: the key of the live and filter-server tables (5.x)."""


class DataVersionLike(Protocol):
    """What the tables need of a broker's DataVersion: equality and its state version."""

    @property
    def state_version(self) -> int: ...

    def __eq__(self, other: object) -> bool: ...


class TopicConfigLike(Protocol):
    """What a registration needs of one topic config of the broker."""

    @property
    def topic_name(self) -> str | None: ...

    @property
    def read_queue_nums(self) -> int: ...

    @property
    def write_queue_nums(self) -> int: ...

    @property
    def perm(self) -> int: ...

    @property
    def topic_sys_flag(self) -> int: ...


class RouteConfig(Protocol):
    """The name server settings the route tables consult on every operation."""

    delete_topic_with_broker_registration: bool
    support_acting_master: bool
    notify_min_broker_id_changed: bool


@dataclass(slots=True)
class DefaultRouteConfig:
    """The Java defaults, for callers without a name server config (the admin side, tests)."""

    delete_topic_with_broker_registration: bool = False
    support_acting_master: bool = False
    notify_min_broker_id_changed: bool = False


@dataclass(slots=True, eq=False)
class BrokerEntry:
    """One broker group (Java ``BrokerData``): its members' addresses by broker id."""

    cluster: str
    broker_name: str
    addrs: JavaHashMap[int, str] = field(default_factory=JavaHashMap)
    zone_name: str | None = None
    enable_acting_master: bool = False

    def min_broker_id(self) -> int | None:
        return min(self.addrs) if self.addrs else None


@dataclass(slots=True, eq=False)
class BrokerLiveInfo:
    """When a broker member was last heard of, and what it last registered."""

    last_update_ms: int
    timeout_ms: int
    data_version: Any
    channel: Any
    ha_server_addr: str | None
    # what the last full registration of this member was, so an identical one can skip its table
    body_digest: bytes | None = None
    topics_epoch: int = 0
    took_topics: bool = False
    delete_mode: bool = False


@dataclass(slots=True)
class RegisterResult:
    """What a registering broker is told: its master's address and HA address (slaves only)."""

    master_addr: str | None = None
    ha_server_addr: str | None = None
    notices: list[MinBrokerIdChange] = field(default_factory=list)
    """NOTIFY_MIN_BROKER_ID_CHANGE messages to send (only with ``notifyMinBrokerIdChanged``)."""


@dataclass(slots=True, frozen=True)
class UnregisterRequest:
    """One broker member leaving (Java ``UnRegisterBrokerRequestHeader``)."""

    cluster_name: str | None
    broker_addr: str | None
    broker_name: str | None
    broker_id: int | None


@dataclass(slots=True, frozen=True)
class MinBrokerIdChange:
    """A NOTIFY_MIN_BROKER_ID_CHANGE (905) to send, oneway, to each of ``targets``."""

    targets: tuple[str, ...]
    min_broker_id: int
    min_broker_addr: str | None
    offline_broker_addr: str | None
    ha_broker_addr: str | None
