"""KV config headers of the name server: PUT, GET, DELETE (100-102) and GET_KVLIST_BY_NAMESPACE (219)."""

from __future__ import annotations

from mqadmin.protocol.headers.base import KvKey, KvNamespace, RequestHeader, request_header

__all__ = [
    "DeleteKVConfigRequestHeader",
    "GetKVConfigRequestHeader",
    "GetKVConfigResponseHeader",
    "GetKVListByNamespaceRequestHeader",
    "PutKVConfigRequestHeader",
]


@request_header
class PutKVConfigRequestHeader(RequestHeader):
    """PUT_KV_CONFIG (100)."""

    namespace: KvNamespace
    key: KvKey
    value: str


@request_header
class GetKVConfigRequestHeader(RequestHeader):
    """GET_KV_CONFIG (101)."""

    namespace: KvNamespace
    key: KvKey


@request_header
class GetKVConfigResponseHeader(RequestHeader):
    """The answer to GET_KV_CONFIG: the value (absent when there is none)."""

    value: str | None = None


@request_header
class DeleteKVConfigRequestHeader(RequestHeader):
    """DELETE_KV_CONFIG (102)."""

    namespace: KvNamespace
    key: KvKey


@request_header
class GetKVListByNamespaceRequestHeader(RequestHeader):
    """GET_KVLIST_BY_NAMESPACE (219)."""

    namespace: KvNamespace
