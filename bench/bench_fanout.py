"""Wall time of the fan-out commands ``consumerProgress`` (every group) and ``statsAll`` on a big broker.

Starts our name server and development broker as processes on loopback, fills the broker with
1,000 topics (4 queues each) and 200 consumer groups by direct requests (UPDATE_AND_CREATE_TOPIC,
UPDATE_AND_CREATE_SUBSCRIPTIONGROUP, each group's ``%RETRY%`` topic, and committed offsets: group
``i`` on topics ``5i..5i+4``, so every topic has one consuming group), then runs the installed
``mqadmin`` console script:

- ``consumerProgress`` (no ``-g``): per group a route, the consume stats and the connection;
- ``statsAll``: per topic a route, who consumes it, put and get stats, and the group's backlog.

Each prints its wall time (best of ``--runs``), the rows it printed, its exit code, and whether it
stayed under the per-command deadline (``--deadline``, by default three request timeouts: 15 s).

On loopback the servers answer in well under a millisecond, so the wall time says little about
concurrency. Each command is therefore also run inside this process with ``--latency-ms`` added to
every request, as a network between the tool and the servers would: the line shows how many
requests it made, how many were in flight at most, and how long they would take one after another.

    python bench/bench_fanout.py [--topics 1000] [--groups 200] [--runs 3] [--latency-ms 2]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from mqadmin.localcluster import LocalCluster, mqadmin_argv
from mqadmin.protocol import fastjson
from mqadmin.protocol.bodies.group import SubscriptionGroupConfig
from mqadmin.protocol.bodies.topic import TopicConfig
from mqadmin.protocol.codes import RequestCode
from mqadmin.protocol.command import RemotingCommand
from mqadmin.remoting.client import RemotingClient

DEADLINE_S = 15.0
TOPICS_PER_GROUP = 5
QUEUES = 4


def topic_fields(topic: str, queues: int) -> dict[str, str]:
    return {
        "topic": topic,
        "defaultTopic": "TBW102",
        "readQueueNums": str(queues),
        "writeQueueNums": str(queues),
        "perm": "6",
        "topicFilterType": "SINGLE_TAG",
        "topicSysFlag": "0",
        "order": "false",
    }


async def fill(broker: str, namesrv: str, topics: int, groups: int) -> None:
    """Topics (in batches), groups, their retry topics and offsets; 64 requests in flight at a time."""
    gate = asyncio.Semaphore(64)
    async with RemotingClient() as client:

        async def send(code: int, fields: dict[str, str] | None = None, body: bytes | None = None) -> None:
            async with gate:
                resp = await client.invoke(broker, RemotingCommand.request(code, fields, body), 30.0)
            if resp.code != 0:
                raise RuntimeError(f"request {code} refused: {resp.code} {resp.remark}")

        names = [f"FanTopic{i}" for i in range(topics)] + [f"%RETRY%FanGroup{g}" for g in range(groups)]
        for i in range(0, len(names), 250):
            batch = [
                TopicConfig(
                    n, 1 if n.startswith("%") else QUEUES, 1 if n.startswith("%") else QUEUES, 6
                ).to_json_obj()
                for n in names[i : i + 250]
            ]
            await send(
                RequestCode.UPDATE_AND_CREATE_TOPIC_LIST,
                body=fastjson.dumps({"topicConfigList": batch}).encode(),
            )
        await asyncio.gather(
            *(
                send(
                    RequestCode.UPDATE_AND_CREATE_SUBSCRIPTIONGROUP,
                    body=SubscriptionGroupConfig(group_name=f"FanGroup{g}").encode(),
                )
                for g in range(groups)
            )
        )
        commits = []
        for g in range(groups):
            for k in range(TOPICS_PER_GROUP):
                t = (g * TOPICS_PER_GROUP + k) % topics
                for q in range(QUEUES):
                    fields = {
                        "consumerGroup": f"FanGroup{g}",
                        "topic": f"FanTopic{t}",
                        "queueId": str(q),
                        "commitOffset": "0",
                    }
                    commits.append(send(RequestCode.UPDATE_CONSUMER_OFFSET, fields))
        await asyncio.gather(*commits)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:  # the broker registers new topics with the name server
            resp = await client.invoke(
                namesrv, RemotingCommand.request(RequestCode.GET_ALL_TOPIC_LIST_FROM_NAMESERVER), 10.0
            )
            if len(fastjson.loads(resp.body or b"{}").get("topicList", [])) >= len(names):
                return
            await asyncio.sleep(0.2)
        raise RuntimeError("the name server did not get every topic")


def run(mqadmin: str, ns: str, *args: str) -> tuple[float, int, int]:
    """(seconds, output lines, exit code) of one mqadmin run."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("MQADMIN_", "NAMESRV_ADDR"))}
    t0 = time.perf_counter()
    p = subprocess.run([mqadmin, *args, "-n", ns], capture_output=True, text=True, env=env, timeout=120)
    elapsed = time.perf_counter() - t0
    return elapsed, p.stdout.count("\n"), p.returncode


class Wire:
    """Counts the requests of an in-process run, the most in flight at once, and adds a network delay."""

    def __init__(self, latency_s: float) -> None:
        self.latency_s = latency_s
        self.requests = 0
        self.in_flight = 0
        self.max_in_flight = 0

    def install(self) -> None:
        original = RemotingClient.invoke
        wire = self

        async def invoke(
            client: RemotingClient, addr: str, cmd: RemotingCommand, timeout: float
        ) -> RemotingCommand:
            wire.requests += 1
            wire.in_flight += 1
            wire.max_in_flight = max(wire.max_in_flight, wire.in_flight)
            try:
                await asyncio.sleep(
                    wire.latency_s
                )  # the round trip of a network between the tool and the servers
                return await original(client, addr, cmd, timeout)
            finally:
                wire.in_flight -= 1

        RemotingClient.invoke = invoke  # type: ignore[method-assign]


def run_in_process(ns: str, latency_s: float, *args: str) -> tuple[float, int, int, int]:
    """(seconds, exit code, requests, most requests in flight) of the command run inside this process."""
    import io

    from mqadmin.cli.main import main as cli_main

    wire = Wire(latency_s)
    saved_invoke = RemotingClient.invoke
    saved_stdout = sys.stdout
    wire.install()
    sys.stdout = io.TextIOWrapper(io.BytesIO())
    t0 = time.perf_counter()
    try:
        cli_main([*args, "-n", ns])
        code = 0
    except SystemExit as e:
        code = int(e.code or 0)
    finally:
        elapsed = time.perf_counter() - t0
        sys.stdout = saved_stdout
        RemotingClient.invoke = saved_invoke  # type: ignore[method-assign]
    return elapsed, code, wire.requests, wire.max_in_flight


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--topics", type=int, default=1000)
    parser.add_argument("--groups", type=int, default=200)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--latency-ms", type=float, default=2.0, help="network delay added per request")
    args = parser.parse_args()
    mqadmin = mqadmin_argv()[0]
    with tempfile.TemporaryDirectory(prefix="bench-fanout-") as tmp, LocalCluster(Path(tmp)) as cluster:
        ns, broker = cluster.namesrv_addr, cluster.broker_addr
        t0 = time.perf_counter()
        asyncio.run(fill(broker, ns, args.topics, args.groups))
        print(f"setup: {args.topics} topics, {args.groups} groups in {time.perf_counter() - t0:.2f} s")
        for name in ("consumerProgress", "statsAll"):
            runs = [run(mqadmin, ns, name) for _ in range(args.runs)]
            best = min(r[0] for r in runs)
            print(
                f"{name}: best {best:.2f} s, median {statistics.median(r[0] for r in runs):.2f} s, "
                f"rows {runs[0][1] - 1}, exit {runs[0][2]}, deadline {DEADLINE_S:.0f} s, "
                f"under deadline {'yes' if best < DEADLINE_S and runs[0][2] == 0 else 'NO'}"
            )
        latency = args.latency_ms / 1000
        for name in ("consumerProgress", "statsAll"):
            elapsed, code, requests, peak = run_in_process(ns, latency, name)
            print(
                f"{name} with {args.latency_ms:g} ms per request: {elapsed:.2f} s, exit {code}, "
                f"{requests} requests, at most {peak} in flight, one after another "
                f"at least {requests * latency:.2f} s"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
