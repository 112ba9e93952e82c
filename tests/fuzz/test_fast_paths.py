"""Every fast path passes the gate the general path has: each hostile case, sent to both, gets the
same answer.

- The name server's route pre-filter answers plain route queries from the raw frame. Each case is
  sent twice to a real name server: as a plain query (the fast path's to take) and with its
  ``serializeTypeCurrentRPC`` in lower case, which means the same to the general path but keeps the
  pre-filter off. The answers must be the same bytes.
- The fast JSON header reader (orjson) against json alone, on the same hostile headers.
"""

from __future__ import annotations

import json
import socket
import struct
from collections.abc import Callable, Iterator

import pytest

from mqadmin.protocol import header as header_codec
from mqadmin.protocol.codes import RequestCode, ResponseCode
from mqadmin.protocol.command import RemotingCommand
from mqadmin.protocol.frame import FrameDecoder, decode, encode, encode_header
from mqadmin.protocol.requests import HEADER_BYTES, HEADER_FIELDS
from tests.namesrv.support import register_body, register_request, topic_config
from tests.servers import NameServerProcess

TOPIC = "FastGateTopic"


def _frame(header: bytes) -> bytes:
    return struct.pack(">ii", 4 + len(header), len(header)) + header


def _plain(ext: dict[str, str], opaque: int, version: int = 479) -> bytes:
    code = RequestCode.GET_ROUTEINFO_BY_TOPIC
    cmd = RemotingCommand(code=code, opaque=opaque, version=version, ext_fields=ext)
    return encode_header(cmd)


def _general_twin(header: bytes) -> bytes:
    """The same request, of the same length, that the pre-filter leaves: its serialization named in
    lower case, which the general path does not read (it answers in the frame's serialization)."""
    marker = b'"serializeTypeCurrentRPC":"JSON"'
    assert marker in header
    return header.replace(marker, b'"serializeTypeCurrentRPC":"json"', 1)


CASES: dict[str, Callable[[int], bytes]] = {
    "a plain query": lambda op: _plain({"topic": TOPIC}, op),
    "an unknown topic": lambda op: _plain({"topic": "NoSuchTopic"}, op),
    "header bytes over budget": lambda op: _plain({"topic": TOPIC, "pad": "x" * (HEADER_BYTES + 1)}, op),
    "ext fields over budget": lambda op: _plain(
        {"topic": TOPIC, **{f"k{i}": "v" for i in range(HEADER_FIELDS + 8)}}, op
    ),
    "a topic of illegal characters": lambda op: _plain({"topic": "bad topic/../x"}, op),
    "a topic too long": lambda op: _plain({"topic": "T" * 300}, op),
    "an empty topic": lambda op: _plain({"topic": ""}, op),
    "a non-string field": lambda op: _plain({"topic": TOPIC}, op).replace(
        b'"extFields":{', b'"extFields":{"n":12,', 1
    ),
    "a version from the future": lambda op: _plain({"topic": TOPIC}, op, version=2_000_000),
    "an old client's version": lambda op: _plain({"topic": TOPIC}, op, version=300),
}


@pytest.fixture(scope="module")
def routed_namesrv(tmp_path_factory: pytest.TempPathFactory) -> Iterator[NameServerProcess]:
    ns = NameServerProcess(tmp_path_factory.mktemp("fast-gate"), args=("--workers", "1"))
    try:
        reg = socket.create_connection(("127.0.0.1", ns.port), timeout=5)
        ns.keep(reg)
        body = register_body([topic_config(TOPIC), topic_config("Other")])
        reg.sendall(encode(register_request("GateCluster", "gate-broker", 0, "10.9.0.1:10911", body)))
        assert _answer(reg).code == ResponseCode.SUCCESS
        yield ns
    finally:
        ns.stop()


def _read(sock: socket.socket, n: int) -> bytes:
    out = bytearray()
    while len(out) < n:
        chunk = sock.recv(n - len(out))
        if not chunk:
            raise ConnectionError("closed by the server")
        out += chunk
    return bytes(out)


def _answer_bytes(sock: socket.socket) -> bytes:
    head = _read(sock, 4)
    return head + _read(sock, struct.unpack(">i", head)[0])


def _answer(sock: socket.socket) -> RemotingCommand:
    return decode(_answer_bytes(sock))


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_route_fast_path_answers_as_the_general_path(
    routed_namesrv: NameServerProcess, case: str
) -> None:
    header = CASES[case](4242)
    twin = _general_twin(header)
    with socket.create_connection(("127.0.0.1", routed_namesrv.port), timeout=5) as sock:
        sock.sendall(_frame(header))
        fast = _answer_bytes(sock)
        sock.sendall(_frame(twin))
        general = _answer_bytes(sock)
        # and pipelined, several in one read, as the pre-filter takes them
        sock.sendall(_frame(header) * 3 + _frame(twin))
        more = [_answer_bytes(sock) for _ in range(4)]
    assert fast == general, case
    assert more == [fast] * 4, case
    if case == "a plain query":
        answer = decode(fast)
        assert answer.code == ResponseCode.SUCCESS and json.loads(answer.body or b"")["brokerDatas"]
    if "over budget" in case:
        answer = decode(fast)
        assert answer.code == ResponseCode.SYSTEM_ERROR and "over its limit" in (answer.remark or "")


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_fast_header_reader_reads_as_json_does(case: str, monkeypatch: pytest.MonkeyPatch) -> None:
    frame = _frame(CASES[case](7))
    header_codec.read_headers_fast()
    assert header_codec._fast_loads is not None
    (fast,) = FrameDecoder(header_budget=True).feed(frame)
    monkeypatch.setattr(header_codec, "_fast_loads", None)
    (plain,) = FrameDecoder(header_budget=True).feed(frame)
    assert fast == plain
