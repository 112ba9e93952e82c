"""kvConfig.json: Java's file format in and out, Java's map orders, atomic rewrites."""

from __future__ import annotations

from pathlib import Path

import pytest

from mqadmin.namesrv.kvconfig import KVConfigError, KVConfigManager
from mqadmin.protocol.javacoll import java_hash_order


def test_reads_and_writes_the_java_format(tmp_path: Path) -> None:
    path = tmp_path / "kvConfig.json"
    path.write_text('{"configTable":{"ORDER_TOPIC_CONFIG":{"T1":"broker-a:4"},"NS2":{"k":"v","gone":null}}}')
    kv = KVConfigManager(path)
    kv.load()
    assert kv.get("ORDER_TOPIC_CONFIG", "T1") == "broker-a:4" and kv.get("NS2", "gone") is None
    keys = [f"Topic{i}" for i in range(20)]
    for k in keys:
        kv.put("ORDER_TOPIC_CONFIG", k, "b:1")
    text = path.read_text()
    table = text[text.index('"ORDER_TOPIC_CONFIG":{') :]
    positions = [table.index(f'"{k}"') for k in java_hash_order(["T1", *keys])]
    assert positions == sorted(positions)  # HashMap order, as Java writes it
    assert (tmp_path / "kvConfig.json.bak").read_text().count("Topic") == 19  # the state before the last put
    kv.delete("NS2", "k")
    again = KVConfigManager(path)
    again.load()
    assert again.kv_list_body("NS2") == b'{"table":{}}' and again.kv_list_body("NOPE") is None


@pytest.mark.parametrize(
    "content", ["{broken", '{"configTable":[1]}', '{"configTable":{"NS":{"k":1}}}', "[]"]
)
def test_refuses_a_broken_file(tmp_path: Path, content: str) -> None:
    path = tmp_path / "kvConfig.json"
    path.write_text(content)
    with pytest.raises(KVConfigError):
        KVConfigManager(path).load()


def test_empty_or_missing_file_is_an_empty_store(tmp_path: Path) -> None:
    (tmp_path / "kvConfig.json").write_text("  \n")
    for name in ("kvConfig.json", "missing.json"):
        kv = KVConfigManager(tmp_path / name)
        kv.load()
        assert not kv.config_table
