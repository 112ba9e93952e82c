"""Small runs fail fast: what can be judged without Spark is judged before a JVM starts.

Each case runs the installed ``mqadmin`` as a subprocess and must answer in one stderr line, with
the usage exit code where the user typed something wrong, in a time no JVM start fits in. The
progress line is checked on a pseudo-terminal: absent on a pipe, shown after its delay on a TTY.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from mqadmin.pipeline.progress import progress
from tests.pipeline import synth

MQADMIN = str(Path(sys.executable).with_name("mqadmin"))
# no Java to be found: a check that runs "before Spark" answers as it should only if it starts no JVM
NO_JAVA = {**os.environ, "JAVA_HOME": "/nonexistent/java", "PATH": str(Path(sys.executable).parent)}


@pytest.fixture(scope="module")
def history(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("preflight-snapshots")
    synth.write_history(root)
    return root


def run(*args: str) -> tuple[int, str, str]:
    p = subprocess.run([MQADMIN, *args], capture_output=True, text=True, timeout=60, env=NO_JAVA)
    return p.returncode, p.stdout, p.stderr


def one_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    return lines[0]


def test_missing_input_is_a_usage_error_before_spark(tmp_path: Path) -> None:
    code, out, err = run("analyze", "lag", "--input", str(tmp_path / "nope"))
    assert (code, out) == (2, "")
    assert one_line(err) == f"mqadmin analyze lag: --input {tmp_path / 'nope'}: no such directory"


def test_input_that_is_not_a_snapshot_root(tmp_path: Path) -> None:
    code, _, err = run("analyze", "skew", "--input", str(tmp_path))
    assert code == 2 and "holds no snapshot tables" in one_line(err)


def test_empty_window_is_said_before_spark(history: Path) -> None:
    code, _, err = run("analyze", "throughput", "--input", str(history), "--since", "2030-01-01")
    assert code == 1
    assert one_line(err) == f"mqadmin analyze throughput: no snapshot data under {history} in the window"


def test_existing_out_needs_force(history: Path, tmp_path: Path) -> None:
    out = tmp_path / "lag.json"
    out.write_text("keep me")
    code, _, err = run("analyze", "lag", "--input", str(history), "--format", "json", "--out", str(out))
    assert code == 2 and "add --force to replace it" in one_line(err)
    assert out.read_text() == "keep me"
    report = tmp_path / "page"
    report.mkdir()
    code, _, err = run("analyze", "report", "--input", str(history), "--out", str(report))
    assert code == 2 and "the directory exists" in one_line(err)


def test_engine_options(history: Path) -> None:
    code, _, err = run(
        "analyze", "idle", "--input", str(history), "--master", "local[1]", "--remote", "sc://127.0.0.1:1"
    )
    assert code == 2 and "exclude each other" in one_line(err)
    code, _, err = run("analyze", "idle", "--input", str(history), "--remote", "http://127.0.0.1:1")
    assert code == 2 and "sc://host:port" in one_line(err)


def test_unreachable_connect_server_is_said_at_once(history: Path) -> None:
    from tests.pipeline.spark_cluster import free_port

    port = free_port()
    code, out, err = run("analyze", "lag", "--input", str(history), "--remote", f"sc://127.0.0.1:{port}")
    assert (code, out) == (1, "")
    assert one_line(err).startswith(f"mqadmin analyze lag: the Spark Connect server at 127.0.0.1:{port} ")


def test_format_and_out_go_together(history: Path) -> None:
    code, _, err = run("analyze", "lag", "--input", str(history), "--format", "parquet")
    assert code == 2 and "needs --out" in one_line(err)


def test_export_refuses_before_asking_anyone(tmp_path: Path) -> None:
    out = tmp_path / "msgs"
    out.mkdir()
    code, _, err = run("export", "messages", "-t", "T", "--out", str(out), "-n", "127.0.0.1:1")
    assert code == 2 and "add --force" in one_line(err)
    code, _, err = run("export", "messages", "-t", "bad topic!", "--out", str(tmp_path / "x"))
    assert code == 2 and one_line(err).startswith("mqadmin export messages: -t bad topic!:")
    code, _, err = run(
        "export", "messages", "-t", "T", "--out", str(tmp_path / "y"), "-n", "127.0.0.1:1", "--timeout", "1"
    )
    assert code == 1 and one_line(err).startswith("mqadmin export messages: T: ")


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_line_only_on_a_terminal_and_only_when_slow() -> None:
    pipe = io.StringIO()
    with progress("mqadmin analyze lag", stream=pipe, delay=0.05) as state:
        time.sleep(0.3)
    assert pipe.getvalue() == "" and not state.shown

    tty = _Tty()
    with progress("mqadmin analyze lag", stream=tty, delay=0.05) as state:
        state.phase = "computing lag"
        time.sleep(0.6)
    assert state.shown and "mqadmin analyze lag: computing lag" in tty.getvalue()

    quick = _Tty()
    with progress("mqadmin analyze lag", stream=quick, delay=5.0) as state:
        pass
    assert quick.getvalue() == "" and not state.shown


def test_progress_is_off_when_not_a_tty_in_a_real_run(history: Path) -> None:
    env = {**os.environ, "COLUMNS": "120"}
    p = subprocess.run(
        [MQADMIN, "analyze", "lag", "--input", str(history), "--until", "2020-01-01"],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )
    assert p.returncode == 1 and "\x1b[" not in p.stderr
