"""What a check finds: a finding (severity, resource, evidence, why, the command to run) and what
became of each check (ran, found nothing, could not run)."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any

__all__ = ["CheckResult", "Finding", "Report", "Severity", "Status"]


class Severity(enum.IntEnum):
    """How bad a finding is; ``--fail-on`` picks the lowest that makes the exit code 8."""

    INFO = 1
    WARNING = 2
    CRITICAL = 3

    @property
    def label(self) -> str:
        return self.name.lower()

    @classmethod
    def of(cls, text: str) -> Severity:
        return cls[text.upper()]


class Status(enum.Enum):
    """What became of one check."""

    OK = "ok"
    """It ran and found nothing."""
    FOUND = "found"
    """It ran and found something."""
    FAILED = "failed"
    """It could not run (an error): its silence says nothing about the cluster."""
    TIMEOUT = "timeout"
    """It did not finish by the deadline: as good as not run."""


@dataclass(frozen=True, slots=True)
class Finding:
    """One thing wrong, with the numbers that show it and the command that fixes or investigates it."""

    check: str
    severity: Severity
    resource: str
    """What it is about: ``broker broker-a``, ``group G``, ``topic T``, ``name server 10.0.0.1:9876``."""
    summary: str
    """One line: what is wrong."""
    evidence: dict[str, Any]
    """The numbers (and names) that show it."""
    why: str
    """One line: why it matters."""
    command: str
    """The exact ``mqadmin`` command line that fixes or investigates it."""

    def to_json(self) -> dict[str, Any]:
        return {
            "check": self.check,
            "severity": self.severity.label,
            "resource": self.resource,
            "summary": self.summary,
            "evidence": self.evidence,
            "why": self.why,
            "command": self.command,
        }


@dataclass(slots=True)
class CheckResult:
    """One check's run: its findings, or why it could not run, and how long it took."""

    check: str
    status: Status
    findings: list[Finding] = field(default_factory=list)
    error: str | None = None
    seconds: float = 0.0
    exc: BaseException | None = field(default=None, repr=False, compare=False)
    """What stopped it (FAILED), for the exit code."""

    @property
    def ran(self) -> bool:
        return self.status in (Status.OK, Status.FOUND)

    def to_json(self) -> dict[str, Any]:
        return {
            "check": self.check,
            "status": self.status.value,
            "findings": len(self.findings),
            "error": self.error,
            "durationMs": round(self.seconds * 1000),
        }


@dataclass(slots=True)
class Report:
    """Every selected check's result, in catalogue order."""

    results: list[CheckResult]
    seconds: float = 0.0

    @property
    def findings(self) -> list[Finding]:
        out = [f for r in self.results for f in r.findings]
        return sorted(out, key=lambda f: (-f.severity, f.check, f.resource))

    @property
    def not_run(self) -> list[CheckResult]:
        return [r for r in self.results if not r.ran]

    def worst(self) -> Severity | None:
        return max((f.severity for f in self.findings), default=None)

    def fails(self, at: Severity) -> bool:
        """Whether a finding of severity ``at`` or worse exists."""
        worst = self.worst()
        return worst is not None and worst >= at
