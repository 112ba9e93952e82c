"""Why the exporter could not read a broker (``rocketmq_exporter_target_error{reason}``), and one line on
stderr each time a target changes state.

The targets are real: our broker with ACL on (the exporter has no keys: ``auth``), a registration
whose address nobody listens on (``refused``), a peer that never answers (``timeout``), a peer that
answers every request with an error code (``protocol``), beside our plain broker, which reads fine.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from mqadmin.exporter.targets import REASONS, reason_of
from mqadmin.localcluster import free_port
from mqadmin.remoting.errors import RemoteCommandError, RemotingConnectError, RemotingTimeoutError
from tests.broker.test_acl import start_acl_broker
from tests.cli.peers import RecordedBroker, SilentPeer, open_registration, registration_frame
from tests.exporter.test_metrics_failure import Exporter, samples, series_of
from tests.servers import BrokerProcess, NameServerProcess

RECORDED = "rocketmq-5.3.3/v18_getBrokerConfig"


def register(ns: NameServerProcess, name: str, addr: str) -> None:
    """A recorded Java registration under another broker name and address, kept open."""
    ns.keep(open_registration(ns, registration_frame(RECORDED), {"brokerName": name, "brokerAddr": addr})[0])


class Lines:
    """The exporter's stderr, read as it comes."""

    def __init__(self, exporter: Exporter) -> None:
        self.lines: list[str] = []
        assert exporter.proc.stderr is not None
        stream = exporter.proc.stderr
        self.thread = threading.Thread(target=lambda: self.lines.extend(stream), daemon=True)
        self.thread.start()

    def about(self, who: str) -> list[str]:
        return [x for x in self.lines if who in x]


@pytest.fixture
def targets(tmp_path: Path) -> Iterator[tuple[NameServerProcess, dict[str, str], dict[str, int]]]:
    ns = NameServerProcess(tmp_path / "ns")
    ok = BrokerProcess(tmp_path / "ok", ns.addr, brokerName="broker-ok")
    acl = start_acl_broker(tmp_path / "acl", ns.addr)
    silent, recorded = SilentPeer(), RecordedBroker([])
    dead = f"127.0.0.1:{free_port()}"
    try:
        register(ns, "broker-dead", dead)
        register(ns, "broker-silent", silent.addr)
        register(ns, "broker-odd", recorded.addr)
        assert ok.proc is not None
        addrs = {"ok": ok.addr, "auth": acl.addr, "refused": dead, "timeout": silent.addr}
        yield ns, {**addrs, "protocol": recorded.addr}, {"ok": ok.proc.pid}
    finally:
        for b in (ok, acl):
            b.stop()
        silent.stop()
        recorded.stop()
        ns.stop()


def test_each_broker_not_read_has_its_reason_and_one_line(
    targets: tuple[NameServerProcess, dict[str, str], dict[str, int]], env: dict[str, str]
) -> None:
    ns, addrs, pids = targets
    exporter = Exporter(ns.addr, env, "--scrape-timeout", "2")
    lines = Lines(exporter)
    try:
        for _ in range(2):  # the same states twice: the lines are not repeated
            status, body, _ = exporter.get(timeout_header=2)
            assert status == 200
            found = samples(body)
            errors = series_of(found, "rocketmq_exporter_target_error")
            got = {dict(labels)["addr"]: dict(labels)["reason"] for labels in errors}
            assert got == {addrs[r]: r for r in REASONS}, got
            assert set(errors.values()) == {1.0}
            up = {dict(labels)["addr"]: v for labels, v in series_of(found, "rocketmq_broker_up").items()}
            assert up[addrs["ok"]] == 1.0 and sum(up.values()) == 1.0
        time.sleep(0.5)
        for reason in REASONS:
            (line,) = lines.about(addrs[reason])
            assert f"cannot be read: {reason}: " in line, line
        assert lines.about(addrs["ok"]) == []  # up from the start: nothing to say
        os.kill(pids["ok"], signal.SIGSTOP)  # frozen: down (timeout), then back: one line each
        try:
            exporter.get(timeout_header=2)
        finally:
            os.kill(pids["ok"], signal.SIGCONT)
        exporter.get(timeout_header=2)
        exporter.get(timeout_header=2)
        time.sleep(0.5)
        down, back = lines.about(addrs["ok"])
        assert "cannot be read: timeout: " in down and "broker-ok" in down, down
        assert back.endswith("is up again (was timeout)\n"), back
    finally:
        exporter.stop()


def test_reasons_of_the_errors_a_scrape_meets() -> None:
    addr = "127.0.0.1:1"
    assert reason_of(RemotingConnectError(addr, "Connection refused")) == "refused"
    assert reason_of(RemotingConnectError(addr, "timed out", timeout=3.0)) == "timeout"
    assert reason_of(RemotingTimeoutError(addr, 3.0)) == "timeout"
    assert reason_of(RemoteCommandError(addr, 16, "no permission")) == "auth"
    assert reason_of(RemoteCommandError(addr, 1, "check signature failed")) == "auth"
    assert reason_of(RemoteCommandError(addr, 3, "request type 28 not supported")) == "protocol"
