"""Route and topic-list headers of the name server: GET_ROUTEINFO_BY_TOPIC (105),
DELETE_TOPIC_IN_NAMESRV (216), REGISTER_TOPIC_IN_NAMESRV (217), GET_TOPICS_BY_CLUSTER (224) and
GET_BROKER_MEMBER_GROUP (901)."""

from __future__ import annotations

from mqadmin.protocol.headers.base import (
    BrokerName,
    ClusterName,
    RequestHeader,
    TopicRequestHeader,
    request_header,
)
from mqadmin.protocol.headers.namesrv import RouteTopic

__all__ = [
    "DeleteTopicFromNamesrvRequestHeader",
    "GetBrokerMemberGroupRequestHeader",
    "GetRouteInfoRequestHeader",
    "GetTopicsByClusterRequestHeader",
    "RegisterTopicRequestHeader",
]


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
