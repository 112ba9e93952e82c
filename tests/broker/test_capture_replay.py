"""The C++ client's recorded requests (``c01_cppClient``) replayed against our broker.

Every request frame the C++ client sent to the Java 4.9.8 broker is sent again, byte for byte, on
its own connection, in the recorded order. Each answer must have the shape of the Java broker's:
the same response code, the same header members, the same extFields names, and a body of the same
kind (the stored records of a pull compared field by field, JSON bodies equal). The two pulls the
Java broker parked (long polling) must be parked here too, and the broker's own
NOTIFY_CONSUMER_IDS_CHANGED (40) must reach the consumer's connection.
"""

from __future__ import annotations

import json
import socket
import struct
import time
from collections import defaultdict

from mqadmin.protocol.message_record import decode_messages
from tests.broker.peers import create_topic
from tests.captures import Frame, load_scenario, pairs

SCENARIO = "rocketmq-4.9.8/c01_cppClient"
BROKER_PORT = 10911


def _header_and_body(frame: bytes) -> tuple[dict, bytes]:
    total, mark = struct.unpack_from(">ii", frame, 0)
    header_len = mark & 0xFFFFFF
    header = json.loads(frame[8 : 8 + header_len])
    return header, frame[8 + header_len : 4 + total]


def _read_frame(sock: socket.socket) -> bytes | None:
    def exact(n: int) -> bytes | None:
        buf = b""
        while len(buf) < n:
            try:
                chunk = sock.recv(n - len(buf))
            except TimeoutError:
                if not buf:
                    return None
                continue
            if not chunk:
                return None
            buf += chunk
        return buf

    head = exact(4)
    if head is None:
        return None
    rest = exact(int.from_bytes(head, "big"))
    return None if rest is None else head + rest


class Peer:
    """One replayed connection: frames from the broker, sorted into responses and requests."""

    def __init__(self, addr: str) -> None:
        host, port = addr.rsplit(":", 1)
        self.sock = socket.create_connection((host, int(port)), timeout=5)
        self.responses: dict[int, tuple[dict, bytes]] = {}
        self.requests: list[tuple[dict, bytes]] = []

    def _take(self, timeout: float) -> bool:
        self.sock.settimeout(timeout)
        raw = _read_frame(self.sock)
        if raw is None:
            return False
        header, body = _header_and_body(raw)
        if header.get("flag", 0) & 1:
            self.responses[header["opaque"]] = (header, body)
        else:
            self.requests.append((header, body))
        return True

    def exchange(self, request: Frame, expect_answer: bool) -> tuple[dict, bytes] | None:
        self.sock.sendall(request.frame)
        opaque = request.header["opaque"]
        deadline = time.monotonic() + (5.0 if expect_answer else 0.8)
        while opaque not in self.responses and time.monotonic() < deadline:
            self._take(max(0.05, deadline - time.monotonic()))
        return self.responses.get(opaque)

    def close(self) -> None:
        self.sock.close()


def _same_record_fields(ours: bytes, theirs: bytes) -> None:
    a, b = decode_messages(ours), decode_messages(theirs)
    assert len(a) == len(b)
    for x, y in zip(a, b, strict=True):
        for name in (
            "topic",
            "body",
            "properties",
            "queue_id",
            "queue_offset",
            "flag",
            "sys_flag",
            "born_timestamp",
            "reconsume_times",
            "store_size",
        ):
            assert getattr(x, name) == getattr(y, name), name


def test_cpp_client_requests_get_java_shaped_answers(broker_factory) -> None:
    broker = broker_factory.start()
    # the recorded broker already had CppTopic with 2 queues (perm 6)
    assert create_topic(broker.addr, "CppTopic", queues=2).code == 0

    by_stream: dict[int, list[tuple[Frame, Frame | None]]] = defaultdict(list)
    for req, resp in pairs(SCENARIO):
        if req.server_port == BROKER_PORT and req.wire == "c2s":
            by_stream[req.stream].append((req, resp))
    recorded_notifies = [
        f
        for f in load_scenario(SCENARIO)
        if f.server_port == BROKER_PORT and f.wire == "s2c" and f.dir == "request"
    ]
    assert sum(len(v) for v in by_stream.values()) == 17 and recorded_notifies

    compared = 0
    peers = []
    try:
        for stream in sorted(by_stream):
            peer = Peer(broker.addr)
            peers.append(peer)
            for req, resp in by_stream[stream]:
                got = peer.exchange(req, expect_answer=resp is not None)
                code = req.header["code"]
                if resp is None:  # parked by the Java broker's long polling: parked here too
                    assert got is None, f"request {code} was answered: {got}"
                    continue
                assert got is not None, f"no answer to request {code}"
                ours, body = got
                theirs = resp.header
                assert ours["code"] == theirs["code"], (code, ours, theirs)
                assert set(ours) == set(theirs), (code, sorted(ours), sorted(theirs))
                assert set(ours.get("extFields") or {}) == set(theirs.get("extFields") or {}), code
                assert all(isinstance(v, str) for v in (ours.get("extFields") or {}).values())
                assert ours.get("remark") == theirs.get("remark"), code
                assert (ours["language"], ours["version"], ours["flag"]) == ("JAVA", 409, 1)
                if code == 11:
                    _same_record_fields(body, resp.body)
                elif resp.body:
                    assert json.loads(body) == json.loads(resp.body), code
                else:
                    assert body == b"", code
                if code == 10:  # the offset message id: store host and port, then the record's offset
                    assert ours["extFields"]["msgId"].startswith(f"7F000001{broker.port:08X}")
                compared += 1
            if stream == max(by_stream):
                time.sleep(0.3)
                while peer._take(0.2):
                    pass
        notifies = [h for peer in peers for h, _ in peer.requests]
        assert [(h["code"], h["flag"], h["extFields"]) for h in notifies] == [
            (f.header["code"], f.header["flag"], f.header["extFields"]) for f in recorded_notifies
        ]
    finally:
        for peer in peers:
            peer.close()
    assert compared >= 15
    assert broker.alive
