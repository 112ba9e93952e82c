"""Broker settings (``-c``, ``-n``, ``-p``), GET_BROKER_CONFIG's text, and the REGISTER_BROKER frame,
checked against what the recorded Java broker wrote."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from mqadmin.broker.config import BrokerSettings, Configuration
from mqadmin.broker.registration import Registrar, body_crc32
from mqadmin.broker.startup import StartupError, load_settings
from mqadmin.broker.topics import TopicManager
from mqadmin.protocol import frame
from mqadmin.protocol.bodies.properties import string_to_properties
from mqadmin.protocol.bodies.register import RegisterBrokerBody
from mqadmin.remoting.client import RemotingClient
from tests.broker.peers import MQADMIN
from tests.captures import load_scenario, pairs
from tests.servers import BrokerProcess, free_port


def _captured_config_body() -> bytes:
    for req, resp in pairs("rocketmq-4.9.8/s20_getBrokerConfig"):
        if req.header["code"] == 26 and resp is not None:
            return resp.body
    raise AssertionError("no GET_BROKER_CONFIG in s20")


def test_get_broker_config_text_is_the_java_brokers() -> None:
    """Same settings, same bytes: keys in Java's Properties order, values as Java prints them."""
    captured = _captured_config_body()
    s = BrokerSettings()
    s.apply(string_to_properties(captured))
    assert Configuration(s).format().encode() == captured


def test_load_settings(tmp_path: Path) -> None:
    cfg = tmp_path / "broker.properties"
    cfg.write_text("brokerName=b1\nlistenPort=12345\nbrokerId=7\nmaxMessageSize=oops\ncustomKey=1\n")
    s = load_settings(str(cfg), "127.0.0.1:1;127.0.0.1:2")
    assert (s.broker.broker_name, s.server.listen_port, s.broker.broker_id) == (
        "b1",
        12345,
        0,
    )  # master: id 0
    assert s.store.ha_listen_port == 12346 and s.store.max_message_size == 4 * 1024 * 1024
    assert s.broker.namesrv_list == ["127.0.0.1:1", "127.0.0.1:2"]
    assert "customKey=1\n" in Configuration(s).format()
    with pytest.raises(StartupError, match="illegal"):
        load_settings(None, "no-port")


def test_print_config_items(tmp_path: Path) -> None:
    cfg = tmp_path / "broker.properties"
    cfg.write_text("brokerName=printed\n")
    out = subprocess.run(
        [MQADMIN, "broker", "start", "-c", str(cfg), "-p"], capture_output=True, text=True, timeout=30
    )
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    line = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d INFO main - [A-Za-z0-9]+=.*$")
    assert lines and all(line.match(x) for x in lines), lines[:3]
    names = [x.split(" - ", 1)[1].split("=", 1)[0] for x in lines]
    assert names[:3] == ["rocketmqHome", "namesrvAddr", "brokerIP1"] and "brokerName" in names
    assert names.index("listenPort") < names.index("clientWorkerThreads") < names.index("storePathRootDir")
    assert any(x.endswith(" - brokerName=printed") for x in lines)
    important = subprocess.run([MQADMIN, "broker", "start", "-m"], capture_output=True, text=True, timeout=30)
    assert 30 < len(important.stdout.splitlines()) < len(lines)


def test_register_broker_frame_matches_the_recorded_one(tmp_path: Path) -> None:
    recorded = next(
        f
        for f in load_scenario("rocketmq-4.9.8/r01_brokerRestart")
        if f.dir == "request" and f.header["code"] == 103
    )
    captured = frame.decode(recorded.frame)
    body = RegisterBrokerBody.decode(captured.body or b"")
    ext = captured.ext_fields or {}
    s = BrokerSettings()
    s.broker.broker_ip1 = s.broker.broker_ip2 = "127.0.0.1"
    s.broker.broker_name = ext["brokerName"]
    s.server.listen_port = 10911
    s.store.store_path_root_dir = str(tmp_path)
    s.fix_up()
    topics = TopicManager(s.broker, tmp_path)
    wrapper = body.topic_config_serialize_wrapper
    topics.table = dict(wrapper.topic_config_table or {})
    topics.data_version = wrapper.data_version  # type: ignore[assignment]
    registrar = Registrar(s, topics, RemotingClient())
    ours_body = registrar._body(None)
    assert ours_body == captured.body
    ours = registrar._request(ours_body, oneway=False)
    assert list((ours.ext_fields or {}).items()) == list(ext.items())
    assert int(ext["bodyCrc32"]) == body_crc32(ours_body)
    assert (ours.code, ours.version, ours.language) == (103, 409, "JAVA")


def test_second_broker_on_the_same_store_is_refused(tmp_path: Path) -> None:
    first = BrokerProcess(tmp_path / "a", namesrv="")
    try:
        other = tmp_path / "other.properties"
        other.write_text(f"listenPort={free_port()}\nstorePathRootDir={tmp_path / 'a' / 'store'}\n")
        out = subprocess.run(
            [MQADMIN, "broker", "start", "-c", str(other), "--log-file", ""],
            capture_output=True,
            text=True,
            timeout=30,
        )
        assert out.returncode == 1 and out.stdout == ""
        assert "the message store cannot start" in out.stderr
        assert first.alive
    finally:
        assert first.stop() == 0
