"""Request headers as the Java 5.3.3 tool writes them: ext field order, and ACL signing.

fastjson writes ``extFields`` in the iteration order of the Java ``HashMap`` behind it. Unsigned, that
map is made by ``makeCustomHeaderToNet`` (``new HashMap<>()``, 16 buckets) from the header class's
fields in declaration order. Signed, ``AclClientRPCHook`` creates it first through ``addExtField``
(``new HashMap<>(256)``) with ``AccessKey`` (and ``SecurityToken``), the header fields follow, and
``Signature`` comes last. Putting the keys in that insertion order and then in bucket order gives
the very header bytes the Java tool sends.
"""

from __future__ import annotations

from mqadmin.admin.settings import Credentials
from mqadmin.protocol.acl import RequestSigner
from mqadmin.protocol.javacoll import remembered_hash_order

__all__ = ["AclSigner", "ordered_fields"]

_UNSIGNED_CAPACITY = 16


def ordered_fields(fields: dict[str, str | None] | None) -> dict[str, str] | None:
    """Header fields (in the Java header class's declaration order) as an unsigned request sends them.

    ``None`` values are dropped, as Java skips null fields; no fields at all means no ``extFields``.
    """
    if not fields:
        return None
    present = {k: v for k, v in fields.items() if v is not None}
    if not present:
        return None
    return {k: present[k] for k in remembered_hash_order(tuple(present), _UNSIGNED_CAPACITY)}


class AclSigner(RequestSigner):
    """An rpc hook that signs every outgoing request with the user's ACL credentials."""

    __slots__ = ()

    def __init__(self, credentials: Credentials) -> None:
        super().__init__(credentials.access_key, credentials.secret_key, credentials.security_token)
