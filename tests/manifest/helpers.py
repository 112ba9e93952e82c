"""Manifests held against our servers in-process: the plan, an apply, and the requests they sent."""

from __future__ import annotations

from collections import Counter
from typing import Any

from mqadmin.admin.api import MQAdmin
from mqadmin.manifest.apply import ApplyReport, apply_plan
from mqadmin.manifest.export import manifest_document, to_yaml
from mqadmin.manifest.loader import parse_manifests
from mqadmin.manifest.plan import Plan, make_plan
from mqadmin.manifest.state import read_state
from tests.manifest.conftest import WRITES, counted, run_admin

HEAD = "apiVersion: mqadmin/v1\nkind: ClusterManifest\ncluster: DefaultCluster\n"


async def _plan(admin: MQAdmin, text: str, env: dict[str, str] | None, flags: dict[str, Any]) -> Plan:
    (m,) = parse_manifests([("test.yaml", text)], env or {})
    auth = bool(m.users or m.acls) or flags.get("prune", False)
    acl1 = m.acl1_white is not None or bool(m.acl1_accounts) or flags.get("prune", False)
    state = await read_state(admin, m.cluster, config=bool(m.broker_config), auth=auth, acl1=acl1)
    creds = admin.core.settings.credentials
    keep = frozenset({creds.access_key}) if creds is not None else frozenset()  # as the commands keep it
    return make_plan(m, state, keep_users=keep, **flags)


def plan(ns: str, text: str, env: dict[str, str] | None = None, **flags: Any) -> Plan:
    async def go(admin: MQAdmin) -> Plan:
        return await _plan(admin, text, env, flags)

    return run_admin(ns, go, **_settings(flags))


def apply(
    ns: str, text: str, env: dict[str, str] | None = None, **flags: Any
) -> tuple[Plan, ApplyReport, Counter[int]]:
    """Plan and apply; the requests of both, by code."""

    async def go(admin: MQAdmin) -> tuple[Plan, ApplyReport, Counter[int]]:
        sent = counted(admin)
        p = await _plan(admin, text, env, flags)
        return p, await apply_plan(admin, p), sent

    return run_admin(ns, go, **_settings(flags))


def _settings(flags: dict[str, Any]) -> dict[str, Any]:
    creds = flags.pop("credentials", None)
    return {} if creds is None else {"credentials": creds}


def writes(sent: Counter[int]) -> dict[int, int]:
    return {code: n for code, n in sent.items() if code in WRITES}


def export(ns: str, cluster: str = "DefaultCluster", **settings: Any) -> str:
    async def go(admin: MQAdmin) -> str:
        state = await read_state(admin, cluster, auth=True, acl1=True)
        return to_yaml([manifest_document(state)])

    return run_admin(ns, go, **settings)


def changes(p: Plan) -> set[tuple[object, ...]]:
    """Each change as (kind, name, action, broker, its new values), lists as tuples."""

    def frozen(v: Any) -> Any:
        return tuple(v) if isinstance(v, list) else v

    return {
        (c.kind, c.name, c.action, c.broker, tuple(sorted((k, frozen(v)) for k, v in c.after.items())))
        for c in p.changes
    }
