"""The composition root of one running broker (Java ``BrokerController``): the managers, the store,
the processors behind a remoting server, the name-server registration and the periodic housekeeping.

Usable in-process (tests, benchmarks) as ``async with BrokerController(settings) as broker``; the
``mqadmin broker start`` command wraps it with logging and signals (:mod:`mqadmin.broker.startup`).
Everything runs on one event loop: the store is called synchronously from the handlers, so a
message is durable (written to the page cache) and visible to pulls before its send is answered.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import logging
import math
import time
from collections.abc import Awaitable, Coroutine, Mapping
from typing import Any

from mqadmin.broker.acl.validator import plain_validator
from mqadmin.broker.admission import Admission
from mqadmin.broker.auth import AuthStore, start_auth
from mqadmin.broker.clients import ClientChannel, ConsumerManager, ProducerManager
from mqadmin.broker.cold_data import ColdDataCgCtrService
from mqadmin.broker.config import BrokerConfig, BrokerSettings, Configuration, MessageStoreConfig
from mqadmin.broker.groups import GroupManager
from mqadmin.broker.ha import ReplicasManager
from mqadmin.broker.locks import QueueLocks
from mqadmin.broker.longpoll import PullHoldService
from mqadmin.broker.offsets import OffsetManager
from mqadmin.broker.processors.acl_admin import AclAdminProcessor
from mqadmin.broker.processors.admin_broker import BrokerAdminProcessor
from mqadmin.broker.processors.admin_groups import GroupAdminProcessor
from mqadmin.broker.processors.admin_topics import TopicAdminProcessor
from mqadmin.broker.processors.auth import AuthProcessor
from mqadmin.broker.processors.broker_ops import BrokerOpsProcessor
from mqadmin.broker.processors.clients import ClientProcessor
from mqadmin.broker.processors.cold_data import ColdDataProcessor
from mqadmin.broker.processors.ha import HAProcessor
from mqadmin.broker.processors.offsets import OffsetProcessor
from mqadmin.broker.processors.pull import PullProcessor
from mqadmin.broker.processors.query import QueryProcessor
from mqadmin.broker.processors.send import SendProcessor
from mqadmin.broker.processors.static_topic import StaticTopicProcessor
from mqadmin.broker.processors.wire import answer, tags_hash, with_version
from mqadmin.broker.registration import Registrar
from mqadmin.broker.schedule import ScheduleService
from mqadmin.broker.stats import BrokerStats, DailyTotals, StoreStats
from mqadmin.broker.store import MessageStore, PutResult, StoreConfig
from mqadmin.broker.topics import TopicManager
from mqadmin.broker.transactions import TransactionService
from mqadmin.broker.version import BrokerVersion, broker_version
from mqadmin.protocol.codes import RequestCode
from mqadmin.protocol.command import RemotingCommand
from mqadmin.protocol.message import MessageExt
from mqadmin.remoting.client import Connection, RemotingClient
from mqadmin.remoting.logthrottle import ThrottledLog
from mqadmin.remoting.server import RemotingServer

__all__ = ["BrokerController"]

log = logging.getLogger("mqadmin.broker")
_peer_log = ThrottledLog(log)  # lines a remote peer can cause: a few per interval

REGISTER_FIRST_DELAY_S = 10.0
OFFSET_PERSIST_FIRST_DELAY_S = 10.0
CHANNEL_SCAN_PERIOD_S = 10.0


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


class BrokerController:
    """A development broker: :meth:`start`, serve until :meth:`shutdown`."""

    def __init__(self, settings: BrokerSettings | None = None, *, bind_address: str = "0.0.0.0") -> None:
        self.settings = settings or BrokerSettings()
        self.settings.fix_up()
        self.bind_address = bind_address
        self.configuration = Configuration(self.settings)
        self.version: BrokerVersion = broker_version(self.settings.file_properties)
        """What the broker behaves as (``rocketmqVersion``): 4.9.8, or 5.3.3 with the 5.x features."""
        config_dir = self.settings.store.config_dir
        self.topics = TopicManager(self.config, config_dir)
        self.groups = GroupManager(config_dir, self.config.auto_create_subscription_group)
        self.offsets = OffsetManager(config_dir)
        self.cold_data = ColdDataCgCtrService(config_dir, self.configuration.all_configs)  # 5.x cold reads
        self.auth_store = AuthStore(config_dir)  # ACL 2.0 users and policies
        self.consumers = ConsumerManager(
            self.notify_consumer_ids_changed, lambda: self.config.notify_consumer_ids_changed_enable
        )
        self.producers = ProducerManager()
        self.locks = QueueLocks()
        self.stats = BrokerStats(self.config.broker_cluster_name)
        self.store_stats = StoreStats()
        self.daily = DailyTotals()
        self.store: MessageStore = MessageStore(
            store_config_of(self.settings), self.store_host, self.store_port
        )
        self.schedule = ScheduleService(self, config_dir)
        self.transactions = TransactionService(self)
        self.pull_processor = PullProcessor(self)
        self.hold = PullHoldService(self.pull_processor.replay)
        self.namesrv_client = RemotingClient()
        self.registrar = Registrar(self.settings, self.topics, self.namesrv_client)
        self.topics.on_auto_create = self.registrar.register_oneway
        self.replicas = ReplicasManager(self)  # controller mode and the HA status
        self.admission = Admission(None, None)  # the request gate, made at start from the ACL files
        self.server: RemotingServer | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self._pending_registration: asyncio.Task[Any] | None = None
        self._started = False

    # ------------------------------------------------------------------------------ properties

    @property
    def config(self) -> BrokerConfig:
        return self.settings.broker

    @property
    def store_config(self) -> MessageStoreConfig:
        return self.settings.store

    @property
    def store_host(self) -> str:
        return self.settings.broker.broker_ip1

    @property
    def store_port(self) -> int:
        return self.settings.server.listen_port

    @property
    def port(self) -> int:
        return self.settings.server.listen_port

    @property
    def address(self) -> str:
        return self.settings.broker_addr

    @staticmethod
    def now_ms() -> int:
        return time.time_ns() // 1_000_000

    # ------------------------------------------------------------------------------ lifecycle

    async def start(self) -> int:
        """Load configs, recover the store, listen, register; returns the port listened on."""
        s = self.settings
        # every handler behind one gate: declared, within budget, then ACL 1.0 (aclEnable; AclConfigError:
        # bad files) and ACL 2.0 (5.x: users and ACLs loaded) credentials and permissions
        self.admission = Admission(plain_validator(s), start_auth(self))
        gate, version = self.admission.wrap, self.version.ordinal
        s.store.config_dir.mkdir(parents=True, exist_ok=True)
        self.topics.load()
        self.groups.load()
        self.offsets.load()
        self.schedule.load()
        self.topics.persist()
        self.groups.persist()
        server = RemotingServer(
            idle_timeout=float(s.server.server_channel_max_idle_time_seconds) or None,
            backlog=s.server.server_socket_backlog,
        )
        for processor in (
            SendProcessor(self),
            self.pull_processor,
            OffsetProcessor(self),
            QueryProcessor(self),
            ClientProcessor(self),
            TopicAdminProcessor(self),
            StaticTopicProcessor(self),
            BrokerAdminProcessor(self),
            GroupAdminProcessor(self),
            AuthProcessor(self),
            HAProcessor(self),
            AclAdminProcessor(self, self.admission.validator),
            self.transactions,
            BrokerOpsProcessor(self),
            ColdDataProcessor(self),
        ):
            for code, handler in processor.handlers().items():
                server.register_handler(code, with_version(gate(code, handler), version))
        server.register_default_handler(with_version(gate(None, self._unsupported), version))
        server.on_close.append(self._channel_closed)
        if s.server.listen_port != 0:  # the store is ready before the first client can connect
            self.store.start()
            try:
                port = await server.start(self.bind_address, s.server.listen_port)
            except BaseException:
                self.store.shutdown()
                raise
        else:  # a port picked at run time: the store host (in every message id) must say which
            port = await server.start(self.bind_address, 0)
            s.server.listen_port = port
            s.fix_up()
            self.store = MessageStore(store_config_of(s), self.store_host, self.store_port)
            try:
                self.store.start()
            except BaseException:
                await server.stop(0)
                raise
        self.server = server
        self._started = True
        await self.replicas.start()  # controller mode: master before the name servers hear of us
        await self.registrar.register_all()
        period = min(max(self.config.register_name_server_period, 10000), 60000) / 1000
        self._every(period, self.registrar.register_all, first=REGISTER_FIRST_DELAY_S)
        flush_offsets = self.config.flush_consumer_offset_interval / 1000
        self._every(flush_offsets, self.offsets.persist_if_dirty, first=OFFSET_PERSIST_FIRST_DELAY_S)
        self._every(s.store.flush_delay_offset_interval / 1000, self.schedule.persist_if_dirty)
        self._every(CHANNEL_SCAN_PERIOD_S, self._scan_channels)
        self._every(1.0, self.store_stats.sample, first=1.0)
        self._every(60.0, self.store_stats.roll_minute)
        self._every(10.0, self.stats.sample_seconds, first=0.0)
        self._every(600.0, self.stats.sample_minutes, first=0.0)
        self._every(3600.0, self.stats.sample_hours, first=0.0)
        self._every(s.store.clean_resource_interval / 1000, self._clean_files)
        # Java's FlushConsumeQueueService writes the checkpoint every flushIntervalConsumeQueue (1 s):
        # crash recovery then re-checks only what came after it
        flush_period = max(s.store.flush_interval_consume_queue, 100) / 1000
        self._every(flush_period, self._flush_store)
        self._spawn(self.schedule.run())
        self._spawn(self._midnight_loop())
        log.info("broker %s listening on %s:%d", self.config.broker_name, self.bind_address, port)
        return port

    async def shutdown(self, grace: float = 3.0) -> None:
        """Stop serving, persist offsets, unregister from the name servers, close the store."""
        if not self._started:
            return
        self._started = False
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(BaseException):
                await task
        self.hold.cancel_all()
        server, self.server = self.server, None
        if server is not None:
            await server.stop(grace)
        self.offsets.persist()
        self.schedule.persist()
        await self.registrar.unregister_all()
        await self.replicas.shutdown()
        await self.namesrv_client.close()
        self.store.shutdown()
        log.info("broker %s shut down", self.config.broker_name)

    async def __aenter__(self) -> BrokerController:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.shutdown()

    # ------------------------------------------------------------------------------ helpers for processors

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

    def send_to_client(
        self, conn: Connection, code: int, ext: Mapping[str, str], body: bytes | None = None
    ) -> None:
        """A oneway request to a client connection (RESET_CONSUMER_CLIENT_OFFSET, NOTIFY...)."""
        cmd = RemotingCommand.request(code, dict(ext), body, oneway=True, version=self.version.ordinal)
        try:
            conn.send(cmd)
        except Exception as e:
            log.warning("sending request %d to %s failed: %s", code, conn.remote_addr, e)

    def notify_consumer_ids_changed(self, group: str, channels: list[ClientChannel]) -> None:
        """NOTIFY_CONSUMER_IDS_CHANGED (40), oneway, to every channel of the group."""
        for ch in channels:
            if not ch.conn.closed:
                self.send_to_client(
                    ch.conn, RequestCode.NOTIFY_CONSUMER_IDS_CHANGED, {"consumerGroup": group}
                )

    def register_topic_change(self, topic: str | None) -> None:
        """After UPDATE_AND_CREATE_TOPIC: register just this topic (with the full DataVersion);
        ``None`` registers the whole table, once, after a batch create."""
        self._pending_registration = self._spawn(self.registrar.register_all(only=topic))

    async def registered(self) -> None:
        """Wait for the registration :meth:`register_topic_change` started (17 answers after it)."""
        task = self._pending_registration
        if task is not None:
            with contextlib.suppress(Exception):
                await asyncio.shield(task)

    def config_updated(self, props: Mapping[str, str]) -> None:
        """After UPDATE_BROKER_CONFIG: store limits apply to the next request; a new
        brokerPermission is registered at once."""
        live = store_config_of(self.settings)
        sc = self.store.config
        sc.max_message_size = live.max_message_size
        sc.file_reserved_hours = live.file_reserved_hours
        sc.message_index_enable = live.message_index_enable
        sc.max_transfer_count_in_memory = live.max_transfer_count_in_memory
        if "brokerPermission" in props:
            self.topics.data_version.next_version()
            self._spawn(self.registrar.register_all(check_order=False))

    # ------------------------------------------------------------------------------ internals

    def _unsupported(self, conn: Connection, cmd: RemotingCommand) -> RemotingCommand:
        _peer_log.warning("not supported", "%s request type %d not supported", conn.remote_addr, cmd.code)
        return answer(cmd, 3, f" request type {cmd.code} not supported")

    def _channel_closed(self, conn: Connection) -> None:
        self.producers.channel_closed(conn)
        self.consumers.channel_closed(conn)

    def _scan_channels(self) -> None:
        self.producers.scan_not_active()
        self.consumers.scan_not_active()

    def _flush_store(self) -> None:
        """fsync what was written and move the checkpoint (a no-op when nothing was written)."""
        if self.store.running:
            self.store.flush()

    def _clean_files(self) -> None:
        """Java's CleanCommitLogService: at ``deleteWhen`` o'clock, or when the disk is too full."""
        s = self.settings.store
        hours = {h.strip() for h in s.delete_when.split(";") if h.strip()}
        now_hour = dt.datetime.now().strftime("%H")
        ratio = self.store.disk_ratio()
        full = ratio >= 0 and ratio * 100 > s.disk_max_used_space_ratio
        if now_hour in hours or full:
            deleted = self.store.delete_expired_files(
                force=full and s.clean_file_forcibly_enable and ratio * 100 > 85
            )
            if deleted:
                log.info("deleted %d expired commit-log file(s)", deleted)

    async def _midnight_loop(self) -> None:
        while True:
            now = dt.datetime.now()
            midnight = (now + dt.timedelta(days=1)).replace(hour=0, minute=0, second=0, microsecond=0)
            await asyncio.sleep((midnight - now).total_seconds())
            self.daily.roll(self.store_stats.put_times_total, self.store_stats.get_transferred)

    def _spawn(self, coro: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    def _every(self, period: float, fn: Any, first: float | None = None) -> None:
        """Run ``fn`` (plain or async) every ``period`` seconds, the first time after ``first``."""

        async def loop() -> None:
            await asyncio.sleep(period if first is None else first)
            while True:
                try:
                    result = fn()
                    if isinstance(result, Awaitable):
                        await result
                except Exception:
                    log.exception("periodic task %s failed", getattr(fn, "__qualname__", fn))
                await asyncio.sleep(period)

        self._spawn(loop())
