"""What the broker actually served, measured: the numbers runtime info (28) and stats (315, 208) report.

Two families, as in Java:

- :class:`StoreStats` (``StoreStatsService``): counters of puts, gets found/missed and messages
  transferred, sampled every second into a ten-minute ring; the TPS strings of runtime info are
  differences over the last 10, 60 and 600 samples, empty while a window is not yet covered. Put
  latencies fill the per-minute histogram and the p99/p99.9 buckets.
- :class:`BrokerStats` (``BrokerStatsManager``): named stats items (``TOPIC_PUT_NUMS`` by topic,
  ``GROUP_GET_NUMS`` by ``topic@group``, ...), each with minute/hour/day snapshot rings sampled
  every 10 s / 10 min / 1 h, which VIEW_BROKER_STATS_DATA answers from.
"""

from __future__ import annotations

import bisect
import math
import time
from collections import deque
from dataclasses import dataclass, field

from mqadmin.protocol.fastjson import java_double

__all__ = [
    "BrokerStats",
    "DailyTotals",
    "StatsItem",
    "StatsSnapshot",
    "StoreStats",
    "format_runtime",
    "human_bytes",
]

TOPIC_PUT_NUMS = "TOPIC_PUT_NUMS"
TOPIC_PUT_SIZE = "TOPIC_PUT_SIZE"
GROUP_GET_NUMS = "GROUP_GET_NUMS"
GROUP_GET_SIZE = "GROUP_GET_SIZE"
SNDBCK_PUT_NUMS = "SNDBCK_PUT_NUMS"
BROKER_PUT_NUMS = "BROKER_PUT_NUMS"
BROKER_GET_NUMS = "BROKER_GET_NUMS"
GROUP_GET_FROM_DISK_NUMS = "GROUP_GET_FROM_DISK_NUMS"
GROUP_GET_FROM_DISK_SIZE = "GROUP_GET_FROM_DISK_SIZE"
BROKER_GET_FROM_DISK_NUMS = "BROKER_GET_FROM_DISK_NUMS"
BROKER_GET_FROM_DISK_SIZE = "BROKER_GET_FROM_DISK_SIZE"
GROUP_GET_LATENCY = "GROUP_GET_LATENCY"

STATS_NAMES = (
    TOPIC_PUT_NUMS,
    TOPIC_PUT_SIZE,
    GROUP_GET_NUMS,
    GROUP_GET_SIZE,
    SNDBCK_PUT_NUMS,
    BROKER_PUT_NUMS,
    BROKER_GET_NUMS,
    GROUP_GET_FROM_DISK_NUMS,
    GROUP_GET_FROM_DISK_SIZE,
    BROKER_GET_FROM_DISK_NUMS,
    BROKER_GET_FROM_DISK_SIZE,
    GROUP_GET_LATENCY,
)


def now_ms() -> int:
    return int(time.time() * 1000)


# --------------------------------------------------------------------------------- stats items


@dataclass(slots=True)
class StatsSnapshot:
    sum: int = 0
    tps: float = 0.0
    avgpt: float = 0.0

    def to_json_obj(self) -> dict[str, object]:
        return {"avgpt": self.avgpt, "sum": self.sum, "tps": self.tps}


@dataclass(slots=True)
class _Ring:
    period_ms: int
    keep: int
    snaps: deque[tuple[int, int, int]] = field(default_factory=deque)  # (timestamp, times, value)

    def sample(self, now: int, times: int, value: int) -> None:
        if not self.snaps:
            self.snaps.append((now - self.period_ms, 0, 0))  # Java's synthetic zero point
        self.snaps.append((now, times, value))
        while len(self.snaps) > self.keep:
            self.snaps.popleft()

    def compute(self) -> StatsSnapshot:
        if not self.snaps:
            return StatsSnapshot()
        t0, n0, v0 = self.snaps[0]
        t1, n1, v1 = self.snaps[-1]
        total = v1 - v0
        tps = total * 1000.0 / (t1 - t0) if t1 != t0 else 0.0
        dn = n1 - n0
        return StatsSnapshot(total, tps, total / dn if dn > 0 else 0.0)


class StatsItem:
    """One counter (value and times) with its minute, hour and day rings."""

    __slots__ = ("day", "hour", "minute", "times", "value")

    def __init__(self) -> None:
        self.value = 0
        self.times = 0
        self.minute = _Ring(10_000, 7)
        self.hour = _Ring(600_000, 7)
        self.day = _Ring(3_600_000, 25)

    def to_json_obj(self) -> dict[str, object]:
        """``BrokerStatsData``: statsDay, statsHour, statsMinute."""
        return {
            "statsDay": self.day.compute().to_json_obj(),
            "statsHour": self.hour.compute().to_json_obj(),
            "statsMinute": self.minute.compute().to_json_obj(),
        }


class BrokerStats:
    """``BrokerStatsManager``: stats item sets by name, items created on first increment."""

    def __init__(self, cluster_name: str) -> None:
        self.cluster_name = cluster_name
        self.sets: dict[str, dict[str, StatsItem]] = {name: {} for name in STATS_NAMES}

    def add(self, name: str, key: str, value: int, times: int = 1) -> None:
        items = self.sets[name]
        item = items.get(key)
        if item is None:
            item = items[key] = StatsItem()
        item.value += value
        item.times += times

    def get(self, name: str, key: str) -> StatsItem | None:
        items = self.sets.get(name)
        return None if items is None else items.get(key)

    def inc_topic_put(self, topic: str, nums: int, size: int) -> None:
        self.add(TOPIC_PUT_NUMS, topic, nums, 1)
        self.add(TOPIC_PUT_SIZE, topic, size, 1)
        self.add(BROKER_PUT_NUMS, self.cluster_name, nums, 0)

    def inc_group_get(self, group: str, topic: str, nums: int, size: int) -> None:
        key = f"{topic}@{group}"
        self.add(GROUP_GET_NUMS, key, nums, 1)
        self.add(GROUP_GET_SIZE, key, size, 1)
        self.add(BROKER_GET_NUMS, self.cluster_name, nums, 0)

    def inc_send_back(self, group: str, topic: str) -> None:
        self.add(SNDBCK_PUT_NUMS, f"{topic}@{group}", 1, 1)

    def group_get_tps(self, group: str, topic: str) -> float:
        """``tpsGroupGetNums``: the minute TPS of ``topic@group``."""
        item = self.get(GROUP_GET_NUMS, f"{topic}@{group}")
        return 0.0 if item is None else item.minute.compute().tps

    def sample_seconds(self) -> None:
        self._sample("minute")

    def sample_minutes(self) -> None:
        self._sample("hour")

    def sample_hours(self) -> None:
        self._sample("day")

    def _sample(self, ring: str) -> None:
        now = now_ms()
        for items in self.sets.values():
            for item in items.values():
                getattr(item, ring).sample(now, item.times, item.value)


# --------------------------------------------------------------------------------- store stats

_DISTRIBUTE_DESC = (
    "[<=0ms]",
    "[0~10ms]",
    "[10~50ms]",
    "[50~100ms]",
    "[100~200ms]",
    "[200~500ms]",
    "[500ms~1s]",
    "[1~2s]",
    "[2~3s]",
    "[3~4s]",
    "[4~5s]",
    "[5~10s]",
    "[10s~]",
)
_DISTRIBUTE_LIMITS = (0, 10, 50, 100, 200, 500, 1000, 2000, 3000, 4000, 5000, 10000)


def _latency_buckets() -> list[int]:
    """Upper bounds of the put-latency buckets (``PUT_MESSAGE_ENTIRE_TIME_BUCKETS``)."""
    out, index = [], 0
    for step, count in ((1, 20), (2, 15), (5, 10), (10, 10), (50, 6), (100, 5), (1000, 9)):
        for _ in range(count):
            index += step
            out.append(index)
    out.append(2**63 - 1)
    return out


_BUCKET_BOUNDS = _latency_buckets()
_SAMPLES_KEPT = 601


class StoreStats:
    """``StoreStatsService``: put/get counters, their 1-s samples, put latency distribution."""

    def __init__(self) -> None:
        self.boot_ms = now_ms()
        self.put_times_by_topic: dict[str, int] = {}
        self.put_size_by_topic: dict[str, int] = {}
        self.put_failed = 0
        self.get_found = 0
        self.get_miss = 0
        self.get_transferred = 0
        self.put_time_max = 0
        self.get_time_max = 0
        self.put_times_total = 0
        self.put_size_total = 0
        self._samples: dict[str, deque[tuple[int, int]]] = {
            k: deque(maxlen=_SAMPLES_KEPT) for k in ("put", "found", "miss", "transferred")
        }
        self._distribute = [0] * 13
        self._last_distribute: list[int] = [0] * 13
        self._buckets = [0] * len(_BUCKET_BOUNDS)
        self._last_buckets = [0] * len(_BUCKET_BOUNDS)
        self.sample()

    # ---------------------------------------------------------------------------- recording

    def on_put(self, topic: str, count: int, size: int, elapsed_ms: int) -> None:
        self.put_times_by_topic[topic] = self.put_times_by_topic.get(topic, 0) + count
        self.put_size_by_topic[topic] = self.put_size_by_topic.get(topic, 0) + size
        self.put_times_total += count
        self.put_size_total += size
        self._record_put_latency(elapsed_ms)

    def on_put_failed(self) -> None:
        self.put_failed += 1

    def on_get(self, found: bool, transferred: int, elapsed_ms: int) -> None:
        if found:
            self.get_found += 1
            self.get_transferred += transferred
        else:
            self.get_miss += 1
        if elapsed_ms > self.get_time_max:
            self.get_time_max = elapsed_ms

    def _record_put_latency(self, ms: int) -> None:
        i = bisect.bisect_left(_BUCKET_BOUNDS, ms)
        if i < len(self._buckets):
            self._buckets[i] += 1
        self._distribute[bisect.bisect_left(_DISTRIBUTE_LIMITS, ms) if ms > 0 else 0] += 1
        if ms > self.put_time_max:
            self.put_time_max = ms

    # ---------------------------------------------------------------------------- sampling

    def sample(self) -> None:
        """Every second: append the counters to their rings."""
        now = now_ms()
        s = self._samples
        s["put"].append((now, self.put_times_total))
        s["found"].append((now, self.get_found))
        s["miss"].append((now, self.get_miss))
        s["transferred"].append((now, self.get_transferred))

    def roll_minute(self) -> None:
        """Every minute: the histogram and latency buckets of the minute just ended become 'last'."""
        self._last_distribute, self._distribute = self._distribute, [0] * 13
        self._last_buckets, self._buckets = self._buckets, [0] * len(_BUCKET_BOUNDS)

    def _tps(self, name: str, window: int) -> float | None:
        ring = self._samples[name]
        if len(ring) <= window:
            return None
        t0, v0 = ring[-(window + 1)]
        t1, v1 = ring[-1]
        if t1 == t0:
            return None
        return (v1 - v0) / (t1 - t0) * 1000

    def _tps_text(self, name: str) -> str:
        out = []
        for w in (10, 60, 600):
            v = self._tps(name, w)
            out.append("" if v is None else java_double(v))
        return " ".join(out)

    def _total_tps_text(self) -> str:
        out = []
        for w in (10, 60, 600):
            found = self._tps("found", w) or 0.0
            miss = self._tps("miss", w) or 0.0
            out.append(java_double(found + miss))
        return " ".join(out)

    def _latency_px(self, px: float) -> float:
        buckets = self._last_buckets
        total = sum(buckets)
        index = int(total * px)
        passed = 0
        for i, count in enumerate(buckets):
            if index <= passed + count:
                rel = index - passed
                if i == 0:
                    return 0.0 if count == 0 else _BUCKET_BOUNDS[i] * rel / count
                prev = _BUCKET_BOUNDS[i - 1]
                return prev + (0.0 if count == 0 else (_BUCKET_BOUNDS[i] - prev) * rel / count)
            passed += count
        return 0.0

    def runtime_info(self) -> dict[str, str]:
        """The store's part of GET_BROKER_RUNTIME_INFO."""
        total = self.put_times_total or 1
        distribute = "".join(
            f"{d}:{n} " for d, n in zip(_DISTRIBUTE_DESC, self._last_distribute, strict=True)
        )
        return {
            "bootTimestamp": str(self.boot_ms),
            "runtime": format_runtime(now_ms() - self.boot_ms),
            "putMessageEntireTimeMax": str(self.put_time_max),
            "putMessageTimesTotal": str(total),
            "putMessageFailedTimes": str(self.put_failed),
            "putMessageSizeTotal": str(self.put_size_total),
            "putMessageDistributeTime": distribute,
            "putMessageAverageSize": java_double(self.put_size_total / total),
            "dispatchMaxBuffer": "0",
            "getMessageEntireTimeMax": str(self.get_time_max),
            "putTps": self._tps_text("put"),
            "getFoundTps": self._tps_text("found"),
            "getMissTps": self._tps_text("miss"),
            "getTotalTps": self._total_tps_text(),
            "getTransferedTps": self._tps_text("transferred"),
            "putLatency99": f"{self._latency_px(0.99):.2f}",
            "putLatency999": f"{self._latency_px(0.999):.2f}",
        }


def format_runtime(ms: int) -> str:
    """``[ 0 days, 0 hours, 12 minutes, 57 seconds ]`` (Java's MessageFormat groups thousands)."""
    days, ms = divmod(ms, 86_400_000)
    hours, ms = divmod(ms, 3_600_000)
    minutes, ms = divmod(ms, 60_000)
    return f"[ {days:,} days, {hours} hours, {minutes} minutes, {ms // 1000} seconds ]"


def human_bytes(n: int) -> str:
    """``MixAll.humanReadableByteCount(bytes, false)``: ``812 B``, ``76.6 GiB``."""
    if n < 1024:
        return f"{n} B"
    exp = min(int(math.log(n) / math.log(1024)), 6)
    return f"{n / 1024**exp:.1f} {'KMGTPE'[exp - 1]}iB"


@dataclass(slots=True)
class DailyTotals:
    """``BrokerStats``: put/get totals snapshotted at local midnight (today's and the day before)."""

    put_today_morning: int = 0
    put_yesterday_morning: int = 0
    get_today_morning: int = 0
    get_yesterday_morning: int = 0

    def roll(self, put_total: int, get_total: int) -> None:
        self.put_yesterday_morning, self.put_today_morning = self.put_today_morning, put_total
        self.get_yesterday_morning, self.get_today_morning = self.get_today_morning, get_total
