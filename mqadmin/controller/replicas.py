"""The replica sets one controller knows: ids, addresses, masters, epochs and sync state sets.

Java's ``ReplicasInfoManager`` keeps a ``BrokerReplicaInfo`` and a ``SyncStateInfo`` per broker name
and changes them only through events replicated by DLedger or JRaft. This controller is one node:
each decision is taken and applied in one step on the event loop, and the whole table is written
to ``replicas.json`` in the controller's store (atomically, before the answer goes out), so a
restart finds every id, address, master and epoch where it was. Decisions, codes and remarks
are Java's; where Java would store something no peer could use (an id below 1, a first election
naming an id that was never applied) the request is refused instead.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mqadmin.atomicfile import write_atomic
from mqadmin.protocol import names
from mqadmin.protocol.codes import ResponseCode
from mqadmin.protocol.headers.controller import FIRST_BROKER_CONTROLLER_ID, register_check_code_refusal
from mqadmin.protocol.headers.namesrv import broker_addr_refusal

__all__ = ["STORE_FILE", "ControllerStoreError", "ReplicaSet", "ReplicasStore"]

log = logging.getLogger("mqadmin.controller")

STORE_FILE = "replicas.json"
_FORMAT_VERSION = 1

Alive = Callable[[str, str, int], bool]


class ControllerStoreError(Exception):
    """``replicas.json`` cannot be read back: the controller does not start on a guess."""


@dataclass
class ReplicaSet:
    """One broker set: Java's ``BrokerReplicaInfo`` and ``SyncStateInfo`` together."""

    cluster_name: str
    broker_name: str
    next_assign_broker_id: int = FIRST_BROKER_CONTROLLER_ID
    brokers: dict[int, tuple[str, str]] = field(default_factory=dict)
    """broker id → (address, register check code)."""
    master_broker_id: int | None = None
    master_epoch: int = 0
    sync_state_set: set[int] = field(default_factory=set)
    sync_state_set_epoch: int = 0

    def address(self, broker_id: int | None) -> str | None:
        entry = self.brokers.get(broker_id) if broker_id is not None else None
        return entry[0] if entry else None

    def add_broker(self, broker_id: int, address: str, check_code: str) -> None:
        self.brokers[broker_id] = (address, check_code)
        self.next_assign_broker_id += 1

    def update_master(self, master: int | None) -> None:
        self.master_broker_id = master
        self.master_epoch += 1

    def update_sync_state_set(self, ids: set[int]) -> None:
        self.sync_state_set = set(ids)
        self.sync_state_set_epoch += 1

    def to_json(self) -> dict[str, Any]:
        return {
            "clusterName": self.cluster_name,
            "brokerName": self.broker_name,
            "nextAssignBrokerId": self.next_assign_broker_id,
            "brokers": [
                {"brokerId": i, "brokerAddress": a, "registerCheckCode": c}
                for i, (a, c) in sorted(self.brokers.items())
            ],
            "masterBrokerId": self.master_broker_id,
            "masterEpoch": self.master_epoch,
            "syncStateSet": sorted(self.sync_state_set),
            "syncStateSetEpoch": self.sync_state_set_epoch,
        }

    @classmethod
    def from_json(cls, d: Any) -> ReplicaSet:
        if not isinstance(d, dict):
            raise ValueError("a broker set is not an object")
        cluster, name = d.get("clusterName"), d.get("brokerName")
        for kind, v in (("cluster", cluster), ("broker", name)):
            why = names.check_name(kind, v) if isinstance(v, str) else f"the {kind} name is not text"
            if why is not None:
                raise ValueError(why)
        rs = cls(str(cluster), str(name))
        rs.next_assign_broker_id = _whole(d.get("nextAssignBrokerId"), "nextAssignBrokerId")
        for b in _list(d.get("brokers"), "brokers"):
            if not isinstance(b, dict):
                raise ValueError("a broker entry is not an object")
            addr, code = b.get("brokerAddress"), b.get("registerCheckCode")
            if not isinstance(addr, str) or broker_addr_refusal(addr) is not None:
                raise ValueError(f"bad broker address {addr!r}")
            if not isinstance(code, str) or register_check_code_refusal(code) is not None:
                raise ValueError(f"bad register check code {code!r}")
            rs.brokers[_whole(b.get("brokerId"), "brokerId")] = (addr, code)
        master = d.get("masterBrokerId")
        rs.master_broker_id = None if master is None else _whole(master, "masterBrokerId")
        rs.master_epoch = _whole(d.get("masterEpoch"), "masterEpoch")
        rs.sync_state_set = {_whole(i, "syncStateSet") for i in _list(d.get("syncStateSet"), "syncStateSet")}
        rs.sync_state_set_epoch = _whole(d.get("syncStateSetEpoch"), "syncStateSetEpoch")
        return rs


def _whole(v: Any, what: str) -> int:
    if type(v) is not int or not -(1 << 63) <= v < (1 << 63):
        raise ValueError(f"{what} is not a whole number")
    return v


def _list(v: Any, what: str) -> list[Any]:
    if not isinstance(v, list):
        raise ValueError(f"{what} is not a list")
    return v


class ReplicasStore:
    """broker name → :class:`ReplicaSet`, loaded from and written to ``<directory>/replicas.json``."""

    def __init__(self, directory: str | Path) -> None:
        self.path = Path(directory) / STORE_FILE
        self.sets: dict[str, ReplicaSet] = {}

    def load(self) -> None:
        """Read the table back; a missing file is an empty table, a damaged one an error."""
        try:
            raw = self.path.read_bytes()
        except FileNotFoundError:
            return
        except OSError as e:
            raise ControllerStoreError(f"cannot read {self.path}: {e}") from None
        try:
            doc = json.loads(raw)
            if not isinstance(doc, dict) or doc.get("version") != _FORMAT_VERSION:
                raise ValueError("not a controller replica table of this version")
            loaded = [ReplicaSet.from_json(d) for d in _list(doc.get("brokerSets"), "brokerSets")]
        except (ValueError, UnicodeDecodeError) as e:
            raise ControllerStoreError(f"{self.path} is damaged: {e}") from None
        self.sets = {rs.broker_name: rs for rs in loaded}
        log.info("controller: %d broker set(s) loaded from %s", len(self.sets), self.path)

    def persist(self) -> None:
        """Write the whole table atomically (before the change is answered)."""
        doc = {"version": _FORMAT_VERSION, "brokerSets": [rs.to_json() for rs in self.sets.values()]}
        self.path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(self.path, json.dumps(doc, indent=1, sort_keys=False) + "\n")

    def get(self, broker_name: str | None) -> ReplicaSet | None:
        return self.sets.get(broker_name) if broker_name is not None else None


@dataclass
class Decision:
    """A controller answer: code, remark, response header fields and body."""

    code: int = ResponseCode.SUCCESS
    remark: str | None = None
    fields: dict[str, Any] = field(default_factory=dict)
    body: bytes | None = None

    @classmethod
    def refuse(cls, code: int, remark: str) -> Decision:
        return cls(code, remark)
