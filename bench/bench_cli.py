"""Wall time of ``mqadmin topicRoute -t T`` against a local name server, as a user runs it.

Starts our name server (``mqadmin namesrv start``) on a free port, registers a broker holding topic
``T``, then runs the installed ``mqadmin`` console script 20 times (after 2 warm-up runs) and
prints the median, and checks which modules the command imported (``PYTHONPROFILEIMPORTTIME``):
neither rich nor pyspark may be among them. The target is a median of at most 90 ms (the Java tool
takes about 4 s). Timings need an otherwise idle
machine: on a loaded one they measure the load.

    python bench/bench_cli.py [--runs 20] [--mqadmin PATH]
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import zlib
from pathlib import Path

from mqadmin.protocol import frame
from mqadmin.protocol.bodies.register import RegisterBrokerBody
from mqadmin.protocol.bodies.topic import DataVersion, TopicConfig, TopicConfigSerializeWrapper
from mqadmin.protocol.codes import RequestCode
from mqadmin.protocol.command import RemotingCommand

FLOOR_MS = 90.0
FORBIDDEN = ("rich", "pyspark", "mqadmin.broker", "mqadmin.namesrv")


def find_mqadmin(given: str | None) -> str:
    if given:
        return given
    beside = Path(sys.executable).parent / "mqadmin"
    return str(beside) if beside.exists() else (shutil.which("mqadmin") or "mqadmin")


def start_namesrv(mqadmin: str, workdir: str) -> tuple[subprocess.Popen[str], str]:
    env = {k: v for k, v in os.environ.items() if k != "NAMESRV_ADDR"}
    env["ROCKETMQ_HOME"] = workdir
    cfg = Path(workdir) / "namesrv.properties"
    cfg.write_text(f"bindAddress=127.0.0.1\nkvConfigPath={workdir}/kvConfig.json\n")
    proc = subprocess.Popen(
        [mqadmin, "namesrv", "start", "-c", str(cfg), "--listen-port", "0", "--log-file", ""],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env=env,
    )
    assert proc.stdout is not None
    for _ in range(10):
        line = proc.stdout.readline()
        m = re.search(r"boot success.*address \S+:(\d+)", line)
        if m:
            return proc, f"127.0.0.1:{m.group(1)}"
    proc.kill()
    raise SystemExit("the name server did not start")


def register_topic(addr: str, topic: str) -> socket.socket:
    """REGISTER_BROKER of broker-a holding ``topic``; the socket must stay open (5.x drops closed brokers)."""
    # two topics: a first registration of a single topic is how brokers add one topic, and is refused
    table = {
        name: TopicConfig(topic_name=name, read_queue_nums=4, write_queue_nums=4, perm=6)
        for name in (topic, "TBW102")
    }
    wrapper = TopicConfigSerializeWrapper(table, DataVersion())
    body = RegisterBrokerBody(wrapper, []).encode()
    fields = {
        "brokerName": "broker-a",
        "brokerAddr": "127.0.0.1:10911",
        "clusterName": "DefaultCluster",
        "haServerAddr": "127.0.0.1:10912",
        "brokerId": "0",
        "compressed": "false",
        "bodyCrc32": str(zlib.crc32(body) & 0x7FFFFFFF),
    }
    cmd = RemotingCommand.request(RequestCode.REGISTER_BROKER, fields, body, version=409)
    host, port = addr.rsplit(":", 1)
    sock = socket.create_connection((host, int(port)), timeout=10)
    sock.sendall(frame.encode(cmd))
    sock.recv(65536)
    return sock


def imported_modules(mqadmin: str, args: list[str], env: dict[str, str]) -> set[str]:
    env = {**env, "PYTHONPROFILEIMPORTTIME": "1"}
    p = subprocess.run([mqadmin, *args], capture_output=True, text=True, env=env)
    names = set()
    for line in p.stderr.splitlines():
        if line.startswith("import time:") and "|" in line:
            names.add(line.rsplit("|", 1)[1].strip())
    return names


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--mqadmin", help="the mqadmin executable (default: the one beside this Python)")
    args = parser.parse_args()
    mqadmin = find_mqadmin(args.mqadmin)
    with tempfile.TemporaryDirectory() as tmp:
        proc, addr = start_namesrv(mqadmin, tmp)
        sock = register_topic(addr, "T")
        try:
            cmd = [mqadmin, "topicRoute", "-n", addr, "-t", "T"]
            # as installed by pip: bytecode cached (pip compiles at install; the warm-up runs write it here)
            env = {
                k: v
                for k, v in os.environ.items()
                if not k.startswith(("MQADMIN_", "NAMESRV_ADDR")) and k != "PYTHONDONTWRITEBYTECODE"
            }
            env["MQADMIN_CONFIG_DIR"] = tmp
            for _ in range(2):
                subprocess.run(cmd, check=True, capture_output=True, env=env)
            times = []
            for _ in range(args.runs):
                t0 = time.perf_counter()
                subprocess.run(cmd, check=True, capture_output=True, env=env)
                times.append((time.perf_counter() - t0) * 1000)
            modules = imported_modules(mqadmin, cmd[1:], env)
        finally:
            sock.close()
            proc.terminate()
            proc.wait(5)
    times.sort()
    median = statistics.median(times)
    print(
        f"mqadmin topicRoute -t T: median {median:.1f} ms over {args.runs} runs "
        f"(min {times[0]:.1f}, max {times[-1]:.1f}); target {FLOOR_MS:.0f} ms: "
        f"{'met' if median <= FLOOR_MS else 'NOT met'}"
    )
    bad = sorted(m for m in modules if any(m == f or m.startswith(f + ".") for f in FORBIDDEN))
    others = sorted(
        m for m in modules if m.startswith("mqadmin.cli.commands.") and m != "mqadmin.cli.commands.topic"
    )
    print(
        f"modules imported: {len(modules)}; rich/pyspark/broker/namesrv: {bad or 'none'}; "
        f"other command modules: {others or 'none'}"
    )
    return 0 if median <= FLOOR_MS and not bad and not others else 1


if __name__ == "__main__":
    sys.exit(main())
