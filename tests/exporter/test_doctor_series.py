"""``exportMetrics --listen --doctor-interval``: the doctor's findings as series, so an alert can page on
them; a wiped write permission shows, and goes once it is given back."""

from __future__ import annotations

import time
from pathlib import Path

from mqadmin.doctor.catalog import CHECKS
from tests.cli_harness import run_mqadmin
from tests.exporter.test_metrics_failure import Exporter, Samples, samples, series_of
from tests.servers import Cluster


def newest_run(exporter: Exporter, after: float, timeout: float = 60) -> tuple[Samples, float]:
    """The first page whose doctor run ended after ``after`` (Unix time), and when it ended."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        _, body, _ = exporter.get()
        found = samples(body)
        ended = list(series_of(found, "rocketmq_doctor_last_run_timestamp_seconds").values())
        if ended and ended[0] > after:
            return found, ended[0]
        time.sleep(0.5)
    raise AssertionError("no doctor run ended in time")


def by_labels(found: Samples, name: str) -> dict[tuple[str, ...], float]:
    return {tuple(v for _, v in labels): value for labels, value in series_of(found, name).items()}


def test_findings_as_series(tmp_path: Path, env: dict[str, str]) -> None:
    with Cluster(tmp_path) as c:
        assert run_mqadmin(["wipeWritePerm", "-n", c.ns_addr, "-b", "broker-a"], env).code == 0
        exporter = Exporter(c.ns_addr, env, "--doctor-interval", "5")
        try:
            found, _ = newest_run(exporter, 0)
            counts = by_labels(found, "rocketmq_doctor_findings")
            assert counts[("write-perm-wiped", "critical")] == 1.0
            assert {k: v for k, v in counts.items() if k != ("write-perm-wiped", "critical")} == {
                (check, severity): 0.0
                for check in CHECKS
                for severity in ("info", "warning", "critical")
                if (check, severity) != ("write-perm-wiped", "critical")
            }
            assert by_labels(found, "rocketmq_doctor_check_up") == {(check,): 1.0 for check in CHECKS}
            assert by_labels(found, "rocketmq_doctor_finding") == {
                ("write-perm-wiped", "broker broker-a", "critical"): 1.0
            }
            assert run_mqadmin(["addWritePerm", "-n", c.ns_addr, "-b", "broker-a"], env).code == 0
            _, ended = newest_run(exporter, time.time())  # it may have read the routes before
            found, _ = newest_run(exporter, ended)
            assert by_labels(found, "rocketmq_doctor_findings")[("write-perm-wiped", "critical")] == 0.0
            assert by_labels(found, "rocketmq_doctor_finding") == {}
        finally:
            exporter.stop()
