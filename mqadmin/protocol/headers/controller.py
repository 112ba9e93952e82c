"""Controller request and response headers (5.3.3 ``remoting/.../protocol/header/controller``).

Broker registration to a controller: CONTROLLER_GET_NEXT_BROKER_ID (1012), CONTROLLER_APPLY_BROKER_ID
(1013), CONTROLLER_REGISTER_BROKER (1003); replica state: CONTROLLER_GET_REPLICA_INFO (1004),
CONTROLLER_ALTER_SYNC_STATE_SET (1001), CONTROLLER_ELECT_MASTER (1002); administration:
CONTROLLER_GET_METADATA_INFO (1005, answered with :class:`GetMetaDataResponseHeader`) and
CLEAN_BROKER_DATA (1011). The heartbeat a broker sends its controller is the name server's
``BrokerHeartbeatRequestHeader`` (904, :mod:`mqadmin.protocol.headers.namesrv`).

Java decodes these reflectively; our controller reads them strictly (a missing required field or a
bad number refuses the request) and checks every cluster name, broker name and broker address with
the shared name rules, so nothing it stores could break a file, a body or a log line.
"""

from __future__ import annotations

from mqadmin.protocol.headers.base import (
    KW_ONLY,
    Annotated,
    BrokerName,
    Check,
    ClusterName,
    Java,
    Long,
    RequestHeader,
    request_header,
)
from mqadmin.protocol.headers.namesrv import BrokerAddr, broker_addr_refusal

__all__ = [
    "FIRST_BROKER_CONTROLLER_ID",
    "AlterSyncStateSetRequestHeader",
    "AlterSyncStateSetResponseHeader",
    "ApplyBrokerIdRequestHeader",
    "ApplyBrokerIdResponseHeader",
    "CleanControllerBrokerDataRequestHeader",
    "ElectMasterRequestHeader",
    "ElectMasterResponseHeader",
    "GetMetaDataResponseHeader",
    "GetNextBrokerIdRequestHeader",
    "GetNextBrokerIdResponseHeader",
    "GetReplicaInfoRequestHeader",
    "GetReplicaInfoResponseHeader",
    "RegisterBrokerToControllerRequestHeader",
    "RegisterBrokerToControllerResponseHeader",
    "register_check_code_refusal",
]

FIRST_BROKER_CONTROLLER_ID = 1
"""``MixAll.FIRST_BROKER_CONTROLLER_ID``: the id a controller gives the first replica of a broker set."""


def register_check_code_refusal(code: str) -> str | None:
    """A register check code is ``<broker address>;<anything printable>`` (Java: address;timestamp)."""
    addr, sep, _ = code.partition(";")
    if not sep:
        return f"the registerCheckCode [{code}] is not <broker address>;<check>"
    return broker_addr_refusal(addr)


RegisterCheckCode = Annotated[str, Check(register_check_code_refusal)]


# ------------------------------------------------------------------------------ registration


@request_header
class GetNextBrokerIdRequestHeader(RequestHeader):
    """CONTROLLER_GET_NEXT_BROKER_ID (1012)."""

    cluster_name: ClusterName
    broker_name: BrokerName


@request_header
class GetNextBrokerIdResponseHeader(RequestHeader):
    cluster_name: str | None = None
    broker_name: str | None = None
    next_broker_id: Long | None = None


@request_header
class ApplyBrokerIdRequestHeader(RequestHeader):
    """CONTROLLER_APPLY_BROKER_ID (1013): claim an id, proving it with the check code."""

    cluster_name: ClusterName
    broker_name: BrokerName
    applied_broker_id: Long
    register_check_code: RegisterCheckCode


@request_header
class ApplyBrokerIdResponseHeader(RequestHeader):
    cluster_name: str | None = None
    broker_name: str | None = None


@request_header
class RegisterBrokerToControllerRequestHeader(RequestHeader):
    """CONTROLLER_REGISTER_BROKER (1003): a replica with an applied id comes (back) online."""

    cluster_name: ClusterName
    broker_name: BrokerName
    broker_id: Long
    broker_address: BrokerAddr
    invoke_time: Long = 0


@request_header
class RegisterBrokerToControllerResponseHeader(RequestHeader):
    cluster_name: str | None = None
    broker_name: str | None = None
    master_broker_id: Long | None = None
    master_address: str | None = None
    master_epoch: int | None = None
    sync_state_set_epoch: int | None = None


# ------------------------------------------------------------------------------ replica state


@request_header
class GetReplicaInfoRequestHeader(RequestHeader):
    """CONTROLLER_GET_REPLICA_INFO (1004)."""

    broker_name: BrokerName


@request_header
class GetReplicaInfoResponseHeader(RequestHeader):
    master_broker_id: Long | None = None
    master_address: str | None = None
    master_epoch: int | None = None


@request_header
class AlterSyncStateSetRequestHeader(RequestHeader):
    """CONTROLLER_ALTER_SYNC_STATE_SET (1001); the new set is the body (``SyncStateSet``)."""

    broker_name: BrokerName
    master_broker_id: Long
    master_epoch: int
    invoke_time: Long | None = None


@request_header
class AlterSyncStateSetResponseHeader(RequestHeader):
    new_sync_state_set_epoch: int | None = None


@request_header
class ElectMasterRequestHeader(RequestHeader):
    """CONTROLLER_ELECT_MASTER (1002). ``designateElect`` true: the admin's choice of ``brokerId``;
    false: a broker asking (the first election of a set takes its id)."""

    cluster_name: ClusterName = ""
    broker_name: BrokerName = ""
    broker_id: Long = -1
    designate_elect: bool = False
    invoke_time: Long | None = None


@request_header
class ElectMasterResponseHeader(RequestHeader):
    master_broker_id: Long | None = None
    master_address: str | None = None
    master_epoch: int | None = None
    sync_state_set_epoch: int | None = None


# ------------------------------------------------------------------------------ administration


@request_header
class GetMetaDataResponseHeader(RequestHeader):
    """The answer to CONTROLLER_GET_METADATA_INFO (1005): the controller group and its leader."""

    group: str | None = None
    controller_leader_id: str | None = None
    controller_leader_address: str | None = None
    is_leader: Annotated[bool, Java("isLeader")] = False
    peers: str | None = None


@request_header
class CleanControllerBrokerDataRequestHeader(RequestHeader):
    """CLEAN_BROKER_DATA (1011): forget a broker set, or some of its replica ids (``1;2;3``)."""

    _: KW_ONLY
    cluster_name: ClusterName | None = None
    broker_name: BrokerName
    broker_controller_ids_to_clean: str | None = None
    is_clean_living_broker: Annotated[bool, Java("isCleanLivingBroker")] = False
    invoke_time: Long | None = None
