"""``mqadmin printMsg`` over a large topic: how long it takes to print 100,000 messages.

Starts ``mqadmin namesrv start`` and ``mqadmin broker start`` as child processes on loopback,
creates a topic with 4 queues, stores the messages with direct SEND_BATCH_MESSAGE requests (our
producer, many in flight), then runs the installed ``mqadmin printMsg -t TOPIC -d true`` with its
output sent to /dev/null, as an operator dumping a topic would. Prints ``name value`` lines.

    python bench/bench_printmsg.py                  # 100,000 messages of 100 bytes
    python bench/bench_printmsg.py --messages 20000 --body 1024
"""

from __future__ import annotations

import argparse
import asyncio
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from mqadmin.admin.api import MQAdmin
from mqadmin.admin.producer import Producer
from mqadmin.admin.settings import AdminSettings
from mqadmin.localcluster import LocalCluster, mqadmin_argv
from mqadmin.protocol.bodies.message_queue import MessageQueue
from mqadmin.protocol.message import Message

MQADMIN = mqadmin_argv()[0]
TOPIC = "BenchPrintTopic"
QUEUES = 4
BATCH = 100
IN_FLIGHT = 16


async def store(ns_addr: str, count: int, body_size: int) -> float:
    """Create the topic and store ``count`` messages; returns the seconds it took."""
    admin = MQAdmin(AdminSettings(namesrv_addrs=(ns_addr,), timeout=30))
    try:
        info = await admin.namesrv.examine_broker_cluster_info()
        addr = next(iter((info.broker_addr_table or {})["broker-a"].broker_addrs.values()))  # type: ignore[union-attr]
        fields = {
            "topic": TOPIC,
            "defaultTopic": "TBW102",
            "readQueueNums": str(QUEUES),
            "writeQueueNums": str(QUEUES),
            "perm": "6",
            "topicFilterType": "SINGLE_TAG",
            "topicSysFlag": "0",
            "order": "false",
        }
        await admin.core.invoke(addr, 17, fields)
        for _ in range(100):  # wait until the name server has the topic's route
            try:
                await admin.namesrv.examine_topic_route_info(TOPIC)
                break
            except Exception:
                await admin.core.invoke(addr, 17, fields)
                await asyncio.sleep(0.2)
        producer = Producer(admin, "BenchPrintPG", send_timeout=30)
        pad = "x" * max(0, body_size - 16)
        started = time.perf_counter()
        gate = asyncio.Semaphore(IN_FLIGHT)

        async def one_batch(start: int) -> None:
            msgs = []
            for i in range(start, min(start + BATCH, count)):
                m = Message(topic=TOPIC, body=f"m{i:09d}|{pad}".encode())
                m.tags = f"tag{i % 5}"
                m.keys = f"k{i}"
                msgs.append(m)
            async with gate:
                await producer.send_batch(msgs, MessageQueue(TOPIC, "broker-a", (start // BATCH) % QUEUES))

        await asyncio.gather(*(one_batch(s) for s in range(0, count, BATCH)))
        return time.perf_counter() - started
    finally:
        await admin.close()


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--messages", type=int, default=100_000)
    p.add_argument("--body", type=int, default=100, help="body size in bytes")
    args = p.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-printmsg-") as tmp, LocalCluster(Path(tmp)) as cluster:
        ns_addr = cluster.namesrv_addr
        stored = asyncio.run(store(ns_addr, args.messages, args.body))
        print(f"messages {args.messages}")
        print(f"store_seconds {stored:.2f}")
        started = time.perf_counter()
        out = subprocess.run(
            [MQADMIN, "printMsg", "-n", ns_addr, "-t", TOPIC, "-d", "true"],
            capture_output=True,
        )
        elapsed = time.perf_counter() - started
        if out.returncode != 0:
            print(out.stderr.decode(errors="replace"), file=sys.stderr)
            return 1
        printed = out.stdout.count(b"MSGID: ")
        print(f"printed {printed}")
        print(f"printmsg_seconds {elapsed:.2f}")
        print(f"printmsg_messages_per_second {printed / elapsed:.0f}")
        print(f"output_megabytes {len(out.stdout) / 1e6:.1f}")
        return 0 if printed == args.messages else 1


if __name__ == "__main__":
    sys.exit(main())
