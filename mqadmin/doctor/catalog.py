"""Every check of ``mqadmin doctor`` by name, the most telling first."""

from __future__ import annotations

from mqadmin.doctor import checks_brokers, checks_groups, checks_namesrv
from mqadmin.doctor.check import Check

__all__ = ["CHECKS"]

CHECKS: dict[str, Check] = {
    c.name: c for c in (*checks_namesrv.CHECKS, *checks_groups.CHECKS, *checks_brokers.CHECKS)
}
