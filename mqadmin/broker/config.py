"""Broker settings under their Java names, with Java's defaults and Java's way of setting them.

The four config objects of a 4.9.8 broker (``BrokerConfig``, ``NettyServerConfig``,
``NettyClientConfig``, ``MessageStoreConfig``), field for field and in declaration order, because
``-p`` prints them in that order and GET_BROKER_CONFIG (26) lists them in the order a Java
``Properties`` filled in that order iterates. A ``-c`` file is applied the way
``MixAll.properties2Object`` does it: a key names a field, the value is parsed for the field's type,
and a value that does not parse is ignored. :class:`Configuration` is Java's ``Configuration``:
the text table GET_BROKER_CONFIG answers and UPDATE_BROKER_CONFIG changes and persists.

A remote update (:meth:`Configuration.refusal`) is stricter than Java's: an entry on more than one
line, a black-listed key (5.3.3's list, plus every authentication, ACL, credential, path and address
key: :func:`~mqadmin.protocol.configentry.protected_key`), or a value that does not parse for its
field refuses the whole update, and nothing changes. The persisted file is written escaped
(``Properties.store``), so it reads back exactly as it was set. The listing GET_BROKER_CONFIG
answers (:meth:`Configuration.format` with ``masked``) never shows a credential.
"""

from __future__ import annotations

import logging
import os
import socket
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mqadmin.atomicfile import write_atomic
from mqadmin.javaconfig import JavaBean, JavaField, java_field, parse_java_integer
from mqadmin.protocol import names
from mqadmin.protocol.bodies.dataversion import DataVersion
from mqadmin.protocol.bodies.properties import properties_store
from mqadmin.protocol.codes import ResponseCode
from mqadmin.protocol.configentry import config_entry_refusal, masked_value, protected_key
from mqadmin.protocol.headers.topic import perm_refusal
from mqadmin.protocol.javacoll import properties_order
from mqadmin.protocol.javanum import parse_double

__all__ = [
    "ALWAYS_BLACK_LISTED",
    "DEFAULT_LISTEN_PORT",
    "AuthConfig",
    "BrokerConfig",
    "BrokerSettings",
    "Configuration",
    "MessageStoreConfig",
    "NettyClientConfig",
    "NettyServerConfig",
    "local_address",
]

log = logging.getLogger("mqadmin.broker")

DEFAULT_LISTEN_PORT = 10911
"""``BrokerStartup`` sets it before the ``-c`` file is read (the Netty default is 8888)."""

_CPUS = os.cpu_count() or 1


def local_address() -> str:
    """``RemotingUtil.getLocalAddress``: a non-loopback IPv4 address of this host, else 127.0.0.1."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("192.0.2.1", 9))  # no packet is sent: this only picks the outgoing interface
            addr = s.getsockname()[0]
        if addr and not addr.startswith("127.") and addr != "0.0.0.0":
            return str(addr)
    except OSError:
        pass
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            addr = str(info[4][0])
            if not addr.startswith("127."):
                return addr
    except OSError:
        pass
    return "127.0.0.1"


class _Bean(JavaBean):
    """A 4.9.8 broker config object: 4.9.8 parsing; a value that does not parse is logged."""

    @staticmethod
    def parse_property(kind: str, text: str) -> Any:
        return parse_java(kind, text)

    def property_ignored(self, f: JavaField, text: str) -> None:
        log.warning("config %s=%r is not a %s: ignored", f.java, text, f.kind)


def parse_java(kind: str, text: str) -> Any:
    """Parse a property for a Java type; ValueError where Java throws (the value is then ignored)."""
    if kind in ("int", "long"):
        return parse_java_integer(text.strip() if kind == "long" else text, kind)
    if kind == "boolean":
        return text.strip().lower() == "true"
    if kind == "double":
        return parse_double(text)
    if kind.startswith("enum:"):
        value = text.strip()
        if value not in kind[5:].split(","):
            raise ValueError(text)
        return value
    return text


def _namesrv_default() -> str | None:
    return os.environ.get("NAMESRV_ADDR") or None


@dataclass
class BrokerConfig(_Bean):
    """Java ``BrokerConfig`` (4.9.8), declaration order."""

    rocketmq_home: str | None = java_field(factory=lambda: os.environ.get("ROCKETMQ_HOME"))
    namesrv_addr: str | None = java_field(factory=_namesrv_default, important=True)
    broker_ip1: str = java_field(factory=local_address, important=True, java="brokerIP1")
    broker_ip2: str = java_field(factory=local_address, java="brokerIP2")
    broker_name: str = java_field(factory=socket.gethostname, important=True)
    broker_cluster_name: str = java_field("DefaultCluster", important=True)
    broker_id: int = java_field(0, kind="long", important=True)
    broker_permission: int = 6
    default_topic_queue_nums: int = 8
    auto_create_topic_enable: bool = java_field(True, important=True)
    cluster_topic_enable: bool = True
    broker_topic_enable: bool = True
    auto_create_subscription_group: bool = java_field(True, important=True)
    message_store_plug_in: str = ""
    msg_trace_topic_name: str = java_field("RMQ_SYS_TRACE_TOPIC", important=True)
    trace_topic_enable: bool = java_field(False, important=True)
    send_message_thread_pool_nums: int = min(_CPUS, 4)
    put_message_future_thread_pool_nums: int = min(_CPUS, 4)
    pull_message_thread_pool_nums: int = 16 + _CPUS * 2
    process_reply_message_thread_pool_nums: int = 16 + _CPUS * 2
    query_message_thread_pool_nums: int = 8 + _CPUS
    admin_broker_thread_pool_nums: int = 16
    client_manage_thread_pool_nums: int = 32
    consumer_manage_thread_pool_nums: int = 32
    heartbeat_thread_pool_nums: int = min(32, _CPUS)
    end_transaction_thread_pool_nums: int = max(8 + _CPUS * 2, min(_CPUS, 4) * 4)
    flush_consumer_offset_interval: int = 5000
    flush_consumer_offset_history_interval: int = 60000
    reject_transaction_message: bool = java_field(False, important=True)
    fetch_namesrv_addr_by_address_server: bool = java_field(False, important=True)
    send_thread_pool_queue_capacity: int = 10000
    put_thread_pool_queue_capacity: int = 10000
    pull_thread_pool_queue_capacity: int = 100000
    reply_thread_pool_queue_capacity: int = 10000
    query_thread_pool_queue_capacity: int = 20000
    client_manager_thread_pool_queue_capacity: int = 1000000
    consumer_manager_thread_pool_queue_capacity: int = 1000000
    heartbeat_thread_pool_queue_capacity: int = 50000
    end_transaction_pool_queue_capacity: int = 100000
    filter_server_nums: int = 0
    long_polling_enable: bool = True
    short_polling_time_mills: int = java_field(1000, kind="long")
    notify_consumer_ids_changed_enable: bool = True
    high_speed_mode: bool = False
    commercial_enable: bool = True
    commercial_timer_count: int = 1
    commercial_trans_count: int = 1
    commercial_big_count: int = 1
    commercial_base_count: int = 1
    transfer_msg_by_heap: bool = True
    max_delay_time: int = 40
    region_id: str = "DefaultRegion"
    register_broker_timeout_mills: int = 6000
    slave_read_enable: bool = False
    disable_consume_if_consumer_read_slowly: bool = False
    consumer_fallbehind_threshold: int = java_field(17179869184, kind="long")
    broker_fast_failure_enable: bool = True
    wait_time_mills_in_send_queue: int = java_field(200, kind="long")
    wait_time_mills_in_pull_queue: int = java_field(5000, kind="long")
    wait_time_mills_in_heartbeat_queue: int = java_field(31000, kind="long")
    wait_time_mills_in_transaction_queue: int = java_field(3000, kind="long")
    start_accept_send_request_time_stamp: int = java_field(0, kind="long")
    trace_on: bool = True
    enable_calc_filter_bit_map: bool = False
    expect_consumer_num_use_filter: int = 32
    max_error_rate_of_bloom_filter: int = 20
    filter_data_clean_time_span: int = java_field(86400000, kind="long")
    filter_support_retry: bool = False
    enable_property_filter: bool = False
    compressed_register: bool = False
    force_register: bool = True
    register_name_server_period: int = 30000
    transaction_time_out: int = java_field(6000, kind="long", important=True)
    transaction_check_max: int = java_field(15, important=True)
    transaction_check_interval: int = java_field(60000, kind="long", important=True)
    acl_enable: bool = java_field(False, important=True)
    store_reply_message_enable: bool = True
    enable_detail_stat: bool = True
    auto_delete_unused_stats: bool = False
    isolate_log_enable: bool = False
    config_black_list: str = "configBlackList;brokerConfigPath"

    @property
    def namesrv_list(self) -> list[str]:
        """The ``;``-separated name server addresses, blanks dropped."""
        return [a.strip() for a in (self.namesrv_addr or "").split(";") if a.strip()]


@dataclass
class NettyServerConfig(_Bean):
    """Java ``NettyServerConfig`` (4.9.8): only the address, port and idle time change what we do."""

    # 5.3.3's first field; null (listed by -p, left out of GET_BROKER_CONFIG as 4.9.8 has no such
    # key) listens on every interface, 5.3.3's 0.0.0.0
    bind_address: str | None = None
    listen_port: int = DEFAULT_LISTEN_PORT
    server_worker_threads: int = 8
    server_callback_executor_threads: int = 0
    server_selector_threads: int = 3
    server_oneway_semaphore_value: int = 256
    server_async_semaphore_value: int = 64
    server_channel_max_idle_time_seconds: int = 120
    server_socket_snd_buf_size: int = 0
    server_socket_rcv_buf_size: int = 0
    write_buffer_high_water_mark: int = 0
    write_buffer_low_water_mark: int = 0
    server_socket_backlog: int = 1024
    server_pooled_byte_buf_allocator_enable: bool = True
    use_epoll_native_selector: bool = False


@dataclass
class NettyClientConfig(_Bean):
    """Java ``NettyClientConfig`` (4.9.8): listed by ``-p`` and GET_BROKER_CONFIG only."""

    client_worker_threads: int = 4
    client_callback_executor_threads: int = _CPUS
    client_oneway_semaphore_value: int = 65535
    client_async_semaphore_value: int = 65535
    connect_timeout_millis: int = 3000
    channel_not_active_interval: int = java_field(60000, kind="long")
    client_channel_max_idle_time_seconds: int = 120
    client_socket_snd_buf_size: int = 0
    client_socket_rcv_buf_size: int = 0
    client_pooled_byte_buf_allocator_enable: bool = False
    client_close_socket_if_timeout: bool = True
    use_tls: bool = java_field(False, java="useTLS")
    write_buffer_high_water_mark: int = 0
    write_buffer_low_water_mark: int = 0


_ROLE = "enum:ASYNC_MASTER,SYNC_MASTER,SLAVE"
_FLUSH = "enum:ASYNC_FLUSH,SYNC_FLUSH"


@dataclass
class MessageStoreConfig(_Bean):
    """Java ``MessageStoreConfig`` (4.9.8), declaration order."""

    store_path_root_dir: str = java_field(
        factory=lambda: os.path.join(os.path.expanduser("~"), "store"), important=True
    )
    store_path_commit_log: str | None = java_field(None, important=True)
    store_path_d_ledger_commit_log: str | None = java_field(
        None, important=True, java="storePathDLedgerCommitLog"
    )
    read_only_commit_log_store_paths: str | None = None
    mapped_file_size_commit_log: int = 64 * 1024 * 1024  # Java: 1 GiB; the recorded broker used 64 MiB
    mapped_file_size_consume_queue: int = 300000 * 20
    enable_consume_queue_ext: bool = False
    mapped_file_size_consume_queue_ext: int = 48 * 1024 * 1024
    bit_map_length_consume_queue_ext: int = 112
    flush_interval_commit_log: int = java_field(500, important=True)
    commit_interval_commit_log: int = java_field(200, important=True)
    use_reentrant_lock_when_put_message: bool = True
    flush_commit_log_timed: bool = java_field(True, important=True)
    flush_interval_consume_queue: int = 1000
    clean_resource_interval: int = 10000
    delete_commit_log_files_interval: int = 100
    delete_consume_queue_files_interval: int = 100
    destroy_maped_file_interval_forcibly: int = 120000
    redelete_hanged_file_interval: int = 120000
    delete_when: str = java_field("04", important=True)
    disk_max_used_space_ratio: int = 75
    file_reserved_time: int = java_field(72, important=True)
    put_msg_index_hight_water: int = 600000
    max_message_size: int = 1024 * 1024 * 4
    check_crc_on_recover: bool = java_field(True, java="checkCRCOnRecover")
    flush_commit_log_least_pages: int = 4
    commit_commit_log_least_pages: int = 4
    flush_least_pages_when_warm_maped_file: int = 4096
    flush_consume_queue_least_pages: int = 2
    flush_commit_log_thorough_interval: int = 10000
    commit_commit_log_thorough_interval: int = 200
    flush_consume_queue_thorough_interval: int = 60000
    max_transfer_bytes_on_message_in_memory: int = java_field(262144, important=True)
    max_transfer_count_on_message_in_memory: int = java_field(32, important=True)
    max_transfer_bytes_on_message_in_disk: int = java_field(65536, important=True)
    max_transfer_count_on_message_in_disk: int = java_field(8, important=True)
    access_message_in_memory_max_ratio: int = java_field(40, important=True)
    message_index_enable: bool = java_field(True, important=True)
    max_hash_slot_num: int = 100000  # Java: 5,000,000 (a 420 MB index file); as the recorded broker
    max_index_num: int = 400000  # Java: 20,000,000
    max_msgs_num_batch: int = 64
    message_index_safe: bool = java_field(False, important=True)
    ha_listen_port: int = 10912
    ha_send_heartbeat_interval: int = 5000
    ha_housekeeping_interval: int = 20000
    ha_transfer_batch_size: int = 32768
    ha_master_address: str | None = java_field(None, important=True)
    ha_slave_fallbehind_max: int = 268435456
    broker_role: str = java_field("ASYNC_MASTER", kind=_ROLE, important=True)
    flush_disk_type: str = java_field("ASYNC_FLUSH", kind=_FLUSH, important=True)
    sync_flush_timeout: int = 5000
    slave_timeout: int = 3000
    message_delay_level: str = "1s 5s 10s 30s 1m 2m 3m 4m 5m 6m 7m 8m 9m 10m 20m 30m 1h 2h"
    flush_delay_offset_interval: int = java_field(10000, kind="long")
    clean_file_forcibly_enable: bool = java_field(True, important=True)
    warm_maped_file_enable: bool = False
    offset_check_in_slave: bool = False
    debug_lock_enable: bool = False
    duplication_enable: bool = False
    disk_fall_recorded: bool = True
    os_page_cache_busy_time_out_mills: int = java_field(1000, kind="long")
    default_query_max_num: int = 32
    transient_store_pool_enable: bool = java_field(False, important=True)
    transient_store_pool_size: int = 5
    fast_fail_if_no_buffer_in_store_pool: bool = False
    enable_d_leger_commit_log: bool = java_field(False, java="enableDLegerCommitLog")
    d_leger_group: str | None = java_field(None, java="dLegerGroup")
    d_leger_peers: str | None = java_field(None, java="dLegerPeers")
    d_leger_self_id: str | None = java_field(None, java="dLegerSelfId")
    preferred_leader_id: str | None = None
    is_enable_batch_push: bool = False
    enable_schedule_message_stats: bool = True
    enable_lmq: bool = False
    enable_multi_dispatch: bool = False
    max_lmq_consume_queue_num: int = 20000
    enable_schedule_async_deliver: bool = False
    schedule_async_deliver_max_pending_limit: int = 2000
    schedule_async_deliver_max_resend_num2_blocked: int = java_field(
        3, java="scheduleAsyncDeliverMaxResendNum2Blocked"
    )

    @property
    def commit_log_dir(self) -> str:
        return self.store_path_commit_log or os.path.join(self.store_path_root_dir, "commitlog")

    @property
    def config_dir(self) -> Path:
        return Path(self.store_path_root_dir) / "config"

    def delay_levels_ms(self) -> list[int]:
        """``messageDelayLevel`` parsed: level n (1-based) waits ``result[n-1]`` ms."""
        units = {"s": 1000, "m": 60_000, "h": 3_600_000, "d": 86_400_000}
        out = []
        for part in self.message_delay_level.split():
            try:
                out.append(int(part[:-1]) * units[part[-1]])
            except (KeyError, ValueError):
                log.warning("bad messageDelayLevel entry %r: ignored", part)
        return out


@dataclass
class AuthConfig(_Bean):
    """Java 5.3.3 ``AuthConfig`` (ACL 2.0), the fields this broker uses: read from the ``-c`` file at
    start (``BrokerStartup``); not listed by GET_BROKER_CONFIG nor changed by a remote update."""

    authentication_enabled: bool = False
    authentication_whitelist: str | None = None
    init_authentication_user: str | None = None
    """JSON ``{"username":..,"password":..}``: a super user created at start if missing."""
    inner_client_authentication_credentials: str | None = None
    """JSON ``{"accessKey":..,"secretKey":..}``: a super user created at start if missing."""
    authorization_enabled: bool = False
    authorization_whitelist: str | None = None

    @classmethod
    def of(cls, props: Mapping[str, str]) -> AuthConfig:
        config = cls()
        config.apply(props)
        return config


@dataclass
class BrokerSettings:
    """The four config objects together, as ``BrokerStartup`` builds them."""

    broker: BrokerConfig = field(default_factory=BrokerConfig)
    server: NettyServerConfig = field(default_factory=NettyServerConfig)
    client: NettyClientConfig = field(default_factory=NettyClientConfig)
    store: MessageStoreConfig = field(default_factory=MessageStoreConfig)
    file_properties: dict[str, str] = field(default_factory=dict)
    """Every key of the ``-c`` file, known or not (GET_BROKER_CONFIG lists them all)."""
    config_path: str | None = None
    """The ``-c`` file, rewritten on UPDATE_BROKER_CONFIG; else ``<root>/config/broker.properties``."""

    @property
    def beans(self) -> tuple[_Bean, ...]:
        return (self.broker, self.server, self.client, self.store)

    def apply(self, props: Mapping[str, str]) -> None:
        """Set every field a key names, in all four objects (a key may hit more than one)."""
        for bean in self.beans:
            bean.apply(props)

    def fix_up(self) -> None:
        """``BrokerStartup``'s fixed overrides: a master has id 0; HA listens on listenPort + 1."""
        if self.store.broker_role != "SLAVE":
            self.broker.broker_id = 0
        self.store.ha_listen_port = self.server.listen_port + 1

    @property
    def broker_addr(self) -> str:
        return f"{self.broker.broker_ip1}:{self.server.listen_port}"

    @property
    def ha_server_addr(self) -> str:
        return f"{self.broker.broker_ip2}:{self.store.ha_listen_port}"

    def print_lines(self, important_only: bool = False) -> list[str]:
        """``mqbroker -p`` / ``-m``: ``name=value`` per field (null as empty), object by object."""
        return [line for bean in self.beans for line in bean.property_lines(important_only)]


ALWAYS_BLACK_LISTED = frozenset({"brokerConfigPath", "rocketmqHome", "configBlackList", "rocketmqVersion"})
"""Keys 5.3.3's ``AdminBrokerProcessor.initConfigBlackList`` refuses whatever ``configBlackList`` says,
and ``rocketmqVersion`` (:mod:`mqadmin.broker.version`: chosen at start, never remotely)."""


class Configuration:
    """Java ``Configuration``: every setting as text, for GET/UPDATE_BROKER_CONFIG (26/25).

    ``all_configs`` keeps Java's ``Properties`` insertion history so its iteration order is Java's;
    values are refreshed from the config objects whenever the table is listed.
    """

    def __init__(self, settings: BrokerSettings) -> None:
        self.settings = settings
        self._keys: list[str] = []
        self.all_configs: dict[str, str] = {}
        for bean in settings.beans:
            self._merge(_props_in_order(bean.to_properties()))
        self._merge(_props_in_order(settings.file_properties))
        self.data_version = DataVersion()

    def _merge(self, props: Mapping[str, str]) -> None:
        for k, v in props.items():
            if k not in self.all_configs:
                self._keys.append(k)
            self.all_configs[k] = v

    def _refresh(self) -> None:
        for bean in self.settings.beans:
            self._merge(_props_in_order(bean.to_properties()))

    def ordered(self) -> dict[str, str]:
        """The table in ``Properties`` iteration order, current values."""
        self._refresh()
        return {k: self.all_configs[k] for k in properties_order(self._keys)}

    def format(self, *, masked: bool = False) -> str:
        """``getAllConfigsFormatString``: ``key=value`` lines (properties order is applied here);
        ``masked``: each credential shown as :data:`~mqadmin.protocol.configentry.SECRET_MASK`, as
        every listing sent to a peer shows it (the persisted file keeps the real values)."""
        table = self.ordered()
        if masked:
            table = {k: masked_value(k, v) for k, v in table.items()}
        return "".join(f"{k}={v}\n" for k, v in table.items())

    def show(self, key: str, value: str) -> None:
        """List (or change) a setting no config object here holds, e.g. a 5.x store setting a request
        changed; it is listed as Java lists its fields, not written to the config file."""
        self._merge({key: value})

    def black_list(self) -> set[str]:
        """Java's keys an update may not touch: ``configBlackList`` plus 5.3.3's fixed three (the
        floor: :meth:`refusal` adds every key :func:`protected_key` names)."""
        black = {k for k in self.settings.broker.config_black_list.split(";") if k}
        return black | ALWAYS_BLACK_LISTED

    def refusal(self, props: Mapping[str, str]) -> tuple[int, str] | None:
        """(code, remark) refusing the update ``props`` as a whole, or None when every entry is good.

        In order: an entry that is not one line of text (INVALID_PARAMETER); a black-listed key or
        one :func:`protected_key` names, an auth, ACL, credential, path or address setting
        (NO_PERMISSION, Java's remark); a value its field's Java type cannot take, a permission
        outside 0..7, or a cluster or broker name that could not be stored (INVALID_PARAMETER).
        """
        for k, v in props.items():
            why = config_entry_refusal(k, v)
            if why is not None:
                return ResponseCode.INVALID_PARAMETER, why
        black = self.black_list()
        if any(k in black or protected_key(k) is not None for k in props):
            return ResponseCode.NO_PERMISSION, "Can not update config in black list."
        for bean in self.settings.beans:
            for f in bean.java_fields():
                text = props.get(f.java)
                if text is None:
                    continue
                why = _value_refusal(bean, f, text)
                if why is not None:
                    return ResponseCode.INVALID_PARAMETER, why
        return None

    def update(self, props: Mapping[str, str]) -> None:
        """``Configuration.update``: existing keys overwritten, fields set, version bumped, persisted."""
        for k, v in props.items():
            if k in self.all_configs:
                self.all_configs[k] = v
        self.settings.apply(props)
        self.data_version.next_version()
        self.persist()

    def persist(self) -> None:
        """The table, escaped as ``Properties.store`` escapes, replacing the config file atomically."""
        path = self.settings.config_path or str(self.settings.store.config_dir / "broker.properties")
        try:
            write_atomic(path, properties_store(self.ordered(), sort=False))
        except OSError as e:
            log.error("persist broker config to %s failed: %s", path, e)


def _value_refusal(bean: JavaBean, f: JavaField, text: str) -> str | None:
    """Why ``text`` cannot be the value of field ``f``, or None."""
    if f.kind == "boolean":
        if text.strip().lower() not in ("true", "false"):
            return f"{f.java} takes true or false, not {text!r}"
        return None
    try:
        value = bean.parse_property(f.kind, text)
    except ValueError:
        if f.kind.startswith("enum:"):
            return f"{f.java} takes one of {f.kind[5:].replace(',', ', ')}, not {text!r}"
        return f"{f.java} takes a Java {f.kind} value, not {text!r}"
    if f.java == "brokerPermission":
        return perm_refusal(value, "brokerPermission")
    if f.java in ("brokerName", "brokerClusterName"):
        return names.check_name("broker" if f.java == "brokerName" else "cluster", value)
    if f.java == "msgTraceTopicName":
        return names.check_topic(value)
    return None


def _props_in_order(props: Mapping[str, str]) -> dict[str, str]:
    """A fresh ``Properties`` filled from ``props`` in order, as Java iterates it."""
    return {k: props[k] for k in properties_order(list(props))}
