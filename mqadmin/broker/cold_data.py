"""Cold data flow control of 5.3.3 (Java's ``ColdDataCgCtrService``): per consumer group read
thresholds set by an operator, and the groups found reading cold data.

- The config table (group -> threshold in bytes) is what updateColdDataFlowCtrGroupConfig (2001)
  sets and removeColdDataFlowCtrGroupConfig (2002) removes. Java keeps it in memory only; here it is
  also kept in ``config/coldDataFlowCtrConfig.json`` (written whole, the old content as ``.bak``),
  so a restart keeps what the operator set.
- The runtime table holds a group's cold bytes read in the current interval with the time of its
  first and last cold read (``AccAndTimeStamp``); every pull adds what it read from beyond the
  store's in-memory window (:meth:`ColdDataCgCtrService.on_pull`, with
  ``coldDataFlowControlEnable=true``).
- A group over its threshold (:meth:`ColdDataCgCtrService.needs_flow_control`) that pulls a record
  in the cold area (further behind the commit log's end than ``accessMessageInMemoryHotRatio``
  percent of memory) is slowed down as Java does: a push consumer's pull is answered SYSTEM_BUSY,
  a pull consumer gets one message at a time. (Java also parks a pull consumer's request for a
  while; here it is answered at once.)
  Every 5 s (180 s with ``coldDataFlowControlEnable=false``) the accumulators restart from zero and
  groups without a cold read for 60 s leave the table; here that happens when the service is next
  used, not on a timer.
- :meth:`ColdDataCgCtrService.report` is ``getColdDataFlowCtrInfo``: the two tables, the
  ``cgColdReadThreshold`` and ``globalColdReadThreshold`` settings and the global accumulator, as
  the broker's fastjson2 ``JSONObject`` writes them (in the order they were put; the tables are
  ``ConcurrentHashMap``\\s). The 5.3.3 tool reads it back with fastjson 1, whose ``HashMap`` order
  is what it prints.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mqadmin.broker.jsonfile import load_config_file, persist_config_file, pretty_json
from mqadmin.protocol import fastjson, names
from mqadmin.protocol.javacoll import concurrent_hash_order
from mqadmin.protocol.javanum import JavaNumberError, parse_bool, parse_long

__all__ = ["COLD_DATA_SETTINGS", "ColdDataCgCtrService"]

log = logging.getLogger("mqadmin.broker")

COLD_DATA_SETTINGS = {
    "coldCtrStrategyEnable": "false",
    "usePIDColdCtrStrategy": "true",
    "cgColdReadThreshold": str(3 * 1024 * 1024),
    "globalColdReadThreshold": str(100 * 1024 * 1024),
    "coldDataFlowControlEnable": "false",
    "coldDataScanEnable": "false",
    "accessMessageInMemoryHotRatio": "26",
}
"""The 5.3.3 ``BrokerConfig``/``MessageStoreConfig`` settings of cold data control, with Java's defaults."""

RESIDE_TIMEOUT_MS = 60 * 1000
"""``cgColdAccResideTimeoutMills``: a group without a cold read for this long leaves the runtime table."""

FILE_NAME = "coldDataFlowCtrConfig.json"

SYS_PULL_GROUPS = names.SYSTEM_GROUPS - {"DEFAULT_PRODUCER", "CLIENT_INNER_PRODUCER", "SELF_TEST_P_GROUP"}
"""``MixAll.isSysConsumerGroupPullMessage``'s names, the system groups but the three producer ones (and
every ``CID_RMQ_SYS_`` group): their cold reads are not counted."""


@dataclass(slots=True)
class AccAndTimeStamp:
    """One group's cold reads: bytes in this interval, first and last cold read (epoch ms)."""

    cold_acc: int
    last_cold_read_time_mills: int
    create_time_mills: int

    def to_json_obj(self) -> dict[str, int]:
        """fastjson's order of the public fields: by name."""
        return {
            "coldAcc": self.cold_acc,
            "createTimeMills": self.create_time_mills,
            "lastColdReadTimeMills": self.last_cold_read_time_mills,
        }


def _now_ms() -> int:
    return time.time_ns() // 1_000_000


class ColdDataCgCtrService:
    """The two tables and the global accumulator of one broker."""

    def __init__(self, config_dir: Path, settings: Mapping[str, str]) -> None:
        self.path = config_dir / FILE_NAME
        self.settings = settings
        """The broker's config table (text values): the thresholds are read from it on every use."""
        self.config_table: dict[str, int] = {}
        self._config_order: list[str] = []
        self.runtime_table: dict[str, AccAndTimeStamp] = {}
        self._runtime_order: list[str] = []
        self.global_acc = 0
        self._next_sweep = time.monotonic() + self._sweep_period()

    # ------------------------------------------------------------------------------ settings

    def _long(self, key: str) -> int:
        text = self.settings.get(key, COLD_DATA_SETTINGS[key])
        try:
            return parse_long(text.strip())
        except JavaNumberError:
            return parse_long(COLD_DATA_SETTINGS[key])

    def _flag(self, key: str) -> bool:
        return parse_bool(self.settings.get(key, COLD_DATA_SETTINGS[key]).strip())

    @property
    def cg_cold_read_threshold(self) -> int:
        return self._long("cgColdReadThreshold")

    @property
    def global_cold_read_threshold(self) -> int:
        return self._long("globalColdReadThreshold")

    def _sweep_period(self) -> float:
        return 5.0 if self._flag("coldDataFlowControlEnable") else 180.0

    # ------------------------------------------------------------------------------ the config table

    def load(self) -> None:
        def decode(data: Any) -> None:
            table = data.get("configTable") if isinstance(data, dict) else None
            if not isinstance(table, dict):
                raise ValueError("no configTable object")
            kept: dict[str, int] = {}
            for group, threshold in table.items():
                if names.check_group(group) is None and type(threshold) is int and threshold >= 0:
                    kept[group] = threshold
                else:
                    log.warning(
                        "%s: entry %r=%r is not a group and a threshold: left out",
                        self.path,
                        group,
                        threshold,
                    )
            self.config_table = kept
            self._config_order = list(kept)

        load_config_file(self.path, decode)

    def persist(self) -> bool:
        return persist_config_file(self.path, lambda: pretty_json({"configTable": self._ordered_config()}))

    def _ordered_config(self) -> dict[str, int]:
        return {g: self.config_table[g] for g in concurrent_hash_order(self._config_order)}

    def size_after(self, groups: Iterable[str]) -> int:
        """How many entries the config table would hold with ``groups`` added or updated."""
        return len(self.config_table.keys() | set(groups))

    def add_or_update_group_config(self, entries: Mapping[str, int]) -> None:
        """``addOrUpdateGroupConfig`` for each entry, then one write of the file."""
        for group, threshold in entries.items():
            if group not in self.config_table:
                self._config_order.append(group)
            self.config_table[group] = threshold
        self.persist()

    def remove_group_config(self, group: str) -> bool:
        """``removeGroupConfig``; whether the group had an entry (Java answers success either way)."""
        if self.config_table.pop(group, None) is None:
            return False
        self._config_order.remove(group)
        self.persist()
        return True

    # ------------------------------------------------------------------------------ the runtime table

    def _is_sys_pull_group(self, group: str) -> bool:
        return group in SYS_PULL_GROUPS or group.startswith("CID_RMQ_SYS_")

    def needs_flow_control(self, group: str) -> bool:
        """``isCgNeedColdDataFlowCtr``: the group read more cold data in this interval than its
        threshold (the operator's, else ``cgColdReadThreshold``), or all groups together more than
        ``globalColdReadThreshold``."""
        if not self._flag("coldDataFlowControlEnable") or self._is_sys_pull_group(group):
            return False
        acc = self.runtime_table.get(group)
        if acc is None:
            return False
        return acc.cold_acc >= self.threshold_of(group) or self.global_acc >= self.global_cold_read_threshold

    @property
    def hot_ratio(self) -> int:
        """``accessMessageInMemoryHotRatio``: the percent of memory behind the commit log's end that is
        not cold."""
        return self._long("accessMessageInMemoryHotRatio")

    def on_pull(self, group: str, cold_bytes: int) -> None:
        """What a pull read from cold data, counted as Java counts it: only with
        ``coldDataFlowControlEnable`` and not for the system groups."""
        if cold_bytes <= 0 or not self._flag("coldDataFlowControlEnable") or self._is_sys_pull_group(group):
            return
        self.cold_acc(group, cold_bytes)

    def cold_acc(self, group: str, cold_bytes: int, now_ms: int | None = None) -> None:
        """``coldAcc``: a pull of ``group`` read ``cold_bytes`` of cold data."""
        if cold_bytes <= 0:
            return
        self._maybe_sweep()
        now = _now_ms() if now_ms is None else now_ms
        self.global_acc += cold_bytes
        acc = self.runtime_table.get(group)
        if acc is None:
            self.runtime_table[group] = AccAndTimeStamp(cold_bytes, now, now)
            self._runtime_order.append(group)
        else:
            acc.cold_acc += cold_bytes
            acc.last_cold_read_time_mills = now

    def threshold_of(self, group: str) -> int:
        """``getThresholdByConsumerGroup`` without the adaptive strategy: the operator's, else the default."""
        return self.config_table.get(group, self.cg_cold_read_threshold)

    def sweep(self, now_ms: int | None = None) -> None:
        """``clearDataAcc``: drop groups idle for 60 s, restart every accumulator from zero."""
        now = _now_ms() if now_ms is None else now_ms
        for group in list(self.runtime_table):
            acc = self.runtime_table[group]
            if now >= acc.last_cold_read_time_mills + RESIDE_TIMEOUT_MS:
                del self.runtime_table[group]
                self._runtime_order.remove(group)
            else:
                if acc.cold_acc >= self.threshold_of(group):
                    log.info(
                        "Coldctr consumerGroup: %s, acc: %d, threshold: %d",
                        group,
                        acc.cold_acc,
                        self.threshold_of(group),
                    )
                acc.cold_acc = 0
        self.global_acc = 0

    def _maybe_sweep(self) -> None:
        t = time.monotonic()
        if t >= self._next_sweep:
            self._next_sweep = t + self._sweep_period()
            self.sweep()

    # ------------------------------------------------------------------------------ the report

    def report(self) -> bytes:
        """``getColdDataFlowCtrInfo``'s body."""
        self._maybe_sweep()
        runtime = {g: self.runtime_table[g].to_json_obj() for g in concurrent_hash_order(self._runtime_order)}
        values: dict[str, Any] = {
            "runtimeTable": runtime,
            "configTable": self._ordered_config(),
            "cgColdReadThreshold": self.cg_cold_read_threshold,
            "globalColdReadThreshold": self.global_cold_read_threshold,
            "globalAcc": self.global_acc,
        }
        return fastjson.dumps(values).encode()
