"""``plain_acl.yml``: the accounts and white lists of ACL 1.0, read as Java's ``PlainPermissionManager``
(4.9.8) reads them.

Where the files are: with ``rocketmqHome`` set (``-c`` or ``ROCKETMQ_HOME``) it is Java's
``${rocketmqHome}/conf/plain_acl.yml``; otherwise ``${storePathRootDir}/config/plain_acl.yml``, beside
``topics.json``. More account files may sit in an ``acl/`` folder beside it (Java's ``conf/acl``), read
first, in name order; an accessKey defined twice keeps its first definition, as in Java.

The format::

    globalWhiteRemoteAddresses: ['10.10.103.*', '192.168.0.*']
    accounts:
      - accessKey: RocketMQ
        secretKey: 12345678
        whiteRemoteAddress: 192.168.0.*
        admin: false
        defaultTopicPerm: DENY          # PUB, SUB, PUB|SUB (or SUB|PUB), DENY; missing means DENY
        defaultGroupPerm: SUB
        topicPerms: [topicA=DENY, topicB=PUB|SUB, topicC=SUB]
        groupPerms: [groupA=DENY, groupB=PUB|SUB]

Accounts and white lists are edited through the broker (``updateAclConfig`` and friends): the rules
an edit must pass are :func:`access_config_refusal` and :func:`white_addrs_refusal`; the edits
themselves live in :mod:`mqadmin.broker.acl.edit`. Each file's ``dataVersion`` (Java keeps a
``[{counter, timestamp}]`` list in the file) is read here into :attr:`AclTables.versions`.

What Java refuses when it builds an account (a key or secret of 6 characters or less, a perm entry
that is not ``name=PERM``, an address pattern its factory rejects) is an :class:`AclConfigError` here,
and so is a file that is not YAML or not laid out as above: the broker does not start with it.
Unlike Java, a missing file is an error too (Java creates it empty and then refuses every request).
"""

from __future__ import annotations

import logging
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from mqadmin.broker.acl.addresses import AddressMatcher, AddressPatternError, address_matcher
from mqadmin.protocol import names
from mqadmin.protocol.bodies.dataversion import DataVersion
from mqadmin.protocol.headers.acl import PlainAccessConfig

__all__ = [
    "ANY",
    "DENY",
    "PUB",
    "RETRY_PREFIX",
    "SUB",
    "Account",
    "AclConfigError",
    "AclTables",
    "PlainAccessConfig",
    "access_config_refusal",
    "acl_file_paths",
    "default_acl_file",
    "file_data_version",
    "load_acl_files",
    "parse_perm",
    "read_acl_yaml",
    "retry_topic",
    "white_addrs_refusal",
]

log = logging.getLogger("mqadmin.broker")

# Java's Permission bits
DENY = 1
ANY = 1 << 1
PUB = 1 << 2
SUB = 1 << 3

_PERMS = {"PUB": PUB, "SUB": SUB, "PUB|SUB": PUB | SUB, "SUB|PUB": PUB | SUB, "DENY": DENY}
_MIN_KEY_LENGTH = 6
RETRY_PREFIX = names.RETRY_GROUP_TOPIC_PREFIX


class AclConfigError(Exception):
    """An ACL file the broker cannot run with; ``str()`` is one line naming the file and the problem."""


def retry_topic(group: str | None) -> str | None:
    """``MixAll.getRetryTopic``: a group's resource name in the perm tables."""
    return None if group is None else RETRY_PREFIX + group


def parse_perm(text: str | None) -> int:
    """``Permission.parsePermFromString``: an unknown or missing word is DENY."""
    return DENY if text is None else _PERMS.get(text.strip(), DENY)


@dataclass(frozen=True)
class Account:
    """One ``accounts`` entry, built as ``buildPlainAccessResource`` builds it."""

    access_key: str
    secret_key: str
    white: AddressMatcher
    admin: bool
    default_topic_perm: int
    default_group_perm: int
    perms: Mapping[str, int] | None
    """Topics by name and groups by retry topic name; None when the account lists neither (Java's null)."""


@dataclass
class AclTables:
    """Everything the validator needs, from all files: replaced as a whole on reload."""

    accounts: dict[str, Account] = field(default_factory=dict)
    global_white: tuple[AddressMatcher, ...] = ()
    files: tuple[Path, ...] = ()
    key_files: dict[str, Path] = field(default_factory=dict)
    """Which file defines each accessKey (Java's ``accessKeyTable``): an edit goes to that file."""
    versions: dict[Path, DataVersion] = field(default_factory=dict)
    """Each file's ``dataVersion`` (counter 0, stamped now, for a file without one)."""


def _perm_entry_refusal(entry: str, is_topic: bool) -> str | None:
    """``Permission.checkResourcePerms`` for one ``name=PERM`` (Java's texts), then the name's rule."""
    parts = [p for p in entry.split("=") if p]
    if len(parts) != 2:
        return (
            f"Parse Resource format error for {entry}.\n"
            "The expected resource format is 'Res=Perm'. For example: topicA=SUB"
        )
    if parts[1].strip() not in _PERMS:
        return (
            f"Parse resource permission error for {entry}.\n"
            "The expected permissions are 'SUB' or 'PUB' or 'SUB|PUB' or 'PUB|SUB'."
        )
    name = parts[0].strip()
    return names.check_topic(name) if is_topic else names.check_group(name)


def access_config_refusal(cfg: PlainAccessConfig) -> str | None:
    """Why the broker refuses to store ``cfg``, or None: Java's checks in Java's order (key lengths,
    then the perm lists, then the white address pattern), each with Java's text. Stricter than Java,
    which stores them and reads them as DENY or fails later: a default perm that is not one of the
    five words, a topic or group name Java could not create, and control characters in the keys.
    """
    ak, sk = cfg.access_key, cfg.secret_key
    if ak is None or sk is None or len(ak) <= _MIN_KEY_LENGTH or len(sk) <= _MIN_KEY_LENGTH:
        ak_text, sk_text = ("null" if k is None else k for k in (ak, sk))  # String.format of a null
        return (
            f"The accessKey={ak_text} and secretKey={sk_text} cannot be null and length should longer than 6"
        )
    for what, value in (
        ("accessKey", ak),
        ("secretKey", sk),
        ("whiteRemoteAddress", cfg.white_remote_address),
    ):
        why = None if value is None else names.bad_text(value, controls=True)
        if why is not None:
            return f"The {what} {why}"
    for entries, is_topic in ((cfg.topic_perms, True), (cfg.group_perms, False)):
        for entry in entries or ():
            why = _perm_entry_refusal(entry, is_topic)
            if why is not None:
                return why
    for what, perm in (
        ("defaultTopicPerm", cfg.default_topic_perm),
        ("defaultGroupPerm", cfg.default_group_perm),
    ):
        if perm and perm.strip() not in _PERMS:
            return f"The {what}={perm} is not one of 'DENY', 'PUB', 'SUB', 'PUB|SUB' or 'SUB|PUB'."
    try:
        address_matcher(cfg.white_remote_address)
    except AddressPatternError as e:
        return f"The whiteRemoteAddress={cfg.white_remote_address} is not an address pattern: {e}"
    return None


def white_addrs_refusal(addrs: list[str]) -> str | None:
    """Why a global white list cannot be stored (a pattern Java's factory refuses), or None. Java
    writes any text and then fails to load its own file; we refuse before writing."""
    for addr in addrs:
        why = names.bad_text(addr, controls=True)
        if why is not None:
            return f"The global white address {addr!r} {why}"
        try:
            address_matcher(addr)
        except AddressPatternError as e:
            return f"The global white address {addr} is not an address pattern: {e}"
    return None


def default_acl_file(rocketmq_home: str | None, store_root: str) -> Path:
    """``${rocketmqHome}/conf/plain_acl.yml`` (Java's place), else ``<store>/config/plain_acl.yml``."""
    if rocketmq_home:
        return Path(rocketmq_home) / "conf" / "plain_acl.yml"
    return Path(store_root) / "config" / "plain_acl.yml"


def acl_file_paths(default_file: Path) -> list[Path]:
    """The ``*.yml``/``*.yaml`` files under the ``acl/`` folder beside the default file (name order,
    sub-folders included), then the default file itself when it exists."""
    found: list[Path] = []
    folder = default_file.parent / "acl"
    if folder.is_dir():
        for root, dirs, names in os.walk(folder):
            dirs.sort()
            found.extend(Path(root) / n for n in sorted(names) if n.endswith((".yml", ".yaml")))
    if default_file.is_file() and default_file not in found:
        found.append(default_file)
    return found


def load_acl_files(paths: Iterable[Path], replaced: Mapping[Path, dict[str, Any]] | None = None) -> AclTables:
    """Read every file into fresh tables; the first problem raises :class:`AclConfigError`.

    ``replaced`` gives the content of some files instead of reading them (an edit is tried this way
    before it is written).
    """
    tables = AclTables()
    white: list[AddressMatcher] = []
    files: list[Path] = []
    for path in paths:
        files.append(path)
        data = replaced[path] if replaced is not None and path in replaced else read_acl_yaml(path)
        tables.versions[path] = file_data_version(data, path)
        if not data:
            log.warning("ACL file %s holds no data", path)
            continue
        try:
            white.extend(
                address_matcher(_text(a, "globalWhiteRemoteAddresses item"))
                for a in _list(data.get("globalWhiteRemoteAddresses"), "globalWhiteRemoteAddresses")
            )
            for i, entry in enumerate(_list(data.get("accounts"), "accounts")):
                if not isinstance(entry, dict):
                    raise AclConfigError(f"accounts[{i}] is not a mapping")
                account = _account(entry, i)
                if account.access_key in tables.accounts:
                    log.warning("ACL file %s: accessKey %s defined again: ignored", path, account.access_key)
                    continue
                tables.accounts[account.access_key] = account
                tables.key_files[account.access_key] = path
        except (AclConfigError, AddressPatternError) as e:
            raise AclConfigError(f"ACL file {path}: {e}") from None
    tables.global_white = tuple(white)
    tables.files = tuple(files)
    return tables


def file_data_version(data: Mapping[str, Any] | None, path: Path) -> DataVersion:
    """The first element of the file's ``dataVersion`` list; a new version when there is none (Java)."""
    items = data.get("dataVersion") if data else None
    first = items[0] if isinstance(items, list) and items else None
    if first is None:
        return DataVersion()
    counter, stamp = (
        (first.get("counter"), first.get("timestamp")) if isinstance(first, dict) else (None, None)
    )
    if type(counter) is int and type(stamp) is int:
        return DataVersion(timestamp=stamp, counter=counter)
    log.warning("ACL file %s: dataVersion %r is not [{counter: N, timestamp: T}]: starting anew", path, first)
    return DataVersion()


def read_acl_yaml(path: Path) -> dict[str, Any] | None:
    """One file's content as a mapping (None when empty); :class:`AclConfigError` when it is not."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        reason = e.strerror if isinstance(e, OSError) and e.strerror else str(e)
        raise AclConfigError(f"ACL file {path}: cannot read it: {reason}") from None
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as e:
        where = getattr(e, "problem_mark", None)
        at = f" (line {where.line + 1}, column {where.column + 1})" if where is not None else ""
        problem = getattr(e, "problem", None) or type(e).__name__
        raise AclConfigError(f"ACL file {path}: not valid YAML: {problem}{at}") from None
    if data is None:
        return None
    if not isinstance(data, dict):
        raise AclConfigError(
            f"ACL file {path}: expected a mapping with 'accounts' at the top, found a {type(data).__name__}"
        )
    return data


def _list(value: Any, what: str) -> list[Any]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise AclConfigError(f"{what} must be a list")
    return value


def _text(value: Any, what: str) -> str | None:
    """A scalar as fastjson turns it into a Java String (numbers and booleans as Java writes them)."""
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return str(value)
    raise AclConfigError(f"{what} must be a text, not a {type(value).__name__}")


def _flag(value: Any, what: str) -> bool:
    if value is None:
        return False
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in ("true", "false"):
        return value.strip().lower() == "true"
    if isinstance(value, int) and value in (0, 1):
        return value == 1
    raise AclConfigError(f"{what} must be true or false, not {value!r}")


def _account(entry: Mapping[str, Any], i: int) -> Account:
    access_key = _text(entry.get("accessKey"), f"accounts[{i}].accessKey")
    secret_key = _text(entry.get("secretKey"), f"accounts[{i}].secretKey")
    name = access_key if access_key is not None else f"accounts[{i}]"
    if access_key is None or secret_key is None:
        raise AclConfigError(f"account {name}: accessKey and secretKey are both required")
    if len(access_key) <= _MIN_KEY_LENGTH or len(secret_key) <= _MIN_KEY_LENGTH:
        raise AclConfigError(f"account {name}: accessKey and secretKey must be longer than 6 characters")
    perms: dict[str, int] | None = None
    for key, is_topic in (("groupPerms", False), ("topicPerms", True)):  # Java's order: groups, then topics
        for item in _list(entry.get(key), f"account {name}: {key}"):
            text = _text(item, f"account {name}: {key} item") or ""
            parts = [p for p in text.split("=") if p]
            if len(parts) != 2:
                kind = "topic" if is_topic else "group"
                raise AclConfigError(f"account {name}: {key} entry {text!r} is not {kind}=PERM")
            resource = parts[0].strip() if is_topic else RETRY_PREFIX + parts[0].strip()
            perms = {} if perms is None else perms
            perms[resource] = _perm(parts[1], name, key)
    default_topic = _text(entry.get("defaultTopicPerm"), f"account {name}: defaultTopicPerm")
    default_group = _text(entry.get("defaultGroupPerm"), f"account {name}: defaultGroupPerm")
    return Account(
        access_key=access_key,
        secret_key=secret_key,
        white=address_matcher(_text(entry.get("whiteRemoteAddress"), f"account {name}: whiteRemoteAddress")),
        admin=_flag(entry.get("admin"), f"account {name}: admin"),
        default_topic_perm=_perm(default_topic, name, "defaultTopicPerm"),
        default_group_perm=_perm(default_group, name, "defaultGroupPerm"),
        perms=perms,
    )


def _perm(text: str | None, account: str, key: str) -> int:
    """Java reads a missing perm, or a word it does not know, as DENY, silently; we say so in the log."""
    if text is not None and text.strip() not in _PERMS:
        log.warning("ACL account %s: %s %r is not PUB, SUB, PUB|SUB or DENY: DENY", account, key, text)
    return parse_perm(text)
