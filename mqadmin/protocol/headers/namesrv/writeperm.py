"""Write permission headers of the name server: WIPE_WRITE_PERM_OF_BROKER (205) and
ADD_WRITE_PERM_OF_BROKER (327), with the counts they answer."""

from __future__ import annotations

from mqadmin.protocol.headers.base import BrokerName, RequestHeader, request_header

__all__ = [
    "AddWritePermOfBrokerRequestHeader",
    "AddWritePermOfBrokerResponseHeader",
    "WipeWritePermOfBrokerRequestHeader",
    "WipeWritePermOfBrokerResponseHeader",
]


@request_header
class WipeWritePermOfBrokerRequestHeader(RequestHeader):
    """WIPE_WRITE_PERM_OF_BROKER (205)."""

    broker_name: BrokerName


@request_header
class WipeWritePermOfBrokerResponseHeader(RequestHeader):
    """The answer to WIPE_WRITE_PERM_OF_BROKER: how many topics lost write permission."""

    wipe_topic_count: int | None = None


@request_header
class AddWritePermOfBrokerRequestHeader(RequestHeader):
    """ADD_WRITE_PERM_OF_BROKER (327)."""

    broker_name: BrokerName


@request_header
class AddWritePermOfBrokerResponseHeader(RequestHeader):
    """The answer to ADD_WRITE_PERM_OF_BROKER: how many topics got write permission back."""

    add_topic_count: int | None = None
