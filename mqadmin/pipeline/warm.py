"""A warm Spark for ``mqadmin analyze``: one Spark Connect server on loopback that outlives a command.

A JVM takes tens of seconds to start on a busy machine, longer than small jobs take to run. So the
first ``analyze`` that needs a local Spark starts a Spark Connect server (``local[*]``, bound to
127.0.0.1 only) and the later ones connect to it in about a second. A small supervisor process owns
the server: it writes the state file (port, pids) once the server listens, and stops the server when
no command has used it for the idle time (``MQADMIN_SPARK_IDLE`` seconds, default 600; 0 keeps no
server, each command then runs its own ``local[*]`` JVM as ``--master local[*]`` does).
``mqadmin analyze --stop-spark`` stops it at once.

The state lives under the user's cache directory (``$XDG_CACHE_HOME/mqadmin`` or
``~/.cache/mqadmin``), written atomically; a state file whose processes are gone is detected and
replaced. A command holds a shared lock on the use file while it runs, and the supervisor stops the
server only when it gets that lock alone: a running job is never cut off, and no command connects to
a server that is stopping.
"""

from __future__ import annotations

import fcntl
import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from mqadmin.atomicfile import write_atomic

if TYPE_CHECKING:
    from mqadmin.pipeline.progress import Progress

__all__ = [
    "DEFAULT_IDLE",
    "HOST",
    "IDLE_ENV",
    "RunOn",
    "StatePaths",
    "WarmSparkError",
    "WarmState",
    "cache_dir",
    "engine",
    "idle_seconds",
    "read_state",
    "server_path",
    "stop",
    "wanted",
    "warm_server",
]

IDLE_ENV = "MQADMIN_SPARK_IDLE"
DEFAULT_IDLE = 600.0
"""Seconds without a command before the supervisor stops the server."""
HOST = "127.0.0.1"
START_LIMIT = 300.0
"""Seconds a server may take to listen (a JVM on a loaded two-core machine is slow, not dead)."""
SERVER_CLASS = "org.apache.spark.sql.connect.service.SparkConnectServer"
SUPERVISOR = "mqadmin.pipeline.warm"

Notify = Callable[[str], None]


class WarmSparkError(Exception):
    """The warm server could not be started or the idle setting is wrong; the message says which."""


@dataclass(frozen=True, slots=True)
class WarmState:
    """What the state file holds: the server's JVM, its port, the supervisor that stops it."""

    pid: int
    port: int
    supervisor: int
    spark_version: str
    started: float

    @property
    def url(self) -> str:
        return f"sc://{HOST}:{self.port}"


@dataclass(frozen=True, slots=True)
class StatePaths:
    """The files of one cache directory."""

    root: Path

    @property
    def state(self) -> Path:
        return self.root / "spark-connect.json"

    @property
    def start_lock(self) -> Path:
        return self.root / "spark-connect.start.lock"

    @property
    def use_lock(self) -> Path:
        return self.root / "spark-connect.use.lock"

    @property
    def log(self) -> Path:
        return self.root / "spark-connect.log"


def cache_dir() -> Path:
    """``$XDG_CACHE_HOME/mqadmin``, else ``~/.cache/mqadmin``."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "mqadmin"


def idle_seconds() -> float:
    """``MQADMIN_SPARK_IDLE`` (seconds, 0: no warm server), else :data:`DEFAULT_IDLE`."""
    text = os.environ.get(IDLE_ENV, "").strip()
    if not text:
        return DEFAULT_IDLE
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not value >= 0:
        raise WarmSparkError(f"{IDLE_ENV}={text}: seconds, 0 or more (0: no warm Spark server)")
    return value


def wanted(master: str | None, remote: str | None) -> bool:
    """Whether a command runs on the warm server: no engine given, not under ``spark-submit``, no
    session already active in this process (a test's, a notebook's), and an idle time above 0."""
    if master is not None or remote is not None or idle_seconds() == 0:
        return False
    from mqadmin.pipeline.jobs.session import has_active_session, under_submit

    return not under_submit() and not has_active_session()


def server_path(path: str) -> str:
    """A local path as the server must read it: absolute (its working directory is not ours)."""
    if "://" in path:
        return path
    return os.path.abspath(path)


@dataclass(frozen=True, slots=True)
class RunOn:
    """Where a command's job runs: the Connect URL (None: a JVM of its own) and its paths as the
    engine must read them."""

    remote: str | None
    input_path: str
    out: str | None


@contextmanager
def engine(
    label: str,
    master: str | None,
    remote: str | None,
    input_path: str,
    out: str | None,
    progress: Progress | None = None,
) -> Iterator[RunOn]:
    """The engine of one command: the one it was given, else the warm server (started if need be,
    each step told on stderr at once, held in use until the block ends)."""
    if not wanted(master, remote):
        yield RunOn(remote, input_path, out)
        return

    def notify(line: str) -> None:
        print(f"{label}: {line}", file=sys.stderr, flush=True)
        if progress is not None and line.startswith("starting"):
            progress.phase = "starting the warm Spark server"

    with warm_server(notify) as state:
        try:
            yield RunOn(state.url, server_path(input_path), server_path(out) if out is not None else None)
        finally:
            _release_session()


def _release_session() -> None:
    """End this command's Connect session on the server (else it lingers until its timeout)."""
    try:
        from pyspark.sql.connect.session import SparkSession as ConnectSession

        session = ConnectSession.getActiveSession()
        if session is not None:
            session.stop()
    except Exception:  # the server may be gone already; nothing is left to release then
        pass


def read_state(paths: StatePaths) -> WarmState | None:
    """The state file's content, None when there is none or it does not parse."""
    try:
        data = json.loads(paths.state.read_text())
        return WarmState(**data)
    except (OSError, ValueError, TypeError):
        return None


def _running(pid: int, marker: str) -> bool:
    """Whether ``pid`` is a live process of ours whose command line holds ``marker`` (not a reused
    pid, not a zombie)."""
    try:
        os.kill(pid, 0)
    except (ProcessLookupError, PermissionError):
        return False
    try:
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
    except FileNotFoundError:
        return not Path("/proc/self").exists()  # no /proc here: the signal check is all there is
    except OSError:
        return True
    return marker.encode() in cmdline


def _listening(port: int) -> bool:
    try:
        with socket.create_connection((HOST, port), timeout=2.0):
            return True
    except OSError:
        return False


def _healthy(state: WarmState) -> bool:
    return (
        _running(state.pid, SERVER_CLASS)
        and _running(state.supervisor, SUPERVISOR)
        and _listening(state.port)
    )


def _spark_version() -> str:
    import pyspark

    return str(pyspark.__version__)


_WAITING = "waiting for another command that is starting the warm Spark server"


@contextmanager
def _locked(path: Path, how: int, waiting: Callable[[], None] | None = None) -> Iterator[int]:
    """``path`` locked with ``how``; ``waiting`` is called first when the lock is not free at once."""
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        try:
            fcntl.flock(fd, how | fcntl.LOCK_NB)
        except BlockingIOError:
            if waiting is not None:
                waiting()
            fcntl.flock(fd, how)
        yield fd
    finally:
        os.close(fd)  # closing the only descriptor releases the lock


def _touch(path: Path) -> None:
    try:
        os.utime(path)
    except OSError:
        pass


@contextmanager
def warm_server(
    notify: Notify, *, root: Path | None = None, idle: float | None = None
) -> Iterator[WarmState]:
    """The warm server, started when none is healthy, held in use while the block runs.

    ``notify`` is told, as it happens, whether a server is starting or reused; ``root`` is the
    cache directory (:func:`cache_dir`), ``idle`` the supervisor's idle time (:func:`idle_seconds`).
    """
    paths = StatePaths(root if root is not None else cache_dir())
    paths.root.mkdir(parents=True, exist_ok=True, mode=0o700)
    # shared while in use; a supervisor that is stopping its server holds it alone, so this waits
    with _locked(paths.use_lock, fcntl.LOCK_SH):
        _touch(paths.use_lock)
        with _locked(paths.start_lock, fcntl.LOCK_EX, lambda: notify(_WAITING)):
            state = _current(paths, notify)
            if state is None:
                state = _start(paths, idle if idle is not None else idle_seconds(), notify)
            else:
                notify(f"running the job on the warm Spark server at {state.url} (pid {state.pid})")
        try:
            yield state
        finally:
            _touch(paths.use_lock)


def _current(paths: StatePaths, notify: Notify) -> WarmState | None:
    """The recorded server when it is healthy and of this PySpark; a stale record is cleared."""
    state = read_state(paths)
    if state is None:
        if paths.state.exists():
            notify(f"the warm Spark state file {paths.state} is unreadable: replacing it")
            paths.state.unlink(missing_ok=True)
        return None
    if _healthy(state) and state.spark_version == _spark_version():
        return state
    if state.spark_version != _spark_version():
        why = f"it runs Spark {state.spark_version}, this mqadmin has {_spark_version()}"
    else:
        why = f"pid {state.pid} on port {state.port} is gone"
    notify(f"the warm Spark state file {paths.state} is stale ({why}): replacing it")
    _end(state)
    paths.state.unlink(missing_ok=True)
    return None


def _start(paths: StatePaths, idle: float, notify: Notify) -> WarmState:
    minutes = f"{idle / 60:g} min" if idle >= 60 else f"{idle:g} s"
    notify(
        f"starting a warm Spark server on {HOST} (first use: tens of seconds; later commands reuse it; "
        f"it stops after {minutes} idle or with 'mqadmin analyze --stop-spark')"
    )
    with open(paths.log, "wb") as log:
        proc = subprocess.Popen(
            [sys.executable, "-m", SUPERVISOR, "serve", str(paths.root), str(idle)],
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # Ctrl-C and the terminal's hang-up are the command's, not the server's
        )
    began = time.monotonic()
    told = began
    while True:
        state = read_state(paths)
        if state is not None and state.supervisor == proc.pid and _healthy(state):
            took = time.monotonic() - began
            notify(
                f"the warm Spark server is up at {state.url} (pid {state.pid}, {took:.0f} s); running the job"
            )
            return state
        code = proc.poll()
        if code is not None:
            raise WarmSparkError(f"the warm Spark server did not start (exit {code}); its log: {paths.log}")
        now = time.monotonic()
        if now - began > START_LIMIT + 30:
            os.kill(proc.pid, signal.SIGTERM)
            raise WarmSparkError(
                f"the warm Spark server did not listen in {START_LIMIT:.0f} s; its log: {paths.log}"
            )
        if now - told >= 30:
            notify(f"still starting the warm Spark server ({now - began:.0f} s)")
            told = now
        time.sleep(0.25)


def _wait_gone(pid: int, marker: str, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while _running(pid, marker):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.1)
    return True


def _end(state: WarmState, timeout: float = 30.0) -> None:
    """Stop the supervisor (it stops its server) and then the server itself if it is still up."""
    if _running(state.supervisor, SUPERVISOR):
        os.kill(state.supervisor, signal.SIGTERM)
        _wait_gone(state.supervisor, SUPERVISOR, timeout)
    if _running(state.pid, SERVER_CLASS):
        os.kill(state.pid, signal.SIGTERM)
        if not _wait_gone(state.pid, SERVER_CLASS, timeout):
            os.kill(state.pid, signal.SIGKILL)
            _wait_gone(state.pid, SERVER_CLASS, 5.0)


def stop(root: Path | None = None) -> WarmState | None:
    """Stop the warm server of ``root`` (:func:`cache_dir`) now; the state it had, None if none."""
    paths = StatePaths(root if root is not None else cache_dir())
    state = read_state(paths)
    if state is not None:
        _end(state)
    paths.state.unlink(missing_ok=True)
    return state


# ---------------------------------------------------------------- the supervisor (its own process)


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


def _spark_home() -> Path:
    home = os.environ.get("SPARK_HOME")
    if home:
        return Path(home)
    import pyspark

    return Path(pyspark.__file__).parent


def _server_command(port: int) -> list[str]:
    from mqadmin.pipeline.jobs.session import common_conf, local_conf

    conf = {
        **common_conf(),
        **local_conf(),
        "spark.connect.grpc.binding.address": HOST,
        "spark.connect.grpc.binding.port": str(port),
        "spark.pyspark.python": sys.executable,
        # at INFO the server logs every plan it is sent, whole: slower, and a log of megabytes
        "spark.log.level": "WARN",
        # a command's session is released when it ends; one that died goes after this
        "spark.connect.session.manager.defaultSessionTimeout": "10m",
    }
    argv = [str(_spark_home() / "bin" / "spark-submit"), "--class", SERVER_CLASS, "--master", "local[*]"]
    argv += ["--name", "mqadmin warm Spark"]
    for k, v in conf.items():
        argv += ["--conf", f"{k}={v}"]
    return [*argv, "spark-internal"]


def _last_used(paths: StatePaths) -> float:
    try:
        return paths.use_lock.stat().st_mtime
    except OSError:
        return 0.0


class _Stop(Exception):
    """A signal told the supervisor to stop its server."""


def _on_signal(signum: int, frame: object) -> None:
    raise _Stop


def serve(root: Path, idle: float) -> int:
    """Run the server until it has been idle for ``idle`` seconds or a signal says stop."""
    paths = StatePaths(root)
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(sig, _on_signal)
    port = _free_port()
    env = {**os.environ, "PYSPARK_PYTHON": sys.executable, "SPARK_LOCAL_IP": HOST}
    jvm = subprocess.Popen(_server_command(port), stdin=subprocess.DEVNULL, env=env)
    lock_fd: int | None = None
    try:
        deadline = time.monotonic() + START_LIMIT
        while not _listening(port):
            if jvm.poll() is not None or time.monotonic() > deadline:
                return 1
            time.sleep(0.25)
        state = WarmState(jvm.pid, port, os.getpid(), _spark_version(), time.time())
        write_atomic(paths.state, json.dumps(asdict(state)), 0o600)
        _touch(paths.use_lock)
        lock_fd = _wait_idle(paths, idle, jvm)
        return 0
    except _Stop:
        return 0
    finally:
        for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
            signal.signal(sig, signal.SIG_IGN)  # stopping now; a second signal must not cut it short
        if jvm.poll() is None:
            jvm.terminate()
            try:
                jvm.wait(30)
            except subprocess.TimeoutExpired:
                jvm.kill()
                jvm.wait()
        recorded = read_state(paths)
        if recorded is not None and recorded.supervisor == os.getpid():
            paths.state.unlink(missing_ok=True)
        if lock_fd is not None:
            os.close(lock_fd)


def _wait_idle(paths: StatePaths, idle: float, jvm: subprocess.Popen[bytes]) -> int | None:
    """Return once the server has been idle for ``idle`` seconds with the use lock held alone (its
    descriptor: the caller closes it when the server is down), or None when the server died."""
    check = max(0.2, min(5.0, idle / 4))
    while True:
        time.sleep(check)
        if jvm.poll() is not None:
            return None
        if time.time() - _last_used(paths) < idle:
            continue
        fd = os.open(paths.use_lock, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)  # a command is running on the server
            continue
        return fd


def main(argv: list[str]) -> int:
    if len(argv) != 3 or argv[0] != "serve":
        print(f"usage: python -m {SUPERVISOR} serve CACHE_DIR IDLE_SECONDS", file=sys.stderr)
        return 2
    return serve(Path(argv[1]), float(argv[2]))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
