"""Controller and HA bodies (5.3.3): sync state sets, replicas, epochs, HA runtime, elections.

``SyncStateSet`` (answers of 1003/1004/1001, the body of 1001), ``BrokerReplicasInfo`` (1006),
``ElectMasterResponseBody`` with its ``BrokerMemberGroup`` (1002), ``EpochEntryCache`` (1007) and
``HARuntimeInfo`` (907). Each is declared once (:mod:`mqadmin.protocol.bodies.declared`): fastjson
writes a bean's properties sorted by name, null ones left out; ``Set<Long>`` members in ``HashSet``
order; ``Map<Long, String>`` keys unquoted.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mqadmin.protocol.bodies import fieldcheck as j
from mqadmin.protocol.bodies.declared import DeclaredBody, members, to_json, wire
from mqadmin.protocol.errors import ProtocolError
from mqadmin.protocol.javacoll import java_hash_order

__all__ = [
    "LONG_MAX",
    "BrokerMemberGroup",
    "BrokerReplicasInfo",
    "ElectMasterResponseBody",
    "EpochEntry",
    "EpochEntryCache",
    "GetBrokerMemberGroupResponseBody",
    "HAClientRuntimeInfo",
    "HAConnectionRuntimeInfo",
    "HARuntimeInfo",
    "ReplicaIdentity",
    "ReplicasInfo",
    "SyncStateSet",
    "decode_name_list",
]

LONG_MAX = j.LONG_MAX
"""``Long.MAX_VALUE``: the end offset of the epoch in progress."""


def decode_name_list(body: bytes) -> list[str]:
    """The body of CONTROLLER_GET_SYNC_STATE_DATA (1006): a JSON array of broker names."""
    from mqadmin.protocol import fastjson

    value = fastjson.loads(body)
    names = j.str_list(value, "broker name list")
    if names is None:
        raise ProtocolError("broker name list is null")
    return names


class _ControllerBody(DeclaredBody):
    """A controller body whose JSON object names every member, null where unset.

    The hand-written part: the ``--json`` documents of haStatus and getSyncStateSet are these
    objects, and their schemas list every member (``masterAddr`` is null on a master); fastjson
    leaves the nulls out of the body all the same.
    """

    __slots__ = ()

    def to_json_obj(self, standard: bool = False) -> dict[str, Any]:
        out = to_json(self, standard)
        kept = members(type(self))
        return out if len(out) == len(kept) else {m.java: out.get(m.java) for m in kept}


def _bodies(cls: Any) -> Any:
    """The reader of a ``List`` of ``cls`` beans: empty when absent or null."""
    return lambda v, what: j.list_of(v, what, cls.from_json_obj) or []


def _id_set(v: Any, what: str) -> list[int]:
    """A ``Set<Long>`` of broker ids: duplicates dropped, in ``HashSet`` order."""
    ids = j.list_of(v, what, lambda x, w: j.int64(x, w)) or []
    return java_hash_order(list(dict.fromkeys(ids)))


def _in_hash_order(d: dict[Any, Any]) -> dict[Any, Any]:
    """A ``HashMap`` as Java iterates it."""
    return {k: d[k] for k in java_hash_order(list(d))}


@dataclass(slots=True)
class SyncStateSet(_ControllerBody):
    """The in-sync replica ids of a broker set and the epoch of that set."""

    sync_state_set: list[int] = wire(factory=list, read=_id_set, write=lambda v, _: java_hash_order(v))
    sync_state_set_epoch: int = wire(default=0, read=j.int32)


@dataclass(slots=True)
class ReplicaIdentity(_ControllerBody):
    broker_name: str | None = wire(read=j.opt_str)
    broker_id: int | None = wire(read=j.opt_int64)
    broker_address: str | None = wire(read=j.opt_str)
    alive: bool | None = wire(read=j.opt_bool)

    def java_text(self) -> str:
        """``ReplicaIdentity.toString()``."""
        return (
            f"ReplicaIdentity{{brokerName='{_n(self.broker_name)}', brokerId={_n(self.broker_id)}, "
            f"brokerAddress='{_n(self.broker_address)}', alive={_n(self.alive)}}}"
        )


def _n(v: Any) -> str:
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


@dataclass(slots=True)
class ReplicasInfo(_ControllerBody):
    """One broker set in ``BrokerReplicasInfo``."""

    master_broker_id: int | None = wire(read=j.opt_int64)
    master_address: str | None = wire(read=j.opt_str)
    master_epoch: int = wire(default=0, read=j.int32)
    sync_state_set_epoch: int = wire(default=0, read=j.int32)
    in_sync_replicas: list[ReplicaIdentity] = wire(factory=list, read=_bodies(ReplicaIdentity))
    not_in_sync_replicas: list[ReplicaIdentity] = wire(factory=list, read=_bodies(ReplicaIdentity))


@dataclass(slots=True)
class BrokerReplicasInfo(_ControllerBody):
    """broker name → :class:`ReplicasInfo` (a ``HashMap``)."""

    replicas_info_table: dict[str, ReplicasInfo] = wire(
        factory=dict,
        read=lambda v, what: j.map_of(v, what, ReplicasInfo.from_json_obj) or {},
        write=lambda v, standard: {k: x.to_json_obj(standard) for k, x in _in_hash_order(v).items()},
    )


def _member_addrs(v: Any, what: str) -> dict[int, str]:
    """``Map<Long, String>`` of broker id to address: numeric keys, null addresses dropped."""
    addrs = j.opt_obj(v, what) or {}
    table = {j.numeric_key(k, what): j.opt_str(x, f"{what} value") for k, x in addrs.items()}
    return {k: x for k, x in table.items() if x is not None}


@dataclass(slots=True)
class BrokerMemberGroup(_ControllerBody):
    cluster: str | None = wire(read=j.opt_str)
    broker_name: str | None = wire(read=j.opt_str)
    broker_addrs: dict[int, str] = wire(
        factory=dict, read=_member_addrs, write=lambda v, _: _in_hash_order(v)
    )


def _member_group(v: Any, _: str) -> BrokerMemberGroup | None:
    return None if v is None else BrokerMemberGroup.from_json_obj(v)


@dataclass(slots=True)
class GetBrokerMemberGroupResponseBody(_ControllerBody):
    broker_member_group: BrokerMemberGroup | None = wire(read=_member_group)


@dataclass(slots=True)
class ElectMasterResponseBody(_ControllerBody):
    """The body of a CONTROLLER_ELECT_MASTER answer: the set's members and the new sync state set."""

    broker_member_group: BrokerMemberGroup | None = wire(read=_member_group)
    sync_state_set: list[int] = wire(factory=list, read=_id_set, write=lambda v, _: java_hash_order(v))


@dataclass(slots=True)
class EpochEntry(_ControllerBody):
    """One master epoch of a broker: the commit-log range written under it."""

    epoch: int = wire(default=0, read=j.int32)
    start_offset: int = wire(default=0, read=j.int64)
    end_offset: int = wire(default=LONG_MAX, read=lambda v, what: j.int64(v, what, LONG_MAX))

    def java_text(self) -> str:
        """``EpochEntry.toString()``."""
        return (
            f"EpochEntry{{epoch={self.epoch}, startOffset={self.start_offset}, endOffset={self.end_offset}}}"
        )


@dataclass(slots=True)
class EpochEntryCache(_ControllerBody):
    """GET_BROKER_EPOCH_CACHE (1007): a broker's epochs and its commit-log max offset."""

    cluster_name: str | None = wire(read=j.opt_str)
    broker_name: str | None = wire(read=j.opt_str)
    broker_id: int = wire(default=0, read=j.int64)
    epoch_list: list[EpochEntry] = wire(factory=list, read=_bodies(EpochEntry))
    max_offset: int = wire(default=0, read=j.int64)


@dataclass(slots=True)
class HAConnectionRuntimeInfo(_ControllerBody):
    """One slave connected to a master."""

    addr: str | None = wire(read=j.opt_str)
    slave_ack_offset: int = wire(default=0, read=j.int64)
    diff: int = wire(default=0, read=j.int64)
    in_sync: bool = wire(default=False, read=j.boolean)
    transferred_byte_in_second: int = wire(default=0, read=j.int64)
    transfer_from_where: int = wire(default=0, read=j.int64)


@dataclass(slots=True)
class HAClientRuntimeInfo(_ControllerBody):
    """A slave's view of its master (all zero on a master)."""

    master_addr: str | None = wire(read=j.opt_str)
    transferred_byte_in_second: int = wire(default=0, read=j.int64)
    max_offset: int = wire(default=0, read=j.int64)
    last_read_timestamp: int = wire(default=0, read=j.int64)
    last_write_timestamp: int = wire(default=0, read=j.int64)
    master_flush_offset: int = wire(default=0, read=j.int64)


@dataclass(slots=True)
class HARuntimeInfo(_ControllerBody):
    """GET_BROKER_HA_STATUS (907)."""

    master: bool = wire(default=False, read=j.boolean)
    master_commit_log_max_offset: int = wire(default=0, read=j.int64)
    in_sync_slave_nums: int = wire(default=0, read=j.int32)
    ha_connection_info: list[HAConnectionRuntimeInfo] = wire(
        factory=list, read=_bodies(HAConnectionRuntimeInfo)
    )
    ha_client_runtime_info: HAClientRuntimeInfo = wire(
        factory=HAClientRuntimeInfo,
        read=lambda v, _: HAClientRuntimeInfo() if v is None else HAClientRuntimeInfo.from_json_obj(v),
    )
