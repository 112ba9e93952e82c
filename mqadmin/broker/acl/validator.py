"""ACL 1.0 on the development broker: every request is checked before its handler, as the rpc hook of
a Java broker with ``aclEnable=true`` checks it with ``PlainAccessValidator`` (4.9.8; 5.x up to 5.2 is
the same, 5.3 replaced it with ACL 2.0 and only migrates ``plain_acl.yml``).

The order of the checks: a request from a global white-listed address passes; otherwise it needs an
``AccessKey`` known to the accounts; a request from the account's own white-listed address then
passes; otherwise its ``Signature`` must be the HmacSHA1 of its ext fields and body
(:mod:`mqadmin.protocol.acl`). Only then is anything of the request read (Java parses the body
first, so an unsigned 8 MB heartbeat cost a parse): the codes the request registry keeps for admin
accounts (:attr:`~mqadmin.protocol.requests.Declaration.acl1_admin`: Java's five, the ACL edits, and
every other change or read of broker-wide state) need ``admin: true``, and the topics and groups the
request names need the account's perms (its ``topicPerms``/``groupPerms``, else its defaults). A
``%RETRY%G`` topic is always group G's, whatever group a send names.

A refused request is answered with NO_PERMISSION (16), as a 5.3.3 broker answers a request its
authentication refuses, and with the text of Java 4.9.8's ``AclException`` as the remark (a 4.9.8
broker answers SYSTEM_ERROR with that exception's class, message and first stack frame). Nothing of
the request reaches a handler.

The account files (:mod:`mqadmin.broker.acl.accounts`) are read at start; every 5 s at most, when a
request comes, their modification times are checked and changed files are read again. A file that
has become unreadable keeps the tables that were in force, with one error line in the log.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Mapping
from pathlib import Path

from mqadmin.broker.acl.accounts import (
    ANY,
    DENY,
    PUB,
    RETRY_PREFIX,
    SUB,
    Account,
    AclConfigError,
    AclTables,
    acl_file_paths,
    default_acl_file,
    load_acl_files,
    retry_topic,
)
from mqadmin.broker.acl.addresses import connection_host
from mqadmin.broker.config import BrokerSettings
from mqadmin.protocol.acl import ACCESS_KEY, UNIQUE_MSG_QUERY_FLAG, verify
from mqadmin.protocol.bodies import fieldcheck as j
from mqadmin.protocol.codes import RequestCode, ResponseCode
from mqadmin.protocol.command import RemotingCommand
from mqadmin.protocol.errors import ProtocolError
from mqadmin.protocol.headers.base import HeaderError
from mqadmin.protocol.javacoll import java_hash_order
from mqadmin.protocol.javanum import JavaNumberError, parse_int, parse_long
from mqadmin.protocol.requests import PUB as PUB_ACTION
from mqadmin.protocol.requests import RESOURCE, declared
from mqadmin.remoting.client import Connection

__all__ = [
    "AclConfigError",
    "AclDenied",
    "PlainAccessValidator",
    "check_permission",
    "plain_validator",
    "request_resources",
]

log = logging.getLogger("mqadmin.broker")

RELOAD_CHECK_INTERVAL_S = 5.0
"""Java's ``AclFileWatchService`` looks at the files every 5 s."""

TRACE_TOPIC = "RMQ_SYS_TRACE_TOPIC"


class AclDenied(HeaderError):
    """A request the ACL refuses: NO_PERMISSION with the Java ``AclException`` message as remark."""

    def __init__(self, remark: str) -> None:
        super().__init__(remark, ResponseCode.NO_PERMISSION)


def check_permission(needed: int, owned: int) -> bool:
    """``Permission.checkPermission``."""
    if owned & DENY:
        return False
    if needed & ANY:
        return bool(owned & (PUB | SUB))
    return bool(needed & owned)


# ---------------------------------------------------------------------------------- what a request names


def _add(resources: dict[str, int], name: str | None, perm: int) -> None:
    if name is not None:
        resources[name] = perm


def _header(
    ext: Mapping[str, str], required: tuple[str, ...], ints: tuple[str, ...] = (), longs: tuple[str, ...] = ()
) -> None:
    """Java's reflective header decode, for its failures only: a missing required field, a bad number."""
    for name in required:
        value = ext.get(name)
        if value is None:
            raise AclDenied(f"the custom field <{name}> is null")
        try:
            if name in ints:
                parse_int(value)
            elif name in longs:
                parse_long(value)
        except JavaNumberError:
            raise AclDenied(f'For input string: "{value}"') from None


def _heartbeat(cmd: RemotingCommand, resources: dict[str, int]) -> None:
    try:
        data = j.decode_object(cmd.body or b"", "HeartbeatData")
    except ProtocolError as e:
        raise AclDenied(f"decode HeartbeatData failed: {e}") from None
    consumers = data.get("consumerDataSet")
    for cd in consumers if isinstance(consumers, list) else ():
        if not isinstance(cd, dict):
            continue
        group = cd.get("groupName")
        _add(resources, retry_topic(group) if isinstance(group, str) else None, SUB)
        subs = cd.get("subscriptionDataSet")
        for sd in subs if isinstance(subs, list) else ():
            topic = sd.get("topic") if isinstance(sd, dict) else None
            _add(resources, topic if isinstance(topic, str) else None, SUB)


def request_resources(cmd: RemotingCommand) -> dict[str, int]:
    """``PlainAccessValidator.parse``: the topics (by name) and groups (by retry topic) a request
    names, with the perm each needs. Java reads exactly these codes; the others name nothing."""
    ext = cmd.ext_fields
    resources: dict[str, int] = {}
    if ext is None:
        return resources
    code = cmd.code
    if code in (RequestCode.SEND_MESSAGE, RequestCode.SEND_MESSAGE_V2, RequestCode.SEND_BATCH_MESSAGE):
        topic = ext.get("topic") if code == RequestCode.SEND_MESSAGE else ext.get("b")
        # a send to a retry topic needs SUB on the group the topic is of (Java reads the "group"
        # field, so one group's account could write into another group's retry topic)
        _add(resources, topic, SUB if topic is not None and topic.startswith(RETRY_PREFIX) else PUB)
    elif code == RequestCode.CONSUMER_SEND_MSG_BACK:
        _add(resources, retry_topic(ext.get("group")), SUB)
    elif code == RequestCode.PULL_MESSAGE:
        _add(resources, ext.get("topic"), SUB)
        _add(resources, retry_topic(ext.get("consumerGroup")), SUB)
    elif code == RequestCode.QUERY_MESSAGE:
        _add(resources, ext.get("topic"), SUB)
    elif code == RequestCode.HEART_BEAT:
        _heartbeat(cmd, resources)
    elif code == RequestCode.UNREGISTER_CLIENT:
        _header(ext, ("clientID",))
        _add(resources, retry_topic(ext.get("consumerGroup")), SUB)
    elif code == RequestCode.GET_CONSUMER_LIST_BY_GROUP:
        _header(ext, ("consumerGroup",))
        _add(resources, retry_topic(ext.get("consumerGroup")), SUB)
    elif code == RequestCode.UPDATE_CONSUMER_OFFSET:
        _header(ext, ("consumerGroup", "topic", "queueId", "commitOffset"), ("queueId",), ("commitOffset",))
        _add(resources, retry_topic(ext.get("consumerGroup")), SUB)
        _add(resources, ext.get("topic"), SUB)
    elif code == RequestCode.QUERY_CONSUMER_OFFSET:  # Java reads neither of these two
        _add(resources, retry_topic(ext.get("consumerGroup")), SUB)
        _add(resources, ext.get("topic"), SUB)
    elif code == RequestCode.END_TRANSACTION:
        _add(resources, ext.get("topic") or None, PUB)
    else:
        _declared_resources(code, ext, resources)
    return resources


def _declared_resources(code: int, ext: Mapping[str, str], resources: dict[str, int]) -> None:
    """The topics and groups a request's declaration names: PUB for a publish, SUB for the rest
    (ACL 1.0 has no other perms). Java reads no other code; here every declared field counts."""
    decl = declared(code)
    if decl is None or decl.access != RESOURCE:
        return
    perm = PUB if PUB_ACTION in decl.actions else SUB
    for res in decl.resources:
        value = ext.get(res.field)
        if value is None:
            continue
        for name in [v for v in value.split(res.splitter) if v] if res.splitter else [value]:
            _add(resources, name if res.type == "Topic" else retry_topic(name), perm)


def _signature_ok(ext: Mapping[str, str], body: bytes | None, secret_key: str) -> bool:
    """Java's check, which leaves ``_UNIQUE_KEY_QUERY`` out (4.9.8; 5.x for clients up to 4.9.3); Java
    clients sign it, so a signature over it is taken too: either way the sender knows the secret."""
    if verify(ext, body, secret_key, ignore=(UNIQUE_MSG_QUERY_FLAG,)):
        return True
    return UNIQUE_MSG_QUERY_FLAG in ext and verify(ext, body, secret_key)


def _describe(resource: str) -> str:
    """``PlainAccessResource.printStr``."""
    if resource.startswith(RETRY_PREFIX):
        return f"group:{resource[len(RETRY_PREFIX) :]}"
    return f"topic:{resource}"


# ---------------------------------------------------------------------------------- the validator


class PlainAccessValidator:
    """The accounts of the ACL files and the check every request goes through."""

    def __init__(self, default_file: Path) -> None:
        self.default_file = default_file
        paths = acl_file_paths(default_file)
        if not paths:
            raise AclConfigError(
                f"aclEnable=true but there is no ACL file: write the accounts to {default_file}"
            )
        self.tables: AclTables = load_acl_files(paths)
        self._stamps = self._file_stamps()
        self._next_check = time.monotonic() + RELOAD_CHECK_INTERVAL_S
        log.info(
            "ACL enabled: %d account(s), %d global white address pattern(s) from %s",
            len(self.tables.accounts),
            len(self.tables.global_white),
            ", ".join(str(p) for p in self.tables.files),
        )

    @classmethod
    def for_settings(cls, settings: BrokerSettings) -> PlainAccessValidator:
        return cls(default_acl_file(settings.broker.rocketmq_home, settings.store.store_path_root_dir))

    # ------------------------------------------------------------------------------ reload

    def _file_stamps(self) -> tuple[tuple[str, int, int], ...]:
        stamps = []
        for p in acl_file_paths(self.default_file):
            try:
                st = os.stat(p)
            except OSError:
                continue
            stamps.append((str(p), st.st_mtime_ns, st.st_size))
        return tuple(stamps)

    def reload_if_changed(self) -> bool:
        """Read the files again if any changed, appeared or went; True when new tables are in force."""
        stamps = self._file_stamps()
        if stamps == self._stamps:
            return False
        self._stamps = stamps
        try:
            tables = load_acl_files(Path(s[0]) for s in stamps)
        except AclConfigError as e:
            log.error("%s; the ACL in force is kept", e)
            return False
        self.tables = tables
        log.info(
            "ACL files changed: %d account(s), %d global white address pattern(s) now",
            len(tables.accounts),
            len(tables.global_white),
        )
        return True

    def install(self, tables: AclTables) -> None:
        """Put tables built from files just written in force at once (an edit through the broker);
        the files' new stamps are taken so the next check does not read them again."""
        self.tables = tables
        self._stamps = self._file_stamps()
        log.info(
            "ACL edited: %d account(s), %d global white address pattern(s) now",
            len(tables.accounts),
            len(tables.global_white),
        )

    def _maybe_reload(self) -> None:
        now = time.monotonic()
        if now >= self._next_check:
            self._next_check = now + RELOAD_CHECK_INTERVAL_S
            self.reload_if_changed()

    # ------------------------------------------------------------------------------ the check

    def check(self, conn: Connection, cmd: RemotingCommand) -> None:
        """Raise :class:`AclDenied` unless the request may go to its handler."""
        self._maybe_reload()
        self.validate(cmd, connection_host(conn))

    def require(self, conn: Connection, cmd: RemotingCommand, rtype: str, name: str, perm: int) -> None:
        """Refuse unless the sender of ``cmd`` (already let through :meth:`check`) holds ``perm`` on
        the topic (``rtype`` ``Topic``) or group ``name``: a handler's check of what it found."""
        host = connection_host(conn)
        tables = self.tables
        if any(white(host) for white in tables.global_white):
            return
        ext = cmd.ext_fields or {}
        account = tables.accounts.get(ext.get(ACCESS_KEY, ""))
        if account is None:
            raise AclDenied("No accessKey is configured")
        if account.white(host):
            return
        resource = name if rtype == "Topic" else (retry_topic(name) or name)
        self._check_perm(cmd.code, {resource: perm}, account)

    def validate(self, cmd: RemotingCommand, host: str) -> None:
        """``PlainAccessValidator.validate(parse(request, remoteAddr))`` for a peer at ``host``."""
        tables = self.tables
        for white in tables.global_white:
            if white(host):
                return
        ext = cmd.ext_fields
        access_key = ext.get(ACCESS_KEY) if ext is not None else None
        if access_key is None:
            raise AclDenied("No accessKey is configured")
        account = tables.accounts.get(access_key)
        if account is None:
            raise AclDenied(f"No acl config for {access_key}")
        if account.white(host):
            return
        assert ext is not None
        if not _signature_ok(ext, cmd.body, account.secret_key):
            raise AclDenied(f"Check signature failed for accessKey={access_key}")
        try:
            resources = request_resources(cmd)
        except AclDenied:
            raise
        except Exception as e:  # Java wraps whatever its parse throws in an AclException
            raise AclDenied(str(e)) from None
        if resources.get(TRACE_TOPIC) == PUB:  # Java lets message traces through unchecked
            return
        self._check_perm(cmd.code, resources, account)

    @staticmethod
    def _check_perm(code: int, needed: dict[str, int], account: Account) -> None:
        """``PlainPermissionManager.checkPerm``; of several refused resources Java names the first in
        its ``HashMap`` order, so the order is worked out only when one is refused."""
        decl = declared(code)
        if (decl is None or decl.acl1_admin) and not account.admin:
            raise AclDenied(
                f"Need admin permission for request code={code}, but accessKey={account.access_key} is not"
            )
        if not needed:
            return
        owned = account.perms
        if owned is None and account.admin:
            return
        refused = []
        for resource, perm in needed.items():
            have = owned.get(resource) if owned is not None else None
            if have is None:
                is_group = resource.startswith(RETRY_PREFIX)
                have = account.default_group_perm if is_group else account.default_topic_perm
            if not check_permission(perm, have):
                refused.append(resource)
        if refused:
            first = (
                refused[0] if len(refused) == 1 else next(r for r in java_hash_order(needed) if r in refused)
            )
            raise AclDenied(f"No default permission for {_describe(first)}")


# ---------------------------------------------------------------------------------- the broker's hook


def plain_validator(settings: BrokerSettings) -> PlainAccessValidator | None:
    """The ACL 1.0 check for these settings, None without ``aclEnable`` (with it the files are read
    now: :class:`AclConfigError` if they cannot be used)."""
    if not settings.broker.acl_enable:
        return None
    return PlainAccessValidator.for_settings(settings)
