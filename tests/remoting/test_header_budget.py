"""The header budget: declared for every request code, roomy for every header Java really sent, and
judged from the raw frame (bytes, then a bounded count of fields) before anything is decoded."""

from __future__ import annotations

import struct
import time

import pytest

from mqadmin.protocol import headerbudget
from mqadmin.protocol.codes import RequestCode, ResponseCode
from mqadmin.protocol.command import RemotingCommand, SerializeType
from mqadmin.protocol.errors import ProtocolError
from mqadmin.protocol.frame import FrameDecoder, encode
from mqadmin.protocol.headerbudget import header_budget, over_header_budget, peek
from mqadmin.protocol.requests import HEADER_BYTES, HEADER_FIELDS, declarations
from tests.captures import all_frames

ROOM = 4
"""How many times its largest recorded header each code's budget holds, at the least."""


def _header_of(frame: bytes) -> tuple[bytes, int]:
    mark = struct.unpack_from(">i", frame, 4)[0]
    return frame[8 : 8 + (mark & 0xFFFFFF)], (mark >> 24) & 0xFF


def test_every_declared_code_has_a_header_budget() -> None:
    decls = declarations()
    assert len(decls) > 100
    for code, decl in decls.items():
        assert decl.budget.header_bytes >= HEADER_BYTES, code
        assert decl.budget.header_fields >= HEADER_FIELDS, code
        assert header_budget(code) == (decl.budget.header_bytes, decl.budget.header_fields)
    # where Java's clients really send more: a message's properties, ACL 1.0 permission lists
    assert header_budget(RequestCode.SEND_MESSAGE_V2)[0] > HEADER_BYTES
    assert header_budget(RequestCode.UPDATE_AND_CREATE_ACL_CONFIG)[0] > HEADER_BYTES
    # a KV value is a header field: its own limit, escaped, fits, so that limit is the one that refuses
    kv = declarations()[RequestCode.PUT_KV_CONFIG].budget
    assert header_budget(RequestCode.PUT_KV_CONFIG)[0] >= 6 * kv.limits["valueBytes"]
    assert header_budget(999_999) == (HEADER_BYTES, HEADER_FIELDS)


def test_every_recorded_java_header_fits_with_room() -> None:
    walked = 0
    for f in all_frames():
        if f.dir != "request":
            continue
        header, kind = _header_of(f.frame)
        code = f.header["code"]
        most_bytes, most_fields = header_budget(code)
        fields = len(f.header.get("extFields") or {})
        assert len(header) * ROOM <= most_bytes, (f.scenario, f.index, code, len(header))
        assert fields * ROOM <= most_fields, (f.scenario, f.index, code, fields)
        assert over_header_budget(code, header, kind) is None
        # the raw count never says fewer fields than the header holds
        assert headerbudget._count_fields(header, kind, most_fields) >= fields
        # and the server's decoder takes the frame as it is
        (cmd,) = FrameDecoder(header_budget=True).feed(f.frame)
        assert cmd.bad_text is None
        assert cmd.code == code
        walked += 1
    assert walked > 300


def _many_fields(n: int, code: int = RequestCode.GET_BROKER_CLUSTER_INFO, **kw: object) -> RemotingCommand:
    ext = {f"k{i}": "v" for i in range(n)}
    return RemotingCommand.request(code, ext, **kw)  # type: ignore[arg-type]


@pytest.mark.parametrize("serialize", [SerializeType.JSON, SerializeType.ROCKETMQ])
def test_a_header_over_its_field_budget_is_refused_undecoded(serialize: SerializeType) -> None:
    # a JSON header's count takes its optional top-level keys (remark, serializeTypeCurrentRPC) for fields
    fits = _many_fields(HEADER_FIELDS - 2)
    over = _many_fields(HEADER_FIELDS + 1)
    for cmd in (fits, over):
        cmd.serialize_type = serialize
    (ok,) = FrameDecoder(header_budget=True).feed(encode(fits))
    assert ok.bad_text is None and len(ok.ext_fields or {}) == HEADER_FIELDS - 2
    (refused,) = FrameDecoder(header_budget=True).feed(encode(over))
    assert refused.bad_text is not None and "fields" in refused.bad_text
    assert refused.ext_fields is None  # never decoded
    assert (refused.code, refused.opaque, refused.serialize_type) == (over.code, over.opaque, serialize)
    # a client's decoder has no request budget
    (plain,) = FrameDecoder().feed(encode(over))
    assert plain.bad_text is None


def test_a_12_mib_header_is_refused_for_the_price_of_its_length() -> None:
    value = "x" * 4
    ext = {f"f{i:06d}": value for i in range(900_000)}
    cmd = RemotingCommand.request(RequestCode.GET_BROKER_CONFIG, ext)
    wire = encode(cmd)
    assert len(wire) > 12 * 1024 * 1024
    decoder = FrameDecoder(header_budget=True)
    started = time.perf_counter()
    (refused,) = decoder.feed(wire)
    took = time.perf_counter() - started
    assert refused.bad_text is not None and "bytes is over its limit" in refused.bad_text
    assert (refused.code, refused.opaque) == (cmd.code, cmd.opaque)
    assert took < 0.5, took  # a copy of the frame, no JSON read


def test_peek_reads_code_opaque_and_flag_without_decoding() -> None:
    cmd = RemotingCommand.request(RequestCode.PULL_MESSAGE, {"topic": "T"}, oneway=True)
    for serialize in (SerializeType.JSON, SerializeType.ROCKETMQ):
        cmd.serialize_type = serialize
        header, kind = _header_of(encode(cmd))
        seen = peek(header, kind)
        assert (seen.code, seen.opaque, seen.flag) == (cmd.code, cmd.opaque, cmd.flag)


def test_a_spoofed_code_does_not_lend_its_budget() -> None:
    """A JSON header that shows a send's code first and another code last gets the other code's budget."""
    big = "p" * (HEADER_BYTES + 10)
    header = (
        '{"code":310,"extFields":{"a":"' + big + '"},"flag":0,"language":"JAVA","opaque":7,'
        '"serializeTypeCurrentRPC":"JSON","version":0,"code":26}'
    ).encode()
    frame = struct.pack(">ii", 4 + len(header), len(header)) + header
    (cmd,) = FrameDecoder(header_budget=True).feed(frame)
    assert cmd.code == RequestCode.GET_BROKER_CONFIG
    assert cmd.bad_text is not None and "request code 26" in cmd.bad_text


def test_a_response_over_budget_breaks_the_stream() -> None:
    ext = {f"k{i}": "v" for i in range(HEADER_FIELDS + 1)}
    req = RemotingCommand.request(RequestCode.GET_BROKER_CONFIG)
    resp = req.response(ResponseCode.SUCCESS, ext_fields=ext)
    with pytest.raises(ProtocolError):
        FrameDecoder(header_budget=True).feed(encode(resp))
