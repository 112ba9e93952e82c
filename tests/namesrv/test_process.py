"""``mqadmin namesrv start`` as a real process: start-up line, ``-p``, signals, KV across restarts."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from tests.namesrv.support import WORKERS, Wire, request, run
from tests.procfs import children_of

BOOT = re.compile(r"The Name Server boot success\. serializeType=JSON, address (\S+):(\d+)")


def _command(*args: str) -> list[str]:
    return [sys.executable, "-m", "mqadmin.cli.main", "namesrv", "start", "--workers", str(WORKERS), *args]


def _config(tmp_path: Path, **extra: str) -> Path:
    props = {
        "bindAddress": "127.0.0.1",
        "listenPort": "0",
        "kvConfigPath": str(tmp_path / "kv" / "kvConfig.json"),
    }
    props.update(extra)
    path = tmp_path / "namesrv.properties"
    path.write_text("# test name server\n" + "".join(f"{k}={v}\n" for k, v in props.items()))
    return path


def _start(tmp_path: Path, config: Path) -> tuple[subprocess.Popen[str], int]:
    proc = subprocess.Popen(
        _command("-c", str(config), "--log-file", str(tmp_path / "logs" / "namesrv.log")),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    assert proc.stdout is not None
    assert proc.stdout.readline() == f"load config properties file OK, {config}\n"
    m = BOOT.fullmatch(proc.stdout.readline().rstrip("\n"))
    assert m is not None and m.group(1) == "127.0.0.1"
    return proc, int(m.group(2))


def _stop(proc: subprocess.Popen[str], sig: int) -> tuple[str, str]:
    proc.send_signal(sig)
    out, err = proc.communicate(timeout=10)
    assert proc.returncode == 0, err
    return out, err


async def _kv(port: int, *requests: tuple[int, dict[str, str]]) -> list[dict[str, object]]:
    w = await Wire.open(port)
    out = []
    for code, ext in requests:
        out.append((await w.call(request(code, ext))).header)
    await w.close()
    return out


def test_sigterm_stops_cleanly_and_kv_survives_a_restart(tmp_path: Path) -> None:
    config = _config(tmp_path)
    proc, port = _start(tmp_path, config)
    try:
        ns = {"namespace": "ORDER_TOPIC_CONFIG", "key": "T1"}
        (put,) = run(_kv(port, (100, {**ns, "value": "broker-a:8"})))
        assert put["code"] == 0
    finally:
        out, err = _stop(proc, signal.SIGTERM)
    assert out == "" and err == ""  # nothing but the two start-up lines on stdout, no warnings
    kv = (tmp_path / "kv" / "kvConfig.json").read_text()
    assert kv == '{"configTable":{"ORDER_TOPIC_CONFIG":{"T1":"broker-a:8"}}}'
    log = (tmp_path / "logs" / "namesrv.log").read_text()
    assert "The Name Server boot success" in log and "shutdown requested" in log

    proc, port = _start(tmp_path, config)
    try:
        (got,) = run(_kv(port, (101, ns)))
        assert got["code"] == 0 and got["extFields"] == {"value": "broker-a:8"}
    finally:
        _stop(proc, signal.SIGINT)


def test_sigterm_right_after_the_boot_line_is_a_clean_stop(tmp_path: Path) -> None:
    """Whoever reads the boot line may signal at once: the handlers are in place before it is printed."""
    config = _config(tmp_path)
    for _ in range(5):
        proc, _port = _start(tmp_path, config)
        _stop(proc, signal.SIGTERM)  # exit 0, not killed by the default SIGTERM action


def test_print_config_items(tmp_path: Path) -> None:
    config = _config(tmp_path, listenPort="12345", orderMessageEnable="true", unknownThing="1")
    done = subprocess.run(_command("-c", str(config), "-p"), capture_output=True, text=True, timeout=20)
    assert done.returncode == 0, done.stderr
    first, *lines = done.stdout.splitlines()
    assert first == f"load config properties file OK, {config}"
    assert len(lines) == 22 + 18 + 20  # NamesrvConfig, NettyServerConfig, NettyClientConfig
    shape = re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d INFO main - (\w+)=(.*)")
    items = dict(shape.fullmatch(line).groups() for line in lines)  # type: ignore[union-attr]
    assert items["listenPort"] == "12345" and items["orderMessageEnable"] == "true"
    assert items["configStorePath"] == str(config) and items["kvConfigPath"].endswith("kvConfig.json")
    assert items["scanNotActiveBrokerInterval"] == "5000" and items["isScanAvailableNameSrv"] == "true"
    assert "unknownThing" not in items


def test_start_failures_exit_non_zero(tmp_path: Path) -> None:
    missing = subprocess.run(
        _command("-c", str(tmp_path / "nope.properties")), capture_output=True, text=True
    )
    assert missing.returncode == 1 and "cannot read config file" in missing.stderr and missing.stdout == ""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        busy = subprocess.run(
            _command("--listen-port", str(port), "--bind-address", "127.0.0.1", "--log-file", ""),
            capture_output=True,
            text=True,
            timeout=20,
        )
    assert busy.returncode == 1 and "cannot listen on 127.0.0.1:" in busy.stderr
    (tmp_path / "kv").mkdir()
    (tmp_path / "kv" / "kvConfig.json").write_text("{broken")
    broken = subprocess.run(
        _command("-c", str(_config(tmp_path)), "--log-file", ""), capture_output=True, text=True, timeout=20
    )
    assert broken.returncode == 1 and "kvConfig.json" in broken.stderr


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_workers_serve_and_stop_with_the_server(tmp_path: Path, sig: int) -> None:
    """``--workers 3``: two worker processes beside the first, all answering on the one port; a
    signal to the server (SIGINT to the whole group, as Ctrl-C sends it) stops them all, cleanly."""
    config = _config(tmp_path)
    proc = subprocess.Popen(
        [*_command("-c", str(config), "--log-file", ""), "--workers", "3"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
        start_new_session=True,
    )
    assert proc.stdout is not None
    proc.stdout.readline()
    m = BOOT.fullmatch(proc.stdout.readline().rstrip("\n"))
    assert m is not None
    port = int(m.group(2))
    workers = children_of(proc.pid)
    try:
        assert len(workers) == 2, workers
        for _ in range(12):  # connections land on any of the three; each passes KV reads on
            (got,) = run(_kv(port, (101, {"namespace": "N", "key": "k"})))
            assert got["code"] == 22 and got["remark"] == "No config item, Namespace: N Key: k"
    finally:
        if sig == signal.SIGINT:
            os.killpg(proc.pid, sig)
        else:
            proc.send_signal(sig)
        _, err = proc.communicate(timeout=20)
    assert proc.returncode == 0, err
    assert err == ""
    assert not any(Path(f"/proc/{pid}").exists() for pid in workers), "no worker outlives the server"
