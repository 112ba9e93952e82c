"""Name server request headers: KV config (100-102, 219), broker registration and its housekeeping
(103, 104, 322, 904), routes and topic lists (105, 216, 217, 224, 901) and write permission (205, 327).

Java's classes are in ``remoting/.../protocol/header/namesrv`` (5.3.3), plus
``GetTopicsByClusterRequestHeader`` and ``GetBrokerMemberGroupRequestHeader`` one package up. Their
own fields come first, then what the topic headers inherit: ``lo`` from ``TopicRequestHeader``,
``ns``/``nsd``/``bname``/``oway`` from ``RpcRequestHeader``.

The name server reads every one of them with Java's reflective decoder (``lenient``): a missing
field stays null and the answer is Java's. The names are checked in both modes, so a name that
could not be stored or sent back is refused before it reaches the route tables or the KV store.

Names a broker registers are looser than ``TopicValidator``: a broker also holds its cluster and
broker names as topics, 5.x pop retry topics join group and topic with ``+``, and retry topics of
a 255-character group are longer than 127. :func:`route_topic_refusal` accepts what a Java broker
can hold and nothing that could break a route body, a topic list or a log line.
"""

from __future__ import annotations

from mqadmin.protocol import names
from mqadmin.protocol.headers.base import (
    Annotated,
    BrokerName,
    Check,
    ClusterName,
    KvKey,
    KvNamespace,
    Long,
    RequestHeader,
    TopicRequestHeader,
    request_header,
)

__all__ = [
    "ROUTE_TOPIC_MAX_LENGTH",
    "AddWritePermOfBrokerRequestHeader",
    "AddWritePermOfBrokerResponseHeader",
    "BrokerAddr",
    "BrokerHeartbeatRequestHeader",
    "DeleteKVConfigRequestHeader",
    "DeleteTopicFromNamesrvRequestHeader",
    "GetBrokerMemberGroupRequestHeader",
    "GetKVConfigRequestHeader",
    "GetKVConfigResponseHeader",
    "GetKVListByNamespaceRequestHeader",
    "GetRouteInfoRequestHeader",
    "GetTopicsByClusterRequestHeader",
    "PutKVConfigRequestHeader",
    "QueryDataVersionRequestHeader",
    "QueryDataVersionResponseHeader",
    "RegisterBrokerRequestHeader",
    "RegisterBrokerResponseHeader",
    "RegisterTopicRequestHeader",
    "RouteTopic",
    "ServerAddr",
    "UnRegisterBrokerRequestHeader",
    "WipeWritePermOfBrokerRequestHeader",
    "WipeWritePermOfBrokerResponseHeader",
    "broker_addr_refusal",
    "route_topic_refusal",
]

ROUTE_TOPIC_MAX_LENGTH = (
    len(names.RETRY_GROUP_TOPIC_PREFIX) + names.GROUP_MAX_LENGTH + 1 + names.TOPIC_MAX_LENGTH
)
"""The longest topic a Java broker makes itself: a 5.x pop retry topic ``%RETRY%<group>+<topic>``."""

_PLAIN_TOPIC_CHARS = frozenset("%|abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_+-")
"""What the regex ``[%|a-zA-Z0-9_+-]+`` allowed: a set, so no regex is compiled at import."""


def route_topic_refusal(topic: str | None) -> str | None:
    """Why the route tables cannot hold ``topic`` (blank, too long, a control character or a path
    separator), or None. ``TopicValidator``'s names pass, and so do the cluster, broker and retry
    topic names a broker registers."""
    if topic is None or not topic.strip():
        return "The specified topic is blank."
    if len(topic) > ROUTE_TOPIC_MAX_LENGTH:
        return f"The specified topic is longer than {ROUTE_TOPIC_MAX_LENGTH} characters."
    if _PLAIN_TOPIC_CHARS.issuperset(topic):  # not empty: blank was refused above
        return None
    why = names.bad_text(topic, controls=True)
    if why is not None:
        return f"The specified topic {why}."
    if names.leaves_directory(topic):
        return f"The specified topic [{topic}] contains a path separator."
    return None


def broker_addr_refusal(addr: str | None, kind: str = "broker address") -> str | None:
    """Why ``addr`` is not a broker's ``host:port`` (as ``brokerIP1 + ":" + listenPort``), or None."""
    if addr is None or not addr.strip():
        return f"the {kind} is blank"
    if len(addr) > names.NAME_MAX_LENGTH:
        return f"the {kind} is longer than {names.NAME_MAX_LENGTH}"
    why = names.bad_text(addr, controls=True)
    if why is not None:
        return f"the {kind} {why}"
    host, sep, port = addr.rpartition(":")
    if (
        not sep
        or not host
        or addr.split() != [addr]  # no whitespace: str.split and the regex \S agree on what is one
        or not 0 < len(port) <= 5
        or not (port.isascii() and port.isdigit())  # [0-9]{1,5}
        or int(port) > 65535
    ):
        return f"the {kind} [{addr}] is not host:port"
    return None


RouteTopic = Annotated[str, Check(route_topic_refusal)]
"""A topic as the route tables hold it (see :func:`route_topic_refusal`)."""
BrokerAddr = Annotated[str, Check(broker_addr_refusal)]
"""A broker's ``host:port``."""
ServerAddr = Annotated[str, Check(lambda s: broker_addr_refusal(s, "HA server address"))]
"""A broker's HA ``host:port``."""


# ------------------------------------------------------------------------------------- KV config


@request_header
class PutKVConfigRequestHeader(RequestHeader):
    """PUT_KV_CONFIG (100)."""

    namespace: KvNamespace
    key: KvKey
    value: str


@request_header
class GetKVConfigRequestHeader(RequestHeader):
    """GET_KV_CONFIG (101)."""

    namespace: KvNamespace
    key: KvKey


@request_header
class GetKVConfigResponseHeader(RequestHeader):
    """The answer to GET_KV_CONFIG: the value (absent when there is none)."""

    value: str | None = None


@request_header
class DeleteKVConfigRequestHeader(RequestHeader):
    """DELETE_KV_CONFIG (102)."""

    namespace: KvNamespace
    key: KvKey


@request_header
class GetKVListByNamespaceRequestHeader(RequestHeader):
    """GET_KVLIST_BY_NAMESPACE (219)."""

    namespace: KvNamespace


# ---------------------------------------------------------------------------- broker registration


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


# ------------------------------------------------------------------------------ routes and topics


@request_header
class GetRouteInfoRequestHeader(TopicRequestHeader):
    """GET_ROUTEINFO_BY_TOPIC (105). The name server reads only ``topic`` and ``acceptStandardJsonOnly``
    (the hot path takes them straight from the ext fields); a topic the tables cannot hold is
    simply not found there."""

    topic: RouteTopic
    accept_standard_json_only: bool | None = None


@request_header
class DeleteTopicFromNamesrvRequestHeader(TopicRequestHeader):
    """DELETE_TOPIC_IN_NAMESRV (216): from every broker, or from one cluster's brokers."""

    topic: RouteTopic
    cluster_name: ClusterName | None = None


@request_header
class RegisterTopicRequestHeader(TopicRequestHeader):
    """REGISTER_TOPIC_IN_NAMESRV (217); the queues come in the body (a ``TopicRouteData``)."""

    topic: RouteTopic


@request_header
class GetTopicsByClusterRequestHeader(RequestHeader):
    """GET_TOPICS_BY_CLUSTER (224)."""

    cluster: ClusterName


@request_header
class GetBrokerMemberGroupRequestHeader(RequestHeader):
    """GET_BROKER_MEMBER_GROUP (901)."""

    cluster_name: ClusterName
    broker_name: BrokerName


# ------------------------------------------------------------------------------ write permission


@request_header
class WipeWritePermOfBrokerRequestHeader(RequestHeader):
    """WIPE_WRITE_PERM_OF_BROKER (205)."""

    broker_name: BrokerName


@request_header
class WipeWritePermOfBrokerResponseHeader(RequestHeader):
    """The answer to WIPE_WRITE_PERM_OF_BROKER: how many topics lost write permission."""

    wipe_topic_count: int | None = None


@request_header
class AddWritePermOfBrokerRequestHeader(RequestHeader):
    """ADD_WRITE_PERM_OF_BROKER (327)."""

    broker_name: BrokerName


@request_header
class AddWritePermOfBrokerResponseHeader(RequestHeader):
    """The answer to ADD_WRITE_PERM_OF_BROKER: how many topics got write permission back."""

    add_topic_count: int | None = None
