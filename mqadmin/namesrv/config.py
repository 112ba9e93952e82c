"""Name server settings under their Java names, with Java's defaults and Java's way of setting them.

``NamesrvConfig``, ``NettyServerConfig`` and ``NettyClientConfig`` of RocketMQ 5.3.3, field for
field and in declaration order (``-p`` prints them in that order, GET_NAMESRV_CONFIG sorted). A
property is applied the way ``MixAll.properties2Object`` does it: the key names a setter, the
value is parsed for the field's type, strings are trimmed, and a value that does not parse is
ignored without a word. :class:`Configuration` is Java's ``Configuration``: the table that
GET_NAMESRV_CONFIG lists and UPDATE_NAMESRV_CONFIG changes and persists.
"""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from mqadmin.atomicfile import write_atomic
from mqadmin.protocol.bodies.properties import properties_to_string
from mqadmin.protocol.fastjson import java_double

__all__ = [
    "DEFAULT_LISTEN_PORT",
    "Configuration",
    "JavaBean",
    "NamesrvConfig",
    "NettyClientConfig",
    "NettyServerConfig",
    "apply_properties",
    "java_value",
    "object_properties",
]

log = logging.getLogger("mqadmin.namesrv")

DEFAULT_LISTEN_PORT = 9876
"""``NamesrvStartup`` sets it before the ``-c`` file is read."""

_INT_RE = re.compile(r"[+-]?[0-9]+")
_INT32 = (-(1 << 31), (1 << 31) - 1)
_INT64 = (-(1 << 63), (1 << 63) - 1)


def _home(*parts: str) -> str:
    return os.path.join(os.path.expanduser("~"), *parts)


def _jfield(
    default: Any = None, *, java: str | None = None, kind: str | None = None, factory: Any = None
) -> Any:
    """A bean field; ``java`` overrides the Java name, ``kind`` the Java type (``long``, ``int``...)."""
    meta = {"java": java, "kind": kind}
    if factory is not None:
        return field(default_factory=factory, metadata=meta)
    return field(default=default, metadata=meta)


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(p[:1].upper() + p[1:] for p in rest)


_KINDS = {"bool": "boolean", "int": "int", "float": "double"}


class JavaBean:
    """A config object whose fields carry Java names and types (see :func:`apply_properties`)."""

    @classmethod
    def java_fields(cls) -> list[tuple[str, str, str]]:
        """(python name, Java field name, Java type) in declaration order."""
        cached = cls.__dict__.get("_java_fields")
        if cached is None:
            cached = []
            for f in fields(cls):  # type: ignore[arg-type]
                java = f.metadata.get("java") or _camel(f.name)
                kind = f.metadata.get("kind") or _KINDS.get(str(f.type), "String")
                cached.append((f.name, java, kind))
            cls._java_fields = cached  # type: ignore[attr-defined]
        return cached  # type: ignore[no-any-return]

    def java_items(self) -> Iterator[tuple[str, Any]]:
        for py, java, _ in self.java_fields():
            yield java, getattr(self, py)


def java_value(v: Any) -> str | None:
    """``String.valueOf`` of a field value (None stays None)."""
    if v is None:
        return None
    if v is True:
        return "true"
    if v is False:
        return "false"
    if isinstance(v, float):
        return java_double(v)
    return str(v)


def _parse(kind: str, text: str) -> Any:
    """Parse a property for a Java type; raises ValueError where Java throws (the value is then ignored)."""
    if kind in ("int", "long"):
        if not _INT_RE.fullmatch(text):
            raise ValueError(text)
        n = int(text)
        lo, hi = _INT32 if kind == "int" else _INT64
        if not lo <= n <= hi:
            raise ValueError(text)
        return n
    if kind == "boolean":
        return text.lower() == "true"
    if kind in ("double", "float"):
        return float(text.strip())
    return _java_trim(text)


def _java_trim(s: str) -> str:
    """``String.trim``: strips every char up to U+0020 at both ends."""
    i, j = 0, len(s)
    while i < j and s[i] <= " ":
        i += 1
    while j > i and s[j - 1] <= " ":
        j -= 1
    return s[i:j]


def apply_properties(props: Mapping[str, str], bean: JavaBean) -> list[str]:
    """``MixAll.properties2Object``: set each field whose Java name is a key; returns the names set."""
    applied = []
    for py, java, kind in bean.java_fields():
        text = props.get(java)
        if text is None:
            continue
        try:
            setattr(bean, py, _parse(kind, text))
        except ValueError:
            log.debug("config %s=%r does not parse as %s: ignored", java, text, kind)
            continue
        applied.append(java)
    return applied


def object_properties(bean: JavaBean) -> dict[str, str]:
    """``MixAll.object2Properties``: every non-null field as text."""
    out = {}
    for java, v in bean.java_items():
        text = java_value(v)
        if text is not None:
            out[java] = text
    return out


def _rocketmq_home() -> str | None:
    return os.environ.get("ROCKETMQ_HOME")


@dataclass
class NamesrvConfig(JavaBean):
    """Java ``NamesrvConfig`` (5.3.3)."""

    rocketmq_home: str | None = _jfield(factory=_rocketmq_home)
    kv_config_path: str = _jfield(factory=lambda: _home("namesrv", "kvConfig.json"))
    config_store_path: str = _jfield(factory=lambda: _home("namesrv", "namesrv.properties"))
    product_env_name: str = "center"
    cluster_test: bool = False
    order_message_enable: bool = False
    return_order_topic_config_to_broker: bool = True
    client_request_thread_pool_nums: int = 8
    default_thread_pool_nums: int = 16
    client_request_thread_pool_queue_capacity: int = 50000
    default_thread_pool_queue_capacity: int = 10000
    scan_not_active_broker_interval: int = _jfield(5000, kind="long")
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
class NettyServerConfig(JavaBean):
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
class NettyClientConfig(JavaBean):
    """Java ``NettyClientConfig`` (5.3.3): printed by ``-p``; not part of GET_NAMESRV_CONFIG."""

    client_worker_threads: int = 4
    client_callback_executor_threads: int = _jfield(factory=lambda: os.cpu_count() or 1)
    client_oneway_semaphore_value: int = 65535
    client_async_semaphore_value: int = 65535
    connect_timeout_millis: int = 3000
    channel_not_active_interval: int = _jfield(60000, kind="long")
    is_scan_available_name_srv: bool = _jfield(True, java="isScanAvailableNameSrv")
    client_channel_max_idle_time_seconds: int = 120
    client_socket_snd_buf_size: int = 0
    client_socket_rcv_buf_size: int = 0
    client_pooled_byte_buf_allocator_enable: bool = False
    client_close_socket_if_timeout: bool = True
    use_tls: bool = _jfield(False, java="useTLS")
    socks_proxy_config: str = "{}"
    write_buffer_high_water_mark: int = 0
    write_buffer_low_water_mark: int = 0
    disable_callback_executor: bool = False
    disable_netty_worker_group: bool = False
    max_reconnect_interval_time_seconds: int = _jfield(60, kind="long")
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
            self.all_configs.update(object_properties(obj))
        if extra:
            self.all_configs.update(extra)
        self.data_version = 0

    def _refresh(self) -> dict[str, str]:
        for obj in self._objects:
            self.all_configs.update(object_properties(obj))
        return self.all_configs

    def format(self) -> str:
        """``getAllConfigsFormatString``: ``key=value`` lines, sorted, current values."""
        return properties_to_string(self._refresh(), sort=True)

    def update(self, props: Mapping[str, str]) -> None:
        """``Configuration.update``: known keys overwritten, fields set, then persisted."""
        for k, v in props.items():
            if k in self.all_configs:
                self.all_configs[k] = v
        for obj in self._objects:
            apply_properties(props, obj)
        self.data_version += 1
        self.persist()

    def persist(self) -> None:
        path = self.namesrv.config_store_path
        if not path:
            return
        text = self.format()
        try:
            p = Path(path)
            if p.is_file():
                write_atomic(p.with_name(p.name + ".bak"), p.read_bytes())
            write_atomic(p, text)
        except OSError as e:
            log.error("persist name server config to %s failed: %s", path, e)
