"""Commands that ask every broker: concurrency, the deadline, partial results, interval mode."""

from __future__ import annotations

import json
import signal
import subprocess
import time
from collections.abc import Iterator

import pytest

from tests.cli.peers import SilentPeer, register_broker, registration_frame
from tests.cli_harness import MQADMIN, interruptible
from tests.servers import NameServerProcess


@pytest.fixture(scope="module")
def silent_broker() -> Iterator[SilentPeer]:
    peer = SilentPeer()
    yield peer
    peer.stop()


@pytest.fixture(scope="module")
def ns(namesrv: NameServerProcess, silent_broker: SilentPeer) -> NameServerProcess:
    """A name server whose only broker never answers."""
    register_broker(namesrv, registration_frame("rocketmq-5.3.3/v02_topicRoute"), silent_broker.addr)
    return namesrv


def test_unanswering_broker_still_gets_its_row(
    mqadmin, ns: NameServerProcess, silent_broker: SilentPeer
) -> None:  # type: ignore[no-untyped-def]
    started = time.monotonic()
    r = mqadmin("clusterList", "-n", ns.addr, "--timeout", "0.4")
    assert time.monotonic() - started < 5
    assert r.code == 6
    _, row = r.out.splitlines()
    # what the Java tool prints for a broker whose runtime info could not be fetched
    assert row.split() == [
        "DefaultCluster",
        "broker-a",
        "0",
        silent_broker.addr,
        "0.00(,ms)",
        "0.00(,ms|,ms)",
        "0-0(0.0w,",
        "0.0,",
        "0.0)",
        "0.00",
        "0.0000",
        "false",
    ]
    assert silent_broker.addr in r.err and len(r.err.splitlines()) == 1
    j = mqadmin("clusterList", "-n", ns.addr, "--timeout", "0.4", "--json")
    assert j.code == 6
    data = json.loads(j.out)
    assert data["brokers"][0]["ok"] is False and data["errors"][0]["kind"] == "timeout"


def test_deadline_caps_the_fan_out(mqadmin, ns: NameServerProcess) -> None:  # type: ignore[no-untyped-def]
    started = time.monotonic()
    r = mqadmin("topicList", "-n", ns.addr, "-c", "--timeout", "5", "--deadline", "0.5")
    elapsed = time.monotonic() - started
    assert r.code == 6 and elapsed < 4
    assert "deadline" in r.err
    assert "--deadline sets that limit" in r.err and "--timeout sets" not in r.err  # the limit in force
    assert r.err.count("\n") == 1 and "no answer from 13 topics (" in r.err  # one line, not one a topic
    assert len(r.out.splitlines()) == 1 + 13  # header and a row per topic (retry topic left out)


def test_interval_mode_repeats_until_interrupted(ns: NameServerProcess, base_env: dict[str, str]) -> None:
    p = subprocess.Popen(
        [MQADMIN, "clusterList", "-n", ns.addr, "-i", "1", "-m", "--timeout", "0.2"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=base_env,
        preexec_fn=interruptible,
    )
    assert p.stdout is not None
    headers, deadline = 0, time.monotonic() + 30
    while headers < 2 and time.monotonic() < deadline:  # rounds as they come, however loaded the machine
        headers += p.stdout.readline().decode().count("#Cluster Name")
    p.send_signal(signal.SIGINT)
    p.communicate(timeout=10)
    assert p.returncode == 130
    assert headers == 2
