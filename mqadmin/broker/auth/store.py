"""The broker's users and ACLs, kept durably, changed with the rules of Java's metadata managers.

Java 5.3.3 keeps them in two RocksDB stores under ``<storePathRootDir>/config`` (``users``, ``acls``),
each value the fastjson text of a ``User`` or an ``Acl`` keyed by username or subject key. Here each
is one JSON file under ``<storePathRootDir>/config/auth/`` (``users.json``, ``acls.json``): an object
from key to that same value, in key order (the order RocksDB iterates), replaced atomically on
every change with the previous content kept as ``.bak``. A change that cannot be written is not
made: the tables in memory stay what the files hold.

The operations are ``AuthenticationMetadataManagerImpl`` and ``AuthorizationMetadataManagerImpl``:
each refusal raises :class:`AuthRefused` with Java's message (NO_PERMISSION, as the admin
processor's ``handleAuthException`` answers it).
"""

from __future__ import annotations

import copy
import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

from mqadmin.broker.auth.model import (
    CUSTOM,
    ENABLE,
    NORMAL,
    SUPER,
    Acl,
    Policy,
    User,
    subject_key,
)
from mqadmin.broker.jsonfile import load_config_file, persist_config_file, pretty_json
from mqadmin.protocol.bodies import fieldcheck as j
from mqadmin.protocol.bodies.auth import ResourceKey, is_valid_ip_or_cidr
from mqadmin.protocol.codes import ResponseCode
from mqadmin.protocol.headers.base import HeaderError

__all__ = ["SYSTEM_ERROR_REMARK", "AuthRefused", "AuthStore"]

log = logging.getLogger("mqadmin.broker")

SYSTEM_ERROR_REMARK = "An system error occurred, please try again later."


class AuthRefused(HeaderError):
    """A refused auth operation or request: NO_PERMISSION (unless said otherwise) and Java's text."""

    def __init__(self, remark: str, code: int = ResponseCode.NO_PERMISSION) -> None:
        super().__init__(remark, code)


def _blank(s: str | None) -> bool:
    return s is None or not s.strip()


def _key_order(key: str) -> bytes:
    return key.encode("utf-8")


class AuthStore:
    """Users by name and ACLs by subject key, loaded at start, persisted on every change."""

    def __init__(self, config_dir: Path) -> None:
        self.dir = Path(config_dir) / "auth"
        self.users_file = self.dir / "users.json"
        self.acls_file = self.dir / "acls.json"
        self.users: dict[str, User] = {}
        self.acls: dict[str, Acl] = {}

    # ------------------------------------------------------------------------------ files

    def load(self) -> None:
        def users(obj: Any) -> None:
            table = j.obj(obj, "users")
            self.users = {k: User.from_stored(v) for k, v in table.items()}

        def acls(obj: Any) -> None:
            table = j.obj(obj, "acls")
            self.acls = {k: Acl.from_stored(v) for k, v in table.items()}

        load_config_file(self.users_file, users)
        load_config_file(self.acls_file, acls)
        if self.users or self.acls:
            log.info("auth: %d user(s), %d ACL(s) loaded", len(self.users), len(self.acls))

    @staticmethod
    def _text(table: dict[str, Any]) -> Callable[[], str]:
        return lambda: pretty_json({k: table[k].stored() for k in sorted(table, key=_key_order)})

    def _commit_users(self, users: dict[str, User]) -> None:
        if not persist_config_file(self.users_file, self._text(users)):
            raise AuthRefused(SYSTEM_ERROR_REMARK, ResponseCode.SYSTEM_ERROR)
        self.users = users

    def _commit_acls(self, acls: dict[str, Acl]) -> None:
        if not persist_config_file(self.acls_file, self._text(acls)):
            raise AuthRefused(SYSTEM_ERROR_REMARK, ResponseCode.SYSTEM_ERROR)
        self.acls = acls

    # ------------------------------------------------------------------------------ users

    def get_user(self, username: str | None) -> User | None:
        if _blank(username):
            raise AuthRefused("username can not be blank")
        assert username is not None
        return self.users.get(username)

    def create_user(self, user: User) -> None:
        if _blank(user.username):
            raise AuthRefused("username can not be blank")
        if _blank(user.password):
            raise AuthRefused("password can not be blank")
        user.user_type = user.user_type or NORMAL
        user.user_status = user.user_status or ENABLE
        if user.username in self.users:
            raise AuthRefused("The user is existed")
        self._commit_users({**self.users, user.username: user})

    def update_user(self, user: User) -> None:
        if _blank(user.username):
            raise AuthRefused("username can not be blank")
        old = self.users.get(user.username)
        if old is None:
            raise AuthRefused("The user is not exist")
        new = copy.copy(old)
        if not _blank(user.password):
            new.password = user.password
        if user.user_type is not None:
            new.user_type = user.user_type
        if user.user_status is not None:
            new.user_status = user.user_status
        self._commit_users({**self.users, user.username: new})

    def delete_user(self, username: str) -> None:
        """The user and its ACL."""
        if _blank(username):
            raise AuthRefused("username can not be blank")
        users = {k: v for k, v in self.users.items() if k != username}
        acls = {k: v for k, v in self.acls.items() if k != subject_key(username)}
        if len(users) != len(self.users):
            self._commit_users(users)
        if len(acls) != len(self.acls):
            self._commit_acls(acls)

    def list_users(self, name_filter: str | None) -> list[User]:
        keys = sorted(self.users, key=_key_order)
        if not _blank(name_filter):
            assert name_filter is not None
            keys = [k for k in keys if name_filter in k]
        return [self.users[k] for k in keys]

    def is_super(self, username: str) -> bool:
        user = self.users.get(username)
        return user is not None and user.user_type == SUPER

    # ------------------------------------------------------------------------------ ACLs

    def get_acl(self, username: str) -> Acl | None:
        """``getAcl`` of the manager: the subject must exist."""
        if username not in self.users:
            raise AuthRefused("The subject is not exist.")
        return self.acls.get(subject_key(username))

    def acl_of(self, username: str) -> Acl | None:
        """The ACL the authorization check reads (no subject check)."""
        return self.acls.get(subject_key(username))

    def put_acl(self, acl: Acl) -> None:
        """``createAcl``/``updateAcl`` (the same in Java): validated, then merged into the stored one."""
        _validate(acl)
        for p in acl.policies:
            p.policy_type = p.policy_type or CUSTOM
        assert acl.username is not None
        if acl.username not in self.users:
            raise AuthRefused(f"The subject of {acl.key} is not exist.")
        old = self.acls.get(acl.key)
        if old is None:
            merged = acl
        else:
            merged = copy.deepcopy(old)
            merged.update_policies(acl.policies)
        self._commit_acls({**self.acls, acl.key: merged})

    def delete_acl(self, username: str | None, policy_type: str | None, resource: ResourceKey | None) -> None:
        """``deleteAcl``: one resource's entry, or (no resource) the whole ACL of the subject."""
        if username is None:
            raise AuthRefused("The subject is null.")
        if username not in self.users:
            raise AuthRefused("The subject is not exist.")
        key = subject_key(username)
        old = self.acls.get(key)
        if old is None:
            raise AuthRefused("The acl is not exist.")
        if resource is not None:
            new = copy.deepcopy(old)
            new.delete_entry(policy_type or CUSTOM, resource)
            if new.policies:
                self._commit_acls({**self.acls, key: new})
                return
        self._commit_acls({k: v for k, v in self.acls.items() if k != key})

    def list_acls(self, subject_filter: str | None, resource_filter: str | None) -> list[Acl]:
        """``listAcl`` of the local provider: subjects containing ``subject_filter``; unless the subject
        key itself contains ``resource_filter``, only the entries whose resource text contains it."""
        subjects = subject_filter or ""
        resources = resource_filter or ""
        out: list[Acl] = []
        for key in sorted(self.acls, key=_key_order):
            if subjects.strip() and subjects not in key:
                continue
            acl = self.acls[key]
            policies: list[Policy] = []
            for p in acl.policies:
                entries = p.entries
                if resources.strip() and resources not in key:
                    entries = [e for e in entries if e.resource is not None and resources in e.resource.key]
                if entries:
                    policies.append(Policy(p.policy_type, entries))
            if policies:
                out.append(Acl(acl.username, policies))
        return out


def _validate(acl: Acl) -> None:
    """``AuthorizationMetadataManagerImpl.validate``, with its messages."""
    if not acl.policies:
        raise AuthRefused("The policies is empty.")
    for p in acl.policies:
        if not p.entries:
            raise AuthRefused("The policy entries is empty.")
        for e in p.entries:
            if e.resource is None:
                raise AuthRefused("The resource is null.")
            if not e.actions:
                raise AuthRefused("The actions is empty.")
            if "Any" in e.actions:
                raise AuthRefused("The actions can not be Any.")
            for ip in e.source_ips or ():
                if _blank(ip):
                    raise AuthRefused("The source ip is empty.")
                if not is_valid_ip_or_cidr(ip):
                    raise AuthRefused("The source ip is invalid.")
            if e.decision is None:
                raise AuthRefused("The decision is null or illegal.")
