"""Finding messages: QUERY_MESSAGE by key or unique key (12) and VIEW_MESSAGE_BY_ID (33)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from mqadmin.broker.processors.wire import answer, guarded
from mqadmin.protocol.codes import RequestCode, ResponseCode
from mqadmin.protocol.command import RemotingCommand
from mqadmin.protocol.headers.message import QueryMessageRequestHeader, ViewMessageRequestHeader
from mqadmin.protocol.javanum import parse_bool
from mqadmin.remoting.client import Connection, Handler

if TYPE_CHECKING:
    from mqadmin.broker.controller import BrokerController

__all__ = ["QueryProcessor"]


class QueryProcessor:
    """Codes 12 and 33 (Java's ``QueryMessageProcessor``)."""

    def __init__(self, broker: BrokerController) -> None:
        self.broker = broker

    def handlers(self) -> dict[int, Handler]:
        return {
            RequestCode.QUERY_MESSAGE: self.query_message,
            RequestCode.VIEW_MESSAGE_BY_ID: self.view_message,
        }

    @guarded
    def query_message(self, conn: Connection, cmd: RemotingCommand) -> RemotingCommand:
        h = QueryMessageRequestHeader.decode(cmd.ext_fields)
        b = self.broker
        max_num = h.max_num
        if parse_bool(cmd.ext("_UNIQUE_KEY_QUERY")):  # beside the header, as Java's client adds it
            max_num = b.store_config.default_query_max_num
        result = b.store.query_by_key(h.topic, h.key, max_num, h.begin_timestamp, h.end_timestamp)
        ext = {
            "indexLastUpdatePhyoffset": result.index_last_update_phyoffset,
            "indexLastUpdateTimestamp": result.index_last_update_timestamp,
        }
        if result.messages:
            return answer(cmd, ResponseCode.SUCCESS, None, ext, b"".join(result.messages))
        remark = "can not find message, maybe time range not correct"
        return answer(cmd, ResponseCode.QUERY_NOT_FOUND, remark, ext)

    @guarded
    def view_message(self, conn: Connection, cmd: RemotingCommand) -> RemotingCommand:
        offset = ViewMessageRequestHeader.decode(cmd.ext_fields).offset
        record = self.broker.store.look_message(offset)
        if record is None:
            return answer(cmd, ResponseCode.SYSTEM_ERROR, f"can not find message by the offset, {offset}")
        return answer(cmd, ResponseCode.SUCCESS, None, None, record)
