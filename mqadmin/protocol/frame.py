"""Frames: ``int32 total | int32 (serializeType << 24 | headerLength) | header | body``, big-endian.

:class:`FrameDecoder` is fed arbitrary chunks (as a socket delivers them) and yields whole commands;
it never buffers more than one frame's worth beyond the limit and raises :class:`ProtocolError` on the
first malformed frame, after which the connection is to be closed. A server's decoder also holds each
request header to its code's budget (:mod:`mqadmin.protocol.headerbudget`) before decoding it: a header
over budget comes out as a command that carries only its code, opaque and flag, and the refusal. A
client's decoder never does, and never loads the budgets.
"""

from __future__ import annotations

import struct
from collections.abc import Callable

from mqadmin.protocol.command import RemotingCommand, SerializeType
from mqadmin.protocol.errors import ProtocolError
from mqadmin.protocol.header import encode_binary_header, encode_json_header
from mqadmin.protocol.payload import decode_payload

#: Java's ``com.rocketmq.remoting.frameMaxLength``: the whole frame, length field included.
MAX_FRAME = 16 * 1024 * 1024

_LEN = struct.Struct(">i")
_LEN2 = struct.Struct(">ii")


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

    __slots__ = ("_buf", "_decode", "_failed")

    def __init__(self, *, header_budget: bool = False) -> None:
        self._buf = bytearray()
        self._failed = False
        self._decode: Callable[[bytes], RemotingCommand] = decode_payload
        if header_budget:  # a server's decoder: only a server reads the request table's budgets
            from mqadmin.protocol.headerbudget import decode_within_budget

            self._decode = decode_within_budget

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
                out.append(self._decode(bytes(buf[start:pos])))
        except ProtocolError:
            self._failed = True
            buf.clear()
            raise
        if pos:
            del buf[:pos]
        return out
