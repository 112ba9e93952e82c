"""``mqadmin exportMetrics --listen`` against many brokers, topics and groups: scrape time and RSS.

Starts our name server and ``--brokers`` development brokers as processes on loopback, spreads
``--topics`` topics (2 queues each) and ``--groups`` consumer groups over them (each group with a
committed offset on one topic of its broker, so that it has progress to report), with ``--messages``
messages sent to queue 0 of every topic (0 by default: then no topic has a put or get stats item, and
the exporter asks for none; with 1 every topic has them and every group lags by one message, so every
stats item and a pull per group are asked), then runs the exporter as a subprocess and scrapes it
``--scrapes`` times with the names of rocketmq-exporter (the default) and with ours. Prints ``name
value`` lines: ``scrape_seconds_<names>_{first,median,max}``, ``series_<names>``,
``exporter_rss_mib_<names>`` (after the scrapes) and ``exporter_peak_rss_mib_<names>`` (VmHWM).

``--against DIR`` also runs the exporter of another checkout (``git worktree add DIR COMMIT``) on the
same servers, alternating with this one ``--rounds`` times (lines suffixed ``_against``), so that a
change is measured against the commit before it under the same load.

    python bench/bench_exporter.py                                   # 10 brokers, 5,000 topics, 2,000 groups
    python bench/bench_exporter.py --messages 1 --against /tmp/base --rounds 3
    python bench/bench_exporter.py --brokers 2 --topics 200 --groups 100
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from mqadmin.localcluster import free_port  # noqa: E402
from mqadmin.protocol.command import RemotingCommand  # noqa: E402
from mqadmin.remoting.client import RemotingClient  # noqa: E402
from tests.broker.peers import create_topic_fields  # noqa: E402
from tests.servers import BrokerProcess, NameServerProcess  # noqa: E402

MQADMIN = str(Path(sys.executable).parent / "mqadmin")


async def populate(brokers: list[str], topics: int, groups: int) -> None:
    """Topics and groups spread round-robin over the brokers, 64 requests in flight."""
    gate = asyncio.Semaphore(64)
    async with RemotingClient() as client:

        async def call(addr: str, code: int, fields: dict[str, str], body: bytes | None = None) -> None:
            async with gate:
                resp = await client.invoke(addr, RemotingCommand.request(code, fields, body), 30.0)
                assert resp.code == 0, (code, resp.remark)

        await asyncio.gather(
            *(
                call(
                    brokers[i % len(brokers)],
                    17,
                    create_topic_fields(f"BenchT{i}", readQueueNums="2", writeQueueNums="2"),
                )
                for i in range(topics)
            )
        )
        await asyncio.gather(
            *(
                call(
                    brokers[i % len(brokers)],
                    200,
                    {},
                    f'{{"groupName":"BenchG{i}","consumeEnable":true,"retryQueueNums":1,"retryMaxTimes":16}}'.encode(),
                )
                for i in range(groups)
            )
        )
        # each group commits offset 0 on queue 0 of a topic of its own broker (topic i % topics lies on
        # broker i % brokers when topics is a multiple of the broker count)
        await asyncio.gather(
            *(
                call(
                    brokers[i % len(brokers)],
                    15,
                    {
                        "consumerGroup": f"BenchG{i}",
                        "topic": f"BenchT{i % topics}",
                        "queueId": "0",
                        "commitOffset": "0",
                    },
                )
                for i in range(groups)
            )
        )


async def send(brokers: list[str], topics: int, messages: int) -> None:
    """``messages`` messages of 100 bytes to queue 0 of every topic (SEND_MESSAGE_V2), 64 in flight."""
    gate = asyncio.Semaphore(64)
    async with RemotingClient() as client:

        async def one(i: int) -> None:
            fields = {
                "a": "BenchProducer",
                "b": f"BenchT{i}",
                "c": "TBW102",
                "d": "4",
                "e": "0",
                "f": "0",
                "g": str(int(time.time() * 1000)),
                "h": "0",
                "i": "WAIT\x01true\x02",
                "j": "0",
                "k": "false",
                "m": "false",
            }
            async with gate:
                cmd = RemotingCommand.request(310, fields, b"x" * 100)
                resp = await client.invoke(brokers[i % len(brokers)], cmd, 30.0)
                assert resp.code == 0, resp.remark

        await asyncio.gather(*(one(i) for i in range(topics) for _ in range(messages)))


def rss_mib(pid: int) -> tuple[float, float]:
    fields = dict(
        line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines() if ":" in line
    )
    return int(fields["VmRSS"].split()[0]) / 1024, int(fields["VmHWM"].split()[0]) / 1024


def scrape(port: int) -> tuple[float, int]:
    req = urllib.request.Request(f"http://127.0.0.1:{port}/metrics")
    req.add_header("X-Prometheus-Scrape-Timeout-Seconds", "10")
    started = time.monotonic()
    with urllib.request.urlopen(req, timeout=30) as r:
        body = r.read().decode()
    took = time.monotonic() - started
    return took, sum(1 for line in body.splitlines() if line and not line.startswith("#"))


def measure(namesrv: str, names: str, scrapes: int, suffix: str, pythonpath: str | None) -> None:
    """One exporter process: ``scrapes`` scrapes, then its RSS."""
    port = free_port()
    argv = [
        MQADMIN,
        "exportMetrics",
        "-n",
        namesrv,
        "--listen",
        f"127.0.0.1:{port}",
        "--metrics-names",
        names,
    ]
    env = dict(os.environ)
    if pythonpath is not None:
        env["PYTHONPATH"] = pythonpath
    proc = subprocess.Popen(argv, stderr=subprocess.PIPE, text=True, env=env)
    try:
        assert proc.stderr is not None
        proc.stderr.readline()
        times, series = [], 0
        for _ in range(scrapes):
            took, series = scrape(port)
            times.append(took)
        print(f"scrape_seconds_{names}{suffix}_first {times[0]:.3f}")
        print(f"scrape_seconds_{names}{suffix}_median {statistics.median(times):.3f}")
        print(f"scrape_seconds_{names}{suffix}_max {max(times):.3f}")
        print(f"series_{names}{suffix} {series}")
        now, peak = rss_mib(proc.pid)
        print(f"exporter_rss_mib_{names}{suffix} {now:.1f}")
        print(f"exporter_peak_rss_mib_{names}{suffix} {peak:.1f}")
        print(f"loadavg {Path('/proc/loadavg').read_text().split()[0]}", flush=True)
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(10)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--brokers", type=int, default=10)
    ap.add_argument("--topics", type=int, default=5000)
    ap.add_argument("--groups", type=int, default=2000)
    ap.add_argument("--messages", type=int, default=0, help="messages sent to every topic")
    ap.add_argument("--scrapes", type=int, default=5)
    ap.add_argument("--against", default=None, help="another checkout whose exporter to alternate with")
    ap.add_argument("--rounds", type=int, default=1)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-exporter-") as tmp:
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
            runs: list[tuple[str, str | None]] = [("", None)]
            if args.against is not None:
                runs.append(("_against", str(Path(args.against).resolve())))
            for _ in range(args.rounds):
                for names in ("exporter", "ours"):
                    for suffix, path in runs:
                        measure(ns.addr, names, args.scrapes, suffix, path)
        finally:
            for b in brokers:
                b.stop()
            ns.stop()


if __name__ == "__main__":
    main()
