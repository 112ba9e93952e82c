"""The embedded default: a whole local RocketMQ session, shown as the commands an operator types.

It starts our name server and development broker on loopback ports picked at run time, runs real
``mqadmin`` commands against them as child processes (each line printed before its output, so the
transcript can be replayed by hand), and stops everything it started, leaving nothing running.
"""

from __future__ import annotations

import asyncio
import shlex
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from mqadmin.admin.api import MQAdmin
from mqadmin.admin.settings import AdminSettings
from mqadmin.localcluster import LocalCluster, mqadmin_argv

TOPIC = "DemoTopic"
GROUP = "DemoGroup"


def run_demo(echo: Callable[[str], None] = print, keep: Path | None = None) -> int:
    """Run the session; returns the number of commands that failed (0 on success)."""
    failures = 0
    with tempfile.TemporaryDirectory(prefix="mqadmin-demo-") as tmp:
        workdir = keep or Path(tmp)
        echo(f"# starting a name server and a broker on 127.0.0.1 (files in {workdir})")
        with LocalCluster(workdir, cluster="DemoCluster", broker_name="demo-broker") as cluster:
            ns = cluster.namesrv_addr
            echo(f"# name server {ns}, broker {cluster.broker_addr}")
            _wait_registered(ns)

            def mq(*args: str) -> str:
                nonlocal failures
                argv = [*mqadmin_argv(), *args]
                echo(f"\n$ mqadmin {shlex.join(args)}")
                proc = subprocess.run(argv, capture_output=True, text=True, timeout=60)
                if proc.stdout:
                    echo(proc.stdout.rstrip("\n"))
                if proc.returncode != 0:
                    failures += 1
                    echo(f"(exit {proc.returncode}) {proc.stderr.strip()}")
                return proc.stdout

            mq("clusterList", "-n", ns)
            mq("updateTopic", "-n", ns, "-c", "DemoCluster", "-t", TOPIC, "-r", "4", "-w", "4")
            mq("topicRoute", "-n", ns, "-t", TOPIC)
            mq("updateSubGroup", "-n", ns, "-c", "DemoCluster", "-g", GROUP)
            for i in range(1, 4):
                mq(
                    "sendMessage",
                    "-n",
                    ns,
                    "-t",
                    TOPIC,
                    "-p",
                    f"hello from the demo #{i}",
                    "-k",
                    f"key{i}",
                    "-c",
                    "TagA",
                )
            echo(f"\n# consuming {TOPIC} as group {GROUP} (pull, then commit the offsets)")
            for line in asyncio.run(consume_all(ns, TOPIC, GROUP)):
                echo(line)
            mq("consumerProgress", "-n", ns, "-g", GROUP)
            mq("topicStatus", "-n", ns, "-t", TOPIC)
            echo("\n# the cluster as code: its topics and groups as a manifest, then compared with it")
            manifest = workdir / "cluster.yaml"
            manifest.write_text(mq("manifest", "-n", ns))
            mq("diff", "-n", ns, "-f", str(manifest))
            echo("\n# the named health checks, all at once (lag compared over 3 s)")
            mq("doctor", "-n", ns, "--set", "lag_window=3")
            echo("\n# stopping the broker and the name server")
        alive = [s.name for s in (cluster.broker, cluster.namesrv) if s is not None and s.alive]
        if alive:
            failures += 1
            echo(f"# still running: {', '.join(alive)}")
        else:
            echo("# stopped; nothing left running")
    return failures


def _wait_registered(namesrv: str, timeout: float = 15.0) -> None:
    """The broker registers right after it boots; wait until the name server lists it."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        proc = subprocess.run(
            [*mqadmin_argv(), "clusterList", "-n", namesrv, "--json"],
            capture_output=True,
            text=True,
            timeout=30,
        )
        if proc.returncode == 0 and '"brokerName"' in proc.stdout:
            return
        time.sleep(0.2)
    print("the broker did not register with the name server in time", file=sys.stderr)


async def consume_all(namesrv: str, topic: str, group: str) -> list[str]:
    """Pull every queue of ``topic`` from the group's committed offset and commit what was read.

    What a consumer does, minus rebalancing: the broker's consumer offsets move, so
    ``consumerProgress`` shows the group caught up.
    """
    lines: list[str] = []
    async with MQAdmin(AdminSettings(namesrv_addrs=(namesrv,))) as admin:
        for mq in await admin.messages.fetch_subscribe_message_queues(topic):
            assert mq.broker_name is not None
            addr = await admin.messages.broker_addr_of(topic, mq.broker_name)
            offset = 0
            while True:
                result = await admin.messages.pull_message(mq, "*", offset, 32, group=group)
                for m in result.messages:
                    body = m.body.decode("utf-8", "replace")
                    lines.append(
                        f"consumed queue={mq.queue_id} offset={m.queue_offset} keys={m.keys} {body!r}"
                    )
                if result.next_begin_offset <= offset or not result.messages:
                    break
                offset = result.next_begin_offset
            if offset:
                await admin.offsets.update_consume_offset(addr, group, mq, offset)
    lines.append(
        f"# {sum(1 for x in lines if x.startswith('consumed'))} messages consumed, offsets committed"
    )
    return lines
