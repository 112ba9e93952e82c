"""Carrying out a plan: one change after the other, in the plan's order, stopping at the first refusal.

Nothing is sent when the plan has a blocked change (a shrink without ``--allow-shrink``). The
report says which changes were made, which one failed and why, and which were not tried, so an
operator knows the cluster's state without reading it again; applying the same manifest again
carries on from there (a made change is no longer in the plan).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from mqadmin.admin.api import MQAdmin
from mqadmin.manifest.plan import Change, Plan

__all__ = ["ApplyReport", "apply_plan"]


@dataclass(slots=True)
class ApplyReport:
    """What an apply did to one cluster."""

    cluster: str
    done: list[Change] = field(default_factory=list)
    failed: Change | None = None
    error: BaseException | None = None
    not_done: list[Change] = field(default_factory=list)

    def as_json(self, describe: Any = str) -> dict[str, Any]:
        return {
            "cluster": self.cluster,
            "done": [c.as_json() for c in self.done],
            "failed": None
            if self.failed is None
            else {**self.failed.as_json(), "error": describe(self.error)},
            "notDone": [c.as_json() for c in self.not_done],
        }


async def apply_plan(admin: MQAdmin, plan: Plan) -> ApplyReport:
    """Make the plan's changes in order; the first failure stops it (see :class:`ApplyReport`)."""
    report = ApplyReport(plan.cluster)
    if plan.blocked:
        report.not_done = list(plan.changes)
        return report
    for i, change in enumerate(plan.changes):
        try:
            await _make(admin, change)
        except Exception as e:
            report.failed, report.error = change, e
            report.not_done = plan.changes[i + 1 :]
            return report
        report.done.append(change)
    return report


async def _make(admin: MQAdmin, c: Change) -> None:
    addr = c.addr or ""
    if c.kind == "topic":
        if c.action != "delete":
            await admin.topics.create_and_update_topic_config(addr, c.payload)
        elif c.broker is not None:
            await admin.topics.delete_topic_in_broker(addr, c.name)
        else:
            _first_failure(
                await admin.core.fan_out(
                    admin.core.namesrv_addrs,
                    lambda ns: admin.topics.delete_topic_in_namesrv(ns, c.name, c.payload),
                )
            )
    elif c.kind == "group":
        if c.action == "delete":
            await admin.groups.delete_subscription_group(addr, c.name)
        else:
            await admin.groups.create_and_update_subscription_group_config(addr, c.payload)
    elif c.kind == "orderConfig":
        if c.action == "delete":
            _first_failure(await admin.topics.delete_order_conf(c.name))
        else:
            _first_failure(await admin.topics.put_order_conf(c.name, c.payload))
    elif c.kind == "brokerConfig":
        await admin.brokers.update_broker_config(addr, c.payload)
    elif c.kind == "user":
        if c.action == "create":
            await admin.auth.create_user(addr, c.payload)
        elif c.action == "update":
            await admin.auth.update_user(addr, c.payload)
        else:
            await admin.auth.delete_user(addr, c.name)
    elif c.kind == "acl":
        if c.action == "create":
            await admin.auth.create_acl(addr, c.payload)
        elif c.action == "update":
            await admin.auth.update_acl(addr, c.payload)
        else:
            subject, resource = c.payload
            await admin.auth.delete_acl(addr, subject, resource)
    elif c.kind == "acl1WhiteList":
        await admin.acl.update_global_white_addr_config(addr, c.payload)
    elif c.kind == "acl1Account":
        if c.action == "delete":
            await admin.acl.delete_plain_access_config(addr, c.name)
        else:
            await admin.acl.create_and_update_plain_access_config(addr, c.payload)
    else:
        raise AssertionError(f"no write for a change of kind {c.kind}")


def _first_failure(result: Any) -> None:
    """A write to every name server: the first one that failed is the change's failure."""
    for key in result.order:
        if key in result.errors:
            raise result.errors[key]
