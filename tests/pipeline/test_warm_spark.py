"""The warm Spark server: started by the first ``mqadmin analyze``, reused by the next, stopped when idle
or with ``--stop-spark``, a stale state file replaced, bound to loopback only.

Each test runs the installed ``mqadmin`` as a subprocess with its own cache directory
(``XDG_CACHE_HOME``), so the server, its state file and its supervisor are the test's alone; whatever
is left is stopped at the end.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import asdict
from pathlib import Path

import pytest

from mqadmin.pipeline import warm
from tests.pipeline.spark_cluster import free_port

MQADMIN = str(Path(sys.executable).with_name("mqadmin"))
RUN_LIMIT = 420.0  # a first call starts a JVM: minutes on a loaded two-core machine


@pytest.fixture
def cache(tmp_path: Path) -> Iterator[Path]:
    """A cache directory of the test's own; its warm server (if any) is stopped afterwards."""
    root = tmp_path / "cache"
    yield root
    warm.stop(root / "mqadmin")


def run(cache: Path, *args: str, idle: float = 120.0) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [MQADMIN, *args], capture_output=True, text=True, timeout=RUN_LIMIT, env=env_of(cache, idle)
    )


def state_of(cache: Path) -> warm.WarmState:
    state = warm.read_state(warm.StatePaths(cache / "mqadmin"))
    assert state is not None, f"no state file under {cache}"
    return state


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    status = Path(f"/proc/{pid}/status")
    return not status.exists() or "State:\tZ" not in status.read_text()


def listen_addresses(port: int) -> set[str]:
    """The local addresses (hex, as /proc/net writes them) of the sockets listening on ``port``."""
    found: set[str] = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            local, st = line.split()[1], line.split()[3]
            addr, hex_port = local.split(":")
            if st == "0A" and int(hex_port, 16) == port:
                found.add(addr)
    return found


def lag_rows(p: subprocess.CompletedProcess[str]) -> list[dict[str, object]]:
    assert p.returncode == 0, p.stderr
    return [json.loads(line) for line in p.stdout.splitlines()]


def env_of(cache: Path, idle: float = 120.0) -> dict[str, str]:
    env = {**os.environ, "XDG_CACHE_HOME": str(cache), warm.IDLE_ENV: f"{idle:g}", "COLUMNS": "200"}
    env.pop("PYSPARK_GATEWAY_PORT", None)
    return env


def test_second_call_reuses_the_server_and_stop_spark_ends_it(cache: Path, history: Path) -> None:
    # two first calls at once: one starts the server, the other waits for it and reuses it
    argv = [MQADMIN, "analyze", "lag", "--input", str(history), "--format", "json"]
    both = [
        subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env_of(cache))
    ]
    time.sleep(0.5)
    both.append(
        subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env_of(cache))
    )
    done = [subprocess.CompletedProcess(argv, 0, *p.communicate(timeout=RUN_LIMIT)) for p in both]
    for p, d in zip(both, done, strict=True):
        d.returncode = p.returncode
    rows = lag_rows(done[0])
    assert lag_rows(done[1]) == rows
    assert {r["group"] for r in rows} >= {"G-stop", "G-fast"}
    state = state_of(cache)
    starters = [p for p in done if "starting a warm Spark server on 127.0.0.1" in p.stderr.splitlines()[0]]
    (reuser,) = [p for p in done if p not in starters]
    assert len(starters) == 1, [p.stderr for p in done]
    assert "waiting for another command that is starting the warm Spark server" in reuser.stderr
    assert f"running the job on the warm Spark server at {state.url} (pid {state.pid})" in reuser.stderr
    assert alive(state.pid) and alive(state.supervisor)
    # bound to loopback only: every listening socket on the port is 127.0.0.1 (v4 or v4-mapped v6)
    addrs = listen_addresses(state.port)
    assert addrs and all(a.endswith("0100007F") for a in addrs), addrs
    mode = (cache / "mqadmin" / "spark-connect.json").stat().st_mode & 0o777
    assert mode == 0o600

    # a relative --input is read as the command sees it, not from the server's directory
    second = subprocess.run(
        [MQADMIN, "analyze", "lag", "--input", history.name, "--format", "json"],
        capture_output=True,
        text=True,
        timeout=RUN_LIMIT,
        cwd=history.parent,
        env=env_of(cache),
    )
    assert lag_rows(second) == rows
    assert f"running the job on the warm Spark server at {state.url} (pid {state.pid})" in second.stderr
    assert "starting" not in second.stderr
    assert state_of(cache) == state

    stopped = run(cache, "analyze", "--stop-spark")
    assert stopped.returncode == 0, stopped.stderr
    assert f"stopped the warm Spark server (pid {state.pid}, {state.url})" in stopped.stderr
    assert not alive(state.pid) and not alive(state.supervisor)
    assert not (cache / "mqadmin" / "spark-connect.json").exists()
    again = run(cache, "analyze", "--stop-spark")
    assert again.returncode == 0 and "no warm Spark server was running" in again.stderr


def test_stale_state_is_replaced_and_an_idle_server_stops(cache: Path, history: Path) -> None:
    gone = subprocess.Popen(["true"])
    gone.wait()  # a pid that no longer runs
    paths = warm.StatePaths(cache / "mqadmin")
    paths.root.mkdir(parents=True)
    stale = warm.WarmState(gone.pid, free_port(), gone.pid, "4.3.0", time.time() - 3600)
    paths.state.write_text(json.dumps(asdict(stale)))

    p = run(cache, "analyze", "idle", "--input", str(history), "--format", "json", idle=3)
    assert p.returncode == 0, p.stderr
    assert f"is stale (pid {gone.pid} on port {stale.port} is gone): replacing it" in p.stderr
    state = state_of(cache)
    assert state.pid != gone.pid and alive(state.pid)

    deadline = time.monotonic() + 90  # the server stops, its state goes, then its supervisor exits
    while alive(state.pid) or paths.state.exists() or alive(state.supervisor):
        assert time.monotonic() < deadline, "the idle server did not stop"
        time.sleep(0.5)


def test_engine_choice_without_spark(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv(warm.IDLE_ENV, raising=False)
    assert warm.idle_seconds() == warm.DEFAULT_IDLE
    assert not warm.wanted("local[*]", None)  # the plain local mode: a JVM of the command's own
    assert not warm.wanted(None, "sc://127.0.0.1:15002")
    monkeypatch.setenv(warm.IDLE_ENV, "0")
    assert not warm.wanted(None, None)
    monkeypatch.setenv(warm.IDLE_ENV, "soon")
    with pytest.raises(warm.WarmSparkError, match="MQADMIN_SPARK_IDLE=soon: seconds, 0 or more"):
        warm.idle_seconds()
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert warm.cache_dir() == tmp_path / "mqadmin"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path))
    assert warm.cache_dir() == tmp_path / ".cache" / "mqadmin"
    assert warm.server_path("snap") == os.path.join(os.getcwd(), "snap")
    assert warm.server_path("s3a://bucket/snap") == "s3a://bucket/snap"


def test_bad_idle_setting_is_a_usage_error_before_spark(cache: Path, history: Path) -> None:
    env = {**os.environ, "XDG_CACHE_HOME": str(cache), warm.IDLE_ENV: "-5"}
    p = subprocess.run(
        [MQADMIN, "analyze", "lag", "--input", str(history)],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )
    assert p.returncode == 2
    assert p.stderr.strip() == (
        "mqadmin analyze lag: MQADMIN_SPARK_IDLE=-5: seconds, 0 or more (0: no warm Spark server)"
    )
    assert not (cache / "mqadmin").exists()
