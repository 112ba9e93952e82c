"""Users and ACLs as the broker keeps them (5.3.3 ``User``, ``Acl``, ``Policy``, ``PolicyEntry``).

The stored JSON is Java's: fastjson of the model objects, enums written as their codes,
``{"password":"..","subjectType":1,"userStatus":1,"userType":2,"username":".."}`` for a user and
``{"policies":[{"entries":[{"actions":[3],"decision":1,"environment":{"sourceIps":[..]},
"resource":{"resourceName":"T","resourcePattern":2,"resourceType":4}}],"policyType":1}],
"subject":{"subjectType":1,"username":".."}}`` for an ACL. The admin requests carry the name forms
(:mod:`mqadmin.protocol.bodies.auth`); :func:`acl_from_info` and :meth:`Acl.info` convert as
``AclConverter`` does, :func:`user_from_info` and :meth:`User.info` as ``UserConverter``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from mqadmin.protocol.bodies import fieldcheck as j
from mqadmin.protocol.bodies.auth import (
    ACTIONS,
    DECISIONS,
    POLICY_TYPES,
    RESOURCE_PATTERNS,
    RESOURCE_TYPES,
    USER_STATUSES,
    USER_TYPES,
    AclInfo,
    PolicyEntryInfo,
    PolicyInfo,
    ResourceKey,
    UserInfo,
    by_name,
    parse_resource,
    parse_subject,
)
from mqadmin.protocol.errors import ProtocolError

__all__ = [
    "CUSTOM",
    "DEFAULT",
    "Acl",
    "Policy",
    "PolicyEntry",
    "User",
    "acl_from_info",
    "subject_key",
    "user_from_info",
]

CUSTOM = "Custom"
DEFAULT = "Default"
SUPER = "Super"
NORMAL = "Normal"
ENABLE = "enable"
DISABLE = "disable"
USER_SUBJECT_TYPE = 1


def subject_key(username: str) -> str:
    """``User.getSubjectKey``."""
    return f"User:{username}"


def _name_of(table: dict[str, int], code: Any, what: str) -> str:
    """The constant a stored code stands for."""
    for name, c in table.items():
        if type(code) is int and c == code:
            return name
    raise ProtocolError(f"{what} {code!r} is not a known code")


def _opt_name(table: dict[str, int], code: Any, what: str) -> str | None:
    return None if code is None else _name_of(table, code, what)


# ------------------------------------------------------------------------------------------- users


@dataclass(slots=True)
class User:
    username: str
    password: str | None = None
    user_type: str | None = None
    user_status: str | None = None

    @property
    def is_super(self) -> bool:
        return self.user_type == SUPER

    def stored(self) -> dict[str, Any]:
        return j.drop_none(
            {
                "password": self.password,
                "subjectType": USER_SUBJECT_TYPE,
                "userStatus": None if self.user_status is None else USER_STATUSES[self.user_status],
                "userType": None if self.user_type is None else USER_TYPES[self.user_type],
                "username": self.username,
            }
        )

    @classmethod
    def from_stored(cls, obj: Any) -> User:
        d = j.obj(obj, "user")
        name = j.opt_str(d.get("username"), "username")
        if name is None:
            raise ProtocolError("a stored user has no username")
        return cls(
            name,
            j.opt_str(d.get("password"), "password"),
            _opt_name(USER_TYPES, d.get("userType"), "userType"),
            _opt_name(USER_STATUSES, d.get("userStatus"), "userStatus"),
        )

    def info(self) -> UserInfo:
        """``UserConverter.convertUser(User)``."""
        return UserInfo(self.username, self.password, self.user_type, self.user_status)


def user_from_info(info: UserInfo) -> User:
    """``UserConverter.convertUser(UserInfo)``: unknown type or status names become null."""
    return User(
        info.username or "",
        info.password,
        by_name(USER_TYPES, info.user_type),
        by_name(USER_STATUSES, info.user_status),
    )


# ------------------------------------------------------------------------------------------- ACLs


@dataclass(slots=True)
class PolicyEntry:
    resource: ResourceKey | None
    actions: list[str]
    source_ips: list[str] | None
    decision: str | None

    def stored(self) -> dict[str, Any]:
        r = self.resource
        assert r is not None and self.decision is not None  # stored entries passed validation
        env = {} if self.source_ips is None else {"sourceIps": self.source_ips}
        return {
            "actions": [ACTIONS[a] for a in self.actions],
            "decision": DECISIONS[self.decision],
            "environment": env,
            "resource": j.drop_none(
                {
                    "resourceName": r.name,
                    "resourcePattern": RESOURCE_PATTERNS[r.pattern],
                    "resourceType": RESOURCE_TYPES[r.type],
                }
            ),
        }

    @classmethod
    def from_stored(cls, obj: Any, what: str) -> PolicyEntry:
        d = j.obj(obj, what)
        res = j.obj(d.get("resource"), f"{what}.resource")
        resource = ResourceKey(
            _name_of(RESOURCE_TYPES, res.get("resourceType"), "resourceType"),
            j.opt_str(res.get("resourceName"), "resourceName"),
            _name_of(RESOURCE_PATTERNS, res.get("resourcePattern"), "resourcePattern"),
        )
        codes = d.get("actions")
        if type(codes) is not list:
            raise ProtocolError(f"{what}.actions is not a JSON array")
        env = j.opt_obj(d.get("environment"), f"{what}.environment") or {}
        return cls(
            resource,
            [_name_of(ACTIONS, c, "action") for c in codes],
            j.str_list(env.get("sourceIps"), f"{what}.sourceIps"),
            _name_of(DECISIONS, d.get("decision"), "decision"),
        )

    def info(self) -> PolicyEntryInfo:
        assert self.resource is not None
        return PolicyEntryInfo(self.resource.key, list(self.actions) or None, self.source_ips, self.decision)


@dataclass(slots=True)
class Policy:
    policy_type: str | None
    entries: list[PolicyEntry] = field(default_factory=list)

    def stored(self) -> dict[str, Any]:
        assert self.policy_type is not None
        return {"entries": [e.stored() for e in self.entries], "policyType": POLICY_TYPES[self.policy_type]}

    @classmethod
    def from_stored(cls, obj: Any, what: str) -> Policy:
        d = j.obj(obj, what)
        entries = j.list_of(d.get("entries"), f"{what}.entries", PolicyEntry.from_stored) or []
        return cls(_name_of(POLICY_TYPES, d.get("policyType"), "policyType"), entries)

    def update_entries(self, new: list[PolicyEntry]) -> None:
        """``Policy.updateEntry``: an entry for the same resource is replaced in place, others added."""
        for entry in new:
            old = next((e for e in self.entries if e.resource == entry.resource), None)
            if old is None:
                self.entries.append(entry)
            else:
                old.actions, old.source_ips, old.decision = entry.actions, entry.source_ips, entry.decision

    def info(self) -> PolicyInfo:
        return PolicyInfo(self.policy_type, [e.info() for e in self.entries] or None)


@dataclass(slots=True)
class Acl:
    username: str | None
    policies: list[Policy] = field(default_factory=list)

    @property
    def key(self) -> str:
        assert self.username is not None
        return subject_key(self.username)

    def policy(self, policy_type: str) -> Policy | None:
        return next((p for p in self.policies if p.policy_type == policy_type), None)

    def update_policies(self, new: list[Policy]) -> None:
        """``Acl.updatePolicy``: merged by policy type, then by resource."""
        for p in new:
            old = self.policy(p.policy_type or CUSTOM)
            if old is None:
                self.policies.append(p)
            else:
                old.update_entries(p.entries)

    def delete_entry(self, policy_type: str, resource: ResourceKey) -> None:
        """``Acl.deletePolicy``: the entry for ``resource``; a policy left empty goes too."""
        p = self.policy(policy_type)
        if p is None:
            return
        p.entries = [e for e in p.entries if e.resource != resource]
        if not p.entries:
            self.policies.remove(p)

    def stored(self) -> dict[str, Any]:
        return {
            "policies": [p.stored() for p in self.policies],
            "subject": {"subjectType": USER_SUBJECT_TYPE, "username": self.username},
        }

    @classmethod
    def from_stored(cls, obj: Any) -> Acl:
        d = j.obj(obj, "acl")
        subject = j.obj(d.get("subject"), "subject")
        name = j.opt_str(subject.get("username"), "subject.username")
        if name is None:
            raise ProtocolError("a stored ACL has no subject")
        policies = j.list_of(d.get("policies"), "policies", Policy.from_stored) or []
        return cls(name, policies)

    def info(self) -> AclInfo:
        """``AclConverter.convertAcl(Acl)``."""
        return AclInfo(self.key, [p.info() for p in self.policies] or None)


def acl_from_info(info: AclInfo) -> Acl:
    """``AclConverter.convertAcl(AclInfo)``: unknown names become null (validation refuses them
    later), unknown action names are left out, a policy without entries is skipped."""
    policies: list[Policy] = []
    for p in info.policies or []:
        if not p.entries:
            continue
        entries = [
            PolicyEntry(
                parse_resource(e.resource),
                [a for a in (by_name(ACTIONS, x) for x in e.actions or []) if a is not None],
                e.source_ips or None,
                by_name(DECISIONS, e.decision),
            )
            for e in p.entries
        ]
        policies.append(Policy(by_name(POLICY_TYPES, p.policy_type), entries))
    return Acl(parse_subject(info.subject), policies)
