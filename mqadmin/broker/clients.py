"""Who is connected: producer and consumer groups by channel (Java ``ProducerManager``/``ConsumerManager``).

Heartbeats register a channel in its groups; an unregistration, a closed connection or 120 s without
a heartbeat removes it. Whenever a consumer group's members or subscriptions change, every channel
still in the group gets NOTIFY_CONSUMER_IDS_CHANGED (40) so the clients rebalance at once.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from mqadmin.protocol.bodies.connection import SubscriptionData
from mqadmin.remoting.client import Connection

__all__ = [
    "CHANNEL_EXPIRED_MS",
    "ClientChannel",
    "ConsumerGroup",
    "ConsumerManager",
    "ProducerManager",
]

log = logging.getLogger("mqadmin.broker")

CHANNEL_EXPIRED_MS = 120_000
"""A channel with no heartbeat for this long is dropped (Java's CHANNEL_EXPIRED_TIMEOUT)."""


def now_ms() -> int:
    return int(time.time() * 1000)


@dataclass(slots=True)
class ClientChannel:
    """``ClientChannelInfo``: one client connection as a group member."""

    conn: Connection
    client_id: str
    language: str
    version: int
    last_update: int = field(default_factory=now_ms)

    @property
    def client_addr(self) -> str:
        return self.conn.remote_addr


@dataclass
class ConsumerGroup:
    """``ConsumerGroupInfo``: a consumer group's channels, subscriptions and consume settings."""

    name: str
    consume_type: str = "CONSUME_PASSIVELY"
    message_model: str = "CLUSTERING"
    consume_from_where: str = "CONSUME_FROM_LAST_OFFSET"
    channels: dict[Connection, ClientChannel] = field(default_factory=dict)
    subscriptions: dict[str, SubscriptionData] = field(default_factory=dict)
    last_update: int = field(default_factory=now_ms)

    def client_ids(self) -> list[str]:
        return [c.client_id for c in self.channels.values()]

    def find_channel(self, client_id: str) -> ClientChannel | None:
        return next((c for c in self.channels.values() if c.client_id == client_id), None)

    def update_channel(self, info: ClientChannel, consume_type: str, model: str, from_where: str) -> bool:
        """True when the channel is new to the group."""
        self.consume_type, self.message_model, self.consume_from_where = consume_type, model, from_where
        old = self.channels.get(info.conn)
        updated = False
        if old is None:
            self.channels[info.conn] = info
            log.info(
                "new consumer connected, group: %s %s %s channel: %s",
                self.name,
                consume_type,
                model,
                info.client_addr,
            )
            updated = True
            old = info
        elif old.client_id != info.client_id:
            self.channels[info.conn] = info
            old = info
        self.last_update = now_ms()
        old.last_update = self.last_update
        return updated

    def update_subscriptions(self, subs: list[SubscriptionData]) -> bool:
        """True when a topic was added or removed (a newer subVersion alone changes nothing visible)."""
        updated = False
        topics = set()
        for sub in subs:
            topic = sub.topic or ""
            topics.add(topic)
            old = self.subscriptions.get(topic)
            if old is None:
                self.subscriptions[topic] = sub
                updated = True
            elif sub.sub_version > old.sub_version:
                self.subscriptions[topic] = sub
        for topic in [t for t in self.subscriptions if t not in topics]:
            log.warning("subscription changed, group: %s remove topic %s", self.name, topic)
            del self.subscriptions[topic]
            updated = True
        self.last_update = now_ms()
        return updated


Notifier = Callable[[str, list[ClientChannel]], None]


class ConsumerManager:
    """Consumer groups by name; ``notify(group, channels)`` sends NOTIFY_CONSUMER_IDS_CHANGED."""

    def __init__(self, notify: Notifier, notify_enabled: Callable[[], bool]) -> None:
        self.groups: dict[str, ConsumerGroup] = {}
        self._notify = notify
        self._notify_enabled = notify_enabled

    def get(self, group: str) -> ConsumerGroup | None:
        return self.groups.get(group)

    def find_subscription(self, group: str, topic: str) -> SubscriptionData | None:
        g = self.groups.get(group)
        return None if g is None else g.subscriptions.get(topic)

    def register(
        self,
        group: str,
        info: ClientChannel,
        consume_type: str,
        model: str,
        from_where: str,
        subs: list[SubscriptionData],
        notify_enabled: bool,
    ) -> bool:
        g = self.groups.get(group)
        if g is None:
            g = self.groups[group] = ConsumerGroup(group, consume_type, model, from_where)
        r1 = g.update_channel(info, consume_type, model, from_where)
        r2 = g.update_subscriptions(subs)
        if (r1 or r2) and notify_enabled:
            self._changed(group, list(g.channels.values()))
        return r1 or r2

    def unregister(self, group: str, conn: Connection, notify_enabled: bool) -> None:
        g = self.groups.get(group)
        if g is None:
            return
        if g.channels.pop(conn, None) is not None:
            log.info("unregister a consumer from group %s: %s", group, conn.remote_addr)
        if not g.channels:
            self.groups.pop(group, None)
            log.info("unregister consumer ok, no any connection, and remove consumer group, %s", group)
        if notify_enabled:
            self._changed(group, list(g.channels.values()))

    def channel_closed(self, conn: Connection) -> None:
        """``doChannelCloseEvent``: drop the channel everywhere; tell the rest of each group."""
        for name, g in list(self.groups.items()):
            if g.channels.pop(conn, None) is None:
                continue
            log.warning("remove not active channel %s from consumer group %s", conn.remote_addr, name)
            if not g.channels:
                self.groups.pop(name, None)
            self._changed(name, list(g.channels.values()))

    def scan_not_active(self) -> None:
        """Close and forget channels silent for two minutes."""
        now = now_ms()
        for name, g in list(self.groups.items()):
            for conn, ch in list(g.channels.items()):
                if now - ch.last_update > CHANNEL_EXPIRED_MS:
                    log.warning(
                        "SCAN: remove expired channel %s from consumer group %s", conn.remote_addr, name
                    )
                    del g.channels[conn]
                    conn.close("consumer channel expired")
            if not g.channels:
                del self.groups[name]

    def groups_of_topic(self, topic: str) -> list[str]:
        """``queryTopicConsumeByWho``: online groups subscribed to the topic."""
        return [name for name, g in self.groups.items() if topic in g.subscriptions]

    def _changed(self, group: str, channels: list[ClientChannel]) -> None:
        if channels and self._notify_enabled():
            self._notify(group, channels)


class ProducerManager:
    """Producer groups by name: group → channel → client."""

    def __init__(self) -> None:
        self.groups: dict[str, dict[Connection, ClientChannel]] = {}

    def register(self, group: str, info: ClientChannel) -> None:
        table = self.groups.setdefault(group, {})
        found = table.get(info.conn)
        if found is None:
            table[info.conn] = info
            log.info("new producer connected, group: %s channel: %s", group, info.client_addr)
        else:
            found.last_update = now_ms()

    def unregister(self, group: str, conn: Connection) -> None:
        table = self.groups.get(group)
        if not table:
            return
        if table.pop(conn, None) is not None:
            log.info("unregister a producer from group %s: %s", group, conn.remote_addr)
        if not table:
            del self.groups[group]

    def channel_closed(self, conn: Connection) -> None:
        for table in self.groups.values():
            table.pop(conn, None)

    def scan_not_active(self) -> None:
        now = now_ms()
        for table in self.groups.values():
            for conn, ch in list(table.items()):
                if now - ch.last_update > CHANNEL_EXPIRED_MS:
                    del table[conn]
                    conn.close("producer channel expired")
