"""Reading manifests without a server: the schema's refusals name the file, the line and why;
variables, secrets, folders and several clusters; the published schema is the one the checker reads."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
import yaml

from mqadmin.cli import schemas
from mqadmin.manifest.loader import ManifestError, load_manifests, parse_manifests
from mqadmin.manifest.model import ATTR
from mqadmin.manifest.schema import MANIFEST_SCHEMA, SchemaError
from tests.manifest.helpers import HEAD


def refusal(text: str, env: dict[str, str] | None = None) -> SchemaError:
    with pytest.raises(SchemaError) as e:
        parse_manifests([("m.yaml", text)], env or {})
    return e.value


def test_the_published_schema_is_the_checkers_and_accepts_an_export() -> None:
    assert schemas.load("manifest") == MANIFEST_SCHEMA
    jsonschema.Draft202012Validator.check_schema(MANIFEST_SCHEMA)
    doc = yaml.safe_load(HEAD + "topics:\n  T: {readQueues: 2, writeQueues: 2, perm: 6}\ngroups: {G: {}}\n")
    jsonschema.validate(doc, MANIFEST_SCHEMA)


@pytest.mark.parametrize(
    ("body", "line", "path", "reason"),
    [
        ("topics:\n  T: {perm: 9}\n", 5, "topics.T.perm", "9 is more than 7"),
        ("topics:\n  T:\n    readQueues: many\n", 6, "topics.T.readQueues", "is 'many', not integer"),
        ("groups:\n  G: {retryMax: 3}\n", 5, "groups.G.retryMax", "unknown member"),
        ("topics:\n  T: {}\n  T: {}\n", 6, "topics.T", "given twice (first on line 5)"),
        ("topics:\n  'bad topic': {}\n", 5, "topics.bad topic", "illegal"),
        ("acls:\n  alice: []\n", 5, "acls.alice", "does not match"),
        (
            "acls:\n  User:alice:\n    - {resource: 'Topic:T', actions: [Fly]}\n",
            6,
            "acls.User:alice[0].actions[0]",
            "not one of",
        ),
        ("orderConfigs:\n  T: 'broker-a'\n", 5, "orderConfigs.T", "does not match"),
        (
            "users:\n  alice: {password: {secretFrom: {env: NOPE}}}\n",
            5,
            "users.alice.password",
            "NOPE is not set",
        ),
        ("topics:\n  T:\n    readQueues: ${Q}\n", 6, "topics.T.readQueues", "Q is not set"),
        ("topics: [T]\n", 4, "topics", "not object"),
        ("topics:\n  T: {readQueues: 1\n", 6, "", "not YAML"),
    ],
)
def test_refusals_name_the_line_and_the_reason(body: str, line: int, path: str, reason: str) -> None:
    e = refusal(HEAD + body)
    assert (e.source, e.line, e.path) == ("m.yaml", line, path), str(e)
    assert reason.lower() in e.reason.lower(), str(e)
    assert str(e).startswith(f"m.yaml:{line}: ")


def test_missing_members_and_wrong_version() -> None:
    assert "kind is missing" in str(refusal("apiVersion: mqadmin/v1\ncluster: C\n"))
    assert "must be 'mqadmin/v1'" in str(refusal(HEAD.replace("v1", "v2")))


def test_variables_secrets_and_defaults(tmp_path: Path) -> None:
    (tmp_path / "pw.txt").write_text("fromfile\n")
    text = (
        "apiVersion: mqadmin/v1\nkind: ClusterManifest\ncluster: ${CLUSTER:-Default}\n"
        "topics:\n  T:\n    readQueues: ${Q}\n    writeQueues: 4\n"
        "    messageType: FIFO\n    attributes: {queue.type: BatchCQ}\n"
        "users:\n  a:\n    password: ${PW}\n  b: {password: {secretFrom: {file: pw.txt}}}\n"
        "  c: {password: {secretFrom: {env: PW}}}\n  d: {password: '$${literal}'}\n"
    )
    (tmp_path / "m.yaml").write_text(text)
    (m,) = load_manifests([str(tmp_path / "m.yaml")], {"Q": "8", "PW": "s3cret"})
    assert m.cluster == "Default"
    assert m.topics["T"].fields == {
        "readQueues": 8,
        "writeQueues": 4,
        ATTR + "message.type": "FIFO",
        ATTR + "queue.type": "BatchCQ",
    }
    assert [m.users[u].password for u in "abcd"] == ["s3cret", "fromfile", "s3cret", "${literal}"]


def test_a_folder_and_several_documents_make_several_clusters(tmp_path: Path) -> None:
    (tmp_path / "a.yaml").write_text(
        HEAD + "topics: {T1: {}}\n---\n" + HEAD.replace("DefaultCluster", "Other") + "groups: {G: {}}\n"
    )
    (tmp_path / "b.yml").write_text(HEAD + "groups: {G1: {}}\n")
    (tmp_path / "notes.txt").write_text("not a manifest")
    ms = load_manifests([str(tmp_path)], {})
    assert [(m.cluster, sorted(m.topics), sorted(m.groups)) for m in ms] == [
        ("DefaultCluster", ["T1"], ["G1"]),
        ("Other", [], ["G"]),
    ]
    (tmp_path / "c.yaml").write_text(HEAD + "topics: {T1: {}}\n")
    with pytest.raises(SchemaError, match=r"c\.yaml:4: topics\.T1: declared again \(first at .*a\.yaml:4\)"):
        load_manifests([str(tmp_path)], {})


def test_no_such_file_or_an_empty_folder(tmp_path: Path) -> None:
    with pytest.raises(ManifestError, match="no such file"):
        load_manifests([str(tmp_path / "nope.yaml")], {})
    with pytest.raises(ManifestError, match=r"no \.yaml"):
        load_manifests([str(tmp_path)], {})


def test_the_diff_and_apply_schemas_are_published() -> None:
    for name in ("diff", "apply", "manifest"):
        doc = schemas.load(name)
        assert doc["$id"] == schemas.ID_PREFIX + name
        json.dumps(doc)
