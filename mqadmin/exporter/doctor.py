"""``exportMetrics --listen --doctor-interval SECONDS``: the doctor's findings as series, so alerts can
page on them.

The checks run in the background every interval (a run reads much more than a scrape: every route,
every group's clients), and each page carries the newest complete run:

- ``rocketmq_doctor_findings{check, severity}``: how many findings of that severity the check made
  (0 included, for every check that ran: an alert on ``> 0`` sees the check recover);
- ``rocketmq_doctor_finding{check, severity, resource}``: 1 per finding, naming what it is about;
- ``rocketmq_doctor_check_up{check}``: 1 when the check ran, 0 when it could not (its findings are
  then absent, not 0);
- ``rocketmq_doctor_last_run_timestamp_seconds``: when the newest run ended.

The lag checks compare each run's lag with the run before, so after the first run no window is
waited.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import time
from collections.abc import Iterator
from typing import Any

from mqadmin.admin.api import MQAdmin
from mqadmin.doctor.catalog import CHECKS
from mqadmin.doctor.findings import Report, Severity
from mqadmin.doctor.limits import Limits
from mqadmin.doctor.run import diagnose
from mqadmin.doctor.view import ClusterView, LagSample

__all__ = ["DoctorRunner", "doctor_families"]

log = logging.getLogger("mqadmin.exporter")


def doctor_families(report: Report | None, ended: float | None) -> Iterator[Any]:
    """The series of ``report`` (none before the first run ends)."""
    from prometheus_client.core import GaugeMetricFamily

    counts = GaugeMetricFamily(
        "rocketmq_doctor_findings",
        "Findings of mqadmin doctor's check, by severity, in its newest run (absent: it could not run).",
        labels=["check", "severity"],
    )
    each = GaugeMetricFamily(
        "rocketmq_doctor_finding",
        "1 for each finding of the newest doctor run, with what it is about.",
        labels=["check", "severity", "resource"],
    )
    up = GaugeMetricFamily(
        "rocketmq_doctor_check_up",
        "1 when the doctor's check ran in its newest run, 0 when it could not.",
        labels=["check"],
    )
    last = GaugeMetricFamily(
        "rocketmq_doctor_last_run_timestamp_seconds", "When the newest doctor run ended (Unix time)."
    )
    if report is not None and ended is not None:
        for r in report.results:
            up.add_metric([r.check], 1.0 if r.ran else 0.0)
            if r.ran:
                for s in Severity:
                    counts.add_metric(
                        [r.check, s.label], float(sum(1 for f in r.findings if f.severity == s))
                    )
        for f in report.findings:
            each.add_metric([f.check, f.severity.label, f.resource], 1.0)
        last.add_metric([], ended)
    yield from (counts, each, up, last)


class DoctorRunner:
    """Every check over ``admin`` each ``interval`` seconds, on the running loop; :attr:`report` is the
    newest complete run."""

    def __init__(
        self, admin: MQAdmin, cluster: str | None, interval: float, limits: Limits | None = None
    ) -> None:
        self.admin = admin
        self.cluster = cluster
        self.interval = interval
        base = limits or Limits()
        self.limits = dataclasses.replace(base, lag_window=min(base.lag_window, interval))
        self.report: Report | None = None
        self.ended: float | None = None
        self.runs = 0
        self._previous: LagSample | None = None
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._loop(), name="doctor-runner")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
            self._task = None

    def families(self) -> Iterator[Any]:
        return doctor_families(self.report, self.ended)

    async def run_once(self) -> Report:
        view = ClusterView(self.admin, self.cluster, self.limits, self._previous)
        deadline = max(self.interval, self.limits.lag_window + 3 * self.admin.core.settings.timeout)
        report = await diagnose(view, list(CHECKS.values()), deadline)
        self._previous = view.last_sample or self._previous
        self.report, self.ended = report, time.time()
        self.runs += 1
        return report

    async def _loop(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            started = loop.time()
            try:
                await self.run_once()
            except Exception as e:  # a bug: said, and the newest good run stays on the page
                log.error("doctor run failed: %s", e or type(e).__name__, exc_info=e)
            await asyncio.sleep(max(0.0, started + self.interval - loop.time()))
