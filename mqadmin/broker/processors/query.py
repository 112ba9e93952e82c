"""Finding messages: QUERY_MESSAGE by key or unique key (12) and VIEW_MESSAGE_BY_ID (33).

VIEW_MESSAGE_BY_ID names no topic, only a commit-log offset, so the ACL check before the handler
cannot see whose message it reads: with ACL on, the handler checks the topic of the message it
found (Get on that topic; ACL 1.0: SUB) and answers NO_PERMISSION instead of another topic's message.
"""

from __future__ import annotations

from mqadmin.broker.admission import Admission
from mqadmin.broker.config import BrokerSettings
from mqadmin.broker.store import MessageStore
from mqadmin.broker.wire import answer
from mqadmin.protocol.codes import RequestCode, ResponseCode
from mqadmin.protocol.command import RemotingCommand
from mqadmin.protocol.errors import ProtocolError
from mqadmin.protocol.headers.base import HeaderError
from mqadmin.protocol.headers.message import QueryMessageRequestHeader, ViewMessageRequestHeader
from mqadmin.protocol.javanum import parse_bool
from mqadmin.protocol.message_record import decode_message
from mqadmin.remoting.client import Connection, Handler

__all__ = ["QueryProcessor"]


class QueryProcessor:
    """Codes 12 and 33 (Java's ``QueryMessageProcessor``)."""

    def __init__(self, *, settings: BrokerSettings, admission: Admission, store: MessageStore) -> None:
        self.settings = settings
        self.admission = admission
        self.store = store

    def handlers(self) -> dict[int, Handler]:
        return {
            RequestCode.QUERY_MESSAGE: self.query_message,
            RequestCode.VIEW_MESSAGE_BY_ID: self.view_message,
        }

    def query_message(self, conn: Connection, cmd: RemotingCommand) -> RemotingCommand:
        h = QueryMessageRequestHeader.decode(cmd.ext_fields)
        max_num = h.max_num
        if parse_bool(cmd.ext("_UNIQUE_KEY_QUERY")):  # beside the header, as Java's client adds it
            max_num = self.settings.store.default_query_max_num
        result = self.store.query_by_key(h.topic, h.key, max_num, h.begin_timestamp, h.end_timestamp)
        ext = {
            "indexLastUpdatePhyoffset": result.index_last_update_phyoffset,
            "indexLastUpdateTimestamp": result.index_last_update_timestamp,
        }
        if result.messages:
            return answer(cmd, ResponseCode.SUCCESS, None, ext, b"".join(result.messages))
        remark = "can not find message, maybe time range not correct"
        return answer(cmd, ResponseCode.QUERY_NOT_FOUND, remark, ext)

    def view_message(self, conn: Connection, cmd: RemotingCommand) -> RemotingCommand:
        offset = ViewMessageRequestHeader.decode(cmd.ext_fields).offset
        record = self.store.look_message(offset)
        if record is None:
            return answer(cmd, ResponseCode.SYSTEM_ERROR, f"can not find message by the offset, {offset}")
        if self.admission.enabled:  # raises NO_PERMISSION unless the sender may read the message's topic
            self.admission.require(conn, cmd, "Topic", _topic_of(record, offset), ("Get",))
        return answer(cmd, ResponseCode.SUCCESS, None, None, record)


def _topic_of(record: bytes, offset: int) -> str:
    """The topic of a stored message (its body is not inflated: only the topic is wanted)."""
    try:
        return decode_message(record, read_body=False, decompress=False)[0].topic
    except ProtocolError:
        raise HeaderError(f"can not find message by the offset, {offset}") from None
