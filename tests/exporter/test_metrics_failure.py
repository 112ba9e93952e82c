"""``exportMetrics`` when servers fail: every scrape is a 200 page within its deadline.

Against our name server and brokers as processes, with the real ``mqadmin exportMetrics`` as a
subprocess: a cluster whose last broker left is a valid page (the one-shot CLI exits 7 for it); a
frozen (SIGSTOPped) master is ``rocketmq_broker_up 0`` with its other series absent, in the time the
scraper allowed (``X-Prometheus-Scrape-Timeout-Seconds``), and the one-shot CLI exits 6; a name server
that does not answer is ``rocketmq_namesrv_up 0``; without ``-c`` every cluster is on the page.
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

from mqadmin.exporter.server import deadline_of
from mqadmin.localcluster import free_port
from tests.cli_harness import MQADMIN, clean_env, run_mqadmin
from tests.servers import BrokerProcess, NameServerProcess

Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


def samples(text: str) -> Samples:
    out = {}
    for family in text_string_to_metric_families(text):
        for s in family.samples:
            out[(s.name, tuple(sorted(s.labels.items())))] = s.value
    return out


def series_of(found: Samples, name: str) -> dict[tuple[tuple[str, str], ...], float]:
    return {labels: v for (n, labels), v in found.items() if n == name}


def mentions(found: Samples, addr: str) -> set[str]:
    """Names of the series (other than rocketmq_broker_up) that carry ``addr`` in a label."""
    return {
        n
        for (n, labels), _ in found.items()
        if n not in ("rocketmq_broker_up", "rocketmq_exporter_target_error") and addr in dict(labels).values()
    }


class Exporter:
    """``mqadmin exportMetrics --listen`` as a subprocess."""

    def __init__(self, namesrv: str, env: dict[str, str], *extra: str) -> None:
        self.port = free_port()
        argv = [MQADMIN, "exportMetrics", "-n", namesrv, "--listen", f"127.0.0.1:{self.port}", *extra]
        self.proc = subprocess.Popen(argv, env=env, stderr=subprocess.PIPE, text=True)
        assert self.proc.stderr is not None
        line = self.proc.stderr.readline()
        assert "serving" in line, line

    def get(self, path: str = "/metrics", timeout_header: float | None = None) -> tuple[int, str, float]:
        req = urllib.request.Request(f"http://127.0.0.1:{self.port}{path}")
        if timeout_header is not None:
            req.add_header("X-Prometheus-Scrape-Timeout-Seconds", str(timeout_header))
        started = time.monotonic()
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status, r.read().decode(), time.monotonic() - started

    def stop(self) -> None:
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    home = tmp_path / "home"
    (home / "conf").mkdir(parents=True)
    return clean_env(home, tmp_path / "config")


@pytest.fixture
def namesrv(tmp_path: Path) -> Iterator[NameServerProcess]:
    ns = NameServerProcess(tmp_path / "ns")
    try:
        yield ns
    finally:
        ns.stop()


def mqadmin(env: dict[str, str], *args: str) -> tuple[int, str, str, float]:
    started = time.monotonic()
    r = run_mqadmin(list(args), env, timeout=60)
    return r.code, r.out, r.err, time.monotonic() - started


def test_deadline_is_the_scrapers_less_a_margin() -> None:
    assert deadline_of("10", 3.0) == 9.5
    assert deadline_of("2", 10.0) == 1.5
    assert deadline_of("0.4", 10.0) == pytest.approx(0.3)
    for bad in (None, "", "abc", "0", "-1", "nan", "inf"):
        assert deadline_of(bad, 7.0) == 7.0


def test_a_cluster_whose_last_broker_left_is_a_valid_page(
    tmp_path: Path, env: dict[str, str], namesrv: NameServerProcess
) -> None:
    broker = BrokerProcess(tmp_path / "b", namesrv.addr)
    exporter = Exporter(namesrv.addr, env)
    try:
        status, body, _ = exporter.get()
        assert (
            status == 200
            and samples(body)[
                (
                    "rocketmq_broker_up",
                    tuple(
                        sorted(
                            {"addr": broker.addr, "broker": "broker-a", "cluster": "DefaultCluster"}.items()
                        )
                    ),
                )
            ]
            == 1
        )
        broker.stop()  # unregisters: the name server forgets the cluster
        for _ in range(3):
            status, body, _ = exporter.get()
            assert status == 200
            found = samples(body)
            assert found[("rocketmq_namesrv_up", ())] == 1
            assert series_of(found, "rocketmq_broker_up") == {}
            assert series_of(found, "rocketmq_brokeruntime_put_tps10") == {}
        code, out, err, _ = mqadmin(env, "exportMetrics", "-n", namesrv.addr, "--format", "prometheus")
        assert code == 0, err
        assert samples(out)[("rocketmq_namesrv_up", ())] == 1
        args = ["exportMetrics", "-n", namesrv.addr, "-c", "DefaultCluster", "--format", "prometheus"]
        code, out, err, _ = mqadmin(env, *args)
        assert (code, out) == (7, "") and "DefaultCluster" in err and "Traceback" not in err
    finally:
        exporter.stop()
        broker.stop()


def test_a_frozen_master_is_down_within_the_scrape_deadline(
    tmp_path: Path, env: dict[str, str], namesrv: NameServerProcess
) -> None:
    broker = BrokerProcess(tmp_path / "b", namesrv.addr)
    exporter = Exporter(namesrv.addr, env, "--scrape-timeout", "3")
    try:
        assert broker.proc is not None
        status, body, _ = exporter.get(timeout_header=2)
        assert status == 200 and len(mentions(samples(body), broker.addr)) > 40
        os.kill(broker.proc.pid, signal.SIGSTOP)
        try:
            for _ in range(2):
                status, body, took = exporter.get(timeout_header=2)
                assert status == 200 and took < 2.0, took
                found = samples(body)
                up = series_of(found, "rocketmq_broker_up")
                assert list(up.values()) == [0.0]
                assert mentions(found, broker.addr) == set()  # its other series left out, not stale
                assert series_of(found, "rocketmq_brokeruntime_commitlog_maxoffset") == {}
            status, body, took = exporter.get()  # no header: --scrape-timeout (3 s below)
            assert status == 200 and took < 3.5
            args = ["exportMetrics", "-n", namesrv.addr, "-c", "DefaultCluster", "--format", "prometheus"]
            code, out, err, took = mqadmin(env, *args, "--deadline", "2")
            assert code == 6, err
            assert broker.addr in err and took < 10
            assert list(series_of(samples(out), "rocketmq_broker_up").values()) == [0.0]
        finally:
            os.kill(broker.proc.pid, signal.SIGCONT)
        status, body, _ = exporter.get(timeout_header=2)
        assert list(series_of(samples(body), "rocketmq_broker_up").values()) == [1.0]
    finally:
        exporter.stop()
        broker.stop()


def test_a_name_server_that_does_not_answer_is_namesrv_up_0(
    env: dict[str, str], namesrv: NameServerProcess
) -> None:
    exporter = Exporter(namesrv.addr, env, "--scrape-timeout", "2")
    try:
        assert namesrv.proc is not None
        os.kill(namesrv.proc.pid, signal.SIGSTOP)
        try:
            status, body, took = exporter.get()
            assert status == 200 and took < 2.0
            found = samples(body)
            assert found[("rocketmq_namesrv_up", ())] == 0
            assert series_of(found, "rocketmq_broker_up") == {}
            status, body, _ = exporter.get("/-/healthy")  # the listener itself is fine
            assert status == 200 and body == "Healthy.\n"
        finally:
            os.kill(namesrv.proc.pid, signal.SIGCONT)
        assert samples(exporter.get()[1])[("rocketmq_namesrv_up", ())] == 1
    finally:
        exporter.stop()
    port = free_port()  # nothing listens there
    code, out, err, _ = mqadmin(env, "exportMetrics", "-n", f"127.0.0.1:{port}", "--format", "prometheus")
    assert code == 4, err
    assert samples(out)[("rocketmq_namesrv_up", ())] == 0


def test_without_c_every_cluster_is_on_the_page(
    tmp_path: Path, env: dict[str, str], namesrv: NameServerProcess
) -> None:
    a = BrokerProcess(tmp_path / "a", namesrv.addr)
    b = BrokerProcess(tmp_path / "b", namesrv.addr, brokerClusterName="OtherCluster", brokerName="broker-b")
    exporter = Exporter(namesrv.addr, env)
    try:
        status, body, _ = exporter.get()
        found = samples(body)
        up = series_of(found, "rocketmq_broker_up")
        assert {dict(k)["cluster"]: v for k, v in up.items()} == {"DefaultCluster": 1, "OtherCluster": 1}
        runtime = series_of(found, "rocketmq_brokeruntime_commitlog_maxoffset")
        assert {dict(k)["cluster"] for k in runtime} == {"DefaultCluster", "OtherCluster"}
        assert {dict(k)["brokerIP"] for k in runtime} == {a.addr, b.addr}
        status, index, _ = exporter.get("/")
        assert status == 200 and 'href="/metrics"' in index and 'href="/-/healthy"' in index
        code, out, err, _ = mqadmin(
            env, "exportMetrics", "-n", namesrv.addr, "-c", "OtherCluster", "--format", "prometheus"
        )
        assert code == 0, err
        assert [dict(k)["cluster"] for k in series_of(samples(out), "rocketmq_broker_up")] == ["OtherCluster"]
    finally:
        exporter.stop()
        a.stop()
        b.stop()
