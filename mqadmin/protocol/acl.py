"""ACL 1.0 request signing, byte-compatible with Java's ``AclClientRPCHook`` (4.9.x and 5.x).

A signed request carries three more ext fields: ``AccessKey``, ``Signature`` and, when the
credentials have one, ``SecurityToken``. The signature is HmacSHA1 over the *values* of all the
other ext fields (keys are not included), taken in ascending key order as a Java ``TreeMap`` sorts
``String`` keys, UTF-8 encoded, followed by the raw body bytes; the MAC is sent Base64-encoded.
``AccessKey`` and ``SecurityToken`` are added before signing, so they are signed too; ``Signature``
itself is skipped. The same computation on the server side verifies a request.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from collections.abc import Collection, Mapping

from mqadmin.protocol.command import RemotingCommand
from mqadmin.protocol.javacoll import java_hash_order, java_string_sort_key

__all__ = [
    "ACCESS_KEY",
    "SECURITY_TOKEN",
    "SIGNATURE",
    "UNIQUE_MSG_QUERY_FLAG",
    "RequestSigner",
    "sign",
    "signature",
    "signed_content",
    "verify",
]

ACCESS_KEY = "AccessKey"
SIGNATURE = "Signature"
SECURITY_TOKEN = "SecurityToken"
UNIQUE_MSG_QUERY_FLAG = "_UNIQUE_KEY_QUERY"
"""Ext field of QUERY_MESSAGE that clients sign but some servers leave out when verifying.

A 4.9.8 server always leaves it out; a 5.3.3 server only for requests of version <= V4_9_3.
Pass it in ``ignore`` to reproduce that server's check.
"""


def signed_content(ext_fields: Mapping[str, str], body: bytes | None, ignore: Collection[str] = ()) -> bytes:
    """The bytes that get signed: sorted ext field values, then the body.

    ``ignore`` names more fields to leave out, for checks that mimic a server's exclusions.
    Java encodes with UTF-8 and turns unpaired surrogates into ``?``; so does ``errors="replace"``.
    """
    return _signed_text(ext_fields, ignore) + (body or b"")


def _signed_text(ext_fields: Mapping[str, str], ignore: Collection[str]) -> bytes:
    keys = sorted((k for k in ext_fields if k != SIGNATURE and k not in ignore), key=java_string_sort_key)
    return "".join(ext_fields[k] for k in keys).encode("utf-8", "replace")


def signature(
    ext_fields: Mapping[str, str], body: bytes | None, secret_key: str, ignore: Collection[str] = ()
) -> str:
    """Base64 HmacSHA1 of :func:`signed_content` with ``secret_key``, as Java's ``AclSigner``."""
    mac = hmac.new(secret_key.encode("utf-8", "replace"), _signed_text(ext_fields, ignore), hashlib.sha1)
    if body:
        mac.update(body)  # fed on its own: a message body is not copied to be signed
    return base64.b64encode(mac.digest()).decode("ascii")


def sign(
    ext_fields: dict[str, str],
    body: bytes | None,
    access_key: str,
    secret_key: str,
    security_token: str | None = None,
) -> dict[str, str]:
    """The ext fields to send for a signed request; the input dict is left untouched.

    Like Java: ``AccessKey`` (and ``SecurityToken`` when not None, even if empty) are added first and
    signed with the rest, then ``Signature`` is added (replacing any stale one). ``ext_fields`` must
    already hold every custom header field, since Java signs after ``makeCustomHeaderToNet``.
    Wire order of the keys is the encoder's business, not ours.
    """
    fields = dict(ext_fields)
    fields[ACCESS_KEY] = access_key
    if security_token is not None:
        fields[SECURITY_TOKEN] = security_token
    fields[SIGNATURE] = signature(fields, body, secret_key)
    return fields


def verify(
    ext_fields: Mapping[str, str], body: bytes | None, secret_key: str, ignore: Collection[str] = ()
) -> bool:
    """Whether a received request's ``Signature`` matches its other fields and body (constant time)."""
    sent = ext_fields.get(SIGNATURE)
    if sent is None:
        return False
    expected = signature(ext_fields, body, secret_key, ignore)
    return hmac.compare_digest(expected.encode("ascii"), sent.encode("utf-8", "replace"))


_SIGNED_CAPACITY = 256
_ACL_KEYS = frozenset((ACCESS_KEY, SECURITY_TOKEN, SIGNATURE))


class RequestSigner:
    """An rpc hook signing every outgoing request as Java's ``AclClientRPCHook`` does (the admin
    client with the user's keys, a broker's forwards with ``innerClientAuthenticationCredentials``).

    ``AclClientRPCHook`` creates the ext-field map (``new HashMap<>(256)``) with ``AccessKey`` (and
    ``SecurityToken``) first, then the header fields, then ``Signature``: keys in that insertion order,
    then in bucket order, give the header bytes Java sends.
    """

    __slots__ = ("access_key", "secret_key", "security_token")

    def __init__(self, access_key: str, secret_key: str, security_token: str | None = None) -> None:
        self.access_key = access_key
        self.secret_key = secret_key
        self.security_token = security_token

    def __call__(self, cmd: RemotingCommand) -> None:
        fields = {k: v for k, v in (cmd.ext_fields or {}).items() if k not in _ACL_KEYS}
        signed = sign(fields, cmd.body, self.access_key, self.secret_key, self.security_token)
        insertion = [ACCESS_KEY]
        if self.security_token is not None:
            insertion.append(SECURITY_TOKEN)
        insertion.extend(fields)
        insertion.append(SIGNATURE)
        cmd.ext_fields = {k: signed[k] for k in java_hash_order(insertion, _SIGNED_CAPACITY)}
