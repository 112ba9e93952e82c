"""Start-up of ``mqadmin`` commands as ratios to ``python -c pass``, in alternating rounds.

Starts a name server and a development broker of the ``mqadmin`` under test on loopback (ports
picked at run time), makes topic ``T``, consumer group ``G`` as a consumer that ran leaves it (an
offset committed on ``T``, its ``%RETRY%G`` topic) and group ``G0`` that never consumed, then runs,
round after round (after 2 warm-up rounds):

- ``python -c pass`` with the interpreter the ``mqadmin`` console script runs on;
- the same interpreter importing the libraries every command imports (click, dataclasses, enum,
  json, socket, typing) and nothing of ours: the floor under every command's ratio;
- ``mqadmin --help``;
- the one-request commands ``topicRoute``, ``topicList``, ``getBrokerConfig -b``,
  ``consumerProgress -g G`` (one request to the broker, the consume stats, beside the name server's
  routes of ``%RETRY%G`` and ``T``) and ``sendMessage`` (the route, the send);
- ``consumerProgress -g G0``: a group with no offset and no %RETRY% topic is not a one-request
  command: five requests (no route, the cluster, the consume stats, the cluster again, each broker's
  group table, to tell a new group from a misspelt one). Printed beside the others, left out of the
  verdict.

and prints each one's median and its ratio to the interpreter's. The budget is 8 times
``python -c pass`` for the one-request commands (milliseconds differ from machine to machine, the
ratio on one machine much less). Time a regular install (``pip install .`` with a current pip),
not an editable one: an editable install's import finder is not what users run. The cases alternate,
so a change in the machine's load falls on all of them alike; the load average before and after is
printed beside the figures.

With ``--baseline MQADMIN`` (an install of an earlier commit, in a venv of its own) the same
commands of that install run in the same rounds, each against its own interpreter's
``python -c pass``: before and after, under the same load.

    python bench/bench_cli.py [--runs 20] [--mqadmin PATH] [--baseline PATH]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from mqadmin.localcluster import BROKER_BOOT, NS_BOOT, ServerProcess, free_port

BUDGET = 8.0
"""Largest ratio to ``python -c pass`` of a command that sends one request."""
ONE_REQUEST = ("topicRoute", "topicList", "getBrokerConfig", "consumerProgress", "sendMessage")
LIBRARIES = "import click, dataclasses, enum, json, socket, typing"
"""What every command imports before any code of ours runs: the floor under the ratios."""


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


def install_of(python: str) -> str:
    """Where that interpreter imports ``mqadmin`` from, and whether it is an editable install."""
    probe = "import mqadmin, sys; print(mqadmin.__file__)"
    where = subprocess.run([python, "-c", probe], capture_output=True, text=True, cwd="/").stdout.strip()
    kind = (
        "regular install" if "site-packages" in where else "NOT a regular install (editable or source tree)"
    )
    return f"{where} ({kind})"


class Servers:
    """A name server and a broker of ``mqadmin`` under ``workdir``, with topic T and group G."""

    def __init__(self, mqadmin: str, workdir: Path) -> None:
        self.mqadmin = mqadmin
        self.workdir = workdir
        ns_conf = workdir / "namesrv.properties"
        ns_conf.write_text(f"bindAddress=127.0.0.1\nkvConfigPath={workdir / 'kvConfig.json'}\n")
        self.namesrv = ServerProcess(
            "name server",
            [mqadmin, "namesrv", "start", "-c", str(ns_conf), "--listen-port", "0", "--log-file", ""],
            workdir,
            NS_BOOT,
        )
        self.broker: ServerProcess | None = None
        self.addr = f"127.0.0.1:{self.namesrv.start().group(2)}"
        port = free_port()
        self.broker_addr = f"127.0.0.1:{port}"
        props = {
            "brokerClusterName": "DefaultCluster",
            "brokerName": "broker-a",
            "brokerIP1": "127.0.0.1",
            "listenPort": port,
            "namesrvAddr": self.addr,
            "storePathRootDir": workdir / "store",
        }
        broker_conf = workdir / "broker.properties"
        broker_conf.write_text("".join(f"{k}={v}\n" for k, v in props.items()))
        self.broker = ServerProcess(
            "broker",
            [mqadmin, "broker", "start", "-c", str(broker_conf), "--log-file", ""],
            workdir,
            BROKER_BOOT,
        )
        self.broker.start()

    def prepare(self, env: dict[str, str]) -> None:
        """Topic T with messages; group G with an offset committed on T and its %RETRY% topic, as a
        consumer that ran leaves it; group G0 that never consumed."""
        n = ["-n", self.addr]
        c = ["-c", "DefaultCluster"]
        commit = ["-b", self.broker_addr, "-q", "0", "-o", "1", "--yes"]  # offset 1 on queue 0 of T
        for argv in (
            ["updateTopic", *n, *c, "-t", "T", "-r", "1", "-w", "1"],
            ["updateSubGroup", *n, *c, "-g", "G"],
            ["updateSubGroup", *n, *c, "-g", "G0"],
            ["updateTopic", *n, *c, "-t", "%RETRY%G", "-r", "1", "-w", "1"],
            ["sendMessage", *n, "-t", "T", "-p", "hello"],
            ["sendMessage", *n, "-t", "T", "-p", "hello"],
            ["resetOffsetByTime", *n, "-g", "G", "-t", "T", "-s", "now", *commit],
        ):
            p = subprocess.run(
                [self.mqadmin, *argv], capture_output=True, text=True, env=env, cwd=self.workdir
            )
            if p.returncode != 0:
                print(
                    f"note: {' '.join(argv[:1])} exited {p.returncode}: {p.stderr.strip()}", file=sys.stderr
                )

    def stop(self) -> None:
        for server in (self.broker, self.namesrv):
            if server is not None:
                server.stop()


def commands(mqadmin: str, addr: str, broker: str) -> dict[str, list[str]]:
    n = ["-n", addr]
    return {
        "--help": [mqadmin, "--help"],
        "topicRoute": [mqadmin, "topicRoute", *n, "-t", "T"],
        "topicList": [mqadmin, "topicList", *n],
        "getBrokerConfig": [mqadmin, "getBrokerConfig", *n, "-b", broker],
        "consumerProgress": [mqadmin, "consumerProgress", *n, "-g", "G"],
        "consumerProgress G0": [mqadmin, "consumerProgress", *n, "-g", "G0"],
        "sendMessage": [mqadmin, "sendMessage", *n, "-t", "T", "-p", "bench"],
    }


def timed(argv: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall-clock and CPU (user + system) milliseconds of one run; CPU time is what the machine's load
    changes least."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(
        argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, cwd=env["MQADMIN_CONFIG_DIR"]
    )
    assert proc.stderr is not None
    err = proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    wall = (time.perf_counter() - t0) * 1000
    proc.returncode = os.waitstatus_to_exitcode(status)
    proc.stderr.close()
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} exited {proc.returncode}: {err.decode(errors='replace').strip()}")
    return wall, (usage.ru_utime + usage.ru_stime) * 1000


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
    installs = {"": find_mqadmin(args.mqadmin)}
    if args.baseline:
        installs["baseline"] = args.baseline
    pythons = {label: interpreter_of(script) for label, script in installs.items()}
    with tempfile.TemporaryDirectory() as tmp:
        env = {
            k: v
            for k, v in os.environ.items()
            if not k.startswith(("MQADMIN_", "NAMESRV_ADDR")) and k not in ("PYTHONDONTWRITEBYTECODE",)
        }
        env["MQADMIN_CONFIG_DIR"] = tmp
        servers = Servers(installs[""], Path(tmp))
        try:
            servers.prepare(env)
            cases: dict[tuple[str, str], list[str]] = {}
            for label, script in installs.items():
                cases[(label, "python -c pass")] = [pythons[label], "-c", "pass"]
                cases[(label, "libraries alone")] = [pythons[label], "-c", LIBRARIES]
                for name, argv in commands(script, servers.addr, servers.broker_addr).items():
                    cases[(label, name)] = argv
            times: dict[tuple[str, str], list[float]] = {key: [] for key in cases}
            cpu: dict[tuple[str, str], list[float]] = {key: [] for key in cases}
            load_before = load()
            for i in range(args.runs + 2):
                for key, argv in cases.items():
                    wall, used = timed(argv, env)
                    if i >= 2:
                        times[key].append(wall)
                        cpu[key].append(used)
            load_after = load()
        finally:
            servers.stop()
    print(f"{args.runs} alternating rounds; load average before {load_before}, after {load_after}")
    print("median wall-clock ms (min, max) and its ratio; median CPU ms (user + system) and its ratio")
    wall_ms = {key: statistics.median(ts) for key, ts in times.items()}
    cpu_ms = {key: statistics.median(ts) for key, ts in cpu.items()}
    worst = 0.0
    for label, script in installs.items():
        print(f"{label or 'under test'}: {script}, mqadmin from {install_of(pythons[label])}")
        base = (label, "python -c pass")
        for key, ts in times.items():
            if key[0] != label:
                continue
            ratio = wall_ms[key] / wall_ms[base]
            print(
                f"  {key[1]:<20} {wall_ms[key]:6.1f} ms ({min(ts):6.1f}, {max(ts):6.1f}) {ratio:5.2f}x"
                f"   cpu {cpu_ms[key]:6.1f} ms {cpu_ms[key] / cpu_ms[base]:5.2f}x"
            )
            if label == "" and key[1] in ONE_REQUEST:
                worst = max(worst, ratio)
    print(
        f"worst one-request command: {worst:.2f}x python -c pass (budget <= {BUDGET:g}x: "
        f"{'met' if worst <= BUDGET else 'NOT met'})"
    )
    return 0 if worst <= BUDGET else 1


if __name__ == "__main__":
    sys.exit(main())
