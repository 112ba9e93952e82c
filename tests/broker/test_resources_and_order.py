"""What a request is checked on, and when: a retry or DLQ topic is its group's whatever group the
request names (break 4), credentials are checked before any body is read (break 9), and ACL 1.0
keeps the operator's requests of a 5.x-mode broker for admin accounts (break 7).

Real broker processes of ours on loopback ports picked at run time: one with ACL 2.0 (alice holds
Topic:AliceTopic Pub/Sub and Group:AliceGroup Sub, as in the issue), one with ACL 1.0.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator

import pytest

from mqadmin.admin.settings import Credentials
from mqadmin.protocol.codes import RequestCode, ResponseCode
from mqadmin.protocol.command import RemotingCommand
from tests.broker.peers import call, create_topic_fields
from tests.broker.test_acl import ADMIN, PLAIN_ACL, USER, pull_cmd, send_cmd, signed
from tests.broker.test_auth_v2 import (
    ALICE,
    ROOT,
    as_user,
    create_topic,
    ensure_alice,
    ok,
    put_acl,
    start_auth_broker,
)
from tests.servers import BrokerProcess, NameServerProcess

ALICE_TOPIC, ALICE_GROUP, VICTIM_GROUP = "AliceTopic", "AliceGroup", "VictimGroup"


@pytest.fixture(scope="module")
def acl2(tmp_path_factory: pytest.TempPathFactory, namesrv: NameServerProcess) -> Iterator[BrokerProcess]:
    b = start_auth_broker(tmp_path_factory.mktemp("order2") / "broker", namesrv.addr)
    try:
        ensure_alice(b)
        put_acl(b, f"Topic:{ALICE_TOPIC}", ["Pub", "Sub"], "Allow")
        put_acl(b, f"Group:{ALICE_GROUP}", ["Sub"], "Allow")
        create_topic(b, namesrv, ALICE_TOPIC)
        for group in (ALICE_GROUP, VICTIM_GROUP):
            body = json.dumps({"groupName": group, "consumeEnable": True, "retryQueueNums": 1})
            ok(as_user(b, ROOT, RequestCode.UPDATE_AND_CREATE_SUBSCRIPTIONGROUP, None, body.encode()))
        yield b
    finally:
        b.stop()


def _retry_send(topic: str, named_group: str) -> RemotingCommand:
    cmd = send_cmd(topic)
    assert cmd.ext_fields is not None
    cmd.ext_fields["a"] = named_group
    return cmd


def test_acl2_a_retry_topic_is_checked_as_its_own_group(acl2: BrokerProcess) -> None:
    for topic in (f"%RETRY%{VICTIM_GROUP}", f"%DLQ%{VICTIM_GROUP}"):
        resp = call(acl2.addr, signed(_retry_send(topic, ALICE_GROUP), ALICE))
        assert resp.code == ResponseCode.NO_PERMISSION, (topic, resp.remark)
        assert f"Group:{VICTIM_GROUP}" in (resp.remark or ""), resp.remark
    resp = call(acl2.addr, signed(pull_cmd(f"%RETRY%{VICTIM_GROUP}", ALICE_GROUP), ALICE))
    assert resp.code == ResponseCode.NO_PERMISSION and f"Group:{VICTIM_GROUP}" in (resp.remark or "")
    # her own retry topic and her own topic are hers
    resp = call(acl2.addr, signed(_retry_send(f"%RETRY%{ALICE_GROUP}", "SomeProducerGroup"), ALICE))
    assert resp.code != ResponseCode.NO_PERMISSION, resp.remark
    resp = call(acl2.addr, signed(pull_cmd(ALICE_TOPIC, ALICE_GROUP), ALICE))
    assert resp.code != ResponseCode.NO_PERMISSION, resp.remark


def test_acl2_credentials_come_before_the_body(acl2: BrokerProcess) -> None:
    """An unsigned heartbeat whose body is not JSON is refused for its credentials: nothing read it."""
    junk = RemotingCommand.request(RequestCode.HEART_BEAT, {"x": "1"}, b"{" * 500_000)
    resp = call(acl2.addr, junk)
    assert (resp.code, resp.remark) == (ResponseCode.NO_PERMISSION, "username cannot be null.")
    wrong = signed(RemotingCommand.request(RequestCode.HEART_BEAT, {"x": "1"}, b"{" * 500_000), ROOT)
    assert wrong.ext_fields is not None
    wrong.ext_fields["Signature"] = "bm90IGl0"
    resp = call(acl2.addr, wrong)
    assert (resp.code, resp.remark) == (ResponseCode.NO_PERMISSION, "check signature failed.")


def test_an_oversized_body_is_refused_unread_while_others_are_served(acl2: BrokerProcess) -> None:
    """8 MB of heartbeat stalled the broker 8 s; it is now refused by its size, and a client asking
    meanwhile is answered within a second."""
    answers: list[float] = []

    def other() -> None:
        for _ in range(5):
            t = time.monotonic()
            resp = as_user(acl2, ROOT, RequestCode.GET_BROKER_RUNTIME_INFO)
            assert resp.code == ResponseCode.SUCCESS
            answers.append(time.monotonic() - t)

    t = threading.Thread(target=other)
    t.start()
    body = json.dumps({"clientID": "x", "consumerDataSet": [{"groupName": "g" * 8_000_000}]}).encode()
    resp = call(acl2.addr, RemotingCommand.request(RequestCode.HEART_BEAT, {"x": "1"}, body), timeout=20)
    t.join()
    assert resp.code == ResponseCode.SYSTEM_ERROR and "over its limit of 1048576 bytes" in (resp.remark or "")
    assert answers and max(answers) < 1.0, answers


# ---------------------------------------------------------------------------------- ACL 1.0


@pytest.fixture(scope="module")
def acl1_5x(tmp_path_factory: pytest.TempPathFactory, namesrv: NameServerProcess) -> Iterator[BrokerProcess]:
    """ACL 1.0 on a broker behaving as 5.3.3 (which also serves the ACL 2.0 admin codes)."""
    work = tmp_path_factory.mktemp("order1")
    home = work / "home"
    (home / "conf").mkdir(parents=True)
    (home / "conf" / "plain_acl.yml").write_text(PLAIN_ACL)
    b = BrokerProcess(
        work / "broker", namesrv.addr, aclEnable="true", rocketmqHome=home, rocketmqVersion="5.3.3"
    )
    try:
        yield b
    finally:
        b.stop()


def test_acl1_ordinary_accounts_do_no_operator_work(acl1_5x: BrokerProcess) -> None:
    """Break 7: an ordinary ACL 1.0 account could overwrite topics (18), reset another group's offset
    (314), remap a static topic (513) and, on a 5.x broker, create a user with an All policy (3001,
    3006). Each needs an admin account now; the admin account still does them."""
    topics = (acl1_5x.workdir / "store" / "config" / "topics.json").read_bytes()
    user = json.dumps({"username": "eve", "password": "evePass1", "userType": "Super"}).encode()
    acl = json.dumps(
        {
            "subject": "User:eve",
            "policies": [{"entries": [{"resource": "*", "actions": ["All"], "decision": "Allow"}]}],
        }
    ).encode()
    topic_list = json.dumps([{"topicName": "TopicPub", "perm": 0, "readQueueNums": 1, "writeQueueNums": 1}])
    attempts = [
        RemotingCommand.request(RequestCode.UPDATE_AND_CREATE_TOPIC_LIST, {"x": "1"}, topic_list.encode()),
        RemotingCommand.request(
            RequestCode.CLONE_GROUP_OFFSET, {"srcGroup": "A", "destGroup": "DeniedGroup", "topic": "TopicPub"}
        ),
        RemotingCommand.request(
            RequestCode.UPDATE_AND_CREATE_STATIC_TOPIC, create_topic_fields("TopicPub"), b"{}"
        ),
        RemotingCommand.request(RequestCode.AUTH_CREATE_USER, {"username": "eve"}, user),
        RemotingCommand.request(RequestCode.AUTH_CREATE_ACL, {"subject": "User:eve"}, acl),
    ]
    for cmd in attempts:
        resp = call(acl1_5x.addr, signed(cmd, USER))
        assert resp.code == ResponseCode.NO_PERMISSION, (cmd.code, resp.remark)
        assert f"Need admin permission for request code={cmd.code}" in (resp.remark or ""), resp.remark
    assert (acl1_5x.workdir / "store" / "config" / "topics.json").read_bytes() == topics
    assert (
        not (acl1_5x.workdir / "store" / "config" / "auth" / "users.json").exists()
        or b"eve" not in (acl1_5x.workdir / "store" / "config" / "auth" / "users.json").read_bytes()
    )
    resp = call(acl1_5x.addr, signed(RemotingCommand.request(RequestCode.AUTH_LIST_USER), ADMIN))
    assert resp.code == ResponseCode.SUCCESS, resp.remark


def test_acl1_a_retry_topic_is_its_groups_and_credentials_come_first(acl1_5x: BrokerProcess) -> None:
    # USER: DENY on DeniedGroup, SUB on other groups by default, DENY on topics by default
    resp = call(acl1_5x.addr, signed(_retry_send("%RETRY%DeniedGroup", "AnyGroup"), USER))
    assert (resp.code, resp.remark) == (
        ResponseCode.NO_PERMISSION,
        "No default permission for group:DeniedGroup",
    )
    junk = RemotingCommand.request(RequestCode.HEART_BEAT, {"x": "1"}, b"{" * 500_000)
    resp = call(acl1_5x.addr, junk)
    assert (resp.code, resp.remark) == (ResponseCode.NO_PERMISSION, "No accessKey is configured")
    unknown = Credentials("NobodyAK1", "NobodySK1")
    resp = call(
        acl1_5x.addr, signed(RemotingCommand.request(RequestCode.HEART_BEAT, {"x": "1"}, b"{"), unknown)
    )
    assert (resp.code, resp.remark) == (ResponseCode.NO_PERMISSION, "No acl config for NobodyAK1")
