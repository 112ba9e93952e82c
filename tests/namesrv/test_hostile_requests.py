"""Single well-formed but hostile requests against our name server process (issue 11, reproducers 4,
6 and 12): each is refused with a clean answer, and the route tables, the KV store, the files and
every other client are as before, also after the server restarts.

The server runs as ``mqadmin namesrv start`` in its own process, in a work folder of its own (its
working directory) with a home folder of its own, on a port picked at run time and kept across
restarts.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from mqadmin.localcluster import NS_BOOT, free_port, mqadmin_argv
from mqadmin.protocol.bodies.dataversion import DataVersion
from mqadmin.protocol.bodies.register import RegisterBrokerBody
from mqadmin.protocol.bodies.topic import TopicConfig, TopicConfigSerializeWrapper
from mqadmin.protocol.codes import RequestCode, ResponseCode
from mqadmin.protocol.command import SerializeType
from mqadmin.protocol.frame import encode
from tests.cli_harness import run_mqadmin
from tests.namesrv.support import (
    WORKERS,
    Wire,
    register,
    register_body,
    register_request,
    request,
    run,
    topic_config,
)

CLUSTER, BROKER, ADDR = "C", "broker-a", "10.9.0.1:10911"
TOPICS = [topic_config("T1"), topic_config("T2")]
ORDER_NS = "ORDER_TOPIC_CONFIG"


class NameServer:
    """Our name server as a child process in ``workdir`` (its working directory), restartable."""

    def __init__(self, workdir: Path, **props: str) -> None:
        self.workdir = workdir
        self.home = workdir / "home"
        self.home.mkdir(parents=True, exist_ok=True)
        self.port = free_port()
        self.config = workdir / "namesrv.properties"
        lines = {"bindAddress": "127.0.0.1", "listenPort": str(self.port), **props}
        self.config.write_text("".join(f"{k}={v}\n" for k, v in lines.items()))
        self.proc: subprocess.Popen[str] | None = None
        self.start()

    def start(self) -> None:
        env = {k: v for k, v in os.environ.items() if k not in ("NAMESRV_ADDR", "ROCKETMQ_HOME")}
        env["HOME"] = str(self.home)
        with open(self.workdir / "stderr.txt", "a") as err:
            self.proc = subprocess.Popen(
                [
                    *mqadmin_argv(),
                    "namesrv",
                    "start",
                    "-c",
                    str(self.config),
                    "--log-file",
                    "namesrv.log",
                    "--workers",
                    str(WORKERS),
                ],
                cwd=self.workdir,
                env=env,
                stdout=subprocess.PIPE,
                stderr=err,
                stdin=subprocess.DEVNULL,
                text=True,
            )
        assert self.proc.stdout is not None
        for _ in range(2):
            line = self.proc.stdout.readline()
            if NS_BOOT.search(line):
                return
        self.stop()
        raise AssertionError(f"name server did not start: {(self.workdir / 'stderr.txt').read_text()}")

    def stop(self, sig: int = signal.SIGTERM) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(sig)
            self.proc.wait(15)
        if self.proc is not None and self.proc.stdout is not None:
            self.proc.stdout.close()

    def restart(self, sig: int = signal.SIGTERM) -> None:
        self.stop(sig)
        self.start()

    @property
    def addr(self) -> str:
        return f"127.0.0.1:{self.port}"

    @property
    def kv_file(self) -> Path:
        return self.workdir / "namesrv" / "kvConfig.json"


@pytest.fixture
def ns(tmp_path: Path) -> Iterator[NameServer]:
    server = NameServer(tmp_path / "ns")
    try:
        yield server
    finally:
        server.stop()


# ------------------------------------------------------------------------------------- helpers

_opaque = iter(range(70000, 1 << 30))


def raw_frame(code: int, ext: dict[str, str] | None = None, body: bytes = b"", version: int = 479) -> bytes:
    """A request frame whose header JSON is written here, so it can carry what our encoder refuses
    to write (a lone surrogate as a ``\\ud800`` escape)."""
    header: dict[str, Any] = {
        "code": code,
        "flag": 0,
        "language": "JAVA",
        "opaque": next(_opaque),
        "serializeTypeCurrentRPC": "JSON",
        "version": version,
    }
    if ext is not None:
        header["extFields"] = ext
    h = json.dumps(header, separators=(",", ":"), sort_keys=True).encode("ascii")
    return (4 + len(h) + len(body)).to_bytes(4, "big") + len(h).to_bytes(4, "big") + h + body


def registration_ext(body: bytes, **changes: str) -> dict[str, str]:
    ext = {
        "brokerId": "0",
        "clusterName": CLUSTER,
        "brokerAddr": ADDR,
        "haServerAddr": "10.9.0.1:10912",
        "compressed": "false",
        "brokerName": BROKER,
        "bodyCrc32": str(zlib.crc32(body) & 0x7FFFFFFF),
    }
    ext.update(changes)
    return ext


async def snapshot(port: int) -> list[tuple[int, bytes]]:
    """What a fresh client sees: cluster info, topic list, routes, KV, config (code and body each)."""
    w = await Wire.open(port)
    try:
        out = []
        for cmd in (
            request(RequestCode.GET_BROKER_CLUSTER_INFO),
            request(RequestCode.GET_ALL_TOPIC_LIST_FROM_NAMESERVER),
            request(RequestCode.GET_ROUTEINFO_BY_TOPIC, {"topic": "T1"}),
            request(RequestCode.GET_ROUTEINFO_BY_TOPIC, {"topic": "T2"}),
            request(RequestCode.GET_TOPICS_BY_CLUSTER, {"cluster": CLUSTER}),
            request(RequestCode.GET_KVLIST_BY_NAMESPACE, {"namespace": ORDER_NS}),
            request(RequestCode.GET_NAMESRV_CONFIG),
        ):
            reply = await w.call(cmd)
            out.append((reply.code, reply.body))
        return out
    finally:
        await w.close()


def sorted_topics(body: bytes) -> list[str]:
    return sorted(json.loads(body)["topicList"])


# --------------------------------------------------------------------------- reproducer 4: names


def test_registration_with_bad_names_is_refused_and_everyone_keeps_being_served(ns: NameServer) -> None:
    """REGISTER_BROKER with a lone-surrogate cluster name on an open connection (and other names the
    tables cannot hold): refused, the connection stays usable, 106 and 206 answer as before."""
    body = register_body(TOPICS)
    hostile_headers = [
        {"clusterName": "\ud800"},
        {"brokerName": "b\udfff"},
        {"clusterName": "C\x00"},
        {"clusterName": "C\nD"},
        {"brokerName": "../../x"},
        {"brokerName": ".."},
        {"brokerName": " "},
        {"clusterName": "x" * 300},
        {"brokerAddr": "nohostport"},
        {"brokerAddr": "10.9.0.9:99999"},
        {"brokerAddr": "10.9.0.9 :10911"},
        {"haServerAddr": "\x1b[31m:1"},
        {"__ZONE_NAME": "zone\x07"},
    ]
    hostile_bodies = {
        "control character": register_body([topic_config("bad\x01topic")]),
        "path separator": register_body([topic_config("a/b"), *TOPICS]),
        "too long": register_body([topic_config("T" * 400)]),
        "lone surrogate": register_body([topic_config("T1")]).replace(b'"T1"', b'"\\ud800"'),
        # large enough to be applied in slices, between other requests
        "one bad topic among many": register_body(
            [*(topic_config(f"L{i}") for i in range(1500)), topic_config("x/y")]
        ),
    }

    async def body_() -> None:
        broker = await Wire.open(ns.port)
        await register(broker, CLUSTER, BROKER, 0, ADDR, TOPICS)
        before = await snapshot(ns.port)
        hostile = await Wire.open(ns.port)
        for change in hostile_headers:
            reply = await hostile.call(
                raw_frame(RequestCode.REGISTER_BROKER, registration_ext(body, **change), body)
            )
            assert reply.code == ResponseCode.SYSTEM_ERROR, change
            assert reply.header.get("remark"), change
            # the hostile connection is still open and served, and so is everyone else
            assert (await hostile.call(request(RequestCode.GET_BROKER_CLUSTER_INFO))).code == 0
            assert await snapshot(ns.port) == before, change
        for what, raw in hostile_bodies.items():
            reply = await hostile.call(raw_frame(RequestCode.REGISTER_BROKER, registration_ext(raw), raw))
            assert reply.code == ResponseCode.SYSTEM_ERROR, what
            assert (await hostile.call(request(RequestCode.GET_ALL_TOPIC_LIST_FROM_NAMESERVER))).code == 0
            assert await snapshot(ns.port) == before, what
        # the same in a compressed (5.x) body and in a ROCKETMQ binary header with raw surrogate bytes
        table = {"a/b": TopicConfig(topic_name="a/b", read_queue_nums=1, write_queue_nums=1)}
        packed = RegisterBrokerBody(TopicConfigSerializeWrapper(table, DataVersion(1, 1, 0)), []).encode(
            compress=True
        )
        reply = await hostile.call(
            raw_frame(RequestCode.REGISTER_BROKER, registration_ext(packed, compressed="true"), packed)
        )
        assert reply.code == ResponseCode.SYSTEM_ERROR
        await hostile.close()
        # raw surrogate bytes in a ROCKETMQ binary header are not UTF-8: that connection is closed
        hostile = await Wire.open(ns.port)
        binary = register_request("XXX", BROKER, 0, ADDR, body)
        binary.serialize_type = SerializeType.ROCKETMQ
        await hostile.send(encode(binary).replace(b"XXX", b"\xed\xa0\x80"))
        assert await hostile.closed_by_peer()
        await hostile.close()
        assert await snapshot(ns.port) == before
        hostile = await Wire.open(ns.port)
        # unregistering, heartbeats and data version queries with such names change nothing either
        for code in (
            RequestCode.UNREGISTER_BROKER,
            RequestCode.BROKER_HEARTBEAT,
            RequestCode.QUERY_DATA_VERSION,
        ):
            for change in ({"clusterName": "C\x01"}, {"brokerAddr": "x"}, {"brokerName": "a/b"}):
                ext = {
                    "clusterName": CLUSTER,
                    "brokerAddr": ADDR,
                    "brokerName": BROKER,
                    "brokerId": "0",
                    **change,
                }
                reply = await hostile.call(raw_frame(code, ext))
                assert reply.code == ResponseCode.SYSTEM_ERROR, (code, change)
        await hostile.close()
        assert await snapshot(ns.port) == before
        # the broker that registered properly is still there, on its own connection
        info = json.loads(
            (await broker.call(request(RequestCode.GET_BROKER_CLUSTER_INFO))).body.replace(b"{0:", b'{"0":')
        )
        assert info["clusterAddrTable"] == {CLUSTER: [BROKER]}
        await broker.close()

    run(body_())


def test_bad_topics_in_requests(ns: NameServer) -> None:
    """A route query for a topic the tables cannot hold is answered as for an unknown topic; one with
    a lone surrogate is refused to that client alone; topic changes naming one are refused."""

    async def body_() -> None:
        broker = await Wire.open(ns.port)
        await register(broker, CLUSTER, BROKER, 0, ADDR, TOPICS)
        before = await snapshot(ns.port)
        w = await Wire.open(ns.port)
        for topic in ("a\x01b", "a/b", "T" * 500, " ", "Tnl\n"):
            reply = await w.call(request(RequestCode.GET_ROUTEINFO_BY_TOPIC, {"topic": topic}))
            assert reply.code == ResponseCode.TOPIC_NOT_EXIST, topic
            assert reply.header["remark"].startswith(
                f"No topic route info in name server for the topic: {topic}\n"
            )
        reply = await w.call(raw_frame(RequestCode.GET_ROUTEINFO_BY_TOPIC, {"topic": "T\ud800"}))
        assert reply.code == ResponseCode.SYSTEM_ERROR
        route = b'{"queueDatas":[{"brokerName":"broker-a","perm":6,"readQueueNums":1,"writeQueueNums":1}]}'
        for topic in ("a\x01b", "../x", "T" * 500):
            reply = await w.call(request(RequestCode.REGISTER_TOPIC_IN_NAMESRV, {"topic": topic}, route))
            assert reply.code == ResponseCode.SYSTEM_ERROR, topic
            reply = await w.call(request(RequestCode.DELETE_TOPIC_IN_NAMESRV, {"topic": topic}))
            assert reply.code == ResponseCode.SYSTEM_ERROR, topic
        for name in ("a/b", "x\x02", " "):
            for code in (RequestCode.WIPE_WRITE_PERM_OF_BROKER, RequestCode.ADD_WRITE_PERM_OF_BROKER):
                assert (await w.call(request(code, {"brokerName": name}))).code == ResponseCode.SYSTEM_ERROR
        assert (await w.call(request(RequestCode.GET_TOPICS_BY_CLUSTER, {"cluster": "a/b"}))).code == 1
        body = (await w.call(request(RequestCode.GET_ALL_TOPIC_LIST_FROM_NAMESERVER))).body
        assert sorted_topics(body) == ["T1", "T2"]
        assert await snapshot(ns.port) == before
        await w.close()
        await broker.close()

    run(body_())


def test_bad_kv_names_are_refused_and_the_kv_store_keeps_working(ns: NameServer) -> None:
    """A lone-surrogate KV key is refused; later PUT_KV_CONFIG calls work, the file holds only them,
    and so does the server after a restart (and after a kill -9 and a restart)."""

    async def put_and_probe() -> None:
        w = await Wire.open(ns.port)
        ok = {"namespace": ORDER_NS, "key": "T1", "value": "broker-a:4"}
        assert (await w.call(request(RequestCode.PUT_KV_CONFIG, ok))).code == 0
        for ext in (
            {"namespace": ORDER_NS, "key": "\ud800", "value": "v"},
            {"namespace": "\udc00", "key": "k", "value": "v"},
            {"namespace": ORDER_NS, "key": "k", "value": "v\ud800"},
            {"namespace": ORDER_NS, "key": "k\u0000", "value": "v"},
            {"namespace": ORDER_NS, "key": "k" * 5000, "value": "v"},
        ):
            reply = await w.call(raw_frame(RequestCode.PUT_KV_CONFIG, ext))
            assert reply.code == ResponseCode.SYSTEM_ERROR, ext
        for code in (RequestCode.GET_KV_CONFIG, RequestCode.DELETE_KV_CONFIG):
            reply = await w.call(raw_frame(code, {"namespace": ORDER_NS, "key": "\ud800"}))
            assert reply.code == ResponseCode.SYSTEM_ERROR
        later = {"namespace": ORDER_NS, "key": "T2", "value": "broker-a:8"}
        assert (await w.call(request(RequestCode.PUT_KV_CONFIG, later))).code == 0
        reply = await w.call(request(RequestCode.GET_KVLIST_BY_NAMESPACE, {"namespace": ORDER_NS}))
        assert json.loads(reply.body) == {"table": {"T1": "broker-a:4", "T2": "broker-a:8"}}
        await w.close()

    async def read_back() -> dict[str, str]:
        w = await Wire.open(ns.port)
        reply = await w.call(request(RequestCode.GET_KVLIST_BY_NAMESPACE, {"namespace": ORDER_NS}))
        await w.close()
        return dict(json.loads(reply.body)["table"])

    run(put_and_probe())
    expected = {"configTable": {ORDER_NS: {"T1": "broker-a:4", "T2": "broker-a:8"}}}
    assert json.loads(ns.kv_file.read_text()) == expected
    saved = ns.kv_file.read_bytes()
    ns.restart()
    assert run(read_back()) == expected["configTable"][ORDER_NS]
    ns.restart(signal.SIGKILL)
    assert run(read_back()) == expected["configTable"][ORDER_NS]
    assert ns.kv_file.read_bytes() == saved


# ----------------------------------------------------------------- reproducer 6: config updates


def test_config_updates_cannot_smuggle_lines_or_paths(ns: NameServer) -> None:
    """UPDATE_NAMESRV_CONFIG: a value with a line break, a black-listed or path key, a control
    character are refused and change nothing; a valid odd value is persisted escaped and reads back
    identically after a restart."""
    hostile = [
        (b"productEnvName=center\\nkvConfigPath=/elsewhere\n", ResponseCode.SYSTEM_ERROR),
        (b"productEnvName=center\\r\\nconfigBlackList=nothing\n", ResponseCode.SYSTEM_ERROR),
        (b"productEnvName=center\nkvConfigPath=/elsewhere\n", ResponseCode.NO_PERMISSION),
        (b"configBlackList=nothing\n", ResponseCode.NO_PERMISSION),
        (b"configStorePath=/tmp/x\n", ResponseCode.NO_PERMISSION),
        (b"rocketmqHome=/tmp/x\n", ResponseCode.NO_PERMISSION),
        (b"storePathRootDir=/tmp/x\n", ResponseCode.NO_PERMISSION),
        (b"logDir=/tmp/x\n", ResponseCode.NO_PERMISSION),
        # the controller's auth and its switch, addresses: never remotely (Java: only its black list)
        (b"controllerAuth=false\n", ResponseCode.NO_PERMISSION),
        (b"controllerAclFile=/tmp/x.yml\n", ResponseCode.NO_PERMISSION),
        (b"enableControllerInNamesrv=true\n", ResponseCode.NO_PERMISSION),
        (b"listenPort=1\n", ResponseCode.NO_PERMISSION),
        (b"productEnvName=x\nbindAddress=0.0.0.0\n", ResponseCode.NO_PERMISSION),
        (b"productEnvName=a\\u0000b\n", ResponseCode.SYSTEM_ERROR),
        (b"productEnvName=a\\ud800b\n", ResponseCode.SYSTEM_ERROR),
        (b"product\\nEnvName=a\n", ResponseCode.SYSTEM_ERROR),
        (b"productEnvName=\xed\xa0\x80\n", ResponseCode.SYSTEM_ERROR),  # not UTF-8 (an encoded surrogate)
        (b"productEnvName=\xff\xfe\n", ResponseCode.SYSTEM_ERROR),
    ]
    odd = "we=ird: #!value \\ é"

    async def body_() -> list[tuple[int, bytes]]:
        before = await snapshot(ns.port)
        file_before = ns.config.read_bytes()
        w = await Wire.open(ns.port)
        for raw, code in hostile:
            reply = await w.call(request(RequestCode.UPDATE_NAMESRV_CONFIG, None, raw))
            assert reply.code == code, raw
            assert "\n" not in reply.header["remark"]
            assert await snapshot(ns.port) == before, raw
            assert ns.config.read_bytes() == file_before, raw
        from mqadmin.protocol.bodies.properties import properties_store

        update = properties_store({"productEnvName": odd}).encode()
        assert (await w.call(request(RequestCode.UPDATE_NAMESRV_CONFIG, None, update))).code == 0
        await w.close()
        after = await snapshot(ns.port)
        assert f"productEnvName={odd}\n".encode() in after[-1][1]
        return after

    after = run(body_())
    text = ns.config.read_text("ascii")  # escaped: one line per setting, nothing outside ASCII
    assert "productEnvName=we\\=ird\\: \\#\\!value \\\\ \\u00E9\n" in text
    assert not any(
        line.startswith(("kvConfigPath=/elsewhere", "configBlackList=nothing")) for line in text.splitlines()
    )
    ns.restart()
    assert run(snapshot(ns.port)) == after  # every setting reads back as it was written


# ------------------------------------------------------------ reproducer 12: files stay at home


def test_kv_config_defaults_to_the_working_directory(ns: NameServer) -> None:
    """Without kvConfigPath the KV store is ./namesrv/kvConfig.json where the server runs, never under
    the home directory."""

    async def body_() -> str:
        w = await Wire.open(ns.port)
        reply = await w.call(request(RequestCode.PUT_KV_CONFIG, {"namespace": "N", "key": "k", "value": "v"}))
        assert reply.code == 0
        config = (await w.call(request(RequestCode.GET_NAMESRV_CONFIG))).body.decode()
        await w.close()
        return config

    config = run(body_())
    assert f"kvConfigPath={ns.workdir / 'namesrv' / 'kvConfig.json'}\n" in config
    assert json.loads(ns.kv_file.read_text()) == {"configTable": {"N": {"k": "v"}}}
    assert list(ns.home.iterdir()) == []


# --------------------------------------------------------------------------------- the CLI


def test_cli_refuses_bad_names_before_any_request(ns: NameServer, tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("MQADMIN_", "NAMESRV_ADDR"))}
    env["MQADMIN_CONFIG_DIR"] = str(tmp_path / "cfg")
    env["HOME"] = str(tmp_path / "clihome")
    before = run(snapshot(ns.port))
    n = ["-n", ns.addr]
    cases = [
        ["updateKvConfig", *n, "-s", ORDER_NS, "-k", "\udcff", "-v", "v"],
        ["deleteKvConfig", *n, "-s", "\udcfe", "-k", "k"],
        ["wipeWritePerm", *n, "-b", "a/b"],
        ["addWritePerm", *n, "-b", "x\x01"],
        ["topicRoute", *n, "-t", "a\tb"],
        ["topicRoute", *n, "-t", "T" * 400],
        ["updateNamesrvConfig", *n, "-k", "productEnvName", "-v", "a\nkvConfigPath=/elsewhere"],
    ]
    for args in cases:
        r = run_mqadmin(args, env)  # a lone surrogate goes out as the byte it stands for
        assert r.code == 2, (args, r.err)
        assert r.out == "" and r.err.count("\n") == 1 and r.err.startswith(f"mqadmin {args[0]}: "), r.err
    assert run(snapshot(ns.port)) == before
    assert not ns.kv_file.exists()
    log = (ns.workdir / "namesrv.log").read_text()
    assert "refused request" not in log and "updateConfig called" not in log


def test_a_config_file_the_server_could_not_serve_back_is_refused_at_start(tmp_path: Path) -> None:
    """A ``\\uD800`` escape in the ``-c`` file would make GET_NAMESRV_CONFIG unanswerable for everyone."""
    config = tmp_path / "namesrv.properties"
    config.write_text("bindAddress=127.0.0.1\nlistenPort=0\nproductEnvName=a\\uD800\n")
    done = subprocess.run(
        [*mqadmin_argv(), "namesrv", "start", "-c", str(config), "--log-file", ""],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert done.returncode == 1
    assert "the setting 'productEnvName' contains a lone surrogate (U+D800)" in done.stderr
    assert not (tmp_path / "namesrv").exists()
