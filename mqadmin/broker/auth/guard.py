"""ACL 2.0 enforcement on the development broker: every request is authenticated, then authorized,
before its handler, as the ``AuthenticationPipeline`` and ``AuthorizationPipeline`` of a 5.3.3
broker do when ``authenticationEnabled`` / ``authorizationEnabled`` are on.

Authentication (``DefaultAuthenticationHandler``): the request's ``AccessKey`` names a user, who
must exist and be enabled, and its ``Signature`` must be the ACL signature of its ext fields and
body made with the user's password (:func:`mqadmin.protocol.acl.verify`, the check ACL 1.0 uses).

Authorization (``UserAuthorizationHandler`` then ``AclAuthorizationHandler``): each resource the
request names (:mod:`mqadmin.broker.auth.contexts`) needs a matching policy entry, unless the user
is a super user. Entries of the ``Custom`` policy are tried first, the ``Default`` policy only when
no custom entry matches. An entry matches by resource, action (``All`` covers every action) and
source address. Of the matching entries the most specific decides: a literal name before a
prefix, a longer prefix before a shorter, ``Type:*`` before ``*``, and DENY before ALLOW where
they are equally specific (Java's comparator aims at this order but is not consistent for every
pair; this one is).

A refusal is answered with NO_PERMISSION and Java's message; the handler never sees the request.
Requests whose code is in ``authenticationWhitelist`` / ``authorizationWhitelist`` pass that check.
"""

from __future__ import annotations

import logging

from mqadmin.broker.acl.addresses import connection_host
from mqadmin.broker.auth.contexts import RequestContext, request_contexts
from mqadmin.broker.auth.model import DEFAULT, DISABLE, PolicyEntry
from mqadmin.broker.auth.store import AuthRefused, AuthStore
from mqadmin.broker.config import AuthConfig
from mqadmin.protocol.acl import ACCESS_KEY, UNIQUE_MSG_QUERY_FLAG, verify
from mqadmin.protocol.bodies.auth import ResourceKey, ip_in_range
from mqadmin.protocol.command import RemotingCommand
from mqadmin.protocol.errors import ProtocolError
from mqadmin.protocol.requests import declared
from mqadmin.protocol.version import version_ordinal
from mqadmin.remoting.client import Connection

__all__ = ["AuthGuard"]

log = logging.getLogger("mqadmin.broker")

_V4_9_3 = version_ordinal("V4_9_3")
_AUTHZ_FAILED = "Authorization failed. Please verify your access rights and try again."


def _whitelist(text: str | None) -> frozenset[str]:
    return frozenset(p.strip() for p in (text or "").split(",") if p.strip())


def _specificity(entry: PolicyEntry) -> tuple[int, int, int]:
    """Sort key of a matching entry: most specific first, DENY first among equals."""
    r = entry.resource
    assert r is not None
    if r.type == "Any":
        rank = (3, 0)
    elif r.pattern == "ANY":
        rank = (2, 0)
    elif r.pattern == "PREFIXED":
        rank = (1, -len(r.name or ""))
    else:
        rank = (0, 0)
    return rank[0], rank[1], 0 if entry.decision == "Deny" else 1


def _matches(entry: PolicyEntry, ctx: RequestContext, source_ip: str) -> bool:
    """``isMatchResource`` and ``isMatchAction`` and ``isMatchEnvironment``."""
    if entry.resource is None or not entry.resource.matches(ctx.resource):
        return False
    if not entry.actions or not any(a in entry.actions or "All" in entry.actions for a in ctx.actions):
        return False
    if entry.source_ips:
        return any(ip_in_range(source_ip, block) for block in entry.source_ips)
    return True


class AuthGuard:
    """The checks of one broker (its :class:`AuthConfig`, users and ACLs, cluster name)."""

    def __init__(self, config: AuthConfig, store: AuthStore, cluster: str) -> None:
        self.config = config
        self.store = store
        self.cluster = cluster
        self.authn_whitelist = _whitelist(config.authentication_whitelist)
        self.authz_whitelist = _whitelist(config.authorization_whitelist)

    @property
    def enabled(self) -> bool:
        return self.config.authentication_enabled or self.config.authorization_enabled

    def check(self, conn: Connection, cmd: RemotingCommand) -> None:
        """Raise :class:`AuthRefused` unless ``cmd`` may go to its handler: credentials first, then
        (only then is a body read) what the request needs."""
        code = str(cmd.code)
        if self.config.authentication_enabled and code not in self.authn_whitelist:
            self.authenticate(cmd)
        if self.config.authorization_enabled and code not in self.authz_whitelist:
            self.authorize(cmd, connection_host(conn))

    # ------------------------------------------------------------------------------ authentication

    def authenticate(self, cmd: RemotingCommand) -> None:
        ext = cmd.ext_fields or {}
        username = ext.get(ACCESS_KEY)
        if not username:
            raise AuthRefused("username cannot be null.")
        user = self.store.users.get(username)
        if user is None:
            raise AuthRefused(f"User:{username} is not found.")
        if user.user_status == DISABLE:
            raise AuthRefused(f"User:{username} is disabled.")
        ignore = (UNIQUE_MSG_QUERY_FLAG,) if cmd.version <= _V4_9_3 else ()
        if user.password is None or not verify(ext, cmd.body, user.password, ignore):
            raise AuthRefused("check signature failed.")

    # ------------------------------------------------------------------------------ authorization

    def authorize(self, cmd: RemotingCommand, source_ip: str) -> None:
        """The declared check of ``cmd``: a super user for an operator's request, else a policy for
        each resource it needs (:func:`request_contexts`)."""
        username = (cmd.ext_fields or {}).get(ACCESS_KEY)
        decl = declared(cmd.code)
        if decl is None or decl.super_only:
            self.require_super(username, cmd.code)
            return
        try:
            contexts = request_contexts(cmd, self.cluster)
        except ProtocolError:
            raise AuthRefused("parse authorization context error.") from None
        for ctx in contexts:
            self._authorize_one(username, ctx, source_ip)

    def require_super(self, username: str | None, code: int) -> None:
        """Refuse unless ``username`` is a super user (an operator's request, or one not declared)."""
        if username is None:
            raise AuthRefused(_AUTHZ_FAILED)
        user = self.store.users.get(username)
        if user is None:
            raise AuthRefused(f"User:{username} not found.")
        if not user.is_super:
            raise AuthRefused(
                f"User:{username} has no permission to send request code {code}: a super user is required."
            )

    def authorize_resource(self, cmd: RemotingCommand, ctx: RequestContext, source_ip: str) -> None:
        """Refuse unless the sender of ``cmd`` may do ``ctx`` (a handler's check of what it found)."""
        self._authorize_one((cmd.ext_fields or {}).get(ACCESS_KEY), ctx, source_ip)

    def _authorize_one(self, username: str | None, ctx: RequestContext, source_ip: str) -> None:
        if username is None:
            raise AuthRefused(_AUTHZ_FAILED)
        user = self.store.users.get(username)
        if user is None:
            raise AuthRefused(f"User:{username} not found.")
        if user.is_super:
            return
        acl = self.store.acl_of(username)
        entry = None
        if acl is not None:
            for policy_type in ("Custom", DEFAULT):
                policy = acl.policy(policy_type)
                found = [e for e in policy.entries if _matches(e, ctx, source_ip)] if policy else []
                if found:
                    entry = min(found, key=_specificity)
                    break
        if entry is None:
            self._deny(username, ctx.resource, source_ip, "no matched policies.")
        elif entry.decision == "Deny":
            self._deny(username, ctx.resource, source_ip, "the decision is deny.")

    @staticmethod
    def _deny(username: str, resource: ResourceKey, source_ip: str, detail: str) -> None:
        raise AuthRefused(
            f"User:{username} has no permission to access {resource.key} from {source_ip}, {detail}"
        )
