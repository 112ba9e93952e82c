"""Queue offset queries (SEARCH_OFFSET_BY_TIMESTAMP, GET_MAX_OFFSET, GET_MIN_OFFSET,
GET_EARLIEST_MSG_STORETIME: 29-32) and the consumed-topic field types they and the message headers
share (the rule itself is :func:`mqadmin.protocol.names.check_consumed_topic`).

Apart from :mod:`mqadmin.protocol.headers.consumer`, so that sending or pulling a message does not
declare every consumer header; that module offers these names too.
"""

from __future__ import annotations

from mqadmin.protocol.headers.base import Annotated, Check, Long, RequestHeader, request_header
from mqadmin.protocol.names import check_consumed_topic, check_consumed_topic_or_blank

__all__ = [
    "ConsumedTopic",
    "ConsumedTopicOrBlank",
    "GetEarliestMsgStoretimeRequestHeader",
    "GetMaxOffsetRequestHeader",
    "GetMinOffsetRequestHeader",
    "SearchOffsetRequestHeader",
]

ConsumedTopic = Annotated[str, Check(check_consumed_topic)]
ConsumedTopicOrBlank = Annotated[str, Check(check_consumed_topic_or_blank)]


# ------------------------------------------------------------------------------------ 29, 30, 31, 32


@request_header
class SearchOffsetRequestHeader(RequestHeader):
    """SEARCH_OFFSET_BY_TIMESTAMP (29)."""

    topic: ConsumedTopic
    queue_id: int
    timestamp: Long
    boundary_type: str | None = None
    """5.x: ``LOWER`` or ``UPPER``; a 4.x broker always answers the lower boundary."""
    bname: str | None = None
    lo: bool | None = None


@request_header
class GetMaxOffsetRequestHeader(RequestHeader):
    """GET_MAX_OFFSET (30)."""

    topic: ConsumedTopic
    queue_id: int
    committed: bool | None = None
    bname: str | None = None
    lo: bool | None = None
    """``TopicRequestHeader.lo``: false on a request a broker forwards with physical ids (static topics)."""


@request_header
class GetMinOffsetRequestHeader(RequestHeader):
    """GET_MIN_OFFSET (31)."""

    topic: ConsumedTopic
    queue_id: int
    bname: str | None = None
    lo: bool | None = None


@request_header
class GetEarliestMsgStoretimeRequestHeader(RequestHeader):
    """GET_EARLIEST_MSG_STORETIME (32)."""

    topic: ConsumedTopic
    queue_id: int
    bname: str | None = None
    lo: bool | None = None
