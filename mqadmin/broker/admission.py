"""The one gate in front of every broker handler: declared, within budget, authenticated, authorized.

Each request goes through the same steps, in this order, before its handler sees it:

1. **Within budget.** A header over its code's declared bytes or fields was refused from the raw
   frame, before it was decoded, and a body over its declared bytes before the gate (both by the
   connection, as on every server of ours, :mod:`mqadmin.protocol.requests`), so not even a
   signature check passes over either.
2. **Authenticated.** ACL 1.0: the account must exist before its signature is computed; ACL 2.0:
   the user likewise. Nothing of the body has been parsed yet.
3. **Authorized**, by the declaration: an operator's request needs an ACL 1.0 admin account / an
   ACL 2.0 super user; the others need the topics, groups or cluster they name. A code with no
   declaration counts as an operator's.
4. **Declared.** A served code the registry does not declare for a broker is refused while an ACL is
   on (ACL 1.0 ``aclEnable`` or ACL 2.0), even to an operator: a new handler stays closed until its
   declaration says who may send it. Without ACL it reaches the handler as before; the test suite
   fails on any served code without a declaration.

A refusal is answered with NO_PERMISSION (or SYSTEM_ERROR for a budget) and Java's text where Java has
one; nothing of the request is kept. Handlers that find a resource only as they run (the message a
VIEW_MESSAGE_BY_ID returns) ask :meth:`Admission.require` about it.
"""

from __future__ import annotations

import functools
import logging
from typing import Any

from mqadmin.broker.acl.addresses import connection_host
from mqadmin.broker.acl.validator import PUB, SUB, PlainAccessValidator
from mqadmin.broker.auth.contexts import resource_context
from mqadmin.broker.auth.guard import AuthGuard
from mqadmin.protocol.codes import ResponseCode
from mqadmin.protocol.command import RemotingCommand
from mqadmin.protocol.headers.base import HeaderError
from mqadmin.protocol.requests import PUB as PUB_ACTION
from mqadmin.protocol.requests import Declaration, declared
from mqadmin.remoting.client import Connection, Handler
from mqadmin.remoting.logthrottle import ThrottledLog

__all__ = ["Admission", "NotDeclared"]

log = logging.getLogger("mqadmin.broker")
_peer_log = ThrottledLog(log)

_SERVER = "broker"


class NotDeclared(HeaderError):
    """A request code the registry does not declare for a broker, refused while an ACL is on."""

    def __init__(self, code: int) -> None:
        super().__init__(
            f"request code {code} is not declared for a broker: refused while ACL is enabled",
            ResponseCode.NO_PERMISSION,
        )


class Admission:
    """The checks of one broker: the ACL 1.0 validator and the ACL 2.0 guard in force (each None or
    disabled when off); ``validator`` is replaced when the ACL 1.0 admin requests edit the files."""

    def __init__(self, validator: PlainAccessValidator | None, guard: AuthGuard | None) -> None:
        self.validator: PlainAccessValidator | None = None
        self.guard: AuthGuard | None = None
        self.put_in_force(validator, guard)

    def put_in_force(self, validator: PlainAccessValidator | None, guard: AuthGuard | None) -> None:
        """The checks made at start from the ACL files (the same gate object the handlers hold)."""
        self.validator = validator
        self.guard = guard if guard is not None and guard.enabled else None

    @property
    def enabled(self) -> bool:
        """An ACL (1.0 or 2.0) is on."""
        return self.validator is not None or self.guard is not None

    def wrap(self, code: int | None, handler: Handler) -> Handler:
        """``handler`` behind the gate for ``code``; None for the handler of the codes nobody serves
        (checked like any request, then answered REQUEST_CODE_NOT_SUPPORTED)."""
        if not self.enabled:  # nothing to check: no call in the way of a send or a pull
            return handler
        decl = declared(code) if code is not None else None
        if decl is not None and _SERVER not in decl.servers:
            decl = None
        served = code is not None
        admit = self.admit

        @functools.wraps(handler)
        def admitted(conn: Connection, cmd: RemotingCommand) -> Any:
            admit(conn, cmd, decl, served)
            return handler(conn, cmd)

        return admitted

    def admit(
        self, conn: Connection, cmd: RemotingCommand, decl: Declaration | None, served: bool = True
    ) -> None:
        """Raise the refusal of ``cmd`` (see the module docstring), or return to let it through.

        An undeclared code is checked as an operator's request (credentials, then an admin account or
        a super user), and a served one is then refused all the same.
        """
        if self.validator is not None:
            self.validator.check(conn, cmd)
        if self.guard is not None:
            self.guard.check(conn, cmd)
        if decl is None and served and self.enabled:
            raise NotDeclared(cmd.code)

    def require(
        self, conn: Connection, cmd: RemotingCommand, rtype: str, name: str, actions: tuple[str, ...]
    ) -> None:
        """Refuse (NO_PERMISSION) unless the sender of ``cmd`` may do ``actions`` on the ``Topic`` or
        ``Group`` ``name``; nothing to check without ACL. For what a handler finds as it runs."""
        if self.validator is not None:
            perm = PUB if PUB_ACTION in actions else SUB
            self.validator.require(conn, cmd, rtype, name, perm)
        guard = self.guard
        if guard is not None and guard.config.authorization_enabled:
            if str(cmd.code) in guard.authz_whitelist:
                return
            guard.authorize_resource(cmd, resource_context(rtype, name, actions), connection_host(conn))
