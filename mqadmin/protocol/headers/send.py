"""Send request headers: SEND_MESSAGE (10), SEND_MESSAGE_V2 (310) and SEND_BATCH_MESSAGE (320).

SEND_MESSAGE_V2 names its fields ``a`` to ``n``; :class:`SendMessageRequestHeaderV2` gives them the
attribute names of :class:`SendMessageRequestHeader`, so a handler reads either without converting
(Java's ``createSendMessageRequestHeaderV1``) and a request's header is decoded once.

Topics in send headers are plain strings: the broker checks them in Java's ``msgCheck`` order (after
the permission check, answering with the send response's fields), and a producer checks them before
sending (``Validators.checkMessage``). A module of their own, so that a producer does not declare the
other message headers; :mod:`mqadmin.protocol.headers.message` offers these names too.
"""

from __future__ import annotations

from mqadmin.protocol.headers.base import Annotated, Group, Java, Long, RequestHeader, request_header

__all__ = ["SendHeader", "SendMessageRequestHeader", "SendMessageRequestHeaderV2"]


@request_header
class SendMessageRequestHeader(RequestHeader):
    """SEND_MESSAGE (10) and the V1 form of 310/320."""

    producer_group: Group
    topic: str
    default_topic: str
    default_topic_queue_nums: int
    queue_id: int
    sys_flag: int
    born_timestamp: Long
    flag: int
    properties: str | None = None
    reconsume_times: int | None = None
    unit_mode: bool | None = None
    batch: bool | None = None
    max_reconsume_times: int | None = None
    broker_name: Annotated[str, Java("bname")] | None = None


@request_header
class SendMessageRequestHeaderV2(RequestHeader):
    """SEND_MESSAGE_V2 (310) and SEND_BATCH_MESSAGE (320): the one-letter names, V1 attributes."""

    producer_group: Annotated[Group, Java("a")]
    topic: Annotated[str, Java("b")]
    default_topic: Annotated[str, Java("c")]
    default_topic_queue_nums: Annotated[int, Java("d")]
    queue_id: Annotated[int, Java("e")]
    sys_flag: Annotated[int, Java("f")]
    born_timestamp: Annotated[Long, Java("g")]
    flag: Annotated[int, Java("h")]
    properties: Annotated[str, Java("i")] | None = None
    reconsume_times: Annotated[int, Java("j")] | None = None
    unit_mode: Annotated[bool, Java("k")] | None = None
    max_reconsume_times: Annotated[int, Java("l")] | None = None
    batch: Annotated[bool, Java("m")] | None = None
    broker_name: Annotated[str, Java("n")] | None = None


SendHeader = SendMessageRequestHeader | SendMessageRequestHeaderV2
"""Either send header: the same attributes."""
