"""Edits of ``plain_acl.yml`` through the broker: what Java's ``PlainPermissionManager`` (4.9.8) does for
UPDATE_AND_CREATE_ACL_CONFIG (50), DELETE_ACL_CONFIG (51) and UPDATE_GLOBAL_WHITE_ADDRS_CONFIG (53),
and the versions and contents it reports for 52 and 54.

An edit reads the file it concerns again (the one defining the accessKey, else the default file),
changes the YAML mapping as Java does (an updated account moves to the end of ``accounts`` with its
keys in place; a new one is appended; the file's ``dataVersion`` counter goes up by one and is
stamped now), and rebuilds all the tables with the new content *before* writing: an edit the
tables could not hold is refused and nothing is written. The file is then replaced atomically (its
mode kept; a new one is private to its owner) and the new tables are put in force at once, so a
new account can send with the next request and a deleted one cannot.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import Any

import yaml

from mqadmin.atomicfile import write_atomic
from mqadmin.broker.acl.accounts import (
    AclConfigError,
    PlainAccessConfig,
    access_config_refusal,
    acl_file_paths,
    file_data_version,
    load_acl_files,
    read_acl_yaml,
    white_addrs_refusal,
)
from mqadmin.broker.acl.validator import PlainAccessValidator
from mqadmin.protocol.bodies.dataversion import DataVersion
from mqadmin.protocol.codes import ResponseCode

__all__ = ["AclEditError", "PlainAclEditor"]

log = logging.getLogger("mqadmin.broker")

NEW_FILE_MODE = 0o600
"""A new ACL file holds secret keys: readable by the broker's user only."""


class AclEditError(Exception):
    """An edit refused (nothing written): answered with ``code`` and ``remark``."""

    def __init__(self, code: int, remark: str) -> None:
        super().__init__(remark)
        self.code = code
        self.remark = remark


def _account_map(existing: dict[str, Any] | None, cfg: PlainAccessConfig) -> dict[str, Any]:
    """``createAclAccessConfigMap``: the given fields over the existing entry (its key order kept)."""
    entry = existing if existing is not None else {}
    entry["accessKey"] = cfg.access_key
    if cfg.secret_key:
        entry["secretKey"] = cfg.secret_key
    if cfg.white_remote_address is not None:
        entry["whiteRemoteAddress"] = cfg.white_remote_address
    entry["admin"] = cfg.admin
    if cfg.default_topic_perm:
        entry["defaultTopicPerm"] = cfg.default_topic_perm
    if cfg.default_group_perm:
        entry["defaultGroupPerm"] = cfg.default_group_perm
    if cfg.topic_perms is not None:
        entry["topicPerms"] = list(cfg.topic_perms)
    if cfg.group_perms is not None:
        entry["groupPerms"] = list(cfg.group_perms)
    return entry


def _with_next_version(data: dict[str, Any], path: Path) -> dict[str, Any]:
    """``updateAclConfigFileVersion``: the file's version plus one, stamped now, as its only element."""
    version = file_data_version(data, path)
    version.next_version()
    data["dataVersion"] = [{"counter": version.counter, "timestamp": version.timestamp}]
    return data


def _accounts(data: dict[str, Any], path: Path) -> list[Any]:
    accounts = data.get("accounts")
    if accounts is None:
        return []
    if not isinstance(accounts, list):
        raise AclEditError(
            ResponseCode.UPDATE_AND_CREATE_ACL_CONFIG_FAILED, f"{path}: accounts is not a list"
        )
    return accounts


class PlainAclEditor:
    """The edits of one broker's ACL files, on the validator whose tables they change."""

    def __init__(self, validator: PlainAccessValidator) -> None:
        self.validator = validator

    @property
    def default_file(self) -> Path:
        return self.validator.default_file

    # ------------------------------------------------------------------------------ reports

    def versions(self) -> tuple[DataVersion, dict[str, DataVersion]]:
        """(the default file's version, every file's version by path): what 52 reports."""
        self.validator.reload_if_changed()
        versions = self.validator.tables.versions
        default = versions.get(self.default_file) or DataVersion(counter=0)
        return default, {str(p): v for p, v in versions.items()}

    def all_config(self) -> tuple[list[str], list[dict[str, Any]]]:
        """(global white addresses, accounts) of every file, an accessKey's first definition only:
        ``getAllAclConfig``, what 54 reports."""
        white: list[str] = []
        accounts: list[dict[str, Any]] = []
        seen: set[str] = set()
        for path in acl_file_paths(self.default_file):
            try:
                data = read_acl_yaml(path)
            except AclConfigError as e:
                log.warning("%s: left out of the ACL config report", e)
                continue
            if not data:
                continue
            listed = data.get("globalWhiteRemoteAddresses")
            if isinstance(listed, list):
                white.extend(str(a) for a in listed if a is not None)
            for entry in data.get("accounts") or ():
                key = entry.get("accessKey") if isinstance(entry, dict) else None
                if isinstance(key, str) and key not in seen:
                    seen.add(key)
                    accounts.append(entry)
        return white, accounts

    # ------------------------------------------------------------------------------ edits

    def update_account(self, cfg: PlainAccessConfig) -> None:
        """``updateAccessConfig``: create the account in the default file, or update it where it is."""
        failed = ResponseCode.UPDATE_AND_CREATE_ACL_CONFIG_FAILED
        refusal = access_config_refusal(cfg)
        if refusal is not None:
            raise AclEditError(failed, refusal)
        key = cfg.access_key
        path = self.validator.tables.key_files.get(key or "", self.default_file)
        data = self._read(path, failed)
        accounts = _accounts(data, path)
        existing = next(
            (a for a in accounts if isinstance(a, dict) and a.get("accessKey") == key),
            None,
        )
        if existing is not None:
            accounts.remove(existing)
        accounts.append(_account_map(existing, cfg))
        data["accounts"] = accounts
        self._commit(path, data, failed)
        log.info("ACL account %s %s in %s", key, "updated" if existing is not None else "created", path)

    def delete_account(self, access_key: str) -> None:
        """``deleteAccessConfig``: remove the account from the file that defines it."""
        failed = ResponseCode.DELETE_ACL_CONFIG_FAILED
        not_deleted = f"The accesskey[{access_key}] corresponding to accessConfig has been deleted failed."
        path = self.validator.tables.key_files.get(access_key) if access_key else None
        if path is None:
            raise AclEditError(failed, not_deleted)
        data = self._read(path, failed)
        accounts = _accounts(data, path)
        kept = [a for a in accounts if not (isinstance(a, dict) and a.get("accessKey") == access_key)]
        if len(kept) == len(accounts):
            raise AclEditError(failed, not_deleted)
        data["accounts"] = kept
        self._commit(path, data, failed)
        log.info("ACL account %s deleted from %s", access_key, path)

    def update_global_white(self, addrs: list[str], file_text: str | None) -> None:
        """``updateGlobalWhiteAddrsConfig``: replace one file's ``globalWhiteRemoteAddresses``.

        The file is the default one, or one of the ACL files the broker reads, named by its full path;
        Java accepts any ``.yml`` under the home folder; here no other path is ever opened.
        """
        failed = ResponseCode.UPDATE_GLOBAL_WHITE_ADDRS_CONFIG_FAILED
        refusal = white_addrs_refusal(addrs)
        if refusal is not None:
            raise AclEditError(failed, refusal)
        path = self._known_file(file_text)
        if path is None:
            log.warning("global white addresses for %r refused: not an ACL file of this broker", file_text)
            raise AclEditError(
                failed, f"The globalWhiteAddresses[{','.join(addrs)}] has been updated failed."
            )
        data = self._read(path, failed)
        data["globalWhiteRemoteAddresses"] = list(addrs)
        self._commit(path, data, failed)
        log.info("ACL global white addresses of %s now %s", path, addrs)

    # ------------------------------------------------------------------------------ internals

    def _known_file(self, file_text: str | None) -> Path | None:
        if file_text is None or not file_text.strip():
            return self.default_file
        wanted = os.path.realpath(file_text.strip())
        for path in [*acl_file_paths(self.default_file), self.default_file]:
            if os.path.realpath(path) == wanted:
                return path
        return None

    def _read(self, path: Path, failed: int) -> dict[str, Any]:
        if not path.exists():
            return {}
        try:
            return read_acl_yaml(path) or {}
        except AclConfigError as e:
            raise AclEditError(failed, str(e)) from None

    def _commit(self, path: Path, data: dict[str, Any], failed: int) -> None:
        """Build the tables with ``data`` as ``path``; only if they hold, write and put them in force."""
        data = _with_next_version(data, path)
        paths = acl_file_paths(self.default_file)
        if path not in paths:
            paths.append(path)
        try:
            tables = load_acl_files(paths, {path: data})
        except AclConfigError as e:
            raise AclEditError(failed, str(e)) from None
        text = yaml.safe_dump(data, default_flow_style=False, sort_keys=False, allow_unicode=True)
        try:
            mode = path.stat().st_mode & 0o777
        except OSError:
            mode = NEW_FILE_MODE
        try:
            write_atomic(path, text, mode)
        except OSError as e:
            raise AclEditError(failed, f"cannot write {path}: {e.strerror or e}") from None
        self.validator.install(tables)
