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
from collections.abc import Awaitable, Coroutine
from typing import Any, Protocol

from mqadmin.broker.acl.validator import plain_validator
from mqadmin.broker.admission import Admission
from mqadmin.broker.auth import AuthStore, inner_signer, start_auth
from mqadmin.broker.clients import ConsumerManager, ProducerManager
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
from mqadmin.broker.processors.static_forward import Forwarding
from mqadmin.broker.processors.static_topic import StaticTopicProcessor
from mqadmin.broker.registration import Registrar
from mqadmin.broker.schedule import ScheduleService
from mqadmin.broker.services import ClientNotifier, LiveConfig, MessageWriter, store_config_of
from mqadmin.broker.stats import BrokerStats, DailyTotals, StoreStats
from mqadmin.broker.store import MessageStore
from mqadmin.broker.topics import TopicManager
from mqadmin.broker.transactions import TransactionService
from mqadmin.broker.version import BrokerVersion, broker_version
from mqadmin.broker.wire import answer, error_answer, with_version
from mqadmin.protocol.command import RemotingCommand
from mqadmin.remoting.client import Connection, Handler, RemotingClient
from mqadmin.remoting.logthrottle import ThrottledLog
from mqadmin.remoting.server import RemotingServer

__all__ = ["BrokerController"]


class Processor(Protocol):
    """A family of request handlers (:mod:`mqadmin.broker.processors`)."""

    def handlers(self) -> dict[int, Handler]: ...


log = logging.getLogger("mqadmin.broker")
_peer_log = ThrottledLog(log)  # lines a remote peer can cause: a few per interval

REGISTER_FIRST_DELAY_S = 10.0
OFFSET_PERSIST_FIRST_DELAY_S = 10.0
CHANNEL_SCAN_PERIOD_S = 10.0


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
        self.notifier = ClientNotifier(self.version.ordinal)
        self.consumers = ConsumerManager(
            self.notifier.consumer_ids_changed, lambda: self.config.notify_consumer_ids_changed_enable
        )
        self.producers = ProducerManager()
        self.locks = QueueLocks()
        self.stats = BrokerStats(self.config.broker_cluster_name)
        self.store_stats = StoreStats()
        self.daily = DailyTotals()
        self.store = MessageStore(store_config_of(self.settings), self.store_host, self.store_port)
        # a parked pull is answered by replaying it in the pull processor, which is built below with the hold
        self.hold = PullHoldService(lambda held: self.pull_processor.replay(held))
        self.writer = MessageWriter(self.store, self.store_stats, self.hold)
        self.namesrv_client = RemotingClient()
        self.registrar = Registrar(self.settings, self.topics, self.namesrv_client)
        self.topics.on_auto_create = self.registrar.register_oneway
        self.live_config = LiveConfig(self.settings, self.store, self.registrar)
        self.schedule = ScheduleService(store_config=self.store_config, store=self.store, writer=self.writer)
        self.admission = Admission(None, None)  # the request gate, made at start from the ACL files
        self.transactions = TransactionService(
            topics=self.topics, store=self.store, admission=self.admission, writer=self.writer
        )
        self.forwarding = Forwarding(
            self.config,
            self.store,
            self.offsets,
            self.namesrv_client,
            lambda: inner_signer(self.settings, self.version),
        )
        self.pull_processor = PullProcessor(
            settings=self.settings,
            version=self.version,
            topics=self.topics,
            groups=self.groups,
            offsets=self.offsets,
            consumers=self.consumers,
            cold_data=self.cold_data,
            stats=self.stats,
            store_stats=self.store_stats,
            store=self.store,
            hold=self.hold,
            writer=self.writer,
            forwarding=self.forwarding,
        )
        self.replicas = ReplicasManager(self.settings, self.store)  # controller mode and the HA status
        self.server: RemotingServer | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
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

    # ------------------------------------------------------------------------------ lifecycle

    async def start(self) -> int:
        """Load configs, recover the store, listen, register; returns the port listened on."""
        s = self.settings
        # every handler behind one gate: declared, within budget, then ACL 1.0 (aclEnable; AclConfigError:
        # bad files) and ACL 2.0 (5.x: users and ACLs loaded) credentials and permissions
        self.admission.put_in_force(plain_validator(s), start_auth(self.auth_store, s, self.version))
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
        server.handlers.error_answer = error_answer(version)  # one error policy for every handler
        for processor in self._processors():
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
            self.store.rehost(self.store_host, self.store_port)
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
        await self.registrar.close()
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

    # ------------------------------------------------------------------------------ wiring

    def _processors(self) -> list[Processor]:
        """Every request processor, each given the services it uses (built at start: the ACL 1.0
        editor needs the validator the ACL files made)."""
        s, v = self.settings, self.version
        topics, groups, offsets, store = self.topics, self.groups, self.offsets, self.store
        return [
            SendProcessor(
                settings=s,
                topics=topics,
                groups=groups,
                consumers=self.consumers,
                stats=self.stats,
                store=store,
                admission=self.admission,
                transactions=self.transactions,
                writer=self.writer,
            ),
            self.pull_processor,
            OffsetProcessor(
                settings=s,
                topics=topics,
                offsets=offsets,
                store=store,
                schedule=self.schedule,
                forwarding=self.forwarding,
            ),
            QueryProcessor(settings=s, admission=self.admission, store=store),
            ClientProcessor(
                settings=s,
                version=v,
                topics=topics,
                groups=groups,
                offsets=offsets,
                consumers=self.consumers,
                producers=self.producers,
                locks=self.locks,
                store=store,
                notifier=self.notifier,
            ),
            TopicAdminProcessor(
                settings=s,
                version=v,
                topics=topics,
                consumers=self.consumers,
                store=store,
                registration=self.registrar,
            ),
            StaticTopicProcessor(settings=s, version=v, topics=topics, registration=self.registrar),
            BrokerAdminProcessor(
                settings=s,
                configuration=self.configuration,
                version=v,
                store=store,
                stats=self.stats,
                store_stats=self.store_stats,
                daily=self.daily,
                schedule=self.schedule,
                live_config=self.live_config,
            ),
            GroupAdminProcessor(
                settings=s,
                topics=topics,
                groups=groups,
                offsets=offsets,
                consumers=self.consumers,
                stats=self.stats,
                store=store,
            ),
            AuthProcessor(version=v, auth_store=self.auth_store),
            HAProcessor(replicas=self.replicas),
            AclAdminProcessor(settings=s, version=v, validator=self.admission.validator),
            self.transactions,
            BrokerOpsProcessor(
                settings=s,
                configuration=self.configuration,
                version=v,
                topics=topics,
                groups=groups,
                store=store,
            ),
            ColdDataProcessor(configuration=self.configuration, version=v, service=self.cold_data),
        ]

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
