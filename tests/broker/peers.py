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
import subprocess
import sys
from pathlib import Path
from typing import Any

from mqadmin.localcluster import BROKER_BOOT, NS_BOOT, ServerProcess, free_port, mqadmin_argv
from mqadmin.protocol.command import RemotingCommand
from mqadmin.remoting.client import RemotingClient

__all__ = [
    "MQADMIN",
    "BrokerProcess",
    "NameServerProcess",
    "call",
    "cpp",
    "cpp_start",
    "create_topic",
    "free_port",
]

MQADMIN = str(Path(sys.executable).parent / "mqadmin")
CPP_CLIENT = str(Path(__file__).with_name("cpp_client.py"))


class NameServerProcess:
    def __init__(self, workdir: Path) -> None:
        workdir.mkdir(parents=True, exist_ok=True)
        config = workdir / "namesrv.properties"
        config.write_text(f"bindAddress=127.0.0.1\nkvConfigPath={workdir / 'kvConfig.json'}\n")
        argv = [*mqadmin_argv(), "namesrv", "start", "-c", str(config), "--listen-port", "0"]
        self.server = ServerProcess(
            "name server", [*argv, "--log-file", str(workdir / "ns.log")], workdir, NS_BOOT
        )
        m = self.server.start()
        self.addr = f"127.0.0.1:{m.group(2)}"

    @property
    def proc(self) -> subprocess.Popen[str] | None:
        return self.server.proc

    def stop(self) -> None:
        self.server.stop(10)


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
        argv = [*mqadmin_argv(), "broker", "start", "-c", str(self.config), "--log-file", str(self.log_file)]
        self.server = ServerProcess("broker", argv, workdir, BROKER_BOOT)
        self.boot_line = ""
        self.start()

    @property
    def proc(self) -> subprocess.Popen[str] | None:
        return self.server.proc

    def start(self) -> None:
        m = self.server.start()
        self.boot_line = m.group(0)
        assert m.group(2) == self.addr, m.group(0)

    def stop(self) -> int | None:
        """SIGTERM and wait: a clean shutdown (offsets persisted, unregistered)."""
        return self.server.stop()

    def kill(self) -> None:
        """``kill -9``."""
        self.server.kill()

    @property
    def alive(self) -> bool:
        return self.server.alive

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


def create_topic_fields(topic: str, **over: str) -> dict[str, str]:
    """UPDATE_AND_CREATE_TOPIC ext fields as the 5.3.3 tool sends them (see the captures), with
    ``over`` replaced."""
    return {
        "topic": topic,
        "defaultTopic": "TBW102",
        "readQueueNums": "4",
        "writeQueueNums": "4",
        "perm": "6",
        "topicFilterType": "SINGLE_TAG",
        "topicSysFlag": "0",
        "order": "false",
        "attributes": "",
        "force": "false",
        **over,
    }


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
