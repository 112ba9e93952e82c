"""Cold data flow control requests of 5.3.3: UPDATE_COLD_DATA_FLOW_CTR_CONFIG (2001),
REMOVE_COLD_DATA_FLOW_CTR_CONFIG (2002) and GET_COLD_DATA_FLOW_CTR_INFO (2003), served when the broker
behaves as 5.3.3 (a 4.9.8 broker does not know them).

The update's body is ``Properties`` text, consumer group = threshold in bytes; the remove's body is
the group's name. Java skips an entry it cannot read (a threshold that is not a number) with a log
line and answers success; here a request with such an entry, or a name that is not a group name, is
refused whole with SYSTEM_ERROR and nothing changes. An empty body changes nothing and succeeds, as
in Java. An update that would leave the table with more entries than its declared budget
(``entries``; Java has no bound) is refused whole too, before its entries are checked. The tables live in
:class:`~mqadmin.broker.cold_data.ColdDataCgCtrService`.
"""

from __future__ import annotations

import logging

from mqadmin.broker.cold_data import COLD_DATA_SETTINGS, ColdDataCgCtrService
from mqadmin.broker.config import Configuration
from mqadmin.broker.version import BrokerVersion
from mqadmin.broker.wire import answer
from mqadmin.protocol import names
from mqadmin.protocol.bodies.properties import string_to_properties
from mqadmin.protocol.codes import RequestCode, ResponseCode
from mqadmin.protocol.command import RemotingCommand
from mqadmin.protocol.errors import ProtocolError
from mqadmin.protocol.javanum import JavaNumberError, parse_long
from mqadmin.protocol.requests import limit
from mqadmin.remoting.client import Connection, Handler
from mqadmin.remoting.logthrottle import ThrottledLog

__all__ = ["ColdDataProcessor"]

log = logging.getLogger("mqadmin.broker")
_peer_log = ThrottledLog(log)


def _entry_refusal(group: str, value: str) -> str | None:
    why = names.check_group(group)
    if why is None:
        try:
            if parse_long(value) < 0:
                why = "a threshold is a number of bytes, 0 or more"
        except JavaNumberError:
            why = f'For input string: "{value}"'
    if why is None:
        return None
    return f"updateColdDataFlowCtrGroupConfig properties on entry error, key: {group}, val: {value}: {why}"


class ColdDataProcessor:
    """Codes 2001, 2002 and 2003 (none when the broker behaves as 4.9.8)."""

    def __init__(
        self, *, configuration: Configuration, version: BrokerVersion, service: ColdDataCgCtrService
    ) -> None:
        self.version = version
        cfg = configuration
        self.service = service
        if version.five_x:
            for key, default in COLD_DATA_SETTINGS.items():
                if key not in cfg.all_configs:
                    cfg.show(key, default)
            self.service.load()

    def handlers(self) -> dict[int, Handler]:
        if not self.version.five_x:
            return {}
        return {
            RequestCode.UPDATE_COLD_DATA_FLOW_CTR_CONFIG: self.update_group_config,
            RequestCode.REMOVE_COLD_DATA_FLOW_CTR_CONFIG: self.remove_group_config,
            RequestCode.GET_COLD_DATA_FLOW_CTR_INFO: self.info,
        }

    def _refused(self, conn: Connection, cmd: RemotingCommand, remark: str) -> RemotingCommand:
        _peer_log.log(
            logging.INFO, "cold refused", "request %d from %s refused: %s", cmd.code, conn.remote_addr, remark
        )
        return answer(cmd, ResponseCode.SYSTEM_ERROR, remark)

    def update_group_config(self, conn: Connection, cmd: RemotingCommand) -> RemotingCommand:
        if not cmd.body:
            return answer(cmd, ResponseCode.SUCCESS)
        try:
            props = string_to_properties(cmd.body, strict=True)
        except ProtocolError:
            return self._refused(conn, cmd, "string2Properties error")
        bound = limit(RequestCode.UPDATE_COLD_DATA_FLOW_CTR_CONFIG, "entries")
        size = self.service.size_after(props)
        if size > bound:
            return self._refused(
                conn, cmd, f"the cold data config would hold {size} groups, more than the limit of {bound}"
            )
        entries: dict[str, int] = {}
        for group, value in props.items():
            why = _entry_refusal(group, value)
            if why is not None:
                return self._refused(conn, cmd, why)
            entries[group] = parse_long(value)
        _peer_log.log(
            logging.INFO,
            "cold update",
            "updateColdDataFlowCtrGroupConfig new config: %s, client: %s",
            entries,
            conn.remote_addr,
        )
        self.service.add_or_update_group_config(entries)
        return answer(cmd, ResponseCode.SUCCESS)

    def remove_group_config(self, conn: Connection, cmd: RemotingCommand) -> RemotingCommand:
        if cmd.body is None:
            return answer(cmd, ResponseCode.SUCCESS)
        try:
            group = cmd.body.decode("utf-8")
        except UnicodeDecodeError:
            return self._refused(conn, cmd, "string parse error")
        why = names.check_group(group)
        if why is not None:
            return self._refused(conn, cmd, why)
        _peer_log.log(
            logging.INFO,
            "cold remove",
            "removeColdDataFlowCtrGroupConfig, consumerGroup: %s client: %s",
            group,
            conn.remote_addr,
        )
        self.service.remove_group_config(group)
        return answer(cmd, ResponseCode.SUCCESS)

    def info(self, conn: Connection, cmd: RemotingCommand) -> RemotingCommand:
        return answer(cmd, ResponseCode.SUCCESS, None, None, self.service.report())
