"""What a request asks to do, in ACL 2.0 terms: (resource, actions) pairs, as Java 5.3.3's
``DefaultAuthorizationContextBuilder`` reads them from a remoting request.

The client requests have their own rules (a send to a retry topic is a SUB on the group, a pull
also names its group, a heartbeat names every consumer group and subscribed topic, ...). Every
other request is read through its declaration in :mod:`mqadmin.protocol.requests` (Java's
``@RocketMQAction``/``@RocketMQResource``): the resource fields the request carries, each a LITERAL
resource; a request that names none of them, and a ``cluster`` request, needs its actions on the
broker's cluster. Java checks nothing for a request that names nothing; here nothing goes unchecked.

A ``%RETRY%G`` or ``%DLQ%G`` topic always stands for group G, whatever group the request names
(Java takes the group field of a send, so a user of one group could write to another's retry topic).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple

from mqadmin.protocol.bodies import fieldcheck as j
from mqadmin.protocol.bodies.auth import ResourceKey
from mqadmin.protocol.codes import RequestCode as R
from mqadmin.protocol.command import RemotingCommand
from mqadmin.protocol.names import DLQ_GROUP_TOPIC_PREFIX, RETRY_GROUP_TOPIC_PREFIX
from mqadmin.protocol.requests import CLIENT, CLUSTER, GET, PUB, RESOURCE, SUB, UPDATE, Declaration, declared

__all__ = ["RequestContext", "cluster_context", "request_contexts", "resource_context"]


class RequestContext(NamedTuple):
    resource: ResourceKey
    actions: tuple[str, ...]


def _is_retry(topic: str | None) -> bool:
    """A topic that stands for a group: ``%RETRY%G`` or ``%DLQ%G``."""
    return topic is not None and topic.startswith((RETRY_GROUP_TOPIC_PREFIX, DLQ_GROUP_TOPIC_PREFIX))


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


def _send(ext: Mapping[str, str], topic_key: str) -> list[RequestContext]:
    topic = ext.get(topic_key)
    if _is_retry(topic):
        return [RequestContext(_group(topic), (SUB,))]
    return [RequestContext(_topic(topic), (PUB,))]


def _body_object(cmd: RemotingCommand, what: str) -> dict[object, object]:
    return j.decode_object(cmd.body or b"", what)


def _heartbeat(cmd: RemotingCommand) -> list[RequestContext]:
    out: list[RequestContext] = []
    data = _body_object(cmd, "HeartbeatData")
    for cd in j.list_of(data.get("consumerDataSet"), "consumerDataSet", j.obj) or []:
        out.append(RequestContext(_group(j.opt_str(cd.get("groupName"), "groupName")), (SUB,)))
        for sd in j.list_of(cd.get("subscriptionDataSet"), "subscriptionDataSet", j.obj) or []:
            out.append(resource_context("Topic", j.opt_str(sd.get("topic"), "topic"), (SUB,)))
    return out


def _lock(cmd: RemotingCommand) -> list[RequestContext]:
    data = _body_object(cmd, "LockBatchRequestBody")
    out = [RequestContext(_group(j.opt_str(data.get("consumerGroup"), "consumerGroup")), (SUB,))]
    for mq in j.list_of(data.get("mqSet"), "mqSet", j.obj) or []:
        out.append(resource_context("Topic", j.opt_str(mq.get("topic"), "topic"), (SUB,)))
    return out


def resource_context(rtype: str, name: str | None, actions: tuple[str, ...]) -> RequestContext:
    """One resource named in a request: a topic that stands for a group is that group."""
    if rtype == "Topic" and _is_retry(name):
        return RequestContext(_group(name), actions)
    return RequestContext(ResourceKey(rtype, name, "LITERAL"), actions)


def cluster_context(cluster: str, actions: tuple[str, ...]) -> RequestContext:
    return RequestContext(ResourceKey("Cluster", cluster, "LITERAL"), actions)


def _declared(decl: Declaration, ext: Mapping[str, str], cluster: str) -> list[RequestContext]:
    out: list[RequestContext] = []
    if decl.access == RESOURCE:
        for res in decl.resources:
            value = ext.get(res.field)
            if value is None:
                continue
            values = [v for v in value.split(res.splitter) if v] if res.splitter else [value]
            out.extend(resource_context(res.type, v, decl.actions) for v in values)
    if not out and decl.access in (RESOURCE, CLUSTER):
        out.append(cluster_context(cluster, decl.actions))
    return out


def request_contexts(cmd: RemotingCommand, cluster: str) -> list[RequestContext]:
    """The (resource, actions) pairs ``cmd`` needs, each once; :class:`ProtocolError` for a body Java
    could not read either (Java: "parse authorization context error.")."""
    return list(dict.fromkeys(_contexts(cmd, cluster)))


def _contexts(cmd: RemotingCommand, cluster: str) -> list[RequestContext]:
    code = cmd.code
    decl = declared(code)
    if decl is not None and decl.access != CLIENT:
        return _declared(decl, cmd.ext_fields or {}, cluster)
    ext = cmd.ext_fields
    if not ext:
        return []
    if code == R.SEND_MESSAGE:
        return _send(ext, "topic")
    if code in (R.SEND_MESSAGE_V2, R.SEND_BATCH_MESSAGE):
        return _send(ext, "b")
    if code == R.RECALL_MESSAGE:
        return [RequestContext(_topic(ext.get("topic")), (PUB,))]
    if code == R.END_TRANSACTION:
        topic = ext.get("topic")
        return [] if _blank(topic) else [RequestContext(_topic(topic), (PUB,))]
    if code == R.CONSUMER_SEND_MSG_BACK:
        return [RequestContext(_group(ext.get("group")), (SUB,))]
    if code == R.PULL_MESSAGE:
        topic = ext.get("topic")
        named = RequestContext(_group(topic) if _is_retry(topic) else _topic(topic), (SUB,))
        return [named, RequestContext(_group(ext.get("consumerGroup")), (SUB,))]
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
        named = RequestContext(_group(topic) if _is_retry(topic) else _topic(topic), actions)
        return [named, RequestContext(_group(ext.get("consumerGroup")), actions)]
    if code in (R.LOCK_BATCH_MQ, R.UNLOCK_BATCH_MQ):
        return _lock(cmd)
    return []
