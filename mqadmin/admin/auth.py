"""ACL 2.0 administration (5.3.3 ``DefaultMQAdminExt``): users and ACL policies on a broker.

Each call is one request to one broker, as ``MQClientAPIImpl`` sends it: the header names the user
or subject, the body is the ``UserInfo``/``AclInfo`` JSON. A get of something the broker does not
have answers SUCCESS without a body: None here. The ``check_*`` functions refuse, before anything
is sent, what the broker would refuse or silently drop (an unknown action or user type, a bad
resource, decision or address): :class:`HeaderError` with INVALID_PARAMETER.
"""

from __future__ import annotations

from collections.abc import Sequence

from mqadmin.admin.errors import bad_response
from mqadmin.admin.family import Family
from mqadmin.protocol.bodies.auth import (
    ACTIONS,
    DECISIONS,
    USER_STATUSES,
    USER_TYPES,
    AclInfo,
    UserInfo,
    by_name,
    decode_acl_list,
    decode_user_list,
    is_valid_ip_or_cidr,
    parse_resource,
    parse_subject,
)
from mqadmin.protocol.codes import RequestCode, ResponseCode
from mqadmin.protocol.headers.auth import (
    CreateAclRequestHeader,
    CreateUserRequestHeader,
    DeleteAclRequestHeader,
    DeleteUserRequestHeader,
    GetAclRequestHeader,
    GetUserRequestHeader,
    ListAclsRequestHeader,
    ListUsersRequestHeader,
    UpdateAclRequestHeader,
    UpdateUserRequestHeader,
    auth_text_refusal,
)
from mqadmin.protocol.headers.base import HeaderError

__all__ = [
    "AuthOps",
    "check_acl",
    "check_resource",
    "check_subject",
    "check_user",
]

RESOURCE_FORMS = (
    "Topic:NAME, Group:NAME, Cluster:NAME or Namespace:NAME (NAME may end with * for a prefix, or be *), or *"
)


def _refuse(message: str) -> HeaderError:
    return HeaderError(message, ResponseCode.INVALID_PARAMETER)


def _text(what: str, text: str | None) -> None:
    why = auth_text_refusal(what, text)
    if why is not None:
        raise _refuse(why)


def check_user(info: UserInfo, creating: bool) -> UserInfo:
    """A user about to be created or updated: a username, a password to create it, known type and
    status names (the broker would silently take an unknown name as no change)."""
    if info.username is None or not info.username.strip():
        raise _refuse("the username is blank")
    _text("username", info.username)
    if creating and (info.password is None or not info.password.strip()):
        raise _refuse("the password is blank")
    if info.user_type is not None and by_name(USER_TYPES, info.user_type) is None:
        raise _refuse(f"unknown user type {info.user_type!r}: give {' or '.join(USER_TYPES)}")
    if info.user_status is not None and by_name(USER_STATUSES, info.user_status) is None:
        raise _refuse(f"unknown user status {info.user_status!r}: give {' or '.join(USER_STATUSES)}")
    return info


def check_subject(subject: str | None) -> str:
    """``User:NAME``."""
    if subject is None or not subject.strip():
        raise _refuse("the subject is blank: give User:NAME")
    _text("subject", subject)
    name = parse_subject(subject)
    if name is None or not name.strip():
        raise _refuse(f"bad subject {subject!r}: give User:NAME")
    return subject


def check_resource(resource: str) -> str:
    """One resource text (:data:`RESOURCE_FORMS`)."""
    _text("resource", resource)
    r = parse_resource(resource)
    if r is None or r.type == "Unknown" or (r.pattern != "ANY" and not r.name):
        raise _refuse(f"bad resource {resource!r}: give {RESOURCE_FORMS}")
    return resource


def check_acl(
    subject: str,
    resources: Sequence[str],
    actions: Sequence[str],
    source_ips: Sequence[str] | None,
    decision: str,
) -> AclInfo:
    """The policy ``createAcl``/``updateAcl`` send, each part checked."""
    check_subject(subject)
    if not resources:
        raise _refuse(f"no resource: give {RESOURCE_FORMS}")
    for r in resources:
        check_resource(r)
    if not actions:
        raise _refuse(
            "no action: give some of " + ", ".join(a for a in ACTIONS if a not in ("Unknown", "Any"))
        )
    for a in actions:
        name = by_name(ACTIONS, a)
        if name is None or name in ("Unknown", "Any"):
            known = ", ".join(x for x in ACTIONS if x not in ("Unknown", "Any"))
            raise _refuse(f"unknown action {a!r}: give some of {known}")
    for ip in source_ips or ():
        if not is_valid_ip_or_cidr(ip):
            raise _refuse(f"bad source address {ip!r}: give an IP address or a CIDR block (10.0.0.0/8)")
    if by_name(DECISIONS, decision) is None:
        raise _refuse(f"unknown decision {decision!r}: give Allow or Deny")
    return AclInfo.of(
        subject, list(resources), list(actions), list(source_ips) if source_ips else None, decision
    )


class AuthOps(Family):
    """AUTH_CREATE_USER..AUTH_LIST_ACL (3001-3010)."""

    # ------------------------------------------------------------------------------ users

    async def create_user(self, addr: str, user: UserInfo) -> None:
        hdr = CreateUserRequestHeader(username=user.username)
        await self.core.invoke(addr, RequestCode.AUTH_CREATE_USER, hdr, user.encode())

    async def update_user(self, addr: str, user: UserInfo) -> None:
        hdr = UpdateUserRequestHeader(username=user.username)
        await self.core.invoke(addr, RequestCode.AUTH_UPDATE_USER, hdr, user.encode())

    async def delete_user(self, addr: str, username: str) -> None:
        await self.core.invoke(addr, RequestCode.AUTH_DELETE_USER, DeleteUserRequestHeader(username=username))

    async def get_user(self, addr: str, username: str | None) -> UserInfo | None:
        resp = await self.core.invoke(
            addr, RequestCode.AUTH_GET_USER, GetUserRequestHeader(username=username)
        )
        if not resp.body:
            return None
        with bad_response(addr, "user"):
            return UserInfo.decode(resp.body)

    async def list_user(self, addr: str, name_filter: str | None = None) -> list[UserInfo]:
        resp = await self.core.invoke(
            addr, RequestCode.AUTH_LIST_USER, ListUsersRequestHeader(filter=name_filter)
        )
        with bad_response(addr, "user list"):
            return decode_user_list(resp.body)

    # ------------------------------------------------------------------------------ ACLs

    async def create_acl(self, addr: str, acl: AclInfo) -> None:
        hdr = CreateAclRequestHeader(subject=acl.subject)
        await self.core.invoke(addr, RequestCode.AUTH_CREATE_ACL, hdr, acl.encode())

    async def update_acl(self, addr: str, acl: AclInfo) -> None:
        hdr = UpdateAclRequestHeader(subject=acl.subject)
        await self.core.invoke(addr, RequestCode.AUTH_UPDATE_ACL, hdr, acl.encode())

    async def delete_acl(self, addr: str, subject: str, resource: str | None = None) -> None:
        hdr = DeleteAclRequestHeader(subject=subject, resource=resource)
        await self.core.invoke(addr, RequestCode.AUTH_DELETE_ACL, hdr)

    async def get_acl(self, addr: str, subject: str | None) -> AclInfo | None:
        resp = await self.core.invoke(addr, RequestCode.AUTH_GET_ACL, GetAclRequestHeader(subject=subject))
        if not resp.body:
            return None
        with bad_response(addr, "ACL"):
            return AclInfo.decode(resp.body)

    async def list_acl(
        self, addr: str, subject_filter: str | None = None, resource_filter: str | None = None
    ) -> list[AclInfo]:
        hdr = ListAclsRequestHeader(subject_filter=subject_filter, resource_filter=resource_filter)
        resp = await self.core.invoke(addr, RequestCode.AUTH_LIST_ACL, hdr)
        with bad_response(addr, "ACL list"):
            return decode_acl_list(resp.body)
