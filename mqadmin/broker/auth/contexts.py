"""What a request asks to do, in ACL 2.0 terms: (resource, actions) pairs, as Java 5.3.3's
``DefaultAuthorizationContextBuilder`` reads them from a remoting request.

The client requests have their own rules (a send to a retry topic is a SUB on the group, a pull
also names its group, a heartbeat names every consumer group and subscribed topic, ...). Every
other request is read through its header class's ``@RocketMQAction``/``@RocketMQResource``
annotations, tabled in :data:`ANNOTATED` for the codes a broker serves: the resource fields the
request carries, each a LITERAL resource, or (none present, a ``CLUSTER`` action) the broker's
cluster. A request naming nothing is not checked, as in Java.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple

from mqadmin.protocol.bodies import _json as j
from mqadmin.protocol.bodies.auth import ResourceKey
from mqadmin.protocol.codes import RequestCode as R
from mqadmin.protocol.command import RemotingCommand
from mqadmin.protocol.names import DLQ_GROUP_TOPIC_PREFIX, RETRY_GROUP_TOPIC_PREFIX

__all__ = ["ANNOTATED", "Annotated", "RequestContext", "request_contexts"]

PUB, SUB, CREATE, UPDATE, DELETE, GET, LIST = "Pub", "Sub", "Create", "Update", "Delete", "Get", "List"


class RequestContext(NamedTuple):
    resource: ResourceKey
    actions: tuple[str, ...]


class Annotated(NamedTuple):
    """A header class's annotations: its default resource type (``CLUSTER`` or None), its actions,
    and its ``@RocketMQResource`` fields in declaration order (Java name, type, splitter)."""

    cluster: bool
    actions: tuple[str, ...]
    fields: tuple[tuple[str, str, str | None], ...] = ()


_T, _G = "Topic", "Group"
ANNOTATED: dict[int, Annotated] = {
    R.UPDATE_AND_CREATE_TOPIC: Annotated(False, (CREATE,), (("topic", _T, None),)),
    R.UPDATE_AND_CREATE_TOPIC_LIST: Annotated(False, (CREATE,)),
    R.SEARCH_OFFSET_BY_TIMESTAMP: Annotated(False, (GET,), (("topic", _T, None),)),
    R.GET_MAX_OFFSET: Annotated(False, (GET,), (("topic", _T, None),)),
    R.GET_MIN_OFFSET: Annotated(False, (GET,), (("topic", _T, None),)),
    R.GET_EARLIEST_MSG_STORETIME: Annotated(False, (GET,), (("topic", _T, None),)),
    R.VIEW_MESSAGE_BY_ID: Annotated(False, (GET,), (("topic", _T, None),)),
    R.CHECK_TRANSACTION_STATE: Annotated(False, (PUB,), (("topic", _T, None),)),
    R.GET_TOPIC_STATS_INFO: Annotated(False, (GET,), (("topic", _T, None),)),
    R.GET_CONSUMER_CONNECTION_LIST: Annotated(False, (GET,), (("consumerGroup", _G, None),)),
    R.GET_PRODUCER_CONNECTION_LIST: Annotated(True, (GET,)),
    R.DELETE_SUBSCRIPTIONGROUP: Annotated(False, (DELETE,), (("groupName", _G, None),)),
    R.GET_CONSUME_STATS: Annotated(
        False, (GET,), (("consumerGroup", _G, None), ("topic", _T, None), ("topicList", _T, ";"))
    ),
    R.DELETE_TOPIC_IN_BROKER: Annotated(False, (DELETE,), (("topic", _T, None),)),
    R.INVOKE_BROKER_TO_RESET_OFFSET: Annotated(False, (UPDATE,), (("group", _G, None), ("topic", _T, None))),
    R.INVOKE_BROKER_TO_GET_CONSUMER_STATUS: Annotated(
        False, (GET,), (("topic", _T, None), ("group", _G, None))
    ),
    R.QUERY_TOPIC_CONSUME_BY_WHO: Annotated(False, (GET,), (("topic", _T, None),)),
    R.QUERY_CONSUME_TIME_SPAN: Annotated(False, (GET,), (("topic", _T, None), ("group", _G, None))),
    R.GET_CONSUMER_RUNNING_INFO: Annotated(False, (GET,), (("consumerGroup", _G, None),)),
    R.QUERY_CORRECTION_OFFSET: Annotated(
        False, (GET,), (("filterGroups", _G, ","), ("compareGroup", _G, None), ("topic", _T, None))
    ),
    R.CONSUME_MESSAGE_DIRECTLY: Annotated(False, (SUB,), (("consumerGroup", _G, None), ("topic", _T, None))),
    R.CLONE_GROUP_OFFSET: Annotated(False, (UPDATE,), (("destGroup", _G, None), ("topic", _T, None))),
    R.VIEW_BROKER_STATS_DATA: Annotated(True, (GET,)),
    R.GET_BROKER_CONSUME_STATS: Annotated(True, (GET,)),
    R.QUERY_CONSUME_QUEUE: Annotated(False, (GET,), (("topic", _T, None), ("consumerGroup", _G, None))),
    R.RESUME_CHECK_HALF_MESSAGE: Annotated(False, (UPDATE,), (("topic", _T, None),)),
    R.GET_ALL_PRODUCER_INFO: Annotated(True, (GET,)),
    R.QUERY_TOPICS_BY_CONSUMER: Annotated(False, (GET,), (("group", _G, None),)),
    R.QUERY_SUBSCRIPTION_BY_CONSUMER: Annotated(False, (GET,), (("group", _G, None), ("topic", _T, None))),
    R.GET_TOPIC_CONFIG: Annotated(False, (GET,), (("topic", _T, None),)),
    R.GET_SUBSCRIPTIONGROUP_CONFIG: Annotated(False, (GET,), (("group", _G, None),)),
    R.UPDATE_AND_GET_GROUP_FORBIDDEN: Annotated(False, (UPDATE,), (("group", _G, None), ("topic", _T, None))),
    R.CHECK_ROCKSDB_CQ_WRITE_PROGRESS: Annotated(False, (GET,), (("topic", _T, None),)),
    R.EXPORT_ROCKSDB_CONFIG_TO_JSON: Annotated(True, (GET,)),
    R.RESET_MASTER_FLUSH_OFFSET: Annotated(True, (UPDATE,)),
    R.POP_MESSAGE: Annotated(False, (SUB,), (("consumerGroup", _G, None), ("topic", _T, None))),
    R.ACK_MESSAGE: Annotated(False, (SUB,), (("consumerGroup", _G, None), ("topic", _T, None))),
    R.PEEK_MESSAGE: Annotated(False, (SUB,), (("topic", _T, None), ("consumerGroup", _G, None))),
    R.CHANGE_MESSAGE_INVISIBLETIME: Annotated(
        False, (SUB,), (("consumerGroup", _G, None), ("topic", _T, None))
    ),
    R.NOTIFICATION: Annotated(False, (SUB,), (("consumerGroup", _G, None), ("topic", _T, None))),
    R.POLLING_INFO: Annotated(False, (GET,), (("consumerGroup", _G, None), ("topic", _T, None))),
    R.AUTH_CREATE_USER: Annotated(True, (UPDATE,)),
    R.AUTH_UPDATE_USER: Annotated(True, (UPDATE,)),
    R.AUTH_DELETE_USER: Annotated(True, (UPDATE,)),
    R.AUTH_GET_USER: Annotated(True, (GET,)),
    R.AUTH_LIST_USER: Annotated(True, (GET,)),
    R.AUTH_CREATE_ACL: Annotated(True, (UPDATE,)),
    R.AUTH_UPDATE_ACL: Annotated(True, (UPDATE,)),
    R.AUTH_DELETE_ACL: Annotated(True, (UPDATE,)),
    R.AUTH_GET_ACL: Annotated(True, (GET,)),
    R.AUTH_LIST_ACL: Annotated(True, (GET,)),
}
"""Header annotations of 5.3.3 for the codes a broker serves (codes without a header class, such
as GET_BROKER_CONFIG, name nothing and are not checked, as in Java)."""


def _is_retry(topic: str | None) -> bool:
    return topic is not None and topic.startswith(RETRY_GROUP_TOPIC_PREFIX)


def _topic(name: str | None) -> ResourceKey:
    return ResourceKey("Topic", name, "LITERAL")


def _group(name: str | None) -> ResourceKey:
    """``Resource.ofGroup``: a retry or DLQ topic stands for its group."""
    if name is not None:
        for prefix in (RETRY_GROUP_TOPIC_PREFIX, DLQ_GROUP_TOPIC_PREFIX):
            if name.startswith(prefix):
                name = name[len(prefix) :]
                break
    return ResourceKey("Group", name, "LITERAL")


def _blank(s: str | None) -> bool:
    return s is None or not s.strip()


def _send(ext: Mapping[str, str], topic_key: str, group_key: str) -> list[RequestContext]:
    topic = ext.get(topic_key)
    if _is_retry(topic):
        group = ext.get(group_key)
        return [RequestContext(_group(topic if _blank(group) else group), (SUB,))]
    return [RequestContext(_topic(topic), (PUB,))]


def _body_object(cmd: RemotingCommand, what: str) -> dict[object, object]:
    return j.decode_object(cmd.body or b"", what)


def _heartbeat(cmd: RemotingCommand) -> list[RequestContext]:
    out: list[RequestContext] = []
    data = _body_object(cmd, "HeartbeatData")
    for cd in j.list_of(data.get("consumerDataSet"), "consumerDataSet", j.obj) or []:
        out.append(RequestContext(_group(j.opt_str(cd.get("groupName"), "groupName")), (SUB,)))
        for sd in j.list_of(cd.get("subscriptionDataSet"), "subscriptionDataSet", j.obj) or []:
            topic = j.opt_str(sd.get("topic"), "topic")
            if not _is_retry(topic):
                out.append(RequestContext(_topic(topic), (SUB,)))
    return out


def _lock(cmd: RemotingCommand) -> list[RequestContext]:
    data = _body_object(cmd, "LockBatchRequestBody")
    out = [RequestContext(_group(j.opt_str(data.get("consumerGroup"), "consumerGroup")), (SUB,))]
    for mq in j.list_of(data.get("mqSet"), "mqSet", j.obj) or []:
        topic = j.opt_str(mq.get("topic"), "topic")
        if not _is_retry(topic):
            out.append(RequestContext(_topic(topic), (SUB,)))
    return out


def _annotated(code: int, ext: Mapping[str, str], cluster: str) -> list[RequestContext]:
    spec = ANNOTATED.get(code)
    if spec is None:
        return []
    out: list[RequestContext] = []
    for name, rtype, splitter in spec.fields:
        value = ext.get(name)
        if value is None:
            continue
        values = [v for v in value.split(splitter) if v] if splitter else [value]
        for v in values:
            if rtype == "Topic" and _is_retry(v):
                out.append(RequestContext(_group(v), spec.actions))
            else:
                out.append(RequestContext(ResourceKey(rtype, v, "LITERAL"), spec.actions))
    if not out and spec.cluster:
        out.append(RequestContext(ResourceKey("Cluster", cluster, "LITERAL"), spec.actions))
    return out


def request_contexts(cmd: RemotingCommand, cluster: str) -> list[RequestContext]:
    """The (resource, actions) pairs ``cmd`` needs; :class:`ProtocolError` for a body Java could
    not read either (Java: "parse authorization context error.")."""
    ext = cmd.ext_fields
    if not ext:
        return []
    code = cmd.code
    if code == R.SEND_MESSAGE:
        return _send(ext, "topic", "group")
    if code in (R.SEND_MESSAGE_V2, R.SEND_BATCH_MESSAGE):
        return _send(ext, "b", "a")
    if code == R.RECALL_MESSAGE:
        return [RequestContext(_topic(ext.get("topic")), (PUB,))]
    if code == R.END_TRANSACTION:
        topic = ext.get("topic")
        return [] if _blank(topic) else [RequestContext(_topic(topic), (PUB,))]
    if code == R.CONSUMER_SEND_MSG_BACK:
        return [RequestContext(_group(ext.get("group")), (SUB,))]
    if code == R.PULL_MESSAGE:
        out = [] if _is_retry(ext.get("topic")) else [RequestContext(_topic(ext.get("topic")), (SUB,))]
        return [*out, RequestContext(_group(ext.get("consumerGroup")), (SUB,))]
    if code == R.QUERY_MESSAGE:
        return [RequestContext(_topic(ext.get("topic")), (SUB, GET))]
    if code == R.HEART_BEAT:
        return _heartbeat(cmd)
    if code == R.UNREGISTER_CLIENT:
        group = ext.get("consumerGroup")
        return [] if _blank(group) else [RequestContext(_group(group), (SUB,))]
    if code == R.GET_CONSUMER_LIST_BY_GROUP:
        return [RequestContext(_group(ext.get("consumerGroup")), (SUB, GET))]
    if code in (R.QUERY_CONSUMER_OFFSET, R.UPDATE_CONSUMER_OFFSET):
        actions = (SUB, GET) if code == R.QUERY_CONSUMER_OFFSET else (SUB, UPDATE)
        topic = ext.get("topic")
        out = [] if _is_retry(topic) else [RequestContext(_topic(topic), actions)]
        return [*out, RequestContext(_group(ext.get("consumerGroup")), actions)]
    if code in (R.LOCK_BATCH_MQ, R.UNLOCK_BATCH_MQ):
        return _lock(cmd)
    return _annotated(code, ext, cluster)
