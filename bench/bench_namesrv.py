"""The bundled name server under load, in several modes side by side: qps, latency, memory.

Each mode is a fresh ``mqadmin namesrv start`` (a child process, plus its workers): brokers (10 by
default) register with 10,000 topics, then ``rmqload`` (compiled from ``../shared/tools/rmqload.c``
into a temporary folder) drives GET_ROUTEINFO_BY_TOPIC at ``-c 16 -w 4``. The modes take turns,
round after round, so a machine busy with other work slows them alike; the table gives the median
of the rounds per mode and its ratio to the first mode:

* qps, p50, p99 of route queries;
* RSS of all the server's processes together (and PSS, which counts shared pages once);
* with ``--bursts`` (default on, last round only): the same load while every broker re-registers
  once a second, with its tables unchanged and then changed.

Modes are ``WORKERS:LOOP`` (``1:asyncio`` is the one process on asyncio's loop the server had
before ``--workers``; ``default`` is what ``mqadmin namesrv start`` does with no option), and
``--baseline REV`` adds first the server of an older commit (its ``mqadmin/`` exported with
``git archive``, run as it was), for a before/after comparison in one run.

    python bench/bench_namesrv.py                               # 1:asyncio against default
    python bench/bench_namesrv.py --baseline 300afd5~1 --rounds 5
    python bench/bench_namesrv.py --modes 1:asyncio,2:asyncio,2:uvloop --layout spread

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
from dataclasses import dataclass, field
from pathlib import Path

from mqadmin.protocol.command import RemotingCommand
from mqadmin.protocol.frame import encode

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repository, for tests.procfs
from tests.procfs import children_of

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
RMQLOAD_SRC = REPO.parent / "shared" / "tools" / "rmqload.c"
BOOT = re.compile(r"address (\S+):(\d+)")
CLUSTER = "BenchCluster"


def compile_rmqload(workdir: Path) -> Path:
    exe = workdir / "rmqload"
    subprocess.run(["cc", "-O2", "-o", str(exe), str(RMQLOAD_SRC)], check=True)
    return exe


@dataclass
class Mode:
    """How to start the server: ``--workers``/``--loop`` flags, or an older tree as it was."""

    name: str
    flags: list[str] = field(default_factory=list)
    source: Path | None = None  # a folder holding an exported mqadmin/ package


def parse_mode(text: str) -> Mode:
    if text == "default":
        return Mode("default")
    workers, _, loop = text.partition(":")
    return Mode(text, ["--workers", workers, "--loop", loop or "auto"])


def export_tree(rev: str, into: Path) -> Path:
    """``mqadmin/`` as it was at ``rev``, unpacked under ``into``."""
    archive = subprocess.run(
        ["git", "-C", str(REPO), "archive", rev, "mqadmin"], capture_output=True, check=True
    ).stdout
    into.mkdir(parents=True)
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return into


def start_namesrv(workdir: Path, mode: Mode) -> tuple[subprocess.Popen[str], int]:
    props = workdir / "namesrv.properties"
    props.write_text(f"kvConfigPath={workdir / 'kvConfig.json'}\nlistenPort=0\nbindAddress=127.0.0.1\n")
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    if mode.source is not None:
        env["PYTHONPATH"] = str(mode.source)
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
            *mode.flags,
        ],
        stdout=subprocess.PIPE,
        text=True,
        env=env,
        cwd=str(mode.source or workdir),
    )
    assert proc.stdout is not None
    for line in proc.stdout:
        m = BOOT.search(line)
        if m and "boot success" in line:
            return proc, int(m.group(2))
    raise SystemExit(f"name server ({mode.name}) did not start")


def family(pid: int) -> list[int]:
    """The process and its children (the workers)."""
    return [pid, *sorted(children_of(pid))]


def memory_kb(pids: list[int]) -> tuple[int, int]:
    """(sum of RSS, sum of PSS) in KiB."""
    rss = pss = 0
    for pid in pids:
        try:
            for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
                k, _, v = line.partition(":")
                if k == "Rss":
                    rss += int(v.split()[0])
                elif k == "Pss":
                    pss += int(v.split()[0])
        except OSError:
            continue
    return rss, pss


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

    def close(self) -> None:
        self.sock.close()


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


def _load(r: dict[str, float]) -> str:
    return (
        f"qps={r['qps']:.0f} p50={r['p50_us'] / 1000:.2f} ms p99={r['p99_us'] / 1000:.2f} ms "
        f"p999={r['p999_us'] / 1000:.2f} ms max={r['max_us'] / 1000:.1f} ms"
    )


def _with_bursts(
    brokers: list[Broker], changed: bool, exe: Path, port: int, queried: list[str], args: argparse.Namespace
) -> tuple[dict[str, float], float]:
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
    return r, statistics.median(took)


def run_mode(
    mode: Mode,
    exe: Path,
    tmp: Path,
    topics: list[str],
    queried: list[str],
    args: argparse.Namespace,
    bursts: bool,
    verbose: bool,
) -> dict[str, float]:
    """One fresh server in ``mode``: registrations, then the measured load; its numbers."""
    workdir = Path(tempfile.mkdtemp(prefix="ns-", dir=tmp))
    proc, port = start_namesrv(workdir, mode)
    brokers: list[Broker] = []
    try:
        for i in range(args.brokers):
            own = topics if args.layout == "shared" else topics[i :: args.brokers]
            brokers.append(Broker(port, f"broker-{i}", f"10.9.0.{i + 1}:10911", own))
        first = [b.register() for b in brokers]
        again = [b.register() for b in brokers]
        for b in brokers:
            b.counter += 1
        changed = [b.register() for b in brokers]
        if verbose:
            print(
                f"  [{mode.name}] REGISTER_BROKER ms: first {first[0] * 1000:.1f} (new topics), "
                f"then median {statistics.median(first[1:] or first) * 1000:.1f}; "
                f"unchanged {statistics.median(again) * 1000:.1f}; "
                f"changed {statistics.median(changed) * 1000:.1f}"
            )
        rmqload(exe, port, queried, 1, args.conns, args.window)  # warm every cache
        r = rmqload(exe, port, queried, args.duration, args.conns, args.window)
        pids = family(proc.pid)
        rss, pss = memory_kb(pids)
        out = {**r, "rss_mib": rss / 1024, "pss_mib": pss / 1024, "procs": len(pids)}
        print(f"  [{mode.name}] {_load(r)} RSS {rss / 1024:.1f} MiB in {len(pids)} process(es)", flush=True)
        if bursts:
            for changed_tables in (False, True):
                rb, took = _with_bursts(brokers, changed_tables, exe, port, queried, args)
                what = "changed" if changed_tables else "unchanged"
                out[f"burst_{what}_qps"] = rb["qps"]
                out[f"burst_{what}_p99_us"] = rb["p99_us"]
                out[f"burst_{what}_reg_ms"] = took * 1000
                print(
                    f"  [{mode.name}] with {len(brokers)} {what} registrations every second "
                    f"(median {took * 1000:.1f} ms each): {_load(rb)}",
                    flush=True,
                )
            out["rss_after_mib"] = memory_kb(family(proc.pid))[0] / 1024
        return out
    finally:
        for b in brokers:
            b.close()
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=20)


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
    ap.add_argument("--modes", default="1:asyncio,default", help="comma-separated WORKERS:LOOP or 'default'")
    ap.add_argument("--baseline", metavar="REV", help="also run the server of this git revision, first")
    ap.add_argument("--duration", type=int, default=10)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--no-bursts", dest="bursts", action="store_false", help="skip the registration bursts")
    ap.add_argument("-c", "--conns", type=int, default=16)
    ap.add_argument("-w", "--window", type=int, default=4)
    ap.add_argument(
        "--query-topics", type=int, default=4096, help="distinct topics rmqload cycles over (<= 4096)"
    )
    args = ap.parse_args()

    with tempfile.TemporaryDirectory(prefix="bench-namesrv-") as tmp_name:
        tmp = Path(tmp_name)
        exe = compile_rmqload(tmp)
        modes = [parse_mode(m.strip()) for m in args.modes.split(",") if m.strip()]
        if args.baseline:
            source = export_tree(args.baseline, tmp / "baseline")
            modes.insert(0, Mode(f"at {args.baseline}", source=source))
        topics = [f"BenchTopic_{i:05d}" for i in range(args.topics)]
        step = max(1, args.topics // min(args.query_topics, 4096))
        queried = topics[::step][: min(args.query_topics, 4096)]
        print(
            f"{args.brokers} brokers, {args.topics} topics ({args.layout}), rmqload -c {args.conns} "
            f"-w {args.window} over {len(queried)} topics, {args.duration} s per run, {args.rounds} rounds; "
            f"{os.cpu_count()} cores; load average now {os.getloadavg()[0]:.2f}"
        )
        results: dict[str, list[dict[str, float]]] = {m.name: [] for m in modes}
        for rnd in range(args.rounds):
            print(f"round {rnd + 1} of {args.rounds}")
            last = rnd == args.rounds - 1
            for mode in modes:
                results[mode.name].append(
                    run_mode(mode, exe, tmp, topics, queried, args, args.bursts and last, rnd == 0)
                )

        def med(name: str, key: str) -> float:
            vals = [r[key] for r in results[name] if key in r]
            return statistics.median(vals) if vals else float("nan")

        base = modes[0].name
        print(
            f"\nmedian of {args.rounds} rounds (load average now {os.getloadavg()[0]:.2f}; a shared machine "
            "gives noisy numbers: compare the modes of one run, not runs)"
        )
        head = f"{'mode':<20}{'qps':>9}{'ratio':>7}{'p50 ms':>8}{'p99 ms':>8}"
        head += f"{'RSS MiB':>9}{'PSS MiB':>9}{'procs':>6}"
        print(head)
        for m in modes:
            qps = med(m.name, "qps")
            print(
                f"{m.name:<20}{qps:>9.0f}{qps / med(base, 'qps'):>7.2f}{med(m.name, 'p50_us') / 1000:>8.2f}"
                f"{med(m.name, 'p99_us') / 1000:>8.2f}{med(m.name, 'rss_mib'):>9.1f}"
                f"{med(m.name, 'pss_mib'):>9.1f}"
                f"{med(m.name, 'procs'):>6.0f}"
            )
        if args.bursts:
            print(
                "\nwith every broker re-registering once a second (last round): "
                "qps / p99 ms / registration ms"
            )
            for m in modes:
                cells = [
                    f"{what}: {med(m.name, f'burst_{what}_qps'):.0f} / "
                    f"{med(m.name, f'burst_{what}_p99_us') / 1000:.2f} / "
                    f"{med(m.name, f'burst_{what}_reg_ms'):.1f}"
                    for what in ("unchanged", "changed")
                ]
                print(
                    f"{m.name:<20}"
                    + "   ".join(cells)
                    + f"   RSS after {med(m.name, 'rss_after_mib'):.1f} MiB"
                )


if __name__ == "__main__":
    main()
