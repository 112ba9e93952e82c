"""What the admin tool asks brokers about how a group consumes, beside its connections
(:mod:`.connections`) and its progress (:mod:`.consume_stats`): a broker's consume stats of every group
(GET_BROKER_CONSUME_STATS 317), who consumes a topic (QUERY_TOPIC_CONSUME_BY_WHO 300), consume time
spans (303), and what is relayed to a consumer (GET_CONSUMER_RUNNING_INFO 307, CONSUME_MESSAGE_DIRECTLY
309).

Apart from :mod:`mqadmin.protocol.headers.consumer` (which offers these names too), so that one of
these requests does not declare every consumer header and the bodies they check.
"""

from __future__ import annotations

from mqadmin.protocol.headers.base import ConsumedTopic, Group, RequestHeader, request_header

__all__ = [
    "ConsumeMessageDirectlyResultRequestHeader",
    "GetConsumeStatsInBrokerHeader",
    "GetConsumerRunningInfoRequestHeader",
    "QueryConsumeTimeSpanRequestHeader",
    "QueryTopicConsumeByWhoRequestHeader",
]


@request_header
class GetConsumerRunningInfoRequestHeader(RequestHeader):
    """GET_CONSUMER_RUNNING_INFO (307), relayed to the consumer."""

    consumer_group: Group
    client_id: str
    jstack_enable: bool | None = None


@request_header
class ConsumeMessageDirectlyResultRequestHeader(RequestHeader):
    """CONSUME_MESSAGE_DIRECTLY (309), relayed to the consumer."""

    consumer_group: Group
    client_id: str | None = None
    msg_id: str | None = None
    broker_name: str | None = None
    topic: ConsumedTopic | None = None
    topic_sys_flag: int | None = None
    group_sys_flag: int | None = None


@request_header
class GetConsumeStatsInBrokerHeader(RequestHeader):
    """GET_BROKER_CONSUME_STATS (317)."""

    is_order: bool | None = None


@request_header
class QueryTopicConsumeByWhoRequestHeader(RequestHeader):
    """QUERY_TOPIC_CONSUME_BY_WHO (300)."""

    topic: ConsumedTopic


@request_header
class QueryConsumeTimeSpanRequestHeader(RequestHeader):
    """QUERY_CONSUME_TIME_SPAN (303)."""

    topic: ConsumedTopic
    group: Group
