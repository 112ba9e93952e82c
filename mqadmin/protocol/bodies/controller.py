"""Controller and HA bodies (5.3.3): sync state sets, replicas, epochs, HA runtime, elections.

``SyncStateSet`` (answers of 1003/1004/1001, the body of 1001), ``BrokerReplicasInfo`` (1006),
``ElectMasterResponseBody`` with its ``BrokerMemberGroup`` (1002), ``EpochEntryCache`` (1007) and
``HARuntimeInfo`` (907). fastjson writes a bean's properties sorted by name, null ones left out;
``Set<Long>`` members in ``HashSet`` order; ``Map<Long, String>`` keys unquoted.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Self

from mqadmin.protocol.bodies import fieldcheck as j
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


def _id_set(v: Any, what: str) -> list[int]:
    ids = j.list_of(v, what, lambda x, w: j.int64(x, w)) or []
    return java_hash_order(list(dict.fromkeys(ids)))


def _sorted(d: dict[str, Any]) -> dict[str, Any]:
    return {k: d[k] for k in sorted(d)}


def decode_name_list(body: bytes) -> list[str]:
    """The body of CONTROLLER_GET_SYNC_STATE_DATA (1006): a JSON array of broker names."""
    from mqadmin.protocol import fastjson

    value = fastjson.loads(body)
    names = j.str_list(value, "broker name list")
    if names is None:
        raise ProtocolError("broker name list is null")
    return names


@dataclass(slots=True)
class SyncStateSet(j.JsonBody):
    """The in-sync replica ids of a broker set and the epoch of that set."""

    sync_state_set: list[int] = field(default_factory=list)
    sync_state_set_epoch: int = 0

    @classmethod
    def from_json_obj(cls, obj: Any) -> Self:
        d = j.obj(obj, "SyncStateSet")
        return cls(
            _id_set(d.get("syncStateSet"), "syncStateSet"),
            j.int32(d.get("syncStateSetEpoch"), "syncStateSetEpoch"),
        )

    def to_json_obj(self, standard: bool = False) -> dict[str, Any]:
        return {
            "syncStateSet": java_hash_order(self.sync_state_set),
            "syncStateSetEpoch": self.sync_state_set_epoch,
        }


@dataclass(slots=True)
class ReplicaIdentity(j.JsonBody):
    broker_name: str | None = None
    broker_id: int | None = None
    broker_address: str | None = None
    alive: bool | None = None

    @classmethod
    def from_json_obj(cls, obj: Any, what: str = "ReplicaIdentity") -> Self:
        d = j.obj(obj, what)
        return cls(
            j.opt_str(d.get("brokerName"), "brokerName"),
            j.opt_int64(d.get("brokerId"), "brokerId"),
            j.opt_str(d.get("brokerAddress"), "brokerAddress"),
            j.opt_bool(d.get("alive"), "alive"),
        )

    def to_json_obj(self, standard: bool = False) -> dict[str, Any]:
        return {
            "alive": self.alive,
            "brokerAddress": self.broker_address,
            "brokerId": self.broker_id,
            "brokerName": self.broker_name,
        }

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
class ReplicasInfo(j.JsonBody):
    """One broker set in ``BrokerReplicasInfo``."""

    master_broker_id: int | None = None
    master_address: str | None = None
    master_epoch: int = 0
    sync_state_set_epoch: int = 0
    in_sync_replicas: list[ReplicaIdentity] = field(default_factory=list)
    not_in_sync_replicas: list[ReplicaIdentity] = field(default_factory=list)

    @classmethod
    def from_json_obj(cls, obj: Any, what: str = "ReplicasInfo") -> Self:
        d = j.obj(obj, what)
        return cls(
            j.opt_int64(d.get("masterBrokerId"), "masterBrokerId"),
            j.opt_str(d.get("masterAddress"), "masterAddress"),
            j.int32(d.get("masterEpoch"), "masterEpoch"),
            j.int32(d.get("syncStateSetEpoch"), "syncStateSetEpoch"),
            j.list_of(d.get("inSyncReplicas"), "inSyncReplicas", ReplicaIdentity.from_json_obj) or [],
            j.list_of(d.get("notInSyncReplicas"), "notInSyncReplicas", ReplicaIdentity.from_json_obj) or [],
        )

    def to_json_obj(self, standard: bool = False) -> dict[str, Any]:
        return {
            "inSyncReplicas": [r.to_json_obj() for r in self.in_sync_replicas],
            "masterAddress": self.master_address,
            "masterBrokerId": self.master_broker_id,
            "masterEpoch": self.master_epoch,
            "notInSyncReplicas": [r.to_json_obj() for r in self.not_in_sync_replicas],
            "syncStateSetEpoch": self.sync_state_set_epoch,
        }


@dataclass(slots=True)
class BrokerReplicasInfo(j.JsonBody):
    """broker name → :class:`ReplicasInfo` (a ``HashMap``)."""

    replicas_info_table: dict[str, ReplicasInfo] = field(default_factory=dict)

    @classmethod
    def from_json_obj(cls, obj: Any) -> Self:
        d = j.obj(obj, "BrokerReplicasInfo")
        table = j.map_of(d.get("replicasInfoTable"), "replicasInfoTable", ReplicasInfo.from_json_obj)
        return cls(table or {})

    def to_json_obj(self, standard: bool = False) -> dict[str, Any]:
        t = self.replicas_info_table
        return {"replicasInfoTable": {k: t[k].to_json_obj() for k in java_hash_order(list(t))}}


@dataclass(slots=True)
class BrokerMemberGroup(j.JsonBody):
    cluster: str | None = None
    broker_name: str | None = None
    broker_addrs: dict[int, str] = field(default_factory=dict)

    @classmethod
    def from_json_obj(cls, obj: Any, what: str = "BrokerMemberGroup") -> Self:
        d = j.obj(obj, what)
        addrs = j.opt_obj(d.get("brokerAddrs"), "brokerAddrs") or {}
        table = {j.numeric_key(k, "brokerAddrs"): j.opt_str(v, "brokerAddrs value") for k, v in addrs.items()}
        return cls(
            j.opt_str(d.get("cluster"), "cluster"),
            j.opt_str(d.get("brokerName"), "brokerName"),
            {k: v for k, v in table.items() if v is not None},
        )

    def to_json_obj(self, standard: bool = False) -> dict[str, Any]:
        a = self.broker_addrs
        return {
            "brokerAddrs": {k: a[k] for k in java_hash_order(list(a))},
            "brokerName": self.broker_name,
            "cluster": self.cluster,
        }


@dataclass(slots=True)
class GetBrokerMemberGroupResponseBody(j.JsonBody):
    broker_member_group: BrokerMemberGroup | None = None

    @classmethod
    def from_json_obj(cls, obj: Any) -> Self:
        d = j.obj(obj, "GetBrokerMemberGroupResponseBody")
        group = d.get("brokerMemberGroup")
        return cls(None if group is None else BrokerMemberGroup.from_json_obj(group))

    def to_json_obj(self, standard: bool = False) -> dict[str, Any]:
        g = self.broker_member_group
        return {"brokerMemberGroup": None if g is None else g.to_json_obj(standard)}


@dataclass(slots=True)
class ElectMasterResponseBody(j.JsonBody):
    """The body of a CONTROLLER_ELECT_MASTER answer: the set's members and the new sync state set."""

    broker_member_group: BrokerMemberGroup | None = None
    sync_state_set: list[int] = field(default_factory=list)

    @classmethod
    def from_json_obj(cls, obj: Any) -> Self:
        d = j.obj(obj, "ElectMasterResponseBody")
        group = d.get("brokerMemberGroup")
        return cls(
            None if group is None else BrokerMemberGroup.from_json_obj(group),
            _id_set(d.get("syncStateSet"), "syncStateSet"),
        )

    def to_json_obj(self, standard: bool = False) -> dict[str, Any]:
        g = self.broker_member_group
        return {
            "brokerMemberGroup": None if g is None else g.to_json_obj(),
            "syncStateSet": java_hash_order(self.sync_state_set),
        }


@dataclass(slots=True)
class EpochEntry(j.JsonBody):
    """One master epoch of a broker: the commit-log range written under it."""

    epoch: int = 0
    start_offset: int = 0
    end_offset: int = LONG_MAX

    @classmethod
    def from_json_obj(cls, obj: Any, what: str = "EpochEntry") -> Self:
        d = j.obj(obj, what)
        return cls(
            j.int32(d.get("epoch"), "epoch"),
            j.int64(d.get("startOffset"), "startOffset"),
            j.int64(d.get("endOffset"), "endOffset", LONG_MAX),
        )

    def to_json_obj(self, standard: bool = False) -> dict[str, Any]:
        return {"endOffset": self.end_offset, "epoch": self.epoch, "startOffset": self.start_offset}

    def java_text(self) -> str:
        """``EpochEntry.toString()``."""
        return (
            f"EpochEntry{{epoch={self.epoch}, startOffset={self.start_offset}, endOffset={self.end_offset}}}"
        )


@dataclass(slots=True)
class EpochEntryCache(j.JsonBody):
    """GET_BROKER_EPOCH_CACHE (1007): a broker's epochs and its commit-log max offset."""

    cluster_name: str | None = None
    broker_name: str | None = None
    broker_id: int = 0
    epoch_list: list[EpochEntry] = field(default_factory=list)
    max_offset: int = 0

    @classmethod
    def from_json_obj(cls, obj: Any) -> Self:
        d = j.obj(obj, "EpochEntryCache")
        return cls(
            j.opt_str(d.get("clusterName"), "clusterName"),
            j.opt_str(d.get("brokerName"), "brokerName"),
            j.int64(d.get("brokerId"), "brokerId"),
            j.list_of(d.get("epochList"), "epochList", EpochEntry.from_json_obj) or [],
            j.int64(d.get("maxOffset"), "maxOffset"),
        )

    def to_json_obj(self, standard: bool = False) -> dict[str, Any]:
        return {
            "brokerId": self.broker_id,
            "brokerName": self.broker_name,
            "clusterName": self.cluster_name,
            "epochList": [e.to_json_obj() for e in self.epoch_list],
            "maxOffset": self.max_offset,
        }


@dataclass(slots=True)
class HAConnectionRuntimeInfo(j.JsonBody):
    """One slave connected to a master."""

    addr: str | None = None
    slave_ack_offset: int = 0
    diff: int = 0
    in_sync: bool = False
    transferred_byte_in_second: int = 0
    transfer_from_where: int = 0

    @classmethod
    def from_json_obj(cls, obj: Any, what: str = "HAConnectionRuntimeInfo") -> Self:
        d = j.obj(obj, what)
        return cls(
            j.opt_str(d.get("addr"), "addr"),
            j.int64(d.get("slaveAckOffset"), "slaveAckOffset"),
            j.int64(d.get("diff"), "diff"),
            j.boolean(d.get("inSync"), "inSync"),
            j.int64(d.get("transferredByteInSecond"), "transferredByteInSecond"),
            j.int64(d.get("transferFromWhere"), "transferFromWhere"),
        )

    def to_json_obj(self, standard: bool = False) -> dict[str, Any]:
        return {
            "addr": self.addr,
            "diff": self.diff,
            "inSync": self.in_sync,
            "slaveAckOffset": self.slave_ack_offset,
            "transferFromWhere": self.transfer_from_where,
            "transferredByteInSecond": self.transferred_byte_in_second,
        }


@dataclass(slots=True)
class HAClientRuntimeInfo(j.JsonBody):
    """A slave's view of its master (all zero on a master)."""

    master_addr: str | None = None
    transferred_byte_in_second: int = 0
    max_offset: int = 0
    last_read_timestamp: int = 0
    last_write_timestamp: int = 0
    master_flush_offset: int = 0

    @classmethod
    def from_json_obj(cls, obj: Any, what: str = "HAClientRuntimeInfo") -> Self:
        d = j.obj(obj, what)
        return cls(
            j.opt_str(d.get("masterAddr"), "masterAddr"),
            j.int64(d.get("transferredByteInSecond"), "transferredByteInSecond"),
            j.int64(d.get("maxOffset"), "maxOffset"),
            j.int64(d.get("lastReadTimestamp"), "lastReadTimestamp"),
            j.int64(d.get("lastWriteTimestamp"), "lastWriteTimestamp"),
            j.int64(d.get("masterFlushOffset"), "masterFlushOffset"),
        )

    def to_json_obj(self, standard: bool = False) -> dict[str, Any]:
        return {
            "lastReadTimestamp": self.last_read_timestamp,
            "lastWriteTimestamp": self.last_write_timestamp,
            "masterAddr": self.master_addr,
            "masterFlushOffset": self.master_flush_offset,
            "maxOffset": self.max_offset,
            "transferredByteInSecond": self.transferred_byte_in_second,
        }


@dataclass(slots=True)
class HARuntimeInfo(j.JsonBody):
    """GET_BROKER_HA_STATUS (907)."""

    master: bool = False
    master_commit_log_max_offset: int = 0
    in_sync_slave_nums: int = 0
    ha_connection_info: list[HAConnectionRuntimeInfo] = field(default_factory=list)
    ha_client_runtime_info: HAClientRuntimeInfo = field(default_factory=HAClientRuntimeInfo)

    @classmethod
    def from_json_obj(cls, obj: Any) -> Self:
        d = j.obj(obj, "HARuntimeInfo")
        client = d.get("haClientRuntimeInfo")
        conns = j.list_of(
            d.get("haConnectionInfo"), "haConnectionInfo", HAConnectionRuntimeInfo.from_json_obj
        )
        return cls(
            j.boolean(d.get("master"), "master"),
            j.int64(d.get("masterCommitLogMaxOffset"), "masterCommitLogMaxOffset"),
            j.int32(d.get("inSyncSlaveNums"), "inSyncSlaveNums"),
            conns or [],
            HAClientRuntimeInfo() if client is None else HAClientRuntimeInfo.from_json_obj(client),
        )

    def to_json_obj(self, standard: bool = False) -> dict[str, Any]:
        return {
            "haClientRuntimeInfo": self.ha_client_runtime_info.to_json_obj(),
            "haConnectionInfo": [c.to_json_obj() for c in self.ha_connection_info],
            "inSyncSlaveNums": self.in_sync_slave_nums,
            "master": self.master,
            "masterCommitLogMaxOffset": self.master_commit_log_max_offset,
        }
