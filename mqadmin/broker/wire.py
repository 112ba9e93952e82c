"""Writing responses the way a 4.9.8 broker does, and turning refused requests into answers.

Request headers are read with the declared types of :mod:`mqadmin.protocol.headers` (Java's rules:
a missing required field or a number that does not parse refuses the request with SYSTEM_ERROR and
Java's text); :func:`error_answer` is how the broker answers such a refusal. Responses always say
``"language":"JAVA"`` and ``"version":409`` and list their ext fields in ``HashMap`` order.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Mapping
from typing import Any

from mqadmin.protocol.command import RemotingCommand
from mqadmin.protocol.headers.base import HeaderError, ext_text
from mqadmin.protocol.javacoll import java_hash_order, java_string_hash
from mqadmin.remoting.client import Connection, ErrorAnswer, Handler

__all__ = [
    "BROKER_VERSION",
    "FAQ_SUFFIX",
    "NOT_SET_REMARK",
    "RequestError",
    "answer",
    "error_answer",
    "hash_order",
    "hash_ordered",
    "tags_hash",
    "with_version",
]


BROKER_VERSION = 409
"""``MQVersion.CURRENT_VERSION`` of 4.9.8 (``V4_9_8``): what :func:`answer` writes; a broker behaving
as another version rewrites it on the way out (:func:`with_version`)."""

NOT_SET_REMARK = "not set any response code"
"""The remark a Java response starts with; a few handlers leave it on their success answers."""

FAQ_SUFFIX = "\nSee http://rocketmq.apache.org/docs/faq/ for further details."


class RequestError(HeaderError):
    """A request the broker refuses before doing anything: answered with ``code`` and ``remark``."""


def answer(
    req: RemotingCommand,
    code: int = 0,
    remark: str | None = None,
    ext: Mapping[str, Any] | None = None,
    body: bytes | None = None,
) -> RemotingCommand:
    """A response as the broker writes it; ``ext`` (None: no extFields key) goes out in HashMap order."""
    fields: dict[str, str] | None = None
    if ext is not None:
        present = {k: ext_text(v) for k, v in ext.items() if v is not None}
        fields = {k: present[k] for k in hash_order(tuple(present))}
    resp = req.response(code, remark, fields, body)
    resp.version = BROKER_VERSION
    return resp


@functools.lru_cache(maxsize=4096)
def hash_order(keys: tuple[str, ...]) -> tuple[str, ...]:
    """``HashMap`` iteration order of these keys put in this order (cached: key sets repeat)."""
    return tuple(java_hash_order(keys))


def hash_ordered(d: Mapping[str, Any]) -> dict[str, Any]:
    """A copy of ``d`` in the order a default ``HashMap`` filled in ``d``'s order iterates."""
    return {k: d[k] for k in hash_order(tuple(d))}


@functools.lru_cache(maxsize=4096)
def tags_hash(tags: str) -> int:
    """``String.hashCode`` of a TAGS value (cached: tags repeat)."""
    return java_string_hash(tags)


def error_answer(version: int) -> ErrorAnswer:
    """The broker's one error policy, as its server's handler table writes it (see
    :class:`~mqadmin.remoting.client.HandlerTable`): a refusal or a failure answered as :func:`answer`
    writes, saying ``version``."""

    def answered(req: RemotingCommand, code: int, remark: str) -> RemotingCommand:
        resp = answer(req, code, remark)
        resp.version = version
        return resp

    return answered


def with_version(handler: Handler, version: int) -> Handler:
    """``handler`` whose answers (now or awaited) say ``version``, the version the broker behaves as."""
    if version == BROKER_VERSION:
        return handler

    async def later(pending: Any) -> Any:
        resp = await pending
        if isinstance(resp, RemotingCommand):
            resp.version = version
        return resp

    @functools.wraps(handler)
    def versioned(conn: Connection, cmd: RemotingCommand) -> Any:
        resp = handler(conn, cmd)
        if isinstance(resp, RemotingCommand):
            resp.version = version
        elif resp is not None and inspect.isawaitable(resp):
            return later(resp)
        return resp

    return versioned
