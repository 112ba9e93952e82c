"""Run the chosen checks at the same time over one :class:`~mqadmin.doctor.view.ClusterView`, each
ending with its findings, its error, or the deadline."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterable

from mqadmin.doctor.catalog import CHECKS
from mqadmin.doctor.check import Check
from mqadmin.doctor.findings import CheckResult, Report, Status
from mqadmin.doctor.view import ClusterView

__all__ = ["diagnose", "select"]


def select(names: Iterable[str]) -> list[Check]:
    """The checks named (all of them when none is), in catalogue order; KeyError names an unknown one."""
    wanted = list(names)
    for n in wanted:
        if n not in CHECKS:
            raise KeyError(n)
    return [c for n, c in CHECKS.items() if not wanted or n in wanted]


async def _one(check: Check, view: ClusterView) -> CheckResult:
    started = time.monotonic()
    try:
        findings = await check.run(view)
    except Exception as e:  # the check could not run: said as such, never as healthy
        error = str(e) or type(e).__name__
        return CheckResult(check.name, Status.FAILED, error=error, seconds=time.monotonic() - started, exc=e)
    status = Status.FOUND if findings else Status.OK
    return CheckResult(check.name, status, findings, seconds=time.monotonic() - started)


async def diagnose(view: ClusterView, checks: list[Check], deadline: float) -> Report:
    """Every check of ``checks`` within ``deadline`` seconds; one still running then is a timeout."""
    started = time.monotonic()
    tasks = [asyncio.ensure_future(_one(c, view)) for c in checks]
    try:
        done, _ = await asyncio.wait(tasks, timeout=deadline)
    finally:
        for t in tasks:
            t.cancel()
        view.cancel()
    results = []
    for c, t in zip(checks, tasks, strict=True):
        if t in done:
            results.append(t.result())
        else:
            error = f"not finished within the deadline of {deadline:g} s"
            results.append(CheckResult(c.name, Status.TIMEOUT, error=error, seconds=deadline))
    return Report(results, time.monotonic() - started)
