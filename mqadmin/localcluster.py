"""A local RocketMQ on loopback: our name server and development broker as real child processes.

Used by ``mqadmin demo`` and by the integration tests: each server runs as ``mqadmin namesrv start``
/ ``mqadmin broker start`` in its own process, on a port picked at run time, with its files in a
work folder, and is stopped (SIGTERM, then SIGKILL) when the cluster is closed.
"""

from __future__ import annotations

import os
import re
import resource
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType

NS_BOOT = re.compile(r"The Name Server boot success.*address (\S+):(\d+)")
BROKER_BOOT = re.compile(r"The broker\[(\S+), (\S+)\] boot success")


def mqadmin_argv() -> list[str]:
    """How to run this very ``mqadmin``: the console script beside the interpreter, else ``-m``."""
    script = Path(sys.executable).parent / "mqadmin"
    if script.exists():
        return [str(script)]
    return [sys.executable, "-m", "mqadmin"]


def free_port(host: str = "127.0.0.1") -> int:
    """A port free right now on ``host`` (for a server that must keep its address across restarts)."""
    with socket.socket() as s:
        s.bind((host, 0))
        return int(s.getsockname()[1])


def _child_env(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "NAMESRV_ADDR"}
    env["HOME"] = str(home)  # whatever a child still puts under ~ stays in the work folder
    return env


@dataclass
class ServerProcess:
    """One server child process and the line it announced itself with.

    It runs in ``workdir`` (its default paths are relative to the working directory); ``nofile``
    lowers its ``RLIMIT_NOFILE`` (to see it run out of file descriptors).
    """

    name: str
    argv: list[str]
    workdir: Path
    boot: re.Pattern[str]
    proc: subprocess.Popen[str] | None = None
    boot_match: re.Match[str] | None = None
    nofile: int | None = None
    stderr_path: Path | None = None

    def start(self, timeout: float = 30.0) -> re.Match[str]:
        nofile = self.nofile

        def limit() -> None:
            if nofile is not None:
                resource.setrlimit(resource.RLIMIT_NOFILE, (nofile, nofile))

        # stderr goes to a file, never to a pipe nobody drains: a server writing warnings into a
        # full pipe would block
        self.stderr_path = self.workdir / f"{self.name.replace(' ', '-')}.stderr"
        with open(self.stderr_path, "ab") as err_file:
            self.proc = subprocess.Popen(
                self.argv,
                stdout=subprocess.PIPE,
                stderr=err_file,
                stdin=subprocess.DEVNULL,
                text=True,
                env=_child_env(self.workdir),
                cwd=self.workdir,
                preexec_fn=limit if nofile is not None else None,
            )
        assert self.proc.stdout is not None
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            line = self.proc.stdout.readline()
            if not line:
                break
            m = self.boot.search(line)
            if m:
                self.boot_match = m
                return m
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        self._close_pipes()
        err = self.stderr_path.read_text(errors="replace")
        raise RuntimeError(f"{self.name} did not start: {err[-2000:].strip()}")

    @property
    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def stop(self, timeout: float = 15.0) -> int | None:
        """SIGTERM and wait (a clean shutdown); SIGKILL if it does not end in time."""
        if self.proc is None:
            return None
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self._close_pipes()
        return self.proc.returncode

    def kill(self) -> None:
        """``kill -9``: no shutdown work at all."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        self._close_pipes()

    def _close_pipes(self) -> None:
        if self.proc is not None:
            for pipe in (self.proc.stdout, self.proc.stderr):
                if pipe is not None:
                    pipe.close()


@dataclass
class LocalCluster:
    """A name server and one broker on 127.0.0.1, with their files under ``workdir``."""

    workdir: Path
    cluster: str = "DefaultCluster"
    broker_name: str = "broker-a"
    broker_props: dict[str, object] = field(default_factory=dict)
    namesrv_props: dict[str, object] = field(default_factory=dict)
    namesrv: ServerProcess | None = None
    broker: ServerProcess | None = None
    namesrv_addr: str = ""
    broker_addr: str = ""

    def start(self) -> LocalCluster:
        self.workdir.mkdir(parents=True, exist_ok=True)
        ns_conf = self.workdir / "namesrv.properties"
        ns_props: dict[str, object] = {
            "bindAddress": "127.0.0.1",
            "kvConfigPath": self.workdir / "kvConfig.json",
            **self.namesrv_props,
        }
        ns_conf.write_text("".join(f"{k}={v}\n" for k, v in ns_props.items()))
        self.namesrv = ServerProcess(
            "name server",
            [
                *mqadmin_argv(),
                "namesrv",
                "start",
                "-c",
                str(ns_conf),
                "--listen-port",
                "0",
                "--log-file",
                str(self.workdir / "namesrv.log"),
            ],
            self.workdir,
            NS_BOOT,
        )
        m = self.namesrv.start()
        self.namesrv_addr = f"127.0.0.1:{m.group(2)}"
        port = free_port()
        props: dict[str, object] = {
            "brokerClusterName": self.cluster,
            "brokerName": self.broker_name,
            "brokerIP1": "127.0.0.1",
            "brokerIP2": "127.0.0.1",
            "listenPort": port,
            "namesrvAddr": self.namesrv_addr,
            "storePathRootDir": self.workdir / "store",
            **self.broker_props,
        }
        broker_conf = self.workdir / "broker.properties"
        broker_conf.write_text("".join(f"{k}={v}\n" for k, v in props.items()))
        self.broker = ServerProcess(
            "broker",
            [
                *mqadmin_argv(),
                "broker",
                "start",
                "-c",
                str(broker_conf),
                "--log-file",
                str(self.workdir / "broker.log"),
            ],
            self.workdir,
            BROKER_BOOT,
        )
        self.broker.start()
        self.broker_addr = f"127.0.0.1:{port}"
        return self

    def stop(self) -> None:
        """Broker first (it unregisters from the name server), then the name server."""
        for server in (self.broker, self.namesrv):
            if server is not None:
                server.stop()

    def __enter__(self) -> LocalCluster:
        return self.start()

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()
