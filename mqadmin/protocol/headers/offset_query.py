"""Queue offset queries (SEARCH_OFFSET_BY_TIMESTAMP, GET_MAX_OFFSET, GET_MIN_OFFSET,
GET_EARLIEST_MSG_STORETIME: 29-32).

Apart from :mod:`mqadmin.protocol.headers.consumer`, so that sending or pulling a message does not
declare every consumer header; that module offers these names too.
"""

from __future__ import annotations

from mqadmin.protocol.bodies.message_queue import MessageQueue
from mqadmin.protocol.headers.base import ConsumedTopic, Long, RequestHeader, request_header

__all__ = [
    "GetEarliestMsgStoretimeRequestHeader",
    "GetMaxOffsetRequestHeader",
    "GetMinOffsetRequestHeader",
    "SearchOffsetRequestHeader",
    "max_offset_header",
    "search_offset_header",
]

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


def max_offset_header(mq: MessageQueue) -> GetMaxOffsetRequestHeader:
    """GET_MAX_OFFSET's header as Java sends it (``committed`` is always true there)."""
    return GetMaxOffsetRequestHeader(mq.topic or "", mq.queue_id, committed=True, bname=mq.broker_name)


def search_offset_header(
    mq: MessageQueue, timestamp: int, boundary: str = "LOWER"
) -> SearchOffsetRequestHeader:
    """SEARCH_OFFSET_BY_TIMESTAMP's header: ``boundary`` LOWER (the first offset stored at or after
    ``timestamp``, Java's default) or UPPER."""
    return SearchOffsetRequestHeader(
        mq.topic or "", mq.queue_id, timestamp, boundary_type=boundary, bname=mq.broker_name
    )
