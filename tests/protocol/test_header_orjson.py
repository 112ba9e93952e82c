"""JSON request headers read with orjson decode exactly as with json alone: the same command, or the
same refusal with the same message, for ordinary, odd and hostile headers alike."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from mqadmin.protocol import header
from mqadmin.protocol.command import RemotingCommand
from mqadmin.protocol.errors import ProtocolError

pytest.importorskip("orjson")
header.read_headers_fast()  # as the servers and the asyncio client do

JAVA = (
    b'{"code":310,"extFields":{"a":"PG","b":"T","c":"TBW102","d":"4","e":"1","f":"0",'
    b'"g":"1732550000000","h":"0","i":"KEYS\\u0001k1\\u0002TAGS\\u0001bench","j":"0","k":"false",'
    b'"m":"false"},"flag":0,"language":"JAVA","opaque":12345,"serializeTypeCurrentRPC":"JSON",'
    b'"version":317}'
)
CPP = (
    b'{"code":11,"extFields":{"consumerGroup":"CG","topic":"T","queueId":0,"queueOffset":123},'
    b'"flag":0,"language":"CPP","opaque":7,"remark":"","version":401}\n'
)

ODD: list[bytes] = [
    JAVA,
    CPP,
    b"{}",
    b'{"code":10,"extFields":{"n":1.5,"b":true,"z":null,"big":123456789012345678901234567890}}',
    b'{"code":10,"extFields":{"neg":-9223372036854775809,"u":18446744073709551616}}',
    b'{"code":10,"extFields":{"f":1e400}}',
    b'{"code":10,"extFields":{"f":NaN}}',
    b'{"code":123456789012345678901234567890}',
    b'{"code":1e3}',
    b'{"code":2147483648}',
    b'{"opaque":-9223372036854775809}',
    b'{"code":10,"a":1e400}',
    b'\xef\xbb\xbf{"code":10}',
    b'{"code":10,"extFields":{"g":"\\ud800"}}',
    b'{"code":10,"extFields":{"g":"\xed\xa0\x80"}}',
    b'{"code":10,"extFields":{"g":"a\\u0000b"}}',
    b'{"code":10,"remark":"\\udfff"}',
    b'{"code":10,"code":11}',
    b'{"code":10,"extFields":{"k":"v","k":"w"}}',
    b'{"code":10,"extFields":{"k":[1]}}',
    b'{"code":10,"extFields":[]}',
    b'{"code":10,"language":3}',
    b'{"code":10,"language":3.5}',
    b'{"code":10,"remark":5}',
    b'{"code":true}',
    b"[" * 5000 + b"]" * 5000,
    b'{"a":' * 2000 + b"1" + b"}" * 2000,
    b"[]",
    b"",
    b"nul",
    b'{"code":10} x',
    b'{"code":10,"extFields":{"k":"\xff"}}',
    b'"\xff"',
    '{"code":10,"extFields":{"k":"é中😀"}}'.encode(),
    '{"code":10,"extFields":{"k":"é"}}'.encode("utf-16"),
]


def decoded(data: bytes, loads: Callable[[bytes], object] | None) -> RemotingCommand | str:
    saved = header._fast_loads
    header._fast_loads = loads  # type: ignore[assignment]
    try:
        return header.decode_json_header(data)
    except ProtocolError as e:
        return f"refused: {e}"
    finally:
        header._fast_loads = saved


@pytest.mark.parametrize("data", ODD)
def test_same_reading_as_json(data: bytes) -> None:
    assert header._fast_loads is not None
    assert decoded(data, header._fast_loads) == decoded(data, None)


def test_same_reading_as_json_for_damaged_headers() -> None:
    """Bytes of real headers flipped, dropped and doubled at random (seeded): never a difference."""
    fast = header._fast_loads
    rng = random.Random(15)
    alphabet = b'{}[]",:\\0123456789.eE+-tfnu \xff\xed\xa0\x80'
    for _ in range(3000):
        data = bytearray(rng.choice((JAVA, CPP)))
        for _ in range(rng.randint(1, 4)):
            i = rng.randrange(len(data))
            op = rng.randrange(3)
            if op == 0:
                data[i] = rng.choice(alphabet)
            elif op == 1:
                del data[i]
            else:
                data.insert(i, rng.choice(alphabet))
        assert decoded(bytes(data), fast) == decoded(bytes(data), None), bytes(data)


@pytest.mark.parametrize(
    ("data", "why"),
    [
        (b'{"code":10,"extFields":{"g":"a\\u0000b"}}', "the header field g contains a NUL character"),
        (b'{"code":10,"extFields":{"g":"\\ud800"}}', "the header field g contains a lone surrogate (U+D800)"),
        (
            b'{"code":10,"extFields":{"g":"\xed\xa0\x80"}}',
            "the header field g contains a lone surrogate (U+D800)",
        ),
        (b'{"code":10,"remark":"\\udfff"}', "the header remark contains a lone surrogate (U+DFFF)"),
        (b'{"code":10,"extFields":{"\\u0000":"v"}}', "a header field name contains a NUL character"),
    ],
)
def test_text_that_cannot_be_kept_is_marked_either_way(data: bytes, why: str) -> None:
    """Escaped or raw (UTF-8 bytes of a surrogate), such text marks the command for refusal."""
    for loads in (header._fast_loads, None):
        cmd = decoded(data, loads)
        assert isinstance(cmd, RemotingCommand)
        assert cmd.bad_text == why


def test_ordinary_headers_take_the_fast_reading(monkeypatch: pytest.MonkeyPatch) -> None:
    """A Java or C++ header is not parsed twice (json is not called)."""

    def no_json(data: bytes) -> object:
        raise AssertionError("json read an ordinary header")

    monkeypatch.setattr(header, "_json_loads", no_json)
    assert header.decode_json_header(JAVA).ext_fields["b"] == "T"  # type: ignore[index]
    cpp = header.decode_json_header(CPP)
    assert cpp.ext_fields == {"consumerGroup": "CG", "topic": "T", "queueId": "0", "queueOffset": "123"}
    assert cpp.numeric_ext == frozenset({"queueId", "queueOffset"})
