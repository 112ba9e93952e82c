"""The diff of a manifest and a cluster, as the plan an apply carries out: one :class:`Change` per
write, in the order they are safe to make.

Topics come first (a group's consumers need them), then groups, order configs, broker configs, users,
and the ACL entries that name them; deletions, only with ``prune``, run after every other change and
backwards (a policy goes before its user, a group before its topics). A change that would shrink a
topic's queues is *blocked* without ``allow_shrink``: queues taken away strand the messages on them.
What the target cannot keep (5.x attributes on a 4.x broker, ACL 2.0 on 4.x) is listed in ``notes``,
never dropped silently; what the cluster has and the manifest does not name is listed in
``unmanaged`` when it is not pruned.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from mqadmin.manifest.model import (
    ATTR,
    FIVE_X_GROUP_FIELDS,
    GROUP_FIELDS,
    TOPIC_FIELDS,
    AclEntry,
    ClusterManifest,
    Declared,
    group_fields_of,
    topic_fields_of,
)
from mqadmin.manifest.state import BrokerState, ClusterState

__all__ = ["Change", "Plan", "PlanError", "make_plan"]

ORDER = ("topic", "group", "orderConfig", "brokerConfig", "user", "acl", "acl1WhiteList", "acl1Account")
"""Kinds in the order their creations and updates are made (deletions: backwards)."""

FIVE_X_GROUP_DEFAULTS: dict[str, Any] = {"orderly": False, "consumeTimeoutMinute": 15}
SECRET = "password"
SECRET_KEY = "secretKey"
_NONE = object()


class PlanError(Exception):
    """The manifest cannot be held against this cluster (it names a broker the cluster lacks)."""


@dataclass(frozen=True, slots=True)
class Change:
    """One write: ``action`` (create, update, delete) of ``kind`` ``name`` on ``broker`` (None: the
    name servers); ``before``/``after`` are the fields that differ (a secret's value is never kept
    here: ``password`` reads ``(set)``); ``payload`` is what the write sends; ``blocked`` says why
    apply refuses it without a flag."""

    kind: str
    name: str
    action: str
    broker: str | None = None
    addr: str | None = None
    before: Mapping[str, Any] = field(default_factory=dict)
    after: Mapping[str, Any] = field(default_factory=dict)
    payload: Any = None
    blocked: str | None = None

    @property
    def where(self) -> str:
        return f" on {self.broker}" if self.broker else ""

    def line(self) -> str:
        sign = {"create": "+", "update": "~", "delete": "-"}[self.action]
        head = f"{sign} {self.kind} {self.name}{self.where}"
        if self.action == "create":
            body = " ".join(f"{k}={_shown(v)}" for k, v in self.after.items())
        elif self.action == "update":
            body = ", ".join(
                f"{k} {_shown(self.before.get(k))} -> {_shown(v)}" for k, v in self.after.items()
            )
        else:
            body = ""
        text = f"{head}: {body}" if body else head
        return f"{text} (refused: {self.blocked})" if self.blocked else text

    def as_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "name": self.name,
            "action": self.action,
            "broker": self.broker,
            "addr": self.addr,
            "before": dict(self.before),
            "after": dict(self.after),
            "blocked": self.blocked,
        }


def _shown(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    return "(none)" if v is None else str(v)


@dataclass(slots=True)
class Plan:
    """Every change one cluster needs, and what cannot be changed or is left alone."""

    cluster: str
    mode: str
    brokers: list[str]
    changes: list[Change] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    unmanaged: list[str] = field(default_factory=list)

    @property
    def blocked(self) -> list[Change]:
        return [c for c in self.changes if c.blocked]

    def text(self) -> str:
        out = [f"cluster {self.cluster} ({self.mode}, brokers {', '.join(self.brokers) or 'none'})\n"]
        out += [f"  {c.line()}\n" for c in self.changes]
        out += [f"  cannot carry over: {n}\n" for n in self.notes]
        if self.unmanaged:
            shown = ", ".join(self.unmanaged[:10]) + (
                f" and {len(self.unmanaged) - 10} more" if len(self.unmanaged) > 10 else ""
            )
            out.append(f"  not in the manifest, left alone (--prune deletes): {shown}\n")
        out.append(
            f"  {len(self.changes)} change(s)"
            + (f", {len(self.blocked)} refused" if self.blocked else "")
            + "\n"
        )
        return "".join(out)

    def as_json(self) -> dict[str, Any]:
        return {
            "cluster": self.cluster,
            "mode": self.mode,
            "brokerNames": list(self.brokers),
            "changes": [c.as_json() for c in self.changes],
            "cannotCarryOver": list(self.notes),
            "unmanaged": list(self.unmanaged),
        }


# ------------------------------------------------------------------------------------------ making


def make_plan(
    manifest: ClusterManifest,
    state: ClusterState,
    *,
    prune: bool = False,
    allow_shrink: bool = False,
    include_system: bool = False,
    keep_users: frozenset[str] = frozenset(),
) -> Plan:
    """The changes that make ``state`` what ``manifest`` declares. ``keep_users`` (ACL 2.0 users and
    ACL 1.0 access keys) are never pruned: the admin signs as one, pruning it would lock it out."""
    plan = Plan(manifest.cluster, state.mode, list(state.brokers))
    for declared in [*manifest.topics.values(), *manifest.groups.values()]:
        for name in [*(declared.brokers or ()), *declared.per_broker]:
            if name not in state.brokers:
                raise PlanError(
                    f"{declared.origin}: {declared.name} names broker {name}, which cluster {state.cluster} "
                    f"does not have (it has {', '.join(state.brokers) or 'none'})"
                )
    creates: list[Change] = []
    deletes: list[Change] = []
    for b in state.brokers.values():
        _topics(plan, manifest, b, creates, deletes, prune, allow_shrink, include_system)
    for b in state.brokers.values():
        _groups(plan, manifest, b, creates, deletes, prune, include_system)
    _order_configs(plan, manifest, state, creates, deletes, prune)
    for b in state.brokers.values():
        _broker_config(manifest, b, creates)
    for b in state.brokers.values():
        _users(plan, manifest, b, creates, deletes, prune, keep_users)
    for b in state.brokers.values():
        _acls(plan, manifest, b, creates, deletes, prune)
    for b in state.brokers.values():
        _acl1(plan, manifest, b, creates, deletes, prune, keep_users)
    _topic_routes(state, deletes)
    rank = {k: i for i, k in enumerate(ORDER)}
    creates.sort(key=lambda c: rank[c.kind])
    deletes.sort(key=lambda c: -rank[c.kind])
    plan.changes = creates + deletes
    return plan


def _wanted_on(declared: Declared, b: BrokerState) -> bool:
    return declared.brokers is None or b.name in declared.brokers


def _diff(wanted: Mapping[str, Any], actual: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    before: dict[str, Any] = {}
    after: dict[str, Any] = {}
    for k, v in wanted.items():
        if actual.get(k) != v:
            before[k] = actual.get(k)
            after[k] = v
    return before, after


def _topics(
    plan: Plan,
    m: ClusterManifest,
    b: BrokerState,
    creates: list[Change],
    deletes: list[Change],
    prune: bool,
    allow_shrink: bool,
    include_system: bool,
) -> None:
    from mqadmin.protocol.bodies.topic import TopicConfig

    for name, declared in m.topics.items():
        if not _wanted_on(declared, b):
            continue
        wanted = declared.on(b.name)
        attrs = {k: v for k, v in wanted.items() if k.startswith(ATTR)}
        if attrs and not b.five_x:
            plan.notes.append(
                f"topic {name} on {b.name}: {_attr_text(attrs)} (a 4.x broker keeps no topic attributes)"
            )
            wanted = {k: v for k, v in wanted.items() if k not in attrs}
            attrs = {}
        current = b.topics.get(name)
        if current is None:
            config = TopicConfig(
                topic_name=name, **{a: wanted[k] for k, a in TOPIC_FIELDS.items() if k in wanted}
            )
            config.attributes = _plus(attrs) if b.five_x and attrs else None
            after = {**topic_fields_of(TopicConfig(topic_name=name)), **wanted}
            after = {k: v for k, v in after.items() if not k.startswith(ATTR) or k in wanted}
            creates.append(Change("topic", name, "create", b.name, b.addr, {}, after, config))
            continue
        actual = topic_fields_of(current)
        if current.attributes is None and attrs:  # the broker says nothing of attributes
            plan.notes.append(
                f"topic {name} on {b.name}: {_attr_text(attrs)} (the broker reports no attributes)"
            )
            wanted = {k: v for k, v in wanted.items() if k not in attrs}
        before, after = _diff(wanted, actual)
        if not after:
            continue
        config = _topic_copy(current, {TOPIC_FIELDS[k]: v for k, v in after.items() if k in TOPIC_FIELDS})
        changed_attrs = {k: v for k, v in after.items() if k.startswith(ATTR)}
        config.attributes = _plus(changed_attrs) if changed_attrs else None
        blocked = None
        shrunk = [k for k in ("readQueues", "writeQueues") if k in after and after[k] < (before[k] or 0)]
        if shrunk and not allow_shrink:
            blocked = "fewer queues strand the messages on the ones taken away: --allow-shrink"
        creates.append(Change("topic", name, "update", b.name, b.addr, before, after, config, blocked))
    for name in sorted(b.user_topics(include_system)):
        kept = m.topics.get(name)
        if kept is not None and _wanted_on(kept, b):
            continue
        if prune:
            deletes.append(Change("topic", name, "delete", b.name, b.addr))
        else:
            plan.unmanaged.append(f"topic {name} on {b.name}")


def _topic_copy(tc: Any, changes: dict[str, Any]) -> Any:
    from mqadmin.protocol.bodies.topic import TopicConfig

    names = (
        "topic_name",
        "read_queue_nums",
        "write_queue_nums",
        "perm",
        "topic_filter_type",
        "topic_sys_flag",
        "order",
    )
    return TopicConfig(**{n: changes.get(n, getattr(tc, n)) for n in names})


def _plus(attrs: Mapping[str, Any]) -> dict[str, str]:
    """Attributes as a 5.x request adds them (``+key``)."""
    return {"+" + k.removeprefix(ATTR): str(v) for k, v in attrs.items()}


def _attr_text(attrs: Mapping[str, Any]) -> str:
    return ", ".join(f"{k.removeprefix(ATTR)}={v}" for k, v in attrs.items())


_GROUP_ARGS = (
    "group_name",
    "consume_enable",
    "consume_from_min_enable",
    "consume_broadcast_enable",
    "retry_queue_nums",
    "retry_max_times",
    "broker_id",
    "which_broker_when_consume_slowly",
    "notify_consumer_ids_changed_enable",
    "consume_message_orderly",
    "group_retry_policy",
    "group_sys_flag",
    "consume_timeout_minute",
    "subscription_data_set",
    "attributes",
)


def _groups(
    plan: Plan,
    m: ClusterManifest,
    b: BrokerState,
    creates: list[Change],
    deletes: list[Change],
    prune: bool,
    include_system: bool,
) -> None:
    from mqadmin.protocol.bodies.group import SubscriptionGroupConfig

    for name, declared in m.groups.items():
        if not _wanted_on(declared, b):
            continue
        wanted = declared.on(b.name)
        if not b.five_x:
            lost = {k: v for k, v in wanted.items() if k.startswith(ATTR) or k in FIVE_X_GROUP_FIELDS}
            wanted = {k: v for k, v in wanted.items() if k not in lost}
            # a 5.x setting at its default is not lost on 4.x
            lost = {k: v for k, v in lost.items() if FIVE_X_GROUP_DEFAULTS.get(k, _NONE) != v}
            if lost:
                shown = ", ".join(f"{k.removeprefix(ATTR)}={_shown(v)}" for k, v in lost.items())
                plan.notes.append(
                    f"group {name} on {b.name}: {shown} (a 4.x broker keeps only the 4.x group settings)"
                )
                wanted = {k: v for k, v in wanted.items() if k not in lost}
        attrs = {k: v for k, v in wanted.items() if k.startswith(ATTR)}
        plain = {GROUP_FIELDS[k]: v for k, v in wanted.items() if k in GROUP_FIELDS}
        current = b.groups.get(name)
        if current is None:
            config = SubscriptionGroupConfig(group_name=name, **plain)
            if attrs:
                config.attributes = _plus(attrs)
            defaults = group_fields_of(SubscriptionGroupConfig(group_name=name))
            if b.five_x:
                defaults.update(FIVE_X_GROUP_DEFAULTS)
            after = {**defaults, **wanted}
            creates.append(Change("group", name, "create", b.name, b.addr, {}, after, config))
            continue
        actual = group_fields_of(current)
        if b.five_x:
            actual = {**FIVE_X_GROUP_DEFAULTS, **actual}
        before, after = _diff(wanted, actual)
        if not after:
            continue
        args = {n: getattr(current, n) for n in _GROUP_ARGS}
        args.update({GROUP_FIELDS[k]: v for k, v in after.items() if k in GROUP_FIELDS})
        changed_attrs = {k: v for k, v in after.items() if k.startswith(ATTR)}
        args["attributes"] = (
            _plus(changed_attrs) if changed_attrs else (None if current.attributes is None else {})
        )
        config = SubscriptionGroupConfig(**args)
        creates.append(Change("group", name, "update", b.name, b.addr, before, after, config))
    for name in sorted(b.user_groups(include_system)):
        kept = m.groups.get(name)
        if kept is not None and _wanted_on(kept, b):
            continue
        if prune:
            deletes.append(Change("group", name, "delete", b.name, b.addr))
        else:
            plan.unmanaged.append(f"group {name} on {b.name}")


def _conf_items(conf: str | None) -> set[str]:
    return {i for i in (conf or "").split(";") if i}


def _order_configs(
    plan: Plan,
    m: ClusterManifest,
    state: ClusterState,
    creates: list[Change],
    deletes: list[Change],
    prune: bool,
) -> None:
    for topic, conf in m.order_configs.items():
        old = state.order_configs.get(topic)
        if _conf_items(old) == _conf_items(conf):
            continue
        action = "create" if old is None else "update"
        before = {} if old is None else {"conf": old}
        creates.append(Change("orderConfig", topic, action, None, None, before, {"conf": conf}, conf))
    # the name servers' order configs are shared by every cluster: only this cluster's topics count
    ours = {t for b in state.brokers.values() for t in b.user_topics()}
    for topic in sorted(state.order_configs):
        if topic in m.order_configs or topic not in ours:
            continue
        if prune:
            deletes.append(
                Change("orderConfig", topic, "delete", None, None, {"conf": state.order_configs[topic]})
            )
        else:
            plan.unmanaged.append(f"orderConfig {topic}")


def _broker_config(m: ClusterManifest, b: BrokerState, creates: list[Change]) -> None:
    if not m.broker_config:
        return
    actual = b.config or {}
    before, after = _diff(m.broker_config, actual)
    if after:
        creates.append(Change("brokerConfig", b.name, "update", b.name, b.addr, before, after, dict(after)))


def _users(
    plan: Plan,
    m: ClusterManifest,
    b: BrokerState,
    creates: list[Change],
    deletes: list[Change],
    prune: bool,
    keep: frozenset[str],
) -> None:
    from mqadmin.protocol.bodies.auth import UserInfo

    if not b.five_x:
        if m.users:
            plan.notes.append(f"users {', '.join(m.users)} on {b.name} (a 4.x broker has no ACL 2.0 users)")
        return
    if b.users is None:
        if m.users and b.auth_refusal:
            plan.notes.append(f"users {', '.join(m.users)} on {b.name} ({b.auth_refusal})")
        return
    for name, spec in m.users.items():
        current = b.users.get(name)
        wanted: dict[str, Any] = {}
        if spec.user_type is not None:
            wanted["userType"] = spec.user_type
        if spec.user_status is not None:
            wanted["userStatus"] = spec.user_status
        info = UserInfo(name, spec.password, spec.user_type, spec.user_status)
        if current is None:
            after = {**wanted, **({SECRET: "(set)"} if spec.password is not None else {})}
            blocked = (
                None if spec.password else "a new user needs a password (password: ${VAR} or secretFrom)"
            )
            creates.append(Change("user", name, "create", b.name, b.addr, {}, after, info, blocked))
            continue
        actual = {"userType": current.user_type, "userStatus": current.user_status}
        before, after = {}, {}
        for k, v in wanted.items():
            if (actual.get(k) or "").lower() != v.lower():
                before[k], after[k] = actual.get(k), v
        if spec.password is not None and current.password is not None and current.password != spec.password:
            before[SECRET], after[SECRET] = "(set)", "(changed)"
        if after:
            creates.append(Change("user", name, "update", b.name, b.addr, before, after, info))
    for name in sorted(b.users):
        if name in m.users or name in keep:
            continue
        if prune:
            deletes.append(Change("user", name, "delete", b.name, b.addr))
        else:
            plan.unmanaged.append(f"user {name} on {b.name}")


def _acls(
    plan: Plan, m: ClusterManifest, b: BrokerState, creates: list[Change], deletes: list[Change], prune: bool
) -> None:
    from mqadmin.protocol.bodies.auth import AclInfo

    if not b.five_x:
        if m.acls:
            plan.notes.append(
                f"{len(m.acls)} ACL 2.0 entries on {b.name} (a 4.x broker has no ACL 2.0 policies)"
            )
        return
    if b.acls is None:
        if m.acls and b.auth_refusal:
            plan.notes.append(f"{len(m.acls)} ACL 2.0 entries on {b.name} ({b.auth_refusal})")
        return
    subjects = {s for s, _ in b.acls}
    for key, entry in m.acls.items():
        current = b.acls.get(key)
        if current is not None and current.same(entry):
            continue
        info = AclInfo.of(
            entry.subject,
            [entry.resource],
            list(entry.actions),
            list(entry.source_ips) or None,
            entry.decision,
        )
        after = _acl_fields(entry)
        name = f"{entry.subject} {entry.resource}"
        if current is None:
            action = "update" if entry.subject in subjects else "create"
            subjects.add(entry.subject)
            creates.append(Change("acl", name, action, b.name, b.addr, {}, after, info))
        else:
            before, changed = _diff(after, _acl_fields(current))
            creates.append(Change("acl", name, "update", b.name, b.addr, before, changed, info))
    for key in sorted(b.acls):
        if key in m.acls:
            continue
        subject, resource = key
        if prune:
            deletes.append(Change("acl", f"{subject} {resource}", "delete", b.name, b.addr, payload=key))
        else:
            plan.unmanaged.append(f"acl {subject} {resource} on {b.name}")


def _acl_fields(e: AclEntry) -> dict[str, Any]:
    return {
        "actions": ",".join(sorted(a.capitalize() for a in e.actions)),
        "sourceIps": ",".join(sorted(e.source_ips)),
        "decision": e.decision.capitalize(),
    }


_ACL1_FIELDS = {
    "admin": "admin",
    "whiteRemoteAddress": "white_remote_address",
    "defaultTopicPerm": "default_topic_perm",
    "defaultGroupPerm": "default_group_perm",
    "topicPerms": "topic_perms",
    "groupPerms": "group_perms",
}
"""Manifest field -> ``PlainAccessConfig`` attribute."""


def acl1_fields_of(account: Any) -> dict[str, Any]:
    """The manifest fields of an ACL 1.0 account as a broker holds it (unset ones left out)."""
    out = {k: getattr(account, a) for k, a in _ACL1_FIELDS.items() if getattr(account, a) is not None}
    return out


def _acl1_same(k: str, wanted: Any, actual: Any) -> bool:
    if k in ("topicPerms", "groupPerms"):
        return set(wanted or ()) == set(actual or ())
    return bool(wanted == actual)


def _acl1(
    plan: Plan,
    m: ClusterManifest,
    b: BrokerState,
    creates: list[Change],
    deletes: list[Change],
    prune: bool,
    keep: frozenset[str],
) -> None:
    from mqadmin.admin.acl import PlainAccessConfig

    if m.acl1_white is None and not m.acl1_accounts and not (prune and b.acl1 is not None):
        return
    if b.acl1 is None:
        plan.notes.append(f"ACL 1.0 accounts and white addresses on {b.name} (ACL 1.0 is not on there)")
        return
    if m.acl1_white is not None and set(m.acl1_white) != set(b.acl1.global_white_addrs):
        old, new = ",".join(b.acl1.global_white_addrs), ",".join(m.acl1_white)
        was, now = {"globalWhiteAddrs": old}, {"globalWhiteAddrs": new}
        creates.append(Change("acl1WhiteList", "globalWhiteAddrs", "update", b.name, b.addr, was, now, new))
    held = {a.access_key: a for a in b.acl1.plain_access_configs}
    for ak, spec in m.acl1_accounts.items():
        current = held.get(ak)
        actual = {} if current is None else acl1_fields_of(current)
        before: dict[str, Any] = {}
        after: dict[str, Any] = {}
        for k, v in spec.fields.items():
            if current is None or not _acl1_same(k, v, actual.get(k)):
                before[k], after[k] = actual.get(k), v
        if spec.secret_key is not None and (current is None or current.secret_key != spec.secret_key):
            before[SECRET_KEY] = None if current is None else "(set)"
            after[SECRET_KEY] = "(set)" if current is None else "(changed)"
        if current is not None and not after:
            continue
        merged: dict[str, Any] = {**actual, **spec.fields}
        secret = spec.secret_key if spec.secret_key is not None else (current.secret_key if current else None)
        account = PlainAccessConfig(
            access_key=ak,
            secret_key=secret,
            white_remote_address=merged.get("whiteRemoteAddress"),
            admin=bool(merged.get("admin", False)),
            default_topic_perm=merged.get("defaultTopicPerm"),
            default_group_perm=merged.get("defaultGroupPerm"),
            topic_perms=merged.get("topicPerms"),
            group_perms=merged.get("groupPerms"),
        )
        action = "create" if current is None else "update"
        blocked = None if account.secret_key else "a new account needs a secretKey (${VAR} or secretFrom)"
        creates.append(Change("acl1Account", ak, action, b.name, b.addr, before, after, account, blocked))
    for ak in sorted(held):
        if ak in m.acl1_accounts or ak in keep:
            continue
        if prune:
            deletes.append(Change("acl1Account", ak, "delete", b.name, b.addr))
        else:
            plan.unmanaged.append(f"acl1Account {ak} on {b.name}")


def _topic_routes(state: ClusterState, deletes: list[Change]) -> None:
    """A topic pruned from every broker of the cluster leaves the name servers' routes too."""
    gone: dict[str, set[str]] = {}
    for c in deletes:
        if c.kind == "topic" and c.broker is not None:
            gone.setdefault(c.name, set()).add(c.broker)
    for topic, brokers in gone.items():
        holders = {b.name for b in state.brokers.values() if topic in b.topics}
        if holders <= brokers:
            deletes.append(Change("topic", topic, "delete", None, None, payload=state.cluster))
