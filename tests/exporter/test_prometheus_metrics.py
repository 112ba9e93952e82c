"""``exportMetrics --format prometheus`` and ``--listen``: the cluster as Prometheus reads it.

Against our name server and two of our brokers as processes: the lag of a group on each queue is the
broker's end offset minus the committed one, as the broker's own tables say; a frozen broker is
``rocketmq_broker_up 0`` with exit 6 and the other's series intact; ``--listen`` serves a fresh
sample on every scrape and stops on SIGTERM.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from prometheus_client.parser import text_string_to_metric_families

from mqadmin.localcluster import free_port
from tests.admin_group_offset.servers import Cluster
from tests.cli_harness import MQADMIN
from tests.servers import BrokerProcess

TOPIC = "PromTopic"
GROUP = "PromGroup"


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    c = Cluster(tmp_path_factory.mktemp("prom"))
    try:
        c.create_topic(TOPIC, queues=2)
        r = c.mqadmin("updateSubGroup", "-b", c.addr, "-g", GROUP)
        assert r.code == 0, r.err
        for i in range(5):
            r = c.mqadmin("sendMessage", "-t", TOPIC, "-p", f"m{i}", "-i", str(i % 2), "-b", "broker-a")
            assert r.code == 0, r.err
        c.commit(GROUP, TOPIC, 0, 1)
        c.commit(GROUP, TOPIC, 1, 0)
        yield c
    finally:
        c.stop()


def samples(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    out = {}
    for family in text_string_to_metric_families(text):
        for s in family.samples:
            out[(s.name, tuple(sorted(s.labels.items())))] = s.value
    return out


def lag_of(found: dict[tuple[str, tuple[tuple[str, str], ...]], float], queue: int) -> float:
    key = (
        "rocketmq_consumer_lag",
        (
            ("broker", "broker-a"),
            ("cluster", "DefaultCluster"),
            ("group", GROUP),
            ("queue_id", str(queue)),
            ("topic", TOPIC),
        ),
    )
    return found[key]


def test_lag_per_queue_is_the_brokers_offsets(cluster: Cluster) -> None:
    r = cluster.mqadmin(
        "exportMetrics", "-c", "DefaultCluster", "--format", "prometheus", "--metrics-names", "both"
    )
    assert r.code == 0, r.err
    found = samples(r.out)
    for q in (0, 1):
        expected = cluster.max_offset(TOPIC, q) - cluster.committed(GROUP, TOPIC, q)
        assert lag_of(found, q) == expected
    assert lag_of(found, 0) + lag_of(found, 1) == 4  # 5 sent, one consumed
    labels = (("cluster", "DefaultCluster"), ("group", GROUP), ("topic", TOPIC))
    group = ("rocketmq_consumer_group_lag", labels)
    assert found[group] == 4
    broker = (("addr", cluster.addr), ("broker", "broker-a"), ("cluster", "DefaultCluster"))
    up = ("rocketmq_broker_up", broker)
    assert found[up] == 1
    assert 0 <= found[("rocketmq_broker_commitlog_disk_ratio", broker)] <= 1
    # a broker up for less than 10 s has no TPS figure yet (its table says ""): no sample, not a 0
    assert "# TYPE rocketmq_broker_put_tps gauge\n" in r.out


def test_written_under_f_atomically(cluster: Cluster, tmp_path: Path) -> None:
    args = ["exportMetrics", "-c", "DefaultCluster", "--format", "prometheus", "-f", str(tmp_path)]
    r = cluster.mqadmin(*args)
    assert r.code == 0, r.err
    path = tmp_path / "metrics.prom"
    assert r.out == f"export {path} success"  # as the JSON export prints it (Java: no newline)
    assert lag_of(samples(path.read_text()), 0) == 0 + cluster.max_offset(TOPIC, 0) - 1
    assert [p.name for p in tmp_path.iterdir()] == ["metrics.prom"]


def test_bad_options_and_unknown_cluster(cluster: Cluster) -> None:
    r = cluster.mqadmin("exportMetrics", "-c", "DefaultCluster", "--format", "openmetrics")
    assert r.code == 2 and r.out == ""
    r = cluster.mqadmin("exportMetrics", "-c", "DefaultCluster", "--listen", "localhost:http")
    assert r.code == 2 and "--listen" in r.err
    r = cluster.mqadmin("exportMetrics", "-c", "NoSuchCluster", "--format", "prometheus")
    assert r.code == 7 and r.out == "" and "NoSuchCluster" in r.err


def test_a_frozen_broker_is_down_and_the_other_still_counts(cluster: Cluster, tmp_path: Path) -> None:
    other = BrokerProcess(tmp_path / "b", cluster.namesrv, brokerName="broker-frozen")
    try:
        assert other.proc is not None
        os.kill(other.proc.pid, signal.SIGSTOP)
        try:
            r = cluster.mqadmin(
                "exportMetrics", "-c", "DefaultCluster", "--format", "prometheus", "--deadline", "2"
            )
        finally:
            os.kill(other.proc.pid, signal.SIGCONT)
        assert r.code == 6, r.err
        assert other.addr in r.err and len(r.err.strip().splitlines()) == 1
        found = samples(r.out)
        frozen = (
            "rocketmq_broker_up",
            (("addr", other.addr), ("broker", "broker-frozen"), ("cluster", "DefaultCluster")),
        )
        assert found[frozen] == 0
        assert lag_of(found, 0) + lag_of(found, 1) == 4
    finally:
        other.stop()


def test_listen_serves_a_new_sample_per_scrape(cluster: Cluster) -> None:
    port = free_port()
    argv = [MQADMIN, "exportMetrics", "-n", cluster.namesrv, "-c", "DefaultCluster", "--listen", str(port)]
    proc = subprocess.Popen(argv, env=cluster.env, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stderr is not None
        line = proc.stderr.readline()
        assert line == f"mqadmin exportMetrics: serving http://127.0.0.1:{port}/metrics\n"
        url = f"http://127.0.0.1:{port}/metrics"
        before = lag_of(samples(urllib.request.urlopen(url, timeout=10).read().decode()), 1)
        cluster.commit(GROUP, TOPIC, 1, 1)
        after = lag_of(samples(urllib.request.urlopen(url, timeout=10).read().decode()), 1)
        assert after == before - 1
        cluster.commit(GROUP, TOPIC, 1, 0)
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(10) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        time.sleep(0)
