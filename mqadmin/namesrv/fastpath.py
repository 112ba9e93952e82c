"""The route query fast path: GET_ROUTEINFO_BY_TOPIC answered from its frame, without a command object.

Route queries are nearly all a name server does, and in Python the generic path (header decoded
into a :class:`RemotingCommand`, a handler, a response object encoded, one write per response)
costs several times the lookup itself. :func:`route_prefilter` is the connection's frame pre-filter
(:data:`~mqadmin.remoting.client.FramePrefilter`): it looks at each whole frame of a read first, and
a plain JSON route query that :func:`~mqadmin.namesrv.routequery.answer` answers with a body is
answered at once, only the opaque spliced into a ready header, the answers of a batch of frames in one
write (a batch stops at :data:`FAST_BATCH_BYTES` of answers, so the connection checks its output budget
between batches). Any other frame (another code, a ROCKETMQ or C++-style header, an escape, an odd
field, a header over its budget, a query answered otherwise than with a body) goes, with everything
after it in that read, down the generic path, which asks the same decision and refuses what is over
budget. The answers are byte for byte the generic path's (the header pieces are cut from a response
that path encodes).
"""

from __future__ import annotations

import json
import struct
from collections.abc import Callable
from typing import Any

from mqadmin.namesrv.routequery import RouteQuery, RouteSource, answer
from mqadmin.protocol.codes import RequestCode, ResponseCode
from mqadmin.protocol.command import RemotingCommand, SerializeType
from mqadmin.protocol.frame import encode_header
from mqadmin.protocol.headerbudget import FIELD_BYTES, header_budget, over_header_budget
from mqadmin.remoting.connection import FramePrefilter

_loads: Callable[[bytes], Any] = json.loads
try:  # about seven times json's speed on a request header; the generic path decides what it refuses
    import orjson

    _loads = orjson.loads
except ImportError:  # pragma: no cover - depends on the installation
    pass

__all__ = ["FAST_BATCH_BYTES", "ROUTE_CODE", "route_prefilter"]

ROUTE_CODE = int(RequestCode.GET_ROUTEINFO_BY_TOPIC)
FAST_BATCH_BYTES = 64 * 1024
"""Answer bytes after which one call of the pre-filter stops and hands back to the connection."""
_ROUTE_HEADER_BYTES, _ROUTE_FIELDS = header_budget(ROUTE_CODE)
_ROUTE_FITS = FIELD_BYTES * _ROUTE_FIELDS  # header bytes too few to hold too many fields

_LEN2 = struct.Struct(">ii")
_INT_MIN, _INT_MAX = -(1 << 31), (1 << 31) - 1
_SENTINEL = 1234567891
_JSON = SerializeType.JSON.value


def _split_header(code: int, remark: str | None = None) -> tuple[bytes, bytes]:
    """The response header the generic path writes, cut where the opaque goes."""
    probe = RemotingCommand(code=0).response(code, remark)
    probe.opaque = _SENTINEL
    head = encode_header(probe)
    pre, _, suf = head.partition(str(_SENTINEL).encode())
    return pre, suf


_OK_PRE, _OK_SUF = _split_header(int(ResponseCode.SUCCESS))
_OK_FIXED = len(_OK_PRE) + len(_OK_SUF)


def route_prefilter(source: RouteSource) -> FramePrefilter:
    """The frame pre-filter answering the route queries that lead a read from ``source``."""
    # looked up once, not per frame: this runs for nearly every request a name server gets
    query_of, decide, loads = RouteQuery.of, answer, _loads

    def frame_answer(header: bytes) -> bytes | None:
        """The answer to a plain route query whose answer is a body, or None for the generic path."""
        try:
            h = loads(header)
        except ValueError:
            return None
        if type(h) is not dict or "remark" in h:
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
            or h.get("serializeTypeCurrentRPC") != _JSON
        ):
            return None
        ext = h.get("extFields")
        if type(ext) is not dict or type(ext.get("topic")) is not str:
            return None
        if len(ext) > 1:
            for v in ext.values():
                if type(v) is not str:
                    return None
        ans = decide(query_of(version, ext), source)
        if type(ans) is not bytes:
            return None
        # the SUCCESS answer as the generic path encodes it: its header, this opaque spliced in
        op = str(opaque).encode()
        hl = _OK_FIXED + len(op)
        return b"".join((_LEN2.pack(4 + hl + len(ans), hl), _OK_PRE, op, _OK_SUF, ans))

    def prefilter(data: bytes, pos: int) -> tuple[int, bytes | None]:
        n = len(data)
        first: bytes | None = None  # most reads hold one query: its answer is written as it is
        out: list[bytes] | None = None
        size = 0
        while n - pos >= 8 and size < FAST_BATCH_BYTES:
            total, mark = _LEN2.unpack_from(data, pos)
            end = pos + 4 + total
            hl = mark & 0xFFFFFF
            # whole frames, JSON header within the route query's budget, no body, nothing that could
            # hide an escaped character
            if end > n or mark >> 24 or hl != total - 4 or total < 5 or hl > _ROUTE_HEADER_BYTES:
                break
            header = data[pos + 8 : end]
            if b"\\" in header or (hl > _ROUTE_FITS and over_header_budget(ROUTE_CODE, header, 0)):
                break
            frame = frame_answer(header)
            if frame is None:
                break
            size += len(frame)
            if first is None:
                first = frame
            elif out is None:
                out = [first, frame]
            else:
                out.append(frame)
            pos = end
        return pos, first if out is None else b"".join(out)

    return prefilter
