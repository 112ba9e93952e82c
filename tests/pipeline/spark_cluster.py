"""Real Spark servers for the tests, started from the installed pyspark: a standalone master with
workers, and a Spark Connect server. Loopback only, ports picked at run time, stopped at the end.

Nothing is skipped: when Java or a piece Spark needs is missing, :func:`require` fails the test
with exactly what is missing and how to get it.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import pytest

__all__ = [
    "TEST_SUBMIT_ARGS",
    "Connect",
    "Standalone",
    "connect_server",
    "free_port",
    "require",
    "spark_home",
    "standalone",
]

START_LIMIT = 120.0


def spark_home() -> Path:
    import pyspark

    return Path(pyspark.__file__).parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def require(connect: bool = False) -> None:
    """Fail (never skip) with what is missing: Java 17+, the Connect jar, the Connect client packages."""
    java = shutil.which("java") or (
        os.path.join(os.environ["JAVA_HOME"], "bin", "java") if os.environ.get("JAVA_HOME") else None
    )
    if java is None or not os.path.exists(java):
        pytest.fail("Java 17 or later is missing (Debian: apt-get install openjdk-17-jre-headless)")
    if not connect:
        return
    jars = list((spark_home() / "jars").glob("spark-connect_*.jar"))
    if not jars:
        where = spark_home() / "jars"
        pytest.fail(f"the Spark Connect server jar is missing from {where} (spark-connect_*.jar)")
    missing = []
    for module in ("grpc", "grpc_status", "google.rpc", "pandas", "zstandard"):
        try:
            __import__(module)
        except ImportError:
            missing.append(module)
    if missing:
        pytest.fail(f"the Spark Connect client lacks {', '.join(missing)}: pip install 'mqadmin[spark]'")


TEST_SUBMIT_ARGS = (
    "--conf spark.sql.shuffle.partitions=4 --conf spark.default.parallelism=4 "
    "--conf spark.executor.memory=512m pyspark-shell"
)
"""What a test's driver adds on a two-worker cluster of tiny data (read by pyspark when it starts the
JVM): a few shuffle partitions instead of 200, small executors."""


def _env(work: Path, daemon_memory: str | None = "256m") -> dict[str, str]:
    env = {
        **os.environ,
        "SPARK_LOCAL_IP": "127.0.0.1",
        "SPARK_LOG_DIR": str(work / "logs"),
        "SPARK_PID_DIR": str(work),
        "PYSPARK_PYTHON": sys.executable,
        "PYSPARK_DRIVER_PYTHON": sys.executable,
        "SPARK_NO_DAEMONIZE": "1",
    }
    if daemon_memory is not None:
        env["SPARK_DAEMON_MEMORY"] = daemon_memory  # the master's and workers' own heaps
    return env


@dataclass
class _Procs:
    work: Path
    procs: list[subprocess.Popen[bytes]] = field(default_factory=list)

    def start(self, name: str, argv: Sequence[str], daemon: bool = True) -> subprocess.Popen[bytes]:
        log = open(self.work / f"{name}.log", "wb")  # the process keeps it open
        env = _env(self.work, "256m" if daemon else None)
        p = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True)
        log.close()
        self.procs.append(p)
        return p

    def log(self, name: str) -> str:
        path = self.work / f"{name}.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def stop(self) -> None:
        for p in reversed(self.procs):
            if p.poll() is None:
                p.terminate()
        for p in self.procs:
            try:
                p.wait(timeout=20)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait(timeout=10)


@dataclass
class Standalone:
    """A running master (``url``) with ``workers`` registered."""

    url: str
    ui: str
    workers: int
    work: Path

    def alive_workers(self) -> int:
        with urllib.request.urlopen(f"{self.ui}/json/", timeout=5) as r:
            return int(json.load(r).get("aliveworkers", 0))

    def executor_logs(self) -> list[set[Path]]:
        """Per worker, the stderr files of the executors it has run (``app-*/<id>/stderr``): a test
        on the shared cluster compares them before and after to see which ran its tasks."""
        return [set((self.work / f"worker{i}").glob("app-*/*/stderr")) for i in range(self.workers)]

    def assert_every_worker_ran_since(self, before: list[set[Path]]) -> None:
        """Each worker has run an executor since ``before`` (:meth:`executor_logs` then): the test's
        tasks ran in the workers' processes, not only another test's on the shared cluster."""
        for i, (was, now) in enumerate(zip(before, self.executor_logs(), strict=True)):
            assert now - was, f"worker{i} ran nothing"


@contextmanager
def standalone(work: Path, workers: int = 2, memory: str = "1g") -> Iterator[Standalone]:
    """``spark-class ...Master`` and ``workers`` x ``spark-class ...Worker`` (1 core, ``memory`` each)."""
    require()
    work.mkdir(parents=True, exist_ok=True)
    procs = _Procs(work)
    cls = str(spark_home() / "bin" / "spark-class")
    port, ui_port = free_port(), free_port()
    try:
        procs.start(
            "master",
            [cls, "org.apache.spark.deploy.master.Master", "--host", "127.0.0.1", "--port", str(port),
             "--webui-port", str(ui_port)],
        )  # fmt: skip
        url, ui = f"spark://127.0.0.1:{port}", f"http://127.0.0.1:{ui_port}"
        for i in range(workers):
            procs.start(
                f"worker{i}",
                [cls, "org.apache.spark.deploy.worker.Worker", "--host", "127.0.0.1",
                 "--webui-port", str(free_port()), "--cores", "1", "--memory", memory,
                 "--work-dir", str(work / f"worker{i}"), url],
            )  # fmt: skip
        cluster = Standalone(url, ui, workers, work)
        deadline = time.monotonic() + START_LIMIT
        while True:
            for i, p in enumerate(procs.procs):
                if p.poll() is not None:
                    name = "master" if i == 0 else f"worker{i - 1}"
                    pytest.fail(f"the Spark {name} exited: {procs.log(name)[-2000:]}")
            try:
                if cluster.alive_workers() >= workers:
                    break
            except (OSError, ValueError):  # not listening yet, or an empty answer while it starts
                pass
            if time.monotonic() > deadline:
                pytest.fail(f"the standalone cluster did not come up: {procs.log('master')[-2000:]}")
            time.sleep(0.5)
        yield cluster
    finally:
        procs.stop()


@dataclass
class Connect:
    url: str
    work: Path


@contextmanager
def connect_server(work: Path) -> Iterator[Connect]:
    """``SparkConnectServer`` (local[2]) on a loopback port; its Python workers run this interpreter."""
    require(connect=True)
    work.mkdir(parents=True, exist_ok=True)
    procs = _Procs(work)
    port = free_port()
    submit = str(spark_home() / "bin" / "spark-submit")
    try:
        p = procs.start(
            "connect",
            [submit, "--class", "org.apache.spark.sql.connect.service.SparkConnectServer",
             "--master", "local[2]", "--name", "mqadmin-tests-connect",
             "--conf", f"spark.connect.grpc.binding.port={port}",
             "--conf", "spark.connect.grpc.binding.address=127.0.0.1",
             "--conf", "spark.driver.host=127.0.0.1", "--conf", "spark.driver.bindAddress=127.0.0.1",
             "--conf", "spark.ui.enabled=false", "--conf", "spark.sql.shuffle.partitions=2",
             "--conf", "spark.sql.session.timeZone=UTC",
             "--conf", f"spark.pyspark.python={sys.executable}",
             "--driver-memory", "1g", "spark-internal"],
            daemon=False,
        )  # fmt: skip
        deadline = time.monotonic() + START_LIMIT
        while True:
            if p.poll() is not None:
                pytest.fail(f"the Spark Connect server exited: {procs.log('connect')[-2000:]}")
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    break
            except OSError:
                pass
            if time.monotonic() > deadline:
                pytest.fail(f"the Spark Connect server did not listen: {procs.log('connect')[-2000:]}")
            time.sleep(0.5)
        yield Connect(f"sc://127.0.0.1:{port}", work)
    finally:
        procs.stop()
