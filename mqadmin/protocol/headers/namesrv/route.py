"""The route query header of the name server: GET_ROUTEINFO_BY_TOPIC (105), the request most
clients send and the only one ``topicRoute`` needs."""

from __future__ import annotations

from mqadmin.protocol.headers.base import TopicRequestHeader, request_header
from mqadmin.protocol.headers.namesrv import RouteTopic

__all__ = ["GetRouteInfoRequestHeader"]


@request_header
class GetRouteInfoRequestHeader(TopicRequestHeader):
    """GET_ROUTEINFO_BY_TOPIC (105). The name server reads only ``topic`` and ``acceptStandardJsonOnly``
    (the hot path takes them straight from the ext fields); a topic the tables cannot hold is
    simply not found there."""

    topic: RouteTopic
    accept_standard_json_only: bool | None = None
