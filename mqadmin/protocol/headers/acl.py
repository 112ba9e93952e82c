"""ACL 1.0 administration requests (4.9.8): accounts and global white addresses of ``plain_acl.yml``.

UPDATE_AND_CREATE_ACL_CONFIG (50), DELETE_ACL_CONFIG (51), UPDATE_GLOBAL_WHITE_ADDRS_CONFIG (53);
GET_BROKER_CLUSTER_ACL_INFO (52) and GET_BROKER_CLUSTER_ACL_CONFIG (54) carry no request header.
What the values may be (key lengths, perms, address patterns) is the broker's check
(:func:`mqadmin.broker.acl.accounts.access_config_refusal`), which the admin client runs too before sending.
"""

from __future__ import annotations

from dataclasses import dataclass

from mqadmin.protocol.headers.base import RequestHeader, request_header

__all__ = [
    "CreateAccessConfigRequestHeader",
    "DeleteAccessConfigRequestHeader",
    "GetBrokerAclConfigResponseHeader",
    "PlainAccessConfig",
    "UpdateGlobalWhiteAddrsConfigRequestHeader",
    "join_list",
    "split_list",
]


def split_list(text: str | None) -> list[str] | None:
    """A comma-joined list field as Java reads it (``UtilAll.split`` is ``String.split``: trailing
    empty parts are dropped, and a text without a comma is one part, even an empty one)."""
    if text is None:
        return None
    if "," not in text:
        return [text]
    parts = text.split(",")
    while parts and parts[-1] == "":
        parts.pop()
    return parts


def join_list(items: list[str] | None) -> str | None:
    """``UtilAll.join(list, ",")``: how a client writes a list field (null for null)."""
    return None if items is None else ",".join(items)


@request_header
class CreateAccessConfigRequestHeader(RequestHeader):
    """UPDATE_AND_CREATE_ACL_CONFIG (50): one account; the perm lists are comma-joined ``name=PERM``."""

    access_key: str
    secret_key: str | None = None
    white_remote_address: str | None = None
    admin: bool = False
    default_topic_perm: str | None = None
    default_group_perm: str | None = None
    topic_perms: str | None = None
    group_perms: str | None = None


@dataclass(slots=True)
class PlainAccessConfig:
    """One account to create or update (Java ``PlainAccessConfig``): what the admin client sends as a
    :class:`CreateAccessConfigRequestHeader` (None fields are not sent) and the broker reads back."""

    access_key: str
    secret_key: str | None = None
    white_remote_address: str | None = None
    admin: bool = False
    default_topic_perm: str | None = None
    default_group_perm: str | None = None
    topic_perms: list[str] | None = None
    group_perms: list[str] | None = None

    def header(self) -> CreateAccessConfigRequestHeader:
        """The request header, the perm lists comma-joined."""
        return CreateAccessConfigRequestHeader(
            access_key=self.access_key,
            secret_key=self.secret_key,
            white_remote_address=self.white_remote_address,
            admin=self.admin,
            default_topic_perm=self.default_topic_perm,
            default_group_perm=self.default_group_perm,
            topic_perms=join_list(self.topic_perms),
            group_perms=join_list(self.group_perms),
        )

    @classmethod
    def from_header(cls, hdr: CreateAccessConfigRequestHeader) -> PlainAccessConfig:
        """The account a request header gives, the perm lists split as Java splits them."""
        return cls(
            access_key=hdr.access_key,
            secret_key=hdr.secret_key,
            white_remote_address=hdr.white_remote_address,
            admin=hdr.admin,
            default_topic_perm=hdr.default_topic_perm,
            default_group_perm=hdr.default_group_perm,
            topic_perms=split_list(hdr.topic_perms),
            group_perms=split_list(hdr.group_perms),
        )


@request_header
class DeleteAccessConfigRequestHeader(RequestHeader):
    """DELETE_ACL_CONFIG (51)."""

    access_key: str


@request_header
class UpdateGlobalWhiteAddrsConfigRequestHeader(RequestHeader):
    """UPDATE_GLOBAL_WHITE_ADDRS_CONFIG (53): the comma-joined patterns and, optionally, the file.

    Java declares ``aclFileFullPath`` not-null, yet its own tool leaves it out when ``-p`` is not
    given (and a 4.9.8 broker then refuses the request); here it is optional and means the default
    file, as the broker's code intends.
    """

    global_white_addrs: str
    acl_file_full_path: str | None = None


@request_header
class GetBrokerAclConfigResponseHeader(RequestHeader):
    """The answer to GET_BROKER_CLUSTER_ACL_INFO (52): the default file's version (DataVersion JSON),
    every file's version (JSON object by path) and who the broker is. Java's ``@CFNotNull`` fields
    come first here; a response goes out in the broker's ``HashMap`` order anyway."""

    version: str
    broker_name: str
    broker_addr: str
    cluster_name: str
    all_acl_file_version: str | None = None
