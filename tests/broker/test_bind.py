"""``broker start`` listens where it is told (``--bind-address`` like ``namesrv start``, or 5.3.3's
``bindAddress`` property; every interface by default), and by default keeps everything it writes under
its working directory, nothing under the home directory."""

from __future__ import annotations

import os
import re
import socket
import subprocess
from pathlib import Path

from mqadmin.localcluster import BROKER_BOOT, free_port, mqadmin_argv
from tests.servers import NameServerProcess


class Broker:
    """``mqadmin broker start`` run in ``work`` with ``HOME`` elsewhere."""

    def __init__(self, work: Path, home: Path, props: dict[str, object], *args: str) -> None:
        work.mkdir(parents=True, exist_ok=True)
        home.mkdir(parents=True, exist_ok=True)
        conf = work / "broker.properties"
        conf.write_text("".join(f"{k}={v}\n" for k, v in props.items()))
        env = {k: v for k, v in os.environ.items() if k != "NAMESRV_ADDR"}
        env["HOME"] = str(home)
        self.proc = subprocess.Popen(
            [*mqadmin_argv(), "broker", "start", "-c", str(conf), *args],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            stdin=subprocess.DEVNULL,
            text=True,
            cwd=work,
            env=env,
        )
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            if BROKER_BOOT.search(line):
                return
        self.proc.wait()
        raise AssertionError(f"broker did not start (exit {self.proc.returncode})")

    def stop(self) -> int:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        if self.proc.stdout is not None:
            self.proc.stdout.close()
        return self.proc.returncode


def answers(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=2):
            return True
    except ConnectionRefusedError:
        return False


def props(namesrv: NameServerProcess, port: int, **more: object) -> dict[str, object]:
    return {
        "brokerName": "bind-broker",
        "brokerIP1": "127.0.0.1",
        "listenPort": port,
        "namesrvAddr": namesrv.addr,
        **more,
    }


def test_bind_address_option_and_property(tmp_path: Path, namesrv: NameServerProcess) -> None:
    port = free_port()
    broker = Broker(tmp_path / "w1", tmp_path / "home", props(namesrv, port), "--bind-address", "127.0.0.1")
    try:
        assert answers("127.0.0.1", port)
        assert not answers("127.0.0.2", port)  # another loopback address: not listened on
    finally:
        assert broker.stop() == 0

    port = free_port("127.0.0.2")
    broker = Broker(tmp_path / "w2", tmp_path / "home", props(namesrv, port, bindAddress="127.0.0.2"))
    try:
        assert answers("127.0.0.2", port)
        assert not answers("127.0.0.1", port)
    finally:
        assert broker.stop() == 0


def test_default_listens_everywhere_and_writes_under_the_working_directory(
    tmp_path: Path, namesrv: NameServerProcess
) -> None:
    home, work = tmp_path / "home", tmp_path / "work"
    port = free_port()
    broker = Broker(work, home, props(namesrv, port))
    try:
        assert answers("127.0.0.1", port) and answers("127.0.0.2", port)
    finally:
        assert broker.stop() == 0
    assert list(home.iterdir()) == []
    store = work / "store"
    assert (store / "checkpoint").is_file() and (store / "config" / "topics.json").is_file()
    log = (store / "logs" / "broker.log").read_text()
    assert "boot success" in log


def test_print_config_shows_the_defaults(tmp_path: Path) -> None:
    out = subprocess.run(
        [*mqadmin_argv(), "broker", "start", "-p"],
        capture_output=True,
        text=True,
        timeout=30,
        cwd=tmp_path,
        env={**os.environ, "HOME": str(tmp_path / "nowhere")},
    )
    assert out.returncode == 0, out.stderr
    values = dict(re.findall(r" - (\w+)=(.*)", out.stdout))
    assert values["storePathRootDir"] == str(tmp_path / "store")
    assert values["bindAddress"] == ""  # null: every interface
    assert not (tmp_path / "nowhere").exists()
