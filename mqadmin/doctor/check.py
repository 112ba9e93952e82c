"""A check: a small async function of a :class:`~mqadmin.doctor.view.ClusterView` under a name, with
the one line that says what it looks for (``--help``, the man page and the README show it)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from mqadmin.doctor.findings import Finding
from mqadmin.doctor.view import ClusterView

__all__ = ["Check", "CheckFunc"]

CheckFunc = Callable[[ClusterView], Awaitable[list[Finding]]]


@dataclass(frozen=True, slots=True)
class Check:
    name: str
    looks_for: str
    run: CheckFunc
