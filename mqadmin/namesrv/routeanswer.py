"""The route query fast path: GET_ROUTEINFO_BY_TOPIC answered from its frame, without a command object.

Route queries are nearly all a name server does, and in Python the generic path (header decoded
into a :class:`RemotingCommand`, a handler, a response object encoded, one write per response)
costs several times the lookup itself. The connection hook of :func:`route_prefilter` looks at each
whole frame of a read first: a plain JSON route query whose answer is at hand is answered from bytes kept per topic,
only the opaque spliced into a ready header, and all answers of one read leave in one write. Any
other frame (another code, a ROCKETMQ or C++-style header, an escape, an odd field, a zone-mode
query, a topic whose answer is not at hand) goes, with everything after it in that read, down the
generic path, which decides exactly as it always did. The answers are byte for byte the generic
path's (the header pieces are cut from a response that path encodes).

:class:`RouteAnswers` is where the answers come from: the route tables themselves in the process
that holds them, a replica in a worker process.
"""

from __future__ import annotations

import json
import struct
from collections.abc import Callable
from typing import Any

from mqadmin.protocol.codes import RequestCode, ResponseCode
from mqadmin.protocol.command import RemotingCommand, SerializeType
from mqadmin.protocol.frame import encode_header
from mqadmin.protocol.javanum import parse_bool
from mqadmin.remoting.client import FramePrefilter

_loads: Callable[[bytes], Any] = json.loads
try:  # about seven times json's speed on a request header; the generic path decides what it refuses
    import orjson

    _loads = orjson.loads
except ImportError:  # pragma: no cover - depends on the installation
    pass

__all__ = [
    "FAQ_TOPIC_URL",
    "ROUTE_CODE",
    "V4_9_4",
    "ZONE_MODE",
    "ZONE_NAME",
    "RouteAnswers",
    "not_found_remark",
    "route_prefilter",
    "success_frame",
]

ROUTE_CODE = int(RequestCode.GET_ROUTEINFO_BY_TOPIC)
V4_9_4 = 401
"""Clients from this version on get route bodies in standard JSON."""
FAQ_TOPIC_URL = "https://rocketmq.apache.org/docs/bestPractice/06FAQ"
ZONE_MODE = "__ZONE_MODE"
ZONE_NAME = "__ZONE_NAME"

_LEN = struct.Struct(">i")
_LEN2 = struct.Struct(">ii")
_INT_MIN, _INT_MAX = -(1 << 31), (1 << 31) - 1
_SENTINEL = 1234567891


def not_found_remark(topic: str | None) -> str:
    """What Java answers for a topic without a route (TOPIC_NOT_EXIST)."""
    shown = "null" if topic is None else topic
    return (
        f"No topic route info in name server for the topic: {shown}"
        f"\nSee {FAQ_TOPIC_URL} for further details."
    )


def _split_header(code: int, remark: str | None = None) -> tuple[bytes, bytes]:
    """The response header the generic path writes, cut where the opaque goes."""
    probe = RemotingCommand(code=0).response(code, remark)
    probe.opaque = _SENTINEL
    head = encode_header(probe)
    pre, _, suf = head.partition(str(_SENTINEL).encode())
    return pre, suf


_OK_PRE, _OK_SUF = _split_header(int(ResponseCode.SUCCESS))
_OK_FIXED = len(_OK_PRE) + len(_OK_SUF)


def success_frame(opaque: int, body: bytes) -> bytes:
    """The whole SUCCESS answer to a route query with ``opaque``, as the generic path encodes it."""
    op = str(opaque).encode()
    hl = _OK_FIXED + len(op)
    return _LEN2.pack(4 + hl + len(body), hl) + _OK_PRE + op + _OK_SUF + body


class RouteAnswers:
    """Where the fast path gets route bodies: ``body(topic, standard)`` or None to go generic."""

    __slots__ = ("body",)

    def __init__(self, body: Callable[[str, bool], bytes | None]) -> None:
        self.body = body


def route_prefilter(answers: RouteAnswers) -> FramePrefilter:
    """The connection hook that answers the plain route queries leading a read straight from their frames."""
    body_of = answers.body

    def prefilter(data: bytes) -> tuple[int, bytes | None]:
        n = len(data)
        pos = 0
        out: list[bytes] = []
        while n - pos >= 8:
            total, mark = _LEN2.unpack_from(data, pos)
            end = pos + 4 + total
            hl = mark & 0xFFFFFF
            # whole frames, JSON header, no body, nothing that could hide an escaped character
            if end > n or mark >> 24 or hl != total - 4 or total < 5:
                break
            header = data[pos + 8 : end]
            if b"\\" in header:
                break
            answer = _answer(header, body_of)
            if answer is None:
                break
            out.append(answer)
            pos = end
        if not out:
            return 0, None
        return pos, b"".join(out) if len(out) > 1 else out[0]

    return prefilter


def _answer(header: bytes, body_of: Callable[[str, bool], bytes | None]) -> bytes | None:
    """The answer to a plain route query, or None for the generic path to decide."""
    try:
        h = _loads(header)
    except ValueError:
        return None
    if type(h) is not dict or "serializeTypeCurrentRPC" not in h or "remark" in h:
        return None
    code, opaque, version, flag = h.get("code"), h.get("opaque"), h.get("version", 0), h.get("flag", 0)
    if (
        type(code) is not int
        or code != ROUTE_CODE
        or flag != 0
        or type(flag) is not int
        or type(opaque) is not int
        or not _INT_MIN <= opaque <= _INT_MAX
        or type(version) is not int
        or not _INT_MIN <= version <= _INT_MAX
        or type(h.get("language", "")) is not str
        or h.get("serializeTypeCurrentRPC") != SerializeType.JSON.value
    ):
        return None
    ext = h.get("extFields")
    if type(ext) is not dict:
        return None
    topic = ext.get("topic")
    if type(topic) is not str or ZONE_MODE in ext:
        return None
    standard = version >= V4_9_4
    if len(ext) > 1:
        for v in ext.values():
            if type(v) is not str:
                return None
        if not standard and "acceptStandardJsonOnly" in ext:
            standard = parse_bool(ext["acceptStandardJsonOnly"])
    body = body_of(topic, standard)
    if body is None:
        return None
    return success_frame(opaque, body)
