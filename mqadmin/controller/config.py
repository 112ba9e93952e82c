"""The embedded controller's settings: Java's ``ControllerConfig`` (5.3.3), and its config table.

The fields are Java's, in declaration order, with Java's defaults, except where the files go: the
controller's ``configStorePath`` and its store default to ``controller/`` beside the name server's
own files rather than the user's home (the name server passes that directory in). The JRaft
sub-config is left out: this controller is one node and replicates nothing.

:class:`ControllerConfiguration` is what GET_CONTROLLER_CONFIG (1010) lists and
UPDATE_CONTROLLER_CONFIG (1009) changes: the controller's fields, the name server's Netty server
fields (Java's controller in a name server copies them) and the ``-c`` file's other keys, sorted.
An update is refused whole when a key is black-listed, names a path or is otherwise protected (the
account and switch of ``controllerAuth``, addresses, ports and peers:
:func:`~mqadmin.protocol.configentry.protected_key`), when an entry is not one line of printable text
(:mod:`mqadmin.protocol.configentry`), or when a value does not parse for its field. Listings mask
credentials (:func:`~mqadmin.protocol.configentry.masked_value`) and the persisted file leaves them
out: they stay in the ``-c`` file they came from.
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
from mqadmin.protocol.codes import ResponseCode
from mqadmin.protocol.configentry import (
    config_entry_refusal,
    is_path_key,
    is_secret_key,
    masked_value,
    protected_key,
)

__all__ = [
    "ALWAYS_BLACK_LISTED",
    "ControllerConfig",
    "ControllerConfiguration",
    "embedded_config",
    "embedded_dir",
]

log = logging.getLogger("mqadmin.controller")

DLEDGER_CONTROLLER = "DLedger"
ALWAYS_BLACK_LISTED = frozenset({"configBlackList", "configStorePath", "rocketmqHome"})
"""What 5.3.3's ``ControllerRequestProcessor.initConfigBlackList`` refuses whatever the list says."""


@dataclass
class ControllerConfig(JavaBean):
    """Java ``ControllerConfig`` (5.3.3) without ``jraftConfig``."""

    rocketmq_home: str | None = java_field(factory=lambda: os.environ.get("ROCKETMQ_HOME"))
    config_store_path: str = ""
    controller_type: str = DLEDGER_CONTROLLER
    scan_not_active_broker_interval: int = java_field(5000, kind="long")
    controller_thread_pool_nums: int = 16
    controller_request_thread_pool_queue_capacity: int = 50000
    controller_d_leger_group: str | None = None
    controller_d_leger_peers: str | None = None
    controller_d_leger_self_id: str | None = None
    mapped_file_size: int = 1024 * 1024 * 1024
    controller_store_path: str = ""
    elect_master_max_retry_count: int = 3
    enable_elect_unclean_master: bool = False
    is_process_read_event: bool = java_field(False, java="isProcessReadEvent")
    notify_broker_role_changed: bool = True
    scan_inactive_master_interval: int = java_field(5000, kind="long")
    metrics_exporter_type: str = "DISABLE"
    metrics_grpc_exporter_target: str = ""
    metrics_grpc_exporter_header: str = ""
    metric_grpc_exporter_time_out_in_mills: int = java_field(3000, kind="long")
    metric_grpc_exporter_interval_in_mills: int = java_field(60000, kind="long")
    metric_logging_exporter_interval_in_mills: int = java_field(10000, kind="long")
    metrics_prom_exporter_port: int = 5557
    metrics_prom_exporter_host: str = ""
    metrics_label: str = ""
    metrics_in_delta: bool = False
    config_black_list: str = "configBlackList;configStorePath"

    def place_files(self, directory: str | Path) -> None:
        """Default the store and the config file to ``directory`` (the name server's ``controller/``)."""
        if not self.controller_store_path:
            self.controller_store_path = str(directory)
        if not self.config_store_path:
            self.config_store_path = os.path.join(str(directory), "controller.properties")

    @property
    def self_id(self) -> str:
        return self.controller_d_leger_self_id or "n0"

    def black_list(self) -> frozenset[str]:
        return ALWAYS_BLACK_LISTED | frozenset(k for k in self.config_black_list.split(";") if k)


def embedded_dir(kv_config_path: str) -> str:
    """Where a name server's embedded controller keeps its files: ``controller/`` beside ``kvConfig.json``."""
    return os.path.join(os.path.dirname(kv_config_path), "controller")


def embedded_config(file_properties: Mapping[str, str] | None, kv_config_path: str) -> ControllerConfig:
    """A name server's controller settings: its ``-c`` properties (Java applies them to both), its files
    under :func:`embedded_dir`."""
    config = ControllerConfig()
    config.apply(file_properties or {})
    config.place_files(embedded_dir(kv_config_path))
    return config


class ControllerConfiguration:
    """Java ``Configuration`` of a controller: every setting as text, for 1010 and 1009."""

    def __init__(
        self, config: ControllerConfig, server: JavaBean, extra: Mapping[str, str] | None = None
    ) -> None:
        self.config = config
        self._beans: tuple[JavaBean, ...] = (config, server)
        self.all_configs: dict[str, str] = {}
        self._refresh()
        if extra:
            self.all_configs.update(extra)
            self._refresh()

    def _refresh(self) -> dict[str, str]:
        for bean in self._beans:
            self.all_configs.update(bean.to_properties())
        return self.all_configs

    def format(self) -> str:
        """``getAllConfigsFormatString``: ``key=value`` lines, sorted, current values, credentials masked."""
        shown = {k: masked_value(k, v) for k, v in self._refresh().items()}
        return properties_to_string(shown, sort=True)

    def refusal(self, props: Mapping[str, str]) -> tuple[int, str] | None:
        """(code, remark) refusing ``props`` as a whole, or None."""
        black = self.config.black_list()
        if any(k in black or is_path_key(k) for k in props):
            return ResponseCode.NO_PERMISSION, "Can not update config in black list."
        for k in props:
            kind = protected_key(k)
            if kind is not None:
                remark = f"Can not update config in black list: no remote update changes {k} ({kind})."
                return ResponseCode.NO_PERMISSION, remark
        for k, v in props.items():
            why = config_entry_refusal(k, v, value_controls=True)
            if why is not None:
                return ResponseCode.INVALID_PARAMETER, why
        for bean in self._beans:
            for f in bean.java_fields():
                text = props.get(f.java)
                if text is not None and not _parses(bean, f, text):
                    return (
                        ResponseCode.INVALID_PARAMETER,
                        f"{f.java} takes a Java {f.kind} value, not {text!r}",
                    )
        return None

    def update(self, props: Mapping[str, str]) -> None:
        """``Configuration.update``: known keys overwritten, fields set, then persisted."""
        for k, v in props.items():
            if k in self.all_configs:
                self.all_configs[k] = v
        for bean in self._beans:
            bean.apply(props)
        self.persist()

    def persist(self) -> None:
        path = self.config.config_store_path
        if not path:
            return
        try:
            Path(path).parent.mkdir(parents=True, exist_ok=True)
            kept = {k: v for k, v in self._refresh().items() if not is_secret_key(k)}
            write_atomic(path, properties_store(kept, sort=True))
        except OSError as e:
            log.error("persist controller config to %s failed: %s", path, e)


def _parses(bean: JavaBean, f: JavaField, text: str) -> bool:
    if f.kind == "boolean":
        return text.strip().lower() in ("true", "false")
    try:
        bean.parse_property(f.kind, text)
    except ValueError:
        return False
    return True
