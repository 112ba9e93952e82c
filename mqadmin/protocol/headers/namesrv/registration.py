"""Broker registration headers and their housekeeping: REGISTER_BROKER (103), UNREGISTER_BROKER (104),
QUERY_DATA_VERSION (322), BROKER_HEARTBEAT (904), and the members of a broker group that registered
(GET_BROKER_MEMBER_GROUP, 901). The name server and brokers send and read them."""

from __future__ import annotations

from mqadmin.protocol.headers.base import BrokerName, ClusterName, Long, RequestHeader, request_header
from mqadmin.protocol.headers.namesrv import BrokerAddr, ServerAddr

__all__ = [
    "BrokerHeartbeatRequestHeader",
    "GetBrokerMemberGroupRequestHeader",
    "QueryDataVersionRequestHeader",
    "QueryDataVersionResponseHeader",
    "RegisterBrokerRequestHeader",
    "RegisterBrokerResponseHeader",
    "UnRegisterBrokerRequestHeader",
]


@request_header
class RegisterBrokerRequestHeader(RequestHeader):
    """REGISTER_BROKER (103). ``enableActingMaster`` is null from a 4.x broker (it has no such field)."""

    broker_name: BrokerName
    broker_addr: BrokerAddr
    cluster_name: ClusterName
    ha_server_addr: ServerAddr
    broker_id: Long
    heartbeat_timeout_millis: Long | None = None
    enable_acting_master: bool | None = None
    compressed: bool = False
    body_crc32: int = 0


@request_header
class RegisterBrokerResponseHeader(RequestHeader):
    """The answer to REGISTER_BROKER: the master's HA address and the master's address, for a slave."""

    ha_server_addr: str | None = None
    master_addr: str | None = None


@request_header
class UnRegisterBrokerRequestHeader(RequestHeader):
    """UNREGISTER_BROKER (104)."""

    broker_name: BrokerName
    broker_addr: BrokerAddr
    cluster_name: ClusterName
    broker_id: Long


@request_header
class QueryDataVersionRequestHeader(RequestHeader):
    """QUERY_DATA_VERSION (322)."""

    broker_name: BrokerName
    broker_addr: BrokerAddr
    cluster_name: ClusterName
    broker_id: Long


@request_header
class QueryDataVersionResponseHeader(RequestHeader):
    """The answer to QUERY_DATA_VERSION: whether the broker's topic config changed."""

    changed: bool | None = None


@request_header
class BrokerHeartbeatRequestHeader(RequestHeader):
    """BROKER_HEARTBEAT (904), sent by 5.x brokers in controller mode."""

    cluster_name: ClusterName
    broker_addr: BrokerAddr
    broker_name: BrokerName
    broker_id: Long | None = None
    epoch: int | None = None
    max_offset: Long | None = None
    confirm_offset: Long | None = None
    heartbeat_timeout_mills: Long | None = None
    election_priority: int | None = None


@request_header
class GetBrokerMemberGroupRequestHeader(RequestHeader):
    """GET_BROKER_MEMBER_GROUP (901)."""

    cluster_name: ClusterName
    broker_name: BrokerName
