"""Broker administration: config get/update (26, 25), runtime info (28) and stats items (315).

GET_BROKER_CONFIG never shows a credential (masked for everyone); UPDATE_BROKER_CONFIG refuses,
whole, any auth, ACL, credential, path or address setting (:meth:`Configuration.refusal`).

Runtime info carries the Java keys with values measured from what this broker served: put and get
counters and TPS windows from :class:`~mqadmin.broker.stats.StoreStats`, commit-log offsets and
disk ratios from the store, today's/yesterday's counters rolled at local midnight.
"""

from __future__ import annotations

import logging
import shutil

from mqadmin.broker.config import BrokerSettings, Configuration
from mqadmin.broker.schedule import ScheduleService
from mqadmin.broker.services import LiveConfig
from mqadmin.broker.stats import BrokerStats, DailyTotals, StoreStats, human_bytes
from mqadmin.broker.store import MessageStore
from mqadmin.broker.version import BrokerVersion
from mqadmin.broker.wire import answer
from mqadmin.protocol import fastjson
from mqadmin.protocol.bodies.kv import KVTable
from mqadmin.protocol.bodies.properties import string_to_properties
from mqadmin.protocol.codes import RequestCode, ResponseCode
from mqadmin.protocol.command import RemotingCommand
from mqadmin.protocol.errors import ProtocolError
from mqadmin.protocol.fastjson import java_double
from mqadmin.protocol.headers.broker import ViewBrokerStatsDataRequestHeader
from mqadmin.remoting.client import Connection, Handler

__all__ = ["BrokerAdminProcessor"]

log = logging.getLogger("mqadmin.broker")

FIVE_X_POOL_CAPACITY = 100000
"""5.3.3's ``litePullThreadPoolQueueCapacity`` and ``ackThreadPoolQueueCapacity`` defaults."""


class BrokerAdminProcessor:
    """Codes 25, 26, 28 and 315."""

    def __init__(
        self,
        *,
        settings: BrokerSettings,
        configuration: Configuration,
        version: BrokerVersion,
        store: MessageStore,
        stats: BrokerStats,
        store_stats: StoreStats,
        daily: DailyTotals,
        schedule: ScheduleService,
        live_config: LiveConfig,
    ) -> None:
        self.settings = settings
        self.configuration = configuration
        self.version = version
        self.store = store
        self.stats = stats
        self.store_stats = store_stats
        self.daily = daily
        self.schedule = schedule
        self.live_config = live_config

    def handlers(self) -> dict[int, Handler]:
        return {
            RequestCode.UPDATE_BROKER_CONFIG: self.update_broker_config,
            RequestCode.GET_BROKER_CONFIG: self.get_broker_config,
            RequestCode.GET_BROKER_RUNTIME_INFO: self.runtime_info,
            RequestCode.VIEW_BROKER_STATS_DATA: self.view_stats,
        }

    def get_broker_config(self, conn: Connection, cmd: RemotingCommand) -> RemotingCommand:
        """Java's table, every credential masked whoever asks (the listing travels and is printed)."""
        c = self.configuration
        body = c.format(masked=True).encode()
        version = {"version": c.data_version.encode().decode()}
        return answer(cmd, ResponseCode.SUCCESS, None, version, body or None)

    def update_broker_config(self, conn: Connection, cmd: RemotingCommand) -> RemotingCommand:
        """Java's update, refusing whole what :meth:`Configuration.refusal` refuses (nothing changes)."""
        if not cmd.body:
            return answer(cmd, ResponseCode.SUCCESS)
        try:
            props = string_to_properties(cmd.body, strict=True)
        except ProtocolError:
            return answer(cmd, ResponseCode.SYSTEM_ERROR, "string2Properties error")
        refused = self.configuration.refusal(props)
        if refused is not None:
            log.warning("updateBrokerConfig from %s refused: %s", conn.remote_addr, refused[1])
            return answer(cmd, *refused)
        log.info("updateBrokerConfig called by %s: %s", conn.remote_addr, props)
        self.configuration.update(props)
        self.live_config.updated(props)
        return answer(cmd, ResponseCode.SUCCESS)

    def runtime_info(self, conn: Connection, cmd: RemotingCommand) -> RemotingCommand:
        return answer(cmd, ResponseCode.SUCCESS, None, None, KVTable(self.runtime_table()).encode())

    def runtime_table(self) -> dict[str, str]:
        """``prepareRuntimeInfo``: the store's figures plus the broker's."""
        store = self.store
        cfg = self.settings.broker
        info = self.store_stats.runtime_info()
        ratio = java_double(store.disk_ratio())
        info[f"commitLogDiskRatio_{self.settings.store.commit_log_dir}"] = ratio
        info["commitLogDiskRatio"] = ratio
        info["consumeQueueDiskRatio"] = ratio
        info.update(self.schedule.running_stats())
        info["commitLogMinOffset"] = str(max(store.commitlog_min_offset, 0))
        info["commitLogMaxOffset"] = str(store.commitlog_max_offset)
        info["brokerVersionDesc"] = self.version.desc
        info["brokerVersion"] = str(self.version.ordinal)
        day = self.daily
        info["msgPutTotalYesterdayMorning"] = str(day.put_yesterday_morning)
        info["msgPutTotalTodayMorning"] = str(day.put_today_morning)
        info["msgPutTotalTodayNow"] = str(self.store_stats.put_times_total)
        info["msgGetTotalYesterdayMorning"] = str(day.get_yesterday_morning)
        info["msgGetTotalTodayMorning"] = str(day.get_today_morning)
        info["msgGetTotalTodayNow"] = str(self.store_stats.get_transferred)
        info["sendThreadPoolQueueSize"] = "0"
        info["sendThreadPoolQueueCapacity"] = str(cfg.send_thread_pool_queue_capacity)
        info["pullThreadPoolQueueSize"] = "0"
        info["pullThreadPoolQueueCapacity"] = str(cfg.pull_thread_pool_queue_capacity)
        info["queryThreadPoolQueueSize"] = "0"
        info["queryThreadPoolQueueCapacity"] = str(cfg.query_thread_pool_queue_capacity)
        info["EndTransactionQueueSize"] = "0"
        info["EndTransactionThreadPoolQueueCapacity"] = str(cfg.end_transaction_pool_queue_capacity)
        info["dispatchBehindBytes"] = str(store.dispatch_behind_bytes)
        info["pageCacheLockTimeMills"] = "0"
        info["sendThreadPoolQueueHeadWaitTimeMills"] = "0"
        info["pullThreadPoolQueueHeadWaitTimeMills"] = "0"
        info["queryThreadPoolQueueHeadWaitTimeMills"] = "0"
        info["earliestMessageTimeStamp"] = str(store.earliest_message_time_all())
        info["startAcceptSendRequestTimeStamp"] = str(cfg.start_accept_send_request_time_stamp)
        info["remainTransientStoreBufferNumbs"] = str((1 << 31) - 1)
        info["remainHowManyDataToFlush"] = human_bytes(0)
        try:
            usage = shutil.disk_usage(self.settings.store.store_path_root_dir)
            info["commitLogDirCapacity"] = (
                f"Total : {human_bytes(usage.total)}, Free : {human_bytes(usage.free)}."
            )
        except OSError:
            pass
        if self.version.five_x:
            _five_x_runtime(info)
        return info

    def view_stats(self, conn: Connection, cmd: RemotingCommand) -> RemotingCommand:
        hdr = ViewBrokerStatsDataRequestHeader.decode(cmd.ext_fields)
        name, key = hdr.stats_name, hdr.stats_key
        item = self.stats.get(name, key)
        if item is None:
            return answer(cmd, ResponseCode.SYSTEM_ERROR, f"The stats <{name}> <{key}> not exist")
        return answer(cmd, ResponseCode.SUCCESS, None, None, fastjson.dumps(item.to_json_obj()).encode())


def _five_x_runtime(info: dict[str, str]) -> None:
    """What a 5.3.3 broker's runtime info says beyond 4.9.8's: its spelling of the transferred TPS,
    the lite-pull and ack pools (none queued here), no timer wheel running, and an active broker
    (``isSpecialServiceRunning``: a master outside controller mode)."""
    transferred = info.pop("getTransferedTps", None)
    if transferred is not None:
        info["getTransferredTps"] = transferred
    info["brokerActive"] = "true"
    info["litePullThreadPoolQueueSize"] = "0"
    info["litePullThreadPoolQueueCapacity"] = str(FIVE_X_POOL_CAPACITY)
    info["litePullThreadPoolQueueHeadWaitTimeMills"] = "0"
    info["ackThreadPoolQueueSize"] = "0"
    info["ackThreadPoolQueueCapacity"] = str(FIVE_X_POOL_CAPACITY)
    info["ackThreadPoolQueueHeadWaitTimeMills"] = "0"
    for key in ("timerReadBehind", "timerOffsetBehind", "timerCongestNum"):
        info[key] = "0"
    info["timerEnqueueTps"] = "0.0"
    info["timerDequeueTps"] = "0.0"
