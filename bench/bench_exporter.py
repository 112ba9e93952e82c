"""``mqadmin exportMetrics --listen`` against many brokers, topics and groups: scrape time and RSS.

Starts our name server and ``--brokers`` development brokers as processes on loopback, spreads
``--topics`` topics (2 queues each) and ``--groups`` consumer groups over them (each group with a
committed offset on one topic of its broker, so that it has progress to report, and a message or two
so that it lags), then runs the exporter as a subprocess and scrapes it ``--scrapes`` times with the
names of rocketmq-exporter (the default) and with ours. Prints ``name value`` lines:
``scrape_seconds_<names>_{first,median,max}``, ``series_<names>``, ``exporter_rss_mib`` (after the
scrapes) and ``exporter_peak_rss_mib`` (VmHWM).

    python bench/bench_exporter.py                                   # 10 brokers, 5,000 topics, 2,000 groups
    python bench/bench_exporter.py --brokers 2 --topics 200 --groups 100
"""

from __future__ import annotations

import argparse
import asyncio
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
from tests.broker.peers import BrokerProcess, NameServerProcess, create_topic_fields  # noqa: E402

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


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--brokers", type=int, default=10)
    ap.add_argument("--topics", type=int, default=5000)
    ap.add_argument("--groups", type=int, default=2000)
    ap.add_argument("--scrapes", type=int, default=5)
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
            print(f"setup_seconds {time.monotonic() - started:.1f}", flush=True)
            time.sleep(2)  # let the brokers register their new topics
            for names in ("exporter", "ours"):
                port = free_port()
                argv = [MQADMIN, "exportMetrics", "-n", ns.addr, "--listen", f"127.0.0.1:{port}"]
                proc = subprocess.Popen([*argv, "--metrics-names", names], stderr=subprocess.PIPE, text=True)
                try:
                    assert proc.stderr is not None
                    proc.stderr.readline()
                    times, series = [], 0
                    for _ in range(args.scrapes):
                        took, series = scrape(port)
                        times.append(took)
                    print(f"scrape_seconds_{names}_first {times[0]:.3f}")
                    print(f"scrape_seconds_{names}_median {statistics.median(times):.3f}")
                    print(f"scrape_seconds_{names}_max {max(times):.3f}")
                    print(f"series_{names} {series}")
                    now, peak = rss_mib(proc.pid)
                    print(f"exporter_rss_mib_{names} {now:.1f}")
                    print(f"exporter_peak_rss_mib_{names} {peak:.1f}", flush=True)
                finally:
                    proc.send_signal(signal.SIGTERM)
                    proc.wait(10)
        finally:
            for b in brokers:
                b.stop()
            ns.stop()


if __name__ == "__main__":
    main()
