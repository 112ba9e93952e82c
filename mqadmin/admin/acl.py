"""ACL 1.0 administration of 4.x brokers (``DefaultMQAdminExt`` of 4.9.8): accounts and global white
addresses of ``plain_acl.yml``, and the files' versions.

What an account or a white list may be (key lengths, perms, address patterns) is the broker's to
decide: it answers a refused one with Java's failure code and text (209, 210, 211), which the caller
reports as it came. Nothing is checked twice here.
"""

from __future__ import annotations

from dataclasses import dataclass

from mqadmin.admin.errors import BadResponseError
from mqadmin.admin.family import Family
from mqadmin.protocol import fastjson
from mqadmin.protocol.bodies.dataversion import DataVersion
from mqadmin.protocol.codes import RequestCode
from mqadmin.protocol.errors import ProtocolError
from mqadmin.protocol.headers.acl import (
    DeleteAccessConfigRequestHeader,
    GetBrokerAclConfigResponseHeader,
    PlainAccessConfig,
    UpdateGlobalWhiteAddrsConfigRequestHeader,
)
from mqadmin.protocol.headers.base import HeaderError

__all__ = ["AclConfig", "AclOps", "ClusterAclVersionInfo", "PlainAccessConfig"]


@dataclass(slots=True)
class ClusterAclVersionInfo:
    """``ClusterAclVersionInfo``: who the broker is and its ACL files' versions (by path)."""

    broker_name: str
    broker_addr: str
    cluster_name: str
    acl_config_data_version: DataVersion
    all_acl_config_data_version: dict[str, DataVersion]


@dataclass(slots=True)
class AclConfig:
    """``AclConfig``: a broker's global white addresses and every account of its ACL files."""

    global_white_addrs: list[str]
    plain_access_configs: list[PlainAccessConfig]


def _text_list(value: object, what: str) -> list[str] | None:
    if value is None:
        return None
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ProtocolError(f"{what} is not a list of text")
    return list(value)


def _account(obj: object) -> PlainAccessConfig:
    if not isinstance(obj, dict) or not isinstance(obj.get("accessKey"), str):
        raise ProtocolError("an account without an accessKey")
    keys = ("secretKey", "whiteRemoteAddress", "defaultTopicPerm", "defaultGroupPerm")
    text = {k: obj.get(k) for k in keys}
    if any(v is not None and not isinstance(v, str) for v in text.values()):
        raise ProtocolError(f"account {obj['accessKey']}: a text member is not text")
    return PlainAccessConfig(
        access_key=obj["accessKey"],
        secret_key=text["secretKey"],
        white_remote_address=text["whiteRemoteAddress"],
        admin=obj.get("admin") is True,
        default_topic_perm=text["defaultTopicPerm"],
        default_group_perm=text["defaultGroupPerm"],
        topic_perms=_text_list(obj.get("topicPerms"), "topicPerms"),
        group_perms=_text_list(obj.get("groupPerms"), "groupPerms"),
    )


class AclOps(Family):
    """UPDATE_AND_CREATE_ACL_CONFIG, DELETE_ACL_CONFIG, UPDATE_GLOBAL_WHITE_ADDRS_CONFIG and
    GET_BROKER_CLUSTER_ACL_INFO to one broker."""

    async def create_and_update_plain_access_config(self, addr: str, cfg: PlainAccessConfig) -> None:
        await self.core.invoke(addr, RequestCode.UPDATE_AND_CREATE_ACL_CONFIG, cfg.header())

    async def delete_plain_access_config(self, addr: str, access_key: str) -> None:
        await self.core.invoke(
            addr, RequestCode.DELETE_ACL_CONFIG, DeleteAccessConfigRequestHeader(access_key)
        )

    async def update_global_white_addr_config(
        self, addr: str, global_white_addrs: str, acl_file_full_path: str | None = None
    ) -> None:
        hdr = UpdateGlobalWhiteAddrsConfigRequestHeader(global_white_addrs, acl_file_full_path)
        await self.core.invoke(addr, RequestCode.UPDATE_GLOBAL_WHITE_ADDRS_CONFIG, hdr)

    async def examine_broker_cluster_acl_config(self, addr: str) -> AclConfig:
        """GET_BROKER_CLUSTER_ACL_CONFIG (4.x): the white addresses and accounts the broker holds."""
        resp = await self.core.invoke(addr, RequestCode.GET_BROKER_CLUSTER_ACL_CONFIG)
        try:
            body = fastjson.loads(resp.body or b"{}")
            if not isinstance(body, dict):
                raise ProtocolError("the ACL config is not a JSON object")
            white = _text_list(body.get("globalWhiteAddrs"), "globalWhiteAddrs") or []
            accounts = body.get("plainAccessConfigs") or []
            if not isinstance(accounts, list):
                raise ProtocolError("plainAccessConfigs is not a list")
            return AclConfig(white, [_account(a) for a in accounts])
        except ProtocolError as e:
            raise BadResponseError(addr, f"ACL config: {e}") from None

    async def examine_broker_cluster_acl_version_info(self, addr: str) -> ClusterAclVersionInfo:
        resp = await self.core.invoke(addr, RequestCode.GET_BROKER_CLUSTER_ACL_INFO)
        try:
            hdr = GetBrokerAclConfigResponseHeader.decode(resp.ext_fields)
            default = DataVersion.from_json_obj(fastjson.loads(hdr.version))
            listed = fastjson.loads(hdr.all_acl_file_version or "{}")
            if not isinstance(listed, dict):
                raise ProtocolError("allAclFileVersion is not a JSON object")
            versions = {str(path): DataVersion.from_json_obj(v) for path, v in listed.items()}
        except (HeaderError, ProtocolError) as e:
            raise BadResponseError(addr, f"ACL version info: {e}") from None
        return ClusterAclVersionInfo(hdr.broker_name, hdr.broker_addr, hdr.cluster_name, default, versions)
