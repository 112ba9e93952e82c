"""The development broker under load, as real processes on loopback.

Starts ``mqadmin namesrv start`` and ``mqadmin broker start`` in child processes, then measures:

- sync send throughput: the Apache RocketMQ C++ client (``rocketmq`` 0.4.4) sending 1 KB messages
  one at a time with ``send_sync`` (every send waits for its answer);
- pipelined send throughput: our remoting client storing the rest of the messages with 64
  SEND_MESSAGE_V2 requests in flight;
- pull throughput: PULL_MESSAGE requests (32 messages each) reading the whole topic back, one
  request in flight per queue, with our remoting client;
- the broker's resident memory once 100,000 messages are stored (and after reading them all).

Prints ``name value`` lines, numbers only.

    python bench/bench_broker.py                    # 20,000 C++ sends, 100,000 messages stored
    python bench/bench_broker.py --cpp-sends 5000
    python bench/bench_broker.py --loop asyncio     # the broker on asyncio's own loop (default: auto)
    python bench/bench_broker.py --source /tmp/base  # the servers of another checkout (a baseline)

For a before/after comparison, run it alternately with and without ``--source`` (a ``git worktree``
of the older commit): a busy machine then slows both alike.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from mqadmin.protocol.command import RemotingCommand
from mqadmin.protocol.message_record import decode_messages
from mqadmin.remoting.client import RemotingClient

ROOT = Path(__file__).resolve().parents[1]
MQADMIN = str(Path(sys.executable).parent / "mqadmin")
CPP_CLIENT = str(ROOT / "tests" / "broker" / "cpp_client.py")
TOPIC = "BenchTopic"
QUEUES = 4
BODY_SIZE = 1024


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_line(proc: subprocess.Popen[str], pattern: str) -> re.Match[str]:
    assert proc.stdout is not None
    while True:
        line = proc.stdout.readline()
        if not line:
            raise RuntimeError(f"process ended: {proc.stderr.read() if proc.stderr else ''}")
        m = re.search(pattern, line)
        if m:
            return m


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def cpu_s(pid: int) -> float:
    """CPU seconds the process has used (user + system): per message, steadier than throughput on a
    busy machine."""
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def fill(addr: str, count: int, in_flight: int = 64) -> None:
    """Store ``count`` more 1 KB messages with pipelined SEND_MESSAGE_V2 requests."""
    body = b"x" * BODY_SIZE
    async with RemotingClient() as client:
        sem = asyncio.Semaphore(in_flight)

        async def one(i: int) -> None:
            async with sem:
                ext = {
                    "a": "BenchPG",
                    "b": TOPIC,
                    "c": "TBW102",
                    "d": "4",
                    "e": str(i % QUEUES),
                    "f": "0",
                    "g": str(int(time.time() * 1000)),
                    "h": "0",
                    "i": f"KEYS\x01k{i}\x02TAGS\x01bench",
                    "j": "0",
                    "k": "false",
                    "m": "false",
                }
                r = await client.invoke(addr, RemotingCommand.request(310, ext, body), 30)
                if r.code != 0:
                    raise RuntimeError(f"send failed: {r.code} {r.remark}")

        await asyncio.gather(*(one(i) for i in range(count)))


async def pull_all(addr: str) -> tuple[int, int, float]:
    """Read every queue from offset 0; returns (messages, bytes, seconds)."""
    async with RemotingClient() as client:

        async def queue(qid: int) -> tuple[int, int]:
            offset, msgs, size = 0, 0, 0
            while True:
                ext = {
                    "consumerGroup": "BenchCG",
                    "topic": TOPIC,
                    "queueId": str(qid),
                    "queueOffset": str(offset),
                    "maxMsgNums": "32",
                    "sysFlag": "4",
                    "commitOffset": "0",
                    "suspendTimeoutMillis": "0",
                    "subVersion": "0",
                    "subscription": "*",
                }
                r = await client.invoke(addr, RemotingCommand.request(11, ext), 30)
                if r.code != 0:
                    return msgs, size
                body = r.body or b""
                msgs += len(decode_messages(body, read_body=False))
                size += len(body)
                offset = int((r.ext_fields or {})["nextBeginOffset"])

        started = time.perf_counter()
        results = await asyncio.gather(*(queue(q) for q in range(QUEUES)))
        elapsed = time.perf_counter() - started
    return sum(m for m, _ in results), sum(s for _, s in results), elapsed


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--cpp-sends", type=int, default=20000, help="messages the C++ producer sends")
    p.add_argument("--stored", type=int, default=100_000, help="messages stored before measuring memory")
    p.add_argument(
        "--loop", choices=("auto", "asyncio", "uvloop"), default="auto", help="the broker's --loop"
    )
    p.add_argument("--source", type=Path, help="run the name server and broker of this checkout")
    args = p.parse_args()
    server_argv = [MQADMIN]

    work = Path(tempfile.mkdtemp(prefix="bench-broker-"))
    env = {**os.environ, "HOME": str(work)}
    env.pop("NAMESRV_ADDR", None)
    cwd = None
    if args.source is not None:  # its mqadmin/ first on the path (and the folder run in), as a module
        env["PYTHONPATH"] = cwd = str(args.source.resolve())
        server_argv = [sys.executable, "-m", "mqadmin.cli.main"]
    (work / "ns.properties").write_text(f"bindAddress=127.0.0.1\nkvConfigPath={work / 'kv.json'}\n")
    ns = subprocess.Popen(
        [
            *server_argv,
            "namesrv",
            "start",
            "-c",
            str(work / "ns.properties"),
            "--listen-port",
            "0",
            "--log-file",
            "",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        cwd=cwd,
    )
    broker = None
    try:
        ns_port = wait_line(ns, r"address \S+:(\d+)").group(1)
        ns_addr = f"127.0.0.1:{ns_port}"
        port = free_port()
        (work / "broker.properties").write_text(
            f"brokerName=broker-a\nbrokerIP1=127.0.0.1\nbrokerIP2=127.0.0.1\nlistenPort={port}\n"
            f"namesrvAddr={ns_addr}\nstorePathRootDir={work / 'store'}\n"
        )
        broker = subprocess.Popen(
            [
                *server_argv,
                "broker",
                "start",
                "-c",
                str(work / "broker.properties"),
                "--log-file",
                str(work / "b.log"),
                "--loop",
                args.loop,
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
            cwd=cwd,
        )
        wait_line(broker, "boot success")
        addr = f"127.0.0.1:{port}"

        async def create() -> None:
            async with RemotingClient() as c:
                ext = {
                    "topic": TOPIC,
                    "defaultTopic": "TBW102",
                    "readQueueNums": str(QUEUES),
                    "writeQueueNums": str(QUEUES),
                    "perm": "6",
                    "topicFilterType": "SINGLE_TAG",
                    "topicSysFlag": "0",
                    "order": "false",
                }
                r = await c.invoke(addr, RemotingCommand.request(17, ext), 10)
                assert r.code == 0, r.remark

        asyncio.run(create())
        rss_idle = rss_mb(broker.pid)
        cpu = cpu_s(broker.pid)

        out = subprocess.run(
            [
                sys.executable,
                CPP_CLIENT,
                "produce",
                ns_addr,
                TOPIC,
                str(args.cpp_sends),
                "--size",
                str(BODY_SIZE - 8),
                "--quiet",
            ],
            capture_output=True,
            text=True,
            timeout=3600,
        )
        done = [json.loads(x) for x in out.stdout.splitlines() if x.startswith("{")][-1]
        sent, seconds = done["sent"], done["seconds"]
        print(f"sync_send_1KB_cpp_msgs_per_s {sent / seconds:.0f}")
        print(f"sync_send_1KB_cpp_ms_per_msg {seconds * 1000 / max(sent, 1):.3f}")
        cpu, used = cpu_s(broker.pid), cpu_s(broker.pid) - cpu
        print(f"broker_cpu_us_per_cpp_send {used * 1e6 / max(sent, 1):.1f}")

        remaining = args.stored - sent
        if remaining > 0:
            started = time.perf_counter()
            asyncio.run(fill(addr, remaining))
            print(f"pipelined_send_1KB_msgs_per_s {remaining / (time.perf_counter() - started):.0f}")
            cpu, used = cpu_s(broker.pid), cpu_s(broker.pid) - cpu
            print(f"broker_cpu_us_per_pipelined_send {used * 1e6 / remaining:.1f}")
        print(f"stored_messages {max(sent, args.stored)}")
        print(f"broker_rss_MB_idle {rss_idle:.1f}")
        print(f"broker_rss_MB_100k_stored {rss_mb(broker.pid):.1f}")

        msgs, size, elapsed = asyncio.run(pull_all(addr))
        print(f"pull_msgs_per_s {msgs / elapsed:.0f}")
        print(f"pull_MB_per_s {size / elapsed / 1e6:.1f}")
        print(f"broker_cpu_us_per_pulled_msg {(cpu_s(broker.pid) - cpu) * 1e6 / max(msgs, 1):.2f}")
        print(f"broker_rss_MB_after_pull {rss_mb(broker.pid):.1f}")
    finally:
        for proc in (broker, ns):
            if proc is not None and proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
                try:
                    proc.wait(15)
                except subprocess.TimeoutExpired:
                    proc.kill()
    return 0


if __name__ == "__main__":
    sys.exit(main())
