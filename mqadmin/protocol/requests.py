"""The request registry: one declaration per request code, read by every server and the admin client.

A declaration says, for one code:

- **where it is served** (``broker``, ``namesrv``, ``controller``; ``client`` for the codes a broker
  sends to clients);
- **who may send it** on a server with ACL on (:data:`ACCESS`): a client request checked by the
  client rules (``client``), a request checked on the topics and groups its header names
  (``resource``, Java's ``@RocketMQResource`` fields), a read of broker-wide state (``cluster``: an
  ACL 2.0 policy on the ``Cluster`` resource, an ACL 1.0 admin account), or an operator's request
  (``admin``: an ACL 2.0 super user, an ACL 1.0 admin account); ``open`` asks only for valid
  credentials. ``admin1`` marks the resource requests that ACL 1.0 keeps for admin accounts too;
- **what it may cost** (:class:`Budget`): header bytes and ext fields (checked from the frame before
  the header is decoded), body bytes, inflated bytes, element counts;
- whether it **changes state**, and its **wire types** (header, body, response body), named as
  ``module:Class`` under :mod:`mqadmin.protocol` and resolved only when asked (:func:`wire_type`),
  so a command that sends one request imports none of them.

Servers refuse a code with no declaration when ACL is on, check the body against the budget before
they check credentials, and credentials before they parse a body. Nothing here does I/O; the table
is built on first use.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import cache
from types import MappingProxyType
from typing import Any

from mqadmin.protocol.codes import RequestCode as R

__all__ = [
    "ACCESS",
    "ADMIN",
    "CLIENT",
    "CLUSTER",
    "CREATE",
    "DELETE",
    "GET",
    "KIB",
    "LIST",
    "MIB",
    "OPEN",
    "PUB",
    "RESOURCE",
    "SUB",
    "UPDATE",
    "Budget",
    "Declaration",
    "Resource",
    "declarations",
    "declared",
    "limit",
    "served_by",
    "wire_type",
]

KIB = 1024
MIB = 1024 * 1024

PUB, SUB, CREATE, UPDATE, DELETE, GET, LIST = "Pub", "Sub", "Create", "Update", "Delete", "Get", "List"

OPEN, CLIENT, RESOURCE, CLUSTER, ADMIN = "open", "client", "resource", "cluster", "admin"
ACCESS = (OPEN, CLIENT, RESOURCE, CLUSTER, ADMIN)

BROKER, NAMESRV, CONTROLLER, TO_CLIENT = "broker", "namesrv", "controller", "client"

SMALL_BODY = 64 * KIB
"""The body a header-only request may carry: none is expected, a stray one is not worth 16 MiB."""
FRAME_BODY = 16 * MIB
"""The most any body may be: the frame limit."""
HEADER_BYTES = 16 * KIB
"""The header a request may carry: Java's clients send under 600 bytes (a signed send with properties)."""
HEADER_FIELDS = 64
"""The ext fields a request may carry: Java's largest request headers hold under 20."""


@dataclass(frozen=True, slots=True)
class Budget:
    """What one request may cost: its body, what a compressed body inflates to, and element counts
    (``limits``: a name such as ``groups`` to the most the request may carry); its header's bytes and
    ext fields (``header_bytes``, ``header_fields``)."""

    body: int = SMALL_BODY
    inflated: int = 0
    limits: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))
    header_bytes: int = HEADER_BYTES
    header_fields: int = HEADER_FIELDS


@dataclass(frozen=True, slots=True)
class Resource:
    """A header field that names a resource (Java's ``@RocketMQResource``): its Java name, the
    resource type (``Topic`` or ``Group``) and the splitter of a list-valued field."""

    field: str
    type: str
    splitter: str | None = None


@dataclass(frozen=True, slots=True)
class Declaration:
    """Everything a server and the admin client know of one request code (see the module docstring)."""

    code: int
    servers: frozenset[str]
    access: str
    actions: tuple[str, ...] = ()
    resources: tuple[Resource, ...] = ()
    admin1: bool = False
    writes: bool = False
    budget: Budget = Budget()
    header: str | None = None
    body: str | None = None
    response: str | None = None

    @property
    def acl1_admin(self) -> bool:
        """ACL 1.0 needs an ``admin: true`` account for this code."""
        return self.admin1 or self.access in (ADMIN, CLUSTER)

    @property
    def super_only(self) -> bool:
        """ACL 2.0 needs a super user for this code."""
        return self.access == ADMIN


def _t(name: str, splitter: str | None = None) -> Resource:
    return Resource(name, "Topic", splitter)


def _g(name: str, splitter: str | None = None) -> Resource:
    return Resource(name, "Group", splitter)


def _budget(body: int = SMALL_BODY, inflated: int = 0, **limits: int) -> Budget:
    return Budget(body, inflated, MappingProxyType(dict(limits)))


_SEND = replace(_budget(FRAME_BODY), header_bytes=64 * KIB)  # properties: Java allows 32767 chars
_ACL1_EDIT = replace(Budget(), header_bytes=256 * KIB)  # permissions and white lists are header fields
_BODY_1M = _budget(1 * MIB)


def _table() -> list[Declaration]:
    B, N, C, CL = frozenset({BROKER}), frozenset({NAMESRV}), frozenset({CONTROLLER}), frozenset({TO_CLIENT})
    out: list[Declaration] = []

    def d(code: int, servers: frozenset[str], access: str, *actions: str, **kw: Any) -> None:
        out.append(Declaration(code, servers, access, tuple(actions), **kw))

    # --- what clients send to a broker (checked by the client rules)
    d(R.SEND_MESSAGE, B, CLIENT, PUB, writes=True, budget=_SEND)
    d(R.SEND_MESSAGE_V2, B, CLIENT, PUB, writes=True, budget=_SEND)
    d(R.SEND_BATCH_MESSAGE, B, CLIENT, PUB, writes=True, budget=_SEND)
    d(R.CONSUMER_SEND_MSG_BACK, B, CLIENT, SUB, writes=True)
    d(R.PULL_MESSAGE, B, CLIENT, SUB)
    d(R.QUERY_MESSAGE, B, CLIENT, SUB, GET)
    d(R.VIEW_MESSAGE_BY_ID, B, RESOURCE, GET, resources=(_t("topic"),))
    d(
        R.HEART_BEAT,
        B,
        CLIENT,
        SUB,
        writes=True,
        budget=_budget(1 * MIB, groups=256, subscriptions=256, producers=256),
    )
    d(R.UNREGISTER_CLIENT, B, CLIENT, SUB, writes=True)
    d(R.GET_CONSUMER_LIST_BY_GROUP, B, CLIENT, SUB, GET)
    d(R.QUERY_CONSUMER_OFFSET, B, CLIENT, SUB, GET)
    d(R.UPDATE_CONSUMER_OFFSET, B, CLIENT, SUB, UPDATE, writes=True)
    d(R.LOCK_BATCH_MQ, B, CLIENT, SUB, writes=True, budget=_BODY_1M)
    d(R.UNLOCK_BATCH_MQ, B, CLIENT, SUB, writes=True, budget=_BODY_1M)
    d(R.END_TRANSACTION, B, CLIENT, PUB, writes=True)
    d(R.CHECK_CLIENT_CONFIG, B, OPEN, budget=_budget(256 * KIB))
    # --- reads checked on the topic or group they name
    for code in (
        R.SEARCH_OFFSET_BY_TIMESTAMP,
        R.GET_MAX_OFFSET,
        R.GET_MIN_OFFSET,
        R.GET_EARLIEST_MSG_STORETIME,
        R.GET_TOPIC_STATS_INFO,
        R.QUERY_TOPIC_CONSUME_BY_WHO,
        R.GET_TOPIC_CONFIG,
    ):
        d(code, B, RESOURCE, GET, resources=(_t("topic"),))
    d(R.CHECK_ROCKSDB_CQ_WRITE_PROGRESS, B, RESOURCE, GET, resources=(_t("topic"),))
    d(R.GET_CONSUMER_CONNECTION_LIST, B, RESOURCE, GET, resources=(_g("consumerGroup"),))
    d(
        R.GET_CONSUME_STATS,
        B,
        RESOURCE,
        GET,
        resources=(_g("consumerGroup"), _t("topic"), _t("topicList", ";")),
    )
    d(R.INVOKE_BROKER_TO_GET_CONSUMER_STATUS, B, RESOURCE, GET, resources=(_t("topic"), _g("group")))
    d(R.QUERY_CONSUME_TIME_SPAN, B, RESOURCE, GET, resources=(_t("topic"), _g("group")))
    d(R.GET_CONSUMER_RUNNING_INFO, B, RESOURCE, GET, resources=(_g("consumerGroup"),))
    d(
        R.QUERY_CORRECTION_OFFSET,
        B,
        RESOURCE,
        GET,
        resources=(_g("filterGroups", ","), _g("compareGroup"), _t("topic")),
    )
    d(R.CONSUME_MESSAGE_DIRECTLY, B, RESOURCE, SUB, resources=(_g("consumerGroup"), _t("topic")))
    d(R.QUERY_CONSUME_QUEUE, B, RESOURCE, GET, resources=(_t("topic"), _g("consumerGroup")))
    d(R.QUERY_TOPICS_BY_CONSUMER, B, RESOURCE, GET, resources=(_g("group"),))
    d(R.QUERY_SUBSCRIPTION_BY_CONSUMER, B, RESOURCE, GET, resources=(_g("group"), _t("topic")))
    d(R.GET_SUBSCRIPTIONGROUP_CONFIG, B, RESOURCE, GET, resources=(_g("group"),))
    # --- changes checked on what they name; ACL 1.0 keeps them for admin accounts
    d(R.UPDATE_AND_CREATE_TOPIC, B, RESOURCE, CREATE, resources=(_t("topic"),), admin1=True, writes=True)
    d(R.DELETE_TOPIC_IN_BROKER, B, RESOURCE, DELETE, resources=(_t("topic"),), admin1=True, writes=True)
    d(R.DELETE_SUBSCRIPTIONGROUP, B, RESOURCE, DELETE, resources=(_g("groupName"),), admin1=True, writes=True)
    d(
        R.INVOKE_BROKER_TO_RESET_OFFSET,
        B,
        RESOURCE,
        UPDATE,
        resources=(_g("group"), _t("topic")),
        admin1=True,
        writes=True,
    )
    d(
        R.CLONE_GROUP_OFFSET,
        B,
        RESOURCE,
        UPDATE,
        resources=(_g("destGroup"), _t("topic")),
        admin1=True,
        writes=True,
    )
    d(
        R.UPDATE_AND_GET_GROUP_FORBIDDEN,
        B,
        RESOURCE,
        UPDATE,
        resources=(_g("group"), _t("topic")),
        admin1=True,
        writes=True,
    )
    d(R.RESUME_CHECK_HALF_MESSAGE, B, RESOURCE, UPDATE, resources=(_t("topic"),), admin1=True, writes=True)
    # --- reads of broker-wide state
    for code in (
        R.GET_ALL_TOPIC_CONFIG,
        R.GET_BROKER_CONFIG,
        R.GET_BROKER_RUNTIME_INFO,
        R.VIEW_BROKER_STATS_DATA,
        R.GET_BROKER_CONSUME_STATS,
        R.GET_ALL_SUBSCRIPTIONGROUP_CONFIG,
        R.GET_ALL_CONSUMER_OFFSET,
        R.GET_ALL_DELAY_OFFSET,
        R.GET_SYSTEM_TOPIC_LIST_FROM_BROKER,
        R.GET_PRODUCER_CONNECTION_LIST,
        R.GET_ALL_PRODUCER_INFO,
        R.GET_ALL_MESSAGE_REQUEST_MODE,
        R.GET_BROKER_HA_STATUS,
        R.GET_BROKER_EPOCH_CACHE,
        R.GET_COLD_DATA_FLOW_CTR_INFO,
    ):
        d(code, B, CLUSTER, GET)
    d(R.GET_BROKER_CLUSTER_ACL_INFO, B, OPEN, GET)  # the ACL files' versions: no secret
    # --- an operator's: ACL 2.0 super users, ACL 1.0 admin accounts
    d(R.UPDATE_AND_CREATE_TOPIC_LIST, B, ADMIN, CREATE, writes=True, budget=_budget(4 * MIB, topics=10_000))
    d(R.UPDATE_BROKER_CONFIG, B, ADMIN, UPDATE, writes=True, budget=_budget(SMALL_BODY))
    d(R.UPDATE_AND_CREATE_SUBSCRIPTIONGROUP_LIST, B, ADMIN, UPDATE, writes=True, budget=_budget(4 * MIB))
    for code in (R.ADD_BROKER, R.REMOVE_BROKER):  # a Java broker container's
        d(code, B, ADMIN, UPDATE, writes=True)
    d(R.UPDATE_AND_CREATE_SUBSCRIPTIONGROUP, B, ADMIN, UPDATE, writes=True, budget=_budget(SMALL_BODY))
    d(R.UPDATE_AND_CREATE_STATIC_TOPIC, B, ADMIN, UPDATE, writes=True, budget=_BODY_1M)
    for code in (
        R.CLEAN_EXPIRED_CONSUMEQUEUE,
        R.CLEAN_UNUSED_TOPIC,
        R.DELETE_EXPIRED_COMMITLOG,
        R.SET_MESSAGE_REQUEST_MODE,
        R.POP_ROLLBACK,
        R.RESET_MASTER_FLUSH_OFFSET,
        R.SET_COMMITLOG_READ_MODE,
        R.EXPORT_ROCKSDB_CONFIG_TO_JSON,
        R.REMOVE_COLD_DATA_FLOW_CTR_CONFIG,
    ):
        d(code, B, ADMIN, UPDATE, writes=True)
    d(
        R.UPDATE_COLD_DATA_FLOW_CTR_CONFIG,
        B,
        ADMIN,
        UPDATE,
        writes=True,
        budget=_budget(SMALL_BODY, entries=1024),
    )
    for code in (R.UPDATE_AND_CREATE_ACL_CONFIG, R.DELETE_ACL_CONFIG, R.UPDATE_GLOBAL_WHITE_ADDRS_CONFIG):
        d(code, B, ADMIN, UPDATE, writes=True, budget=_ACL1_EDIT)
    d(R.GET_BROKER_CLUSTER_ACL_CONFIG, B, ADMIN, GET)
    for code in (
        R.AUTH_CREATE_USER,
        R.AUTH_UPDATE_USER,
        R.AUTH_DELETE_USER,
        R.AUTH_CREATE_ACL,
        R.AUTH_UPDATE_ACL,
        R.AUTH_DELETE_ACL,
    ):
        d(code, B, ADMIN, UPDATE, writes=True, budget=_budget(SMALL_BODY))
    for code in (R.AUTH_GET_USER, R.AUTH_LIST_USER, R.AUTH_GET_ACL, R.AUTH_LIST_ACL):
        d(code, B, ADMIN, GET)
    # --- the name server (no ACL there, as in Java; budgets still apply)
    d(
        R.REGISTER_BROKER,
        N,
        ADMIN,
        UPDATE,
        writes=True,
        budget=_budget(FRAME_BODY, 32 * MIB, filterServers=64),
    )
    d(R.UNREGISTER_BROKER, N, ADMIN, UPDATE, writes=True)
    d(R.BROKER_HEARTBEAT, N | C, ADMIN, UPDATE, writes=True)
    d(R.QUERY_DATA_VERSION, N, OPEN, budget=_BODY_1M)
    d(R.GET_ROUTEINFO_BY_TOPIC, N, OPEN, GET)
    d(R.GET_BROKER_CLUSTER_INFO, N, OPEN, GET)
    d(R.GET_BROKER_MEMBER_GROUP, N, OPEN, GET)
    for code in (
        R.GET_ALL_TOPIC_LIST_FROM_NAMESERVER,
        R.GET_TOPICS_BY_CLUSTER,
        R.GET_SYSTEM_TOPIC_LIST_FROM_NS,
        R.GET_UNIT_TOPIC_LIST,
        R.GET_HAS_UNIT_SUB_TOPIC_LIST,
        R.GET_HAS_UNIT_SUB_UNUNIT_TOPIC_LIST,
        R.GET_KV_CONFIG,
        R.GET_KVLIST_BY_NAMESPACE,
        R.GET_NAMESRV_CONFIG,
    ):
        d(code, N, OPEN, GET)
    d(
        R.PUT_KV_CONFIG,
        N,
        ADMIN,
        UPDATE,
        writes=True,
        budget=_budget(SMALL_BODY, valueBytes=64 * KIB, entries=10_000),
    )
    d(R.DELETE_KV_CONFIG, N, ADMIN, UPDATE, writes=True)
    d(R.WIPE_WRITE_PERM_OF_BROKER, N, ADMIN, UPDATE, writes=True)
    d(R.ADD_WRITE_PERM_OF_BROKER, N, ADMIN, UPDATE, writes=True)
    d(R.DELETE_TOPIC_IN_NAMESRV, N, ADMIN, DELETE, writes=True)
    d(R.REGISTER_TOPIC_IN_NAMESRV, N, ADMIN, UPDATE, writes=True, budget=_BODY_1M)
    d(R.UPDATE_NAMESRV_CONFIG, N, ADMIN, UPDATE, writes=True)
    # --- the controller (controllerAuth: an admin account's signature)
    for code in (
        R.CONTROLLER_ALTER_SYNC_STATE_SET,
        R.CONTROLLER_ELECT_MASTER,
        R.CONTROLLER_REGISTER_BROKER,
        R.UPDATE_CONTROLLER_CONFIG,
        R.CLEAN_BROKER_DATA,
        R.CONTROLLER_APPLY_BROKER_ID,
    ):
        d(code, C, ADMIN, UPDATE, writes=True)
    for code in (
        R.CONTROLLER_GET_REPLICA_INFO,
        R.CONTROLLER_GET_METADATA_INFO,
        R.CONTROLLER_GET_SYNC_STATE_DATA,
        R.GET_CONTROLLER_CONFIG,
        R.CONTROLLER_GET_NEXT_BROKER_ID,
    ):
        d(code, C, ADMIN, GET)
    # --- what a broker sends to its clients (a client answers them; no server of ours serves them)
    for code in (
        R.CHECK_TRANSACTION_STATE,
        R.NOTIFY_CONSUMER_IDS_CHANGED,
        R.RESET_CONSUMER_CLIENT_OFFSET,
        R.GET_CONSUMER_STATUS_FROM_CLIENT,
        R.PUSH_REPLY_MESSAGE_TO_CLIENT,
    ):
        d(code, CL, OPEN)
    return out


_WIRE: dict[int, tuple[str | None, str | None]] = {
    R.UPDATE_AND_CREATE_ACL_CONFIG: ("headers.acl:CreateAccessConfigRequestHeader", None),
    R.DELETE_ACL_CONFIG: ("headers.acl:DeleteAccessConfigRequestHeader", None),
    R.UPDATE_GLOBAL_WHITE_ADDRS_CONFIG: ("headers.acl:UpdateGlobalWhiteAddrsConfigRequestHeader", None),
    R.VIEW_BROKER_STATS_DATA: ("headers.broker:ViewBrokerStatsDataRequestHeader", None),
    R.UPDATE_AND_CREATE_SUBSCRIPTIONGROUP: (None, "bodies.group:SubscriptionGroupConfig"),
    R.DELETE_SUBSCRIPTIONGROUP: ("headers.consumer:DeleteSubscriptionGroupRequestHeader", None),
    R.GET_CONSUME_STATS: ("headers.consumer:GetConsumeStatsRequestHeader", None),
    R.GET_BROKER_CONSUME_STATS: ("headers.consumer:GetConsumeStatsInBrokerHeader", None),
    R.QUERY_TOPIC_CONSUME_BY_WHO: ("headers.consumer:QueryTopicConsumeByWhoRequestHeader", None),
    R.QUERY_CONSUME_TIME_SPAN: ("headers.consumer:QueryConsumeTimeSpanRequestHeader", None),
    R.UPDATE_AND_CREATE_TOPIC: ("headers.topic:CreateTopicRequestHeader", None),
    R.UPDATE_AND_CREATE_TOPIC_LIST: (None, "bodies.topic:TopicConfig"),
    R.DELETE_TOPIC_IN_BROKER: ("headers.topic:DeleteTopicRequestHeader", None),
    R.GET_TOPIC_CONFIG: ("headers.topic:GetTopicConfigRequestHeader", None),
    R.GET_TOPIC_STATS_INFO: ("headers.topic:GetTopicStatsInfoRequestHeader", None),
    R.QUERY_CONSUME_QUEUE: ("headers.topic:QueryConsumeQueueRequestHeader", None),
    R.AUTH_DELETE_USER: ("headers.auth:DeleteUserRequestHeader", None),
    R.AUTH_GET_USER: ("headers.auth:GetUserRequestHeader", None),
    R.AUTH_LIST_USER: ("headers.auth:ListUsersRequestHeader", None),
    R.AUTH_DELETE_ACL: ("headers.auth:DeleteAclRequestHeader", None),
    R.AUTH_GET_ACL: ("headers.auth:GetAclRequestHeader", None),
    R.AUTH_LIST_ACL: ("headers.auth:ListAclsRequestHeader", None),
    R.SET_MESSAGE_REQUEST_MODE: (None, "bodies.request_mode:SetMessageRequestModeRequestBody"),
    R.RESET_MASTER_FLUSH_OFFSET: ("headers.broker_ops:ResetMasterFlushOffsetHeader", None),
    R.SET_COMMITLOG_READ_MODE: ("headers.broker_ops:CommitLogReadAheadHeader", None),
    R.CHECK_ROCKSDB_CQ_WRITE_PROGRESS: ("headers.broker_ops:CheckRocksdbCqWriteProgressRequestHeader", None),
    R.EXPORT_ROCKSDB_CONFIG_TO_JSON: ("headers.broker_ops:ExportRocksDBConfigToJsonRequestHeader", None),
    R.HEART_BEAT: (None, "headers.consumer:HeartbeatData"),
    R.UNREGISTER_CLIENT: ("headers.consumer:UnregisterClientRequestHeader", None),
    R.GET_CONSUMER_LIST_BY_GROUP: ("headers.consumer:GetConsumerListByGroupRequestHeader", None),
    R.LOCK_BATCH_MQ: (None, "headers.consumer:LockBatchRequestBody"),
    R.UNLOCK_BATCH_MQ: (None, "headers.consumer:LockBatchRequestBody"),
    R.GET_CONSUMER_CONNECTION_LIST: ("headers.consumer:GetConsumerConnectionListRequestHeader", None),
    R.GET_PRODUCER_CONNECTION_LIST: ("headers.consumer:GetProducerConnectionListRequestHeader", None),
    R.INVOKE_BROKER_TO_RESET_OFFSET: ("headers.consumer:ResetOffsetRequestHeader", None),
    R.INVOKE_BROKER_TO_GET_CONSUMER_STATUS: ("headers.consumer:GetConsumerStatusRequestHeader", None),
    R.QUERY_CONSUMER_OFFSET: ("headers.consumer:QueryConsumerOffsetRequestHeader", None),
    R.UPDATE_CONSUMER_OFFSET: ("headers.consumer:UpdateConsumerOffsetRequestHeader", None),
    R.SEARCH_OFFSET_BY_TIMESTAMP: ("headers.consumer:SearchOffsetRequestHeader", None),
    R.GET_MAX_OFFSET: ("headers.consumer:GetMaxOffsetRequestHeader", None),
    R.GET_MIN_OFFSET: ("headers.consumer:GetMinOffsetRequestHeader", None),
    R.GET_EARLIEST_MSG_STORETIME: ("headers.consumer:GetEarliestMsgStoretimeRequestHeader", None),
    R.QUERY_CORRECTION_OFFSET: ("headers.consumer:QueryCorrectionOffsetHeader", None),
    R.CLONE_GROUP_OFFSET: ("headers.consumer:CloneGroupOffsetRequestHeader", None),
    R.QUERY_MESSAGE: ("headers.message:QueryMessageRequestHeader", None),
    R.VIEW_MESSAGE_BY_ID: ("headers.message:ViewMessageRequestHeader", None),
    R.CONSUMER_SEND_MSG_BACK: ("headers.message:ConsumerSendMsgBackRequestHeader", None),
    R.UPDATE_AND_CREATE_STATIC_TOPIC: ("headers.static_topic:CreateStaticTopicRequestHeader", None),
    R.END_TRANSACTION: ("headers.message:EndTransactionRequestHeader", None),
    R.PUT_KV_CONFIG: ("headers.namesrv:PutKVConfigRequestHeader", None),
    R.GET_KV_CONFIG: ("headers.namesrv:GetKVConfigRequestHeader", None),
    R.DELETE_KV_CONFIG: ("headers.namesrv:DeleteKVConfigRequestHeader", None),
    R.GET_KVLIST_BY_NAMESPACE: ("headers.namesrv:GetKVListByNamespaceRequestHeader", None),
    R.GET_BROKER_MEMBER_GROUP: ("headers.namesrv:GetBrokerMemberGroupRequestHeader", None),
    R.GET_TOPICS_BY_CLUSTER: ("headers.namesrv:GetTopicsByClusterRequestHeader", None),
    R.UNREGISTER_BROKER: ("headers.namesrv:UnRegisterBrokerRequestHeader", None),
    R.QUERY_DATA_VERSION: ("headers.namesrv:QueryDataVersionRequestHeader", None),
    R.BROKER_HEARTBEAT: ("headers.namesrv:BrokerHeartbeatRequestHeader", None),
    R.WIPE_WRITE_PERM_OF_BROKER: ("headers.namesrv:WipeWritePermOfBrokerRequestHeader", None),
    R.ADD_WRITE_PERM_OF_BROKER: ("headers.namesrv:AddWritePermOfBrokerRequestHeader", None),
    R.DELETE_TOPIC_IN_NAMESRV: ("headers.namesrv:DeleteTopicFromNamesrvRequestHeader", None),
    R.REGISTER_TOPIC_IN_NAMESRV: (
        "headers.namesrv:RegisterTopicRequestHeader",
        "bodies.route:TopicRouteData",
    ),
    R.CONTROLLER_GET_NEXT_BROKER_ID: ("headers.controller:GetNextBrokerIdRequestHeader", None),
    R.CONTROLLER_APPLY_BROKER_ID: ("headers.controller:ApplyBrokerIdRequestHeader", None),
    R.CONTROLLER_REGISTER_BROKER: ("headers.controller:RegisterBrokerToControllerRequestHeader", None),
    R.CONTROLLER_GET_REPLICA_INFO: ("headers.controller:GetReplicaInfoRequestHeader", None),
    R.CONTROLLER_ALTER_SYNC_STATE_SET: ("headers.controller:AlterSyncStateSetRequestHeader", None),
    R.CONTROLLER_ELECT_MASTER: ("headers.controller:ElectMasterRequestHeader", None),
    R.CLEAN_BROKER_DATA: ("headers.controller:CleanControllerBrokerDataRequestHeader", None),
    R.SEND_MESSAGE: ("headers.message:SendMessageRequestHeader", None),
    R.SEND_MESSAGE_V2: ("headers.message:SendMessageRequestHeaderV2", None),
    R.SEND_BATCH_MESSAGE: ("headers.message:SendMessageRequestHeaderV2", None),
    R.PULL_MESSAGE: ("headers.message:PullMessageRequestHeader", None),
    R.REGISTER_BROKER: ("headers.namesrv:RegisterBrokerRequestHeader", "bodies.register:RegisterBrokerBody"),
    R.RESET_CONSUMER_CLIENT_OFFSET: (None, "bodies.answers:ResetOffsetBody"),
}
"""The header and body type of each code that has one (``module:Class`` under :mod:`mqadmin.protocol`)."""

_RESPONSES: dict[int, str] = {
    R.GET_ROUTEINFO_BY_TOPIC: "bodies.route:TopicRouteData",
    R.GET_BROKER_CLUSTER_INFO: "bodies.cluster:ClusterInfo",
    R.GET_ALL_TOPIC_LIST_FROM_NAMESERVER: "bodies.topic:TopicList",
    R.GET_TOPICS_BY_CLUSTER: "bodies.topic:TopicList",
    R.GET_SYSTEM_TOPIC_LIST_FROM_NS: "bodies.topic:TopicList",
    R.GET_SYSTEM_TOPIC_LIST_FROM_BROKER: "bodies.topic:TopicList",
    R.GET_KVLIST_BY_NAMESPACE: "bodies.kv:KVTable",
    R.GET_BROKER_RUNTIME_INFO: "bodies.kv:KVTable",
    R.GET_ALL_TOPIC_CONFIG: "bodies.topic:TopicConfigSerializeWrapper",
    R.GET_TOPIC_CONFIG: "bodies.static_topic:TopicConfigAndQueueMapping",
    R.GET_TOPIC_STATS_INFO: "bodies.stats:TopicStatsTable",
    R.GET_CONSUME_STATS: "bodies.stats:ConsumeStats",
    R.GET_CONSUMER_CONNECTION_LIST: "bodies.connection:ConsumerConnection",
    R.GET_PRODUCER_CONNECTION_LIST: "bodies.connection:ProducerConnection",
    R.GET_ALL_SUBSCRIPTIONGROUP_CONFIG: "bodies.group:SubscriptionGroupWrapper",
    R.GET_SUBSCRIPTIONGROUP_CONFIG: "bodies.group:SubscriptionGroupConfig",
    R.GET_BROKER_HA_STATUS: "bodies.controller:HARuntimeInfo",
    R.GET_BROKER_EPOCH_CACHE: "bodies.controller:EpochEntryCache",
    R.GET_ALL_MESSAGE_REQUEST_MODE: "bodies.request_mode:MessageRequestModeWrapper",
    R.CHECK_ROCKSDB_CQ_WRITE_PROGRESS: "bodies.request_mode:CheckRocksdbCqWriteResult",
    R.AUTH_GET_USER: "bodies.auth:UserInfo",
    R.AUTH_GET_ACL: "bodies.auth:AclInfo",
    R.GET_CONSUMER_LIST_BY_GROUP: "bodies.answers:GetConsumerListByGroupResponseBody",
    R.LOCK_BATCH_MQ: "bodies.answers:LockBatchResponseBody",
    R.QUERY_TOPIC_CONSUME_BY_WHO: "bodies.answers:GroupList",
    R.QUERY_CONSUME_TIME_SPAN: "bodies.answers:QueryConsumeTimeSpanBody",
    R.GET_ALL_PRODUCER_INFO: "bodies.answers:ProducerTableInfo",
    R.INVOKE_BROKER_TO_RESET_OFFSET: "bodies.answers:ResetOffsetBody",
    R.INVOKE_BROKER_TO_GET_CONSUMER_STATUS: "bodies.answers:GetConsumerStatusBody",
    R.GET_BROKER_MEMBER_GROUP: "bodies.controller:GetBrokerMemberGroupResponseBody",
}
"""The response body type of each code whose answer has a typed body."""


@cache
def _by_code() -> Mapping[int, Declaration]:
    table: dict[int, Declaration] = {}
    for decl in _table():
        header, body = _WIRE.get(decl.code, (None, None))
        decl = replace(decl, header=header, body=body, response=_RESPONSES.get(decl.code))
        if decl.code in table:
            raise ValueError(f"request code {decl.code} is declared twice")
        table[decl.code] = decl
    return MappingProxyType(table)


def declarations() -> Mapping[int, Declaration]:
    """Every declared code."""
    return _by_code()


def declared(code: int) -> Declaration | None:
    """The declaration of ``code``, or None: a code no one declared (refused where ACL is on)."""
    return _by_code().get(code)


def served_by(server: str) -> frozenset[int]:
    """The codes declared for ``server`` (``broker``, ``namesrv``, ``controller``)."""
    return frozenset(c for c, d in _by_code().items() if server in d.servers)


def limit(code: int, key: str) -> int:
    """The declared element limit ``key`` of ``code`` (KeyError: not declared, a bug to fix here)."""
    decl = _by_code().get(code)
    if decl is None:
        raise KeyError(f"request code {code} is not declared")
    return decl.budget.limits[key]


def wire_type(ref: str | None) -> type | None:
    """The class a declaration names (``headers.topic:CreateTopicRequestHeader``), imported now."""
    if ref is None:
        return None
    module, _, name = ref.partition(":")
    cls = getattr(importlib.import_module(f"mqadmin.protocol.{module}"), name)
    if not isinstance(cls, type):
        raise TypeError(f"{ref} is not a class")
    return cls
