"""Our servers under a crowd: out of file descriptors, and peers that hold partial frames.

Real processes on loopback. A name server or broker under a low RLIMIT_NOFILE, given more connections
than it can take, keeps answering on the connection it already had, stays idle and nearly silent
(asyncio's own accept loop spun at 40-80 % CPU writing megabytes of tracebacks a second), and accepts
again once the crowd leaves. Peers that each send half of a 15 MiB frame and stall cannot make a
server hold more than its partial-frame budget (64 MiB): the connections holding the most are
closed, the others go on.
"""

from __future__ import annotations

import os
import re
import select
import socket
import struct
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from mqadmin.protocol.codes import RequestCode, ResponseCode
from mqadmin.protocol.command import RemotingCommand
from mqadmin.protocol.frame import MAX_FRAME, decode, encode
from mqadmin.remoting.limits import DEFAULT_PARTIAL_FRAME_BUDGET
from tests.servers import BrokerProcess, NameServerProcess

NOFILE = 256
FLOOD = 400  # connections beyond what NOFILE allows
LIMITED_SERVER = str(Path(__file__).with_name("limited_server.py"))
_TICK = os.sysconf("SC_CLK_TCK")


class Watched:
    """A server process whose stderr is read (and counted) as it comes, and whose CPU time is read."""

    def __init__(self, proc: subprocess.Popen[str], stderr_file: Path | None = None) -> None:
        self.proc = proc
        self._lines: list[str] = []
        self._file = stderr_file  # a server of LocalCluster writes its stderr to a file
        self._start = stderr_file.stat().st_size if stderr_file is not None else 0
        if stderr_file is None:
            assert proc.stderr is not None
            stream = proc.stderr
            self._reader = threading.Thread(target=lambda: self._lines.extend(stream), daemon=True)
            self._reader.start()

    @property
    def lines(self) -> list[str]:
        """stderr lines written since watching began."""
        if self._file is None:
            return self._lines
        with open(self._file, "rb") as f:
            f.seek(self._start)
            return f.read().decode(errors="replace").splitlines(keepends=True)

    def cpu_seconds(self) -> float:
        """User plus system time so far, from /proc/PID/stat."""
        with open(f"/proc/{self.proc.pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / _TICK

    def rss_bytes(self) -> int:
        with open(f"/proc/{self.proc.pid}/status") as f:
            m = re.search(r"VmRSS:\s+(\d+) kB", f.read())
        assert m
        return int(m.group(1)) * 1024


def ask(sock: socket.socket, cmd: RemotingCommand, timeout: float = 1.0) -> RemotingCommand:
    """One request on a raw socket; the response, which must come within ``timeout``."""
    sock.settimeout(timeout)
    sock.sendall(encode(cmd))
    head = _read(sock, 4)
    (total,) = struct.unpack(">i", head)
    return decode(head + _read(sock, total))


def _read(sock: socket.socket, n: int) -> bytes:
    out = b""
    while len(out) < n:
        chunk = sock.recv(n - len(out))
        if not chunk:
            raise ConnectionError("closed by the server")
        out += chunk
    return out


def connect(port: int) -> socket.socket:
    return socket.create_connection(("127.0.0.1", port), timeout=2)


# ------------------------------------------------------------------------------ servers


def start(
    kind: str, workdir: Path, namesrv: str, nofile: int | None
) -> tuple[NameServerProcess | BrokerProcess, int, RemotingCommand]:
    """The server process, its port, and a request it answers with SUCCESS."""
    if kind == "namesrv":
        # one process: the limits and the CPU watched are those of the process serving every connection
        ns = NameServerProcess(workdir, args=("--workers", "1"), nofile=nofile)
        return ns, ns.port, RemotingCommand.request(RequestCode.GET_BROKER_CLUSTER_INFO)
    broker = BrokerProcess(workdir, namesrv, nofile=nofile, brokerName="limits-broker")
    return broker, broker.port, RemotingCommand.request(RequestCode.GET_BROKER_RUNTIME_INFO)


# ------------------------------------------------------------------------------ file descriptors


@pytest.mark.parametrize("kind", ["namesrv", "broker"])
def test_out_of_descriptors_the_server_keeps_serving_quietly(
    tmp_path: Path, namesrv: NameServerProcess, kind: str
) -> None:
    server, port, probe = start(kind, tmp_path / kind, namesrv.addr, NOFILE)
    assert server.proc is not None
    watched = Watched(server.proc, server.stderr_path)
    keeper = connect(port)
    flood: list[socket.socket] = []
    try:
        assert ask(keeper, probe).code == ResponseCode.SUCCESS
        for _ in range(FLOOD):
            flood.append(connect(port))
        time.sleep(0.3)  # the server has seen the crowd

        started = time.monotonic()
        assert ask(keeper, probe).code == ResponseCode.SUCCESS
        assert time.monotonic() - started < 1.0

        cpu_before = watched.cpu_seconds()
        time.sleep(2.0)
        assert watched.cpu_seconds() - cpu_before < 0.3  # under 15 % of one core; it spun at 40-80 %
        assert ask(keeper, probe).code == ResponseCode.SUCCESS
        # the excess was turned away at once, said once, not once per connection
        assert len(watched.lines) < 50, watched.lines[:5]
        refusals = [line for line in watched.lines if "refusing connections" in line]
        assert 1 <= len(refusals) <= 2, watched.lines[:5]
        turned_away = sum(1 for s in flood if _closed_by_server(s))
        assert turned_away >= FLOOD + 1 - NOFILE + 32, turned_away
    finally:
        for s in flood:
            s.close()
    time.sleep(0.3)
    fresh = connect(port)
    try:
        assert ask(fresh, probe).code == ResponseCode.SUCCESS  # accepted again
        assert ask(keeper, probe).code == ResponseCode.SUCCESS
    finally:
        fresh.close()
        keeper.close()
        assert server.stop() == 0


def _closed_by_server(sock: socket.socket) -> bool:
    """Whether the server closed this connection (it is readable with nothing to read)."""
    readable, _, _ = select.select([sock], [], [], 0)
    if not readable:
        return False
    try:
        return sock.recv(1) == b""
    except ConnectionError:
        return True


def test_accept_backs_off_when_the_process_has_no_descriptor_left(tmp_path: Path) -> None:
    """Without the connection cap (a process whose descriptors went elsewhere), accept() fails with
    EMFILE: the server stops accepting for a moment, logs it once, and serves the open connections."""

    def limit() -> None:
        import resource

        resource.setrlimit(resource.RLIMIT_NOFILE, (64, 64))

    proc = subprocess.Popen(
        [sys.executable, LIMITED_SERVER],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        text=True,
        preexec_fn=limit,
        cwd=tmp_path,
    )
    try:
        assert proc.stdout is not None
        port = int(proc.stdout.readline())
        watched = Watched(proc)
        probe = RemotingCommand.request(1)
        keeper = connect(port)
        assert ask(keeper, probe).code == ResponseCode.SUCCESS
        flood = [connect(port) for _ in range(150)]  # the rest wait in the listen backlog
        time.sleep(0.3)
        cpu_before = watched.cpu_seconds()
        time.sleep(2.0)
        assert watched.cpu_seconds() - cpu_before < 0.3
        started = time.monotonic()
        assert ask(keeper, probe).code == ResponseCode.SUCCESS
        assert time.monotonic() - started < 1.0
        out_of = [line for line in watched.lines if "out of resources (Too many open files)" in line]
        assert 1 <= len(out_of) <= 2 and len(watched.lines) < 10, watched.lines[:5]
        for s in flood:
            s.close()
        time.sleep(0.5)
        fresh = connect(port)
        assert ask(fresh, probe).code == ResponseCode.SUCCESS
        assert any("accepting connections again" in line for line in watched.lines)
        fresh.close()
        keeper.close()
    finally:
        proc.kill()
        proc.wait()
        for pipe in (proc.stdout, proc.stderr):
            if pipe is not None:
                pipe.close()


# ------------------------------------------------------------------------------ partial frames

STALLERS = 24
FRAME = MAX_FRAME - 1024 * 1024  # 15 MiB


@pytest.mark.parametrize("kind", ["namesrv", "broker"])
def test_partial_frames_are_capped_in_total(tmp_path: Path, namesrv: NameServerProcess, kind: str) -> None:
    server, port, probe = start(kind, tmp_path / kind, namesrv.addr, None)
    assert server.proc is not None
    watched = Watched(server.proc, server.stderr_path)
    unknown = 29999  # no such request code: the answer to a whole frame is REQUEST_CODE_NOT_SUPPORTED
    frame = encode(RemotingCommand.request(unknown, body=b"\x00" * (FRAME - 64)))
    half = len(frame) // 2
    normal = connect(port)
    stallers: list[socket.socket] = []
    try:
        rss_before = watched.rss_bytes()
        for _ in range(STALLERS):
            s = connect(port)
            stallers.append(s)
            try:
                s.sendall(frame[:half])
            except OSError:  # closed while sending: it held the most
                pass
        time.sleep(0.5)
        assert ask(normal, probe).code == ResponseCode.SUCCESS  # other clients are not affected
        growth = watched.rss_bytes() - rss_before
        # without the budget the server held 24 x 7.5 MiB = 180 MiB here
        assert growth < DEFAULT_PARTIAL_FRAME_BUDGET + 48 * 1024 * 1024, growth
        closed = [s for s in stallers if _closed_by_server(s)]
        alive = [s for s in stallers if s not in closed]
        kept = DEFAULT_PARTIAL_FRAME_BUDGET // half
        assert len(alive) == kept, (len(alive), kept)
        # a connection left alone finishes its frame and gets the answer, once there is room for it
        for s in alive[1:]:
            s.close()
        time.sleep(0.2)
        alive[0].settimeout(5)
        alive[0].sendall(frame[half:])
        head = _read(alive[0], 4)
        resp = decode(head + _read(alive[0], struct.unpack(">i", head)[0]))
        assert resp.code == ResponseCode.REQUEST_CODE_NOT_SUPPORTED
        budget_lines = [line for line in watched.lines if "byte budget" in line]
        assert 1 <= len(budget_lines) <= 2 and len(watched.lines) < 50, watched.lines[:5]
        assert ask(normal, probe).code == ResponseCode.SUCCESS
    finally:
        for s in stallers:
            s.close()
        normal.close()
        assert server.stop() == 0
