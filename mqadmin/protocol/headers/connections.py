"""Who is connected to a broker for a group: GET_CONSUMER_CONNECTION_LIST (203) and
GET_PRODUCER_CONNECTION_LIST (204), the connection lists the admin tool asks for."""

from __future__ import annotations

from mqadmin.protocol.headers.base import Group, RequestHeader, request_header

__all__ = ["GetConsumerConnectionListRequestHeader", "GetProducerConnectionListRequestHeader"]


@request_header
class GetConsumerConnectionListRequestHeader(RequestHeader):
    """GET_CONSUMER_CONNECTION_LIST (203)."""

    consumer_group: Group


@request_header
class GetProducerConnectionListRequestHeader(RequestHeader):
    """GET_PRODUCER_CONNECTION_LIST (204)."""

    producer_group: Group
