"""HA requests: GET_BROKER_HA_STATUS (907) and GET_BROKER_EPOCH_CACHE (1007).

This broker is always a master without slaves, so 907 says so in every mode, with the commit-log
max offset; 1007 answers in controller mode with the epochs kept by
:class:`~mqadmin.broker.ha.ReplicasManager`, and otherwise as a 5.3.3 broker does (SYSTEM_ERROR,
``this request only for controllerMode ``).
"""

from __future__ import annotations

from mqadmin.broker.ha import ReplicasManager
from mqadmin.broker.wire import answer
from mqadmin.protocol.codes import RequestCode, ResponseCode
from mqadmin.protocol.command import RemotingCommand
from mqadmin.remoting.client import Connection, Handler

__all__ = ["HAProcessor"]


class HAProcessor:
    """Codes 907 and 1007."""

    def __init__(self, *, replicas: ReplicasManager) -> None:
        self.replicas = replicas

    def handlers(self) -> dict[int, Handler]:
        return {
            RequestCode.GET_BROKER_HA_STATUS: self.ha_status,
            RequestCode.GET_BROKER_EPOCH_CACHE: self.epoch_cache,
        }

    def ha_status(self, conn: Connection, cmd: RemotingCommand) -> RemotingCommand:
        body = self.replicas.ha_runtime_info().encode()
        return answer(cmd, ResponseCode.SUCCESS, None, None, body)

    def epoch_cache(self, conn: Connection, cmd: RemotingCommand) -> RemotingCommand:
        replicas = self.replicas
        if not replicas.enabled:
            return answer(cmd, ResponseCode.SYSTEM_ERROR, "this request only for controllerMode ")
        return answer(cmd, ResponseCode.SUCCESS, None, None, replicas.epoch_cache().encode())
