"""The route-query fast path answers exactly as the generic path, and leaves everything odd to it.

Each header is sent twice on fresh connections: alone (the fast path may take it) and right behind
a frame the fast path never takes, in the same write (so it goes down the generic path). The two
answers must be the same bytes, whatever the header: plain queries in every JSON form, and
headers with an odd field, a type, an escape or a flag that only the generic path may judge.
"""

from __future__ import annotations

import asyncio
import struct
from pathlib import Path

import pytest

from tests.namesrv.support import WORKERS, Wire, namesrv, register, run, topic_config

_LEN2 = struct.Struct(">ii")


def _frame(header: bytes, body: bytes = b"", kind: int = 0) -> bytes:
    return _LEN2.pack(4 + len(header) + len(body), (kind << 24) | len(header)) + header + body


def _q(
    ext: str = '"topic":"Fast"', tail: str = ',"version":479', extra: str = "", opaque: str = "7"
) -> bytes:
    return (
        f'{{"code":105,"extFields":{{{ext}}},"flag":0,"language":"JAVA","opaque":{opaque}{extra},'
        f'"serializeTypeCurrentRPC":"JSON"{tail}}}'
    ).encode()


PLAIN = [
    _q(),
    _q(tail=',"version":400'),
    _q(tail=""),  # no version: 0, legacy JSON
    _q(ext='"acceptStandardJsonOnly":"true","topic":"Fast"', tail=',"version":300'),
    _q(ext='"acceptStandardJsonOnly":"false","topic":"Fast"', tail=',"version":300'),
    _q(ext='"topic":"Fast","unrelated":"x"'),
    _q(ext='"topic":"Missing"'),
    _q(opaque="-2147483648"),
    _q(opaque="2147483647"),
    b'{"code":105,"extFields":{"topic":"Fast"},"opaque":9,"serializeTypeCurrentRPC":"JSON"}',
]
ODD = [
    _q(ext='"topic":"Fa\\u0073t"'),  # an escape
    _q(ext='"topic":"\\ud800"'),  # a lone surrogate: refused
    _q(ext='"topic":12'),
    _q(ext='"topic":"Fast","acceptStandardJsonOnly":true', tail=',"version":300'),
    _q(ext='"topic":"Fast","__ZONE_MODE":"true","__ZONE_NAME":"z"'),
    _q(extra=',"remark":"hi"'),
    _q(extra=',"flag2":1'),
    _q(tail=',"version":479.0'),
    _q(tail=',"version":true'),
    _q(opaque="2147483648"),
    _q(opaque='"7"'),
    _q().replace(b'"language":"JAVA"', b'"language":12'),
    _q().replace(b'"flag":0', b'"flag":2'),  # oneway: no answer at all
    _q().replace(b'"flag":0', b'"flag":1'),  # a response: nothing to answer
    _q().replace(b'"code":105', b'"code":105.0'),
    _q().replace(b',"serializeTypeCurrentRPC":"JSON"', b""),  # C++ client style
    _q().replace(b'"JSON"}', b'"ROCKETMQ"}'),
    b'{"code":105,"extFields":null,"opaque":3,"serializeTypeCurrentRPC":"JSON"}',
    b'{"code":105,"extFields":["topic"],"opaque":3,"serializeTypeCurrentRPC":"JSON"}',
    b"[105]",
    b'{"code":105,"extFields":{"topic":"Fast"},"opaque":3,"opaque":4,"serializeTypeCurrentRPC":"JSON"}',
]
NOT_FAST = _frame(b'{"code":12345,"flag":0,"language":"JAVA","opaque":1,"serializeTypeCurrentRPC":"JSON"}')


async def _answers(port: int, frames: bytes, count: int) -> list[bytes]:
    """The whole answer frames to ``frames`` sent in one write; [] when none comes in time."""
    w = await Wire.open(port)
    try:
        await w.send(frames)
        out = []
        for _ in range(count):
            try:
                out.append((await w.recv(timeout=0.5)).frame)
            except (TimeoutError, asyncio.IncompleteReadError, ConnectionError):
                break  # no answer, or the connection closed (a malformed header)
        return out
    finally:
        await w.close()


@pytest.mark.parametrize("header", PLAIN + ODD, ids=lambda h: h.decode(errors="replace")[:60])
def test_fast_and_generic_answers_are_the_same_bytes(tmp_path: Path, header: bytes) -> None:
    async def body() -> None:
        # with workers, the two connections may land on different processes: the same bytes still
        async with namesrv(tmp_path, workers=WORKERS) as ctl:
            broker = await Wire.open(ctl.port)
            await register(broker, "C", "b0", 0, "10.0.0.1:10911", [topic_config("Fast"), topic_config("F2")])
            alone = await _answers(ctl.port, _frame(header), 1)
            behind = await _answers(ctl.port, NOT_FAST + _frame(header), 2)
            if behind:
                assert b"request type 12345 not supported" in behind[0]
                assert alone == behind[1:]
            else:  # a header the decoder refuses closes the connection, either way
                assert alone == []
            if header in PLAIN:
                assert len(alone) == 1
            await broker.close()

    run(body())


def test_many_queries_in_one_read_and_a_bad_frame_after_them(tmp_path: Path) -> None:
    """All answers of one read; a malformed frame after them closes only that connection."""

    async def body() -> None:
        async with namesrv(tmp_path, workers=WORKERS) as ctl:
            broker = await Wire.open(ctl.port)
            await register(broker, "C", "b0", 0, "10.0.0.1:10911", [topic_config("Fast"), topic_config("F2")])
            w = await Wire.open(ctl.port)
            await w.send(b"".join(_frame(_q(opaque=str(i))) for i in range(50)))
            got = [await w.recv() for _ in range(50)]
            assert [r.header["opaque"] for r in got] == list(range(50))
            assert all(r.code == 0 and r.body == got[0].body for r in got)
            await w.send(_frame(_q(opaque="99")) + struct.pack(">i", 3) + b"xyz")
            assert (await w.recv()).header["opaque"] == 99  # answered before the bad frame
            assert await w.closed_by_peer()
            (again,) = await _answers(ctl.port, _frame(_q()), 1)  # the others are served
            assert again.endswith(got[0].body)
            await broker.close()

    run(body())
