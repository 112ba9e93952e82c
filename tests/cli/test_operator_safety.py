"""Credentials out of argv, malformed addresses as usage errors, the default name server said aloud."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from mqadmin.protocol.acl import sign
from tests.cli.peers import SilentPeer
from tests.cli.tmux import PROMPT, Tmux
from tests.cli_harness import MQADMIN
from tests.servers import NameServerProcess


@pytest.fixture
def env(base_env: dict[str, str], tmp_path: Path) -> dict[str, str]:
    return {
        **base_env,
        "ROCKETMQ_HOME": str(tmp_path / "nohome"),
        "MQADMIN_CONFIG_DIR": str(tmp_path / "cfg"),
    }


@pytest.fixture
def peer() -> Iterator[SilentPeer]:
    p = SilentPeer()
    yield p
    p.stop()


def run(args: list[str], env: dict[str, str], stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([MQADMIN, *args], input=stdin, capture_output=True, text=True, env=env, timeout=30)


def signed_with(peer: SilentPeer, secret: str) -> bool:
    """The first request the peer got carries a signature made with ``secret``."""
    req = peer.requests[0]
    fields = {k: v for k, v in (req.ext_fields or {}).items() if k not in ("AccessKey", "Signature")}
    expected = sign(fields, req.body, req.ext("AccessKey") or "", secret, None)
    return req.ext("Signature") == expected["Signature"]


def test_secret_key_read_from_stdin(env: dict[str, str], peer: SilentPeer) -> None:
    args = ["topicRoute", "-n", peer.addr, "-t", "T", "--timeout", "0.3", "--access-key", "AK"]
    r = run([*args, "--secret-key", "-"], env, stdin="s3cret-from-pipe\n")
    assert r.returncode == 5  # the peer never answers
    assert peer.requests[0].ext("AccessKey") == "AK"
    assert signed_with(peer, "s3cret-from-pipe") and not signed_with(peer, "-")
    empty = run([*args, "--secret-key", "-"], env, stdin="")
    assert empty.returncode == 1 and "no secret key was given on standard input" in empty.stderr
    assert len(peer.requests) == 1  # nothing sent without the key


def test_context_stores_secret_from_stdin(env: dict[str, str], peer: SilentPeer) -> None:
    r = run(
        ["context", "add", "piped", "-n", peer.addr, "--access-key", "CK", "--secret-key", "-"], env, "CS1\n"
    )
    assert r.returncode == 0, r.stderr
    stored = json.loads((Path(env["MQADMIN_CONFIG_DIR"]) / "contexts.json").read_text())
    assert stored["contexts"]["piped"]["secret_key"] == "CS1"
    assert "CS1" not in r.stdout + r.stderr
    run(["topicRoute", "-t", "T", "--timeout", "0.3"], env)
    assert peer.requests[0].ext("AccessKey") == "CK" and signed_with(peer, "CS1")


@pytest.mark.parametrize(
    "args",
    [
        ["clusterList", "-n", "nohost"],
        ["clusterList", "-n", "127.0.0.1:99999"],
        ["topicRoute", "-t", "T", "-n", "127.0.0.1:1;:9876"],
        ["brokerStatus", "-b", "127.0.0.1:port"],
        ["getBrokerConfig", "-b", "10.0.0.1"],
    ],
)
def test_malformed_address_is_a_usage_error(env: dict[str, str], args: list[str]) -> None:
    r = run([*args, "--json"], env)
    assert r.returncode == 2, r.stderr
    assert r.stderr.count("\n") == 1 and "malformed address" in r.stderr
    assert r.stderr.startswith(f"mqadmin {args[0]}: ")
    assert json.loads(r.stdout)["error"]["exitCode"] == 2


def test_malformed_namesrv_addr_variable(env: dict[str, str]) -> None:
    r = run(["clusterList"], {**env, "NAMESRV_ADDR": "ns-without-port"})
    assert r.returncode == 2 and "NAMESRV_ADDR: malformed address 'ns-without-port'" in r.stderr
    assert run(["context", "add", "typo", "-n", "10.0.0.1:98765"], env).returncode == 0
    r = run(["clusterList"], env)
    assert r.returncode == 2 and "context typo: malformed address '10.0.0.1:98765'" in r.stderr


def _port_free(port: int) -> bool:
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def test_default_name_server_is_said_on_stderr(env: dict[str, str], tmp_path: Path) -> None:
    if not _port_free(9876):
        pytest.skip("127.0.0.1:9876 is taken on this machine")
    server = NameServerProcess(tmp_path / "ns", port=9876)
    try:
        r = run(["topicList"], env)
        assert r.returncode == 0, r.stderr
        assert r.stderr == (
            "mqadmin topicList: note: used the default name server 127.0.0.1:9876 "
            "(no -n, NAMESRV_ADDR or context was given)\n"
        )
        assert "note" not in r.stdout
        explicit = run(["topicList", "-n", "127.0.0.1:9876"], env)
        assert explicit.returncode == 0 and explicit.stderr == ""
    finally:
        server.stop()


@pytest.fixture
def terminal(env: dict[str, str], tmp_path: Path) -> Iterator[Tmux]:
    rc = tmp_path / "bashrc"
    rc.write_text(f"PS1='{PROMPT}'\n")
    t = Tmux(["bash", "--noprofile", "--rcfile", str(rc), "-i"], {**env, "PATH": _path()})
    try:
        t.wait_prompt()
        yield t
    finally:
        t.close()


def _path() -> str:
    return f"{Path(MQADMIN).parent}:{os.environ.get('PATH', '/usr/bin:/bin')}"


def _wait(t: Tmux, text: str, times: int = 1, timeout: float = 10) -> str:
    """The screen once ``text`` is on it ``times`` times."""
    deadline = time.monotonic() + timeout
    while (screen := t.screen()).count(text) < times:
        assert time.monotonic() < deadline, f"{text!r} not on the screen:\n{screen}"
        time.sleep(0.1)
    return screen


def test_secret_key_prompt_on_a_terminal(terminal: Tmux, peer: SilentPeer, env: dict[str, str]) -> None:
    """On a terminal, '-' asks for the key without echoing it; 'context add' with only an access key asks
    too, and the context then signs with what was typed."""
    terminal.send(
        "-l", f"mqadmin topicRoute -n {peer.addr} -t T --timeout 0.3 --access-key AK --secret-key -"
    )
    terminal.send("Enter")
    _wait(terminal, "secret key:")
    terminal.send("-l", "typed-secret-1")
    terminal.send("Enter")
    _wait(terminal, PROMPT.strip(), times=2)  # the command ended
    screen = _wait(terminal, "mqadmin topicRoute: no response")
    assert "typed-secret-1" not in screen  # not echoed
    assert signed_with(peer, "typed-secret-1")

    terminal.send("-l", f"mqadmin context add tty -n {peer.addr} --access-key TK")
    terminal.send("Enter")
    _wait(terminal, "secret key:", times=2)
    terminal.send("-l", "typed-secret-2")
    terminal.send("Enter")
    screen = _wait(terminal, "context tty saved")
    assert "typed-secret-2" not in screen
    stored = json.loads((Path(env["MQADMIN_CONFIG_DIR"]) / "contexts.json").read_text())
    ctx = stored["contexts"]["tty"]
    assert (ctx["access_key"], ctx["secret_key"], ctx["namesrv"]) == ("TK", "typed-secret-2", peer.addr)
