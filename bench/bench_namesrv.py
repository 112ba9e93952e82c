"""The bundled name server under load: route queries per second and latency, memory, registration time.

Starts ``mqadmin namesrv start`` as a child process, registers brokers (10 by default) carrying
10,000 topics, then drives GET_ROUTEINFO_BY_TOPIC with ``rmqload`` (compiled from
``../shared/tools/rmqload.c`` into a temporary folder) at ``-c 16 -w 4``, and prints:

* the time to process REGISTER_BROKER with the whole topic table (first time, unchanged, changed),
* qps, p50, p99 (and p999, max) of route queries, with and without registrations going on,
* the server's RSS (now and peak).

    python bench/bench_namesrv.py                       # 10 brokers, each with all 10,000 topics
    python bench/bench_namesrv.py --layout spread       # 10,000 topics spread over the brokers
    python bench/bench_namesrv.py --duration 20 --runs 3

Numbers only; nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import socket
import statistics
import struct
import subprocess
import sys
import tempfile
import threading
import time
import zlib
from pathlib import Path

from mqadmin.protocol.command import RemotingCommand
from mqadmin.protocol.frame import encode

HERE = Path(__file__).resolve().parent
RMQLOAD_SRC = HERE.parent.parent / "shared" / "tools" / "rmqload.c"
BOOT = re.compile(r"address (\S+):(\d+)")
CLUSTER = "BenchCluster"


def compile_rmqload(workdir: Path) -> Path:
    exe = workdir / "rmqload"
    subprocess.run(["cc", "-O2", "-o", str(exe), str(RMQLOAD_SRC)], check=True)
    return exe


def start_namesrv(workdir: Path) -> tuple[subprocess.Popen[str], int]:
    props = workdir / "namesrv.properties"
    props.write_text(f"kvConfigPath={workdir / 'kvConfig.json'}\nlistenPort=0\nbindAddress=127.0.0.1\n")
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "mqadmin.cli.main",
            "namesrv",
            "start",
            "-c",
            str(props),
            "--log-file",
            str(workdir / "namesrv.log"),
        ],
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    assert proc.stdout is not None
    for line in proc.stdout:
        m = BOOT.search(line)
        if m and "boot success" in line:
            return proc, int(m.group(2))
    raise SystemExit("name server did not start")


def rss_kb(pid: int) -> tuple[int, int]:
    """(VmRSS, VmHWM) in KiB."""
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        k, _, v = line.partition(":")
        if k in ("VmRSS", "VmHWM"):
            fields[k] = int(v.split()[0])
    return fields["VmRSS"], fields["VmHWM"]


class Broker:
    """A blocking client that registers like a broker (one connection, kept open)."""

    def __init__(self, port: int, name: str, addr: str, topics: list[str]) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port))
        self.name, self.addr, self.topics = name, addr, topics
        self.counter = 1
        self.opaque = 0

    def body(self) -> bytes:
        table = ",".join(
            f'"{t}":{{"order":false,"perm":6,"readQueueNums":8,"topicFilterType":"SINGLE_TAG",'
            f'"topicName":"{t}","topicSysFlag":0,"writeQueueNums":8}}'
            for t in self.topics
        )
        return (
            '{"filterServerList":[],"topicConfigSerializeWrapper":{"dataVersion":'
            f'{{"counter":{self.counter},"timestamp":1700000000000}},"topicConfigTable":{{{table}}}}}}}'
        ).encode()

    def register(self) -> float:
        """Send REGISTER_BROKER; seconds until the answer arrived."""
        body = self.body()
        self.opaque += 1
        ext = {
            "brokerId": "0",
            "bodyCrc32": str(zlib.crc32(body) & 0x7FFFFFFF),
            "clusterName": CLUSTER,
            "brokerAddr": self.addr,
            "haServerAddr": self.addr,
            "compressed": "false",
            "brokerName": self.name,
        }
        frame = encode(RemotingCommand(code=103, opaque=self.opaque, version=409, ext_fields=ext, body=body))
        start = time.perf_counter()
        self.sock.sendall(frame)
        head = self._read(4)
        payload = self._read(struct.unpack(">i", head)[0])
        elapsed = time.perf_counter() - start
        header = json.loads(payload[4 : 4 + (struct.unpack(">i", payload[:4])[0] & 0xFFFFFF)])
        if header["code"] != 0:
            raise SystemExit(f"registration failed: {header}")
        return elapsed

    def _read(self, n: int) -> bytes:
        buf = bytearray()
        while len(buf) < n:
            chunk = self.sock.recv(n - len(buf))
            if not chunk:
                raise SystemExit("name server closed the connection")
            buf += chunk
        return bytes(buf)


def rmqload(
    exe: Path, port: int, topics: list[str], duration: int, conns: int, window: int
) -> dict[str, float]:
    out = subprocess.run(
        [
            str(exe),
            "-p",
            str(port),
            "-c",
            str(conns),
            "-w",
            str(window),
            "-d",
            str(duration),
            "-t",
            ",".join(topics),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    if out.returncode != 0:
        raise SystemExit(f"rmqload failed: {out.stdout} {out.stderr}")
    return {k: float(v) for k, v in re.findall(r"(\w+)=([\d.]+)", out.stdout)}


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:7.1f} ms"


def _load(r: dict[str, float]) -> str:
    return (
        f"qps={r['qps']:.0f} p50={r['p50_us'] / 1000:.2f} ms p99={r['p99_us'] / 1000:.2f} ms "
        f"p999={r['p999_us'] / 1000:.2f} ms max={r['max_us'] / 1000:.1f} ms"
    )


def _with_bursts(
    brokers: list[Broker], changed: bool, exe: Path, port: int, queried: list[str], args: argparse.Namespace
) -> tuple[dict[str, float], float, int]:
    """Route query load while every broker registers at the same moment, once a second."""
    stop = threading.Event()
    took: list[float] = []

    def bursts() -> None:
        while not stop.is_set():
            started = time.perf_counter()
            if changed:
                for b in brokers:
                    b.counter += 1
            workers = [threading.Thread(target=lambda b=b: took.append(b.register())) for b in brokers]
            for w in workers:
                w.start()
            for w in workers:
                w.join()
            stop.wait(max(0.0, 1.0 - (time.perf_counter() - started)))

    t = threading.Thread(target=bursts, daemon=True)
    t.start()
    r = rmqload(exe, port, queried, args.duration, args.conns, args.window)
    stop.set()
    t.join()
    return r, statistics.median(took), len(took)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--brokers", type=int, default=10)
    ap.add_argument("--topics", type=int, default=10_000)
    ap.add_argument(
        "--layout",
        choices=["shared", "spread"],
        default="shared",
        help="shared: every broker has every topic; spread: each topic on one broker",
    )
    ap.add_argument("--duration", type=int, default=10)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("-c", "--conns", type=int, default=16)
    ap.add_argument("-w", "--window", type=int, default=4)
    ap.add_argument(
        "--query-topics", type=int, default=4096, help="distinct topics rmqload cycles over (<= 4096)"
    )
    args = ap.parse_args()

    with tempfile.TemporaryDirectory(prefix="bench-namesrv-") as tmp:
        workdir = Path(tmp)
        exe = compile_rmqload(workdir)
        proc, port = start_namesrv(workdir)
        try:
            topics = [f"BenchTopic_{i:05d}" for i in range(args.topics)]
            brokers = []
            for b in range(args.brokers):
                own = topics if args.layout == "shared" else topics[b :: args.brokers]
                brokers.append(Broker(port, f"broker-{b}", f"10.9.0.{b + 1}:10911", own))
            base = rss_kb(proc.pid)[0]
            print(f"name server pid {proc.pid} on port {port}; RSS at start {base / 1024:.1f} MiB")
            size = len(brokers[0].body()) / 1e6
            print(
                f"layout {args.layout}: {args.brokers} brokers, {args.topics} topics, "
                f"{len(brokers[0].topics)} topics per registration ({size:.2f} MB body)"
            )

            first = [b.register() for b in brokers]
            print(
                f"REGISTER_BROKER first  : broker 0 {first[0] * 1000:7.1f} ms (new topics), "
                f"others median {statistics.median(first[1:] or first) * 1000:7.1f} ms"
            )
            again = [b.register() for b in brokers]
            print(f"REGISTER_BROKER again  : median {_ms(statistics.median(again))} (unchanged DataVersion)")
            for b in brokers:
                b.counter += 1
            changed = [b.register() for b in brokers]
            print(f"REGISTER_BROKER changed: median {_ms(statistics.median(changed))} (new DataVersion)")

            step = max(1, args.topics // min(args.query_topics, 4096))
            queried = topics[::step][: min(args.query_topics, 4096)]
            rmqload(exe, port, queried, 1, args.conns, args.window)  # fill the route cache
            results = []
            for run in range(args.runs):
                r = rmqload(exe, port, queried, args.duration, args.conns, args.window)
                results.append(r)
                print(f"route queries run {run + 1}: {_load(r)}")
            med = {k: statistics.median(r[k] for r in results) for k in ("qps", "p50_us", "p99_us")}
            now, peak = rss_kb(proc.pid)
            print(
                f"median of {args.runs}: qps={med['qps']:.0f} p50={med['p50_us'] / 1000:.2f} ms "
                f"p99={med['p99_us'] / 1000:.2f} ms"
            )
            print(f"RSS {now / 1024:.1f} MiB (peak {peak / 1024:.1f} MiB)")

            # the same load while, every second, all brokers re-register at once: the same tables
            # (what a cluster does every 30 s), then changed ones (every route re-checked)
            for changed_tables in (False, True):
                r, took, count = _with_bursts(brokers, changed_tables, exe, port, queried, args)
                now, peak = rss_kb(proc.pid)
                what = "changed" if changed_tables else "unchanged"
                size = len(brokers[0].topics)
                print(f"with {len(brokers)} {what} {size}-topic registrations at once every second")
                print(f"  ({count} in all, median {took * 1000:.1f} ms to answer): {_load(r)}")
                print(f"  RSS {now / 1024:.1f} MiB (peak so far {peak / 1024:.1f} MiB)")
        finally:
            proc.send_signal(signal.SIGTERM)
            proc.wait(timeout=10)


if __name__ == "__main__":
    main()
