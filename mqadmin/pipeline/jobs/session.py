"""The Spark session the jobs run in: local by default, any cluster with ``--master``, Spark Connect with
``--remote``, or the caller's.

An active session (a test's, a notebook's, the one ``spark-submit`` made) is used as it is. Otherwise
one is built: ``local[*]`` unless a master is given or ``spark-submit`` already decided it, the UI
and the progress bar off (a job takes seconds; the UI would only hold a port), the session time zone
UTC (snapshots are UTC), and for local mode the driver bound to loopback, twice as many shuffle
partitions as cores (not 200) and adaptive execution on. Python workers run the
interpreter the driver runs, so they find the same packages; on a standalone cluster whose master is
on loopback, the driver listens on loopback too.

``--remote sc://host:port`` starts no JVM here: the jobs' plans go to a Spark Connect server, which
runs them (its Python workers must have ``mqadmin`` installed for ``export messages``). ``mqadmin
analyze`` given no engine runs that way on the warm local server of :mod:`mqadmin.pipeline.warm`.

The JVM's own lines (its warnings, log4j's banner, Hadoop's native-library note) go to a log file,
not to the terminal, unless ``quiet`` is off (``mqadmin --debug``); a failure names that file.
"""

from __future__ import annotations

import os
import socket
import sys
import tempfile
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

__all__ = [
    "CONNECT_HINT",
    "DEFAULT_MASTER",
    "ConnectUnavailableError",
    "SparkStartError",
    "cluster_conf",
    "common_conf",
    "get_spark",
    "has_active_session",
    "jvm_log_path",
    "local_conf",
    "under_submit",
]

DEFAULT_MASTER = "local[*]"
CONNECT_HINT = "pip install 'mqadmin[spark]'"

_LOOPBACK = ("127.0.0.1", "localhost", "::1")
_jvm_log: str | None = None


class ConnectUnavailableError(Exception):
    """``--remote`` was given but the Spark Connect client's packages are missing."""


class SparkStartError(Exception):
    """The JVM did not start (no Java, a bad master URL...); the message names the JVM log."""


def jvm_log_path() -> str | None:
    """Where this process's JVM writes its own lines (None: to stderr, or no JVM was started)."""
    return _jvm_log


def local_conf(shuffle_partitions: int | None = None) -> dict[str, str]:
    """Settings for a single-machine session (also used by the tests' shared session)."""
    if shuffle_partitions is None:
        shuffle_partitions = max(4, min(32, 2 * (os.cpu_count() or 2)))
    return {
        "spark.driver.host": "127.0.0.1",
        "spark.driver.bindAddress": "127.0.0.1",
        "spark.sql.shuffle.partitions": str(shuffle_partitions),
        "spark.default.parallelism": str(shuffle_partitions),
        # adaptive execution merges small shuffle partitions and picks broadcast joins from real
        # sizes: on 10M snapshot rows the lag job ran about a third faster with it than without
        "spark.sql.adaptive.enabled": "true",
        # ParallelGC, the JVM's throughput collector: a warm 10M-row lag job ran 1-2 s faster than on G1
        "spark.driver.extraJavaOptions": "-XX:+UseParallelGC",
    }


def cluster_conf(master: str) -> dict[str, str]:
    """Settings for a cluster master: executors must reach the driver, so on a loopback master the
    driver listens on loopback as well."""
    host = urlsplit(master).hostname if "://" in master else None
    if host in _LOOPBACK:
        return {"spark.driver.host": "127.0.0.1", "spark.driver.bindAddress": "127.0.0.1"}
    return {}


def common_conf() -> dict[str, str]:
    return {
        "spark.ui.enabled": "false",
        "spark.ui.showConsoleProgress": "false",
        "spark.sql.session.timeZone": "UTC",
    }


@contextmanager
def _jvm_stderr_to_log(quiet: bool) -> Iterator[None]:
    """While the JVM is launched, file descriptor 2 points at a log file: the JVM keeps it."""
    global _jvm_log
    if not quiet:
        yield
        return
    fd, path = tempfile.mkstemp(prefix="mqadmin-spark-", suffix=".log")
    saved = os.dup(2)
    sys.stderr.flush()
    os.dup2(fd, 2)
    try:
        yield
    finally:
        sys.stderr.flush()
        os.dup2(saved, 2)
        os.close(saved)
        os.close(fd)
        _jvm_log = path


def _connect(remote: str, app_name: str) -> SparkSession:
    try:
        import grpc  # noqa: F401
        import pandas  # noqa: F401
        from pyspark.sql.connect.session import SparkSession as ConnectSession
    except ImportError as e:
        raise ConnectUnavailableError(
            f"Spark Connect needs the packages of pyspark[connect] ({e.name} is missing): {CONNECT_HINT}"
        ) from None
    _reach_connect(remote)
    # pyspark's functions and windows pick their Connect implementation by this variable
    os.environ["SPARK_CONNECT_MODE_ENABLED"] = "1"
    builder = ConnectSession.builder.remote(remote).appName(app_name)  # type: ignore[attr-defined]
    spark: Any = builder.getOrCreate()  # the Connect session has the classic one's API
    for k, v in common_conf().items():
        if not k.startswith("spark.ui."):
            spark.conf.set(k, v)
    return spark  # type: ignore[no-any-return]


CONNECT_PORT = 15002
"""Spark Connect's port when the URL names none."""


def _reach_connect(remote: str, timeout: float = 5.0) -> None:
    """Fail at once when nothing listens at the Connect URL (the client would retry for minutes)."""
    parts = urlsplit(remote.split(";", 1)[0])
    host, port = parts.hostname or "localhost", parts.port or CONNECT_PORT
    try:
        with socket.create_connection((host, port), timeout=timeout):
            pass
    except OSError as e:
        raise SparkStartError(f"the Spark Connect server at {host}:{port} did not answer: {e}") from None


def under_submit() -> bool:
    """Whether ``spark-submit`` or the pyspark shell started this process (they set the master)."""
    return "PYSPARK_GATEWAY_PORT" in os.environ


def has_active_session() -> bool:
    """Whether a classic session is already active here (a test's, a notebook's): the jobs use it."""
    from pyspark.sql import SparkSession

    return SparkSession.getActiveSession() is not None


def get_spark(
    master: str | None = None,
    app_name: str = "mqadmin-analyze",
    *,
    remote: str | None = None,
    quiet: bool = True,
) -> SparkSession:
    """The active session, or a new one configured as the module docstring says."""
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    os.environ.setdefault("PYSPARK_DRIVER_PYTHON", sys.executable)
    # pyspark warns about pandas versions on import; the jobs do not use pandas
    warnings.filterwarnings("ignore", message=".*does not yet fully support pandas.*", category=FutureWarning)
    if remote is not None:
        return _connect(remote, app_name)
    from pyspark.sql import SparkSession

    active = SparkSession.getActiveSession()
    if active is not None:
        return active
    submitted = under_submit()
    if master is None and not submitted:
        master = DEFAULT_MASTER
    builder = SparkSession.builder.appName(app_name)
    conf = common_conf()
    if master is not None:
        builder = builder.master(master)
        if master.startswith("local"):
            os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
            conf.update(local_conf())
        else:
            conf.update(cluster_conf(master))
    for k, v in conf.items():
        builder = builder.config(k, v)
    try:
        with _jvm_stderr_to_log(quiet and not submitted):
            spark = builder.getOrCreate()
    except Exception as e:
        where = f" (JVM log: {_jvm_log})" if _jvm_log else ""
        raise SparkStartError(f"{_start_reason(e)}{where}") from e
    spark.sparkContext.setLogLevel("ERROR")
    return spark


def _start_reason(exc: Exception) -> str:
    text = str(exc)
    if "JAVA_GATEWAY_EXITED" in text or "Java gateway process exited" in text:
        return "Spark could not start: Java 17 or later must be installed (JAVA_HOME or java on PATH)"
    first = text.strip().splitlines()[0] if text.strip() else type(exc).__name__
    return f"Spark could not start: {first}"
