"""A synthetic cluster history with known rates, written through the real writer.

Cluster ``C1``, brokers ``broker-a`` and ``broker-b``, one snapshot run a minute for 30 minutes,
starting at 23:45 UTC so the runs span two ``date=`` partitions. Answers arrive 0.2 s (broker-a) and
0.5 s (broker-b) after a run starts; offsets are computed at the moment of the answer.

Topics
    ``Orders``: 8 queues (4 per broker); queue a:0 takes 40 msg/s, b:3 none ever, the rest 10 msg/s:
    100 msg/s in all, skew 40 / 12.5 = 3.2.
    ``Idle``: 2 queues on broker-a holding 500 messages each, written two days earlier.
    ``Reset``: 2 queues on broker-b at 5 msg/s each; the broker loses its data halfway (offsets
    restart from 0), so its produce rate must stay 10 msg/s, never negative.
    System topics (``TBW102``, the cluster, broker and reply topics) that the jobs leave out by
    default.
Groups
    ``G-fast`` keeps up with Orders (no lag at any snapshot).
    ``G-stop`` consumes Orders for 10 minutes, then stops: stuck, lag growing at 100 msg/s.
    ``G-drain`` starts 6000 messages behind on Orders and consumes 2 % faster than the producers:
    2 msg/s net, 2400 behind at the end, so 1200 s to drain.
    ``G-idle`` sits on Idle with nothing to consume; ``G-never`` has never committed an offset.
    ``G-reset`` keeps up with Reset, follows the broker's reset, then is reset back 1000 messages.
Broker-b is down for run 25 (no rows, one ``missing`` row).
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from mqadmin.pipeline.writer import write_run

START = datetime(2024, 5, 1, 23, 45, tzinfo=UTC)
INTERVAL = 60
RUNS = 31
ANSWER_DELAY = {"broker-a": 0.2, "broker-b": 0.5}
CLUSTER = "C1"
DOWN_RUN = 25  # broker-b does not answer this run

ORDERS_RATES = {
    ("broker-a", 0): 40.0,
    ("broker-a", 1): 10.0,
    ("broker-a", 2): 10.0,
    ("broker-a", 3): 10.0,
    ("broker-b", 0): 10.0,
    ("broker-b", 1): 10.0,
    ("broker-b", 2): 10.0,
    ("broker-b", 3): 0.0,
}
ORDERS_BASE = 1000
RESET_RATE = 5.0
RESET_BASE = 4000
RESET_AT = 15 * INTERVAL - 30  # seconds after START: the broker restarts with empty queues
GROUP_RESET_RUN = 20
STOP_AT = 600.0
DRAIN_START_LAG = 60.0  # seconds of production
DRAIN_GAIN = 0.02  # consumes 2 % faster than production
IDLE_OFFSET = 500
LONG_AGO = START - timedelta(days=2)

EXPECTED = {
    "orders_rate": 100.0,
    "reset_rate": 10.0,
    "broker_a_rate": 70.0,
    "broker_b_rate": 40.0,
    "orders_skew": 3.2,
    "orders_mean": 12.5,
    "drain_seconds": 1200.0,
    "stop_consume_rate": 100.0 * STOP_AT / (INTERVAL * (RUNS - 1)),
}


@dataclass(frozen=True)
class Run:
    index: int
    run_time: datetime


def runs() -> Iterator[Run]:
    for k in range(RUNS):
        yield Run(k, START + timedelta(seconds=k * INTERVAL))


def _secs(t: datetime) -> float:
    return (t - START).total_seconds()


def orders_offset(broker: str, q: int, s: float) -> int:
    rate = ORDERS_RATES[(broker, q)]
    return 0 if rate == 0 else ORDERS_BASE + math.floor(rate * s)


def reset_offset(s: float) -> int:
    if s < RESET_AT:
        return RESET_BASE + math.floor(RESET_RATE * s)
    return math.floor(RESET_RATE * (s - RESET_AT))


def _ts(s: float) -> datetime:
    return START + timedelta(seconds=s)


def rows_of(run: Run) -> dict[str, list[dict[str, Any]]]:
    """Every table's rows for one run."""
    qo: list[dict[str, Any]] = []
    go: list[dict[str, Any]] = []
    stats: list[dict[str, Any]] = []
    missing: list[dict[str, Any]] = []
    for broker, delay in ANSWER_DELAY.items():
        when = run.run_time + timedelta(seconds=delay)
        s = _secs(when)
        base = {"time": when, "run_time": run.run_time, "cluster": CLUSTER, "broker": broker}
        if broker == "broker-b" and run.index == DOWN_RUN:
            missing.append(
                {**base, "broker_addr": "10.0.0.2:10911", "what": "broker", "target": None,
                 "error": "connect to 10.0.0.2:10911 failed: Connection refused"}
            )  # fmt: skip
            continue
        stats.append({**base, "broker_addr": f"{broker}:10911", "key": "putTps", "value": "1.0 1.0 1.0"})
        stats.append(
            {**base, "broker_addr": f"{broker}:10911", "key": "brokerVersionDesc", "value": "V4_9_8"}
        )

        def queue(
            topic: str, q: int, offset: int, last: datetime | None, base: dict[str, Any] = base
        ) -> None:
            qo.append(
                {**base, "topic": topic, "queue_id": q, "min_offset": 0, "max_offset": offset,
                 "last_update_time": last}
            )  # fmt: skip

        def group(
            name: str,
            topic: str,
            q: int,
            b_off: int,
            c_off: int,
            last: datetime | None,
            base: dict[str, Any] = base,
        ) -> None:
            go.append(
                {**base, "group": name, "topic": topic, "queue_id": q, "broker_offset": b_off,
                 "consumer_offset": c_off, "lag": max(0, b_off - c_off), "last_consume_time": last}
            )  # fmt: skip

        for q in range(4):
            rate = ORDERS_RATES[(broker, q)]
            off = orders_offset(broker, q, s)
            queue("Orders", q, off, when if rate else None)
            group("G-fast", "Orders", q, off, off, when if rate else None)
            stop_off = orders_offset(broker, q, min(s, STOP_AT))
            group("G-stop", "Orders", q, off, stop_off, _ts(min(s, STOP_AT)) if rate else None)
            behind = max(0, round(rate * (DRAIN_START_LAG - DRAIN_GAIN * s)))
            group("G-drain", "Orders", q, off, off - behind, when if rate else None)
            for sys_topic in ("TBW102", CLUSTER, broker, f"{CLUSTER}_REPLY_TOPIC"):
                queue(sys_topic, q, 0, None)
        if broker == "broker-a":
            for q in range(2):
                queue("Idle", q, IDLE_OFFSET, LONG_AGO)
                group("G-idle", "Idle", q, IDLE_OFFSET, IDLE_OFFSET, LONG_AGO)
        else:
            for q in range(2):
                off = reset_offset(s)
                queue("Reset", q, off, when)
                c_off = off
                if run.index >= GROUP_RESET_RUN:
                    c_off = max(0, off - 1000) if run.index == GROUP_RESET_RUN else off
                group("G-reset", "Reset", q, off, c_off, when)
        empty = dict.fromkeys(
            ("topic", "queue_id", "broker_offset", "consumer_offset", "lag", "last_consume_time")
        )
        for bare in ("G-never", "TOOLS_CONSUMER"):
            go.append({**base, "group": bare, **empty})
    return {"queue_offsets": qo, "group_offsets": go, "broker_stats": stats, "missing": missing}


def write_history(root: Path) -> list[dict[str, Path]]:
    """Write every run under ``root``; returns the files of each run."""
    return [write_run(root, run.run_time, rows_of(run)) for run in runs()]
