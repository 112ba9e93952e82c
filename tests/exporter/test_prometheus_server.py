"""A real Prometheus (Debian's ``prometheus``) scraping ``mqadmin exportMetrics --listen`` on loopback.

Our name server and broker as processes, the Apache RocketMQ C++ client producing and a C++ push
consumer online, a second group left behind (lag). After a few scrapes Prometheus' HTTP API has a
series, with the Java exporter's label names, for every metric that ``apache/rocketmq-exporter``'s two
Grafana dashboards and its ``example.rules`` query; ``rocketmq_group_diff`` is what ``consumerProgress``
says; with the broker SIGSTOPped ``rocketmq_broker_up`` goes to 0 and no scrape fails; with no broker
registered the target stays up. ``promtool check metrics`` finds nothing wrong with the page but the
label and suffix spellings those names impose.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import time
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from mqadmin.localcluster import free_port
from tests.admin_group_offset.servers import Cluster, OnlineConsumer, produce
from tests.cli_harness import MQADMIN

pytestmark = pytest.mark.skipif(
    shutil.which("prometheus") is None or shutil.which("promtool") is None,
    reason="Debian's prometheus package (./dev test installs it)",
)

TOPIC = "PromTopic"
ONLINE = "PromOnlineGroup"
BEHIND = "PromBehindGroup"
INTERVAL = 2

# Every metric the two dashboards (rocketmq_exporter.json, rocketmq_exporter_overview.json) and
# example.rules of apache/rocketmq-exporter e1ab2dd query, with the Java collector's label names.
_BROKER_RUNTIME = ["cluster", "brokerIP", "brokerHost", "des", "boottime", "broker_version"]
_GROUP_NUMS = ["cluster", "broker", "topic", "group"]
_TOPIC = ["cluster", "broker", "topic"]
_CLIENT = ["clientAddr", "clientId", "group", "topic"]
_DIFF = ["group", "topic", "countOfOnlineConsumers", "msgModel"]
DASHBOARD_NAMES: dict[str, list[str]] = {
    "rocketmq_broker_tps": ["cluster", "brokerIP", "broker"],
    "rocketmq_broker_qps": ["cluster", "brokerIP", "broker"],
    "rocketmq_group_diff": _DIFF,
    "rocketmq_group_retrydiff": _DIFF,
    "rocketmq_group_get_latency_by_storetime": _GROUP_NUMS,
    "rocketmq_consumer_tps": _GROUP_NUMS,
    "rocketmq_consumer_offset": _GROUP_NUMS,
    "rocketmq_consumer_message_size": _GROUP_NUMS,
    "rocketmq_producer_tps": _TOPIC,
    "rocketmq_producer_offset": _TOPIC,
    "rocketmq_producer_message_size": _TOPIC,
    "rocketmq_topic_retry_offset": _TOPIC,
    "rocketmq_topic_dlq_offset": ["cluster", "broker", "group"],
    **{
        f"rocketmq_client_{n}": _CLIENT
        for n in (
            "consume_fail_msg_count",
            "consume_fail_msg_tps",
            "consume_ok_msg_tps",
            "consume_rt",
            "consumer_pull_rt",
            "consumer_pull_tps",
        )
    },
    **{
        f"rocketmq_brokeruntime_{n}": _BROKER_RUNTIME
        for n in (
            "commitlog_disk_ratio",
            "consumequeue_disk_ratio",
            "commitlog_maxoffset",
            "commitlog_minoffset",
            "commitlogdir_capacity_free",
            "commitlogdir_capacity_total",
            "dispatch_behind_bytes",
            "earliest_message_timestamp",
            "msg_gettotal_today_now",
            "msg_gettotal_todaymorning",
            "msg_gettotal_yesterdaymorning",
            "msg_put_total_today_now",
            "msg_puttotal_todaymorning",
            "msg_puttotal_yesterdaymorning",
            "pull_threadpoolqueue_headwait_timemills",
            "query_threadpoolqueue_headwait_timemills",
            "send_threadpoolqueue_headwait_timemills",
            "put_message_average_size",
            "put_message_size_total",
            "put_tps10",
            "getfound_tps10",
            "getmiss_tps10",
            "gettotal_tps10",
            "gettransfered_tps10",
            *(
                f"pmdt_{b}"
                for b in (
                    "0ms 0to10ms 10to50ms 50to100ms 100to200ms 200to500ms 500to1s 1to2s 2to3s 3to4s "
                    "4to5s 5to10s 10stomore"
                ).split()
            ),
        )
    },
}


# The C++ client (core 3.1.8) answers GET_CONSUMER_RUNNING_INFO with an empty statusTable, so the
# rocketmq_client_* families have no series here (nor would the Java exporter's); their values and
# labels from a client that does fill it are checked in test_metrics_exporter_names.py.
FROM_BROKERS = [n for n in DASHBOARD_NAMES if not n.startswith("rocketmq_client_")]


class PromServer:
    def __init__(self, workdir: Path, target: str) -> None:
        workdir.mkdir(parents=True, exist_ok=True)
        config = workdir / "prometheus.yml"
        config.write_text(
            f"global:\n  scrape_interval: {INTERVAL}s\n  scrape_timeout: {INTERVAL}s\n"
            f"scrape_configs:\n  - job_name: rocketmq\n    static_configs:\n      - targets: ['{target}']\n"
        )
        self.port = free_port()
        argv = [
            "prometheus",
            f"--config.file={config}",
            f"--storage.tsdb.path={workdir / 'data'}",
            f"--web.listen-address=127.0.0.1:{self.port}",
        ]
        self.log = open(workdir / "prometheus.log", "w")
        self.proc = subprocess.Popen(argv, stdout=self.log, stderr=subprocess.STDOUT)
        self.wait(lambda: self.api("query", query="up") is not None, 30, "Prometheus to start")

    def api(self, path: str, **params: str) -> Any:
        url = f"http://127.0.0.1:{self.port}/api/v1/{path}?" + urllib.parse.urlencode(params)
        try:
            with urllib.request.urlopen(url, timeout=5) as r:
                doc = json.loads(r.read())
        except OSError:
            return None
        return doc["data"] if doc.get("status") == "success" else None

    def query(self, q: str) -> list[dict[str, Any]]:
        return list((self.api("query", query=q) or {}).get("result") or [])

    def value(self, q: str) -> float | None:
        got = self.query(q)
        return float(got[0]["value"][1]) if got else None

    @staticmethod
    def wait(cond: Callable[[], object], seconds: float, what: str) -> None:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if cond():
                return
            time.sleep(0.5)
        raise AssertionError(f"waited {seconds} s for {what}")

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.log.close()


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    c = Cluster(tmp_path_factory.mktemp("promserver"))
    try:
        c.create_topic(TOPIC, queues=2)
        c.create_topic(f"%DLQ%{BEHIND}", queues=1)
        assert c.mqadmin("updateSubGroup", "-b", c.addr, "-g", BEHIND).code == 0
        produce(c.namesrv, TOPIC, 20)
        c.commit(BEHIND, TOPIC, 0, 1)  # BEHIND is left behind: 20 sent, 1 committed
        c.commit(BEHIND, TOPIC, 1, 0)
        yield c
    finally:
        c.stop()


def test_a_real_prometheus_reads_the_exporters_names(cluster: Cluster, tmp_path: Path) -> None:
    consumer = OnlineConsumer(cluster.namesrv, TOPIC, ONLINE, 20)
    port = free_port()
    argv = [MQADMIN, "exportMetrics", "-n", cluster.namesrv, "--listen", f"127.0.0.1:{port}"]
    exporter = subprocess.Popen(argv, env=cluster.env, stderr=subprocess.DEVNULL)
    prom = PromServer(tmp_path / "prom", f"127.0.0.1:{port}")
    try:
        consumer.wait_received(20)
        produce(cluster.namesrv, TOPIC, 10)  # traffic while scraped: TPS windows fill
        missing: list[str] = []

        def every_name_there() -> bool:
            missing[:] = [n for n in FROM_BROKERS if not prom.query(f"count({n})")]
            return not missing

        try:
            prom.wait(every_name_there, 60, "every dashboard metric")
        except AssertionError:
            raise AssertionError(f"no series for {missing}") from None
        for name, labels in DASHBOARD_NAMES.items():
            for series in prom.api("series", **{"match[]": name}):
                got = set(series) - {"__name__", "job", "instance"}
                # brokerHost is "" (as in Java), and Prometheus keeps no empty label
                assert got <= set(labels) and set(labels) - got <= {"brokerHost"}, (name, series)
        # rocketmq_group_diff is what consumerProgress says
        r = cluster.mqadmin("consumerProgress", "-g", BEHIND, "--json")
        assert r.code == 0, r.err
        progress = json.loads(r.out)["diffTotal"]
        diff = prom.value(f'sum(rocketmq_group_diff{{group="{BEHIND}"}})')
        assert progress == 29 and diff == progress  # 30 sent, 1 committed
        online = prom.query(f'rocketmq_group_diff{{group="{ONLINE}",topic="{TOPIC}"}}')
        assert online and online[0]["metric"]["countOfOnlineConsumers"] == "1"
        assert online[0]["metric"]["msgModel"] == "1"
        # the broker frozen: broker_up 0 in the next scrape, and no scrape fails
        assert cluster.broker.proc is not None
        os.kill(cluster.broker.proc.pid, signal.SIGSTOP)
        frozen_at = time.time()
        try:
            prom.wait(lambda: prom.value("rocketmq_broker_up") == 0.0, 4 * INTERVAL, "rocketmq_broker_up 0")
            time.sleep(3 * INTERVAL)
            span = max(1, int(time.time() - frozen_at))
            assert prom.value(f'min_over_time(up{{job="rocketmq"}}[{span}s])') == 1.0
            assert prom.value("rocketmq_namesrv_up") == 1.0
            assert not prom.query("rocketmq_brokeruntime_commitlog_maxoffset")  # left out, not stale
        finally:
            os.kill(cluster.broker.proc.pid, signal.SIGCONT)
        prom.wait(lambda: prom.value("rocketmq_broker_up") == 1.0, 4 * INTERVAL, "rocketmq_broker_up 1")
        # no broker registered: the target stays up, with a valid page
        consumer.stop()
        cluster.broker.stop()
        stopped_at = time.time()
        prom.wait(lambda: not prom.query("rocketmq_broker_up"), 6 * INTERVAL, "no broker on the page")
        time.sleep(2 * INTERVAL)
        span = max(1, int(time.time() - stopped_at))
        assert prom.value(f'min_over_time(up{{job="rocketmq"}}[{span}s])') == 1.0
        assert prom.value("rocketmq_namesrv_up") == 1.0
    finally:
        prom.stop()
        exporter.send_signal(signal.SIGTERM)
        exporter.wait(10)
        consumer.stop()


def test_promtool_finds_only_the_spellings_the_exporters_names_impose(tmp_path: Path) -> None:
    """``promtool check metrics`` on the page of each ``--metrics-names``: ours is clean; the exporter's
    names bring camelCase label names (brokerIP, countOfOnlineConsumers, ...) and its ``_total`` and
    ``_count`` gauges, which its dashboards need as they are, and nothing else."""
    c = Cluster(tmp_path / "c")
    try:
        c.create_topic(TOPIC, queues=2)
        assert c.mqadmin("updateSubGroup", "-b", c.addr, "-g", BEHIND).code == 0
        c.commit(BEHIND, TOPIC, 0, 0)
        pages = {}
        for names in ("ours", "exporter", "both"):
            r = c.mqadmin("exportMetrics", "--format", "prometheus", "--metrics-names", names)
            assert r.code == 0, r.err
            pages[names] = r.out
    finally:
        c.stop()
    imposed = (
        "label names should be written in 'snake_case' not 'camelCase'",
        'non-counter metrics should not have "_total" suffix',
        'non-histogram and non-summary metrics should not have "_count" suffix',
    )
    for names, page in pages.items():
        p = subprocess.run(["promtool", "check", "metrics"], input=page, capture_output=True, text=True)
        problems = [ln for ln in (p.stdout + p.stderr).splitlines() if ln.strip()]
        if names == "ours":
            assert p.returncode == 0 and problems == [], problems
            continue
        assert "error while linting" not in p.stderr, p.stderr
        assert problems and all(ln.endswith(imposed) for ln in problems), problems
        assert all(
            ln.split(" ")[0].startswith(
                (
                    "rocketmq_brokeruntime_",
                    "rocketmq_group_",
                    "rocketmq_broker_",
                    "rocketmq_client_",
                    "rocketmq_",
                )
            )
            for ln in problems
        )
