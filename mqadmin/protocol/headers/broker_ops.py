"""Request headers of the 5.x broker operations (5.3.3 ``remoting/.../protocol/header``).

RESET_MASTER_FLUSH_OFFSET (908), EXPORT_ROCKSDB_CONFIG_TO_JSON (355),
CHECK_ROCKSDB_CQ_WRITE_PROGRESS (354), ADD_BROKER (902) and REMOVE_BROKER (903). SET_COMMITLOG_READ_MODE
(2004) has no header class in Java: its one ext field is :data:`READ_AHEAD_MODE`, read with
:class:`CommitLogReadAheadHeader` here. SET_MESSAGE_REQUEST_MODE (401) and POP_ROLLBACK (200056, the
pop-record export) carry a body or nothing.
"""

from __future__ import annotations

from mqadmin.protocol import names
from mqadmin.protocol.headers.base import (
    Annotated,
    BrokerName,
    Check,
    ClusterName,
    Java,
    Long,
    RequestHeader,
    request_header,
)

__all__ = [
    "CONFIG_TYPES",
    "MADV_NORMAL",
    "MADV_RANDOM",
    "READ_AHEAD_MODE",
    "AddBrokerRequestHeader",
    "CheckRocksdbCqWriteProgressRequestHeader",
    "CommitLogReadAheadHeader",
    "ExportRocksDBConfigToJsonRequestHeader",
    "RemoveBrokerRequestHeader",
    "ResetMasterFlushOffsetHeader",
    "config_types",
]

READ_AHEAD_MODE = "READ_AHEAD_MODE"
"""``FIleReadaheadMode.READ_AHEAD_MODE``: the ext field of SET_COMMITLOG_READ_MODE."""
MADV_NORMAL = 0
"""``LibC.MADV_NORMAL``: read ahead (``dataReadAheadEnable=true``)."""
MADV_RANDOM = 1
"""``LibC.MADV_RANDOM``: no read ahead."""

CONFIG_TYPES = ("topics", "subscriptionGroups", "consumerOffsets")
"""``ExportRocksDBConfigToJsonRequestHeader.ConfigType`` names, in enum order."""


def config_types(text: str) -> list[str]:
    """``ConfigType.fromString``: ``;``-separated names, matched ignoring case and surrounding space;
    ValueError (Java: ``Unknown config type: X``) for any other name."""
    out: list[str] = []
    for part in text.split(";"):
        if not part:
            continue
        name = part.strip().lower()
        match = next((t for t in CONFIG_TYPES if t.lower() == name), None)
        if match is None:
            raise ValueError(f"Unknown config type: {part}")
        out.append(match)
    return out


def _config_type_refusal(text: str) -> str | None:
    try:
        config_types(text)
    except ValueError as e:
        return f"java.lang.IllegalArgumentException: {e}"
    return None


@request_header
class ResetMasterFlushOffsetHeader(RequestHeader):
    """RESET_MASTER_FLUSH_OFFSET (908)."""

    master_flush_offset: Long


@request_header
class CommitLogReadAheadHeader(RequestHeader):
    """SET_COMMITLOG_READ_MODE (2004): the one ext field Java's tool puts, parsed as Java's
    ``Integer.parseInt`` parses it."""

    read_ahead_mode: Annotated[int, Java(READ_AHEAD_MODE)]


@request_header
class ExportRocksDBConfigToJsonRequestHeader(RequestHeader):
    """EXPORT_ROCKSDB_CONFIG_TO_JSON (355): ``configType`` is ``topics;subscriptionGroups;...``."""

    config_type: Annotated[str, Check(_config_type_refusal)]


def _topic_or_every(s: str) -> str | None:
    """A topic name, or empty for every topic."""
    return None if s == "" else names.check_topic(s)


@request_header
class CheckRocksdbCqWriteProgressRequestHeader(RequestHeader):
    """CHECK_ROCKSDB_CQ_WRITE_PROGRESS (354). The tool sends an empty topic to mean every topic."""

    topic: Annotated[str, Check(_topic_or_every)]
    check_store_time: Long = 0


@request_header
class AddBrokerRequestHeader(RequestHeader):
    """ADD_BROKER (902), answered only by a broker container."""

    config_path: str | None = None


@request_header
class RemoveBrokerRequestHeader(RequestHeader):
    """REMOVE_BROKER (903), answered only by a broker container."""

    broker_name: BrokerName
    broker_cluster_name: ClusterName
    broker_id: Long
