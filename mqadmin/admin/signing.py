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
from mqadmin.protocol.acl import ACCESS_KEY, SECURITY_TOKEN, SIGNATURE, sign
from mqadmin.protocol.command import RemotingCommand
from mqadmin.protocol.javacoll import java_hash_order

__all__ = ["AclSigner", "ordered_fields"]

_UNSIGNED_CAPACITY = 16
_SIGNED_CAPACITY = 256
_ACL_KEYS = frozenset((ACCESS_KEY, SECURITY_TOKEN, SIGNATURE))


def ordered_fields(fields: dict[str, str | None] | None) -> dict[str, str] | None:
    """Header fields (in the Java header class's declaration order) as an unsigned request sends them.

    ``None`` values are dropped, as Java skips null fields; no fields at all means no ``extFields``.
    """
    if not fields:
        return None
    present = {k: v for k, v in fields.items() if v is not None}
    if not present:
        return None
    return {k: present[k] for k in java_hash_order(present, _UNSIGNED_CAPACITY)}


class AclSigner:
    """An rpc hook that signs every outgoing request with ACL 1.0 credentials."""

    __slots__ = ("_credentials",)

    def __init__(self, credentials: Credentials) -> None:
        self._credentials = credentials

    def __call__(self, cmd: RemotingCommand) -> None:
        c = self._credentials
        fields = {k: v for k, v in (cmd.ext_fields or {}).items() if k not in _ACL_KEYS}
        signed = sign(fields, cmd.body, c.access_key, c.secret_key, c.security_token)
        insertion = [ACCESS_KEY]
        if c.security_token is not None:
            insertion.append(SECURITY_TOKEN)
        insertion.extend(fields)
        insertion.append(SIGNATURE)
        cmd.ext_fields = {k: signed[k] for k in java_hash_order(insertion, _SIGNED_CAPACITY)}
