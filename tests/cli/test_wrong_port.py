"""A wrong address is named for what answers there, over real sockets: our broker given as the name
server, our name server given as a broker, a real HTTP server (``http.server``), a TLS listener
(``ssl``) and a closed port; and a timeout says which limit applied.
"""

from __future__ import annotations

import http.server
import os
import signal
import socket
import ssl
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.broker.peers import create_topic
from tests.cli_harness import Result, clean_env, run_mqadmin
from tests.servers import Cluster


class _QuietHandler(http.server.BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        self.send_response(200)
        self.end_headers()
        self.wfile.write(b"ok\n")

    def log_message(self, format: str, *args: object) -> None:
        pass


_OPENSSL = ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]


class TlsListener:
    """Accepts TLS connections with a throw-away certificate and reads what comes."""

    def __init__(self, tmp: Path) -> None:
        cert, key = tmp / "cert.pem", tmp / "key.pem"
        subprocess.run(
            [*_OPENSSL, "-keyout", str(key), "-out", str(cert), "-days", "1", "-subj", "/CN=127.0.0.1"],
            check=True,
            capture_output=True,
        )
        self.ctx = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        self.ctx.load_cert_chain(cert, key)
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.addr = f"127.0.0.1:{self.sock.getsockname()[1]}"
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            threading.Thread(target=self._one, args=(conn,), daemon=True).start()

    def _one(self, conn: socket.socket) -> None:
        try:
            with self.ctx.wrap_socket(conn, server_side=True) as tls:
                tls.recv(64)
        except (OSError, ssl.SSLError):
            conn.close()

    def close(self) -> None:
        self.sock.close()


class Ports:
    def __init__(self, root: Path) -> None:
        self.our = Cluster(root / "cluster")
        self.env = clean_env(root / "home", root / "cfg")
        self.http = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _QuietHandler)
        threading.Thread(target=self.http.serve_forever, daemon=True).start()
        self.http_addr = f"127.0.0.1:{self.http.server_address[1]}"
        self.tls = TlsListener(root)
        with socket.socket() as s:  # a port that was free a moment ago: nothing listens there
            s.bind(("127.0.0.1", 0))
            self.closed = f"127.0.0.1:{s.getsockname()[1]}"

    def run(self, *args: str) -> Result:
        return run_mqadmin(list(args), self.env, timeout=60)

    def stop(self) -> None:
        self.http.shutdown()
        self.tls.close()
        self.our.stop()


@pytest.fixture(scope="module")
def ports(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Ports]:
    p = Ports(tmp_path_factory.mktemp("wrong-port"))
    try:
        yield p
    finally:
        p.stop()


def one_line(r: Result) -> str:
    lines = r.err.splitlines()
    assert len(lines) == 1, r.err
    return lines[0]


def test_a_broker_given_as_the_name_server(ports: Ports) -> None:
    b = ports.our.broker.addr
    for args in (["topicRoute", "-t", "TBW102"], ["clusterList"]):
        r = ports.run(*args, "-n", b)
        assert r.code == 3 and r.out == ""
        assert one_line(r) == (
            f"mqadmin {args[0]}: {b} is a broker, not a name server; check -n, NAMESRV_ADDR or the context"
        )
        assert "does not support" not in r.err


def test_a_name_server_given_as_a_broker(ports: Ports) -> None:
    ns = ports.our.ns.addr
    assert ports.run("topicRoute", "-t", "TBW102", "-n", ns).code == 0  # the right port works
    r = ports.run("brokerStatus", "-b", ns, "-n", ns)
    assert r.code == 3
    assert one_line(r).startswith(f"mqadmin brokerStatus: {ns} is a name server, not a broker")


def test_an_http_server(ports: Ports) -> None:
    h = ports.http_addr
    started = time.monotonic()
    r = ports.run("topicRoute", "-t", "T", "-n", h, "--timeout", "1")
    assert time.monotonic() - started < 10
    assert r.code == 5  # http.server waits for the end of a line: the request times out
    assert one_line(r) == (
        f"mqadmin topicRoute: {h} is an HTTP server, not a name server; check -n, NAMESRV_ADDR or the context"
    )
    assert "1213486164" not in r.err
    r = ports.run("brokerStatus", "-b", h, "-n", ports.our.ns.addr, "--timeout", "1")
    assert one_line(r) == f"mqadmin brokerStatus: {h} is an HTTP server, not a broker"


def test_a_tls_server(ports: Ports) -> None:
    t = ports.tls.addr
    r = ports.run("clusterList", "-n", t, "--timeout", "2")
    assert r.code == 4
    line = f"mqadmin clusterList: {t} is a TLS server, not a plain name server: "
    assert one_line(r).startswith(line + "add --tls, or give its plain port")


def test_a_closed_port(ports: Ports) -> None:
    c = ports.closed
    r = ports.run("topicRoute", "-t", "T", "-n", c)
    assert r.code == 4
    assert one_line(r).startswith(
        f"mqadmin topicRoute: connect to {c} failed: Connection refused ({c} is a closed port: nothing "
        "listens there); is the name server running there?"
    )
    r = ports.run("brokerStatus", "-b", c, "-n", ports.our.ns.addr)
    assert one_line(r) == (
        f"mqadmin brokerStatus: connect to {c} failed: Connection refused ({c} is a closed port: nothing "
        "listens there); is the broker running there?"
    )


def test_json_names_what_answered(ports: Ports) -> None:
    import json

    r = ports.run("topicRoute", "-t", "T", "-n", ports.our.broker.addr, "--json")
    assert json.loads(r.out)["error"]["answeredBy"] == "broker"


def test_a_timeout_names_the_limit_that_applied(ports: Ports) -> None:
    """consumerProgress -g asks consume stats with three times --timeout, as Java: the line says so."""
    ns, broker = ports.our.ns.addr, ports.our.broker
    assert create_topic(broker.addr, "Slow").code == 0
    assert ports.run("updateSubGroup", "-c", "DefaultCluster", "-g", "SlowG", "-n", ns).code == 0
    assert broker.proc is not None
    os.kill(broker.proc.pid, signal.SIGSTOP)
    try:
        r = ports.run("consumerProgress", "-g", "SlowG", "--timeout", "1", "-n", ns)
    finally:
        os.kill(broker.proc.pid, signal.SIGCONT)
    assert r.code == 5
    assert one_line(r) == (
        f"mqadmin consumerProgress: no response from {broker.addr} to GET_CONSUME_STATS (208) within 3 s; "
        "the server may be overloaded or the address wrong; this request waits 3 times --timeout (1 s), "
        "as the Java tool's does"
    )
