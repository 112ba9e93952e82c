"""Bad input and failures: one clear line on stderr, nothing on stdout, the exit code that says why.

Where Java misbehaves we differ on purpose: a malformed id is refused (Java 5.3.3 runs a 3-day
unique-key query with it and reports "no message"), a backwards time range is refused (Java asks
the brokers, or prints empty queues), consumeMessage's checks go to stderr with exit 2 (Java prints
them on stdout and exits 0), a broker that is down is named (Java hides it behind "no message" or
a stack trace).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from mqadmin.localcluster import free_port
from tests.cli.peers import register_broker, registration_frame
from tests.message_cmds.conftest import TOPIC, Sent
from tests.message_cmds.support import Cluster, Result
from tests.servers import NameServerProcess

USAGE, ERROR, REMOTE, UNREACHABLE, NOT_FOUND = 2, 1, 3, 4, 7


def one_line(r: Result, code: int, *words: str) -> None:
    assert r.code == code, (r.code, r.out, r.err)
    assert r.out == ""
    assert r.err.count("\n") == 1, r.err
    for w in words:
        assert w in r.err, r.err


@pytest.mark.parametrize(
    ("msg_id", "why"),
    [
        ("ZZ00000100002A9F000000000000033A", "not hexadecimal"),
        ("7F00000100002A9F", "this one has 16"),
        ("7F00000100002A9F000000000000033A0", "this one has 33"),
    ],
)
def test_malformed_ids(cluster: Cluster, state: Sent, msg_id: str, why: str) -> None:
    ns = cluster.ns.addr
    for args in (
        ["queryMsgById", "-n", ns, "-t", TOPIC, "-i", msg_id],
        [
            "queryMsgById",
            "-n",
            ns,
            "-t",
            TOPIC,
            "-i",
            f"{state.ids['cpp']},{msg_id}",
        ],  # checked before any lookup
        ["queryMsgByUniqueKey", "-n", ns, "-t", TOPIC, "-i", msg_id],
        ["decodeMessageId", "-i", msg_id],
    ):
        one_line(cluster.mqadmin(*args), USAGE, "is not a message id", why)


def test_ids_that_name_no_message(cluster: Cluster, state: Sent) -> None:
    ns = cluster.ns.addr
    unknown_unique = "C0A8000100002A9F0000000000000000"  # its "port" 0 is no port: a unique key
    one_line(
        cluster.mqadmin("queryMsgById", "-n", ns, "-t", TOPIC, "-i", unknown_unique), NOT_FOUND, "no message"
    )
    port = cluster.broker.addr.rsplit(":", 1)[1]
    past_end = "7F000001" + f"{int(port):08X}" + f"{10**9:016X}"  # our broker, an offset it never wrote
    r = cluster.mqadmin("queryMsgById", "-n", ns, "-t", TOPIC, "-i", past_end)
    one_line(r, NOT_FOUND, "can not find message by the offset", cluster.broker.addr)


def test_key_that_does_not_exist(cluster: Cluster, state: Sent) -> None:
    r = cluster.mqadmin("queryMsgByKey", "-n", cluster.ns.addr, "-t", TOPIC, "-k", "no-such-key")
    one_line(r, NOT_FOUND, "no message with key no-such-key in topic MsgCmdTopic")


@pytest.mark.parametrize(
    "args",
    [
        ["queryMsgByKey", "-t", TOPIC, "-k", "ck1", "-b", "2000", "-e", "1000"],
        ["queryMsgTraceById", "-i", "C0A8000100002A9F0000000000000000", "-b", "2000", "-e", "1000"],
        ["printMsg", "-t", TOPIC, "-b", "2026-01-02#00:00:00:000", "-e", "2026-01-01#00:00:00:000"],
        ["printMsgByQueue", "-t", TOPIC, "-a", "broker-a", "-i", "0", "-b", "2000", "-e", "1000"],
    ],
)
def test_backwards_time_range(cluster: Cluster, state: Sent, args: list[str]) -> None:
    one_line(cluster.mqadmin(*args, "-n", cluster.ns.addr), USAGE, "backwards")


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (
            ["consumeMessage", "-t", TOPIC, "-s", "2000", "-e", "1000"],
            ["beginTimestamp is less than or equal"],
        ),
        (["consumeMessage", "-t", TOPIC, "-c", "0"], ["Please input a positive messageNumber!"]),
        (["consumeMessage", "-t", TOPIC, "-i", "1"], ["Please set the brokerName before queueId!"]),
        (["consumeMessage", "-t", TOPIC, "-s", "4102444800000"], ["beginTimestamp before now"]),
        (["printMsg", "-t", TOPIC, "-b", "yesterday"], ["-b takes now, epoch", "not 'yesterday'"]),
        (["printMsg", "-t", TOPIC, "-c", "NO-SUCH-CHARSET"], ["unknown charset"]),
        (["queryMsgByKey", "-t", TOPIC, "-k", "k", "-m", "lots"], ["-m takes a number"]),
        (["queryMsgByOffset", "-t", TOPIC, "-b", "broker-a", "-i", "0", "-o", "-1"], ["-o takes an offset"]),
        (
            ["sendMessage", "-t", TOPIC, "-p", "x", "-i", "1"],
            ["Broker name must be set if the queue is chosen!"],
        ),
        (["sendMessage", "-t", TOPIC, "-p", "   "], ["the message body length is zero"]),
        (["sendMessage", "-t", "bad topic!", "-p", "x"], ["contains illegal characters"]),
        (["checkMsgSendRT", "-t", TOPIC, "-a", "many"], ["-a takes a number"]),
    ],
)
def test_bad_values_are_refused_before_sending(
    cluster: Cluster, state: Sent, args: list[str], words: list[str]
) -> None:
    one_line(cluster.mqadmin(*args, "-n", cluster.ns.addr), USAGE, *words)


def test_unknown_topic_and_broker(cluster: Cluster, state: Sent) -> None:
    ns = cluster.ns.addr
    one_line(cluster.mqadmin("printMsg", "-n", ns, "-t", "NoSuchTopic"), NOT_FOUND, "CODE: 17", "NoSuchTopic")
    one_line(
        cluster.mqadmin("queryMsgByKey", "-n", ns, "-t", "NoSuchTopic", "-k", "k"),
        NOT_FOUND,
        "CODE: 17",
        "NoSuchTopic",
    )
    r = cluster.mqadmin("queryMsgByOffset", "-n", ns, "-t", TOPIC, "-b", "broker-z", "-i", "0", "-o", "0")
    one_line(r, ERROR, "The broker[broker-z] not exist")
    r = cluster.mqadmin("sendMessage", "-n", ns, "-t", TOPIC, "-p", "x", "-b", "broker-z", "-i", "0")
    one_line(r, ERROR, "The broker[broker-z] not exist")


# ------------------------------------------------------------------------------ a broker that is down


@pytest.fixture(scope="module")
def down(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[NameServerProcess, str]]:
    """Our name server routing ``GoldenTopic`` to a broker address where nothing listens.

    A broker that dies while its name server still routes to it (the name server learns it only
    when the connection drops or the registration expires): the real 4.9.8 broker's recorded
    registration is replayed with a dead address, over a connection that stays open.
    """
    ns = NameServerProcess(tmp_path_factory.mktemp("down-ns"))
    dead = f"127.0.0.1:{free_port()}"
    try:
        register_broker(ns, registration_frame("rocketmq-5.3.3/v02_topicRoute"), dead)
        yield ns, dead
    finally:
        ns.stop()


@pytest.mark.parametrize(
    "args",
    [
        ["printMsg", "-t", "GoldenTopic"],
        ["printMsgByQueue", "-t", "GoldenTopic", "-a", "broker-a", "-i", "0", "-p", "true"],
        ["consumeMessage", "-t", "GoldenTopic"],
        ["queryMsgByKey", "-t", "GoldenTopic", "-k", "gkey1"],
        ["queryMsgByOffset", "-t", "GoldenTopic", "-b", "broker-a", "-i", "0", "-o", "0"],
        ["sendMessage", "-t", "GoldenTopic", "-p", "again"],
        ["queryMsgByUniqueKey", "-t", "GoldenTopic", "-i", "C0A8000100002A9F0000000000000000"],
    ],
)
def test_broker_down(cluster: Cluster, down: tuple[NameServerProcess, str], args: list[str]) -> None:
    ns, dead = down
    one_line(cluster.mqadmin(*args, "-n", ns.addr), UNREACHABLE, f"connect to {dead} failed")


def test_broker_down_lookups_by_id(cluster: Cluster, down: tuple[NameServerProcess, str]) -> None:
    ns, dead = down
    offset_id = "7F000001" + f"{int(dead.rsplit(':', 1)[1]):08X}" + f"{826:016X}"
    for msg_id in (offset_id, "C0A8000100002A9F0000000000000000"):
        r = cluster.mqadmin("queryMsgById", "-n", ns.addr, "-t", "GoldenTopic", "-i", msg_id)
        one_line(r, UNREACHABLE, f"connect to {dead} failed")


def test_broker_down_rt_check_reports_each_send(
    cluster: Cluster, down: tuple[NameServerProcess, str]
) -> None:
    ns, dead = down
    r = cluster.mqadmin("checkMsgSendRT", "-n", ns.addr, "-t", "GoldenTopic", "-a", "2")
    assert r.code == UNREACHABLE
    rows = r.out.splitlines()
    assert [row.split()[2] for row in rows[1:3]] == ["false", "false"]
    assert r.err.count("\n") == 1 and f"connect to {dead} failed" in r.err
