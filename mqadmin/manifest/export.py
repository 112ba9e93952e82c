"""A running cluster written as a manifest that re-applies to the same state.

Every field of every topic and group is written (not only those off the defaults): a manifest is
then an exact statement, and a diff against another cluster shows every difference. A topic or group
that is not on every broker names its ``brokers``; one whose settings differ between brokers writes
the first broker's as its fields and the others' differences under ``perBroker``. Passwords are
never written: each user's reads ``secretFrom: {env: MQADMIN_PASSWORD_<USER>}``, each ACL 1.0
account's ``secretFrom: {env: MQADMIN_SECRET_KEY_<ACCESS KEY>}``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import yaml

from mqadmin.manifest.model import ATTR, group_fields_of, topic_fields_of
from mqadmin.manifest.schema import KIND
from mqadmin.manifest.state import ClusterState

__all__ = ["manifest_document", "password_variable", "secret_key_variable", "to_yaml"]

_NOT_VAR = re.compile(r"[^A-Z0-9_]")


def password_variable(user: str) -> str:
    """The environment variable an exported manifest reads a user's password from."""
    return "MQADMIN_PASSWORD_" + _NOT_VAR.sub("_", user.upper())


def secret_key_variable(access_key: str) -> str:
    """The environment variable an exported manifest reads an ACL 1.0 account's secret key from."""
    return "MQADMIN_SECRET_KEY_" + _NOT_VAR.sub("_", access_key.upper())


def _document_fields(fields: dict[str, Any]) -> dict[str, Any]:
    out = {k: v for k, v in fields.items() if not k.startswith(ATTR)}
    attrs = {k.removeprefix(ATTR): v for k, v in fields.items() if k.startswith(ATTR)}
    if "message.type" in attrs:
        out["messageType"] = attrs.pop("message.type")
    if attrs:
        out["attributes"] = attrs
    return out


def _resources(per_broker: dict[str, dict[str, dict[str, Any]]], all_brokers: list[str]) -> dict[str, Any]:
    """name -> its document, from broker -> name -> fields."""
    names = sorted({n for table in per_broker.values() for n in table})
    out: dict[str, Any] = {}
    for name in names:
        holders = [b for b in all_brokers if name in per_broker.get(b, {})]
        base = per_broker[holders[0]][name]
        doc = _document_fields(base)
        if holders != all_brokers:
            doc["brokers"] = holders
        differ: dict[str, Any] = {}
        for b in holders[1:]:
            fields = per_broker[b][name]
            delta = {k: v for k, v in fields.items() if base.get(k) != v}
            if delta:
                differ[b] = _document_fields(delta)
        if differ:
            doc["perBroker"] = differ
        out[name] = doc
    return out


def manifest_document(
    state: ClusterState, *, include_system: bool = False, config_keys: Sequence[str] = ()
) -> dict[str, Any]:
    """The manifest of ``state`` as a document (``apiVersion`` first)."""
    brokers = list(state.brokers)
    doc: dict[str, Any] = {
        "apiVersion": "mqadmin/v1",
        "kind": KIND,
        "cluster": state.cluster,
        "mode": state.mode,
    }
    topics = {
        b.name: {t: topic_fields_of(c) for t, c in b.user_topics(include_system).items()}
        for b in state.brokers.values()
    }
    doc["topics"] = _resources(topics, brokers)
    groups = {
        b.name: {g: group_fields_of(c) for g, c in b.user_groups(include_system).items()}
        for b in state.brokers.values()
    }
    doc["groups"] = _resources(groups, brokers)
    ours = {t for table in topics.values() for t in table}
    orders = {t: c for t, c in sorted(state.order_configs.items()) if t in ours}
    if orders:
        doc["orderConfigs"] = orders
    if config_keys:
        first = next(iter(state.brokers.values()), None)
        config = (first.config or {}) if first is not None else {}
        doc["brokerConfig"] = {k: config[k] for k in config_keys if k in config}
    users: dict[str, Any] = {}
    acls: dict[str, list[dict[str, Any]]] = {}
    for b in state.brokers.values():
        for name, info in sorted((b.users or {}).items()):
            users.setdefault(
                name,
                {
                    "password": {"secretFrom": {"env": password_variable(name)}},
                    "userType": info.user_type or "Normal",
                    "userStatus": info.user_status or "enable",
                },
            )
        for (subject, resource), e in sorted((b.acls or {}).items()):
            entries = acls.setdefault(subject, [])
            if any(x["resource"] == resource for x in entries):
                continue
            entry: dict[str, Any] = {"resource": resource, "actions": list(e.actions)}
            if e.source_ips:
                entry["sourceIps"] = list(e.source_ips)
            entry["decision"] = e.decision
            entries.append(entry)
    if users:
        doc["users"] = users
    if acls:
        doc["acls"] = acls
    acl1 = next((b.acl1 for b in state.brokers.values() if b.acl1 is not None), None)
    if acl1 is not None:
        from mqadmin.manifest.plan import acl1_fields_of

        accounts = {
            a.access_key: {
                "secretKey": {"secretFrom": {"env": secret_key_variable(a.access_key)}},
                **acl1_fields_of(a),
            }
            for a in sorted(acl1.plain_access_configs, key=lambda a: a.access_key)
        }
        doc["acl1"] = {"globalWhiteAddrs": list(acl1.global_white_addrs), "accounts": accounts}
    return doc


def to_yaml(docs: Sequence[dict[str, Any]]) -> str:
    """Documents as YAML, ``---`` between them, members in their order."""
    return yaml.dump_all(
        list(docs), Dumper=yaml.SafeDumper, sort_keys=False, allow_unicode=True, default_flow_style=False
    )
