"""ACL 2.0 bodies (5.3.3 ``UserInfo`` and ``AclInfo``) and the text forms inside them.

The admin requests AUTH_CREATE_USER..AUTH_LIST_ACL (3001-3010) carry users and policies as JSON with
every enum as its *name*: ``{"password":..,"userStatus":"enable","userType":"Normal","username":..}``
and ``{"policies":[{"entries":[{"actions":["Pub"],"decision":"Allow","resource":"Topic:T",
"sourceIps":[..]}],"policyType":"Custom"}],"subject":"User:alice"}`` (fastjson: keys sorted, nulls
left out; each bean is declared once, :mod:`mqadmin.protocol.bodies.declared`). The names are
matched as Java's ``getByName`` matches them, ignoring case.

A resource is written ``Type:name`` (``Topic:Orders``), ``Type:prefix*`` (a prefix), ``Type:*``
(every resource of the type) or ``*`` (anything); :func:`parse_resource` reads it as
``Resource.of`` does (None where Java gets null). Source addresses are IPs or CIDR blocks
(``IPAddressUtils``).
"""

from __future__ import annotations

import dataclasses
import functools
import ipaddress
from dataclasses import dataclass
from typing import Any, NamedTuple, Self

from mqadmin.protocol import fastjson
from mqadmin.protocol.bodies import fieldcheck as j
from mqadmin.protocol.bodies.declared import DeclaredBody, members, wire
from mqadmin.protocol.errors import ProtocolError
from mqadmin.protocol.javanum import JavaNumberError, parse_int

__all__ = [
    "ACTIONS",
    "DECISIONS",
    "POLICY_TYPES",
    "RESOURCE_PATTERNS",
    "RESOURCE_TYPES",
    "SUBJECT_TYPES",
    "USER_STATUSES",
    "USER_TYPES",
    "AclInfo",
    "PolicyEntryInfo",
    "PolicyInfo",
    "ResourceKey",
    "UserInfo",
    "by_name",
    "decode_acl_list",
    "decode_user_list",
    "ip_in_range",
    "is_valid_ip",
    "is_valid_ip_or_cidr",
    "parse_resource",
    "parse_subject",
]

# name -> the code fastjson writes for the enum constant (@JSONField(value = true) on ``code``)
RESOURCE_TYPES: dict[str, int] = {
    "Unknown": 0,
    "Any": 1,
    "Cluster": 2,
    "Namespace": 3,
    "Topic": 4,
    "Group": 5,
}
RESOURCE_PATTERNS: dict[str, int] = {"ANY": 1, "LITERAL": 2, "PREFIXED": 3}
ACTIONS: dict[str, int] = {
    "Unknown": 0,
    "All": 1,
    "Any": 2,
    "Pub": 3,
    "Sub": 4,
    "Create": 5,
    "Update": 6,
    "Delete": 7,
    "Get": 8,
    "List": 9,
}
DECISIONS: dict[str, int] = {"Allow": 1, "Deny": 2}
POLICY_TYPES: dict[str, int] = {"Custom": 1, "Default": 2}
USER_TYPES: dict[str, int] = {"Super": 1, "Normal": 2}
USER_STATUSES: dict[str, int] = {"enable": 1, "disable": 2}
SUBJECT_TYPES: dict[str, int] = {"User": 1}


def _equals_ignore_case(a: str, b: str) -> bool:
    """``String.equalsIgnoreCase``: char by char, upper or lower case equal."""
    if len(a) != len(b):
        return False
    return all(x == y or x.upper() == y.upper() or x.lower() == y.lower() for x, y in zip(a, b, strict=True))


def by_name(table: dict[str, int], name: str | None) -> str | None:
    """The constant ``name`` stands for in ``table`` (Java's ``getByName``), or None."""
    if name is None:
        return None
    for constant in table:
        if _equals_ignore_case(constant, name):
            return constant
    return None


# ------------------------------------------------------------------------------------------- resources


class ResourceKey(NamedTuple):
    """``Resource``: type name (``Topic``...), name (None for ANY), pattern (``LITERAL``...)."""

    type: str
    name: str | None
    pattern: str

    @property
    def key(self) -> str:
        """``getResourceKey``: the text form again."""
        if self.type == "Any":
            return "*"
        if self.pattern == "ANY":
            return f"{self.type}:*"
        if self.pattern == "PREFIXED":
            return f"{self.type}:{self.name}*"
        return f"{self.type}:{self.name}"

    def matches(self, other: ResourceKey) -> bool:
        """``Resource.isMatch``: does this (a policy's) resource cover ``other`` (a request's)?"""
        if self.type == "Any":
            return True
        if self.type != other.type:
            return False
        if self.pattern == "ANY":
            return True
        if self.pattern == "LITERAL":
            return other.name == self.name
        return other.name is not None and self.name is not None and other.name.startswith(self.name)


def parse_resource(text: str | None) -> ResourceKey | None:
    """``Resource.of(String)``: None for blank text or an unknown type."""
    if text is None or not text.strip():
        return None
    if text == "*":
        return ResourceKey("Any", None, "ANY")
    type_text, _, name = text.partition(":")
    rtype = by_name(RESOURCE_TYPES, type_text)
    if rtype is None:
        return None
    if name == "*":
        return ResourceKey(rtype, None, "ANY")
    if name.endswith("*"):
        return ResourceKey(rtype, name[: name.index("*")], "PREFIXED")
    return ResourceKey(rtype, name, "LITERAL")


def parse_subject(text: str | None) -> str | None:
    """``Subject.of``: the username of ``User:name`` (the only subject type), else None."""
    if text is None:
        return None
    kind, _, name = text.partition(":")
    if by_name(SUBJECT_TYPES, kind) is None:
        return None
    return name


# ------------------------------------------------------------------------------------------- addresses


def is_valid_ip(text: str) -> bool:
    """``InetAddressValidator.isValid``: a plain IPv4 (no leading zeros) or IPv6 address."""
    try:
        ipaddress.ip_address(text)
    except ValueError:
        return False
    return True


def _cidr(text: str) -> tuple[ipaddress.IPv4Address | ipaddress.IPv6Address, int] | None:
    parts = text.split("/")
    if len(parts) != 2:
        return None
    try:
        ip = ipaddress.ip_address(parts[0])
        prefix = parse_int(parts[1])
    except (ValueError, JavaNumberError):
        return None
    if not 0 <= prefix <= ip.max_prefixlen:
        return None
    return ip, prefix


def is_valid_ip_or_cidr(text: str) -> bool:
    """``IPAddressUtils.isValidIPOrCidr`` (literal addresses only: Java would also resolve a host name)."""
    return is_valid_ip(text) or _cidr(text) is not None


@functools.lru_cache(maxsize=4096)
def ip_in_range(ip: str, cidr: str) -> bool:
    """``IPAddressUtils.isIPInRange``: equal text without a ``/``, else inside the block (cached: a
    broker checks the same few peers against the same few blocks on every request)."""
    if "/" not in cidr:
        return ip == cidr
    block = _cidr(cidr)
    if block is None:
        return False
    base, prefix = block
    try:
        addr = ipaddress.ip_address(ip)
    except ValueError:
        return False
    if addr.version != base.version:
        return False
    net = ipaddress.ip_network(f"{base}/{prefix}", strict=False)
    return addr in net


# ------------------------------------------------------------------------------------------- bodies


class _AuthBody(DeclaredBody):
    """An ACL 2.0 bean, declared once; its ``--json`` form is every member in the bean's order."""

    __slots__ = ()

    # The hand-written part: a bean read inside another names its path in errors
    # (``policies[0].entries[1].resource is not a string``), which a broker's refusal passes on.
    @classmethod
    def from_json_obj(cls, value: Any, what: str | None = None) -> Self:
        if what is None:
            return super().from_json_obj(value)
        d = j.obj(value, what)
        return cls(**{m.attr: m.read(d.get(m.java, m.absent), f"{what}.{m.java}") for m in members(cls)})

    def as_json(self) -> dict[str, Any]:
        """The ``--json`` form: every member in the order the bean declares it, null where unset."""
        java = {m.attr: m.java for m in members(type(self))}
        return {java[f.name]: _as_json(getattr(self, f.name)) for f in dataclasses.fields(self)}  # type: ignore[arg-type]


def _as_json(v: Any) -> Any:
    if isinstance(v, list):
        return [x.as_json() if isinstance(x, _AuthBody) else x for x in v]
    return v


@dataclass(slots=True)
class UserInfo(_AuthBody):
    """``UserInfo``: user type and status by name (``Super``/``Normal``, ``enable``/``disable``)."""

    username: str | None = wire(read=j.opt_str)
    password: str | None = wire(read=j.opt_str)
    user_type: str | None = wire(read=j.opt_str)
    user_status: str | None = wire(read=j.opt_str)


@dataclass(slots=True)
class PolicyEntryInfo(_AuthBody):
    """``AclInfo.PolicyEntryInfo``: one resource, its actions, source addresses and decision."""

    resource: str | None = wire(read=j.opt_str)
    actions: list[str] | None = wire(read=j.str_list)
    source_ips: list[str] | None = wire(read=j.str_list)
    decision: str | None = wire(read=j.opt_str)


@dataclass(slots=True)
class PolicyInfo(_AuthBody):
    """``AclInfo.PolicyInfo``: a policy type (``Custom``/``Default``) and its entries."""

    policy_type: str | None = wire(read=j.opt_str)
    entries: list[PolicyEntryInfo] | None = wire(
        read=lambda v, what: j.list_of(v, what, PolicyEntryInfo.from_json_obj)
    )


@dataclass(slots=True)
class AclInfo(_AuthBody):
    """``AclInfo``: a subject (``User:name``) and its policies."""

    subject: str | None = wire(read=j.opt_str)
    policies: list[PolicyInfo] | None = wire(
        read=lambda v, what: j.list_of(v, what, PolicyInfo.from_json_obj)
    )

    @classmethod
    def of(
        cls,
        subject: str,
        resources: list[str],
        actions: list[str],
        source_ips: list[str] | None,
        decision: str,
    ) -> Self:
        """``AclInfo.of``: one policy (type left unset) with one entry per resource."""
        entries = [PolicyEntryInfo(r, list(actions), source_ips, decision) for r in resources]
        return cls(subject, [PolicyInfo(None, entries)])


def _decode_list(body: bytes | None, what: str) -> list[Any]:
    """A JSON array body; an empty body (the broker had nothing to send) is an empty list."""
    if not body:
        return []
    value = fastjson.loads(body)
    if value is None:
        return []
    if type(value) is not list:
        raise ProtocolError(f"{what} body is not a JSON array")
    return value


def decode_user_list(body: bytes | None) -> list[UserInfo]:
    """The body of AUTH_LIST_USER's answer."""
    return [UserInfo.from_json_obj(x) for x in _decode_list(body, "user list")]


def decode_acl_list(body: bytes | None) -> list[AclInfo]:
    """The body of AUTH_LIST_ACL's answer."""
    return [AclInfo.from_json_obj(x) for x in _decode_list(body, "ACL list")]
