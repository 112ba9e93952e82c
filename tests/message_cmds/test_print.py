"""printMsg, printMsgByQueue and consumeMessage over what the C++ client and we sent."""

from __future__ import annotations

import base64
import json
import re

from tests.message_cmds.conftest import TOPIC, Sent
from tests.message_cmds.support import Cluster

DASHES = "-" * 56


def java_hash_set_order(topic: str, queues: int) -> list[int]:
    """Queue ids of ``broker-a`` in the order a Java ``HashSet<MessageQueue>`` (16 buckets) holds them."""

    def string_hash(s: str) -> int:
        h = 0
        for ch in s:
            h = (31 * h + ord(ch)) & 0xFFFFFFFF
        return h

    def bucket(qid: int) -> int:
        h = (31 * (31 * (31 + string_hash("broker-a")) + qid) + string_hash(topic)) & 0xFFFFFFFF
        return (h ^ (h >> 16)) & 15

    return sorted(range(queues), key=bucket)


def msg_lines(out: str) -> list[str]:
    return [line for line in out.splitlines() if line.startswith("MSGID: ")]


def test_print_msg_every_message_with_its_body(cluster: Cluster, state: Sent) -> None:
    r = cluster.mqadmin("printMsg", "-n", cluster.ns.addr, "-t", TOPIC)
    assert r.code == 0 and r.err == "", r.err
    lines = msg_lines(r.out)
    assert len(lines) == state.total
    by_id = {line.split()[1]: line for line in lines}
    for name, msg_id in state.ids.items():
        line = by_id[msg_id]
        if name != "gbk":  # printed as UTF-8 by default
            assert line.endswith(" BODY: " + state.bodies[name].decode()), name
    cpp = by_id[state.ids["cpp"]]
    assert "properties={" in cpp and "color=blue" in cpp and "size=L" in cpp and "KEYS=ck1 ck2" in cpp
    assert "body=[104, 101, 108, 108, 111, 32, 102, 114, 111, 109, 32, 99, 43, 43]" in cpp
    big = by_id[state.ids["big"]]
    assert "sysFlag=0," in big and big.count("48, 49, 50") == 1000  # inflated, every byte printed
    assert re.search(r"storeSize=(\d+),", big) and int(re.search(r"storeSize=(\d+),", big)[1]) < 1000  # type: ignore[index]
    # queue headers in Java's HashSet order, each queue closed by the dashes
    headers = [line for line in r.out.splitlines() if line.startswith("minOffset=")]
    assert [int(h.rsplit("queueId=", 1)[1][:-1]) for h in headers] == java_hash_set_order(TOPIC, 4)
    assert r.out.count(DASHES + "\n") == 4 and r.out.endswith(DASHES + "\n")


def test_print_msg_filters_and_flags(cluster: Cluster, state: Sent) -> None:
    base = ["printMsg", "-n", cluster.ns.addr, "-t", TOPIC]
    tagged = msg_lines(cluster.mqadmin(*base, "-s", "TagC || TB").out)
    assert sorted(line.split()[1] for line in tagged) == sorted(
        state.ids[n] for n in ("cpp", "batch1", "batch2", "batch3")
    )
    no_body = msg_lines(cluster.mqadmin(*base, "-d", "false").out)
    assert len(no_body) == state.total and all(line.endswith(" BODY: NOT PRINT BODY") for line in no_body)
    gbk = [line for line in msg_lines(cluster.mqadmin(*base, "-c", "GBK").out) if state.ids["gbk"] in line]
    assert gbk[0].endswith(" BODY: 中文消息")


def test_print_msg_time_range(cluster: Cluster, state: Sent) -> None:
    later = "2999-01-01#00:00:00:000"
    r = cluster.mqadmin("printMsg", "-n", cluster.ns.addr, "-t", TOPIC, "-b", later, "-e", later)
    assert r.code == 0, r.err
    assert msg_lines(r.out) == [] and r.out.count(DASHES) == 4
    r = cluster.mqadmin("printMsg", "-n", cluster.ns.addr, "-t", TOPIC, "-b", "0")
    assert len(msg_lines(r.out)) == state.total


def test_print_msg_json(cluster: Cluster, state: Sent) -> None:
    r = cluster.mqadmin("printMsg", "-n", cluster.ns.addr, "-t", TOPIC, "--json")
    assert r.code == 0, r.err
    queues = json.loads(r.out)["queues"]
    assert [q["queueId"] for q in queues] == java_hash_set_order(TOPIC, 4)
    msgs = {m["msgId"]: m for q in queues for m in q["messages"]}
    assert msgs[state.ids["batch3"]]["body"] == "batch-3"
    assert len(msgs) == state.total


def test_print_msg_json_lines_stream_and_keep_every_byte(cluster: Cluster, state: Sent) -> None:
    """One message a line; a body that is not valid UTF-8 comes as base64 and says so (the GBK one),
    and is text again when its charset is named."""
    r = cluster.mqadmin("printMsg", "-n", cluster.ns.addr, "-t", TOPIC, "--json-lines")
    assert r.code == 0, r.err
    lines = r.out.splitlines()
    assert len(lines) == state.total
    msgs = {m["msgId"]: m for m in map(json.loads, lines)}
    assert msgs[state.ids["ours"]]["body"] == "ours ü body"
    assert msgs[state.ids["ours"]]["bodyEncoding"] == "utf-8"
    gbk = msgs[state.ids["gbk"]]
    assert gbk["bodyEncoding"] == "base64" and base64.b64decode(gbk["body"]) == state.bodies["gbk"]
    r = cluster.mqadmin("printMsg", "-n", cluster.ns.addr, "-t", TOPIC, "--json-lines", "-c", "GBK")
    gbk = {m["msgId"]: m for m in map(json.loads, r.out.splitlines())}[state.ids["gbk"]]
    assert (gbk["body"], gbk["bodyEncoding"]) == ("中文消息", "gbk")
    r = cluster.mqadmin("printMsg", "-n", cluster.ns.addr, "-t", TOPIC, "--json-lines", "-d", "false")
    assert {json.loads(line)["bodyEncoding"] for line in r.out.splitlines()} == {None}


def test_print_msg_by_queue_tags_and_messages(cluster: Cluster, state: Sent) -> None:
    base = ["printMsgByQueue", "-n", cluster.ns.addr, "-t", TOPIC, "-a", "broker-a", "-i", "3"]
    quiet = cluster.mqadmin(*base)  # neither -p nor -f: Java prints nothing, and that is a success
    assert (quiet.code, quiet.out, quiet.err) == (0, "", "")
    r = cluster.mqadmin(*base, "-f", "true", "-p", "true", "-d", "true")
    assert r.code == 0, r.err
    lines = msg_lines(r.out)
    assert [line.rsplit(" BODY: ", 1)[1] for line in lines] == ["batch-1", "batch-2", "batch-3"]
    assert r.out.endswith("Tag: TB" + " " * 28 + " Count: 3\n")
    r0 = cluster.mqadmin(*base[:-1], "0", "-f", "true")
    assert "Tag: TagG" + " " * 26 + " Count: 1\n" in r0.out


def test_consume_message_by_queue_and_offset(cluster: Cluster, state: Sent) -> None:
    base = ["consumeMessage", "-n", cluster.ns.addr, "-t", TOPIC, "-b", "broker-a", "-i", "3"]
    r = cluster.mqadmin(*base, "-o", "1", "-c", "1")
    assert r.code == 0, r.err
    assert r.out.startswith("The oldler 1 message will be provided\nConsume ok\nMSGID: ")
    assert [line.rsplit(" BODY: ", 1)[1] for line in msg_lines(r.out)] == ["batch-2"]
    past_end = cluster.mqadmin(*base, "-o", "9")
    assert (
        past_end.out
        == "MessageQueue [topic=MsgCmdTopic, brokerName=broker-a, queueId=3] no matched msg, offset=9\n"
    )


def test_consume_message_whole_topic(cluster: Cluster, state: Sent) -> None:
    r = cluster.mqadmin("consumeMessage", "-n", cluster.ns.addr, "-t", TOPIC, "-g", "MsgCmdReader")
    assert r.code == 0, r.err
    assert sorted(line.split()[1] for line in msg_lines(r.out)) == sorted(state.ids.values())
    # every queue is read to its end: one extra pull that finds nothing
    assert r.out.count("print msg finished. status=NO_NEW_MSG") == 4


def test_consume_message_from_a_time(cluster: Cluster, state: Sent) -> None:
    r = cluster.mqadmin("queryMsgByKey", "-n", cluster.ns.addr, "-t", TOPIC, "-k", "bk3", "--json")
    [m] = json.loads(r.out)["messages"]
    base = ["consumeMessage", "-n", cluster.ns.addr, "-t", TOPIC, "-b", "broker-a", "-i", "3"]
    c = cluster.mqadmin(*base, "-s", str(m["storeTimestamp"]), "-c", "1")
    assert c.code == 0, c.err
    # the three batch entries share one store time; the broker picks one of them (Java's binary search)
    [line] = msg_lines(c.out)
    assert line.rsplit(" BODY: ", 1)[1] in ("batch-1", "batch-2", "batch-3")


def test_json_of_queue_commands(cluster: Cluster, state: Sent) -> None:
    ns = cluster.ns.addr
    q = cluster.mqadmin("printMsgByQueue", "-n", ns, "-t", TOPIC, "-a", "broker-a", "-i", "3", "-p", "true",
                        "-f", "true", "--json")  # fmt: skip
    doc = json.loads(q.out)
    assert [m["body"] for m in doc["messages"]] == [None, None, None]  # -d not given: bodies not printed
    assert doc["tags"] == [{"tag": "TB", "count": 3}] and doc["minOffset"] == 0
    c = cluster.mqadmin("consumeMessage", "-n", ns, "-t", TOPIC, "-b", "broker-a", "-i", "3", "--json")
    [queue] = json.loads(c.out)["queues"]
    assert [m["body"] for m in queue["messages"]] == ["batch-1", "batch-2", "batch-3"]
    assert queue["status"] == "NO_NEW_MSG"
