"""``--output yaml`` reads back as exactly what ``--json`` prints, for strings YAML could take for
something else; ``--json`` never writes NaN or Infinity (which no JSON parser reads)."""

from __future__ import annotations

import json
import math
import time
from collections.abc import Iterator

import pytest
import yaml

from mqadmin.cli.output import finite
from mqadmin.cli.yamlout import dump_yaml
from mqadmin.protocol.command import RemotingCommand
from tests.broker.peers import call, create_topic
from tests.cli_harness import clean_env, run_mqadmin
from tests.servers import Cluster

TRICKY = [
    ".5", "-.5", "+.5", "5.", ".inf", "-.inf", ".Inf", ".NaN", ".nan", "inf", "nan", "NaN",
    "yes", "no", "Yes", "NO", "y", "n", "Y", "N", "on", "off", "ON", "Off",
    "true", "false", "True", "FALSE", "null", "Null", "NULL", "~", "",
    "0x1", "0o17", "017", "0b101", "1e3", "1E3", "-1e-3", "1_000", "1:30", "190:20:30", "+1", "-0",
    "2024-01-31", "2024-01-31 13:45:00", "-", "--", "---", "...", ": ", "a: b", "#", "a #b", " lead",
    "trail ", "'q'", '"dq"', "[x]", "{x}", "*a", "&a", "!tag", "%x", "@x", "`x`", "|", ">", "?", "=",
    "tab\there", "new\nline", "héllo", "日本語", "emoji 🙂", "\u2028", "back\\slash", "x" * 300,
]  # fmt: skip


def test_sixty_tricky_strings_round_trip() -> None:
    assert len(TRICKY) >= 60
    doc = {"values": TRICKY, "keys": {s: s for s in TRICKY}, "nested": [{"v": s} for s in TRICKY]}
    text = dump_yaml(doc)
    assert text.startswith("---\n")
    assert yaml.safe_load(text) == doc
    for s in TRICKY:
        assert yaml.safe_load(dump_yaml(s)) == s, s


def test_non_finite_numbers_are_null() -> None:
    data = {"tps": float("nan"), "rates": [1.5, float("inf"), -math.inf], "n": 3}
    assert finite(data) == {"tps": None, "rates": [1.5, None, None], "n": 3}
    assert yaml.safe_load(dump_yaml(finite(data))) == json.loads(json.dumps(finite(data), allow_nan=False))


# ---------------------------------------------------------------- through the installed mqadmin

# topic names YAML 1.1 reads as numbers, booleans or null (legal topic names: %|a-zA-Z0-9_-)
TOPICS = [
    "null", "Null", "NULL", "yes", "No", "on", "OFF", "y", "N", "true", "False",
    "1e3", "0x1", "012", "0o17", "0b101", "1_000", "-1", "-0", "-", "--", "1", "0",
]  # fmt: skip


BODIES_TOPIC = "YamlBodies"


def send(addr: str, topic: str, body: bytes) -> None:
    """SEND_MESSAGE_V2 as a producer sends it (one message, queue 0)."""
    ext = {
        "a": "YamlPG",
        "b": topic,
        "c": "TBW102",
        "d": "4",
        "e": "0",
        "f": "0",
        "g": str(int(time.time() * 1000)),
        "h": "0",
        "i": "WAIT\x01true\x02",
        "j": "0",
        "k": "false",
        "m": "false",
    }
    assert call(addr, RemotingCommand.request(310, ext, body)).code == 0


@pytest.fixture(scope="module")
def ours(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Cluster, dict[str, str]]]:
    root = tmp_path_factory.mktemp("yaml")
    c = Cluster(root)
    try:
        for t in [*TOPICS, BODIES_TOPIC]:
            assert create_topic(c.broker.addr, t, queues=1).code == 0, t
        for text in TRICKY:
            if text:  # a message has a body
                send(c.broker.addr, BODIES_TOPIC, text.encode("utf-8"))
        yield c, clean_env(root / "home", root / "config")
    finally:
        c.stop()


def test_message_bodies_yaml_reads_as_json(ours: tuple[Cluster, dict[str, str]]) -> None:
    """The tricky strings as message bodies, printed by printMsg: YAML and JSON agree, body for body."""
    c, env = ours
    args = ["printMsg", "-n", c.ns.addr, "-t", BODIES_TOPIC, "-d", "true"]
    j = run_mqadmin([*args, "--json"], env)
    y = run_mqadmin([*args, "--output", "yaml"], env)
    assert j.code == y.code == 0, (j.err, y.err)
    printed = json.loads(j.out)
    assert yaml.safe_load(y.out) == printed

    def bodies(doc: object) -> list[str]:
        found: list[str] = []
        if isinstance(doc, dict):
            if doc.get("bodyEncoding") not in (None, "base64") and isinstance(doc.get("body"), str):
                found.append(doc["body"])
            for v in doc.values():
                found += bodies(v)
        elif isinstance(doc, list):
            for v in doc:
                found += bodies(v)
        return found

    assert sorted(bodies(printed)) == sorted(t for t in TRICKY if t), j.out[:800]


def test_topic_list_yaml_reads_as_json(ours: tuple[Cluster, dict[str, str]]) -> None:
    c, env = ours
    j = run_mqadmin(["topicList", "-n", c.ns.addr, "--json"], env)
    y = run_mqadmin(["topicList", "-n", c.ns.addr, "--output", "yaml"], env)
    assert j.code == y.code == 0, (j.err, y.err)
    listed = json.loads(j.out)
    assert set(TOPICS) <= set(listed["topics"])
    assert yaml.safe_load(y.out) == listed


def test_kv_value_yaml_reads_as_json(ours: tuple[Cluster, dict[str, str]]) -> None:
    c, env = ours
    for value in (": x", "a #b", "- item", "日本語 🙂", "1e3"):
        args = ["updateKvConfig", "-n", c.ns.addr, "-s", "NS", "-k", "K", "-v", value]
        y = run_mqadmin([*args, "--output", "yaml"], env)
        assert y.code == 0, y.err
        assert yaml.safe_load(y.out)["value"] == value
