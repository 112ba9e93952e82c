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
``git archive``, run as it was), for a before/after comparison in one run; ``--baseline DIR`` the
server of another checkout (a ``git worktree``). The modes of this checkout run its ``mqadmin/``
unless ``PYTHONPATH`` names another.

``--side-by-side`` is the comparison with a Java name server: N brokers (``--brokers``) with T
topics each (``--topics-each``), every one on a connection of its own kept open. Per server, round
after round: each broker registers in turn (new topics), re-sends the same body (unchanged), then
registers a changed table (a new data version and one topic's perm flipped); route queries by
``rmqload`` over a sample of the topics, quiet and then while all N brokers register changed
tables at the same moment once a second; the servers' RSS. Registration times are taken from the
frame's first byte sent to the answer's last byte read, frames built beforehand. A Java name server
the user started (``--java-namesrv HOST:PORT --java-pid PID``) takes its turn beside ours; each
round ends by unregistering its brokers, so every round starts from empty tables there too.

    python bench/bench_namesrv.py                               # 1:asyncio against default
    python bench/bench_namesrv.py --baseline 300afd5~1 --rounds 5
    python bench/bench_namesrv.py --modes 1:asyncio,2:asyncio,2:uvloop --layout spread
    python bench/bench_namesrv.py --side-by-side --brokers 100 --topics-each 500 --baseline HEAD~1
    python bench/bench_namesrv.py --side-by-side --java-namesrv 127.0.0.1:9876 --java-pid 4242

Numbers only; nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import selectors
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
    exe: Path, port: int, topics: list[str], duration: int, conns: int, window: int, host: str = "127.0.0.1"
) -> dict[str, float]:
    out = subprocess.run(
        [
            str(exe),
            "-h",
            host,
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


# ------------------------------------------------------------------------------------ side by side


def _pct(values: list[float], q: float) -> float:
    """The ``q`` quantile (nearest rank) of ``values``."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered) + 0.5) - 1))]


def _spread(ms: list[float]) -> dict[str, float]:
    return {"median": statistics.median(ms), "p99": _pct(ms, 0.99), "max": max(ms), "n": len(ms)}


def _load_avg() -> str:
    return f"load {os.getloadavg()[0]:.2f}"


class SideBroker:
    """One broker of the side-by-side run: its own topics, its own connection kept open, and frames
    built before any clock starts."""

    def __init__(self, host: str, port: int, index: int, topics_each: int, cluster: str) -> None:
        self.sock = socket.create_connection((host, port))
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.cluster = cluster
        self.name = f"sbs-broker-{index:03d}"
        self.addr = f"10.{100 + index // 62500}.{index // 250 % 250}.{index % 250 + 1}:10911"
        self.topics = [f"SbsTopic_{index:03d}_{k:05d}" for k in range(topics_each)]
        self._entries = [self._entry(t, 6) for t in self.topics]
        self.counter = 1
        self.opaque = 0

    @staticmethod
    def _entry(topic: str, perm: int) -> str:
        return (
            f'"{topic}":{{"order":false,"perm":{perm},"readQueueNums":8,"topicFilterType":"SINGLE_TAG",'
            f'"topicName":"{topic}","topicSysFlag":0,"writeQueueNums":8}}'
        )

    def registration(self, changed: bool) -> bytes:
        """A REGISTER_BROKER frame: the same body as the last one, or a new data version with one
        topic turned read-only (the previous one's perm restored)."""
        entries = self._entries
        if changed:
            self.counter += 1
            entries = list(entries)
            k = self.counter % len(entries)
            entries[k] = self._entry(self.topics[k], 4)
        body = (
            '{"filterServerList":[],"topicConfigSerializeWrapper":{"dataVersion":'
            f'{{"counter":{self.counter},"timestamp":1700000000000}},"topicConfigTable":{{'
            + ",".join(entries)
            + "}}}"
        ).encode()
        ext = {
            "brokerId": "0",
            "bodyCrc32": str(zlib.crc32(body) & 0x7FFFFFFF),
            "clusterName": self.cluster,
            "brokerAddr": self.addr,
            "haServerAddr": self.addr,
            "compressed": "false",
            "brokerName": self.name,
        }
        return self._frame(103, ext, body)

    def unregistration(self) -> bytes:
        ext = {"brokerName": self.name, "brokerAddr": self.addr, "clusterName": self.cluster, "brokerId": "0"}
        return self._frame(104, ext, None)

    def _frame(self, code: int, ext: dict[str, str], body: bytes | None) -> bytes:
        self.opaque += 1
        return encode(RemotingCommand(code=code, opaque=self.opaque, version=409, ext_fields=ext, body=body))

    def call(self, frame: bytes) -> float:
        """Send one frame, read its answer; milliseconds in between."""
        start = time.perf_counter()
        self.sock.sendall(frame)
        self.answer()
        return (time.perf_counter() - start) * 1000

    def answer(self) -> None:
        head = self.sock.recv(4, socket.MSG_WAITALL)
        if len(head) < 4:
            raise SystemExit(f"{self.name}: the name server closed the connection")
        payload = self.sock.recv(struct.unpack(">i", head)[0], socket.MSG_WAITALL)
        header = json.loads(payload[4 : 4 + (struct.unpack(">i", payload[:4])[0] & 0xFFFFFF)])
        if header["code"] != 0:
            raise SystemExit(f"{self.name}: answered {header}")

    def close(self) -> None:
        self.sock.close()


def _burst(brokers: list[SideBroker], frames: list[bytes]) -> list[float]:
    """Every broker sends its frame at once; milliseconds from each one's send to its answer."""
    sent: list[float] = []
    for b, f in zip(brokers, frames, strict=True):
        sent.append(time.perf_counter())
        b.sock.sendall(f)
    took: dict[int, float] = {}
    with selectors.DefaultSelector() as sel:
        for i, b in enumerate(brokers):
            sel.register(b.sock, selectors.EVENT_READ, i)
        while len(took) < len(brokers):
            for key, _ in sel.select():
                i = key.data
                brokers[i].answer()
                took[i] = (time.perf_counter() - sent[i]) * 1000
                sel.unregister(key.fileobj)
    return [took[i] for i in range(len(brokers))]


@dataclass
class Target:
    """A name server of the side-by-side run: ours (started fresh each round) or a running Java one."""

    name: str
    mode: Mode | None = None
    host: str = "127.0.0.1"
    port: int = 0
    pid: int = 0


def side_round(target: Target, exe: Path, tmp: Path, args: argparse.Namespace, rnd: int) -> dict[str, float]:
    """One round against ``target``: registrations, quiet queries, queries under bursts, RSS."""
    proc = None
    host, port, pid = target.host, target.port, target.pid
    if target.mode is not None:
        proc, port = start_namesrv(Path(tempfile.mkdtemp(prefix="ns-", dir=tmp)), target.mode)
        pid = proc.pid
    cluster = f"SbsCluster{rnd}"
    brokers: list[SideBroker] = []
    out: dict[str, float] = {}
    try:
        brokers = [SideBroker(host, port, i, args.topics_each, cluster) for i in range(args.brokers)]
        for phase, changed in (("first", False), ("unchanged", False), ("changed", True)):
            frames = [b.registration(changed) for b in brokers]
            took = _spread([b.call(f) for b, f in zip(brokers, frames, strict=True)])
            out.update({f"{phase}_{k}": v for k, v in took.items()})
            print(
                f"  [{target.name}] REGISTER_BROKER of {args.topics_each} topics, {phase}: median "
                f"{took['median']:.2f} ms, p99 {took['p99']:.2f}, max {took['max']:.1f} ({_load_avg()})",
                flush=True,
            )
        topics = [t for b in brokers for t in b.topics]
        step = max(1, len(topics) // min(args.query_topics, 4096))
        queried = topics[::step][: min(args.query_topics, 4096)]
        rmqload(exe, port, queried, 1, args.conns, args.window, host)  # warm
        r = rmqload(exe, port, queried, args.duration, args.conns, args.window, host)
        out.update({"qps": r["qps"], "p50_us": r["p50_us"], "p99_us": r["p99_us"]})
        print(f"  [{target.name}] quiet: {_load(r)} ({_load_avg()})", flush=True)
        rb, took_ms = _side_bursts(brokers, exe, host, port, queried, args)
        burst = _spread(took_ms)
        out.update({"burst_qps": rb["qps"], "burst_p50_us": rb["p50_us"], "burst_p99_us": rb["p99_us"]})
        out.update({f"burst_reg_{k}": v for k, v in burst.items()})
        print(
            f"  [{target.name}] {len(brokers)} changed registrations every second: {_load(rb)}; "
            f"registration median {burst['median']:.1f} ms, p99 {burst['p99']:.1f}, max "
            f"{burst['max']:.1f} ({_load_avg()})",
            flush=True,
        )
        pids = family(pid) if proc is not None else [pid]
        rss, pss = memory_kb(pids)
        out.update({"rss_mib": rss / 1024, "pss_mib": pss / 1024})
        print(f"  [{target.name}] RSS {rss / 1024:.1f} MiB in {len(pids)} process(es)", flush=True)
        if proc is None:
            for b in brokers:  # the Java server keeps running: leave its tables as they were
                b.call(b.unregistration())
        return out
    finally:
        for b in brokers:
            b.close()
        if proc is not None:
            proc.send_signal(signal.SIGTERM)
            proc.wait(timeout=20)


def _side_bursts(
    brokers: list[SideBroker], exe: Path, host: str, port: int, queried: list[str], args: argparse.Namespace
) -> tuple[dict[str, float], list[float]]:
    """Route queries while every broker registers a changed table at the same moment, once a second."""
    stop = threading.Event()
    took: list[float] = []

    def bursts() -> None:
        frames = [b.registration(True) for b in brokers]
        while not stop.is_set():
            started = time.perf_counter()
            took.extend(_burst(brokers, frames))
            frames = [b.registration(True) for b in brokers]  # the next ones, off the clock
            stop.wait(max(0.0, 1.0 - (time.perf_counter() - started)))

    t = threading.Thread(target=bursts, daemon=True)
    t.start()
    r = rmqload(exe, port, queried, args.duration, args.conns, args.window, host)
    stop.set()
    t.join()
    return r, took


def side_by_side(args: argparse.Namespace, modes: list[Mode], exe: Path, tmp: Path) -> None:
    targets = [Target(m.name, m) for m in modes]
    if args.java_namesrv:
        host, _, port = args.java_namesrv.rpartition(":")
        targets.append(
            Target("java", None, socket.gethostbyname(host or "127.0.0.1"), int(port), args.java_pid)
        )
    print(
        f"side by side: {args.brokers} brokers x {args.topics_each} topics each, rmqload -c {args.conns} "
        f"-w {args.window}, {args.duration} s per run, {args.rounds} rounds; {os.cpu_count()} cores; "
        f"{_load_avg()}"
    )
    results: dict[str, list[dict[str, float]]] = {t.name: [] for t in targets}
    for rnd in range(args.rounds):
        print(f"round {rnd + 1} of {args.rounds}")
        for t in targets:
            results[t.name].append(side_round(t, exe, tmp, args, rnd))

    def med(name: str, key: str) -> float:
        vals = [r[key] for r in results[name] if key in r]
        return statistics.median(vals) if vals else float("nan")

    print(f"\nmedian of {args.rounds} rounds ({_load_avg()}); registration ms as median / p99 / max")
    head = f"{'server':<16}{'first':>20}{'unchanged':>20}{'changed':>20}"
    head += f"{'qps':>8}{'p99 ms':>8}{'burst qps':>10}{'p99 ms':>8}{'burst reg':>20}{'RSS MiB':>9}"
    print(head)
    for t in targets:
        n = t.name

        def regs(phase: str, name: str = n) -> str:
            median, p99, most = (med(name, f"{phase}_{k}") for k in ("median", "p99", "max"))
            return f"{median:.1f}/{p99:.1f}/{most:.0f}"

        print(
            f"{n:<16}{regs('first'):>20}{regs('unchanged'):>20}{regs('changed'):>20}"
            f"{med(n, 'qps'):>8.0f}{med(n, 'p99_us') / 1000:>8.2f}{med(n, 'burst_qps'):>10.0f}"
            f"{med(n, 'burst_p99_us') / 1000:>8.2f}{regs('burst_reg'):>20}{med(n, 'rss_mib'):>9.1f}"
        )


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
    ap.add_argument(
        "--modes",
        help="comma-separated WORKERS:LOOP or 'default' (default: 1:asyncio,default; side by side: default)",
    )
    ap.add_argument(
        "--baseline", metavar="REV", help="also run, first, the server of this revision or checkout folder"
    )
    ap.add_argument("--duration", type=int, default=10)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--no-bursts", dest="bursts", action="store_false", help="skip the registration bursts")
    ap.add_argument("-c", "--conns", type=int, default=16)
    ap.add_argument("-w", "--window", type=int, default=4)
    ap.add_argument(
        "--query-topics", type=int, default=4096, help="distinct topics rmqload cycles over (<= 4096)"
    )
    ap.add_argument("--side-by-side", action="store_true", help="N brokers x T topics each, see above")
    ap.add_argument("--topics-each", type=int, default=500, help="side by side: topics per broker")
    ap.add_argument("--java-namesrv", metavar="HOST:PORT", help="side by side: also a Java name server")
    ap.add_argument("--java-pid", type=int, default=0, help="side by side: the Java name server's pid (RSS)")
    args = ap.parse_args()
    if args.modes is None:
        args.modes = "default" if args.side_by_side else "1:asyncio,default"

    with tempfile.TemporaryDirectory(prefix="bench-namesrv-") as tmp_name:
        tmp = Path(tmp_name)
        exe = compile_rmqload(tmp)
        modes = [parse_mode(m.strip()) for m in args.modes.split(",") if m.strip()]
        if args.baseline:
            given = Path(args.baseline)
            source = given.resolve() if given.is_dir() else export_tree(args.baseline, tmp / "baseline")
            modes.insert(0, Mode(f"at {args.baseline}", source=source))
        if args.side_by_side:
            side_by_side(args, modes, exe, tmp)
            return
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
