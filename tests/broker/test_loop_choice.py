"""``mqadmin broker start --loop``: the chosen event loop is the one the broker runs on (its log says
which), it sends and pulls on it, ``MQADMIN_BROKER_LOOP`` sets the default, and a bad choice is a
usage error.

Every other broker test runs on whichever loop ``MQADMIN_BROKER_LOOP`` names
(``MQADMIN_BROKER_LOOP=asyncio pytest tests/broker``); unset, on ``auto``.
"""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import time
from pathlib import Path

import pytest

from mqadmin.protocol.command import RemotingCommand
from mqadmin.protocol.message_record import decode_messages
from tests.broker.peers import MQADMIN, call, create_topic_fields
from tests.servers import BrokerProcess, NameServerProcess

HAVE_UVLOOP = importlib.util.find_spec("uvloop") is not None
ENVVAR = "MQADMIN_BROKER_LOOP"
LOOP_LINE = re.compile(r"event loop: (\S+)")


def running_loop(broker: BrokerProcess) -> str:
    """The loop class the broker logged it runs on (the line comes before the boot line)."""
    m = LOOP_LINE.search(broker.log())
    assert m, broker.log()[-2000:]
    return m.group(1)


def send_and_pull(addr: str) -> None:
    r = call(addr, RemotingCommand.request(17, create_topic_fields("LoopTopic")))
    assert r.code == 0, r.remark
    send = {
        "a": "LoopPG", "b": "LoopTopic", "c": "TBW102", "d": "4", "e": "0", "f": "0",
        "g": str(int(time.time() * 1000)), "h": "0", "i": "KEYS\x01k1", "j": "0", "k": "false",
        "m": "false",
    }  # fmt: skip
    r = call(addr, RemotingCommand.request(310, send, b"on this loop"))
    assert r.code == 0, r.remark
    pull = {
        "consumerGroup": "LoopCG", "topic": "LoopTopic", "queueId": "0", "queueOffset": "0",
        "maxMsgNums": "32", "sysFlag": "4", "commitOffset": "0", "suspendTimeoutMillis": "0",
        "subVersion": "0", "subscription": "*",
    }  # fmt: skip
    r = call(addr, RemotingCommand.request(11, pull))
    assert r.code == 0, r.remark
    assert [m.body for m in decode_messages(r.body or b"")] == [b"on this loop"]


@pytest.mark.parametrize(
    ("args", "env", "expected"),
    [
        (["--loop", "asyncio"], None, "asyncio."),
        pytest.param(
            ["--loop", "uvloop"],
            None,
            "uvloop.",
            marks=pytest.mark.skipif(not HAVE_UVLOOP, reason="no uvloop"),
        ),
        pytest.param([], "uvloop", "uvloop.", marks=pytest.mark.skipif(not HAVE_UVLOOP, reason="no uvloop")),
        (["--loop", "asyncio"], "uvloop", "asyncio."),  # the option beats the environment
        ([], "asyncio", "asyncio."),
    ],
)
def test_loop_choice_is_the_loop_it_runs_on(
    tmp_path: Path,
    namesrv: NameServerProcess,
    monkeypatch: pytest.MonkeyPatch,
    args: list[str],
    env: str | None,
    expected: str,
) -> None:
    if env is None:
        monkeypatch.delenv(ENVVAR, raising=False)
    else:
        monkeypatch.setenv(ENVVAR, env)
    server = BrokerProcess(tmp_path, namesrv.addr, args=args)
    addr = server.addr
    try:
        assert running_loop(server).startswith(expected)
        send_and_pull(addr)
    finally:
        assert server.stop() == 0


def test_auto_takes_uvloop_when_installed(
    tmp_path: Path, namesrv: NameServerProcess, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(ENVVAR, raising=False)
    server = BrokerProcess(tmp_path, namesrv.addr)
    try:
        assert running_loop(server).startswith("uvloop." if HAVE_UVLOOP else "asyncio.")
    finally:
        assert server.stop() == 0


@pytest.mark.parametrize(("args", "env"), [(["--loop", "tokio"], None), ([], "tokio"), (["--loop"], None)])
def test_bad_loop_is_a_usage_error(tmp_path: Path, args: list[str], env: str | None) -> None:
    environ = {k: v for k, v in os.environ.items() if k != ENVVAR}
    if env is not None:
        environ[ENVVAR] = env
    done = subprocess.run(
        [MQADMIN, "broker", "start", "--log-file", "", *args],
        capture_output=True,
        text=True,
        timeout=30,
        cwd=tmp_path,
        env=environ,
    )
    assert done.returncode == 2, done.stderr
    assert done.stdout == ""
    assert done.stderr.startswith("mqadmin broker")
    assert "'--loop'" in done.stderr
    assert done.stderr.count("\n") == 1
    assert not (tmp_path / "store").exists()  # refused before anything was started
