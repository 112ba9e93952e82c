"""Broker administration requests: stats items (315) and the broker config entries of 25.

GET_BROKER_CONFIG (26), GET_BROKER_RUNTIME_INFO (28), UPDATE_BROKER_CONFIG (25),
GET_ALL_TOPIC_CONFIG (21), GET_SYSTEM_TOPIC_LIST_FROM_BROKER (305) and the housekeeping requests
(306, 316, 329) carry no header in Java; the entries of UPDATE_BROKER_CONFIG are checked by
:mod:`mqadmin.protocol.configentry`.
"""

from __future__ import annotations

from mqadmin.protocol.headers.base import RequestHeader, request_header

__all__ = ["ViewBrokerStatsDataRequestHeader"]


@request_header
class ViewBrokerStatsDataRequestHeader(RequestHeader):
    """VIEW_BROKER_STATS_DATA (315)."""

    stats_name: str
    stats_key: str
