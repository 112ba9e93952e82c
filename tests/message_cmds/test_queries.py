"""Finding messages the C++ client and we sent: by offset id, unique key, key, queue offset; ids decoded.

Each lookup is checked against what was sent (topic, tags, keys, user properties, body bytes in the
body file Java writes), not only for its layout.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from mqadmin.protocol.codes import RequestCode
from mqadmin.protocol.message import MessageSysFlag
from mqadmin.protocol.message_record import decode_message
from mqadmin.protocol.msgid import decode_offset_msg_id
from tests.message_cmds.conftest import TOPIC, Sent
from tests.message_cmds.support import Cluster, with_admin

LABEL = "%-20s "


def by_key(cluster: Cluster, key: str) -> list[dict[str, Any]]:
    r = cluster.mqadmin("queryMsgByKey", "-n", cluster.ns.addr, "-t", TOPIC, "-k", key, "--json")
    assert r.code == 0, r.err
    return json.loads(r.out)["messages"]


def field(block: str, label: str) -> str:
    for line in block.splitlines():
        if line.startswith(label):
            return line[21:]
    raise AssertionError(f"no {label} in {block}")


def body_file(block: str) -> bytes:
    return Path(field(block, "Message Body Path:")).read_bytes()


def test_query_by_offset_id_cpp_message(cluster: Cluster, state: Sent) -> None:
    [found] = by_key(cluster, "ck1")
    offset_id = found["offsetMsgId"]
    r = cluster.mqadmin("queryMsgById", "-n", cluster.ns.addr, "-t", TOPIC, "-i", offset_id, "-f", "UTF-8")
    assert r.code == 0 and r.err == "", r.err
    assert field(r.out, "OffsetID:") == offset_id
    assert field(r.out, "Topic:") == TOPIC
    assert field(r.out, "Tags:") == "[TagC]"
    assert field(r.out, "Keys:") == "[ck1 ck2]"
    props = field(r.out, "Properties:")
    assert "color=blue" in props and "size=L" in props and f"UNIQ_KEY={state.ids['cpp']}" in props
    assert field(r.out, "Store Host:") == cluster.broker.addr
    assert field(r.out, "Message Body:") == "hello from c++"
    assert body_file(r.out) == state.bodies["cpp"]
    assert Path(field(r.out, "Message Body Path:")).name == state.ids["cpp"]
    assert r.out.endswith("\n\nWARN: No Consumer")  # no newline after it, as Java
    host, port, offset = decode_offset_msg_id(offset_id)
    assert f"{host}:{port}" == cluster.broker.addr and int(field(r.out, "CommitLog Offset:")) == offset


def test_query_by_unique_id_of_every_producer(cluster: Cluster, state: Sent) -> None:
    """The C++ client's ids look like an ip and port; they are still found as unique keys."""
    for name in ("cpp", "batch2", "gbk", "ours"):
        r = cluster.mqadmin("queryMsgById", "-n", cluster.ns.addr, "-t", TOPIC, "-i", state.ids[name])
        assert r.code == 0, (name, r.err)
        assert body_file(r.out) == state.bodies[name], name
        assert f"UNIQ_KEY={state.ids[name]}" in field(r.out, "Properties:")


def test_several_ids_print_blocks_back_to_back(cluster: Cluster, state: Sent) -> None:
    ids = f"{state.ids['batch1']},{state.ids['batch3']}"
    r = cluster.mqadmin("queryMsgById", "-n", cluster.ns.addr, "-t", TOPIC, "-i", ids)
    assert r.code == 0, r.err
    assert r.out.count("OffsetID:") == 2
    assert "WARN: No ConsumerOffsetID:" in r.out  # Java's missing newline between blocks


def test_compressed_body_is_inflated(cluster: Cluster, state: Sent) -> None:
    [found] = by_key(cluster, "bigkey")
    assert found["body"] == state.bodies["big"].decode() and found["bodyLength"] == 10_000
    assert found["storeSize"] < 1000  # the stored body is the compressed one
    assert found["sysFlag"] == 0  # 5.3.3 clears the COMPRESSED bit once the body is inflated
    r = cluster.mqadmin("queryMsgById", "-n", cluster.ns.addr, "-t", TOPIC, "-i", found["offsetMsgId"])
    assert r.code == 0, r.err
    assert field(r.out, "System Flag:") == "0"
    assert body_file(r.out) == state.bodies["big"]

    async def raw(admin):  # type: ignore[no-untyped-def]
        _, _, offset = decode_offset_msg_id(found["offsetMsgId"])
        resp = await admin.core.invoke(
            cluster.broker.addr, RequestCode.VIEW_MESSAGE_BY_ID, {"offset": str(offset)}
        )
        return decode_message(resp.body, decompress=False)[0]

    stored = with_admin(cluster.ns.addr, raw)
    assert stored.sys_flag & MessageSysFlag.COMPRESSED_FLAG  # the C++ client compressed it
    assert stored.store_size == found["storeSize"] and len(stored.body) < 1000


def test_query_by_key_finds_each_key_of_a_message(cluster: Cluster, state: Sent) -> None:
    r = cluster.mqadmin("queryMsgByKey", "-n", cluster.ns.addr, "-t", TOPIC, "-k", "ck2")
    assert r.code == 0 and r.err == "", r.err
    lines = r.out.splitlines()
    assert lines[0] == "#Message ID" + " " * 39 + " #QID" + " " * 34 + "#Offset"
    assert len(lines) == 2 and lines[1].split()[0] == state.ids["cpp"]
    [m] = by_key(cluster, "bk2")
    assert (m["msgId"], m["queueId"], m["body"]) == (state.ids["batch2"], 3, "batch-2")
    assert m["tags"] == "TB" and m["properties"]["KEYS"] == "bk2"


def test_query_by_key_time_range_and_max(cluster: Cluster, state: Sent) -> None:
    [m] = by_key(cluster, "ok1")
    t = m["storeTimestamp"]
    args = ["queryMsgByKey", "-n", cluster.ns.addr, "-t", TOPIC, "-k", "ok1"]
    inside = cluster.mqadmin(*args, "-b", str(t - 1000), "-e", str(t + 1000))
    assert inside.code == 0 and state.ids["ours"] in inside.out
    before = cluster.mqadmin(*args, "-b", "0", "-e", str(t - 60_000))
    assert before.code == 7 and before.out == "" and "no message with key ok1" in before.err
    assert cluster.mqadmin(*args, "-m", "1").code == 0


def test_query_by_unique_key(cluster: Cluster, state: Sent) -> None:
    r = cluster.mqadmin("queryMsgByUniqueKey", "-n", cluster.ns.addr, "-t", TOPIC, "-i", state.ids["gbk"])
    assert r.code == 0, r.err
    assert r.out.startswith("Topic:               MsgCmdTopic\n")  # no OffsetID line in this command
    assert "OffsetID:" not in r.out and field(r.out, "Keys:") == "[gbkkey]"
    assert body_file(r.out) == state.bodies["gbk"]
    assert r.out.endswith("WARN: No Consumer")


def test_query_by_offset(cluster: Cluster, state: Sent) -> None:
    args = ["queryMsgByOffset", "-n", cluster.ns.addr, "-t", TOPIC, "-b", "broker-a", "-i", "3", "-o", "1"]
    r = cluster.mqadmin(*args, "-f", "UTF-8")
    assert r.code == 0, r.err
    assert field(r.out, "Queue ID:") == "3" and field(r.out, "Queue Offset:") == "1"
    assert field(r.out, "Keys:") == "[bk2]" and field(r.out, "Message Body:") == "batch-2"
    props = field(r.out, "Properties:")
    assert "MIN_OFFSET=0" in props and "MAX_OFFSET=3" in props  # added by the pull, as in Java
    j = cluster.mqadmin(*args, "--json")
    assert json.loads(j.out)["message"]["msgId"] == state.ids["batch2"]


def test_gbk_body_with_body_format(cluster: Cluster, state: Sent) -> None:
    args = ["queryMsgById", "-n", cluster.ns.addr, "-t", TOPIC, "-i", state.ids["gbk"]]
    assert field(cluster.mqadmin(*args, "-f", "GBK").out, "Message Body:") == "中文消息"
    assert field(cluster.mqadmin(*args, "-f", "UTF-8").out, "Message Body:") != "中文消息"


def test_decode_message_id(cluster: Cluster, state: Sent) -> None:
    [m] = by_key(cluster, "ok2")
    r = cluster.mqadmin("decodeMessageId", "-i", f"{m['offsetMsgId']},{state.ids['ours']}", "--json")
    assert r.code == 0, r.err
    offset, unique = json.loads(r.out)["ids"]
    assert offset == {
        "msgId": m["offsetMsgId"],
        "kind": "offset",
        "storeHost": cluster.broker.addr,
        "commitLogOffset": m["commitLogOffset"],
    }
    from mqadmin.admin.producer import local_ip

    assert unique["kind"] == "unique" and unique["ip"] == local_ip()
    assert abs(unique["timestamp"] - m["bornTimestamp"]) < 1000
    text = cluster.mqadmin("decodeMessageId", "-i", m["offsetMsgId"]).out
    assert f"Store Host:          {cluster.broker.addr}\n" in text


def test_json_of_query_by_id(cluster: Cluster, state: Sent) -> None:
    r = cluster.mqadmin("queryMsgById", "-n", cluster.ns.addr, "-t", TOPIC, "-i", state.ids["cpp"], "--json")
    assert r.code == 0, r.err
    [m] = json.loads(r.out)["messages"]
    assert m["msgId"] == state.ids["cpp"] and m["tags"] == "TagC" and m["keys"] == "ck1 ck2"
    assert m["properties"]["color"] == "blue" and m["body"] == "hello from c++"
    assert m["tracks"] == [] and Path(m["bodyPath"]).read_bytes() == state.bodies["cpp"]


def test_cpp_batch_is_not_a_batch(cluster: Cluster, state: Sent) -> None:
    """Why batches come from our SEND_BATCH_MESSAGE: the C++ wrapper's ``send_batch`` sends code 10 with
    ``batch=1``, which Java's ``Boolean.parseBoolean`` (and our broker) read as false, so any broker
    stores the encoded batch as one message, without unique keys."""
    from mqadmin.protocol.message_record import decode_batch
    from tests.message_cmds.support import cpp_send

    cluster.create_topic("CppBatchTopic", 1)
    cpp_send(
        cluster.ns.addr,
        [
            {
                "topic": "CppBatchTopic",
                "batch": [{"keys": "cb1", "body": "one"}, {"keys": "cb2", "body": "two"}],
            }
        ],
    )
    r = cluster.mqadmin("printMsg", "-n", cluster.ns.addr, "-t", "CppBatchTopic", "--json")
    [queue] = json.loads(r.out)["queues"]
    [stored] = queue["messages"]
    assert "UNIQ_KEY" not in stored["properties"] and stored["msgId"] == stored["offsetMsgId"]
    raw = with_admin(
        cluster.ns.addr,
        lambda admin: admin.messages.view_message(stored["offsetMsgId"], "CppBatchTopic"),
    )
    entries = decode_batch(raw.body)
    assert [e.body for e in entries] == [b"one", b"two"] and [e.keys for e in entries] == ["cb1", "cb2"]
