"""Request, response, language and serialization codes of the RocketMQ remoting protocol.

Values and names follow Apache RocketMQ 5.3.3 (``RequestCode``, ``ResponseCode``,
``RemotingSysResponseCode``, ``LanguageCode``; ``SerializeType`` lives beside the command in
:mod:`mqadmin.protocol.command`), plus the codes that only 4.x brokers and name servers still
speak (the ACL 1.0 admin codes), so frames from either generation get a readable name.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import IntEnum

from mqadmin.protocol.version import V5_0_0_SNAPSHOT

__all__ = [
    "LanguageCode",
    "RequestCode",
    "ResponseCode",
    "language_from_code",
    "language_from_name",
    "request_codes",
    "request_name",
    "response_codes",
    "response_name",
]


class RequestCode:
    """Every request code a RocketMQ 4.9.x or 5.3.3 process may send (the ``code`` of a request).

    Plain ``int`` constants: a frame carries a number, and a code this table does not know is still
    a valid request. :func:`request_codes` and :func:`request_name` give the names.
    """

    SEND_MESSAGE = 10
    PULL_MESSAGE = 11
    QUERY_MESSAGE = 12
    QUERY_BROKER_OFFSET = 13
    QUERY_CONSUMER_OFFSET = 14
    UPDATE_CONSUMER_OFFSET = 15
    UPDATE_AND_CREATE_TOPIC = 17
    UPDATE_AND_CREATE_TOPIC_LIST = 18
    GET_ALL_TOPIC_CONFIG = 21
    GET_TOPIC_CONFIG_LIST = 22
    GET_TOPIC_NAME_LIST = 23
    UPDATE_BROKER_CONFIG = 25
    GET_BROKER_CONFIG = 26
    TRIGGER_DELETE_FILES = 27
    GET_BROKER_RUNTIME_INFO = 28
    SEARCH_OFFSET_BY_TIMESTAMP = 29
    GET_MAX_OFFSET = 30
    GET_MIN_OFFSET = 31
    GET_EARLIEST_MSG_STORETIME = 32
    VIEW_MESSAGE_BY_ID = 33
    HEART_BEAT = 34
    UNREGISTER_CLIENT = 35
    CONSUMER_SEND_MSG_BACK = 36
    END_TRANSACTION = 37
    GET_CONSUMER_LIST_BY_GROUP = 38
    CHECK_TRANSACTION_STATE = 39
    NOTIFY_CONSUMER_IDS_CHANGED = 40
    LOCK_BATCH_MQ = 41
    UNLOCK_BATCH_MQ = 42
    GET_ALL_CONSUMER_OFFSET = 43
    GET_ALL_DELAY_OFFSET = 45
    CHECK_CLIENT_CONFIG = 46
    GET_CLIENT_CONFIG = 47
    # ACL 1.0 admin codes: 4.5.2 to 4.9.8 and 5.0 to 5.3.2, gone from 5.3.3
    UPDATE_AND_CREATE_ACL_CONFIG = 50
    DELETE_ACL_CONFIG = 51
    GET_BROKER_CLUSTER_ACL_INFO = 52
    UPDATE_GLOBAL_WHITE_ADDRS_CONFIG = 53
    # 4.6.0 to 4.9.7 and 5.0 to 5.3.2; neither 4.9.8 nor 5.3.3 has it
    GET_BROKER_CLUSTER_ACL_CONFIG = 54
    GET_TIMER_CHECK_POINT = 60
    GET_TIMER_METRICS = 61
    # pop consumption (5.x)
    POP_MESSAGE = 200050
    ACK_MESSAGE = 200051
    BATCH_ACK_MESSAGE = 200151
    PEEK_MESSAGE = 200052
    CHANGE_MESSAGE_INVISIBLETIME = 200053
    NOTIFICATION = 200054
    POLLING_INFO = 200055
    POP_ROLLBACK = 200056
    # name server
    PUT_KV_CONFIG = 100
    GET_KV_CONFIG = 101
    DELETE_KV_CONFIG = 102
    REGISTER_BROKER = 103
    UNREGISTER_BROKER = 104
    GET_ROUTEINFO_BY_TOPIC = 105
    GET_BROKER_CLUSTER_INFO = 106
    UPDATE_AND_CREATE_SUBSCRIPTIONGROUP = 200
    GET_ALL_SUBSCRIPTIONGROUP_CONFIG = 201
    GET_TOPIC_STATS_INFO = 202
    GET_CONSUMER_CONNECTION_LIST = 203
    GET_PRODUCER_CONNECTION_LIST = 204
    WIPE_WRITE_PERM_OF_BROKER = 205
    GET_ALL_TOPIC_LIST_FROM_NAMESERVER = 206
    DELETE_SUBSCRIPTIONGROUP = 207
    GET_CONSUME_STATS = 208
    SUSPEND_CONSUMER = 209
    RESUME_CONSUMER = 210
    RESET_CONSUMER_OFFSET_IN_CONSUMER = 211
    RESET_CONSUMER_OFFSET_IN_BROKER = 212
    ADJUST_CONSUMER_THREAD_POOL = 213
    WHO_CONSUME_THE_MESSAGE = 214
    DELETE_TOPIC_IN_BROKER = 215
    DELETE_TOPIC_IN_NAMESRV = 216
    REGISTER_TOPIC_IN_NAMESRV = 217
    GET_KVLIST_BY_NAMESPACE = 219
    RESET_CONSUMER_CLIENT_OFFSET = 220
    GET_CONSUMER_STATUS_FROM_CLIENT = 221
    INVOKE_BROKER_TO_RESET_OFFSET = 222
    INVOKE_BROKER_TO_GET_CONSUMER_STATUS = 223
    QUERY_TOPIC_CONSUME_BY_WHO = 300
    GET_TOPICS_BY_CLUSTER = 224
    UPDATE_AND_CREATE_SUBSCRIPTIONGROUP_LIST = 225
    QUERY_TOPICS_BY_CONSUMER = 343
    QUERY_SUBSCRIPTION_BY_CONSUMER = 345
    REGISTER_FILTER_SERVER = 301
    REGISTER_MESSAGE_FILTER_CLASS = 302
    QUERY_CONSUME_TIME_SPAN = 303
    GET_SYSTEM_TOPIC_LIST_FROM_NS = 304
    GET_SYSTEM_TOPIC_LIST_FROM_BROKER = 305
    CLEAN_EXPIRED_CONSUMEQUEUE = 306
    GET_CONSUMER_RUNNING_INFO = 307
    QUERY_CORRECTION_OFFSET = 308
    CONSUME_MESSAGE_DIRECTLY = 309
    SEND_MESSAGE_V2 = 310
    GET_UNIT_TOPIC_LIST = 311
    GET_HAS_UNIT_SUB_TOPIC_LIST = 312
    GET_HAS_UNIT_SUB_UNUNIT_TOPIC_LIST = 313
    CLONE_GROUP_OFFSET = 314
    VIEW_BROKER_STATS_DATA = 315
    CLEAN_UNUSED_TOPIC = 316
    GET_BROKER_CONSUME_STATS = 317
    UPDATE_NAMESRV_CONFIG = 318
    GET_NAMESRV_CONFIG = 319
    SEND_BATCH_MESSAGE = 320
    QUERY_CONSUME_QUEUE = 321
    QUERY_DATA_VERSION = 322
    RESUME_CHECK_HALF_MESSAGE = 323
    SEND_REPLY_MESSAGE = 324
    SEND_REPLY_MESSAGE_V2 = 325
    PUSH_REPLY_MESSAGE_TO_CLIENT = 326
    ADD_WRITE_PERM_OF_BROKER = 327
    GET_ALL_PRODUCER_INFO = 328
    DELETE_EXPIRED_COMMITLOG = 329
    GET_TOPIC_CONFIG = 351
    GET_SUBSCRIPTIONGROUP_CONFIG = 352
    UPDATE_AND_GET_GROUP_FORBIDDEN = 353
    CHECK_ROCKSDB_CQ_WRITE_PROGRESS = 354
    EXPORT_ROCKSDB_CONFIG_TO_JSON = 355
    LITE_PULL_MESSAGE = 361
    RECALL_MESSAGE = 370
    QUERY_ASSIGNMENT = 400
    SET_MESSAGE_REQUEST_MODE = 401
    GET_ALL_MESSAGE_REQUEST_MODE = 402
    UPDATE_AND_CREATE_STATIC_TOPIC = 513
    # broker containers and HA (5.x)
    GET_BROKER_MEMBER_GROUP = 901
    ADD_BROKER = 902
    REMOVE_BROKER = 903
    BROKER_HEARTBEAT = 904
    NOTIFY_MIN_BROKER_ID_CHANGE = 905
    EXCHANGE_BROKER_HA_INFO = 906
    GET_BROKER_HA_STATUS = 907
    RESET_MASTER_FLUSH_OFFSET = 908
    # controller (5.x)
    CONTROLLER_ALTER_SYNC_STATE_SET = 1001
    CONTROLLER_ELECT_MASTER = 1002
    CONTROLLER_REGISTER_BROKER = 1003
    CONTROLLER_GET_REPLICA_INFO = 1004
    CONTROLLER_GET_METADATA_INFO = 1005
    CONTROLLER_GET_SYNC_STATE_DATA = 1006
    GET_BROKER_EPOCH_CACHE = 1007
    NOTIFY_BROKER_ROLE_CHANGED = 1008
    UPDATE_CONTROLLER_CONFIG = 1009
    GET_CONTROLLER_CONFIG = 1010
    CLEAN_BROKER_DATA = 1011
    CONTROLLER_GET_NEXT_BROKER_ID = 1012
    CONTROLLER_APPLY_BROKER_ID = 1013
    BROKER_CLOSE_CHANNEL_REQUEST = 1014
    CHECK_NOT_ACTIVE_BROKER_REQUEST = 1015
    GET_BROKER_LIVE_INFO_REQUEST = 1016
    GET_SYNC_STATE_DATA_REQUEST = 1017
    RAFT_BROKER_HEART_BEAT_EVENT_REQUEST = 1018
    # tiered / cold data (5.x)
    UPDATE_COLD_DATA_FLOW_CTR_CONFIG = 2001
    REMOVE_COLD_DATA_FLOW_CTR_CONFIG = 2002
    GET_COLD_DATA_FLOW_CTR_INFO = 2003
    SET_COMMITLOG_READ_MODE = 2004
    # ACL 2.0 users and policies (5.3)
    AUTH_CREATE_USER = 3001
    AUTH_UPDATE_USER = 3002
    AUTH_DELETE_USER = 3003
    AUTH_GET_USER = 3004
    AUTH_LIST_USER = 3005
    AUTH_CREATE_ACL = 3006
    AUTH_UPDATE_ACL = 3007
    AUTH_DELETE_ACL = 3008
    AUTH_GET_ACL = 3009
    AUTH_LIST_ACL = 3010


class ResponseCode:
    """Every response code of RocketMQ 5.3.3, including the remoting layer's own (0 to 4).

    Plain ``int`` constants, as :class:`RequestCode`. Three 4.x names share values with 5.x names;
    the first (5.x) name is the canonical one, so ``response_name(209) == "POLLING_FULL"``.
    """

    # RemotingSysResponseCode
    SUCCESS = 0
    SYSTEM_ERROR = 1
    SYSTEM_BUSY = 2
    REQUEST_CODE_NOT_SUPPORTED = 3
    TRANSACTION_FAILED = 4
    # ResponseCode
    FLUSH_DISK_TIMEOUT = 10
    SLAVE_NOT_AVAILABLE = 11
    FLUSH_SLAVE_TIMEOUT = 12
    MESSAGE_ILLEGAL = 13
    SERVICE_NOT_AVAILABLE = 14
    VERSION_NOT_SUPPORTED = 15
    NO_PERMISSION = 16
    TOPIC_NOT_EXIST = 17
    TOPIC_EXIST_ALREADY = 18
    PULL_NOT_FOUND = 19
    PULL_RETRY_IMMEDIATELY = 20
    PULL_OFFSET_MOVED = 21
    QUERY_NOT_FOUND = 22
    SUBSCRIPTION_PARSE_FAILED = 23
    SUBSCRIPTION_NOT_EXIST = 24
    SUBSCRIPTION_NOT_LATEST = 25
    SUBSCRIPTION_GROUP_NOT_EXIST = 26
    FILTER_DATA_NOT_EXIST = 27
    FILTER_DATA_NOT_LATEST = 28
    INVALID_PARAMETER = 29
    TRANSACTION_SHOULD_COMMIT = 200
    TRANSACTION_SHOULD_ROLLBACK = 201
    TRANSACTION_STATE_UNKNOW = 202
    TRANSACTION_STATE_GROUP_WRONG = 203
    NO_BUYER_ID = 204
    NOT_IN_CURRENT_UNIT = 205
    CONSUMER_NOT_ONLINE = 206
    CONSUME_MSG_TIMEOUT = 207
    NO_MESSAGE = 208
    POLLING_FULL = 209
    POLLING_TIMEOUT = 210
    BROKER_NOT_EXIST = 211
    BROKER_DISPATCH_NOT_COMPLETE = 212
    BROADCAST_CONSUMPTION = 213
    FLOW_CONTROL = 215
    NOT_LEADER_FOR_QUEUE = 501
    ILLEGAL_OPERATION = 604
    RPC_UNKNOWN = -1000
    RPC_ADDR_IS_NULL = -1002
    RPC_SEND_TO_CHANNEL_FAILED = -1004
    RPC_TIME_OUT = -1006
    GO_AWAY = 1500
    # controller (5.x)
    CONTROLLER_FENCED_MASTER_EPOCH = 2000
    CONTROLLER_FENCED_SYNC_STATE_SET_EPOCH = 2001
    CONTROLLER_INVALID_MASTER = 2002
    CONTROLLER_INVALID_REPLICAS = 2003
    CONTROLLER_MASTER_NOT_AVAILABLE = 2004
    CONTROLLER_INVALID_REQUEST = 2005
    CONTROLLER_BROKER_NOT_ALIVE = 2006
    CONTROLLER_NOT_LEADER = 2007
    CONTROLLER_BROKER_METADATA_NOT_EXIST = 2008
    CONTROLLER_INVALID_CLEAN_BROKER_METADATA = 2009
    CONTROLLER_BROKER_NEED_TO_BE_REGISTERED = 2010
    CONTROLLER_MASTER_STILL_EXIST = 2011
    CONTROLLER_ELECT_MASTER_FAILED = 2012
    CONTROLLER_ALTER_SYNC_STATE_SET_FAILED = 2013
    CONTROLLER_BROKER_ID_INVALID = 2014
    CONTROLLER_JRAFT_INTERNAL_ERROR = 2015
    CONTROLLER_BROKER_LIVE_INFO_NOT_EXISTS = 2016
    # ACL 2.0 (5.3)
    USER_NOT_EXIST = 3001
    POLICY_NOT_EXIST = 3002
    # 4.x ACL 1.0 failures: the same values as POLLING_FULL, POLLING_TIMEOUT and BROKER_NOT_EXIST
    # in 5.x, so they are aliases here (see response_name(code, version)).
    UPDATE_AND_CREATE_ACL_CONFIG_FAILED = 209
    DELETE_ACL_CONFIG_FAILED = 210
    UPDATE_GLOBAL_WHITE_ADDRS_CONFIG_FAILED = 211


# Codes whose meaning changed between 4.x and 5.x: what a pre-5.0 peer means by them.
_LEGACY_RESPONSE_NAMES: dict[int, str] = {
    ResponseCode.UPDATE_AND_CREATE_ACL_CONFIG_FAILED: "UPDATE_AND_CREATE_ACL_CONFIG_FAILED",
    ResponseCode.DELETE_ACL_CONFIG_FAILED: "DELETE_ACL_CONFIG_FAILED",
    ResponseCode.UPDATE_GLOBAL_WHITE_ADDRS_CONFIG_FAILED: "UPDATE_GLOBAL_WHITE_ADDRS_CONFIG_FAILED",
}


def _constants(namespace: type) -> dict[str, int]:
    return {k: v for k, v in vars(namespace).items() if k.isupper() and type(v) is int}


_REQUEST_CODES: dict[str, int] | None = None
_RESPONSE_CODES: dict[str, int] | None = None
_REQUEST_NAMES: dict[int, str] | None = None
_RESPONSE_NAMES: dict[int, str] | None = None


def request_codes() -> Mapping[str, int]:
    """Every request name and its code, in declaration order (no two names share a code)."""
    global _REQUEST_CODES
    if _REQUEST_CODES is None:
        _REQUEST_CODES = _constants(RequestCode)
    return _REQUEST_CODES


def response_codes() -> Mapping[str, int]:
    """Every response name and its code, in declaration order; three 4.x names share a 5.x code."""
    global _RESPONSE_CODES
    if _RESPONSE_CODES is None:
        _RESPONSE_CODES = _constants(ResponseCode)
    return _RESPONSE_CODES


def _by_code(codes: Mapping[str, int]) -> dict[int, str]:
    names: dict[int, str] = {}
    for name, code in codes.items():
        names.setdefault(code, name)  # the first name declared for a code is its canonical one
    return names


def _request_names() -> dict[int, str]:
    global _REQUEST_NAMES
    if _REQUEST_NAMES is None:
        _REQUEST_NAMES = _by_code(request_codes())
    return _REQUEST_NAMES


def _response_names() -> dict[int, str]:
    global _RESPONSE_NAMES
    if _RESPONSE_NAMES is None:
        _RESPONSE_NAMES = _by_code(response_codes())
    return _RESPONSE_NAMES


def request_name(code: int) -> str:
    """Java name of a request code, or the number as text: logs and errors must never fail on it."""
    name = _request_names().get(code) if isinstance(code, int) else None
    return name if name is not None else str(code)


def response_name(code: int, version: int | None = None) -> str:
    """Java name of a response code, or the number as text for unknown codes.

    ``version`` is the responder's ``MQVersion`` ordinal (the frame's ``version`` field); a pre-5.0
    peer gets the 4.x name for the codes 209 to 211, whose meaning changed in 5.0.
    """
    if version is not None and code in _LEGACY_RESPONSE_NAMES:
        if version < V5_0_0_SNAPSHOT:
            return _LEGACY_RESPONSE_NAMES[code]
    name = _response_names().get(code) if isinstance(code, int) else None
    return name if name is not None else str(code)


class LanguageCode(IntEnum):
    """Client language of a frame: JSON headers carry the name, ROCKETMQ headers this byte."""

    JAVA = 0
    CPP = 1
    DOTNET = 2
    PYTHON = 3
    DELPHI = 4
    ERLANG = 5
    RUBY = 6
    OTHER = 7
    HTTP = 8
    GO = 9
    PHP = 10
    OMS = 11
    RUST = 12
    NODE_JS = 13  # 5.x only; a 4.9.8 peer knows 0 to 12

    @classmethod
    def from_name(cls, name: str) -> LanguageCode:
        """The language called ``name``; OTHER for names this version does not know.

        Java answers null for an unknown name; a peer newer than us must not break decoding.
        """
        by_name = cls.__members__
        m = by_name.get(name)
        if m is None:
            m = by_name.get(name.strip().upper(), cls.OTHER)
        return m

    @classmethod
    def from_code(cls, code: int) -> LanguageCode:
        """The language of a ROCKETMQ header byte; OTHER for bytes this version does not know."""
        try:
            return cls(code)
        except ValueError:
            return cls.OTHER


def language_from_name(name: str) -> LanguageCode:
    """Module-level spelling of :meth:`LanguageCode.from_name`."""
    return LanguageCode.from_name(name)


def language_from_code(code: int) -> LanguageCode:
    """Module-level spelling of :meth:`LanguageCode.from_code`."""
    return LanguageCode.from_code(code)
