"""Topic request headers: create (17), create a list (18), delete (215), queue stats (202), one
config (351) and consume-queue inspection (321).

Java's classes are in ``remoting/.../protocol/header`` (5.3.3). Their own fields come first, then
what they inherit: ``lo`` from ``TopicRequestHeader``, ``ns``/``nsd``/``bname``/``oway`` from
``RpcRequestHeader`` (Java's encoder walks a ``HashSet`` of fields, so no order is canonical there).

A topic's numbers are checked here too, once for the admin client and the broker alike
(:func:`topic_config_refusal`): queue counts 1..:data:`QUEUE_NUMS_MAX`, ``PermName.isValid``, a
``TopicFilterType`` constant, ``TopicSysFlag`` bits and the ``AttributeParser`` syntax. Java checks
none of the numbers, so a negative or huge queue count reached the topic table; here it cannot.
"""

from __future__ import annotations

from typing import Self

from mqadmin.protocol import names
from mqadmin.protocol.bodies.topic import TopicConfig
from mqadmin.protocol.codes import ResponseCode
from mqadmin.protocol.errors import ProtocolError
from mqadmin.protocol.headers.base import (
    Annotated,
    Check,
    HeaderError,
    Long,
    RequestHeader,
    RpcRequestHeader,
    Topic,
    TopicRequestHeader,
    field,
    request_header,
)
from mqadmin.protocol.javacoll import java_hash_dict
from mqadmin.protocol.perm import perm_is_valid

__all__ = [
    "MIXED_NOT_SUPPORTED",
    "QUEUE_NUMS_MAX",
    "TOPIC_FILTER_TYPES",
    "TOPIC_SYS_FLAG_MAX",
    "CreateTopicListRequestHeader",
    "CreateTopicRequestHeader",
    "DeleteTopicRequestHeader",
    "GetTopicConfigRequestHeader",
    "GetTopicStatsInfoRequestHeader",
    "QueryConsumeQueueRequestHeader",
    "TopicName",
    "attributes_refusal",
    "perm_refusal",
    "queue_nums_refusal",
    "topic_config_refusal",
]

QUEUE_NUMS_MAX = names.QUEUE_NUMS_MAX
TOPIC_FILTER_TYPES = ("SINGLE_TAG", "MULTI_TAG")
"""The constants of ``TopicFilterType``."""
TOPIC_SYS_FLAG_MAX = 3
"""``TopicSysFlag``: FLAG_UNIT (1) | FLAG_UNIT_SUB (2); no other bit means anything."""
MIXED_NOT_SUPPORTED = "MIXED message type is not supported."
"""5.3.3's refusal of ``+message.type=MIXED`` (``enableMixedMessageType`` is false by default)."""


def _topic_chars(topic: str) -> str | None:
    """A topic named in a request that removes it: not blank, only ``TopicValidator``'s characters.

    Length is left to the receiver (a 5.x broker deletes a topic longer than 127 characters that
    an older release created).
    """
    if not topic or not topic.strip():
        return "The specified topic is blank."
    if not names.check_topic_or_group_chars(topic):
        return f"The specified topic contains illegal characters, allowing only {names.ALLOWED}"
    return None


TopicName = Annotated[str, Check(_topic_chars)]
"""A topic that must be a legal name of any length (blank and illegal characters refused)."""


# ----------------------------------------------------------------------------------- number checks


def queue_nums_refusal(field: str, n: int) -> str | None:
    """Why ``n`` cannot be a read or write queue count (``field`` names it), or None."""
    if 1 <= n <= QUEUE_NUMS_MAX:
        return None
    return f"{field} {n} is out of range: a topic has 1 to {QUEUE_NUMS_MAX} queues"


def perm_refusal(perm: int, what: str = "topicPermission") -> str | None:
    """``PermName.isValid`` with the Java tool's remark (``topicPermission value: 9 is invalid.``)."""
    return None if perm_is_valid(perm) else f"{what} value: {perm} is invalid."


def attributes_refusal(text: str | None) -> str | None:
    """``AttributeParser.parseToMap`` of 5.3.3 and its MIXED check: the remark, or None."""
    if not text:
        return None
    from mqadmin.protocol.bodies.topic import parse_attributes

    try:
        attrs = parse_attributes(text)
    except ProtocolError as e:
        return str(e)
    if attrs.get("+message.type") == "MIXED":
        return MIXED_NOT_SUPPORTED
    return None


def topic_config_refusal(
    read_queue_nums: int,
    write_queue_nums: int,
    perm: int,
    topic_filter_type: str | None,
    topic_sys_flag: int | None,
) -> str | None:
    """Why a topic cannot have these settings, or None: the checks of the module docstring."""
    why = (
        queue_nums_refusal("readQueueNums", read_queue_nums)
        or queue_nums_refusal("writeQueueNums", write_queue_nums)
        or perm_refusal(perm)
    )
    if why is not None:
        return why
    if topic_filter_type is not None and topic_filter_type not in TOPIC_FILTER_TYPES:
        return f"No enum constant org.apache.rocketmq.common.TopicFilterType.{topic_filter_type}"
    if topic_sys_flag is not None and not 0 <= topic_sys_flag <= TOPIC_SYS_FLAG_MAX:
        return f"topicSysFlag value: {topic_sys_flag} is invalid."
    return None


# ----------------------------------------------------------------------------------- headers


@request_header
class CreateTopicRequestHeader(TopicRequestHeader):
    """UPDATE_AND_CREATE_TOPIC (17). ``attributes``/``force`` are 5.x's (a 4.x tool leaves them out).

    :meth:`check` (client) and :meth:`refusal` (broker) also apply :func:`topic_config_refusal`
    and :func:`attributes_refusal`, answered with INVALID_PARAMETER.
    """

    topic: Topic
    default_topic: str
    read_queue_nums: int
    write_queue_nums: int
    perm: int
    topic_filter_type: str
    topic_sys_flag: int | None = None
    order: bool = field(kw_only=True)  # @CFNotNull Boolean order = false
    attributes: str | None = None
    force: bool | None = None

    def refusal(self) -> str | None:
        """Why the topic's settings cannot be kept (numbers, filter type, attributes), or None."""
        return topic_config_refusal(
            self.read_queue_nums,
            self.write_queue_nums,
            self.perm,
            self.topic_filter_type,
            self.topic_sys_flag,
        ) or attributes_refusal(self.attributes)

    def check(self) -> Self:
        RequestHeader.check(self)
        why = self.refusal()
        if why is not None:
            raise HeaderError(why, ResponseCode.INVALID_PARAMETER)
        return self

    @classmethod
    def from_config(cls, config: TopicConfig, default_topic: str = "TBW102", *, force: bool = False) -> Self:
        """The header ``MQClientAPIImpl.createTopic`` sends for ``config``; :meth:`check` says whether it
        may go. A 5.x tool adds ``attributes`` (``+key=value`` pairs joined by commas, as
        ``AttributeParser`` writes them) and ``force``, both only when ``config.attributes`` is not None."""
        attributes = None
        if config.attributes is not None:
            pairs = java_hash_dict(config.attributes).items()
            attributes = ",".join([f"{k}={v}" if v else k for k, v in pairs])
        return cls(
            topic=config.topic_name or "",
            default_topic=default_topic,
            read_queue_nums=config.read_queue_nums,
            write_queue_nums=config.write_queue_nums,
            perm=config.perm,
            topic_filter_type=config.topic_filter_type or "SINGLE_TAG",
            topic_sys_flag=config.topic_sys_flag,
            order=config.order,
            attributes=attributes,
            force=None if attributes is None else force,
        )

    def to_config(self) -> TopicConfig:
        """The topic a broker keeps from this header, as Java's ``updateAndCreateTopic`` builds it: the
        numbers, the filter type and the flag (0 when absent); ``order`` and ``attributes`` are not kept."""
        return TopicConfig(
            topic_name=self.topic,
            read_queue_nums=self.read_queue_nums,
            write_queue_nums=self.write_queue_nums,
            perm=self.perm,
            topic_filter_type=self.topic_filter_type,
            topic_sys_flag=self.topic_sys_flag or 0,
        )


@request_header
class CreateTopicListRequestHeader(RpcRequestHeader):
    """UPDATE_AND_CREATE_TOPIC_LIST (18, 5.x): the topics travel in the body."""


@request_header
class DeleteTopicRequestHeader(TopicRequestHeader):
    """DELETE_TOPIC_IN_BROKER (215)."""

    topic: TopicName


@request_header
class GetTopicStatsInfoRequestHeader(TopicRequestHeader):
    """GET_TOPIC_STATS_INFO (202). Java looks the topic up without validating it (unknown: 17)."""

    topic: str


@request_header
class GetTopicConfigRequestHeader(TopicRequestHeader):
    """GET_TOPIC_CONFIG (351, 5.x); the 5.3.3 tool sends ``lo=true``."""

    topic: str


@request_header
class QueryConsumeQueueRequestHeader(TopicRequestHeader):
    """QUERY_CONSUME_QUEUE (321). Java marks nothing ``@CFNotNull``: missing numbers are 0; a missing
    topic fails there with a NullPointerException, here it is refused as a missing field."""

    topic: str
    queue_id: int = 0
    index: Long = 0
    count: int = 0
    consumer_group: str | None = None
