"""A group's progress on one broker: GET_CONSUME_STATS (208), what consumerProgress and the lag
checks ask every broker of a group's route."""

from __future__ import annotations

from mqadmin.protocol.headers.base import ConsumedTopicOrBlank, Group, RequestHeader, request_header

__all__ = ["GetConsumeStatsRequestHeader"]


@request_header
class GetConsumeStatsRequestHeader(RequestHeader):
    """GET_CONSUME_STATS (208); no topic or a blank one: every topic the group has offsets on."""

    consumer_group: Group
    topic: ConsumedTopicOrBlank | None = None
    topic_list: str | None = None
    """5.x: topics separated by ``;`` (a 4.x broker reads only ``topic``)."""
