"""Round trips of the frame and header codecs, and fuzzing of the decoder."""

from __future__ import annotations

import random
import struct

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mqadmin.protocol import frame
from mqadmin.protocol.command import FLAG_ONEWAY, FLAG_RESPONSE, HeaderStyle, RemotingCommand, SerializeType
from mqadmin.protocol.errors import ProtocolError
from mqadmin.protocol.frame import MAX_FRAME, FrameDecoder
from tests.captures import all_frames

int32 = st.integers(min_value=-(1 << 31), max_value=(1 << 31) - 1)
int16 = st.integers(min_value=-(1 << 15), max_value=(1 << 15) - 1)
text = st.text(st.characters(blacklist_categories=("Cs",)), max_size=40)

commands = st.builds(
    RemotingCommand,
    code=int16,
    opaque=int32,
    flag=st.sampled_from([0, FLAG_RESPONSE, FLAG_ONEWAY]),
    language=st.sampled_from(["JAVA", "CPP", "GO", "PYTHON", "RUST"]),
    version=int16,
    remark=st.none() | text.filter(bool),
    ext_fields=st.none() | st.dictionaries(text.filter(bool), text, max_size=8),
    body=st.none() | st.binary(min_size=1, max_size=300),
    serialize_type=st.sampled_from(list(SerializeType)),
)


@given(commands)
def test_encode_decode_round_trip(cmd: RemotingCommand) -> None:
    back = frame.decode(frame.encode(cmd))
    assert back.code == cmd.code and back.opaque == cmd.opaque and back.flag == cmd.flag
    assert back.language == cmd.language and back.version == cmd.version
    assert back.body == cmd.body
    assert back.serialize_type is cmd.serialize_type
    assert back.remark == cmd.remark
    if cmd.serialize_type is SerializeType.JSON:
        assert back.ext_fields == cmd.ext_fields
    else:  # the binary layout has no way to tell an empty map from none
        assert (back.ext_fields or {}) == (cmd.ext_fields or {})
    assert frame.encode(back) == frame.encode(cmd)


@given(st.lists(commands, min_size=1, max_size=5), st.integers(min_value=1, max_value=50))
def test_decoder_any_chunking(cmds: list[RemotingCommand], chunk: int) -> None:
    wire = b"".join(frame.encode(c) for c in cmds)
    dec = FrameDecoder()
    got: list[RemotingCommand] = []
    for i in range(0, len(wire), chunk):
        got.extend(dec.feed(wire[i : i + chunk]))
    assert [frame.encode(c) for c in got] == [frame.encode(c) for c in cmds]


def test_jsoncpp_header_style_kept() -> None:
    cmd = RemotingCommand(
        code=34,
        ext_fields={"a": "1", "n": "5"},
        style=HeaderStyle.JSONCPP,
        numeric_ext=frozenset({"n"}),
        language="CPP",
        version=63,
    )
    raw = frame.encode_header(cmd)
    assert raw == (
        b'{"code":34,"extFields":{"a":"1","n":5},"flag":0,"language":"CPP","opaque":0,'
        b'"remark":"","version":63}\n'
    )
    assert frame.encode_header(frame.decode(frame.encode(cmd))) == raw


def test_oversized_length_rejected_without_buffering() -> None:
    dec = FrameDecoder()
    with pytest.raises(ProtocolError, match="exceeds"):
        dec.feed(struct.pack(">i", MAX_FRAME))  # length field alone announces too much
    assert dec.buffered == 0
    with pytest.raises(ProtocolError):
        dec.feed(b"more")  # the stream has lost its framing: stays failed


def test_limit_is_java_frame_max_length() -> None:
    """Java's LengthFieldBasedFrameDecoder counts the length field in the 16 MiB limit."""
    big = RemotingCommand(code=1, body=b"x" * (MAX_FRAME - 200))
    assert len(frame.encode(big)) <= MAX_FRAME
    with pytest.raises(ProtocolError):
        frame.encode(RemotingCommand(code=1, body=b"x" * MAX_FRAME))


@pytest.mark.parametrize(
    "wire",
    [
        struct.pack(">i", 0),
        struct.pack(">i", -5),
        struct.pack(">ii", 4, 100),  # header longer than the frame
        struct.pack(">ii", 6, 2 << 24) + b"xx",  # unknown serialize type
        struct.pack(">ii", 7, 3) + b"{{{",  # header not JSON
        struct.pack(">ii", 6, 2) + b"[]",  # JSON header not an object
        struct.pack(">ii", 4 + 13, 13) + b'{"code":"x"}\x00',  # code not an int
        struct.pack(">ii", 4 + 21, (1 << 24) | 21) + b"\x00" * 17 + struct.pack(">i", 5),  # ext overruns
    ],
)
def test_malformed_frames_raise_protocol_error(wire: bytes) -> None:
    with pytest.raises(ProtocolError):
        FrameDecoder().feed(wire)


_SEEDS = [f.frame for f in list(all_frames())[:200]]


@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=600))
def test_fuzz_random_bytes(data: bytes) -> None:
    dec = FrameDecoder()
    try:
        dec.feed(data)
    except ProtocolError:
        return
    assert dec.buffered <= len(data)


@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.integers(min_value=0, max_value=len(_SEEDS) - 1),
    st.randoms(use_true_random=False),
    st.integers(min_value=1, max_value=8),
)
def test_fuzz_mutated_recorded_frames(i: int, rnd: random.Random, flips: int) -> None:
    data = bytearray(_SEEDS[i])
    for _ in range(flips):
        pos = rnd.randrange(len(data))
        data[pos] = rnd.randrange(256)
    try:
        FrameDecoder().feed(bytes(data))
    except ProtocolError:
        pass
