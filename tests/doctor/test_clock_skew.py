"""The clock-skew check: a broker's clock is its ``bootTimestamp`` plus its ``runtime`` (whole seconds,
as Java's store writes it), bracketed by this machine's clock before and after the request.

Read from the Java brokers' recorded ``brokerStatus`` output (4.9.8 and 5.3.3), held to its bounds on
hostile tables, and run against our real broker: in step with this machine, nothing is found; with
this machine's clock an hour ahead (the same skew, seen from the other side), the broker is found an
hour behind.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from mqadmin.admin.api import MQAdmin
from mqadmin.admin.settings import AdminSettings
from mqadmin.doctor import view as view_module
from mqadmin.doctor.checks_brokers import broker_clock_ms, clock_skew, clock_skew_s
from mqadmin.doctor.findings import Finding
from mqadmin.doctor.view import ClusterView
from tests.captures import CAPTURES
from tests.servers import Cluster


def _status_table(path: Path) -> dict[str, str]:
    table = {}
    for line in path.read_text().splitlines():
        key, sep, value = line.partition(":")
        if sep:
            table[key.strip()] = value.strip()
    return table


JAVA_STATUS = ["rocketmq-4.9.8/s06_brokerStatus.out", "rocketmq-5.3.3/x07_brokerStatus5.out"]


@pytest.mark.parametrize("out", JAVA_STATUS)
def test_the_java_brokers_clock_is_boot_plus_runtime(out: str) -> None:
    table = _status_table(CAPTURES / out)
    boot = int(table["bootTimestamp"])
    clock = broker_clock_ms(table)
    assert clock is not None
    earliest, latest = clock
    assert earliest > boot and (earliest - boot) % 1000 == 0 and latest == earliest + 999


def test_runtime_text_and_hostile_tables() -> None:
    day = 86_400_000
    table = {"bootTimestamp": "1000", "runtime": "[ 1,234 days, 2 hours, 3 minutes, 4 seconds ]"}
    assert broker_clock_ms(table) == (1000 + 1234 * day + 7_384_000, 1000 + 1234 * day + 7_384_999)
    for bad in (
        {},
        {"bootTimestamp": "1000"},
        {"runtime": table["runtime"]},
        {"bootTimestamp": "-5", "runtime": table["runtime"]},
        {"bootTimestamp": "1000", "runtime": "[ x days, 2 hours, 3 minutes, 4 seconds ]"},
        {"bootTimestamp": "1000", "runtime": "[ 1 days, 2 hours ]"},
        {"bootTimestamp": "1e3", "runtime": table["runtime"]},
    ):
        assert broker_clock_ms(bad) is None, bad


def test_skew_is_the_least_the_two_brackets_allow() -> None:
    assert clock_skew_s((10_000, 10_999), (10.5, 10.6)) == 0.0  # overlapping: no skew is shown
    assert clock_skew_s((20_000, 20_999), (10.0, 10.5)) == pytest.approx(9.5)  # the broker ahead
    assert clock_skew_s((0, 999), (10.0, 10.5)) == pytest.approx(-9.001)  # the broker behind


def _findings(ns: str, shift: float, monkeypatch: pytest.MonkeyPatch) -> list[Finding]:
    real = time.time
    monkeypatch.setattr(view_module.time, "time", lambda: real() + shift)

    async def run() -> list[Finding]:
        async with MQAdmin(AdminSettings(namesrv_addrs=(ns,))) as admin:
            return await clock_skew(ClusterView(admin))

    try:
        return asyncio.run(run())
    finally:
        monkeypatch.undo()


def test_our_broker_in_step_and_an_hour_apart(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with Cluster(tmp_path) as c:
        assert _findings(c.ns_addr, 0.0, monkeypatch) == []
        (found,) = _findings(c.ns_addr, 3600.0, monkeypatch)
        assert found.check == "clock-skew" and found.resource == "broker broker-a"
        assert -3602 < found.evidence["skewSeconds"] < -3598
        assert "behind" in found.summary and found.command == f"mqadmin brokerStatus -b {c.broker_addr}"
