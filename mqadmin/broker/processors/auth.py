"""ACL 2.0 administration (5.3.3 ``AdminBrokerProcessor``): users and ACLs, codes 3001-3010.

Answers as Java's handlers answer: a blank username is INVALID_PARAMETER ("The username is
blank"); a super user may only be created, changed or deleted by a super user (when the request
is signed); what the metadata managers refuse is NO_PERMISSION with their message
(:mod:`mqadmin.broker.auth.store`); a get of an unknown user is SUCCESS without a body; a list
with nothing to show is SUCCESS without a body. Bodies are read strictly: one that is not the JSON
of a ``UserInfo``/``AclInfo`` changes nothing and is answered SYSTEM_ERROR, as Java's failed
decode is.
"""

from __future__ import annotations

import logging

from mqadmin.broker.auth.model import SUPER, User, acl_from_info, user_from_info
from mqadmin.broker.auth.store import AuthRefused, AuthStore
from mqadmin.broker.version import BrokerVersion
from mqadmin.broker.wire import answer
from mqadmin.protocol import fastjson
from mqadmin.protocol.acl import ACCESS_KEY
from mqadmin.protocol.bodies.auth import (
    POLICY_TYPES,
    AclInfo,
    UserInfo,
    by_name,
    parse_resource,
    parse_subject,
)
from mqadmin.protocol.codes import RequestCode, ResponseCode
from mqadmin.protocol.command import RemotingCommand
from mqadmin.protocol.errors import ProtocolError
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
from mqadmin.remoting.client import Connection, Handler
from mqadmin.remoting.logthrottle import ThrottledLog

__all__ = ["AuthProcessor"]

log = logging.getLogger("mqadmin.broker")
_peer_log = ThrottledLog(log)  # lines a remote peer can cause: a few per interval

_NPE = "java.lang.NullPointerException"
_AUTHZ_EXCEPTION = "org.apache.rocketmq.auth.authorization.exception.AuthorizationException"
_PROCESSOR = "org.apache.rocketmq.broker.processor.AdminBrokerProcessor"
_NO_BODY_AT = ("updateAcl(AdminBrokerProcessor.java:3185)", "createAcl(AdminBrokerProcessor.java:3158)")
"""Where 5.3.3 throws it: its answer (``exceptionSimpleDesc``) names the first stack frame."""


def _texts(*pairs: tuple[str, str | None]) -> None:
    """Body texts held to the header rules (length, no control character): INVALID_PARAMETER."""
    for what, text in pairs:
        why = auth_text_refusal(what, text)
        if why is not None:
            raise AuthRefused(why, ResponseCode.INVALID_PARAMETER)


def _user_body(cmd: RemotingCommand) -> UserInfo:
    if not cmd.body:
        raise AuthRefused(_NPE, ResponseCode.SYSTEM_ERROR)
    try:
        info = UserInfo.decode(cmd.body)
    except ProtocolError as e:
        raise AuthRefused(f"the body is not a UserInfo: {e}", ResponseCode.SYSTEM_ERROR) from None
    _texts(("password", info.password), ("user type", info.user_type), ("user status", info.user_status))
    return info


def _acl_body(cmd: RemotingCommand) -> AclInfo:
    try:
        info = AclInfo.decode(cmd.body) if cmd.body else None
    except ProtocolError as e:
        raise AuthRefused(f"the body is not an AclInfo: {e}", ResponseCode.SYSTEM_ERROR) from None
    if info is None or not info.policies:
        where = _NO_BODY_AT[cmd.code == RequestCode.AUTH_CREATE_ACL]
        remark = f"{_AUTHZ_EXCEPTION}: The body of acl is null, {_PROCESSOR}.{where}"
        raise AuthRefused(remark, ResponseCode.SYSTEM_ERROR)
    _texts(("subject", info.subject))
    for p in info.policies:
        _texts(("policy type", p.policy_type))
        for entry in p.entries or ():
            _texts(("resource", entry.resource), ("decision", entry.decision))
            _texts(*(("action", a) for a in entry.actions or ()))
            _texts(*(("source ip", ip) for ip in entry.source_ips or ()))
    return info


def _json(value: object) -> bytes:
    return fastjson.dumps(value).encode("utf-8")


class AuthProcessor:
    """Codes 3001-3010 (a broker behaving as 5.x)."""

    def __init__(self, *, version: BrokerVersion, auth_store: AuthStore) -> None:
        self.version = version
        self.auth_store = auth_store

    @property
    def store(self) -> AuthStore:
        return self.auth_store

    def handlers(self) -> dict[int, Handler]:
        if not self.version.five_x:
            return {}
        return {
            RequestCode.AUTH_CREATE_USER: self.create_user,
            RequestCode.AUTH_UPDATE_USER: self.update_user,
            RequestCode.AUTH_DELETE_USER: self.delete_user,
            RequestCode.AUTH_GET_USER: self.get_user,
            RequestCode.AUTH_LIST_USER: self.list_user,
            RequestCode.AUTH_CREATE_ACL: self.put_acl,
            RequestCode.AUTH_UPDATE_ACL: self.put_acl,
            RequestCode.AUTH_DELETE_ACL: self.delete_acl,
            RequestCode.AUTH_GET_ACL: self.get_acl,
            RequestCode.AUTH_LIST_ACL: self.list_acl,
        }

    def _not_super_login(self, cmd: RemotingCommand) -> bool:
        """``isNotSuperUserLogin``: an unsigned request counts as super (authentication is off)."""
        access_key = (cmd.ext_fields or {}).get(ACCESS_KEY)
        if not access_key:
            return False
        return not self.store.is_super(access_key)

    def _changed(self, conn: Connection, what: str) -> None:
        _peer_log.log(logging.INFO, "auth change", "auth: %s (from %s)", what, conn.remote_addr)

    # ------------------------------------------------------------------------------ users

    def _user_to_put(
        self, cmd: RemotingCommand, header: type[CreateUserRequestHeader | UpdateUserRequestHeader], verb: str
    ) -> User:
        """The user a create or an update asks for: the header's name with the body's fields; a super
        user only from a super user (Java's text says ``create``/``update``)."""
        hdr = header.decode(cmd.ext_fields)
        if not hdr.username:
            raise AuthRefused("The username is blank", ResponseCode.INVALID_PARAMETER)
        info = _user_body(cmd)
        info.username = hdr.username
        user = user_from_info(info)
        if user.user_type == SUPER and self._not_super_login(cmd):
            raise AuthRefused(f"The super user can only be {verb} by super user", ResponseCode.SYSTEM_ERROR)
        return user

    def create_user(self, conn: Connection, cmd: RemotingCommand) -> RemotingCommand:
        user = self._user_to_put(cmd, CreateUserRequestHeader, "create")
        self.store.create_user(user)
        self._changed(conn, f"user {user.username!r} created")
        return answer(cmd, ResponseCode.SUCCESS)

    def update_user(self, conn: Connection, cmd: RemotingCommand) -> RemotingCommand:
        user = self._user_to_put(cmd, UpdateUserRequestHeader, "update")
        old = self.store.get_user(user.username)
        if old is None:
            raise AuthRefused("The user is not exist")
        if old.is_super and self._not_super_login(cmd):
            raise AuthRefused("The super user can only be update by super user")
        self.store.update_user(user)
        self._changed(conn, f"user {user.username!r} updated")
        return answer(cmd, ResponseCode.SUCCESS)

    def delete_user(self, conn: Connection, cmd: RemotingCommand) -> RemotingCommand:
        hdr = DeleteUserRequestHeader.decode(cmd.ext_fields)
        user = self.store.get_user(hdr.username)
        if user is not None:
            if user.is_super and self._not_super_login(cmd):
                raise AuthRefused("The super user can only be update by super user")
            self.store.delete_user(user.username)
            self._changed(conn, f"user {user.username!r} deleted")
        return answer(cmd, ResponseCode.SUCCESS)

    def get_user(self, conn: Connection, cmd: RemotingCommand) -> RemotingCommand:
        hdr = GetUserRequestHeader.decode(cmd.ext_fields)
        if hdr.username is None or not hdr.username.strip():
            return answer(cmd, ResponseCode.INVALID_PARAMETER, "The username is blank")
        user = self.store.get_user(hdr.username)
        body = None if user is None else user.info().encode()
        return answer(cmd, ResponseCode.SUCCESS, None, None, body)

    def list_user(self, conn: Connection, cmd: RemotingCommand) -> RemotingCommand:
        hdr = ListUsersRequestHeader.decode(cmd.ext_fields)
        users = self.store.list_users(hdr.filter)
        body = _json([u.info() for u in users]) if users else None
        return answer(cmd, ResponseCode.SUCCESS, None, None, body)

    # ------------------------------------------------------------------------------ ACLs

    def put_acl(self, conn: Connection, cmd: RemotingCommand) -> RemotingCommand:
        """AUTH_CREATE_ACL and AUTH_UPDATE_ACL: Java's two managers do the same."""
        header = CreateAclRequestHeader if cmd.code == RequestCode.AUTH_CREATE_ACL else UpdateAclRequestHeader
        hdr = header.decode(cmd.ext_fields)
        acl = acl_from_info(_acl_body(cmd))
        if acl.username is None:
            acl.username = parse_subject(hdr.subject)
        if acl.username is None:
            return answer(cmd, ResponseCode.SYSTEM_ERROR, "An system error occurred, please try again later.")
        self.store.put_acl(acl)
        self._changed(conn, f"ACL of {acl.key!r} set")
        return answer(cmd, ResponseCode.SUCCESS)

    def delete_acl(self, conn: Connection, cmd: RemotingCommand) -> RemotingCommand:
        hdr = DeleteAclRequestHeader.decode(cmd.ext_fields)
        username = parse_subject(hdr.subject)
        resource = parse_resource(hdr.resource)
        self.store.delete_acl(username, by_name(POLICY_TYPES, hdr.policy_type), resource)
        self._changed(conn, f"ACL of {hdr.subject!r} deleted" + (f" for {resource.key}" if resource else ""))
        return answer(cmd, ResponseCode.SUCCESS)

    def get_acl(self, conn: Connection, cmd: RemotingCommand) -> RemotingCommand:
        hdr = GetAclRequestHeader.decode(cmd.ext_fields)
        username = parse_subject(hdr.subject)
        if username is None:
            return answer(cmd, ResponseCode.SYSTEM_ERROR, _NPE)
        acl = self.store.get_acl(username)
        body = None if acl is None else acl.info().encode()
        return answer(cmd, ResponseCode.SUCCESS, None, None, body)

    def list_acl(self, conn: Connection, cmd: RemotingCommand) -> RemotingCommand:
        hdr = ListAclsRequestHeader.decode(cmd.ext_fields)
        acls = self.store.list_acls(hdr.subject_filter, hdr.resource_filter)
        body = _json([a.info() for a in acls]) if acls else None
        return answer(cmd, ResponseCode.SUCCESS, None, None, body)
