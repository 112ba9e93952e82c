"""``exportMetrics --listen --cache-interval SECONDS``: one collection per interval, however many scrape.

Against our name server and broker as processes, with the real ``mqadmin exportMetrics`` as a
subprocess. Three scrapers at once, several times an interval, get pages of at most one new sample per
interval (a sample is told by its ``rocketmq_scrape_duration_seconds``, the time its collection took),
each answered at once; a SIGSTOPped master is ``rocketmq_broker_up 0`` with its other series absent
within two intervals, and 1 again once it answers.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from pathlib import Path

import pytest

from tests.cli_harness import clean_env
from tests.exporter.test_metrics_failure import Exporter, mentions, samples, series_of
from tests.servers import BrokerProcess, NameServerProcess

INTERVAL = 1.0


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    home = tmp_path / "home"
    (home / "conf").mkdir(parents=True)
    return clean_env(home, tmp_path / "config")


def duration(body: str) -> float:
    return samples(body)[("rocketmq_scrape_duration_seconds", ())]


def test_several_scrapers_cost_one_collection_per_interval(tmp_path: Path, env: dict[str, str]) -> None:
    ns = NameServerProcess(tmp_path / "ns")
    broker = BrokerProcess(tmp_path / "b", ns.addr)
    exporter = Exporter(ns.addr, env, "--cache-interval", str(INTERVAL))
    try:
        exporter.get()  # the first sample is in
        seen: list[float] = []
        slowest: list[float] = []
        started = time.monotonic()
        while time.monotonic() - started < 3 * INTERVAL:

            def scrape() -> None:
                status, body, took = exporter.get(timeout_header=2)
                assert status == 200
                seen.append(duration(body))
                slowest.append(took)

            scrapers = [threading.Thread(target=scrape) for _ in range(3)]
            for t in scrapers:
                t.start()
            for t in scrapers:
                t.join(10)
            time.sleep(INTERVAL / 5)
        elapsed = time.monotonic() - started
        assert len(seen) >= 30
        assert 2 <= len(set(seen)) <= elapsed / INTERVAL + 2, (len(set(seen)), elapsed)
        assert max(slowest) < 0.5, max(slowest)  # served from memory, not collected per scrape
    finally:
        exporter.stop()
        broker.stop()
        ns.stop()


def test_a_frozen_master_is_down_within_two_intervals(tmp_path: Path, env: dict[str, str]) -> None:
    ns = NameServerProcess(tmp_path / "ns")
    broker = BrokerProcess(tmp_path / "b", ns.addr)
    exporter = Exporter(ns.addr, env, "--cache-interval", str(INTERVAL), "--scrape-timeout", "5")
    try:
        assert broker.proc is not None
        status, body, _ = exporter.get()
        assert status == 200 and list(series_of(samples(body), "rocketmq_broker_up").values()) == [1.0]
        assert len(mentions(samples(body), broker.addr)) > 40
        os.kill(broker.proc.pid, signal.SIGSTOP)
        stopped = time.monotonic()
        try:
            while True:
                status, body, took = exporter.get(timeout_header=2)
                assert status == 200 and took < 0.5, took
                found = samples(body)
                if list(series_of(found, "rocketmq_broker_up").values()) == [0.0]:
                    break
                assert time.monotonic() - stopped < 2 * INTERVAL + 0.5, "still up"
                time.sleep(0.1)
            assert mentions(found, broker.addr) == set()  # its other series left out, not stale
        finally:
            os.kill(broker.proc.pid, signal.SIGCONT)
        deadline = time.monotonic() + 2 * INTERVAL + 2
        while list(series_of(samples(exporter.get()[1]), "rocketmq_broker_up").values()) != [1.0]:
            assert time.monotonic() < deadline, "not up again"
            time.sleep(0.1)
    finally:
        exporter.stop()
        broker.stop()
        ns.stop()
