"""Checks of each broker: does it answer, is its disk near the reclaim threshold, does dispatch lag,
is a slave behind its master, is its clock off, is ACL off on one broker of a cluster where the others
have it on."""

from __future__ import annotations

import dataclasses
import re

from mqadmin.admin.api import MQAdmin
from mqadmin.admin.settings import Credentials
from mqadmin.doctor.check import Check
from mqadmin.doctor.findings import Finding, Severity
from mqadmin.doctor.view import BrokerRef, ClusterView
from mqadmin.remoting.errors import RemoteCommandError

__all__ = ["CHECKS"]

MIB = 1024 * 1024


def _number(table: dict[str, str], key: str) -> float | None:
    try:
        return float((table.get(key) or "").split(" ")[0])
    except ValueError:
        return None


async def broker_unreachable(view: ClusterView) -> list[Finding]:
    brokers = await view.brokers()
    _, failed = await view.each(brokers, lambda b: view.runtime(b.addr))
    return [_unreachable(b, e) for b, e in failed.items()]


def _unreachable(b: BrokerRef, e: BaseException) -> Finding:
    """A broker whose runtime table could not be read: it does not answer (refused, reset, timed
    out), or it answers with a refusal (ACL without the keys to read it), which is no fault of the
    broker but leaves every check blind to it."""
    if isinstance(e, RemoteCommandError):
        summary = f"{b.addr} (id {b.broker_id}) answers but refuses to be read ({e.code_name})"
        why = "no check could read this broker, so their silence about it says nothing"
    else:
        summary = f"{b.addr} (id {b.broker_id}) is listed by the name servers but does not answer"
        why = "clients keep routing to it until its registration expires; its messages cannot be read"
    return Finding(
        "broker-unreachable",
        Severity.CRITICAL,
        f"broker {b.name}",
        summary,
        {"addr": b.addr, "brokerId": b.broker_id, "error": str(e) or type(e).__name__},
        why,
        f"mqadmin brokerStatus -b {b.addr}",
    )


async def disk_near_reclaim(view: ClusterView) -> list[Finding]:
    brokers = await view.brokers()
    tables, _ = await view.each(brokers, lambda b: view.runtime(b.addr))
    configs, _ = await view.each(list(tables), lambda b: view.broker_config(b.addr))
    out: list[Finding] = []
    for b, table in tables.items():
        ratio = _number(table, "commitLogDiskRatio")
        if ratio is None:
            continue
        reclaim = (_number(configs.get(b, {}), "diskMaxUsedSpaceRatio") or 75.0) / 100.0
        critical = view.limits.disk_critical
        if ratio >= critical:
            severity, what = Severity.CRITICAL, f"at or over {critical:.0%}: it refuses writes"
        elif ratio >= reclaim - view.limits.disk_margin:
            severity, what = Severity.WARNING, f"near its reclaim threshold of {reclaim:.0%}"
        else:
            continue
        out.append(
            Finding(
                "disk-near-reclaim",
                severity,
                f"broker {b.name}",
                f"commit log disk {ratio:.0%} used, {what}",
                {
                    "addr": b.addr,
                    "commitLogDiskRatio": ratio,
                    "reclaimRatio": reclaim,
                    "refuseRatio": critical,
                },
                "past the threshold files are deleted before their retention, and at the limit sends fail",
                f"mqadmin brokerStatus -b {b.addr}",
            )
        )
    return out


async def dispatch_lag(view: ClusterView) -> list[Finding]:
    brokers = await view.brokers()
    tables, _ = await view.each(brokers, lambda b: view.runtime(b.addr))
    out: list[Finding] = []
    for b, table in tables.items():
        behind = _number(table, "dispatchBehindBytes")
        if behind is not None and behind >= view.limits.dispatch_bytes:
            out.append(
                Finding(
                    "dispatch-lag",
                    Severity.WARNING,
                    f"broker {b.name}",
                    f"{behind / MIB:.1f} MiB of commit log not yet in the consume queues",
                    {"addr": b.addr, "dispatchBehindBytes": int(behind)},
                    "consumers do not see messages that were stored: delivery lags behind sends",
                    f"mqadmin brokerStatus -b {b.addr}",
                )
            )
    return out


async def slave_behind(view: ClusterView) -> list[Finding]:
    brokers = await view.brokers()
    tables, _ = await view.each(brokers, lambda b: view.runtime(b.addr))
    masters = {b.name: t for b, t in tables.items() if b.master}
    out: list[Finding] = []
    for b, table in tables.items():
        master = masters.get(b.name)
        if b.master or master is None:
            continue
        m, s = _number(master, "commitLogMaxOffset"), _number(table, "commitLogMaxOffset")
        if m is None or s is None or m - s < view.limits.slave_bytes:
            continue
        out.append(
            Finding(
                "slave-behind",
                Severity.WARNING,
                f"broker {b.name}",
                f"slave {b.broker_id} ({b.addr}) is {(m - s) / MIB:.1f} MiB behind its master",
                {"addr": b.addr, "brokerId": b.broker_id, "behindBytes": int(m - s)},
                "a master lost now loses what the slave has not copied; sync sends wait or fail",
                f"mqadmin haStatus -b {b.addr}",
            )
        )
    return out


def _acl_on(config: dict[str, str]) -> bool:
    return any(config.get(k, "false").lower() == "true" for k in ("aclEnable", "authenticationEnabled"))


async def acl_differs(view: ClusterView) -> list[Finding]:
    masters = await view.masters()
    configs, _ = await view.each(masters, lambda b: view.broker_config(b.addr))
    by_cluster: dict[str, dict[BrokerRef, bool]] = {}
    for b, config in configs.items():
        by_cluster.setdefault(b.cluster, {})[b] = _acl_on(config)
    out: list[Finding] = []
    for cluster, on in sorted(by_cluster.items()):
        with_acl = sorted(b.name for b, v in on.items() if v)
        if not with_acl:
            continue
        for b in sorted((b for b, v in on.items() if not v), key=lambda b: b.name):
            out.append(
                Finding(
                    "acl-differs",
                    Severity.CRITICAL,
                    f"broker {b.name}",
                    f"ACL is off while {len(with_acl)} other brokers of {cluster} have it on",
                    {"addr": b.addr, "aclOn": with_acl},
                    "anyone reaches this broker's topics without the keys the others require",
                    f"mqadmin getBrokerConfig -b {b.addr}",
                )
            )
    return out


_RUNTIME = re.compile(r"\[ ([\d,]+) days, ([\d,]+) hours, ([\d,]+) minutes, ([\d,]+) seconds \]")


def broker_clock_ms(table: dict[str, str]) -> tuple[int, int] | None:
    """The broker's own clock when it made its runtime table, as the earliest and latest epoch ms it
    can have been: ``bootTimestamp`` plus ``runtime``, which the broker computes from its clock and
    writes in whole seconds (Java's ``StoreStatsService``, a ``MessageFormat`` with grouping commas)."""
    m = _RUNTIME.fullmatch((table.get("runtime") or "").strip())
    boot = (table.get("bootTimestamp") or "").strip()
    if m is None or not boot.isdigit():
        return None
    days, hours, minutes, seconds = (int(g.replace(",", "")) for g in m.groups())
    earliest = int(boot) + (((days * 24 + hours) * 60 + minutes) * 60 + seconds) * 1000
    return earliest, earliest + 999


def clock_skew_s(broker_ms: tuple[int, int], local_s: tuple[float, float]) -> float:
    """How far the broker's clock is from this one at the least (seconds, signed; 0 when the two
    brackets overlap): the broker read its clock somewhere between ``local_s``'s two readings."""
    ahead = broker_ms[0] / 1000 - local_s[1]
    behind = broker_ms[1] / 1000 - local_s[0]
    if ahead > 0:
        return ahead
    if behind < 0:
        return behind
    return 0.0


async def clock_skew(view: ClusterView) -> list[Finding]:
    brokers = await view.brokers()
    tables, _ = await view.each(brokers, lambda b: view.runtime(b.addr))
    out: list[Finding] = []
    for b, table in tables.items():
        clock, read_at = broker_clock_ms(table), view.runtime_read_at.get(b.addr)
        if clock is None or read_at is None:
            continue
        skew = clock_skew_s(clock, read_at)
        if abs(skew) <= view.limits.clock_skew:
            continue
        out.append(
            Finding(
                "clock-skew",
                Severity.WARNING,
                f"broker {b.name}",
                f"{b.addr}'s clock is at least {abs(skew):.1f} s {'ahead of' if skew > 0 else 'behind'} "
                "this machine's",
                {
                    "addr": b.addr,
                    "skewSeconds": round(skew, 3),
                    "brokerClockMs": clock[0],
                    "localClockMs": round(read_at[0] * 1000),
                    "roundTripMs": round((read_at[1] - read_at[0]) * 1000),
                },
                "store times drive delay levels, queries and resets by time and consumers' lag alerts: a "
                "skewed broker answers them for the wrong moment (its bootTimestamp and runtime show it; "
                "check time sync on that host)",
                f"mqadmin brokerStatus -b {b.addr}",
            )
        )
    return out


DEFAULT_KEYS = (("RocketMQ", "12345678"), ("rocketmq2", "12345678"))
"""The accounts of the stock ``conf/plain_acl.yml`` (and the tools' ``tools.yml``), as documented."""


async def default_keys(view: ClusterView) -> list[Finding]:
    masters = await view.masters()
    configs, _ = await view.each(masters, lambda b: view.broker_config(b.addr))
    guarded = [b for b, config in configs.items() if _acl_on(config)]
    out: list[Finding] = []
    for access_key, secret_key in DEFAULT_KEYS if guarded else ():
        keys = Credentials(access_key, secret_key)
        async with MQAdmin(dataclasses.replace(view.admin.core.settings, credentials=keys)) as probe:
            answered, refused = await view.each(
                guarded, lambda b: probe.broker.fetch_broker_runtime_stats(b.addr)
            )
        known = {b: "it answers them" for b in answered}
        for b, e in refused.items():
            if isinstance(e, RemoteCommandError) and not _unknown_keys(e.remark or ""):
                known[b] = f"it knows them ({(e.remark or '').strip()[:80]})"
        out += [
            Finding(
                "default-keys",
                Severity.CRITICAL,
                f"broker {b.name}",
                f"has the documented default account {access_key}: {how}",
                {"addr": b.addr, "accessKey": access_key},
                "anyone who has read the RocketMQ documentation holds these keys",
                f"mqadmin deleteAclConfig -b {b.addr} -a {access_key}",
            )
            for b, how in sorted(known.items(), key=lambda kv: kv[0].name)
        ]
    return out


def _unknown_keys(remark: str) -> bool:
    """Whether a refusal says the keys are wrong (an unknown account, a bad signature: Java's words,
    4.9's and 5.x's), rather than that a known account lacks a permission."""
    text = remark.lower()
    return any(w in text for w in ("no acl config", "signature", "not found", "not exist"))


CHECKS = (
    Check("broker-unreachable", "a broker the name servers list that does not answer", broker_unreachable),
    Check(
        "disk-near-reclaim",
        "a commit log disk near the broker's diskMaxUsedSpaceRatio (warning) or at the ratio where it "
        "refuses writes (critical)",
        disk_near_reclaim,
    ),
    Check("dispatch-lag", "a broker whose consume queues lag behind its commit log", dispatch_lag),
    Check("slave-behind", "a slave whose commit log is far behind its master's", slave_behind),
    Check(
        "clock-skew",
        "a broker whose clock differs from this machine's by more than clock_skew seconds",
        clock_skew,
    ),
    Check(
        "acl-differs",
        "a master with ACL off in a cluster where other masters have it on",
        acl_differs,
    ),
    Check(
        "default-keys",
        "a master with ACL on that accepts the documented default keys (RocketMQ or rocketmq2, 12345678)",
        default_keys,
    ),
)
