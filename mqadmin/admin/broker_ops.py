"""The 5.x broker operations ``DefaultMQAdminExt`` sends: consume modes, pop-record export, the
slave's master flush offset, commit-log read-ahead, brokers in a container and the RocksDB probes.

Names go through :mod:`mqadmin.protocol.names` before anything is sent (the headers and bodies the
broker reads are the declared ones in :mod:`mqadmin.protocol.headers.broker_ops` and
:mod:`mqadmin.protocol.bodies.request_mode`).
"""

from __future__ import annotations

from mqadmin.admin.errors import bad_response
from mqadmin.admin.family import Family
from mqadmin.protocol import names
from mqadmin.protocol.bodies.request_mode import (
    MESSAGE_REQUEST_MODES,
    CheckRocksdbCqWriteResult,
    MessageRequestModeWrapper,
    SetMessageRequestModeRequestBody,
)
from mqadmin.protocol.codes import RequestCode
from mqadmin.protocol.headers.base import HeaderError
from mqadmin.protocol.headers.broker_ops import (
    READ_AHEAD_MODE,
    AddBrokerRequestHeader,
    CheckRocksdbCqWriteProgressRequestHeader,
    ExportRocksDBConfigToJsonRequestHeader,
    RemoveBrokerRequestHeader,
    ResetMasterFlushOffsetHeader,
)

__all__ = ["BrokerOpsAdmin"]

POP_EXPORT_TIMEOUT_S = 30.0
"""``exportPopRecord`` waits 30 s for a broker (moving many records takes time)."""
CONTAINER_TIMEOUT_S = 20.0
"""``DefaultMQAdminExt.addBrokerToContainer``/``removeBrokerFromContainer`` wait 20 s."""


def _checked(kind: str, value: str) -> str:
    why = names.check_topic(value) if kind == "topic" else names.check_group(value)
    if why is not None:
        raise HeaderError(why)
    return value


class BrokerOpsAdmin(Family):
    """Requests of the 5.x broker-operation commands."""

    async def set_message_request_mode(
        self, addr: str, topic: str, group: str, mode: str, pop_share_queue_num: int
    ) -> None:
        """SET_MESSAGE_REQUEST_MODE (401): ``mode`` is PULL or POP."""
        if mode not in MESSAGE_REQUEST_MODES:
            raise HeaderError(f"mode {mode!r} is not one of {', '.join(MESSAGE_REQUEST_MODES)}")
        body = SetMessageRequestModeRequestBody(
            _checked("topic", topic), _checked("group", group), mode, pop_share_queue_num
        )
        await self.core.invoke(addr, RequestCode.SET_MESSAGE_REQUEST_MODE, None, body.encode(), timeout=5.0)

    async def get_all_message_request_mode(self, addr: str) -> MessageRequestModeWrapper:
        """GET_ALL_MESSAGE_REQUEST_MODE (402): the broker's topic → group → mode table."""
        resp = await self.core.invoke(addr, RequestCode.GET_ALL_MESSAGE_REQUEST_MODE)
        with bad_response(addr, "consume modes"):
            return MessageRequestModeWrapper.decode(resp.body or b"")

    async def export_pop_records(self, addr: str) -> None:
        """POP_ROLLBACK (200056): the broker moves its KV pop records into its commit log."""
        await self.core.invoke(addr, RequestCode.POP_ROLLBACK, timeout=POP_EXPORT_TIMEOUT_S)

    async def reset_master_flush_offset(self, addr: str, offset: int) -> None:
        """RESET_MASTER_FLUSH_OFFSET (908); a master ignores it."""
        hdr = ResetMasterFlushOffsetHeader(master_flush_offset=offset)
        await self.core.invoke(addr, RequestCode.RESET_MASTER_FLUSH_OFFSET, hdr, timeout=3.0)

    async def set_commitlog_read_ahead_mode(self, addr: str, mode: str) -> str | None:
        """SET_COMMITLOG_READ_MODE (2004): the broker's remark on success (None when it gave none)."""
        resp = await self.core.invoke(addr, RequestCode.SET_COMMITLOG_READ_MODE, {READ_AHEAD_MODE: mode})
        return resp.remark or None

    async def add_broker_to_container(self, addr: str, config_path: str) -> None:
        """ADD_BROKER (902): only a broker container knows it."""
        hdr = AddBrokerRequestHeader(config_path=config_path)
        await self.core.invoke(addr, RequestCode.ADD_BROKER, hdr, timeout=CONTAINER_TIMEOUT_S)

    async def remove_broker_from_container(
        self, addr: str, cluster: str, broker: str, broker_id: int
    ) -> None:
        """REMOVE_BROKER (903): only a broker container knows it."""
        hdr = RemoveBrokerRequestHeader(broker_name=broker, broker_cluster_name=cluster, broker_id=broker_id)
        await self.core.invoke(addr, RequestCode.REMOVE_BROKER, hdr.check(), timeout=CONTAINER_TIMEOUT_S)

    async def export_rocksdb_config_to_json(self, addr: str, config_types: list[str]) -> None:
        """EXPORT_ROCKSDB_CONFIG_TO_JSON (355): the broker writes its RocksDB configs as JSON files."""
        hdr = ExportRocksDBConfigToJsonRequestHeader(config_type="".join(f"{t};" for t in config_types))
        await self.core.invoke(addr, RequestCode.EXPORT_ROCKSDB_CONFIG_TO_JSON, hdr.check(), timeout=30.0)

    async def check_rocksdb_cq_write_progress(
        self, addr: str, topic: str, check_store_time: int
    ) -> CheckRocksdbCqWriteResult:
        """CHECK_ROCKSDB_CQ_WRITE_PROGRESS (354); an empty topic checks every topic."""
        hdr = CheckRocksdbCqWriteProgressRequestHeader(topic=topic, check_store_time=check_store_time)
        resp = await self.core.invoke(addr, RequestCode.CHECK_ROCKSDB_CQ_WRITE_PROGRESS, hdr.check())
        with bad_response(addr, "check result"):
            return CheckRocksdbCqWriteResult.decode(resp.body or b"")
