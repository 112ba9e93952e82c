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
- whether it **changes state**, and its **wire types** (header, body, response body), on the code's
  own line like everything else about it (no second table to keep in step), named as
  ``module:Class`` under :mod:`mqadmin.protocol` and resolved only when asked (:func:`wire_type`).

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
    d(
        R.SEND_MESSAGE,
        B,
        CLIENT,
        PUB,
        writes=True,
        budget=_SEND,
        header="headers.send:SendMessageRequestHeader",
    )
    d(
        R.SEND_MESSAGE_V2,
        B,
        CLIENT,
        PUB,
        writes=True,
        budget=_SEND,
        header="headers.send:SendMessageRequestHeaderV2",
    )
    d(
        R.SEND_BATCH_MESSAGE,
        B,
        CLIENT,
        PUB,
        writes=True,
        budget=_SEND,
        header="headers.send:SendMessageRequestHeaderV2",
    )
    d(
        R.CONSUMER_SEND_MSG_BACK,
        B,
        CLIENT,
        SUB,
        writes=True,
        header="headers.message:ConsumerSendMsgBackRequestHeader",
    )
    d(R.PULL_MESSAGE, B, CLIENT, SUB, header="headers.message:PullMessageRequestHeader")
    d(R.QUERY_MESSAGE, B, CLIENT, SUB, GET, header="headers.message:QueryMessageRequestHeader")
    d(
        R.VIEW_MESSAGE_BY_ID,
        B,
        RESOURCE,
        GET,
        resources=(_t("topic"),),
        header="headers.message:ViewMessageRequestHeader",
    )
    d(
        R.HEART_BEAT,
        B,
        CLIENT,
        SUB,
        writes=True,
        budget=_budget(1 * MIB, groups=256, subscriptions=256, producers=256),
        body="headers.consumer:HeartbeatData",
    )
    d(
        R.UNREGISTER_CLIENT,
        B,
        CLIENT,
        SUB,
        writes=True,
        header="headers.consumer:UnregisterClientRequestHeader",
    )
    d(
        R.GET_CONSUMER_LIST_BY_GROUP,
        B,
        CLIENT,
        SUB,
        GET,
        header="headers.consumer:GetConsumerListByGroupRequestHeader",
        response="bodies.answers:GetConsumerListByGroupResponseBody",
    )
    d(
        R.QUERY_CONSUMER_OFFSET,
        B,
        CLIENT,
        SUB,
        GET,
        header="headers.consumer:QueryConsumerOffsetRequestHeader",
    )
    d(
        R.UPDATE_CONSUMER_OFFSET,
        B,
        CLIENT,
        SUB,
        UPDATE,
        writes=True,
        header="headers.consumer:UpdateConsumerOffsetRequestHeader",
    )
    d(
        R.LOCK_BATCH_MQ,
        B,
        CLIENT,
        SUB,
        writes=True,
        budget=_BODY_1M,
        body="headers.consumer:LockBatchRequestBody",
        response="bodies.answers:LockBatchResponseBody",
    )
    d(
        R.UNLOCK_BATCH_MQ,
        B,
        CLIENT,
        SUB,
        writes=True,
        budget=_BODY_1M,
        body="headers.consumer:LockBatchRequestBody",
    )
    d(R.END_TRANSACTION, B, CLIENT, PUB, writes=True, header="headers.message:EndTransactionRequestHeader")
    d(R.CHECK_CLIENT_CONFIG, B, OPEN, budget=_budget(256 * KIB))
    # --- reads checked on the topic or group they name
    d(
        R.SEARCH_OFFSET_BY_TIMESTAMP,
        B,
        RESOURCE,
        GET,
        resources=(_t("topic"),),
        header="headers.offset_query:SearchOffsetRequestHeader",
    )
    d(
        R.GET_MAX_OFFSET,
        B,
        RESOURCE,
        GET,
        resources=(_t("topic"),),
        header="headers.offset_query:GetMaxOffsetRequestHeader",
    )
    d(
        R.GET_MIN_OFFSET,
        B,
        RESOURCE,
        GET,
        resources=(_t("topic"),),
        header="headers.offset_query:GetMinOffsetRequestHeader",
    )
    d(
        R.GET_EARLIEST_MSG_STORETIME,
        B,
        RESOURCE,
        GET,
        resources=(_t("topic"),),
        header="headers.offset_query:GetEarliestMsgStoretimeRequestHeader",
    )
    d(
        R.GET_TOPIC_STATS_INFO,
        B,
        RESOURCE,
        GET,
        resources=(_t("topic"),),
        header="headers.topic:GetTopicStatsInfoRequestHeader",
        response="bodies.topic_stats:TopicStatsTable",
    )
    d(
        R.QUERY_TOPIC_CONSUME_BY_WHO,
        B,
        RESOURCE,
        GET,
        resources=(_t("topic"),),
        header="headers.consumption:QueryTopicConsumeByWhoRequestHeader",
        response="bodies.answers:GroupList",
    )
    d(
        R.GET_TOPIC_CONFIG,
        B,
        RESOURCE,
        GET,
        resources=(_t("topic"),),
        header="headers.topic:GetTopicConfigRequestHeader",
        response="bodies.static_topic:TopicConfigAndQueueMapping",
    )
    d(
        R.CHECK_ROCKSDB_CQ_WRITE_PROGRESS,
        B,
        RESOURCE,
        GET,
        resources=(_t("topic"),),
        header="headers.broker_ops:CheckRocksdbCqWriteProgressRequestHeader",
        response="bodies.request_mode:CheckRocksdbCqWriteResult",
    )
    d(
        R.GET_CONSUMER_CONNECTION_LIST,
        B,
        RESOURCE,
        GET,
        resources=(_g("consumerGroup"),),
        header="headers.connections:GetConsumerConnectionListRequestHeader",
        response="bodies.connection:ConsumerConnection",
    )
    d(
        R.GET_CONSUME_STATS,
        B,
        RESOURCE,
        GET,
        resources=(_g("consumerGroup"), _t("topic"), _t("topicList", ";")),
        header="headers.consume_stats:GetConsumeStatsRequestHeader",
        response="bodies.consume_stats:ConsumeStats",
    )
    d(
        R.INVOKE_BROKER_TO_GET_CONSUMER_STATUS,
        B,
        RESOURCE,
        GET,
        resources=(_t("topic"), _g("group")),
        header="headers.consumer:GetConsumerStatusRequestHeader",
        response="bodies.answers:GetConsumerStatusBody",
    )
    d(
        R.QUERY_CONSUME_TIME_SPAN,
        B,
        RESOURCE,
        GET,
        resources=(_t("topic"), _g("group")),
        header="headers.consumption:QueryConsumeTimeSpanRequestHeader",
        response="bodies.answers:QueryConsumeTimeSpanBody",
    )
    d(R.GET_CONSUMER_RUNNING_INFO, B, RESOURCE, GET, resources=(_g("consumerGroup"),))
    d(
        R.QUERY_CORRECTION_OFFSET,
        B,
        RESOURCE,
        GET,
        resources=(_g("filterGroups", ","), _g("compareGroup"), _t("topic")),
        header="headers.consumer:QueryCorrectionOffsetHeader",
    )
    d(R.CONSUME_MESSAGE_DIRECTLY, B, RESOURCE, SUB, resources=(_g("consumerGroup"), _t("topic")))
    d(
        R.QUERY_CONSUME_QUEUE,
        B,
        RESOURCE,
        GET,
        resources=(_t("topic"), _g("consumerGroup")),
        header="headers.topic:QueryConsumeQueueRequestHeader",
    )
    d(R.QUERY_TOPICS_BY_CONSUMER, B, RESOURCE, GET, resources=(_g("group"),))
    d(R.QUERY_SUBSCRIPTION_BY_CONSUMER, B, RESOURCE, GET, resources=(_g("group"), _t("topic")))
    d(
        R.GET_SUBSCRIPTIONGROUP_CONFIG,
        B,
        RESOURCE,
        GET,
        resources=(_g("group"),),
        response="bodies.group:SubscriptionGroupConfig",
    )
    # --- changes checked on what they name; ACL 1.0 keeps them for admin accounts
    d(
        R.UPDATE_AND_CREATE_TOPIC,
        B,
        RESOURCE,
        CREATE,
        resources=(_t("topic"),),
        admin1=True,
        writes=True,
        header="headers.topic:CreateTopicRequestHeader",
    )
    d(
        R.DELETE_TOPIC_IN_BROKER,
        B,
        RESOURCE,
        DELETE,
        resources=(_t("topic"),),
        admin1=True,
        writes=True,
        header="headers.topic:DeleteTopicRequestHeader",
    )
    d(
        R.DELETE_SUBSCRIPTIONGROUP,
        B,
        RESOURCE,
        DELETE,
        resources=(_g("groupName"),),
        admin1=True,
        writes=True,
        header="headers.consumer:DeleteSubscriptionGroupRequestHeader",
    )
    d(
        R.INVOKE_BROKER_TO_RESET_OFFSET,
        B,
        RESOURCE,
        UPDATE,
        resources=(_g("group"), _t("topic")),
        admin1=True,
        writes=True,
        header="headers.consumer:ResetOffsetRequestHeader",
        response="bodies.answers:ResetOffsetBody",
    )
    d(
        R.CLONE_GROUP_OFFSET,
        B,
        RESOURCE,
        UPDATE,
        resources=(_g("destGroup"), _t("topic")),
        admin1=True,
        writes=True,
        header="headers.consumer:CloneGroupOffsetRequestHeader",
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
    d(R.GET_ALL_TOPIC_CONFIG, B, CLUSTER, GET, response="bodies.topic:TopicConfigSerializeWrapper")
    d(R.GET_BROKER_CONFIG, B, CLUSTER, GET)
    d(R.GET_BROKER_RUNTIME_INFO, B, CLUSTER, GET, response="bodies.kv:KVTable")
    d(R.VIEW_BROKER_STATS_DATA, B, CLUSTER, GET, header="headers.broker:ViewBrokerStatsDataRequestHeader")
    d(R.GET_BROKER_CONSUME_STATS, B, CLUSTER, GET, header="headers.consumption:GetConsumeStatsInBrokerHeader")
    d(R.GET_ALL_SUBSCRIPTIONGROUP_CONFIG, B, CLUSTER, GET, response="bodies.group:SubscriptionGroupWrapper")
    d(R.GET_ALL_CONSUMER_OFFSET, B, CLUSTER, GET)
    d(R.GET_ALL_DELAY_OFFSET, B, CLUSTER, GET)
    d(R.GET_SYSTEM_TOPIC_LIST_FROM_BROKER, B, CLUSTER, GET, response="bodies.topic_list:TopicList")
    d(
        R.GET_PRODUCER_CONNECTION_LIST,
        B,
        CLUSTER,
        GET,
        header="headers.connections:GetProducerConnectionListRequestHeader",
        response="bodies.connection:ProducerConnection",
    )
    d(R.GET_ALL_PRODUCER_INFO, B, CLUSTER, GET, response="bodies.answers:ProducerTableInfo")
    d(
        R.GET_ALL_MESSAGE_REQUEST_MODE,
        B,
        CLUSTER,
        GET,
        response="bodies.request_mode:MessageRequestModeWrapper",
    )
    d(R.GET_BROKER_HA_STATUS, B, CLUSTER, GET, response="bodies.controller:HARuntimeInfo")
    d(R.GET_BROKER_EPOCH_CACHE, B, CLUSTER, GET, response="bodies.controller:EpochEntryCache")
    d(R.GET_COLD_DATA_FLOW_CTR_INFO, B, CLUSTER, GET)
    d(R.GET_BROKER_CLUSTER_ACL_INFO, B, OPEN, GET)  # the ACL files' versions: no secret
    # --- an operator's: ACL 2.0 super users, ACL 1.0 admin accounts
    d(
        R.UPDATE_AND_CREATE_TOPIC_LIST,
        B,
        ADMIN,
        CREATE,
        writes=True,
        budget=_budget(4 * MIB, topics=10_000),
        body="bodies.topic:TopicConfig",
    )
    d(R.UPDATE_BROKER_CONFIG, B, ADMIN, UPDATE, writes=True, budget=_budget(SMALL_BODY))
    d(R.UPDATE_AND_CREATE_SUBSCRIPTIONGROUP_LIST, B, ADMIN, UPDATE, writes=True, budget=_budget(4 * MIB))
    for code in (R.ADD_BROKER, R.REMOVE_BROKER):  # a Java broker container's
        d(code, B, ADMIN, UPDATE, writes=True)
    d(
        R.UPDATE_AND_CREATE_SUBSCRIPTIONGROUP,
        B,
        ADMIN,
        UPDATE,
        writes=True,
        budget=_budget(SMALL_BODY),
        body="bodies.group:SubscriptionGroupConfig",
    )
    d(
        R.UPDATE_AND_CREATE_STATIC_TOPIC,
        B,
        ADMIN,
        UPDATE,
        writes=True,
        budget=_BODY_1M,
        header="headers.static_topic:CreateStaticTopicRequestHeader",
    )
    d(R.CLEAN_EXPIRED_CONSUMEQUEUE, B, ADMIN, UPDATE, writes=True)
    d(R.CLEAN_UNUSED_TOPIC, B, ADMIN, UPDATE, writes=True)
    d(R.DELETE_EXPIRED_COMMITLOG, B, ADMIN, UPDATE, writes=True)
    d(
        R.SET_MESSAGE_REQUEST_MODE,
        B,
        ADMIN,
        UPDATE,
        writes=True,
        body="bodies.request_mode:SetMessageRequestModeRequestBody",
    )
    d(R.POP_ROLLBACK, B, ADMIN, UPDATE, writes=True)
    d(
        R.RESET_MASTER_FLUSH_OFFSET,
        B,
        ADMIN,
        UPDATE,
        writes=True,
        header="headers.broker_ops:ResetMasterFlushOffsetHeader",
    )
    d(
        R.SET_COMMITLOG_READ_MODE,
        B,
        ADMIN,
        UPDATE,
        writes=True,
        header="headers.broker_ops:CommitLogReadAheadHeader",
    )
    d(
        R.EXPORT_ROCKSDB_CONFIG_TO_JSON,
        B,
        ADMIN,
        UPDATE,
        writes=True,
        header="headers.broker_ops:ExportRocksDBConfigToJsonRequestHeader",
    )
    d(R.REMOVE_COLD_DATA_FLOW_CTR_CONFIG, B, ADMIN, UPDATE, writes=True)
    d(
        R.UPDATE_COLD_DATA_FLOW_CTR_CONFIG,
        B,
        ADMIN,
        UPDATE,
        writes=True,
        budget=_budget(SMALL_BODY, entries=1024),
    )
    d(
        R.UPDATE_AND_CREATE_ACL_CONFIG,
        B,
        ADMIN,
        UPDATE,
        writes=True,
        budget=_ACL1_EDIT,
        header="headers.acl:CreateAccessConfigRequestHeader",
    )
    d(
        R.DELETE_ACL_CONFIG,
        B,
        ADMIN,
        UPDATE,
        writes=True,
        budget=_ACL1_EDIT,
        header="headers.acl:DeleteAccessConfigRequestHeader",
    )
    d(
        R.UPDATE_GLOBAL_WHITE_ADDRS_CONFIG,
        B,
        ADMIN,
        UPDATE,
        writes=True,
        budget=_ACL1_EDIT,
        header="headers.acl:UpdateGlobalWhiteAddrsConfigRequestHeader",
    )
    d(R.GET_BROKER_CLUSTER_ACL_CONFIG, B, ADMIN, GET)
    d(R.AUTH_CREATE_USER, B, ADMIN, UPDATE, writes=True, budget=_budget(SMALL_BODY))
    d(R.AUTH_UPDATE_USER, B, ADMIN, UPDATE, writes=True, budget=_budget(SMALL_BODY))
    d(
        R.AUTH_DELETE_USER,
        B,
        ADMIN,
        UPDATE,
        writes=True,
        budget=_budget(SMALL_BODY),
        header="headers.auth:DeleteUserRequestHeader",
    )
    d(R.AUTH_CREATE_ACL, B, ADMIN, UPDATE, writes=True, budget=_budget(SMALL_BODY))
    d(R.AUTH_UPDATE_ACL, B, ADMIN, UPDATE, writes=True, budget=_budget(SMALL_BODY))
    d(
        R.AUTH_DELETE_ACL,
        B,
        ADMIN,
        UPDATE,
        writes=True,
        budget=_budget(SMALL_BODY),
        header="headers.auth:DeleteAclRequestHeader",
    )
    d(
        R.AUTH_GET_USER,
        B,
        ADMIN,
        GET,
        header="headers.auth:GetUserRequestHeader",
        response="bodies.auth:UserInfo",
    )
    d(R.AUTH_LIST_USER, B, ADMIN, GET, header="headers.auth:ListUsersRequestHeader")
    d(
        R.AUTH_GET_ACL,
        B,
        ADMIN,
        GET,
        header="headers.auth:GetAclRequestHeader",
        response="bodies.auth:AclInfo",
    )
    d(R.AUTH_LIST_ACL, B, ADMIN, GET, header="headers.auth:ListAclsRequestHeader")
    # --- the name server (no ACL there, as in Java; budgets still apply)
    d(
        R.REGISTER_BROKER,
        N,
        ADMIN,
        UPDATE,
        writes=True,
        budget=_budget(FRAME_BODY, 32 * MIB, filterServers=64),
        header="headers.namesrv.registration:RegisterBrokerRequestHeader",
        body="bodies.register:RegisterBrokerBody",
    )
    d(
        R.UNREGISTER_BROKER,
        N,
        ADMIN,
        UPDATE,
        writes=True,
        header="headers.namesrv.registration:UnRegisterBrokerRequestHeader",
    )
    d(
        R.BROKER_HEARTBEAT,
        N | C,
        ADMIN,
        UPDATE,
        writes=True,
        header="headers.namesrv.registration:BrokerHeartbeatRequestHeader",
    )
    d(
        R.QUERY_DATA_VERSION,
        N,
        OPEN,
        budget=_BODY_1M,
        header="headers.namesrv.registration:QueryDataVersionRequestHeader",
    )
    d(R.GET_ROUTEINFO_BY_TOPIC, N, OPEN, GET, response="bodies.route:TopicRouteData")
    d(R.GET_BROKER_CLUSTER_INFO, N, OPEN, GET, response="bodies.cluster:ClusterInfo")
    d(
        R.GET_BROKER_MEMBER_GROUP,
        N,
        OPEN,
        GET,
        header="headers.namesrv.registration:GetBrokerMemberGroupRequestHeader",
        response="bodies.controller:GetBrokerMemberGroupResponseBody",
    )
    d(R.GET_ALL_TOPIC_LIST_FROM_NAMESERVER, N, OPEN, GET, response="bodies.topic_list:TopicList")
    d(
        R.GET_TOPICS_BY_CLUSTER,
        N,
        OPEN,
        GET,
        header="headers.namesrv.topics:GetTopicsByClusterRequestHeader",
        response="bodies.topic_list:TopicList",
    )
    d(R.GET_SYSTEM_TOPIC_LIST_FROM_NS, N, OPEN, GET, response="bodies.topic_list:TopicList")
    d(R.GET_UNIT_TOPIC_LIST, N, OPEN, GET)
    d(R.GET_HAS_UNIT_SUB_TOPIC_LIST, N, OPEN, GET)
    d(R.GET_HAS_UNIT_SUB_UNUNIT_TOPIC_LIST, N, OPEN, GET)
    d(R.GET_KV_CONFIG, N, OPEN, GET, header="headers.namesrv.kvconfig:GetKVConfigRequestHeader")
    d(
        R.GET_KVLIST_BY_NAMESPACE,
        N,
        OPEN,
        GET,
        header="headers.namesrv.kvconfig:GetKVListByNamespaceRequestHeader",
        response="bodies.kv:KVTable",
    )
    d(R.GET_NAMESRV_CONFIG, N, OPEN, GET)
    d(
        R.PUT_KV_CONFIG,
        N,
        ADMIN,
        UPDATE,
        writes=True,
        # the value is a header field: room for its 64 KiB, escaped (six bytes a character at most)
        budget=replace(_budget(SMALL_BODY, valueBytes=64 * KIB, entries=10_000), header_bytes=512 * KIB),
        header="headers.namesrv.kvconfig:PutKVConfigRequestHeader",
    )
    d(
        R.DELETE_KV_CONFIG,
        N,
        ADMIN,
        UPDATE,
        writes=True,
        header="headers.namesrv.kvconfig:DeleteKVConfigRequestHeader",
    )
    d(
        R.WIPE_WRITE_PERM_OF_BROKER,
        N,
        ADMIN,
        UPDATE,
        writes=True,
        header="headers.namesrv.writeperm:WipeWritePermOfBrokerRequestHeader",
    )
    d(
        R.ADD_WRITE_PERM_OF_BROKER,
        N,
        ADMIN,
        UPDATE,
        writes=True,
        header="headers.namesrv.writeperm:AddWritePermOfBrokerRequestHeader",
    )
    d(
        R.DELETE_TOPIC_IN_NAMESRV,
        N,
        ADMIN,
        DELETE,
        writes=True,
        header="headers.namesrv.topics:DeleteTopicFromNamesrvRequestHeader",
    )
    d(
        R.REGISTER_TOPIC_IN_NAMESRV,
        N,
        ADMIN,
        UPDATE,
        writes=True,
        budget=_BODY_1M,
        header="headers.namesrv.topics:RegisterTopicRequestHeader",
        body="bodies.route:TopicRouteData",
    )
    d(R.UPDATE_NAMESRV_CONFIG, N, ADMIN, UPDATE, writes=True)
    # --- the controller (controllerAuth: an admin account's signature)
    d(
        R.CONTROLLER_ALTER_SYNC_STATE_SET,
        C,
        ADMIN,
        UPDATE,
        writes=True,
        header="headers.controller:AlterSyncStateSetRequestHeader",
    )
    d(
        R.CONTROLLER_ELECT_MASTER,
        C,
        ADMIN,
        UPDATE,
        writes=True,
        header="headers.controller:ElectMasterRequestHeader",
    )
    d(
        R.CONTROLLER_REGISTER_BROKER,
        C,
        ADMIN,
        UPDATE,
        writes=True,
        header="headers.controller:RegisterBrokerToControllerRequestHeader",
    )
    d(R.UPDATE_CONTROLLER_CONFIG, C, ADMIN, UPDATE, writes=True)
    d(
        R.CLEAN_BROKER_DATA,
        C,
        ADMIN,
        UPDATE,
        writes=True,
        header="headers.controller:CleanControllerBrokerDataRequestHeader",
    )
    d(
        R.CONTROLLER_APPLY_BROKER_ID,
        C,
        ADMIN,
        UPDATE,
        writes=True,
        header="headers.controller:ApplyBrokerIdRequestHeader",
    )
    d(R.CONTROLLER_GET_REPLICA_INFO, C, ADMIN, GET, header="headers.controller:GetReplicaInfoRequestHeader")
    d(R.CONTROLLER_GET_METADATA_INFO, C, ADMIN, GET)
    d(R.CONTROLLER_GET_SYNC_STATE_DATA, C, ADMIN, GET)
    d(R.GET_CONTROLLER_CONFIG, C, ADMIN, GET)
    d(
        R.CONTROLLER_GET_NEXT_BROKER_ID,
        C,
        ADMIN,
        GET,
        header="headers.controller:GetNextBrokerIdRequestHeader",
    )
    # --- what a broker sends to its clients (a client answers them; no server of ours serves them)
    d(R.CHECK_TRANSACTION_STATE, CL, OPEN)
    d(R.NOTIFY_CONSUMER_IDS_CHANGED, CL, OPEN)
    d(R.RESET_CONSUMER_CLIENT_OFFSET, CL, OPEN, body="bodies.answers:ResetOffsetBody")
    d(R.GET_CONSUMER_STATUS_FROM_CLIENT, CL, OPEN)
    d(R.PUSH_REPLY_MESSAGE_TO_CLIENT, CL, OPEN)
    return out


@cache
def _by_code() -> Mapping[int, Declaration]:
    table: dict[int, Declaration] = {}
    for decl in _table():
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
