"""Real processes for the broker tests: our name server, our broker, the C++ client, all on loopback.

- :class:`NameServerProcess` runs ``mqadmin namesrv start`` on a port it picks itself.
- :class:`BrokerProcess` runs ``mqadmin broker start -c FILE`` on a port picked up front (so a
  restart comes back at the same address, as clients expect); ``kill()`` is ``kill -9``.
- :func:`cpp` runs ``tests/broker/cpp_client.py`` (the C++ client in its own process) and returns
  its JSON lines.
- :func:`call` sends one request with our remoting client and returns the response.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from mqadmin.protocol.command import RemotingCommand
from mqadmin.remoting.client import RemotingClient

MQADMIN = str(Path(sys.executable).parent / "mqadmin")
CPP_CLIENT = str(Path(__file__).with_name("cpp_client.py"))
_NS_BOOT = re.compile(r"The Name Server boot success.*address (\S+):(\d+)")
_BROKER_BOOT = re.compile(r"The broker\[(\S+), (\S+)\] boot success")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _env(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "NAMESRV_ADDR"}
    env["HOME"] = str(home)  # keeps ~/logs and ~/store of the tests out of the real home
    return env


def _wait_boot(
    proc: subprocess.Popen[str], pattern: re.Pattern[str], what: str, timeout: float = 30
) -> re.Match[str]:
    assert proc.stdout is not None
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        m = pattern.search(line)
        if m:
            return m
    proc.kill()
    err = proc.stderr.read() if proc.stderr else ""
    raise RuntimeError(f"{what} did not start: {err[-2000:]}")


class NameServerProcess:
    def __init__(self, workdir: Path) -> None:
        workdir.mkdir(parents=True, exist_ok=True)
        config = workdir / "namesrv.properties"
        config.write_text(f"bindAddress=127.0.0.1\nkvConfigPath={workdir / 'kvConfig.json'}\n")
        self.proc = subprocess.Popen(
            [
                MQADMIN,
                "namesrv",
                "start",
                "-c",
                str(config),
                "--listen-port",
                "0",
                "--log-file",
                str(workdir / "ns.log"),
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=_env(workdir),
        )
        m = _wait_boot(self.proc, _NS_BOOT, "name server")
        self.addr = f"127.0.0.1:{m.group(2)}"

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


class BrokerProcess:
    def __init__(self, workdir: Path, namesrv: str, port: int | None = None, **props: object) -> None:
        workdir.mkdir(parents=True, exist_ok=True)
        self.workdir = workdir
        self.port = port or free_port()
        self.addr = f"127.0.0.1:{self.port}"
        self.log_file = workdir / "broker.log"
        self.config = workdir / "broker.properties"
        settings: dict[str, object] = {
            "brokerClusterName": "DefaultCluster",
            "brokerName": "broker-a",
            "brokerIP1": "127.0.0.1",
            "brokerIP2": "127.0.0.1",
            "listenPort": self.port,
            "namesrvAddr": namesrv,
            "storePathRootDir": workdir / "store",
        }
        settings.update(props)
        self.config.write_text("".join(f"{k}={v}\n" for k, v in settings.items()))
        self.proc: subprocess.Popen[str] | None = None
        self.boot_line = ""
        self.start()

    def start(self) -> None:
        self.proc = subprocess.Popen(
            [MQADMIN, "broker", "start", "-c", str(self.config), "--log-file", str(self.log_file)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=_env(self.workdir),
        )
        m = _wait_boot(self.proc, _BROKER_BOOT, "broker")
        self.boot_line = m.group(0)
        assert m.group(2) == self.addr, m.group(0)

    def stop(self) -> int | None:
        """SIGTERM and wait: a clean shutdown (offsets persisted, unregistered)."""
        if self.proc is None or self.proc.poll() is not None:
            return None if self.proc is None else self.proc.returncode
        self.proc.send_signal(signal.SIGTERM)
        try:
            return self.proc.wait(15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            return self.proc.wait()

    def kill(self) -> None:
        """``kill -9``."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()

    @property
    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def log(self) -> str:
        return self.log_file.read_text(errors="replace") if self.log_file.exists() else ""


def cpp(*args: str, timeout: float = 120) -> list[dict[str, Any]]:
    """Run the C++ client helper; its JSON lines (a crash of the native library fails the test here)."""
    try:
        proc = subprocess.run(
            [sys.executable, CPP_CLIENT, *args], capture_output=True, text=True, timeout=timeout
        )
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode() if isinstance(e.stdout, bytes) else e.stdout or ""
        raise AssertionError(
            f"C++ client {args} did not finish in {timeout} s; output: {out[-600:]}"
        ) from None
    events = [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]
    if proc.returncode != 0 or not events or events[-1].get("event") != "done":
        raise AssertionError(f"C++ client {args[0]} failed ({proc.returncode}): {proc.stderr[-2000:]}")
    return events


def cpp_start(*args: str) -> subprocess.Popen[str]:
    """The C++ client helper in the background (read its stdout when it ends)."""
    return subprocess.Popen(
        [sys.executable, CPP_CLIENT, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )


def call(addr: str, cmd: RemotingCommand, timeout: float = 10.0) -> RemotingCommand:
    """One request, one response, with our remoting client."""

    async def go() -> RemotingCommand:
        async with RemotingClient() as client:
            return await client.invoke(addr, cmd, timeout)

    return asyncio.run(go())


def create_topic(addr: str, topic: str, queues: int = 4, perm: int = 6) -> RemotingCommand:
    """UPDATE_AND_CREATE_TOPIC as ``mqadmin updateTopic`` sends it."""
    ext = {
        "topic": topic,
        "defaultTopic": "TBW102",
        "readQueueNums": str(queues),
        "writeQueueNums": str(queues),
        "perm": str(perm),
        "topicFilterType": "SINGLE_TAG",
        "topicSysFlag": "0",
        "order": "false",
    }
    return call(addr, RemotingCommand.request(17, ext))
