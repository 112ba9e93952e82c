"""Controller and HA requests (Java ``DefaultMQAdminExt`` of 5.3.3).

Brokers answer GET_BROKER_HA_STATUS (907) and GET_BROKER_EPOCH_CACHE (1007). A controller answers
CONTROLLER_GET_METADATA_INFO (1005) itself; the sync state data (1006), elections (1002) and
cleanups (1011) go, as in Java, to the leader that metadata names. Config reads and updates
(1010, 1009) go to every controller of the ``-a`` list, all at once.

Controller addresses are checked as ``host:port`` before anything is sent, names with the shared
rules; a bad one raises :class:`HeaderError` (a usage error on the command line).

Like every request of the admin API, these are signed when the settings carry credentials: what a
controller with ``controllerAuth`` (ours; Java's controllers check nobody) asks of an admin account.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass

from mqadmin.admin.brokers import check_cluster_name
from mqadmin.admin.core import AdminCore
from mqadmin.admin.errors import BadResponseError, bad_response
from mqadmin.admin.family import Family
from mqadmin.admin.fanout import FanOutResult
from mqadmin.admin.namesrv import NamesrvOps
from mqadmin.protocol import fastjson, names
from mqadmin.protocol.bodies.controller import (
    BrokerMemberGroup,
    BrokerReplicasInfo,
    ElectMasterResponseBody,
    EpochEntryCache,
    HARuntimeInfo,
)
from mqadmin.protocol.codes import RequestCode, ResponseCode
from mqadmin.protocol.command import RemotingCommand
from mqadmin.protocol.configentry import config_entry_refusal
from mqadmin.protocol.errors import ProtocolError
from mqadmin.protocol.headers.base import HeaderError
from mqadmin.protocol.headers.controller import (
    CleanControllerBrokerDataRequestHeader,
    ElectMasterRequestHeader,
    ElectMasterResponseHeader,
    GetMetaDataResponseHeader,
)
from mqadmin.protocol.headers.namesrv import broker_addr_refusal

__all__ = ["ControllerConfigAnswer", "ControllerOps", "check_controller_addr", "config_settings"]


@dataclass(frozen=True, slots=True)
class ControllerConfigAnswer:
    """A controller's settings, and the warning its answer carried (ours, when it checks no
    signature: the remark of a successful GET_CONTROLLER_CONFIG, which Java's tool does not read)."""

    settings: dict[str, str]
    warning: str | None = None


def config_settings(
    answers: FanOutResult[str, ControllerConfigAnswer],
) -> FanOutResult[str, dict[str, str]]:
    """The settings of each answer, the failures as they were."""
    settings = {addr: answer.settings for addr, answer in answers.results.items()}
    return FanOutResult(settings, answers.errors, answers.order)


def check_controller_addr(addr: str) -> str:
    """A controller's ``host:port``; :class:`HeaderError` if it is not one."""
    why = broker_addr_refusal(addr, "controller address")
    if why is not None:
        raise HeaderError(why)
    return addr


def _check_broker_name(name: str) -> str:
    why = names.check_name("broker", name)
    if why is not None:
        raise HeaderError(why)
    return name


def _now_ms() -> int:
    return time.time_ns() // 1_000_000


class ControllerOps(Family):
    """What ``DefaultMQAdminExt`` asks of controllers, and of brokers about HA."""

    def __init__(self, core: AdminCore, namesrv: NamesrvOps) -> None:
        super().__init__(core)
        self.namesrv = namesrv

    # ------------------------------------------------------------------------- brokers

    async def get_broker_ha_status(self, broker_addr: str) -> HARuntimeInfo:
        """GET_BROKER_HA_STATUS: master or slave, offsets, connected slaves."""
        resp = await self.core.invoke(broker_addr, RequestCode.GET_BROKER_HA_STATUS)
        with bad_response(broker_addr, "HA runtime info"):
            return HARuntimeInfo.decode(resp.body or b"")

    async def get_broker_epoch_cache(self, broker_addr: str) -> EpochEntryCache:
        """GET_BROKER_EPOCH_CACHE: the broker's master epochs (controller mode only)."""
        resp = await self.core.invoke(broker_addr, RequestCode.GET_BROKER_EPOCH_CACHE)
        with bad_response(broker_addr, "epoch cache"):
            return EpochEntryCache.decode(resp.body or b"")

    async def fetch_broker_member_addrs(self, broker_name: str) -> list[str]:
        """``fetchMasterAndSlaveAddrByBrokerName``: the members of one broker group (none if unknown)."""
        from mqadmin.protocol.javacoll import java_hash_order

        info = await self.namesrv.examine_broker_cluster_info()
        bd = (info.broker_addr_table or {}).get(_check_broker_name(broker_name))
        if bd is None or not bd.broker_addrs:
            return []
        return java_hash_order(list(dict.fromkeys(bd.broker_addrs.values())))

    # ------------------------------------------------------------------------- controllers

    async def get_controller_metadata(self, controller_addr: str) -> GetMetaDataResponseHeader:
        """CONTROLLER_GET_METADATA_INFO: the controller group, its leader and peers."""
        resp = await self.core.invoke(
            check_controller_addr(controller_addr), RequestCode.CONTROLLER_GET_METADATA_INFO
        )
        try:
            return GetMetaDataResponseHeader.decode(resp.ext_fields, lenient=True)
        except HeaderError as e:
            raise BadResponseError(controller_addr, f"controller metadata: {e.remark}") from None

    async def _leader(self, controller_addr: str) -> str:
        """The leader the controller names (itself, as reached, when it says it leads)."""
        meta = await self.get_controller_metadata(controller_addr)
        if meta.is_leader:
            return controller_addr
        leader = meta.controller_leader_address
        if not leader or broker_addr_refusal(leader) is not None:
            raise BadResponseError(controller_addr, f"the controller names no usable leader ({leader!r})")
        return leader

    async def get_in_sync_state_data(
        self, controller_addr: str, broker_names: list[str]
    ) -> BrokerReplicasInfo:
        """CONTROLLER_GET_SYNC_STATE_DATA to the leader: replicas and sync state sets per broker name."""
        for n in broker_names:
            _check_broker_name(n)
        leader = await self._leader(controller_addr)
        body = fastjson.dumps(list(broker_names)).encode()
        resp = await self.core.invoke(leader, RequestCode.CONTROLLER_GET_SYNC_STATE_DATA, body=body)
        with bad_response(leader, "sync state data"):
            return BrokerReplicasInfo.decode(resp.body or b"")

    async def elect_master(
        self, controller_addr: str, cluster: str, broker_name: str, broker_id: int
    ) -> tuple[ElectMasterResponseHeader, BrokerMemberGroup | None]:
        """CONTROLLER_ELECT_MASTER to the leader, as the admin asks it (``designateElect``)."""
        header = ElectMasterRequestHeader(
            check_cluster_name(cluster), _check_broker_name(broker_name), broker_id, True, _now_ms()
        ).check()
        leader = await self._leader(controller_addr)
        resp = await self.core.invoke(leader, RequestCode.CONTROLLER_ELECT_MASTER, header)
        try:
            got = ElectMasterResponseHeader.decode(resp.ext_fields, lenient=True)
            body = ElectMasterResponseBody.decode(resp.body) if resp.body else None
        except (HeaderError, ProtocolError) as e:
            raise BadResponseError(leader, f"election answer: {e}") from None
        return got, body.broker_member_group if body is not None else None

    async def clean_controller_broker_data(
        self,
        controller_addr: str,
        cluster: str | None,
        broker_name: str,
        broker_ids: str | None,
        clean_living: bool,
    ) -> None:
        """CLEAN_BROKER_DATA to the leader: forget a broker set (or some of its ids)."""
        header = CleanControllerBrokerDataRequestHeader(
            cluster_name=None if cluster is None else check_cluster_name(cluster),
            broker_name=_check_broker_name(broker_name),
            broker_controller_ids_to_clean=broker_ids,
            is_clean_living_broker=clean_living,
            invoke_time=_now_ms(),
        ).check()
        leader = await self._leader(controller_addr)
        await self.core.invoke(leader, RequestCode.CLEAN_BROKER_DATA, header)

    async def get_controller_config(self, addrs: Iterable[str]) -> FanOutResult[str, dict[str, str]]:
        """GET_CONTROLLER_CONFIG from each controller: its settings in the order sent."""
        return config_settings(await self.get_controller_config_answers(addrs))

    async def get_controller_config_answers(
        self, addrs: Iterable[str]
    ) -> FanOutResult[str, ControllerConfigAnswer]:
        """GET_CONTROLLER_CONFIG from each controller: its settings and what it warns of."""
        from mqadmin.protocol.bodies.properties import string_to_properties

        targets = [check_controller_addr(a) for a in addrs]

        async def one(addr: str) -> ControllerConfigAnswer:
            resp = await self.core.invoke(addr, RequestCode.GET_CONTROLLER_CONFIG)
            with bad_response(addr, "controller config"):
                return ControllerConfigAnswer(string_to_properties(resp.body or b""), resp.remark or None)

        return await self.core.fan_out(targets, one, code=RequestCode.GET_CONTROLLER_CONFIG)

    async def update_controller_config(
        self, properties: dict[str, str], addrs: Iterable[str]
    ) -> FanOutResult[str, RemotingCommand]:
        """UPDATE_CONTROLLER_CONFIG on each controller; a bad entry raises :class:`HeaderError` first."""
        from mqadmin.protocol.bodies.properties import properties_to_string

        targets = [check_controller_addr(a) for a in addrs]
        for k, v in properties.items():
            why = config_entry_refusal(k, v, value_controls=True)
            if why is not None:
                raise HeaderError(why, ResponseCode.INVALID_PARAMETER)
        body = properties_to_string(properties).encode("utf-8")

        async def one(addr: str) -> RemotingCommand:
            return await self.core.invoke(addr, RequestCode.UPDATE_CONTROLLER_CONFIG, body=body)

        return await self.core.fan_out(targets, one, code=RequestCode.UPDATE_CONTROLLER_CONFIG)
