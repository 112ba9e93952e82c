"""Frames: ``int32 total | int32 (serializeType << 24 | headerLength) | header | body``, big-endian.

:class:`FrameDecoder` is fed arbitrary chunks (as a socket delivers them) and yields whole commands;
it never buffers more than one frame's worth beyond the limit and raises :class:`ProtocolError` on the
first malformed frame, after which the connection is to be closed. A server's decoder also holds each
request header to its code's budget (:mod:`mqadmin.protocol.headerbudget`) before decoding it: a header
over budget comes out as a command that carries only its code, opaque and flag, and the refusal.
"""

from __future__ import annotations

import struct

from mqadmin.protocol.command import FLAG_RESPONSE, RemotingCommand, SerializeType
from mqadmin.protocol.errors import ProtocolError
from mqadmin.protocol.header import (
    decode_binary_header,
    decode_json_header,
    encode_binary_header,
    encode_json_header,
)
from mqadmin.protocol.headerbudget import FIELD_BYTES, ceiling, over_header_budget, peek
from mqadmin.protocol.requests import HEADER_FIELDS

#: Java's ``com.rocketmq.remoting.frameMaxLength``: the whole frame, length field included.
MAX_FRAME = 16 * 1024 * 1024

_LEN = struct.Struct(">i")
_LEN2 = struct.Struct(">ii")
_SERIALIZE_BY_KIND = {0: SerializeType.JSON, 1: SerializeType.ROCKETMQ}
_ANY_CODE_FITS = FIELD_BYTES * HEADER_FIELDS
"""Header bytes too few to be over any code's budget: no more fields than the default fit in them."""


def encode_header(cmd: RemotingCommand) -> bytes:
    """The header bytes in the command's own serialization."""
    if cmd.serialize_type is SerializeType.ROCKETMQ:
        return encode_binary_header(cmd)
    return encode_json_header(cmd)


def encode(cmd: RemotingCommand) -> bytes:
    """One whole frame, length prefix included."""
    header = encode_header(cmd)
    body = cmd.body or b""
    total = 4 + len(header) + len(body)
    if total + 4 > MAX_FRAME:
        raise ProtocolError(f"frame of {total + 4} bytes exceeds the {MAX_FRAME} byte limit")
    mark = (cmd.serialize_type.code << 24) | len(header)
    return _LEN2.pack(total, mark) + header + body


def decode_payload(payload: bytes | memoryview, *, budget: bool = False) -> RemotingCommand:
    """A command from a frame without its length prefix.

    With ``budget`` (a server reading requests), a header over its code's budget is not decoded: the
    command holds the code, opaque and flag read from the raw header, and the refusal in ``bad_text``.
    """
    n = len(payload)
    if n < 4:
        raise ProtocolError("frame shorter than its header length field")
    mark = _LEN.unpack_from(payload, 0)[0]
    kind = (mark >> 24) & 0xFF
    header_len = mark & 0xFFFFFF
    if header_len > n - 4:
        raise ProtocolError(f"decode error, bad header length: {header_len}")
    if kind not in _SERIALIZE_BY_KIND:
        raise ProtocolError(f"unknown serialize type {kind}")
    # a header past every code's budget is never copied; one within it is copied once, then judged
    oversize = budget and header_len > ceiling()
    raw = memoryview(payload)[4 : 4 + header_len] if oversize else bytes(payload[4 : 4 + header_len])
    lent: int | None = None  # the code whose larger budget a header took, as its raw bytes show it
    # past what every code may send (a header too short for that is not even looked at)
    if budget and header_len > _ANY_CODE_FITS and over_header_budget(None, raw, kind) is not None:
        seen = peek(raw, kind)
        refusal = over_header_budget(None if oversize else seen.code, raw, kind)
        if refusal is not None:
            if seen.flag & FLAG_RESPONSE:
                raise ProtocolError(f"response {refusal}")  # nobody to answer: the stream is not ours
            return RemotingCommand(
                code=seen.code or 0,
                opaque=seen.opaque,
                flag=seen.flag,
                serialize_type=_SERIALIZE_BY_KIND[kind],
                bad_text=refusal,
            )
        lent = seen.code
    header = bytes(raw)
    if kind == 0:
        cmd = decode_json_header(header)
    else:
        cmd = decode_binary_header(header)
    if lent is not None and cmd.code != lent and cmd.bad_text is None:
        # the raw header showed another code than the decoded one says: that one's budget holds
        cmd.bad_text = over_header_budget(cmd.code, header, kind)
    if n > 4 + header_len:
        cmd.body = bytes(payload[4 + header_len :])
    return cmd


def decode(frame: bytes) -> RemotingCommand:
    """A command from exactly one whole frame (length prefix included)."""
    if len(frame) < 4:
        raise ProtocolError("frame shorter than its length field")
    total = _LEN.unpack_from(frame, 0)[0]
    _check_total(total)
    if total != len(frame) - 4:
        raise ProtocolError(f"frame length {total} does not match the {len(frame) - 4} bytes given")
    return decode_payload(memoryview(frame)[4:])


def _check_total(total: int) -> None:
    if total < 4:
        raise ProtocolError(f"bad frame length {total}")
    if total + 4 > MAX_FRAME:
        raise ProtocolError(f"frame of {total + 4} bytes exceeds the {MAX_FRAME} byte limit")


class FrameDecoder:
    """Incremental decoder: ``feed`` bytes as they come, get whole commands out."""

    __slots__ = ("_budget", "_buf", "_failed")

    def __init__(self, *, header_budget: bool = False) -> None:
        self._buf = bytearray()
        self._failed = False
        #: hold each header to its code's budget before decoding it (a server's decoder)
        self._budget = header_budget

    @property
    def buffered(self) -> int:
        """Bytes held waiting for the rest of a frame."""
        return len(self._buf)

    def feed(self, data: bytes | memoryview) -> list[RemotingCommand]:
        """Add bytes; return every command now complete (possibly none).

        After a :class:`ProtocolError` the decoder stays failed: the stream has lost its framing.
        """
        if self._failed:
            raise ProtocolError("decoder already failed on a malformed frame")
        buf = self._buf
        buf += data
        out: list[RemotingCommand] = []
        pos = 0
        try:
            while len(buf) - pos >= 4:
                total = _LEN.unpack_from(buf, pos)[0]
                _check_total(total)
                if len(buf) - pos - 4 < total:
                    break
                start = pos + 4
                pos = start + total
                out.append(decode_payload(bytes(buf[start:pos]), budget=self._budget))
        except ProtocolError:
            self._failed = True
            buf.clear()
            raise
        if pos:
            del buf[:pos]
        return out
