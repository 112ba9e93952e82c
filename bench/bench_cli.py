"""Start-up of ``mqadmin`` against the bare interpreter, as a user runs it, in one alternating run.

Starts our name server (``mqadmin namesrv start``) on a free port, registers a broker holding topic
``T``, then runs, round after round (after 2 warm-up rounds):

- ``python -c pass`` with the interpreter the ``mqadmin`` console script runs on;
- the bare request: a dozen lines of ``python -c`` sending the same GET_ROUTEINFO_BY_TOPIC with
  ``_socket``, ``_struct`` and ``_json`` and printing the raw answer, what any Python client pays at
  the least (a yardstick, not a client: no checks, no decoding, no output format);
- ``mqadmin --help``;
- ``mqadmin topicRoute -n ADDR -t T``, and ``mqadmin topicList -n ADDR`` beside it;
- ``mqadmin getNamesrvConfig -n ADDR``: a command outside the topic family (the name server's
  config, read from Java's properties text), on the same blocking client and lean-import rule;

and prints each one's median, and the ratio of each to the interpreter's. The goal is ``topicRoute``
at most 2.5 times ``python -c pass``: absolute milliseconds differ from machine to machine, the ratio
on one machine much less. The four alternate, so a change in the machine's load falls on all of them
alike; the load average before and after is printed beside the figures.

It also lists the heavier packages ``topicRoute`` imported (``PYTHONPROFILEIMPORTTIME``): none of
:data:`mqadmin.cli.main.HEAVY_MODULES` (typing, dataclasses, re, enum, json, socket, asyncio, click,
...) may be among them, nor pyspark or the servers, nor another command's module.

With ``--baseline MQADMIN`` (an install of an earlier commit, in a venv of its own) that one's
``--help``, ``topicRoute``, ``topicList`` and ``getNamesrvConfig`` run in the same rounds, each
against its own interpreter's ``python -c pass``: before and after, under the same load.

    python bench/bench_cli.py [--runs 20] [--mqadmin PATH] [--baseline PATH]
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

from mqadmin.cli.main import HEAVY_MODULES
from mqadmin.protocol import frame
from mqadmin.protocol.bodies.register import RegisterBrokerBody
from mqadmin.protocol.bodies.topic import DataVersion, TopicConfig, TopicConfigSerializeWrapper
from mqadmin.protocol.codes import RequestCode
from mqadmin.protocol.command import RemotingCommand

GOAL_RATIO = 2.5
BARE = "bare request (_socket)"
BARE_REQUEST = """
import sys, _socket, _struct, _json
host, port = sys.argv[1].rsplit(":", 1)
s = _socket.socket(_socket.AF_INET, _socket.SOCK_STREAM)
s.settimeout(5)
s.connect((host, int(port)))
h = ('{"code":105,"extFields":{"topic":%s},"flag":0,"language":"JAVA","opaque":1,'
     '"serializeTypeCurrentRPC":"JSON","version":479}' % _json.encode_basestring_ascii(sys.argv[2])).encode()
s.sendall(_struct.pack(">II", 4 + len(h), len(h)) + h)
buf = s.recv(65536)
while len(buf) < 4 or len(buf) < 4 + _struct.unpack(">I", buf[:4])[0]:
    buf += s.recv(65536)
sys.stdout.buffer.write(buf[8 + (_struct.unpack(">I", buf[4:8])[0] & 0xFFFFFF):])
"""
"""The least any Python client pays for topicRoute: the interpreter, one connection, one request."""
FORBIDDEN = (*sorted(HEAVY_MODULES), "pyspark", "mqadmin.broker", "mqadmin.namesrv")


def find_mqadmin(given: str | None) -> str:
    if given:
        return given
    beside = Path(sys.executable).parent / "mqadmin"
    return str(beside) if beside.exists() else (shutil.which("mqadmin") or "mqadmin")


def interpreter_of(script: str) -> str:
    """The Python a console script runs on (its ``#!`` line), else this one."""
    try:
        with open(shutil.which(script) or script, "rb") as f:
            first = f.readline().decode(errors="replace")
    except OSError:
        return sys.executable
    if first.startswith("#!"):
        words = first[2:].split()
        if words and os.path.isabs(words[0]) and "python" in os.path.basename(words[0]):
            return words[0]
    return sys.executable


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


def imported_modules(argv: list[str], env: dict[str, str]) -> set[str]:
    env = {**env, "PYTHONPROFILEIMPORTTIME": "1"}
    p = subprocess.run(argv, capture_output=True, text=True, env=env)
    names = set()
    for line in p.stderr.splitlines():
        if line.startswith("import time:") and "|" in line:
            names.add(line.rsplit("|", 1)[1].strip())
    return names


def timed(argv: list[str], env: dict[str, str]) -> float:
    t0 = time.perf_counter()
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    return (time.perf_counter() - t0) * 1000


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--mqadmin", help="the mqadmin executable (default: the one beside this Python)")
    parser.add_argument(
        "--baseline",
        metavar="MQADMIN",
        help="another mqadmin executable (an install of an earlier commit) timed in the same rounds",
    )
    args = parser.parse_args()
    mqadmin = find_mqadmin(args.mqadmin)
    python = interpreter_of(mqadmin)
    with tempfile.TemporaryDirectory() as tmp:
        proc, addr = start_namesrv(mqadmin, tmp)
        sock = register_topic(addr, "T")
        try:
            cases = {
                "python -c pass": [python, "-c", "pass"],
                BARE: [python, "-c", BARE_REQUEST, addr, "T"],
                "mqadmin --help": [mqadmin, "--help"],
                "mqadmin topicRoute -t T": [mqadmin, "topicRoute", "-n", addr, "-t", "T"],
                "mqadmin topicList": [mqadmin, "topicList", "-n", addr],
                "mqadmin getNamesrvConfig": [mqadmin, "getNamesrvConfig", "-n", addr],
            }
            if args.baseline:
                base_python = interpreter_of(args.baseline)
                cases["baseline: python -c pass"] = [base_python, "-c", "pass"]
                cases["baseline: mqadmin --help"] = [args.baseline, "--help"]
                cases["baseline: topicRoute -t T"] = [args.baseline, "topicRoute", "-n", addr, "-t", "T"]
                cases["baseline: topicList"] = [args.baseline, "topicList", "-n", addr]
                cases["baseline: getNamesrvConfig"] = [args.baseline, "getNamesrvConfig", "-n", addr]
            # as installed by pip: bytecode cached (pip compiles at install; the warm-up runs write it here)
            env = {
                k: v
                for k, v in os.environ.items()
                if not k.startswith(("MQADMIN_", "NAMESRV_ADDR"))
                and k not in ("PYTHONDONTWRITEBYTECODE", "PYTHONPROFILEIMPORTTIME")
            }
            env["MQADMIN_CONFIG_DIR"] = tmp
            times: dict[str, list[float]] = {name: [] for name in cases}
            load_before = load()
            for i in range(args.runs + 2):
                for name, argv in cases.items():
                    ms = timed(argv, env)
                    if i >= 2:
                        times[name].append(ms)
            load_after = load()
            # what the interpreter itself imports there (an editable install's finder) is not ours
            modules = imported_modules(cases["mqadmin topicRoute -t T"], env) - imported_modules(
                cases["python -c pass"], env
            )
        finally:
            sock.close()
            proc.terminate()
            proc.wait(5)
    print(f"{mqadmin} on {python}")
    print(f"{args.runs} alternating rounds; load average before {load_before}, after {load_after}")
    median = {name: statistics.median(ts) for name, ts in times.items()}
    base = median["python -c pass"]
    for name, ts in times.items():
        own = median["baseline: python -c pass"] if name.startswith("baseline") else base
        print(
            f"  {name:<34} median {median[name]:6.1f} ms  (min {min(ts):6.1f}, max {max(ts):6.1f})"
            f"  {median[name] / own:4.2f}x"
        )
    ratio = median["mqadmin topicRoute -t T"] / base
    print(
        f"topicRoute / python -c pass = {ratio:.2f} "
        f"(goal <= {GOAL_RATIO}: {'met' if ratio <= GOAL_RATIO else 'NOT met'})"
    )
    print(f"topicRoute - {BARE} = {median['mqadmin topicRoute -t T'] - median[BARE]:.1f} ms (ours)")
    bad = sorted(m for m in modules if any(m == f or m.startswith(f + ".") for f in FORBIDDEN))
    others = sorted(
        m for m in modules if m.startswith("mqadmin.cli.commands.") and m != "mqadmin.cli.commands.topic"
    )
    print(
        f"topicRoute imported {len(modules)} modules beyond python -c pass's; "
        f"heavier packages: {bad or 'none'}; "
        f"other command modules: {others or 'none'}"
    )
    if launcher_imports_re(mqadmin):
        print(
            f"note: {mqadmin} itself imports re (a launcher written by an older pip, 23.x): "
            "reinstall with a current pip to time mqadmin rather than its launcher"
        )
    return 0 if ratio <= GOAL_RATIO and not bad and not others else 1


def launcher_imports_re(script: str) -> bool:
    """Whether the console script pip wrote imports ``re`` (older pips' template does, to strip a
    Windows suffix from ``argv[0]``): that costs every command, whatever it imports."""
    try:
        head = Path(script).read_bytes()[:2000]
    except OSError:
        return False
    return b"\nimport re\n" in head


if __name__ == "__main__":
    sys.exit(main())
