"""A frame's payload, the frame less its length prefix: ``int32 (serializeType << 24 | headerLength) |
header | body``, read into a command.

Both frame decoders read payloads here: the plain one (:mod:`mqadmin.protocol.frame`) and a
server's, which holds the header to its code's budget first (:mod:`mqadmin.protocol.headerbudget`).
"""

from __future__ import annotations

import struct

from mqadmin.protocol.command import RemotingCommand, SerializeType
from mqadmin.protocol.errors import ProtocolError
from mqadmin.protocol.header import decode_binary_header, decode_json_header

__all__ = ["SERIALIZE_BY_KIND", "decode_parts", "decode_payload", "split_mark"]

_LEN = struct.Struct(">i")
SERIALIZE_BY_KIND = {0: SerializeType.JSON, 1: SerializeType.ROCKETMQ}
"""The serialization of each payload kind (the top byte of the payload's first int32)."""


def split_mark(payload: bytes | memoryview) -> tuple[int, int]:
    """(kind, header length) of a frame without its length prefix; a bad one raises ProtocolError."""
    n = len(payload)
    if n < 4:
        raise ProtocolError("frame shorter than its header length field")
    mark = _LEN.unpack_from(payload, 0)[0]
    kind = (mark >> 24) & 0xFF
    header_len = mark & 0xFFFFFF
    if header_len > n - 4:
        raise ProtocolError(f"decode error, bad header length: {header_len}")
    if kind not in SERIALIZE_BY_KIND:
        raise ProtocolError(f"unknown serialize type {kind}")
    return kind, header_len


def decode_payload(payload: bytes | memoryview) -> RemotingCommand:
    """A command from a frame without its length prefix (a server's decoder holds the header to its
    code's budget first: :func:`mqadmin.protocol.headerbudget.decode_within_budget`)."""
    kind, header_len = split_mark(payload)
    return decode_parts(payload, kind, header_len)


def decode_parts(
    payload: bytes | memoryview, kind: int, header_len: int, *, header: bytes | None = None
) -> RemotingCommand:
    """The command of ``payload`` whose mark :func:`split_mark` read: its header decoded, its body kept.

    ``header``: the header's bytes, where the caller has copied them already (to judge them first).
    """
    if header is None:
        header = bytes(payload[4 : 4 + header_len])
    if kind == 0:
        cmd = decode_json_header(header)
    else:
        cmd = decode_binary_header(header)
    if len(payload) > 4 + header_len:
        cmd.body = bytes(payload[4 + header_len :])
    return cmd
