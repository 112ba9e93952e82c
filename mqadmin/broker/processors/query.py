"""Finding messages: QUERY_MESSAGE by key or unique key (12) and VIEW_MESSAGE_BY_ID (33)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from mqadmin.broker.processors.wire import answer, guarded, java_bool, req_int, req_long, req_str
from mqadmin.protocol.codes import RequestCode
from mqadmin.protocol.command import RemotingCommand
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
        topic = req_str(cmd, "topic")
        key = req_str(cmd, "key")
        max_num = req_int(cmd, "maxNum")
        begin = req_long(cmd, "beginTimestamp")
        end = req_long(cmd, "endTimestamp")
        b = self.broker
        if java_bool(cmd.ext("_UNIQUE_KEY_QUERY")):
            max_num = b.store_config.default_query_max_num
        result = b.store.query_by_key(topic, key, max_num, begin, end)
        ext = {
            "indexLastUpdatePhyoffset": result.index_last_update_phyoffset,
            "indexLastUpdateTimestamp": result.index_last_update_timestamp,
        }
        if result.messages:
            return answer(cmd, 0, None, ext, b"".join(result.messages))
        return answer(cmd, 22, "can not find message, maybe time range not correct", ext)

    @guarded
    def view_message(self, conn: Connection, cmd: RemotingCommand) -> RemotingCommand:
        offset = req_long(cmd, "offset")
        record = self.broker.store.look_message(offset)
        if record is None:
            return answer(cmd, 1, f"can not find message by the offset, {offset}")
        return answer(cmd, 0, None, None, record)
