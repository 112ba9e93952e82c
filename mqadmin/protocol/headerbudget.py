"""A request's header against the budget its code declares, judged from the raw header bytes.

The bytes and the ext-field count of a header are known before it is decoded: the length is in the
frame, and the fields are counted from the raw bytes (the ``":`` pairs of a JSON header, the length
prefixes of a ROCKETMQ one), never parsed. A 12 MiB header of 900,000 fields is thus refused for the
price of reading its length, before any JSON reader or signature sees it. The code, opaque and flag
the refusal answers with are peeked at the same way (fixed offsets of a ROCKETMQ header; the keys a
fastjson header writes first and last), so the answer reaches the caller that is waiting for it.

Only a server's frame decoder reads frames through :func:`decode_within_budget`; a client's decoder
never loads this module.
"""

from __future__ import annotations

import re
import struct
from dataclasses import dataclass
from functools import cache

from mqadmin.protocol.command import FLAG_RESPONSE, RemotingCommand
from mqadmin.protocol.errors import ProtocolError
from mqadmin.protocol.payload import SERIALIZE_BY_KIND, decode_parts, split_mark
from mqadmin.protocol.requests import HEADER_BYTES, HEADER_FIELDS, declarations

__all__ = [
    "FIELD_BYTES",
    "HeaderPeek",
    "ceiling",
    "decode_within_budget",
    "header_budget",
    "over_header_budget",
    "peek",
]

# the keys every client's JSON header has besides its ext fields (code, extFields, flag, language,
# opaque, version; remark and serializeTypeCurrentRPC are not always written): not counted as fields
_TOP_LEVEL_KEYS = 6
_PEEK_WINDOW = 256
# the fewest bytes one ext field takes (JSON `"":"",`, less its comma; ROCKETMQ: two length prefixes):
# a header of no more than this many bytes per allowed field cannot hold too many, and is not counted
FIELD_BYTES = 5
_JSON_CODE = re.compile(rb'^\s*\{\s*"code"\s*:\s*(-?\d{1,10})')
_JSON_OPAQUE = re.compile(rb'"opaque"\s*:\s*(-?\d{1,10})')
_JSON_FLAG = re.compile(rb'"flag"\s*:\s*(\d{1,10})')
_BIN_FIXED = struct.Struct(">hBhii")  # code, language, version, opaque, flag
_I32 = struct.Struct(">i")
_U16 = struct.Struct(">H")
_ANY_CODE_FITS = FIELD_BYTES * HEADER_FIELDS
"""Header bytes too few to be over any code's budget: no more fields than the default fit in them."""


@dataclass(frozen=True, slots=True)
class HeaderPeek:
    """What a refusal needs of a header it does not decode (None where the bytes do not say)."""

    code: int | None
    opaque: int
    flag: int


@cache
def _budgets() -> dict[int, tuple[int, int]]:
    return {c: (d.budget.header_bytes, d.budget.header_fields) for c, d in declarations().items()}


def header_budget(code: int | None) -> tuple[int, int]:
    """(bytes, ext fields) that a request with ``code`` may carry in its header; a code no one
    declared, or one the header does not show, gets the default."""
    if code is None:
        return HEADER_BYTES, HEADER_FIELDS
    return _budgets().get(code, (HEADER_BYTES, HEADER_FIELDS))


@cache
def ceiling() -> int:
    """The most header bytes any code may carry: more, and no code needs to be known to refuse."""
    return max(HEADER_BYTES, *(b for b, _ in _budgets().values()))


def peek(header: bytes | memoryview, kind: int) -> HeaderPeek:
    """The code, opaque and flag of a header not decoded (``kind`` 1: ROCKETMQ, else JSON)."""
    if kind == 1:
        if len(header) < _BIN_FIXED.size:
            return HeaderPeek(None, 0, 0)
        code, _lang, _version, opaque, flag = _BIN_FIXED.unpack_from(header, 0)
        return HeaderPeek(code, opaque, flag)
    head = bytes(header[:_PEEK_WINDOW])
    tail = bytes(header[-_PEEK_WINDOW:])
    m = _JSON_CODE.match(head)
    code = int(m.group(1)) if m else None
    opaque = _last_int(_JSON_OPAQUE, tail) or _last_int(_JSON_OPAQUE, head) or 0
    flag = _last_int(_JSON_FLAG, tail) or _last_int(_JSON_FLAG, head) or 0
    return HeaderPeek(code, _int32(opaque), _int32(flag))


def _last_int(pattern: re.Pattern[bytes], window: bytes) -> int | None:
    found = pattern.findall(window)
    return int(found[-1]) if found else None


def _int32(v: int) -> int:
    return v if -(1 << 31) <= v < (1 << 31) else 0


def over_header_budget(code: int | None, header: bytes | memoryview, kind: int) -> str | None:
    """Why ``header`` is over the budget of ``code`` (the refusal's remark), or None if it fits.

    Bytes first (free), then, for a header long enough to hold too many fields, a count of them that
    stops once past the budget.
    """
    most_bytes, most_fields = header_budget(code)
    size = len(header)
    if size > most_bytes:
        over = f"a header of {size} bytes is over its limit of {most_bytes} bytes"
    elif size > FIELD_BYTES * most_fields and _count_fields(header, kind, most_fields) > most_fields:
        over = f"a header of more than {most_fields} fields is over its limit"
    else:
        return None
    return f"{'a request' if code is None else f'request code {code}'}: {over}"


def _count_fields(header: bytes | memoryview, kind: int, most: int) -> int:
    """Ext fields in the raw header, counted up to ``most + 1`` at most (never decoded)."""
    if kind == 1:
        return _count_binary(header, most)
    raw = header if isinstance(header, bytes) else bytes(header)
    # every key ends with `":`, so there are no more keys than colons (counted first: a byte is
    # counted several times faster than a pair); a string value holding `":` has its quote escaped
    pairs = raw.count(b":")
    if pairs > most + _TOP_LEVEL_KEYS:
        pairs = raw.count(b'":')
        if pairs > most + _TOP_LEVEL_KEYS and b"\\" in raw:
            pairs -= raw.count(b'\\":')
    return max(0, pairs - _TOP_LEVEL_KEYS)


def _count_binary(header: bytes | memoryview, most: int) -> int:
    """The ext block of a ROCKETMQ header walked by its length prefixes only; a block that does not
    add up is left to the decoder to refuse."""
    n = len(header)
    pos = _BIN_FIXED.size
    if pos + 4 > n:
        return 0
    remark = _I32.unpack_from(header, pos)[0]
    pos += 4 + max(remark, 0)
    if pos + 4 > n:
        return 0
    pos += 4
    count = 0
    while pos + 2 <= n and count <= most:
        klen = _U16.unpack_from(header, pos)[0]
        pos += 2 + klen
        if pos + 4 > n:
            break
        vlen = _I32.unpack_from(header, pos)[0]
        pos += 4 + max(vlen, 0)
        count += 1
    return count


def decode_within_budget(payload: bytes | memoryview) -> RemotingCommand:
    """A request from a frame without its length prefix, its header held to its code's budget first.

    A header over the budget is not decoded: the command holds the code, opaque and flag read from
    the raw header, and the refusal in ``bad_text`` (a response over it is a broken stream).
    """
    kind, header_len = split_mark(payload)
    # past what every code may send (a header too short for that is not even looked at)
    if header_len <= _ANY_CODE_FITS:
        return decode_parts(payload, kind, header_len)
    # a header past every code's budget is never copied; one within it is copied once, then judged
    oversize = header_len > ceiling()
    copied = None if oversize else bytes(payload[4 : 4 + header_len])
    raw = memoryview(payload)[4 : 4 + header_len] if copied is None else copied
    if over_header_budget(None, raw, kind) is None:
        return decode_parts(payload, kind, header_len, header=copied)
    seen = peek(raw, kind)
    refusal = over_header_budget(None if oversize else seen.code, raw, kind)
    if refusal is not None:
        if seen.flag & FLAG_RESPONSE:
            raise ProtocolError(f"response {refusal}")  # nobody to answer: the stream is not ours
        return RemotingCommand(
            code=seen.code or 0,
            opaque=seen.opaque,
            flag=seen.flag,
            serialize_type=SERIALIZE_BY_KIND[kind],
            bad_text=refusal,
        )
    # the code whose larger budget the header took, as its raw bytes show it
    cmd = decode_parts(payload, kind, header_len, header=copied)
    if cmd.code != seen.code and cmd.bad_text is None:
        # the raw header showed another code than the decoded one says: that one's budget holds
        cmd.bad_text = over_header_budget(cmd.code, raw, kind)
    return cmd
