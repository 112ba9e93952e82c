"""ACL 1.0 on our broker (``aclEnable=true`` and a ``plain_acl.yml``), over real sockets, as a Java broker
with ``PlainAccessValidator`` decides: unsigned, unknown and wrongly signed requests are refused with
NO_PERMISSION and Java's ``AclException`` text and change nothing; admin-only codes need an admin
account; topic and group perms hold on send and pull; white-listed addresses pass unsigned.

Signed requests come from our remoting client with :class:`~mqadmin.admin.signing.AclSigner`, from the
``mqadmin`` command (a subprocess, ``--access-key``/``--secret-key``) and from the real C++ client
(``set_session_credentials``), whose signature (sorted ext field values, then the body, HmacSHA1) is
the one Java checks.
"""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from mqadmin.admin.settings import Credentials
from mqadmin.admin.signing import AclSigner
from mqadmin.protocol.acl import UNIQUE_MSG_QUERY_FLAG, signature
from mqadmin.protocol.codes import RequestCode, ResponseCode
from mqadmin.protocol.command import RemotingCommand
from mqadmin.protocol.frame import FrameDecoder, encode
from mqadmin.protocol.message_record import decode_messages
from tests.broker.peers import call
from tests.broker.signed_cpp import cpp_send
from tests.captures import Frame, all_frames
from tests.cli_harness import clean_env, run_mqadmin
from tests.servers import BrokerProcess, NameServerProcess

ADMIN = Credentials("AdminAK01", "AdminSK01")
USER = Credentials("UserAK001", "UserSK001")
WHITE = Credentials("WhiteAK01", "WhiteSK01")
NOBODY = Credentials("NobodyAK1", "NobodySK1")

PLAIN_ACL = """\
globalWhiteRemoteAddresses:
  - 127.0.0.2
accounts:
  - accessKey: AdminAK01
    secretKey: AdminSK01
    admin: true
  - accessKey: UserAK001
    secretKey: UserSK001
    admin: false
    defaultTopicPerm: DENY
    defaultGroupPerm: SUB
    topicPerms:
      - TopicPub=PUB
      - TopicSub=SUB
      - TopicBoth=PUB|SUB
      - TopicDeny=DENY
    groupPerms:
      - DeniedGroup=DENY
  - accessKey: WhiteAK01
    secretKey: WhiteSK01
    whiteRemoteAddress: 127.0.0.3-5
"""

TOPICS = ("TopicPub", "TopicSub", "TopicBoth", "TopicDeny", "TopicOther")


# ---------------------------------------------------------------------------------- helpers


def signed(cmd: RemotingCommand, who: Credentials) -> RemotingCommand:
    AclSigner(who)(cmd)
    return cmd


def create_topic_cmd(topic: str, queues: int = 1) -> RemotingCommand:
    return RemotingCommand.request(
        RequestCode.UPDATE_AND_CREATE_TOPIC,
        {
            "topic": topic,
            "defaultTopic": "TBW102",
            "readQueueNums": str(queues),
            "writeQueueNums": str(queues),
            "perm": "6",
            "topicFilterType": "SINGLE_TAG",
            "topicSysFlag": "0",
            "order": "false",
        },
    )


def send_cmd(topic: str, body: bytes = b"hello", code: int = RequestCode.SEND_MESSAGE_V2) -> RemotingCommand:
    v2 = {
        "a": "AclPG",
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
    if code == RequestCode.SEND_MESSAGE:
        names = "producerGroup topic defaultTopic defaultTopicQueueNums queueId sysFlag bornTimestamp flag"
        names += " properties reconsumeTimes unitMode batch"
        v2 = dict(zip(names.split(), v2.values(), strict=True))
    return RemotingCommand.request(code, v2, body)


def pull_cmd(topic: str, group: str = "AclGroup") -> RemotingCommand:
    return RemotingCommand.request(
        RequestCode.PULL_MESSAGE,
        {
            "consumerGroup": group,
            "topic": topic,
            "queueId": "0",
            "queueOffset": "0",
            "maxMsgNums": "32",
            "sysFlag": "4",  # the subscription comes with the request
            "commitOffset": "0",
            "suspendTimeoutMillis": "0",
            "subVersion": "0",
            "subscription": "*",
        },
    )


def max_offset(addr: str, topic: str) -> int:
    cmd = RemotingCommand.request(RequestCode.GET_MAX_OFFSET, {"topic": topic, "queueId": "0"})
    resp = call(addr, signed(cmd, ADMIN))
    assert resp.code == ResponseCode.SUCCESS, resp.remark
    return int((resp.ext_fields or {})["offset"])


def call_from(source_ip: str, addr: str, cmd: RemotingCommand, timeout: float = 10.0) -> RemotingCommand:
    """One request over a socket whose local address is ``source_ip`` (any of 127/8 is loopback)."""
    host, port = addr.rsplit(":", 1)
    with socket.socket() as s:
        s.settimeout(timeout)
        s.bind((source_ip, 0))
        s.connect((host, int(port)))
        s.sendall(encode(cmd))
        decoder = FrameDecoder()
        while True:
            data = s.recv(65536)
            assert data, "connection closed without an answer"
            for frame in decoder.feed(data):
                if frame.opaque == cmd.opaque:
                    return frame


def assert_refused(resp: RemotingCommand, remark: str) -> None:
    assert (resp.code, resp.remark) == (ResponseCode.NO_PERMISSION, remark)


def start_acl_broker(workdir: Path, ns_addr: str, acl_text: str | None = PLAIN_ACL) -> BrokerProcess:
    """A broker with ``aclEnable=true`` and ``acl_text`` as ``${rocketmqHome}/conf/plain_acl.yml``."""
    home = workdir / "home"
    (home / "conf").mkdir(parents=True, exist_ok=True)
    if acl_text is not None:
        (home / "conf" / "plain_acl.yml").write_text(acl_text)
    return BrokerProcess(workdir / "broker", ns_addr, aclEnable="true", rocketmqHome=home)


@pytest.fixture(scope="module")
def acl_broker(
    tmp_path_factory: pytest.TempPathFactory, namesrv: NameServerProcess
) -> Iterator[BrokerProcess]:
    broker = start_acl_broker(tmp_path_factory.mktemp("acl"), namesrv.addr)
    try:
        for topic in TOPICS:
            resp = call(broker.addr, signed(create_topic_cmd(topic), ADMIN))
            assert resp.code == ResponseCode.SUCCESS, resp.remark
        yield broker
    finally:
        broker.stop()


def topics_json(broker: BrokerProcess) -> bytes:
    return (broker.workdir / "store" / "config" / "topics.json").read_bytes()


# ---------------------------------------------------------------------------------- reproducer 7


def admin_requests() -> list[RemotingCommand]:
    """17 (create a topic), 25 (change a setting), 215 (delete a topic): each would change a file."""
    return [
        create_topic_cmd("AclVictimNew"),
        RemotingCommand.request(RequestCode.UPDATE_BROKER_CONFIG, None, b"fileReservedTime=1\n"),
        RemotingCommand.request(RequestCode.DELETE_TOPIC_IN_BROKER, {"topic": "TopicPub"}),
    ]


def test_unsigned_unknown_and_badly_signed_admin_requests_are_refused_and_change_nothing(
    acl_broker: BrokerProcess,
) -> None:
    before_topics = topics_json(acl_broker)
    before_config = acl_broker.config.read_bytes()
    for make in range(len(admin_requests())):
        code = admin_requests()[make].code

        assert_refused(call(acl_broker.addr, admin_requests()[make]), "No accessKey is configured")

        assert_refused(
            call(acl_broker.addr, signed(admin_requests()[make], NOBODY)), "No acl config for NobodyAK1"
        )

        wrong_secret = Credentials(ADMIN.access_key, "NotTheSecret")
        assert_refused(
            call(acl_broker.addr, signed(admin_requests()[make], wrong_secret)),
            "Check signature failed for accessKey=AdminAK01",
        )

        # rightly signed, then changed on the way: the signature covers every field and the body
        tampered = signed(admin_requests()[make], ADMIN)
        if tampered.body:
            tampered.body = b"fileReservedTime=2\n"
        else:
            assert tampered.ext_fields is not None
            tampered.ext_fields["topic"] = "TopicSub"
        assert_refused(call(acl_broker.addr, tampered), "Check signature failed for accessKey=AdminAK01")

        # a right signature of an account that is not admin
        assert_refused(
            call(acl_broker.addr, signed(admin_requests()[make], USER)),
            f"Need admin permission for request code={code}, but accessKey=UserAK001 is not",
        )
    assert topics_json(acl_broker) == before_topics
    assert acl_broker.config.read_bytes() == before_config
    conf = call(acl_broker.addr, signed(RemotingCommand.request(RequestCode.GET_BROKER_CONFIG), ADMIN))
    assert "fileReservedTime=72\n" in (conf.body or b"").decode()
    assert b'"TopicPub"' in before_topics and b"AclVictimNew" not in before_topics
    assert "No accessKey is configured" in acl_broker.log()  # each refusal is one log line


def test_a_request_without_ext_fields_or_with_an_unknown_code_is_checked_too(
    acl_broker: BrokerProcess,
) -> None:
    resp = call(acl_broker.addr, RemotingCommand.request(RequestCode.GET_BROKER_CLUSTER_INFO))
    assert_refused(resp, "No accessKey is configured")
    resp = call(acl_broker.addr, RemotingCommand.request(9999, {"x": "y"}))
    assert_refused(resp, "No accessKey is configured")
    # a code no declaration names is an operator's: an ordinary account is refused (Java: not checked)
    resp = call(acl_broker.addr, signed(RemotingCommand.request(9999, {"x": "y"}), USER))
    need = f"Need admin permission for request code=9999, but accessKey={USER.access_key} is not"
    assert_refused(resp, need)
    resp = call(acl_broker.addr, signed(RemotingCommand.request(9999, {"x": "y"}), ADMIN))
    assert resp.code == ResponseCode.REQUEST_CODE_NOT_SUPPORTED


def test_a_signed_admin_request_is_carried_out(acl_broker: BrokerProcess) -> None:
    before = topics_json(acl_broker)
    resp = call(acl_broker.addr, signed(create_topic_cmd("AclCreatedByAdmin"), ADMIN))
    assert resp.code == ResponseCode.SUCCESS, resp.remark
    assert b"AclCreatedByAdmin" in topics_json(acl_broker) and topics_json(acl_broker) != before
    resp = call(
        acl_broker.addr,
        signed(
            RemotingCommand.request(RequestCode.DELETE_TOPIC_IN_BROKER, {"topic": "AclCreatedByAdmin"}), ADMIN
        ),
    )
    assert resp.code == ResponseCode.SUCCESS, resp.remark
    assert b"AclCreatedByAdmin" not in topics_json(acl_broker)


# ---------------------------------------------------------------------------------- the mqadmin command


def test_mqadmin_signs_for_an_admin_and_is_refused_for_a_user(
    acl_broker: BrokerProcess, namesrv: NameServerProcess, tmp_path: Path
) -> None:
    env = clean_env(tmp_path / "home", tmp_path / "cfg")

    def mqadmin(who: Credentials | None, *args: str) -> tuple[int, str]:
        keys = ["--access-key", who.access_key, "--secret-key", who.secret_key] if who else []
        r = run_mqadmin([*args, *keys], env)
        return r.code, r.out + r.err

    code, out = mqadmin(None, "updateTopic", "-b", acl_broker.addr, "-t", "CliAclTopic")
    assert code != 0 and "No accessKey is configured" in out, out
    code, out = mqadmin(USER, "updateTopic", "-b", acl_broker.addr, "-t", "CliAclTopic")
    assert code != 0 and "Need admin permission for request code=17, but accessKey=UserAK001 is not" in out, (
        out
    )
    assert b"CliAclTopic" not in topics_json(acl_broker)

    code, out = mqadmin(ADMIN, "updateTopic", "-b", acl_broker.addr, "-t", "CliAclTopic")
    assert code == 0, out
    assert b"CliAclTopic" in topics_json(acl_broker)

    before = acl_broker.config.read_bytes()
    code, out = mqadmin(
        USER, "updateBrokerConfig", "-b", acl_broker.addr, "-k", "fileReservedTime", "-v", "48"
    )
    assert code != 0 and "Need admin permission for request code=25" in out, out
    assert acl_broker.config.read_bytes() == before
    code, out = mqadmin(
        ADMIN, "updateBrokerConfig", "-b", acl_broker.addr, "-k", "fileReservedTime", "-v", "48"
    )
    assert code == 0, out
    assert "fileReservedTime=48" in acl_broker.config.read_text()

    code, out = mqadmin(USER, "deleteTopic", "-n", namesrv.addr, "-c", "DefaultCluster", "-t", "CliAclTopic")
    assert code != 0 and "Need admin permission for request code=215" in out, out
    assert b"CliAclTopic" in topics_json(acl_broker)
    code, out = mqadmin(ADMIN, "deleteTopic", "-n", namesrv.addr, "-c", "DefaultCluster", "-t", "CliAclTopic")
    assert code == 0, out
    assert b"CliAclTopic" not in topics_json(acl_broker)


# ---------------------------------------------------------------------------------- topic and group perms


def test_topic_perms_on_send(acl_broker: BrokerProcess) -> None:
    for topic in ("TopicPub", "TopicBoth"):
        before = max_offset(acl_broker.addr, topic)
        resp = call(acl_broker.addr, signed(send_cmd(topic), USER))
        assert resp.code == ResponseCode.SUCCESS, resp.remark
        assert max_offset(acl_broker.addr, topic) == before + 1
    for topic in ("TopicSub", "TopicDeny", "TopicOther"):  # SUB only, DENY, and the default (DENY)
        for code in (RequestCode.SEND_MESSAGE_V2, RequestCode.SEND_MESSAGE):
            resp = call(acl_broker.addr, signed(send_cmd(topic, code=code), USER))
            assert_refused(resp, f"No default permission for topic:{topic}")
        assert max_offset(acl_broker.addr, topic) == 0
    # the admin account lists no perms at all: everything is allowed
    resp = call(acl_broker.addr, signed(send_cmd("TopicDeny"), ADMIN))
    assert resp.code == ResponseCode.SUCCESS, resp.remark
    assert max_offset(acl_broker.addr, "TopicDeny") == 1


def test_topic_and_group_perms_on_pull(acl_broker: BrokerProcess) -> None:
    assert call(acl_broker.addr, signed(send_cmd("TopicBoth", b"both"), USER)).code == ResponseCode.SUCCESS
    resp = call(acl_broker.addr, signed(pull_cmd("TopicBoth"), USER))
    assert resp.code == ResponseCode.SUCCESS, resp.remark
    assert b"both" in [m.body for m in decode_messages(resp.body or b"")]
    resp = call(acl_broker.addr, signed(pull_cmd("TopicSub"), USER))
    assert resp.code != ResponseCode.NO_PERMISSION, resp.remark  # allowed (nothing there to read)
    for topic in ("TopicPub", "TopicDeny", "TopicOther"):
        assert_refused(
            call(acl_broker.addr, signed(pull_cmd(topic), USER)), f"No default permission for topic:{topic}"
        )
    resp = call(acl_broker.addr, signed(pull_cmd("TopicBoth", "DeniedGroup"), USER))
    assert_refused(resp, "No default permission for group:DeniedGroup")


def test_group_perms_on_heartbeat_and_offsets(acl_broker: BrokerProcess) -> None:
    body = json.dumps(
        {
            "clientID": "127.0.0.1@acl",
            "consumerDataSet": [
                {
                    "groupName": "DeniedGroup",
                    "consumeType": "CONSUME_PASSIVELY",
                    "messageModel": "CLUSTERING",
                    "consumeFromWhere": "CONSUME_FROM_LAST_OFFSET",
                    "subscriptionDataSet": [
                        {"topic": "TopicSub", "subString": "*", "tagsSet": [], "codeSet": []}
                    ],
                    "unitMode": False,
                }
            ],
            "producerDataSet": [],
        }
    ).encode()
    resp = call(acl_broker.addr, signed(RemotingCommand.request(RequestCode.HEART_BEAT, None, body), USER))
    assert_refused(resp, "No default permission for group:DeniedGroup")
    ok = body.replace(b"DeniedGroup", b"AllowedGroup")
    resp = call(acl_broker.addr, signed(RemotingCommand.request(RequestCode.HEART_BEAT, None, ok), USER))
    assert resp.code == ResponseCode.SUCCESS, resp.remark

    offsets = {"consumerGroup": "AllowedGroup", "topic": "TopicPub", "queueId": "0", "commitOffset": "0"}
    resp = call(
        acl_broker.addr, signed(RemotingCommand.request(RequestCode.UPDATE_CONSUMER_OFFSET, offsets), USER)
    )
    assert_refused(resp, "No default permission for topic:TopicPub")
    del offsets["queueId"]
    resp = call(
        acl_broker.addr, signed(RemotingCommand.request(RequestCode.UPDATE_CONSUMER_OFFSET, offsets), USER)
    )
    assert_refused(resp, "the custom field <queueId> is null")


# ---------------------------------------------------------------------------------- white lists


def test_white_listed_addresses_pass_unsigned(acl_broker: BrokerProcess) -> None:
    # the global white list: no credentials at all
    resp = call_from("127.0.0.2", acl_broker.addr, create_topic_cmd("FromGlobalWhite"))
    assert resp.code == ResponseCode.SUCCESS, resp.remark
    assert b"FromGlobalWhite" in topics_json(acl_broker)
    # the same request from elsewhere
    assert_refused(
        call_from("127.0.0.6", acl_broker.addr, create_topic_cmd("NotWhite")), "No accessKey is configured"
    )

    # an account's own white list (127.0.0.3-5): its AccessKey, no signature; as in Java, that skips the
    # perm checks too (the account is not admin)
    unsigned = create_topic_cmd("FromAccountWhite")
    assert unsigned.ext_fields is not None
    unsigned.ext_fields["AccessKey"] = WHITE.access_key
    resp = call_from("127.0.0.4", acl_broker.addr, unsigned)
    assert resp.code == ResponseCode.SUCCESS, resp.remark
    for source in ("127.0.0.1", "127.0.0.6"):
        again = create_topic_cmd("FromAccountWhite2")
        assert again.ext_fields is not None
        again.ext_fields["AccessKey"] = WHITE.access_key
        assert_refused(
            call_from(source, acl_broker.addr, again), "Check signature failed for accessKey=WhiteAK01"
        )
    assert b"FromAccountWhite2" not in topics_json(acl_broker)


# ---------------------------------------------------------------------------------- the C++ client


def test_cpp_client_signed_producer(acl_broker: BrokerProcess, namesrv: NameServerProcess) -> None:
    before = max_offset(acl_broker.addr, "TopicBoth")
    events = cpp_send(namesrv.addr, "TopicBoth", 3, USER)
    assert [e.get("status") for e in events if e["event"] == "sent"] == ["OK"] * 3, events
    assert max_offset(acl_broker.addr, "TopicBoth") == before + 3

    # a topic the account may not publish to
    events = cpp_send(namesrv.addr, "TopicSub", 1, USER)
    assert [e["event"] for e in events] == ["error", "done"], events
    assert max_offset(acl_broker.addr, "TopicSub") == 0

    # a wrong secret: every request is refused, nothing is stored
    events = cpp_send(namesrv.addr, "TopicBoth", 2, Credentials(USER.access_key, "WrongSecret1"))
    assert [e["event"] for e in events] == ["error", "error", "done"], events
    assert max_offset(acl_broker.addr, "TopicBoth") == before + 3
    assert "refused request SEND_MESSAGE from 127.0.0.1" in acl_broker.log()
    assert "Check signature failed for accessKey=UserAK001" in acl_broker.log()


# ---------------------------------------------------------------------------------- the files


def start_failure(tmp_path: Path, ns_addr: str, acl_text: str | None) -> str:
    with pytest.raises(RuntimeError) as e:
        start_acl_broker(tmp_path, ns_addr, acl_text)
    lines = [line for line in str(e.value).split(":", 1)[1].strip().splitlines() if line.strip()]
    assert len(lines) == 1, lines
    return lines[0]


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("accounts:\n  - accessKey: [unclosed\n", "not valid YAML"),
        ("accounts:\n  - accessKey: Short\n    secretKey: LongEnough\n", "must be longer than 6 characters"),
        (
            "accounts:\n  - accessKey: LongEnough\n    secretKey: LongEnough\n"
            "    whiteRemoteAddress: 300.1.1.1\n",
            "bad address '300.1.1.1'",
        ),
        (
            "accounts:\n  - accessKey: LongEnough\n    secretKey: LongEnough\n    topicPerms: [TopicA]\n",
            "is not topic=PERM",
        ),
        ("- just\n- a list\n", "expected a mapping"),
    ],
)
def test_a_malformed_file_refuses_to_start(
    tmp_path: Path, namesrv: NameServerProcess, text: str, problem: str
) -> None:
    line = start_failure(tmp_path, namesrv.addr, text)
    assert str(tmp_path / "home" / "conf" / "plain_acl.yml") in line and problem in line, line


def test_no_file_refuses_to_start(tmp_path: Path, namesrv: NameServerProcess) -> None:
    line = start_failure(tmp_path, namesrv.addr, None)
    assert "aclEnable=true but there is no ACL file" in line, line


def test_without_rocketmq_home_the_file_is_read_from_the_store_config_dir(
    tmp_path: Path, namesrv: NameServerProcess
) -> None:
    config = tmp_path / "broker" / "store" / "config"
    config.mkdir(parents=True)
    (config / "plain_acl.yml").write_text(PLAIN_ACL)
    broker = BrokerProcess(tmp_path / "broker", namesrv.addr, aclEnable="true", rocketmqHome="")
    try:
        assert_refused(call(broker.addr, create_topic_cmd("T1")), "No accessKey is configured")
        assert call(broker.addr, signed(create_topic_cmd("T1"), ADMIN)).code == ResponseCode.SUCCESS
    finally:
        broker.stop()


def test_a_changed_file_is_read_again_and_a_broken_one_keeps_the_acl_in_force(
    tmp_path: Path, namesrv: NameServerProcess
) -> None:
    broker = start_acl_broker(tmp_path, namesrv.addr)
    acl_file = tmp_path / "home" / "conf" / "plain_acl.yml"
    try:
        assert call(broker.addr, signed(create_topic_cmd("TopicDeny"), ADMIN)).code == ResponseCode.SUCCESS
        assert_refused(
            call(broker.addr, signed(send_cmd("TopicDeny"), USER)),
            "No default permission for topic:TopicDeny",
        )

        acl_file.write_text(PLAIN_ACL.replace("TopicDeny=DENY", "TopicDeny=PUB"))
        deadline = time.monotonic() + 20
        while True:  # the files are looked at every 5 s, when a request comes
            resp = call(broker.addr, signed(send_cmd("TopicDeny"), USER))
            if resp.code == ResponseCode.SUCCESS or time.monotonic() > deadline:
                break
            time.sleep(0.5)
        assert resp.code == ResponseCode.SUCCESS, resp.remark

        acl_file.write_text("accounts: [unclosed\n")
        time.sleep(6)
        assert call(broker.addr, signed(send_cmd("TopicDeny"), USER)).code == ResponseCode.SUCCESS
        assert_refused(call(broker.addr, send_cmd("TopicDeny")), "No accessKey is configured")
        assert "not valid YAML" in broker.log() and "the ACL in force is kept" in broker.log()
        assert broker.alive
    finally:
        broker.stop()


def test_query_by_unique_key_is_taken_signed_with_or_without_the_flag(acl_broker: BrokerProcess) -> None:
    """Java clients sign ``_UNIQUE_KEY_QUERY``; a 4.9.8 broker checks without it: both are taken."""
    fields = {
        "topic": "TopicSub",
        "key": "0A0B0C0D00002A9F0000000000000000",
        "maxNum": "32",
        "beginTimestamp": "0",
        "endTimestamp": str(2**62),
        UNIQUE_MSG_QUERY_FLAG: "true",
    }
    resp = call(
        acl_broker.addr, signed(RemotingCommand.request(RequestCode.QUERY_MESSAGE, dict(fields)), USER)
    )
    assert resp.code != ResponseCode.NO_PERMISSION, resp.remark
    as_java_checks = dict(fields, AccessKey=USER.access_key)
    as_java_checks["Signature"] = signature(
        as_java_checks, None, USER.secret_key, ignore=(UNIQUE_MSG_QUERY_FLAG,)
    )
    resp = call(acl_broker.addr, RemotingCommand.request(RequestCode.QUERY_MESSAGE, as_java_checks))
    assert resp.code != ResponseCode.NO_PERMISSION, resp.remark
    as_java_checks["maxNum"] = "33"
    assert_refused(
        call(acl_broker.addr, RemotingCommand.request(RequestCode.QUERY_MESSAGE, as_java_checks)),
        "Check signature failed for accessKey=UserAK001",
    )
    fields["topic"] = "TopicPub"
    resp = call(acl_broker.addr, signed(RemotingCommand.request(RequestCode.QUERY_MESSAGE, fields), USER))
    assert_refused(resp, "No default permission for topic:TopicPub")


STOCK_PLAIN_ACL = """\
globalWhiteRemoteAddresses:
  - 10.10.103.*
  - 192.168.0.*
accounts:
  - accessKey: RocketMQ
    secretKey: 12345678
    whiteRemoteAddress:
    admin: false
    defaultTopicPerm: DENY
    defaultGroupPerm: SUB
    topicPerms: [topicA=DENY, topicB=PUB|SUB, topicC=SUB]
    groupPerms: [groupA=DENY, groupB=PUB|SUB, groupC=SUB]
  - accessKey: rocketmq2
    secretKey: 12345678
    whiteRemoteAddress: 192.168.1.*
    admin: true
"""
"""The accounts of the stock ``conf/plain_acl.yml``; the recorded Java tool signed as ``rocketmq2``."""


def recorded_signed_broker_requests() -> list[Frame]:
    return [
        f
        for f in all_frames()
        if f.dir == "request"
        and f.header["language"] == "JAVA"
        and f.server_port not in (9876, 9877)
        and "Signature" in (f.header.get("extFields") or {})
    ]


def exchange_frames(addr: str, frames: list[bytes], opaques: list[int]) -> list[RemotingCommand]:
    """Write each recorded frame as it is, one after another on one connection; their answers."""
    host, port = addr.rsplit(":", 1)
    answers = []
    with socket.create_connection((host, int(port)), timeout=10) as s:
        decoder = FrameDecoder()
        for frame, opaque in zip(frames, opaques, strict=True):
            s.sendall(frame)
            got = None
            while got is None:
                data = s.recv(65536)
                assert data, "connection closed"
                got = next((c for c in decoder.feed(data) if c.flag & 1 and c.opaque == opaque), None)
            answers.append(got)
    return answers


def test_the_java_tools_recorded_signatures_are_accepted(tmp_path: Path, namesrv: NameServerProcess) -> None:
    """Every signed request the Java 4.9.8 and 5.3.3 ``mqadmin`` sent to a broker, byte for byte."""
    frames = recorded_signed_broker_requests()
    assert len(frames) > 100
    broker = start_acl_broker(tmp_path, namesrv.addr, STOCK_PLAIN_ACL)
    try:
        answers = exchange_frames(
            broker.addr, [f.frame for f in frames], [f.header["opaque"] for f in frames]
        )
        refused = [
            (f.scenario, f.header["code"], a.remark)
            for f, a in zip(frames, answers, strict=True)
            if a.code == ResponseCode.NO_PERMISSION
        ]
        assert refused == []

        # the same requests with one signed value changed: each is refused
        firsts = list({f.header["code"]: f for f in frames}.values())
        changed = []
        for f in firsts:
            cmd = RemotingCommand.request(f.header["code"], dict(f.header["extFields"]), f.body or None)
            assert cmd.ext_fields is not None
            cmd.ext_fields["Signature"] = signature(cmd.ext_fields, b"x" + f.body, "12345678")
            changed.append(cmd)
        answers = exchange_frames(broker.addr, [encode(c) for c in changed], [c.opaque for c in changed])
        for f, a in zip(firsts, answers, strict=True):
            assert (a.code, a.remark) == (
                ResponseCode.NO_PERMISSION,
                "Check signature failed for accessKey=rocketmq2",
            ), f
    finally:
        broker.stop()
