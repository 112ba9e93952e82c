"""A burst of large registrations must not hold route queries up for its whole length.

The name server runs as its own process, so the clients' work does not share its event loop.
"""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import struct
import subprocess
import sys
import threading
import time
from pathlib import Path

from mqadmin.protocol.frame import encode
from tests.namesrv.support import register_body, register_request, route_query, topic_config

BROKERS = 4
TOPICS_EACH = 5000


def _call(sock: socket.socket, frame: bytes) -> dict[str, object]:
    sock.sendall(frame)
    head = _read(sock, 4)
    payload = _read(sock, struct.unpack(">i", head)[0])
    return json.loads(payload[4 : 4 + (struct.unpack(">i", payload[:4])[0] & 0xFFFFFF)])  # type: ignore[no-any-return]


def _read(sock: socket.socket, n: int) -> bytes:
    buf = bytearray()
    while len(buf) < n:
        chunk = sock.recv(n - len(buf))
        assert chunk, "connection closed"
        buf += chunk
    return bytes(buf)


def test_route_queries_are_served_during_a_registration_burst(tmp_path: Path) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "mqadmin.cli.main", "namesrv", "start", "--listen-port", "0",
         "--bind-address", "127.0.0.1", "--log-file", ""],
        stdout=subprocess.PIPE, text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1", "HOME": str(tmp_path)},
    )  # fmt: skip
    try:
        assert proc.stdout is not None
        port = int(re.findall(r":(\d+)$", proc.stdout.readline().strip())[0])
        seed = socket.create_connection(("127.0.0.1", port))
        base = register_body([topic_config("Hot1"), topic_config("Hot2")])
        assert _call(seed, encode(register_request("C", "seed", 0, "10.5.0.1:10911", base)))["code"] == 0
        frames = [
            encode(
                register_request(
                    "C", f"big-{b}", 0, f"10.5.1.{b}:10911",
                    register_body([topic_config(f"B{b}_T{i:05d}") for i in range(TOPICS_EACH)]),
                )
            )
            for b in range(BROKERS)
        ]  # fmt: skip
        brokers = [socket.create_connection(("127.0.0.1", port)) for _ in range(BROKERS)]
        query = socket.create_connection(("127.0.0.1", port))
        ask = encode(route_query("Hot1"))
        assert _call(query, ask)["code"] == 0

        answered: list[float] = []

        def register(i: int) -> None:
            assert _call(brokers[i], frames[i])["code"] == 0
            answered.append(time.perf_counter())

        threads = [threading.Thread(target=register, args=(i,)) for i in range(BROKERS)]
        start = time.perf_counter()
        for t in threads:
            t.start()
        latencies = []
        while len(answered) < BROKERS:
            t0 = time.perf_counter()
            assert _call(query, ask)["code"] == 0
            latencies.append(time.perf_counter() - t0)
        for t in threads:
            t.join()
        burst = max(answered) - start
        print(
            f"\nburst of {BROKERS} x {TOPICS_EACH}-topic registrations: {burst * 1000:.0f} ms; "
            f"{len(latencies)} route queries meanwhile, slowest {max(latencies) * 1000:.1f} ms"
        )
        assert len(latencies) >= 10
        assert max(latencies) < burst * 0.25  # never held up for more than a slice of the burst
        for s in (seed, query, *brokers):
            s.close()
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=10)
