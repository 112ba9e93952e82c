"""``mqadmin doctor`` against many brokers, topics and groups: how long a run takes, check by check.

Starts our name server and ``--brokers`` development brokers on loopback, with ``--topics`` topics and
``--groups`` groups spread over them as ``bench_exporter.py`` makes them (each group with a committed
offset on a topic of its broker, ``--messages`` messages in every topic so that every group lags), then
alternates, ``--rounds`` times, one ``mqadmin doctor --json`` run (lag window ``--window``) with the
baseline: one ``exportMetrics --format prometheus`` page of the same cluster, a read of every master's
figures that operators already run every 15 s. Prints ``name value`` lines: ``doctor_seconds_*`` and
``baseline_seconds_*`` (median, max), their ratio, ``doctor_reading_seconds`` (the run less the
window), the slowest checks' ``check_ms_<name>`` (median), ``findings`` and the load average.

    python bench/bench_doctor.py                         # 10 brokers, 2,000 topics, 2,000 groups
    python bench/bench_doctor.py --brokers 2 --topics 200 --groups 100 --rounds 2
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from bench_exporter import populate, send  # noqa: E402

from tests.servers import BrokerProcess, NameServerProcess  # noqa: E402

MQADMIN = str(Path(sys.executable).parent / "mqadmin")


def timed(argv: list[str]) -> tuple[float, str]:
    started = time.monotonic()
    proc = subprocess.run(argv, capture_output=True, text=True, timeout=600, env=dict(os.environ))
    took = time.monotonic() - started
    if proc.returncode not in (0, 6, 8):
        raise SystemExit(f"{argv[1]} exited {proc.returncode}: {proc.stderr.strip()[-400:]}")
    return took, proc.stdout


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--brokers", type=int, default=10)
    ap.add_argument("--topics", type=int, default=2000)
    ap.add_argument("--groups", type=int, default=2000)
    ap.add_argument("--messages", type=int, default=1, help="messages sent to every topic")
    ap.add_argument("--window", type=float, default=1.0, help="the doctor's lag window, seconds")
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-doctor-") as tmp:
        work = Path(tmp)
        ns = NameServerProcess(work / "ns")
        brokers: list[BrokerProcess] = []
        try:
            for i in range(args.brokers):
                brokers.append(BrokerProcess(work / f"b{i}", ns.addr, brokerName=f"broker-{i}"))
            started = time.monotonic()
            asyncio.run(populate([b.addr for b in brokers], args.topics, args.groups))
            if args.messages:
                asyncio.run(send([b.addr for b in brokers], args.topics, args.messages))
            print(f"setup_seconds {time.monotonic() - started:.1f}", flush=True)
            time.sleep(2)  # let the brokers register their new topics
            doctor = [MQADMIN, "doctor", "-n", ns.addr, "--json", "--set", f"lag_window={args.window}"]
            doctor += ["--deadline", "300"]
            baseline = [
                MQADMIN,
                "exportMetrics",
                "-n",
                ns.addr,
                "--format",
                "prometheus",
                "--deadline",
                "300",
            ]
            runs: list[float] = []
            bases: list[float] = []
            checks: dict[str, list[float]] = {}
            findings = 0
            for _ in range(args.rounds):
                took, out = timed(doctor)
                runs.append(took)
                doc = json.loads(out)
                findings = len(doc["findings"])
                for c in doc["checks"]:
                    checks.setdefault(c["check"], []).append(c["durationMs"])
                    if c["status"] not in ("ok", "found"):
                        print(f"not_run {c['check']} {c['status']}: {c['error']}", flush=True)
                took, _ = timed(baseline)
                bases.append(took)
                print(f"round doctor {runs[-1]:.2f} baseline {took:.2f}", flush=True)
            d, b = statistics.median(runs), statistics.median(bases)
            print(f"doctor_seconds_median {d:.2f}")
            print(f"doctor_seconds_max {max(runs):.2f}")
            print(f"doctor_reading_seconds {d - args.window:.2f}")
            print(f"baseline_seconds_median {b:.2f}")
            print(f"baseline_seconds_max {max(bases):.2f}")
            print(f"ratio_doctor_to_baseline {d / b:.2f}")
            slowest = sorted(checks.items(), key=lambda kv: -statistics.median(kv[1]))[:6]
            for name, ms in slowest:
                print(f"check_ms_{name} {statistics.median(ms):.0f}")
            print(f"findings {findings}")
            print(f"loadavg {Path('/proc/loadavg').read_text().split()[0]}", flush=True)
        finally:
            for broker in brokers:
                broker.stop()
            ns.stop()


if __name__ == "__main__":
    main()
