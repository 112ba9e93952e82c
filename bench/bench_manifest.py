"""Seconds and requests of a manifest diff of many topics and groups, against a one-by-one baseline.

Starts our name server and ``--brokers`` development brokers (by default 2: ten broker processes
are more than a two-core machine runs beside the others' work, so the 5,000 topics and 2,000 groups
are spread over fewer, bigger brokers; ``--brokers 10`` runs the issue's exact shape; all in 5.3.3
mode), fills them with the generated manifest's topics and groups in batches, then alternately runs:

- the diff as ``mqadmin diff`` makes it (:func:`mqadmin.manifest.state.read_state` and
  :func:`~mqadmin.manifest.plan.make_plan`): a few whole-table requests per broker;
- the baseline: the same comparison from one GET_TOPIC_CONFIG per topic per broker and the group
  tables, as a script looping over ``topicStatus``-like requests would.

Each run prints its seconds and the requests it sent (counted where the admin client builds them);
the last line is the median ratio baseline / diff. A run of the defaults (2 brokers, 5,000 topics
and 2,000 groups on each) read 10 requests in 0.9-1.3 s against the baseline's 10,003 in 6.4-11.6 s
(5.5x); the fill took 12 minutes, nearly all of it the groups, one request each.

    python bench/bench_manifest.py [--topics 5000] [--groups 2000] [--brokers 2] [--rounds 3]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from mqadmin.admin.api import MQAdmin
from mqadmin.admin.settings import AdminSettings
from mqadmin.manifest.loader import parse_manifests
from mqadmin.manifest.plan import make_plan
from mqadmin.manifest.state import read_state
from tests.servers import Cluster


def manifest_text(topics: int, groups: int) -> str:
    lines = ["apiVersion: mqadmin/v1", "kind: ClusterManifest", "cluster: DefaultCluster", "topics:"]
    lines += [f"  BenchTopic{i}: {{readQueues: 4, writeQueues: 4}}" for i in range(topics)]
    lines.append("groups:")
    lines += [f"  BenchGroup{i}: {{retryMaxTimes: 3}}" for i in range(groups)]
    return "\n".join(lines) + "\n"


def counting(admin: MQAdmin) -> Counter[int]:
    sent: Counter[int] = Counter()
    build = admin.core.request

    def request(code: int, *args: Any, **kwargs: Any) -> Any:
        sent[code] += 1
        return build(code, *args, **kwargs)

    admin.core.request = request  # type: ignore[method-assign]
    return sent


async def diff_once(ns: str, text: str) -> tuple[float, int, int]:
    (m,) = parse_manifests([("bench.yaml", text)], {})
    async with MQAdmin(AdminSettings(namesrv_addrs=(ns,), timeout=30)) as admin:
        sent = counting(admin)
        t0 = time.perf_counter()
        state = await read_state(admin, m.cluster)
        plan = make_plan(m, state)
        return time.perf_counter() - t0, sum(sent.values()), len(plan.changes)


async def baseline_once(ns: str, text: str) -> tuple[float, int, int]:
    (m,) = parse_manifests([("bench.yaml", text)], {})
    async with MQAdmin(AdminSettings(namesrv_addrs=(ns,), timeout=30)) as admin:
        sent = counting(admin)
        t0 = time.perf_counter()
        info = await admin.namesrv.examine_broker_cluster_info()
        addrs = [bd.select_broker_addr() or "" for bd in (info.broker_addr_table or {}).values()]
        drift = 0
        for addr in addrs:
            configs = await asyncio.gather(*(admin.topics.examine_topic_config(addr, t) for t in m.topics))
            for declared, tc in zip(m.topics.values(), configs, strict=True):
                if tc is None or tc.read_queue_nums != declared.fields.get("readQueues"):
                    drift += 1
            table = (await admin.groups.get_all_subscription_group(addr)).subscription_group_table or {}
            drift += sum(1 for g in m.groups if g not in table)
        return time.perf_counter() - t0, sum(sent.values()), drift


async def fill(ns: str, text: str) -> None:
    """The manifest's topics and groups on every broker, in batches of 500 (5.x batch requests): the
    fill is not what is measured, and one request per topic re-registers the growing table each time."""
    from mqadmin.protocol.bodies.group import SubscriptionGroupConfig
    from mqadmin.protocol.bodies.topic import TopicConfig

    (m,) = parse_manifests([("bench.yaml", text)], {})
    async with MQAdmin(AdminSettings(namesrv_addrs=(ns,), timeout=60)) as admin:
        state = await read_state(admin, m.cluster)
        topics = [TopicConfig(topic_name=t, read_queue_nums=4, write_queue_nums=4) for t in m.topics]
        groups = [SubscriptionGroupConfig(group_name=g, retry_max_times=3) for g in m.groups]
        for b in state.brokers.values():
            for i in range(0, len(topics), 500):
                await admin.topics.create_and_update_topic_config_list(b.addr, topics[i : i + 500])
            for i in range(0, len(groups), 500):
                await admin.groups.create_and_update_subscription_group_config_list(
                    b.addr, groups[i : i + 500]
                )
        left = make_plan(m, await read_state(admin, m.cluster)).changes
        if left:
            raise SystemExit(f"filling left {len(left)} changes, the first: {left[0].line()}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--topics", type=int, default=5000)
    ap.add_argument("--groups", type=int, default=2000)
    ap.add_argument("--brokers", type=int, default=2)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    text = manifest_text(args.topics, args.groups)
    with tempfile.TemporaryDirectory() as tmp:
        brokers = {
            f"b{i}": {"brokerName": f"broker-{i}", "rocketmqVersion": "5.3.3"} for i in range(args.brokers)
        }
        with Cluster(Path(tmp), brokers) as cluster:
            t0 = time.perf_counter()
            asyncio.run(fill(cluster.ns_addr, text))
            print(f"filled {args.topics} topics and {args.groups} groups on {args.brokers} brokers "
                  f"in {time.perf_counter() - t0:.1f} s")  # fmt: skip
            ratios = []
            for r in range(args.rounds):
                d_s, d_n, d_changes = asyncio.run(diff_once(cluster.ns_addr, text))
                b_s, b_n, b_drift = asyncio.run(baseline_once(cluster.ns_addr, text))
                ratios.append(b_s / d_s)
                print(f"round {r + 1}: diff {d_s:.3f} s, {d_n} requests, {d_changes} changes | "
                      f"baseline {b_s:.3f} s, {b_n} requests, {b_drift} drift")  # fmt: skip
            print(f"baseline / diff: {statistics.median(ratios):.1f}x (median of {args.rounds})")


if __name__ == "__main__":
    main()
