"""Who may send the embedded controller its requests (``controllerAuth``): ours, stricter than Java.

A 5.3.3 controller checks nobody: whoever reaches its port can elect a master, move a replica,
forget a broker set or change its settings. Ours does the same until accounts are configured;
then every controller request must be signed by an admin account with the ACL 1.0 signature
(HmacSHA1 over the ext fields and body, :func:`mqadmin.protocol.acl.verify`), the one a broker with
ACL checks and Java's ``AclClientRPCHook`` makes. So the ``mqadmin`` tool signs with its usual
credentials (``--access-key``/``--secret-key``, a context, ``tools.yml``) and a broker in controller
mode with its ``innerClientAuthenticationCredentials``, as a 5.3.3 broker signs all it sends.

The accounts are ACL 1.0's: a ``plain_acl.yml`` file (the same file a 4.9.x broker reads may do),
named in the name server's ``-c`` file (the file Java applies to the name server and its controller)::

    controllerAclFile=/etc/rocketmq/controller_acl.yml
    # controllerAuth=false     # turns the check off; on is the default once the file is named

    # controller_acl.yml
    accounts:
      - accessKey: rocketmqAdmin
        secretKey: 12345678
        admin: true

Only ``admin: true`` accounts may send controller requests; white lists and perms are not read
(a request is always signed here: no address passes on its own). The secrets stay in that file: no
config listing of the name server or the controller shows them, and no remote update can name
another file (a path key) or switch the check (:func:`mqadmin.protocol.configentry.protected_key`;
the name server's own update must refuse those keys too, as the controller's does).
A file that cannot be read, an account ACL 1.0 would refuse (a key of 6 characters or less), no
admin account, or ``controllerAuth=true`` without a file stops the start: a controller must not come
up open when its operator meant it closed. The file is read at start.

Open is Java's default and stays ours, but never silently: an open controller says so in one
warning line at start and in the remark of its GET_CONTROLLER_CONFIG answer
(:data:`OPEN_WARNING`), which ``mqadmin getControllerConfig`` prints on stderr.

The server holds every body to its code's declared budget first; the credentials are checked next,
before anything of the request is parsed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from mqadmin.controller.replicas import ControllerStoreError
from mqadmin.protocol import names
from mqadmin.protocol.acl import ACCESS_KEY, SIGNATURE, verify
from mqadmin.protocol.codes import ResponseCode
from mqadmin.protocol.command import RemotingCommand
from mqadmin.protocol.requests import declared

__all__ = [
    "ACL_FILE_KEY",
    "AUTH_KEY",
    "OPEN_WARNING",
    "ControllerAuth",
    "ControllerAuthError",
    "Refusal",
    "read_admin_accounts",
]

AUTH_KEY = "controllerAuth"
ACL_FILE_KEY = "controllerAclFile"
OPEN_WARNING = (
    "the embedded controller checks no signature (as Java's): anyone who reaches its port can elect "
    f"masters and change replicas; name admin accounts in {ACL_FILE_KEY} to require signed requests"
)
"""What an open controller says at start and with its config."""
_MIN_KEY_LENGTH = 6
"""ACL 1.0 refuses keys of 6 characters or less (``PlainPermissionManager``)."""

Refusal = tuple[int, str]


class ControllerAuthError(ControllerStoreError):
    """The controller's account settings cannot be used: the name server does not start.

    A :class:`ControllerStoreError`, so start-up refuses it as it refuses a damaged replica table."""


@dataclass(frozen=True)
class ControllerAuth:
    """Whether controller requests must be signed, and the admin accounts (access key → secret key)."""

    enabled: bool = False
    accounts: Mapping[str, str] = field(default_factory=dict, repr=False)

    @classmethod
    def from_properties(cls, props: Mapping[str, str] | None) -> ControllerAuth:
        """The settings of the ``-c`` file; :class:`ControllerAuthError` when they cannot work."""
        props = props or {}
        path = (props.get(ACL_FILE_KEY) or "").strip()
        switch = (props.get(AUTH_KEY) or "").strip().lower()
        if switch not in ("", "true", "false"):
            raise ControllerAuthError(f"{AUTH_KEY} is true or false, not {props.get(AUTH_KEY)!r}")
        enabled = bool(path) if switch == "" else switch == "true"
        if not enabled:
            return cls()
        if not path:
            raise ControllerAuthError(f"{AUTH_KEY}=true needs {ACL_FILE_KEY}: the file of the admin accounts")
        accounts = read_admin_accounts(Path(path))
        if not accounts:
            raise ControllerAuthError(f"{ACL_FILE_KEY} {path}: no account with admin: true")
        return cls(True, accounts)

    @property
    def warning(self) -> str | None:
        """:data:`OPEN_WARNING` when anyone may send controller requests, else None."""
        return None if self.enabled else OPEN_WARNING

    def refusal(self, req: RemotingCommand) -> Refusal | None:
        """Why ``req`` is not an admin account's (NO_PERMISSION and a remark), or None (auth off too)."""
        if not self.enabled:
            return None
        if declared(req.code) is None:
            return ResponseCode.NO_PERMISSION, f"request code {req.code} is not declared: refused"
        ext = req.ext_fields or {}
        sent = ext.get(ACCESS_KEY)
        if not sent or SIGNATURE not in ext:
            return (
                ResponseCode.NO_PERMISSION,
                f"controllerAuth is on: request code {req.code} must be signed (AccessKey and Signature) "
                "by an admin account of the controller",
            )
        secret = self.accounts.get(sent)
        if secret is None:
            return ResponseCode.NO_PERMISSION, f"AccessKey {sent!r} is not an admin account of the controller"
        if not verify(ext, req.body, secret):
            return ResponseCode.NO_PERMISSION, "check signature failed: the secret key is not the account's"
        return None


def read_admin_accounts(path: Path) -> dict[str, str]:
    """The ``admin: true`` accounts of a ``plain_acl.yml`` file (access key → secret key; the first
    definition of a key wins, as in Java); :class:`ControllerAuthError` when the file cannot be used."""
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as e:
        reason = e.strerror if isinstance(e, OSError) and e.strerror else str(e)
        raise ControllerAuthError(f"{ACL_FILE_KEY} {path}: cannot read it: {reason}") from None
    except yaml.YAMLError as e:
        raise ControllerAuthError(f"{ACL_FILE_KEY} {path}: not valid YAML: {type(e).__name__}") from None
    entries = data.get("accounts") if isinstance(data, dict) else None
    if not isinstance(entries, list):
        raise ControllerAuthError(f"{ACL_FILE_KEY} {path}: expected a mapping with an 'accounts' list")
    accounts: dict[str, str] = {}
    for i, entry in enumerate(entries):
        if not isinstance(entry, dict):
            raise ControllerAuthError(f"{ACL_FILE_KEY} {path}: accounts[{i}] is not a mapping")
        ak, sk = _key(entry.get("accessKey")), _key(entry.get("secretKey"))
        why = _account_refusal(ak, sk)
        if why is not None:
            raise ControllerAuthError(f"{ACL_FILE_KEY} {path}: accounts[{i}]: {why}")
        if str(entry.get("admin")).lower() == "true" and ak is not None and sk is not None:
            accounts.setdefault(ak, sk)
    return accounts


def _key(value: object) -> str | None:
    """A key as Java reads it from YAML: text, or a number written as text."""
    if isinstance(value, bool) or value is None:
        return None
    return value if isinstance(value, str) else str(value) if isinstance(value, int) else None


def _account_refusal(ak: str | None, sk: str | None) -> str | None:
    if ak is None or sk is None or len(ak) <= _MIN_KEY_LENGTH or len(sk) <= _MIN_KEY_LENGTH:
        return (
            f"accessKey and secretKey cannot be missing and must be longer than {_MIN_KEY_LENGTH} characters"
        )
    for what, value in (("accessKey", ak), ("secretKey", sk)):
        why = names.bad_text(value, controls=True)
        if why is not None:
            return f"the {what} {why}"
    return None
