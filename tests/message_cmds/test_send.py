"""Sending and resending: sendMessage, checkMsgSendRT, sendMsgStatus, clusterRT, queryMsgById -s and -g -d,
and message traces (sendMessage -m true, queryMsgTraceById)."""

from __future__ import annotations

import json
import re
import subprocess
import time
from pathlib import Path

from mqadmin.admin.producer import Producer
from mqadmin.protocol.message import Message
from tests.cli_harness import MQADMIN
from tests.message_cmds.conftest import TOPIC, Sent
from tests.message_cmds.standin_consumer import StandInConsumer
from tests.message_cmds.support import Cluster, with_admin

SEND_HEADER = "#Broker Name" + " " * 22 + "#QID  #Send Result" + " " * 12 + "#MsgId\n"


def unique_lookup(cluster: Cluster, msg_id: str, *extra: str) -> str:
    r = cluster.mqadmin("queryMsgByUniqueKey", "-n", cluster.ns.addr, "-t", TOPIC, "-i", msg_id, *extra)
    assert r.code == 0, r.err
    return r.out


def test_send_message_to_a_queue(cluster: Cluster, state: Sent) -> None:
    args = ["sendMessage", "-n", cluster.ns.addr, "-t", TOPIC, "-p", "to queue 1", "-k", "sq", "-c", "TagS"]
    r = cluster.mqadmin(*args, "-b", "broker-a", "-i", "1")
    assert r.code == 0 and r.err == "", r.err
    assert r.out.startswith(SEND_HEADER)
    broker, qid, status, msg_id = r.out.splitlines()[1].split()
    assert (broker, qid, status) == ("broker-a", "1", "SEND_OK") and len(msg_id) == 32
    out = unique_lookup(cluster, msg_id)
    assert "Queue ID:            1\n" in out and "Tags:                [TagS]\n" in out
    assert Path(out.split("Message Body Path:   ")[1].split("\n")[0]).read_bytes() == b"to queue 1"
    j = cluster.mqadmin(*args, "--json")
    assert json.loads(j.out)["sendStatus"] == "SEND_OK"


def test_send_message_auto_creates_a_topic_through_tbw102(cluster: Cluster, state: Sent) -> None:
    """No route: sent with defaultTopic TBW102, and the broker creates the topic (autoCreateTopicEnable)."""
    r = cluster.mqadmin("sendMessage", "-n", cluster.ns.addr, "-t", "AutoMsgTopic", "-p", "first")
    assert r.code == 0, r.err
    msg_id = r.out.splitlines()[1].split()[-1]
    deadline = time.monotonic() + 40
    while time.monotonic() < deadline:  # the broker registers the new topic on its next heartbeat
        q = cluster.mqadmin("queryMsgByUniqueKey", "-n", cluster.ns.addr, "-t", "AutoMsgTopic", "-i", msg_id)
        if q.code == 0:
            break
        time.sleep(1)
    assert q.code == 0, q.err


def test_check_msg_send_rt(cluster: Cluster, state: Sent) -> None:
    r = cluster.mqadmin("checkMsgSendRT", "-n", cluster.ns.addr, "-t", TOPIC, "-a", "4", "-s", "5000")
    assert r.code == 0 and r.err == "", r.err
    lines = r.out.splitlines()
    assert lines[0] == "#Broker Name" + " " * 22 + "#QID  #Send Result" + " " * 12 + "#RT"
    rows = [line.split() for line in lines[1:-1]]
    assert [row[2] for row in rows] == ["true"] * 4
    queue_ids = [int(row[1]) for row in rows]
    assert queue_ids == [i % 4 for i in range(4)]  # the selector takes queue i % size (route order)
    assert re.fullmatch(r"Avg RT: \d+\.\d\d", lines[-1])
    # one Message object sent four times keeps its first unique key: four copies, all compressed
    j = cluster.mqadmin("queryMsgByKey", "-n", cluster.ns.addr, "-t", TOPIC, "-k", "none-such", "--json")
    assert j.code == 7
    printed = cluster.mqadmin("printMsg", "-n", cluster.ns.addr, "-t", TOPIC, "-d", "false").out
    big = [line for line in printed.splitlines() if "bodyCRC" in line and "body=[97, 97, 97" in line]
    assert len(big) == 4 and len({line.split()[1] for line in big}) == 1
    # marked as Java 5.3.3 marks zlib (COMPRESSED | ZLIB type); the COMPRESSED bit is cleared on reading
    assert all("sysFlag=768," in line for line in big)
    assert all(int(re.search(r"storeSize=(\d+)", line)[1]) < 1000 for line in big)  # type: ignore[index]


def test_check_msg_send_rt_amount_one_is_nan(cluster: Cluster, state: Sent) -> None:
    r = cluster.mqadmin("checkMsgSendRT", "-n", cluster.ns.addr, "-t", TOPIC, "-a", "1")
    assert r.code == 0 and r.out.endswith("Avg RT: NaN\n")


def test_send_msg_status(cluster: Cluster, state: Sent) -> None:
    r = cluster.mqadmin("sendMsgStatus", "-n", cluster.ns.addr, "-b", "broker-a", "-c", "3", "-s", "30")
    assert r.code == 0 and r.err == "", r.err
    lines = r.out.splitlines()
    assert len(lines) == 3
    pattern = (
        r"rt=\d+ms, SendResult=SendResult \[sendStatus=SEND_OK, msgId=[0-9A-F]{32}, "
        r"offsetMsgId=[0-9A-F]{32}, messageQueue=MessageQueue \[topic=broker-a, brokerName=broker-a, "
        r"queueId=0\], queueOffset=(\d+), recallHandle=null\]"
    )
    offsets = [int(re.fullmatch(pattern, line)[1]) for line in lines]  # type: ignore[index]
    assert offsets == list(range(offsets[0], offsets[0] + 3))  # after the warm-up send
    body = cluster.mqadmin("queryMsgByOffset", "-n", cluster.ns.addr, "-t", "broker-a", "-b", "broker-a",
                           "-i", "0", "-o", str(offsets[0]), "-f", "UTF-8")  # fmt: skip
    assert "Message Body:        hello jodiehello jodiehello jodie\n" in body.out  # 30 bytes asked: 3 x 11


def test_cluster_rt_rows_until_stopped(cluster: Cluster, state: Sent) -> None:
    proc = subprocess.Popen(
        [MQADMIN, "clusterRT", "-n", cluster.ns.addr, "-a", "3", "-i", "1"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=cluster.env,
        text=True,
    )
    try:
        assert proc.stdout is not None
        header = proc.stdout.readline()
        row = proc.stdout.readline()
    finally:
        proc.terminate()
        proc.wait(10)
    assert header == "#Cluster Name             #Broker Name              #RT   #successCount  #failCount\n"
    assert re.fullmatch(r"DefaultCluster {12}broker-a {18}\d+\.\d\d +3 {17}0 {15}\n", row), row
    bad = cluster.mqadmin("clusterRT", "-n", cluster.ns.addr, "-c", "NoSuchCluster")
    assert bad.code == 1 and bad.out == "" and "cluster [NoSuchCluster] not exist" in bad.err


def test_resend_keeps_the_unique_key(cluster: Cluster, state: Sent) -> None:
    msg_id = state.ids["batch1"]
    r = cluster.mqadmin("queryMsgById", "-n", cluster.ns.addr, "-t", TOPIC, "-i", msg_id, "-s", "true")
    assert r.code == 0, r.err
    assert re.fullmatch(
        rf"prepare resend msg\. originalMsgId={msg_id}SendResult \[sendStatus=SEND_OK, msgId={msg_id}, "
        r"offsetMsgId=[0-9A-F]{32}, messageQueue=MessageQueue \[topic=MsgCmdTopic, brokerName=broker-a, "
        r"queueId=\d\], queueOffset=\d+, recallHandle=null\]",
        r.out,
    )
    both = unique_lookup(cluster, msg_id, "-a")
    assert both.count("Topic:") == 2 and f"/tmp/rocketmq/msgbodys/{msg_id}_1\n" in both
    assert (
        cluster.mqadmin("queryMsgById", "-n", cluster.ns.addr, "-t", TOPIC, "-i", msg_id, "-s", "no").out
        == ""
    )


def test_push_to_a_consumer_directly(cluster: Cluster, state: Sent) -> None:
    base = ["queryMsgById", "-n", cluster.ns.addr, "-t", TOPIC, "-i", state.ids["batch3"], "-g", "StandInCG"]
    with StandInConsumer(cluster.broker.addr, "StandInCG", TOPIC) as consumer:
        r = cluster.mqadmin(*base, "-d", consumer.client_id)
        assert r.code == 0, r.err
        assert r.out == (
            "ConsumeMessageDirectlyResult [order=false, autoCommit=true, consumeResult=CR_SUCCESS, "
            "remark=null, spentTimeMills=7]"
        )
        assert [m.body for m in consumer.consumed] == [b"batch-3"]
        u = cluster.mqadmin("queryMsgByUniqueKey", "-n", cluster.ns.addr, "-t", TOPIC, "-i", state.ids["gbk"],
                            "-g", "StandInCG", "-d", consumer.client_id)  # fmt: skip
        assert u.code == 0 and u.out.startswith("ConsumeMessageDirectlyResult [order=false")
        assert consumer.consumed[-1].body == state.bodies["gbk"]
        # the track of a message now names the group (it is online, pushed, and has not committed)
        tracked = cluster.mqadmin(
            "queryMsgById", "-n", cluster.ns.addr, "-t", TOPIC, "-i", state.ids["batch3"]
        )
        assert (
            "MessageTrack [consumerGroup=StandInCG, trackType=NOT_CONSUME_YET, exceptionDesc=null]\n"
            in tracked.out
        )
    with StandInConsumer(cluster.broker.addr, "StandInPullCG", TOPIC, push=False) as puller:
        r = cluster.mqadmin(*base[:-1], "StandInPullCG", "-d", puller.client_id)
        assert r.out == f"this {puller.client_id} client is not push consumer ,not support direct push \n"
        assert puller.consumed == []


def test_trace_of_a_send(cluster: Cluster, state: Sent) -> None:
    r = cluster.mqadmin(
        "sendMessage", "-n", cluster.ns.addr, "-t", TOPIC, "-p", "traced", "-k", "tk1", "-m", "true"
    )
    assert r.code == 0, r.err
    msg_id = r.out.splitlines()[1].split()[-1]
    t = cluster.mqadmin("queryMsgTraceById", "-n", cluster.ns.addr, "-i", msg_id)
    assert t.code == 0, t.err
    lines = t.out.split("\n")
    assert (
        lines[0]
        == "#Type      #ProducerGroup       #ClientHost          #SendTime            #CostTimes #Status   "
    )
    row = re.fullmatch(
        r"Pub {8}(\d{13}) {8}127\.0\.0\.1 {12}(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d)  (\d+)ms +success   ", lines[1]
    )
    assert row is not None, lines[1]
    assert lines[2:] == ["", ""]
    j = json.loads(cluster.mqadmin("queryMsgTraceById", "-n", cluster.ns.addr, "-i", msg_id, "--json").out)
    assert [v["type"] for v in j["traces"]] == ["Pub"] and j["traces"][0]["success"] is True
    none = cluster.mqadmin("queryMsgTraceById", "-n", cluster.ns.addr, "-i", state.ids["cpp"])
    assert none.code == 7 and "no trace of message" in none.err

    # a consumer's trace of the same message (what a Java consumer's trace dispatcher sends)
    async def consumer_trace(admin):  # type: ignore[no-untyped-def]
        sub_after = "\x01".join(
            ["SubAfter", "req-1", msg_id, "12", "true", "tk1", "0", "1795265166400", "TraceCG"]
        )
        trace = Message(topic="RMQ_SYS_TRACE_TOPIC", body=(sub_after + "\x02").encode())
        trace.keys = f"{msg_id} tk1"
        await Producer(admin, "TraceCG").send(trace)

    with_admin(cluster.ns.addr, consumer_trace)
    both = cluster.mqadmin("queryMsgTraceById", "-n", cluster.ns.addr, "-i", msg_id)
    tail = both.out.split("\n")[3:]
    assert (
        tail[0]
        == "#Type      #ConsumerGroup       #ClientHost          #ConsumerTime        #CostTimes #Status   "
    )
    assert (
        tail[1]
        == "Sub        TraceCG              127.0.0.1            2026-11-21 12:46:06  12ms       success   "
    )
    assert tail[2:] == ["", ""]


def test_json_of_send_probes(cluster: Cluster, state: Sent) -> None:
    ns = cluster.ns.addr
    rt = json.loads(cluster.mqadmin("checkMsgSendRT", "-n", ns, "-t", TOPIC, "-a", "3", "--json").out)
    assert [s["success"] for s in rt["sends"]] == [True] * 3 and isinstance(rt["avgRtMs"], float)
    st = json.loads(cluster.mqadmin("sendMsgStatus", "-n", ns, "-b", "broker-a", "-c", "2", "--json").out)
    assert [s["sendStatus"] for s in st["sends"]] == ["SEND_OK"] * 2 and st["sends"][0][
        "brokerName"
    ] == "broker-a"
    proc = subprocess.Popen(
        [MQADMIN, "clusterRT", "-n", ns, "-a", "2", "-i", "5", "--json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=cluster.env,
        text=True,
    )
    try:
        assert proc.stdout is not None
        first = json.loads(proc.stdout.readline())
    finally:
        proc.terminate()
        proc.wait(10)
    assert first["round"] == 1
    assert first["brokers"][0]["cluster"] == "DefaultCluster" and first["brokers"][0]["successCount"] == 2
