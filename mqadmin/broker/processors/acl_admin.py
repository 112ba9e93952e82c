"""ACL 1.0 administration (4.9.8): accounts (50, 51), global white addresses (53), the files' versions
(52) and their content (54, as 4.7 brokers answered it; 4.9.8 dropped it).

The edits are :class:`~mqadmin.broker.acl.edit.PlainAclEditor`'s; a refused one is answered with
Java's failure code (209, 210, 211) and Java's text, and changes nothing. Without ``aclEnable`` a
Java broker fails each of these with a null pointer (no remark, or no answer at all for 52); here
the answer says the ACL is off. The ACL check itself (signature, admin flag) ran before any of
these handlers: see :data:`mqadmin.broker.acl.validator.ADMIN_CODES`.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from mqadmin.broker.acl.edit import AclEditError, PlainAclEditor
from mqadmin.broker.acl.validator import PlainAccessValidator
from mqadmin.broker.config import BrokerSettings
from mqadmin.broker.version import BrokerVersion
from mqadmin.broker.wire import answer, hash_ordered
from mqadmin.protocol import fastjson
from mqadmin.protocol.codes import RequestCode, ResponseCode
from mqadmin.protocol.command import RemotingCommand
from mqadmin.protocol.headers.acl import (
    CreateAccessConfigRequestHeader,
    DeleteAccessConfigRequestHeader,
    PlainAccessConfig,
    UpdateGlobalWhiteAddrsConfigRequestHeader,
    split_list,
)
from mqadmin.remoting.client import Connection, Handler
from mqadmin.remoting.logthrottle import ThrottledLog

__all__ = ["AclAdminProcessor"]

log = logging.getLogger("mqadmin.broker")
_peer_log = ThrottledLog(log)

ACL_OFF = "The broker does not enable acl (aclEnable=false)"

_TEXT_KEYS = ("defaultGroupPerm", "defaultTopicPerm", "secretKey", "whiteRemoteAddress")


def _java_text(value: Any) -> str | None:
    """A YAML scalar as the Java String fastjson would make of it."""
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _plain_access_config(entry: dict[str, Any]) -> dict[str, Any]:
    """One account as fastjson writes a ``PlainAccessConfig``: properties in name order, nulls left out."""
    out: dict[str, Any] = {"accessKey": _java_text(entry.get("accessKey"))}
    admin = entry.get("admin")
    out["admin"] = admin is True or (isinstance(admin, str) and admin.strip().lower() == "true")
    for key in ("defaultGroupPerm", "defaultTopicPerm", "groupPerms", "secretKey", "topicPerms"):
        value = entry.get(key)
        if key in _TEXT_KEYS:
            value = _java_text(value)
        elif isinstance(value, list):
            value = [_java_text(v) for v in value if v is not None]
        else:
            value = None
        if value is not None:
            out[key] = value
    white = _java_text(entry.get("whiteRemoteAddress"))
    if white is not None:
        out["whiteRemoteAddress"] = white
    return {k: out[k] for k in sorted(out)}


class AclAdminProcessor:
    """Codes 50 to 54 (none when the broker behaves as 5.3.3, which answers them as unknown)."""

    def __init__(
        self, *, settings: BrokerSettings, version: BrokerVersion, validator: PlainAccessValidator | None
    ) -> None:
        self.settings = settings
        self.version = version
        self.editor = PlainAclEditor(validator) if validator is not None else None

    def handlers(self) -> dict[int, Handler]:
        if self.version.five_x:  # 5.3.3 has ACL 2.0 and no longer knows these codes
            return {}
        return {
            RequestCode.UPDATE_AND_CREATE_ACL_CONFIG: self.update_account,
            RequestCode.DELETE_ACL_CONFIG: self.delete_account,
            RequestCode.GET_BROKER_CLUSTER_ACL_INFO: self.versions,
            RequestCode.UPDATE_GLOBAL_WHITE_ADDRS_CONFIG: self.update_global_white,
            RequestCode.GET_BROKER_CLUSTER_ACL_CONFIG: self.all_config,
        }

    def _refused(self, conn: Connection, cmd: RemotingCommand, e: AclEditError, secret: str | None) -> Any:
        remark = e.remark if secret is None else e.remark.replace(f"secretKey={secret} ", "secretKey=*** ")
        _peer_log.log(
            logging.INFO,
            "acl edit refused",
            "ACL request %d from %s refused: %s",
            cmd.code,
            conn.remote_addr,
            remark,
        )
        return answer(cmd, e.code, e.remark)

    def _edit(
        self,
        conn: Connection,
        cmd: RemotingCommand,
        off_code: int,
        change: Callable[[PlainAclEditor], object],
        secret: str | None = None,
    ) -> RemotingCommand:
        """A change of the ACL files: ``off_code`` when ACL is off, Java's refusal (``secret`` kept out
        of the log line), or SUCCESS."""
        if self.editor is None:
            return answer(cmd, off_code, ACL_OFF)
        try:
            change(self.editor)
        except AclEditError as e:
            return self._refused(conn, cmd, e, secret)
        return answer(cmd, ResponseCode.SUCCESS)

    def update_account(self, conn: Connection, cmd: RemotingCommand) -> RemotingCommand:
        hdr = CreateAccessConfigRequestHeader.decode(cmd.ext_fields)
        cfg = PlainAccessConfig.from_header(hdr)
        return self._edit(
            conn,
            cmd,
            ResponseCode.UPDATE_AND_CREATE_ACL_CONFIG_FAILED,
            lambda editor: editor.update_account(cfg),
            hdr.secret_key,
        )

    def delete_account(self, conn: Connection, cmd: RemotingCommand) -> RemotingCommand:
        hdr = DeleteAccessConfigRequestHeader.decode(cmd.ext_fields)

        def change(editor: PlainAclEditor) -> None:
            log.info("DeleteAccessConfig called by %s", conn.remote_addr)
            editor.delete_account(hdr.access_key)

        return self._edit(conn, cmd, ResponseCode.DELETE_ACL_CONFIG_FAILED, change)

    def update_global_white(self, conn: Connection, cmd: RemotingCommand) -> RemotingCommand:
        hdr = UpdateGlobalWhiteAddrsConfigRequestHeader.decode(cmd.ext_fields)
        addrs = split_list(hdr.global_white_addrs) or []
        return self._edit(
            conn,
            cmd,
            ResponseCode.UPDATE_GLOBAL_WHITE_ADDRS_CONFIG_FAILED,
            lambda editor: editor.update_global_white(addrs, hdr.acl_file_full_path),
        )

    def versions(self, conn: Connection, cmd: RemotingCommand) -> RemotingCommand:
        if self.editor is None:
            return answer(cmd, ResponseCode.SYSTEM_ERROR, ACL_OFF)
        default, by_file = self.editor.versions()
        all_versions = {path: v.to_json_obj() for path, v in hash_ordered(by_file).items()}
        cfg = self.settings.broker
        ext = {
            "version": default.encode().decode(),
            "allAclFileVersion": fastjson.dumps(all_versions),
            "brokerName": cfg.broker_name,
            "brokerAddr": self.settings.broker_addr,
            "clusterName": cfg.broker_cluster_name,
        }
        return answer(cmd, ResponseCode.SUCCESS, None, ext)

    def all_config(self, conn: Connection, cmd: RemotingCommand) -> RemotingCommand:
        if self.editor is None:
            return answer(cmd, ResponseCode.SYSTEM_ERROR, ACL_OFF)
        white, accounts = self.editor.all_config()
        body = {"globalWhiteAddrs": white, "plainAccessConfigs": [_plain_access_config(a) for a in accounts]}
        return answer(cmd, ResponseCode.SUCCESS, None, None, fastjson.dumps(body).encode())
