"""``mqadmin doctor``: what is wrong with a cluster, why it matters and what to run.

The checks are :mod:`mqadmin.doctor`'s; this module reads the options, prints the report (text for a
terminal, the ``--json`` document) and turns it into the exit code: 8 when a finding of the
``--fail-on`` severity or worse exists, else the failure's code when a check could not run (6 when
others did), else 0.
"""

from __future__ import annotations

import asyncio
import time
from datetime import datetime
from typing import Any

import click

from mqadmin.cli.command import java_command
from mqadmin.cli.errors import CommandError, usage_error
from mqadmin.cli.exitcodes import ExitCode
from mqadmin.cli.invocation import Invocation
from mqadmin.cli.javaopts import JavaOpt
from mqadmin.cli.results import Result
from mqadmin.doctor.catalog import CHECKS
from mqadmin.doctor.findings import Finding, Report, Severity, Status
from mqadmin.doctor.limits import LIMIT_HELP, LimitError, Limits, with_overrides

__all__ = ["DoctorReport", "doctor"]

_SEVERITIES = [s.label for s in Severity]


def _evidence(values: dict[str, Any]) -> str:
    def one(v: Any) -> str:
        if isinstance(v, list):
            return ",".join(one(x) for x in v) or "-"
        if isinstance(v, dict):
            return "{" + " ".join(f"{k}={one(x)}" for k, x in v.items()) + "}"
        if isinstance(v, float):
            return f"{v:g}"
        return str(v)

    return " ".join(f"{k}={one(v)}" for k, v in values.items())


def _finding_text(f: Finding) -> str:
    pad = " " * 10
    return (
        f"{f.severity.label.upper():<9} {f.check}  {f.resource}\n"
        f"{pad}{f.summary}\n"
        f"{pad}evidence: {_evidence(f.evidence)}\n"
        f"{pad}why: {f.why}\n"
        f"{pad}run: {f.command}\n"
    )


class DoctorReport(Result):
    """One run of the checks: each finding, each check's outcome."""

    def __init__(self, report: Report, fail_on: Severity, cluster: str | None) -> None:
        self.report = report
        self.fail_on = fail_on
        self.cluster = cluster

    @property
    def healthy(self) -> bool:
        return not self.report.findings and not self.report.not_run

    def text(self) -> str:
        r = self.report
        found = r.findings
        ran = len(r.results) - len(r.not_run)
        if found:
            counts = ", ".join(
                f"{sum(1 for f in found if f.severity == s)} {s.label}"
                for s in reversed(Severity)
                if any(f.severity == s for f in found)
            )
            head = f"{len(found)} finding{'s' if len(found) != 1 else ''} ({counts})"
        else:
            head = "no findings"
        head += f" from {ran} check{'s' if ran != 1 else ''} in {r.seconds:.1f} s"
        if r.not_run:
            head += f"; {len(r.not_run)} could not run"
        elif not found:
            head = f"healthy: {head}"
        lines = [f"doctor{' -c ' + self.cluster if self.cluster else ''}: {head}\n"]
        for f in found:
            lines.append("\n" + _finding_text(f))
        if r.not_run:
            lines.append("\n")
        for c in r.not_run:
            lines.append(f"NOT RUN   {c.check}: {c.error}\n")
        return "".join(lines)

    def data(self) -> dict[str, Any]:
        r = self.report
        return {
            "healthy": self.healthy,
            "failOn": self.fail_on.label,
            "cluster": self.cluster,
            "findings": [f.to_json() for f in r.findings],
            "checks": [c.to_json() for c in r.results],
            "durationMs": round(r.seconds * 1000),
        }


def _check_help() -> str:
    return "; ".join(f"{c.name}: {c.looks_for}" for c in CHECKS.values())


def _limit_help() -> str:
    defaults = Limits()
    return "; ".join(f"{n} ({getattr(defaults, n)}): {h}" for n, h in LIMIT_HELP.items())


@java_command(
    "doctor",
    [JavaOpt("c", "clusterName", "only the brokers of this cluster", dest="cluster")],
    fanout=True,  # --deadline
    json_doc='{"healthy": bool, "failOn": "info"|"warning"|"critical", "cluster": str|null, "findings": '
    '[{"check": str, "severity": "info"|"warning"|"critical", "resource": str, "summary": str, '
    '"evidence": {...}, "why": str, "command": str}], "checks": [{"check": str, "status": '
    '"ok"|"found"|"failed"|"timeout", "findings": int, "error": str|null, "durationMs": int}], '
    '"durationMs": int}',
    epilog="Every check runs at the same time, within --deadline (default: the lag window and three "
    "request timeouts); each name server in -n is asked on its own, so their disagreements show. Exit 8 "
    "when a finding of the --fail-on severity or worse exists; else, when a check could not run (an "
    "error, or the deadline), that failure's code (6 when other checks ran); else 0.",
    own=[
        click.Option(
            ["--check", "checks"],
            multiple=True,
            type=click.Choice(list(CHECKS)),
            metavar="NAME",
            help="Run only this check (repeat for more; default: all). The checks: " + _check_help() + ".",
        ),
        click.Option(
            ["--fail-on", "fail_on"],
            type=click.Choice(_SEVERITIES),
            default="warning",
            show_default=True,
            help="The lowest severity of a finding that makes the exit code 8.",
        ),
        click.Option(
            ["--set", "limits"],
            multiple=True,
            metavar="NAME=VALUE",
            help="Override a threshold (repeat for more; over the context's, 'mqadmin context add "
            "--doctor-set'): " + _limit_help() + ".",
        ),
        click.Option(
            ["--watch", "watch"],
            type=click.FloatRange(min=1, max=86400),
            default=None,
            metavar="SECONDS",
            help="Run the checks again every SECONDS until interrupted (the lag checks compare with the "
            "round before); one report per round, one JSON document a line with --json.",
        ),
    ],
    blocking=False,  # the checks run at the same time on the loop, and the lag checks wait a window
)
async def doctor(
    inv: Invocation,
    cluster: str | None,
    checks: tuple[str, ...],
    fail_on: str,
    limits: tuple[str, ...],
    watch: float | None,
) -> int | None:
    from mqadmin.doctor.run import diagnose, select
    from mqadmin.doctor.view import ClusterView, LagSample

    ctx = inv.context()
    try:  # the context's thresholds for its cluster, then --set
        saved = [f"{k}={v}" for k, v in ((ctx.doctor or {}) if ctx is not None else {}).items()]
        base = with_overrides(Limits(), saved)
    except LimitError as e:
        assert ctx is not None
        raise usage_error(f"context {ctx.name}: {str(e).replace('--set', 'doctor', 1)}") from None
    try:
        chosen = with_overrides(base, list(limits))
    except LimitError as e:
        raise usage_error(str(e)) from None
    selected = select(checks)
    wanted = cluster.strip() if cluster is not None else None
    severity = Severity.of(fail_on)
    deadline = inv.common.deadline
    if deadline is None:
        deadline = chosen.lag_window + 3 * inv.settings.timeout
    if wanted is not None:
        await _known_cluster(inv, wanted)
    previous: LagSample | None = None
    while True:
        started = time.monotonic()
        view = ClusterView(inv.admin, wanted, chosen, previous)
        report = await diagnose(view, selected, deadline)
        previous = view.last_sample or previous
        result = DoctorReport(report, severity, wanted)
        if watch is None:
            inv.out.emit(result)
            return _exit_code(inv, report, severity)
        if inv.out.structured:
            inv.out.data({**result.data(), "timestamp": int(time.time() * 1000)}, compact=True)
        else:
            click.echo(f"--- {datetime.now().astimezone().isoformat(timespec='seconds')}")
            click.echo(result.text(), nl=False)
        await asyncio.sleep(max(0.0, started + watch - time.monotonic()))


async def _known_cluster(inv: Invocation, cluster: str) -> None:
    """Exit 7 when ``-c`` names a cluster no name server lists (left to the checks when none answers)."""
    infos = await inv.admin.core.gather(*(_cluster_table(inv, ns) for ns in inv.admin.core.namesrv_addrs))
    if any(t is not None for t in infos) and not any(cluster in (t or {}) for t in infos):
        raise CommandError(
            f"cluster {cluster!r} not found: no name server lists a broker of it "
            "('mqadmin clusterList' lists the clusters)",
            ExitCode.NOT_FOUND,
        )


async def _cluster_table(inv: Invocation, ns: str) -> dict[str, list[str]] | None:
    from mqadmin.protocol.bodies.cluster import ClusterInfo
    from mqadmin.protocol.codes import RequestCode

    try:
        resp = await inv.admin.core.invoke(ns, RequestCode.GET_BROKER_CLUSTER_INFO)
        return dict(ClusterInfo.decode(resp.body or b"{}").cluster_addr_table or {})
    except Exception:  # that name server is the checks' to report
        return None


def _exit_code(inv: Invocation, report: Report, severity: Severity) -> int | None:
    """8 on a finding at ``severity`` or worse; else each check not run on stderr (its code); else 0."""
    if report.fails(severity):
        return ExitCode.THRESHOLD
    for c in report.not_run:
        if c.status is Status.TIMEOUT or c.exc is None:
            inv.report(CommandError(f"check {c.check}: {c.error}", ExitCode.TIMEOUT))
        else:
            inv.report(c.exc)
    inv.any_success = len(report.not_run) < len(report.results)
    return None if report.not_run else ExitCode.OK
