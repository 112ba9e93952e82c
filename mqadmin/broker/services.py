"""The small services the processors share, built once by the composition root
(:mod:`mqadmin.broker.server`) and handed to each processor that uses them.

A processor receives the tables it reads (topics, groups, offsets, ...) and these: a
:class:`MessageWriter` (every put goes through it, so the store statistics count it and parked pulls
wake), a :class:`ClientNotifier` (oneway requests to a client connection) and :class:`LiveConfig`
(what UPDATE_BROKER_CONFIG changes while the broker runs). None of them knows the processors.
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Mapping

from mqadmin.broker.clients import ClientChannel
from mqadmin.broker.config import BrokerSettings
from mqadmin.broker.longpoll import PullHoldService
from mqadmin.broker.registration import Registrar
from mqadmin.broker.stats import StoreStats
from mqadmin.broker.store import MessageStore, PutResult, StoreConfig
from mqadmin.broker.wire import tags_hash
from mqadmin.protocol.codes import RequestCode
from mqadmin.protocol.command import RemotingCommand
from mqadmin.protocol.message_record import MessageExt
from mqadmin.remoting.client import Connection

__all__ = ["ClientNotifier", "LiveConfig", "MessageWriter", "now_ms", "store_config_of"]

log = logging.getLogger("mqadmin.broker")


def now_ms() -> int:
    """Wall-clock milliseconds, as Java's ``System.currentTimeMillis``."""
    return time.time_ns() // 1_000_000


def store_config_of(settings: BrokerSettings) -> StoreConfig:
    """The store's settings from the Java ``MessageStoreConfig`` fields they stand for."""
    s = settings.store
    return StoreConfig(
        root=s.store_path_root_dir,  # type: ignore[arg-type]
        commitlog_file_size=s.mapped_file_size_commit_log,
        cq_entries_per_file=max(1, math.ceil(s.mapped_file_size_consume_queue / 20)),
        file_reserved_hours=float(s.file_reserved_time),
        flush_sync=s.flush_disk_type == "SYNC_FLUSH",
        max_message_size=s.max_message_size,
        index_hash_slot_num=s.max_hash_slot_num,
        index_num=s.max_index_num,
        message_index_enable=s.message_index_enable,
        max_msgs_num_batch=s.max_msgs_num_batch,
        check_crc_on_recover=s.check_crc_on_recover,
        message_delay_level=s.message_delay_level,
        max_transfer_bytes_in_disk=s.max_transfer_bytes_on_message_in_disk,
        max_transfer_count_in_disk=s.max_transfer_count_on_message_in_disk,
        max_transfer_count_in_memory=s.max_transfer_count_on_message_in_memory,
        access_message_in_memory_max_ratio=s.access_message_in_memory_max_ratio,
    )


class MessageWriter:
    """Stores messages: counted in the store statistics, and the pulls parked on their queue woken."""

    def __init__(self, store: MessageStore, store_stats: StoreStats, hold: PullHoldService) -> None:
        self.store = store
        self.store_stats = store_stats
        self.hold = hold

    @property
    def store_host(self) -> str:
        return self.store.store_host

    @property
    def store_port(self) -> int:
        return self.store.store_port

    def put_message(self, msg: MessageExt) -> PutResult:
        """Store one message, count it, and wake the pulls waiting on its queue."""
        started = time.monotonic()
        result = self.store.put_message(msg)
        elapsed = int((time.monotonic() - started) * 1000)
        if result.ok:
            self.store_stats.on_put(msg.topic, result.msg_num, result.wrote_bytes, elapsed)
            tags = msg.properties.get("TAGS")
            self.hold.notify(msg.topic, msg.queue_id, result.queue_offset + 1, tags_hash(tags) if tags else 0)
        else:
            self.store_stats.on_put_failed()
        return result

    def put_messages(self, msgs: list[MessageExt]) -> PutResult:
        started = time.monotonic()
        result = self.store.put_messages(msgs)
        elapsed = int((time.monotonic() - started) * 1000)
        if result.ok and msgs:
            self.store_stats.on_put(msgs[0].topic, result.msg_num, result.wrote_bytes, elapsed)
            self.hold.notify(msgs[0].topic, msgs[0].queue_id, result.queue_offset + result.msg_num)
        elif not result.ok:
            self.store_stats.on_put_failed()
        return result

    def disk_util(self) -> str:
        """``diskUtil()``: the partition ratios a SERVICE_NOT_AVAILABLE remark quotes."""
        r = self.store.disk_ratio()
        return f"CL: {r:5.2f} CQ: {r:5.2f} INDEX: {r:5.2f}"


class ClientNotifier:
    """Oneway requests to client connections, in the version the broker behaves as."""

    def __init__(self, version: int) -> None:
        self.version = version

    def send(self, conn: Connection, code: int, ext: Mapping[str, str], body: bytes | None = None) -> None:
        """A oneway request to a client connection (RESET_CONSUMER_CLIENT_OFFSET, NOTIFY...)."""
        cmd = RemotingCommand.request(code, dict(ext), body, oneway=True, version=self.version)
        try:
            conn.send(cmd)
        except Exception as e:
            log.warning("sending request %d to %s failed: %s", code, conn.remote_addr, e)

    def consumer_ids_changed(self, group: str, channels: list[ClientChannel]) -> None:
        """NOTIFY_CONSUMER_IDS_CHANGED (40), oneway, to every channel of the group."""
        for ch in channels:
            if not ch.conn.closed:
                self.send(ch.conn, RequestCode.NOTIFY_CONSUMER_IDS_CHANGED, {"consumerGroup": group})


class LiveConfig:
    """What UPDATE_BROKER_CONFIG changes at once: store limits apply to the next request; a new
    ``brokerPermission`` is registered with the name servers."""

    def __init__(self, settings: BrokerSettings, store: MessageStore, registration: Registrar) -> None:
        self.settings = settings
        self.store = store
        self.registration = registration

    def updated(self, props: Mapping[str, str]) -> None:
        live = store_config_of(self.settings)
        sc = self.store.config
        sc.max_message_size = live.max_message_size
        sc.file_reserved_hours = live.file_reserved_hours
        sc.message_index_enable = live.message_index_enable
        sc.max_transfer_count_in_memory = live.max_transfer_count_in_memory
        if "brokerPermission" in props:
            self.registration.permission_changed()
