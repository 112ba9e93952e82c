"""``exportMetrics --listen --web-config FILE``: basic auth and TLS in exporter-toolkit's format.

Against our name server and broker as processes, with the real ``mqadmin exportMetrics`` as a
subprocess: without credentials or with a wrong password a scrape is 401 (with ``WWW-Authenticate``),
with the right one 200 and the page; a crowd of wrong passwords (each a bcrypt hash to check) does not
hold up a scraper whose credentials were already checked; TLS with a self-signed certificate made here
by ``openssl`` serves the page over HTTPS, and a plain-HTTP request on that port gets no page while the
HTTPS scraper is still served; a file with a key we do not implement, or a password that is not a
bcrypt hash, stops the command at start with a message naming the key.
"""

from __future__ import annotations

import base64
import shutil
import signal
import ssl
import subprocess
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from mqadmin.localcluster import free_port
from tests.cli_harness import MQADMIN, clean_env, run_mqadmin
from tests.servers import BrokerProcess, NameServerProcess

bcrypt = pytest.importorskip("bcrypt")

USER = "prometheus"
PASSWORD = "s3cret pass"


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    home = tmp_path / "home"
    (home / "conf").mkdir(parents=True)
    return clean_env(home, tmp_path / "config")


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[tuple[NameServerProcess, BrokerProcess]]:
    ns = NameServerProcess(tmp_path / "ns")
    broker = BrokerProcess(tmp_path / "b", ns.addr)
    try:
        yield ns, broker
    finally:
        broker.stop()
        ns.stop()


class Exporter:
    def __init__(self, namesrv: str, env: dict[str, str], *extra: str) -> None:
        self.port = free_port()
        argv = [MQADMIN, "exportMetrics", "-n", namesrv, "--listen", f"127.0.0.1:{self.port}", *extra]
        self.proc = subprocess.Popen(argv, env=env, stderr=subprocess.PIPE, text=True)
        assert self.proc.stderr is not None
        self.banner = self.proc.stderr.readline()
        assert "serving" in self.banner, self.banner

    def stop(self) -> None:
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def get(
    url: str, user: str | None = None, password: str | None = None, context: ssl.SSLContext | None = None
) -> tuple[int, dict[str, str], str]:
    req = urllib.request.Request(url)
    if user is not None:
        token = base64.b64encode(f"{user}:{password}".encode()).decode()
        req.add_header("Authorization", f"Basic {token}")
    try:
        with urllib.request.urlopen(req, timeout=20, context=context) as r:
            return r.status, dict(r.headers), r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, dict(e.headers), e.read().decode()


def write_config(path: Path, text: str) -> str:
    path.write_text(text)
    return str(path)


def users_block(rounds: int = 4) -> str:
    hashed = bcrypt.hashpw(PASSWORD.encode(), bcrypt.gensalt(rounds=rounds)).decode()
    return f"basic_auth_users:\n  {USER}: '{hashed}'\n"


def test_basic_auth_wrong_password_401_right_one_200(
    tmp_path: Path, env: dict[str, str], cluster: tuple[NameServerProcess, BrokerProcess]
) -> None:
    ns, broker = cluster
    config = write_config(tmp_path / "web.yml", users_block(rounds=10))  # cost 10: a real check's cost
    exporter = Exporter(ns.addr, env, "--web-config", config)
    url = f"http://127.0.0.1:{exporter.port}/metrics"
    try:
        status, headers, _ = get(url)
        assert status == 401 and headers.get("WWW-Authenticate", "").startswith("Basic")
        assert get(url, USER, "wrong")[0] == 401
        assert get(url, "nobody", PASSWORD)[0] == 401
        assert get(f"http://127.0.0.1:{exporter.port}/-/healthy", USER, "wrong")[0] == 401
        status, _, body = get(url, USER, PASSWORD)
        assert status == 200 and f'rocketmq_broker_up{{addr="{broker.addr}"' in body

        # hostile: a crowd of wrong passwords, each a bcrypt check; the checked scraper still gets in
        codes: list[int] = []

        def wrong(i: int) -> None:
            codes.append(get(url, USER, f"guess-{i}")[0])

        crowd = [threading.Thread(target=wrong, args=(i,)) for i in range(40)]
        for t in crowd:
            t.start()
        time.sleep(0.1)
        started = time.monotonic()
        status, _, body = get(url, USER, PASSWORD)
        took = time.monotonic() - started
        for t in crowd:
            t.join(30)
        assert status == 200 and "rocketmq_broker_up" in body
        assert took < 1.0, took
        assert codes == [401] * 40
    finally:
        exporter.stop()


def make_cert(directory: Path) -> tuple[Path, Path]:
    openssl = shutil.which("openssl")
    if openssl is None:
        pytest.skip("openssl not installed")
    cert, key = directory / "server.crt", directory / "server.key"
    subprocess.run(
        [
            openssl, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
            "-keyout", str(key), "-out", str(cert), "-subj", "/CN=localhost",
            "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost",
        ],
        check=True,
        capture_output=True,
    )  # fmt: skip
    return cert, key


def test_tls_scrape_with_a_self_signed_certificate(
    tmp_path: Path, env: dict[str, str], cluster: tuple[NameServerProcess, BrokerProcess]
) -> None:
    ns, broker = cluster
    conf = tmp_path / "conf"
    conf.mkdir()
    cert, _ = make_cert(conf)
    text = "tls_server_config:\n  cert_file: server.crt\n  key_file: server.key\n" + users_block()
    config = write_config(conf / "web.yml", text)  # paths relative to the file's directory
    exporter = Exporter(ns.addr, env, "--web-config", config)
    trust = ssl.create_default_context(cafile=str(cert))
    url = f"https://127.0.0.1:{exporter.port}/metrics"
    try:
        assert "https://" in exporter.banner
        status, _, body = get(url, USER, PASSWORD, context=trust)
        assert status == 200 and f'rocketmq_broker_up{{addr="{broker.addr}"' in body
        assert get(url, USER, "wrong", context=trust)[0] == 401
        with pytest.raises(urllib.error.URLError) as refused:  # the client does not trust it otherwise
            get(url, USER, PASSWORD, context=ssl.create_default_context())
        assert isinstance(refused.value.reason, ssl.SSLCertVerificationError)
        # hostile: plain HTTP on the TLS port gets no page, and the HTTPS scraper is still served
        with pytest.raises((urllib.error.URLError, ConnectionError, OSError)):
            get(f"http://127.0.0.1:{exporter.port}/metrics", USER, PASSWORD)
        started = time.monotonic()
        assert get(url, USER, PASSWORD, context=trust)[0] == 200
        assert time.monotonic() - started < 1.0
    finally:
        exporter.stop()


@pytest.mark.parametrize(
    ("text", "named"),
    [
        (
            "tls_server_config:\n  cert_file: a.crt\n  key_file: a.key\n  cipher_suites: [X]\n",
            "cipher_suites",
        ),
        ("tls_server_config:\n  cert_file: a.crt\n", "key_file"),
        (f"basic_auth_users:\n  {USER}: plaintext\n", "not a bcrypt hash"),
        ("rate_limit:\n  interval: 1s\n", "rate_limit"),
    ],
)
def test_a_web_config_we_cannot_honour_stops_the_command(
    tmp_path: Path, env: dict[str, str], text: str, named: str
) -> None:
    config = write_config(tmp_path / "web.yml", text)
    args = [
        "exportMetrics",
        "-n",
        "127.0.0.1:1",
        "--listen",
        f"127.0.0.1:{free_port()}",
        "--web-config",
        config,
    ]
    r = run_mqadmin(args, env, timeout=30)
    assert r.code != 0 and named in r.err and "Traceback" not in r.err, r.err
