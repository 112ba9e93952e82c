"""UPDATE_AND_CREATE_STATIC_TOPIC (513): Java sends ``CreateTopicRequestHeader`` with the mapping
detail of the receiving broker as the body.

The numbers are checked as for UPDATE_AND_CREATE_TOPIC except the queue counts, which may be 0: the
tool writes an empty topic (0 read and 0 write queues) to every broker of the clusters involved that
hosts no logical queue (``MQAdminUtils.completeNoTargetBrokers``).
"""

from __future__ import annotations

from typing import Self

from mqadmin.protocol import names
from mqadmin.protocol.codes import ResponseCode
from mqadmin.protocol.headers.base import HeaderError, RequestHeader, request_header
from mqadmin.protocol.headers.topic import CreateTopicRequestHeader, attributes_refusal, topic_config_refusal

__all__ = ["CreateStaticTopicRequestHeader"]


def _static_queue_nums_refusal(field: str, n: int) -> str | None:
    if 0 <= n <= names.QUEUE_NUMS_MAX:
        return None
    return f"{field} {n} is out of range: a static topic has 0 to {names.QUEUE_NUMS_MAX} queues on a broker"


@request_header
class CreateStaticTopicRequestHeader(CreateTopicRequestHeader):
    """``CreateTopicRequestHeader`` as code 513 carries it (queue counts 0..1024).

    The topic is checked by the receiver, not while decoding: Java answers a bad name of 513 with
    INVALID_PARAMETER (17 fails earlier, with SYSTEM_ERROR).
    """

    topic: str

    def refusal(self) -> str | None:
        why = _static_queue_nums_refusal("readQueueNums", self.read_queue_nums) or _static_queue_nums_refusal(
            "writeQueueNums", self.write_queue_nums
        )
        if why is not None:
            return why
        # the other numbers as code 17 checks them (1 stands in for the counts checked above)
        return topic_config_refusal(1, 1, self.perm, self.topic_filter_type, self.topic_sys_flag) or (
            attributes_refusal(self.attributes)
        )

    def check(self) -> Self:
        RequestHeader.check(self)
        why = names.check_topic(self.topic) or self.refusal()
        if why is not None:
            raise HeaderError(why, ResponseCode.INVALID_PARAMETER)
        return self
