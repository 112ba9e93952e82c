"""ACL signing of requests as the Java 5.3.3 tool does it.

Signed, ``AclClientRPCHook`` creates the ext-field map first through ``addExtField``
(``new HashMap<>(256)``) with ``AccessKey`` (and ``SecurityToken``), the header fields follow, and
``Signature`` comes last. Putting the keys in that insertion order and then in bucket order gives
the very header bytes the Java tool sends. Only a command given credentials imports this (and the
hashing it brings); the unsigned order is :mod:`mqadmin.admin.fieldorder`'s.
"""

from __future__ import annotations

from mqadmin.admin.fieldorder import ordered_fields
from mqadmin.admin.settings import Credentials
from mqadmin.protocol.acl import RequestSigner

__all__ = ["AclSigner", "ordered_fields"]


class AclSigner(RequestSigner):
    """An rpc hook that signs every outgoing request with the user's ACL credentials."""

    __slots__ = ()

    def __init__(self, credentials: Credentials) -> None:
        super().__init__(credentials.access_key, credentials.secret_key, credentials.security_token)
