"""The small contract breaks an operator met: exit codes of bad input and of what does not exist,
schemas that validate on their own (error documents included), the man page where man finds it."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest

from tests.operator.conftest import Operator

ROOT = Path(__file__).resolve().parents[2]


def schema(op: Operator, command: str) -> dict[str, object]:
    r = op.run("schema", command)
    assert r.code == 0, r.err
    doc: dict[str, object] = json.loads(r.out)
    return doc


def test_a_timeout_no_call_can_wait_for_is_a_usage_error(op: Operator) -> None:
    for value in ("-1", "0"):
        r = op.run("topicList", "--timeout", value)
        assert r.code == 2, (value, r.code, r.err)
        assert r.err.strip().splitlines() == [
            f"mqadmin topicList: the timeout must be a positive number of seconds, not {value}"
        ]


def test_creating_a_topic_in_a_cluster_that_does_not_exist_exits_7(op: Operator) -> None:
    r = op.run("updateTopic", "-c", "NoCluster", "-t", "Anywhere")
    assert r.code == 7, r.err
    assert "cluster 'NoCluster' not found" in r.err
    assert op.run("topicRoute", "-t", "Anywhere").code == 7  # nothing was created


def test_a_group_in_a_cluster_that_does_not_exist_exits_7(op: Operator) -> None:
    for args in (["updateSubGroup", "-g", "Nowhere"], ["deleteSubGroup", "-g", "Nowhere"]):
        r = op.run(*args, "-c", "NoCluster")
        assert r.code == 7, (args, r.code, r.err)
        assert len(r.err.strip().splitlines()) == 1 and "NoCluster is not known" in r.err


def test_deleting_a_missing_topic_prints_no_success(op: Operator) -> None:
    r = op.run("deleteTopic", "-c", "DefaultCluster", "-t", "NeverCreated")
    assert (r.code, r.out) == (7, "")
    assert len(r.err.strip().splitlines()) == 1 and "does not exist" in r.err
    op.topic("Deletable")
    r = op.run("deleteTopic", "-c", "DefaultCluster", "-t", "Deletable")
    assert r.code == 0, r.err
    assert "delete topic [Deletable] from cluster [DefaultCluster] success." in r.out


def test_a_printed_schema_validates_with_nothing_else(op: Operator) -> None:
    """No registry, no network: ``jsonschema.validate(doc, schema)`` resolves everything."""
    op.topic("SchemaTopic", 2)
    assert op.run("sendMessage", "-t", "SchemaTopic", "-p", "hello", "-k", "k1").code == 0
    routed = op.run("topicRoute", "-t", "SchemaTopic", "--json")
    jsonschema.validate(json.loads(routed.out), schema(op, "topicRoute"))
    lines = op.run("printMsg", "-t", "SchemaTopic", "--json-lines")
    assert lines.code == 0, lines.err
    docs = [json.loads(x) for x in lines.out.splitlines()]
    assert docs and all(d["body"] == "hello" for d in docs)
    print_schema = schema(op, "printMsg")
    for doc in docs:
        jsonschema.validate(doc, print_schema)
    jsonschema.validate(json.loads(op.run("printMsg", "-t", "SchemaTopic", "--json").out), print_schema)
    with pytest.raises(jsonschema.ValidationError):  # a line is still held to the message's members
        jsonschema.validate({**docs[0], "queueId": "one"}, print_schema)


def test_decoded_ids_of_both_kinds_validate(op: Operator) -> None:
    decode_schema = schema(op, "decodeMessageId")
    ids = {"unique": "7F0000010A8F18B4AAC2717B8B4C0000", "offset": "7F0000010000B38B0000000000000000"}
    for kind, msg_id in ids.items():
        r = op.run("decodeMessageId", "-i", msg_id, "--json")
        assert r.code == 0, r.err
        doc = json.loads(r.out)
        assert [i["kind"] for i in doc["ids"]] == [kind]
        jsonschema.validate(doc, decode_schema)
        with pytest.raises(jsonschema.ValidationError):  # each kind is held to its own members
            jsonschema.validate({**doc, "ids": [{**doc["ids"][0], "kind": "other"}]}, decode_schema)


def test_every_schema_allows_the_error_document(op: Operator) -> None:
    bundle = json.loads(op.run("schema", "--all").out)
    failed = op.run("topicRoute", "-t", "NoSuchTopicHere", "--json")
    assert failed.code == 7
    error_doc = json.loads(failed.out)
    assert set(error_doc) == {"apiVersion", "error"}
    for name, s in bundle.items():
        assert "urn:mqadmin:schema:v1:common" not in json.dumps(s).replace(s.get("$id", ""), ""), name
        jsonschema.validate(error_doc, s)
        if name != "common":
            with pytest.raises(jsonschema.ValidationError):  # the choice still needs a document
                jsonschema.validate({"error": error_doc["error"]}, s)
    with pytest.raises(jsonschema.ValidationError):  # a broken error document is no route either
        jsonschema.validate({"apiVersion": "mqadmin/v1", "error": {"kind": "x"}}, bundle["topicRoute"])


def _man_finds(bin_dir: Path, env: dict[str, str]) -> str:
    path = f"{bin_dir}{os.pathsep}/usr/bin{os.pathsep}/bin"
    man_env = {**env, "PATH": path}
    man_env.pop("MANPATH", None)
    r = subprocess.run(["man", "-w", "mqadmin"], capture_output=True, text=True, env=man_env, timeout=30)
    assert r.returncode == 0, r.stderr
    return r.stdout.strip()


def test_man_finds_the_page_after_pip_install(tmp_path: Path) -> None:
    """Into a fresh venv, and as a user install (PYTHONUSERBASE): ``man -w mqadmin`` finds it."""
    src = tmp_path / "src"
    src.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, src / name)
    for name in ("man", "mqadmin"):
        shutil.copytree(ROOT / name, src / name, ignore=shutil.ignore_patterns("__pycache__"))
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PIP_REQUIRE", "VIRTUAL_ENV"))}
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    pip = [sys.executable, "-m", "pip", "--python", str(venv / "bin" / "python")]
    installed = subprocess.run([*pip, "install", "-q", "--no-deps", str(src)], env=env, capture_output=True)
    assert installed.returncode == 0, installed.stderr.decode()[-2000:]
    assert _man_finds(venv / "bin", env) == str(venv / "share" / "man" / "man1" / "mqadmin.1")

    user = tmp_path / "user"
    user_env = {**env, "PYTHONUSERBASE": str(user)}
    base = shutil.which("python3", path="/usr/bin:/usr/local/bin") or sys.executable
    pip_user = ["install", "-q", "--user", "--no-deps", "--break-system-packages", str(src)]
    r = subprocess.run([base, "-m", "pip", *pip_user], env=user_env, capture_output=True)
    assert r.returncode == 0, r.stderr.decode()[-2000:]
    assert _man_finds(user / "bin", user_env) == str(user / "share" / "man" / "man1" / "mqadmin.1")
