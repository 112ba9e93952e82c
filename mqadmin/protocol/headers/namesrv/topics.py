"""Topic headers of the name server: DELETE_TOPIC_IN_NAMESRV (216), REGISTER_TOPIC_IN_NAMESRV (217)
and GET_TOPICS_BY_CLUSTER (224)."""

from __future__ import annotations

from mqadmin.protocol.headers.base import ClusterName, RequestHeader, TopicRequestHeader, request_header
from mqadmin.protocol.headers.namesrv import RouteTopic

__all__ = [
    "DeleteTopicFromNamesrvRequestHeader",
    "GetTopicsByClusterRequestHeader",
    "RegisterTopicRequestHeader",
]


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
