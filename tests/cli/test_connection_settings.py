"""Where the name server address and the credentials come from: flags, environment, contexts, tools.yml."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

from mqadmin.localcluster import free_port
from mqadmin.protocol import frame
from mqadmin.protocol.header import encode_json_header
from tests.captures import load_scenario
from tests.cli.peers import SilentPeer
from tests.servers import NameServerProcess


@pytest.fixture
def env(base_env: dict[str, str], tmp_path: Path) -> dict[str, str]:
    return {**base_env, "MQADMIN_CONFIG_DIR": str(tmp_path / "config")}


@pytest.fixture
def peer() -> Iterator[SilentPeer]:
    p = SilentPeer()
    yield p
    p.stop()


def dead() -> str:
    return f"127.0.0.1:{free_port()}"


def test_context_lifecycle(mqadmin, env: dict[str, str], namesrv: NameServerProcess) -> None:  # type: ignore[no-untyped-def]
    r = mqadmin("context", "add", "local", "-n", namesrv.addr, "--description", "our name server", env=env)
    assert r.code == 0 and "(current)" in r.out
    assert (
        mqadmin(
            "context", "add", "other", "-n", dead(), "--access-key", "AK", "--secret-key", "SK", env=env
        ).code
        == 0
    )
    assert mqadmin("context", "add", "local", "-n", "x:1", env=env).code == 1  # exists
    listing = mqadmin("context", "list", env=env).out.splitlines()
    assert listing[1].startswith("* local") and listing[2].startswith("  other")
    assert mqadmin("context", "list", "-q", env=env).out == "local\nother\n"
    shown = json.loads(mqadmin("context", "show", "other", "--json", env=env).out)
    assert shown["secret_key"] == "***" and shown["access_key"] == "AK" and shown["current"] is False
    # the global --json / --output work for context too, given before the command
    assert json.loads(mqadmin("--json", "context", "show", "other", env=env).out) == shown
    listed = json.loads(mqadmin("--output", "json", "context", "list", env=env).out)
    assert [c["name"] for c in listed] == ["local", "other"]
    assert yaml.safe_load(mqadmin("--output", "yaml", "context", "show", "other", env=env).out) == shown
    assert mqadmin("topicList", env=env).code == 0  # the current context's name server
    assert mqadmin("topicList", "--context", "other", env=env).code == 4
    assert mqadmin("context", "use", "other", env=env).code == 0
    assert mqadmin("topicList", env=env).code == 4
    assert mqadmin("topicList", env={**env, "MQADMIN_CONTEXT": "local"}).code == 0
    assert mqadmin("--context", "local", "topicList", env=env).code == 0  # before the command too
    assert mqadmin("context", "remove", "other", env=env).code == 0
    assert mqadmin("context", "list", "-q", env=env).out == "local\n"
    r = mqadmin("topicList", "--context", "nope", env=env)
    assert r.code == 1 and "no context named 'nope'" in r.err


def test_namesrv_precedence(mqadmin, env: dict[str, str], namesrv: NameServerProcess) -> None:  # type: ignore[no-untyped-def]
    mqadmin("context", "add", "bad", "-n", dead(), "--use", env=env)
    mqadmin("context", "add", "good", "-n", namesrv.addr, env=env)
    # -n beats everything
    assert (
        mqadmin("topicList", "-n", namesrv.addr, "--context", "bad", env={**env, "NAMESRV_ADDR": dead()}).code
        == 0
    )
    # NAMESRV_ADDR beats the current context
    assert mqadmin("topicList", env={**env, "NAMESRV_ADDR": namesrv.addr}).code == 0
    # an explicit --context beats NAMESRV_ADDR
    assert mqadmin("topicList", "--context", "good", env={**env, "NAMESRV_ADDR": dead()}).code == 0
    # commas and semicolons, blanks ignored; the dead one is skipped
    assert mqadmin("topicList", "-n", f" {dead()} , {namesrv.addr};", env=env).code == 0


def _sent(peer: SilentPeer) -> dict[str, str]:
    assert peer.requests, "nothing reached the peer"
    return dict(peer.requests[0].ext_fields or {})


def test_tools_yml_signs_like_java(mqadmin, peer: SilentPeer) -> None:  # type: ignore[no-untyped-def]
    """With the distribution's tools.yml our route request is the Java 5.3.3 tool's, byte for byte."""
    r = mqadmin("topicRoute", "-n", peer.addr, "-t", "GoldenTopic", "--timeout", "0.3")
    assert r.code == 5
    java = next(
        f
        for f in load_scenario("rocketmq-5.3.3/v02_topicRoute")
        if f.dir == "request" and f.header["code"] == 105
    )
    ours = peer.requests[0]
    ours.opaque = java.header["opaque"]
    assert encode_json_header(ours).decode() == java.header_raw
    assert frame.encode(ours) == java.frame


def test_credentials_sources(mqadmin, base_env: dict[str, str], tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    def access_key(*args: str, env: dict[str, str]) -> str | None:
        p = SilentPeer()
        try:
            mqadmin("topicRoute", "-n", p.addr, "-t", "T", "--timeout", "0.3", *args, env=env)
            return _sent(p).get("AccessKey")
        finally:
            p.stop()

    no_home = {"ROCKETMQ_HOME": str(tmp_path / "nowhere"), "MQADMIN_CONFIG_DIR": str(tmp_path / "cfg")}
    assert access_key(env=no_home) is None
    assert access_key(env={}) == "rocketmq2"  # tools.yml of the test ROCKETMQ_HOME
    assert access_key("--access-key", "AK", "--secret-key", "SK", env={}) == "AK"
    assert access_key(env={**no_home, "MQADMIN_ACCESS_KEY": "EK", "MQADMIN_SECRET_KEY": "ES"}) == "EK"
    mqadmin(
        "context", "add", "c", "-n", "127.0.0.1:1", "--access-key", "CK", "--secret-key", "CS", env=no_home
    )
    # the current context's keys never go to an address outside it (-n here) ...
    assert access_key(env=no_home) is None
    # naming the context applies them on purpose
    assert access_key("--context", "c", env=no_home) == "CK"
    # nor do they go to NAMESRV_ADDR's name server; they do go to the context's own
    p = SilentPeer()
    try:
        mqadmin("topicRoute", "-t", "T", "--timeout", "0.3", env={**no_home, "NAMESRV_ADDR": p.addr})
        assert _sent(p).get("AccessKey") is None
        mqadmin("context", "add", "own", "-n", p.addr, "--access-key", "OK", "--secret-key", "OS",
                "--use", env=no_home)  # fmt: skip
        mqadmin("topicRoute", "-t", "T", "--timeout", "0.3", env=no_home)
        assert [r.ext("AccessKey") for r in p.requests] == [None, "OK"]
    finally:
        p.stop()
    r = mqadmin("topicRoute", "-n", "127.0.0.1:1", "-t", "T", "--access-key", "AK", env={})
    assert r.code == 1 and "give both" in r.err
