"""Name server settings under their Java names, with Java's defaults and Java's way of setting them.

``NamesrvConfig``, ``NettyServerConfig`` and ``NettyClientConfig`` of RocketMQ 5.3.3, field for
field and in declaration order (``-p`` prints them in that order, GET_NAMESRV_CONFIG sorted). A
property is applied the way ``MixAll.properties2Object`` does it: the key names a setter, the
value is parsed for the field's type, strings are trimmed, and a value that does not parse is
ignored without a word. :class:`Configuration` is Java's ``Configuration``: the table that
GET_NAMESRV_CONFIG lists and UPDATE_NAMESRV_CONFIG changes and persists.

Where Java keeps ``kvConfig.json`` and ``namesrv.properties`` under the user's home directory, ours
default to ``namesrv/`` under the working directory the server starts in (:func:`default_store_dir`):
a server's files stay with the server, and two servers never share them by accident. Remote updates
cannot name a file or directory nor carry a line break or a control character (the rules of
:mod:`mqadmin.protocol.configentry`), and the persisted file is written escaped, so it reads back as written.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from mqadmin.atomicfile import write_atomic
from mqadmin.javaconfig import JavaBean, JavaField, java_field
from mqadmin.protocol.bodies.properties import properties_store, properties_to_string
from mqadmin.protocol.configentry import masked_value

__all__ = [
    "DEFAULT_LISTEN_PORT",
    "Configuration",
    "NamesrvConfig",
    "NettyClientConfig",
    "NettyServerConfig",
    "default_store_dir",
]

log = logging.getLogger("mqadmin.namesrv")

DEFAULT_LISTEN_PORT = 9876
"""``NamesrvStartup`` sets it before the ``-c`` file is read."""


STORE_DIR_NAME = "namesrv"


def default_store_dir() -> str:
    """``namesrv/`` under the working directory, as an absolute path."""
    return os.path.join(os.getcwd(), STORE_DIR_NAME)


class _NamesrvBean(JavaBean):
    """The name server's config objects: 5.3.3 parsing; a value that does not parse is logged."""

    def property_ignored(self, f: JavaField, text: str) -> None:
        log.debug("config %s=%r does not parse as %s: ignored", f.java, text, f.kind)


def _rocketmq_home() -> str | None:
    return os.environ.get("ROCKETMQ_HOME")


@dataclass
class NamesrvConfig(_NamesrvBean):
    """Java ``NamesrvConfig`` (5.3.3)."""

    rocketmq_home: str | None = java_field(factory=_rocketmq_home)
    kv_config_path: str = java_field(factory=lambda: os.path.join(default_store_dir(), "kvConfig.json"))
    config_store_path: str = java_field(
        factory=lambda: os.path.join(default_store_dir(), "namesrv.properties")
    )
    product_env_name: str = "center"
    cluster_test: bool = False
    order_message_enable: bool = False
    return_order_topic_config_to_broker: bool = True
    client_request_thread_pool_nums: int = 8
    default_thread_pool_nums: int = 16
    client_request_thread_pool_queue_capacity: int = 50000
    default_thread_pool_queue_capacity: int = 10000
    scan_not_active_broker_interval: int = java_field(5000, kind="long")
    un_register_broker_queue_capacity: int = 3000
    support_acting_master: bool = False
    enable_all_topic_list: bool = True
    enable_topic_list: bool = True
    notify_min_broker_id_changed: bool = False
    enable_controller_in_namesrv: bool = False
    need_wait_for_service: bool = False
    wait_seconds_for_service: int = 45
    delete_topic_with_broker_registration: bool = False
    config_black_list: str = "configBlackList;configStorePath;kvConfigPath"


@dataclass
class NettyServerConfig(_NamesrvBean):
    """Java ``NettyServerConfig`` (5.3.3); only address, port and idle time change what we do."""

    bind_address: str = "0.0.0.0"
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
    server_netty_worker_group_enable: bool = True
    server_pooled_byte_buf_allocator_enable: bool = True
    enable_shutdown_gracefully: bool = False
    shutdown_wait_time_seconds: int = 30
    use_epoll_native_selector: bool = False


@dataclass
class NettyClientConfig(_NamesrvBean):
    """Java ``NettyClientConfig`` (5.3.3): printed by ``-p``; not part of GET_NAMESRV_CONFIG."""

    client_worker_threads: int = 4
    client_callback_executor_threads: int = java_field(factory=lambda: os.cpu_count() or 1)
    client_oneway_semaphore_value: int = 65535
    client_async_semaphore_value: int = 65535
    connect_timeout_millis: int = 3000
    channel_not_active_interval: int = java_field(60000, kind="long")
    is_scan_available_name_srv: bool = java_field(True, java="isScanAvailableNameSrv")
    client_channel_max_idle_time_seconds: int = 120
    client_socket_snd_buf_size: int = 0
    client_socket_rcv_buf_size: int = 0
    client_pooled_byte_buf_allocator_enable: bool = False
    client_close_socket_if_timeout: bool = True
    use_tls: bool = java_field(False, java="useTLS")
    socks_proxy_config: str = "{}"
    write_buffer_high_water_mark: int = 0
    write_buffer_low_water_mark: int = 0
    disable_callback_executor: bool = False
    disable_netty_worker_group: bool = False
    max_reconnect_interval_time_seconds: int = java_field(60, kind="long")
    enable_reconnect_for_go_away: bool = True


class Configuration:
    """Java ``Configuration``: every setting of the name server, as text, for 319 and 318.

    It starts from the config objects and the ``-c`` file's properties (unknown keys included); an
    update overwrites the keys it already has, sets matching fields, and writes the whole table
    sorted to ``configStorePath`` (the ``-c`` file itself when there is one), as Java does.
    """

    def __init__(
        self, namesrv: NamesrvConfig, server: NettyServerConfig, extra: Mapping[str, str] | None = None
    ):
        self.namesrv = namesrv
        self.server = server
        self._objects: list[JavaBean] = [namesrv, server]
        self.all_configs: dict[str, str] = {}
        for obj in self._objects:
            self.all_configs.update(obj.to_properties())
        if extra:
            self.all_configs.update(extra)
        self.data_version = 0

    def _refresh(self) -> dict[str, str]:
        for obj in self._objects:
            self.all_configs.update(obj.to_properties())
        return self.all_configs

    def format(self, *, masked: bool = False) -> str:
        """``getAllConfigsFormatString``: ``key=value`` lines, sorted, current values; ``masked``:
        credentials shown as :data:`~mqadmin.protocol.configentry.SECRET_MASK` (a listing sent away)."""
        table = self._refresh()
        if masked:
            table = {k: masked_value(k, v) for k, v in table.items()}
        return properties_to_string(table, sort=True)

    def update(self, props: Mapping[str, str]) -> None:
        """``Configuration.update``: known keys overwritten, fields set, then persisted."""
        for k, v in props.items():
            if k in self.all_configs:
                self.all_configs[k] = v
        for obj in self._objects:
            obj.apply(props)
        self.data_version += 1
        self.persist()

    def persist(self) -> None:
        """Write every setting to ``configStorePath``, atomically, escaped as ``Properties.store``
        escapes (Java writes them unescaped, so a value could make a line of its own)."""
        path = self.namesrv.config_store_path
        if not path:
            return
        text = properties_store(self._refresh(), sort=True)
        try:
            p = Path(path)
            if p.is_file():
                write_atomic(p.with_name(p.name + ".bak"), p.read_bytes())
            write_atomic(p, text)
        except OSError as e:
            log.error("persist name server config to %s failed: %s", path, e)
