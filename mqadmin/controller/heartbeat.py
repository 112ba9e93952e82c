"""Which broker replicas are alive (Java's ``DefaultBrokerHeartbeatManager``).

A replica is alive while its heartbeats (BROKER_HEARTBEAT, 904, with a broker id) keep coming
within its timeout; it goes at once when the connection it sent them on closes. Elections read
each live replica's epoch, max offset and election priority from here.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

__all__ = ["DEFAULT_TIMEOUT_MS", "MAX_TIMEOUT_MS", "BrokerLiveInfo", "HeartbeatTable", "ReplicaKey"]

DEFAULT_TIMEOUT_MS = 10_000
"""Java's ``DEFAULT_BROKER_CHANNEL_EXPIRED_TIME``."""

MAX_TIMEOUT_MS = 600_000
"""A heartbeat may ask for at most 10 minutes: a peer cannot keep entries alive forever."""

ReplicaKey = tuple[str, str, int]
"""(cluster name, broker name, broker id)."""


@dataclass
class BrokerLiveInfo:
    cluster_name: str
    broker_name: str
    broker_addr: str
    broker_id: int
    last_update: float
    timeout_ms: int
    channel: object
    epoch: int = -1
    max_offset: int = -1
    confirm_offset: int = -1
    election_priority: int = 2**31 - 1

    def expired(self, now: float) -> bool:
        return self.last_update + self.timeout_ms / 1000 < now


class HeartbeatTable:
    """The live replicas, by (cluster, broker name, broker id)."""

    def __init__(self) -> None:
        self.live: dict[ReplicaKey, BrokerLiveInfo] = {}

    def on_heartbeat(
        self,
        key: ReplicaKey,
        addr: str,
        channel: object,
        timeout_ms: int | None,
        epoch: int | None,
        max_offset: int | None,
        confirm_offset: int | None,
        election_priority: int | None,
    ) -> None:
        info = self.live.get(key)
        now = time.monotonic()
        timeout = timeout_ms if timeout_ms is not None and timeout_ms > 0 else DEFAULT_TIMEOUT_MS
        timeout = min(timeout, MAX_TIMEOUT_MS)
        if info is None:
            info = BrokerLiveInfo(key[0], key[1], addr, key[2], now, timeout, channel)
            self.live[key] = info
        info.last_update, info.timeout_ms, info.channel, info.broker_addr = now, timeout, channel, addr
        if epoch is not None:
            info.epoch = epoch
        if max_offset is not None:
            info.max_offset = max_offset
        if confirm_offset is not None:
            info.confirm_offset = confirm_offset
        if election_priority is not None:
            info.election_priority = election_priority

    def is_alive(self, cluster: str, broker_name: str, broker_id: int) -> bool:
        info = self.live.get((cluster, broker_name, broker_id))
        return info is not None and not info.expired(time.monotonic())

    def info(self, cluster: str, broker_name: str, broker_id: int) -> BrokerLiveInfo | None:
        return self.live.get((cluster, broker_name, broker_id))

    def channel_closed(self, channel: object) -> list[ReplicaKey]:
        """Forget the replicas that sent heartbeats on ``channel``; returns them."""
        gone = [k for k, v in self.live.items() if v.channel is channel]
        for k in gone:
            del self.live[k]
        return gone

    def expire(self) -> list[ReplicaKey]:
        """Forget the replicas silent past their timeout; returns them."""
        now = time.monotonic()
        gone = [k for k, v in self.live.items() if v.expired(now)]
        for k in gone:
            del self.live[k]
        return gone
