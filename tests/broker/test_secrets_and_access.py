"""Secrets, switches and other people's messages, over real sockets against our broker.

- GET_BROKER_CONFIG (26) never shows a credential: the super user created at start, the inner
  client's keys, any password or secret key are ``******`` for everyone, super users included;
  every other value is Java's (the captured listings read the same masked).
- UPDATE_BROKER_CONFIG (25) refuses whole, even from a super user, any authentication, ACL,
  credential, path or address key (the ``-c`` file stays byte-identical, nothing changes after a
  restart either); brokerPermission stays an operator's to change.
- VIEW_MESSAGE_BY_ID (33) names only a commit-log offset: the topic of the message found there is
  checked (ACL 2.0: Get; ACL 1.0: SUB), so another topic's message is refused.
- CONSUMER_SEND_MSG_BACK (36) copies only a message of a topic the group subscribes to (or its own
  retry topic) while ACL is on; a foreign offset copies nothing.

``alice`` is an ACL 2.0 normal user with one policy: ``Topic:AliceTopic`` Pub/Sub and
``Group:AliceGroup`` Sub (the ACL 1.0 broker gives the account ``UserAK001`` the same perms).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from mqadmin.admin.settings import Credentials
from mqadmin.admin.signing import AclSigner
from mqadmin.broker.config import BrokerSettings, Configuration
from mqadmin.protocol.bodies.kv import KVTable
from mqadmin.protocol.bodies.properties import string_to_properties
from mqadmin.protocol.codes import RequestCode, ResponseCode
from mqadmin.protocol.command import RemotingCommand
from mqadmin.protocol.configentry import SECRET_MASK, masked_value, protected_key
from mqadmin.protocol.message_record import decode_messages
from mqadmin.protocol.msgid import decode_offset_msg_id
from mqadmin.remoting.client import RemotingClient
from tests.broker.peers import call, create_topic_fields
from tests.broker.test_acl import send_cmd
from tests.captures import pairs
from tests.cli_harness import clean_env, run_mqadmin
from tests.servers import BrokerProcess, NameServerProcess

ROOT = Credentials("rootUser", "rootSecret")
INNER = Credentials("innerUser", "innerSecretKey")
ALICE = Credentials("alice", "aliceSecret")
ADMIN1 = Credentials("AdminAK01", "AdminSK01")
USER1 = Credentials("UserAK001", "UserSK001")
ALICE_TOPIC, OTHER_TOPIC, GROUP = "AliceTopic", "OtherTopic", "AliceGroup"
BLACK_LIST = "Can not update config in black list."

PLAIN_ACL = """\
accounts:
  - accessKey: AdminAK01
    secretKey: AdminSK01
    admin: true
  - accessKey: UserAK001
    secretKey: UserSK001
    admin: false
    defaultTopicPerm: DENY
    defaultGroupPerm: DENY
    topicPerms:
      - AliceTopic=PUB|SUB
    groupPerms:
      - AliceGroup=SUB
"""


# ---------------------------------------------------------------------------------- helpers


def request(code: int, ext: dict[str, str] | None = None, body: bytes | None = None) -> RemotingCommand:
    return RemotingCommand.request(code, dict(ext) if ext else None, body)


def signed(cmd: RemotingCommand, who: Credentials | None) -> RemotingCommand:
    if who is not None:
        AclSigner(who)(cmd)
    return cmd


def as_user(
    b: BrokerProcess, who: Credentials | None, code: int, ext: dict[str, str] | None = None, body: Any = None
) -> RemotingCommand:
    raw = None if body is None else body if isinstance(body, bytes) else json.dumps(body).encode()
    return call(b.addr, signed(request(code, ext, raw), who))


def ok(resp: RemotingCommand) -> RemotingCommand:
    assert resp.code == ResponseCode.SUCCESS, (resp.code, resp.remark)
    return resp


def sent_offset(resp: RemotingCommand) -> int:
    """The commit-log offset of a sent message, from the offset message id the broker answered."""
    ok(resp)
    return decode_offset_msg_id((resp.ext_fields or {})["msgId"])[2]


def view_cmd(offset: int, topic: str | None = None) -> RemotingCommand:
    ext = {"offset": str(offset)}
    if topic is not None:
        ext["topic"] = topic
    return request(RequestCode.VIEW_MESSAGE_BY_ID, ext)


def send_back_cmd(offset: int, delay_level: int = 0) -> RemotingCommand:
    ext = {"offset": str(offset), "group": GROUP, "delayLevel": str(delay_level), "originTopic": ALICE_TOPIC}
    return request(RequestCode.CONSUMER_SEND_MSG_BACK, ext)


def heartbeat_cmd(topic: str) -> RemotingCommand:
    data = {
        "clientID": "alice-client",
        "consumerDataSet": [
            {
                "consumeFromWhere": "CONSUME_FROM_LAST_OFFSET",
                "consumeType": "CONSUME_PASSIVELY",
                "groupName": GROUP,
                "messageModel": "CLUSTERING",
                "subscriptionDataSet": [{"subString": "*", "subVersion": 1, "topic": topic}],
                "unitMode": False,
            }
        ],
        "producerDataSet": [],
    }
    return request(RequestCode.HEART_BEAT, None, json.dumps(data).encode())


def one_connection(addr: str, who: Credentials, cmds: list[RemotingCommand]) -> list[RemotingCommand]:
    """``cmds`` signed as ``who`` over one connection, in order (a consumer's subscriptions last as
    long as its connection)."""

    async def go() -> list[RemotingCommand]:
        async with RemotingClient() as client:
            return [await client.invoke(addr, signed(c, who), 10) for c in cmds]

    return asyncio.run(go())


def commit_log_max(b: BrokerProcess, who: Credentials) -> int:
    resp = ok(call(b.addr, signed(request(RequestCode.GET_BROKER_RUNTIME_INFO), who)))
    table = KVTable.decode(resp.body or b"").table or {}
    return int(table["commitLogMaxOffset"])


def config_dir(b: BrokerProcess) -> Path:
    return b.workdir / "store" / "config"


def state(b: BrokerProcess) -> dict[str, bytes]:
    """The broker's config files (the ``-c`` file, topics, groups, offsets, users and ACLs)."""
    files = [b.config, *sorted(p for p in config_dir(b).rglob("*.json") if p.is_file())]
    return {str(p): p.read_bytes() for p in files}


def listing(b: BrokerProcess, who: Credentials) -> dict[str, str]:
    resp = ok(call(b.addr, signed(request(RequestCode.GET_BROKER_CONFIG), who)))
    return string_to_properties(resp.body or b"")


# ---------------------------------------------------------------------------------- brokers


def acl_entry(resource: str, actions: list[str]) -> dict[str, Any]:
    return {"subject": "User:alice", "policies": [{"entries": [
        {"actions": actions, "decision": "Allow", "resource": resource}]}]}  # fmt: skip


@pytest.fixture(scope="module")
def broker(tmp_path_factory: pytest.TempPathFactory, namesrv: NameServerProcess) -> Iterator[BrokerProcess]:
    """An ACL 2.0 broker with a super user and inner credentials in its ``-c`` file, alice and her
    policy, AliceTopic and OtherTopic (one queue each)."""
    b = BrokerProcess(
        tmp_path_factory.mktemp("secrets") / "broker",
        namesrv.addr,
        rocketmqVersion="5.3.3",
        authenticationEnabled="true",
        authorizationEnabled="true",
        initAuthenticationUser=json.dumps({"username": ROOT.access_key, "password": ROOT.secret_key}),
        innerClientAuthenticationCredentials=json.dumps(
            {"accessKey": INNER.access_key, "secretKey": INNER.secret_key}
        ),
    )
    try:
        user = {"username": ALICE.access_key, "password": ALICE.secret_key}
        ok(as_user(b, ROOT, RequestCode.AUTH_CREATE_USER, {"username": ALICE.access_key}, user))
        for resource, actions in ((f"Topic:{ALICE_TOPIC}", ["Pub", "Sub"]), (f"Group:{GROUP}", ["Sub"])):
            ok(
                as_user(
                    b,
                    ROOT,
                    RequestCode.AUTH_UPDATE_ACL,
                    {"subject": "User:alice"},
                    acl_entry(resource, actions),
                )
            )
        for topic in (ALICE_TOPIC, OTHER_TOPIC):
            fields = create_topic_fields(topic, readQueueNums="1", writeQueueNums="1")
            ok(as_user(b, ROOT, RequestCode.UPDATE_AND_CREATE_TOPIC, fields))
        yield b
    finally:
        if b.alive:
            b.stop()


@pytest.fixture(scope="module")
def acl1_broker(
    tmp_path_factory: pytest.TempPathFactory, namesrv: NameServerProcess
) -> Iterator[BrokerProcess]:
    """An ACL 1.0 broker (``aclEnable``) where UserAK001 has AliceTopic PUB|SUB and AliceGroup SUB."""
    workdir = tmp_path_factory.mktemp("secrets-acl1")
    home = workdir / "home"
    (home / "conf").mkdir(parents=True)
    (home / "conf" / "plain_acl.yml").write_text(PLAIN_ACL)
    b = BrokerProcess(workdir / "broker", namesrv.addr, aclEnable="true", rocketmqHome=home)
    try:
        for topic in (ALICE_TOPIC, OTHER_TOPIC):
            fields = create_topic_fields(topic, readQueueNums="1", writeQueueNums="1")
            ok(call(b.addr, signed(request(RequestCode.UPDATE_AND_CREATE_TOPIC, fields), ADMIN1)))
        yield b
    finally:
        if b.alive:
            b.stop()


# ---------------------------------------------------------------------------------- 1: secrets


def test_credentials_are_masked_by_key_and_by_value() -> None:
    for key in ("initAuthenticationUser", "innerClientAuthenticationCredentials", "secretKey",
                "accessKey", "tls.client.keyPassword", "metricsGrpcExporterHeader", "someToken",
                "dbPassword"):  # fmt: skip
        assert masked_value(key, "x") == SECRET_MASK, key
    assert masked_value("anyKey", '{"username":"u","password":"p"}') == SECRET_MASK
    assert masked_value("anyKey", "{'accessKey':'a','secretKey':'s'}") == SECRET_MASK
    for key, value in (("aclEnable", "true"), ("authenticationEnabled", "true"), ("brokerName", "b"),
                       ("secretKey", ""), ("maxMessageSize", "4194304")):  # fmt: skip
        assert masked_value(key, value) == value, key


@pytest.mark.parametrize(
    "scenario", ["rocketmq-4.9.8/s20_getBrokerConfig", "rocketmq-5.3.3/v18_getBrokerConfig"]
)
def test_a_java_brokers_listing_has_nothing_to_mask(scenario: str) -> None:
    """The recorded listings (no credentials in them) read byte for byte the same masked."""
    captured = next(r.body for q, r in pairs(scenario) if q.header["code"] == 26 and r is not None)
    s = BrokerSettings()
    s.apply(string_to_properties(captured))
    assert Configuration(s).format(masked=True).encode() == captured


def test_get_broker_config_never_shows_a_secret(broker: BrokerProcess, tmp_path: Path) -> None:
    before = state(broker)
    secrets = (ROOT.secret_key, INNER.secret_key, ALICE.secret_key)
    # the super user sees the listing, credentials masked
    resp = ok(call(broker.addr, signed(request(RequestCode.GET_BROKER_CONFIG), ROOT)))
    assert not any(s.encode() in (resp.body or b"") for s in secrets)
    table = string_to_properties(resp.body or b"")
    assert table["initAuthenticationUser"] == SECRET_MASK
    assert table["innerClientAuthenticationCredentials"] == SECRET_MASK
    assert table["brokerName"] == "broker-a" and table["authenticationEnabled"] == "true"
    assert table["listenPort"] == str(broker.port)
    # alice: refused, or masked the same way
    resp = call(broker.addr, signed(request(RequestCode.GET_BROKER_CONFIG), ALICE))
    assert resp.code in (ResponseCode.SUCCESS, ResponseCode.NO_PERMISSION), resp.remark
    assert not any(s.encode() in (resp.body or b"") for s in secrets)
    if resp.code == ResponseCode.SUCCESS:
        assert string_to_properties(resp.body or b"") == table
    # unsigned: refused
    assert call(broker.addr, request(RequestCode.GET_BROKER_CONFIG)).code == ResponseCode.NO_PERMISSION
    # mqadmin getBrokerConfig prints the mask
    env = clean_env(tmp_path / "home", tmp_path / "cfg")
    args = [
        "getBrokerConfig",
        "-b",
        broker.addr,
        "--access-key",
        ROOT.access_key,
        "--secret-key",
        ROOT.secret_key,
    ]
    r = run_mqadmin(args, env)
    assert r.code == 0, r.err
    assert not any(s in r.out for s in secrets)
    shown = {
        line.split("=", 1)[0].strip(): line.split("=", 1)[1].strip()
        for line in r.out.splitlines()
        if "=" in line
    }
    assert shown["initAuthenticationUser"] == SECRET_MASK and shown["brokerName"] == "broker-a"
    # the broker still signs in with what its file holds: the file is unchanged
    assert state(broker) == before
    assert ROOT.secret_key.encode() in broker.config.read_bytes()


# ---------------------------------------------------------------------------------- 2: switches


PROTECTED = [
    "authenticationEnabled", "authorizationEnabled", "authenticationWhitelist", "authorizationWhitelist",
    "authenticationProvider", "authorizationMetadataProvider", "authConfigPath", "migrateAuthFromV1Enabled",
    "aclEnable", "aclCacheMaxNum", "initAuthenticationUser", "innerClientAuthenticationCredentials",
    "someCredentials", "keyPassword", "tls.server.keyPassword", "secretKey", "accessKey", "useTLS",
    "storePathRootDir", "storePathCommitLog", "storePathEpochFile", "rocketmqHome", "brokerConfigPath",
    "kvConfigPath", "logDir", "someFile", "namesrvAddr", "brokerIP1", "brokerIP2", "bindAddress",
    "listenPort", "haListenPort", "haMasterAddress", "controllerAddr", "fetchNamesrvAddrByAddressServer",
    "fetchNameSrvAddrByDnsLookup", "rmqAddressServerDomain", "rmqAddressServerSubGroup", "dLegerPeers",
    "metricsGrpcExporterTarget", "metricsPromExporterHost", "metricsPromExporterPort", "socksProxyConfig",
    "messageStorePlugIn",
]  # fmt: skip
UPDATABLE = ["brokerPermission", "maxMessageSize", "fileReservedTime", "msgTraceTopicName", "traceOn",
             "flushDiskType", "regionId", "brokerName", "brokerClusterName", "deleteWhen",
             "transactionTimeOut"]  # fmt: skip


def test_the_protected_keys() -> None:
    for key in PROTECTED:
        assert protected_key(key) is not None, key
    for key in UPDATABLE:
        assert protected_key(key) is None, key


def test_auth_cannot_be_switched_off_nor_the_broker_moved(broker: BrokerProcess) -> None:
    before, listed = state(broker), listing(broker, ROOT)
    attack = (
        b"authenticationEnabled=false\nauthorizationEnabled=false\n"
        b"namesrvAddr=127.0.0.1:1\nbrokerPermission=4\n"
    )
    for who in (ALICE, ROOT):  # the super user too: these keys are not remote settings
        resp = call(broker.addr, signed(request(RequestCode.UPDATE_BROKER_CONFIG, None, attack), who))
        assert resp.code == ResponseCode.NO_PERMISSION, (who.access_key, resp.remark)
        assert state(broker) == before
    for key in PROTECTED:
        body = f"brokerPermission=4\n{key}=x\n".encode()
        resp = call(broker.addr, signed(request(RequestCode.UPDATE_BROKER_CONFIG, None, body), ROOT))
        assert (resp.code, resp.remark) == (ResponseCode.NO_PERMISSION, BLACK_LIST), key
    assert state(broker) == before and listing(broker, ROOT) == listed
    assert call(broker.addr, request(RequestCode.UPDATE_BROKER_CONFIG, None, attack)).code == 16  # unsigned

    # after a restart: still the same file, authentication still on
    broker.stop()
    broker.start()
    assert broker.config.read_bytes() == before[str(broker.config)]
    assert call(broker.addr, request(RequestCode.GET_BROKER_CONFIG)).code == ResponseCode.NO_PERMISSION
    assert listing(broker, ROOT)["namesrvAddr"] == listed["namesrvAddr"]


def test_an_operator_still_changes_the_broker_permission(broker: BrokerProcess) -> None:
    try:
        body = b"brokerPermission=4\n"
        ok(call(broker.addr, signed(request(RequestCode.UPDATE_BROKER_CONFIG, None, body), ROOT)))
        assert listing(broker, ROOT)["brokerPermission"] == "4"
        assert b"brokerPermission=4" in broker.config.read_bytes()
    finally:
        body = b"brokerPermission=6\n"
        ok(call(broker.addr, signed(request(RequestCode.UPDATE_BROKER_CONFIG, None, body), ROOT)))
    assert listing(broker, ROOT)["brokerPermission"] == "6"


# ---------------------------------------------------------------------------------- 3: VIEW_MESSAGE_BY_ID


def test_view_message_by_id_checks_the_topic_of_the_message_acl2(broker: BrokerProcess) -> None:
    foreign = sent_offset(call(broker.addr, signed(send_cmd(OTHER_TOPIC, b"root's secret"), ROOT)))
    mine = sent_offset(call(broker.addr, signed(send_cmd(ALICE_TOPIC, b"alice's own"), ALICE)))
    for topic in (None, ALICE_TOPIC, OTHER_TOPIC):  # no Get on any topic: refused whatever she names
        resp = call(broker.addr, signed(view_cmd(foreign, topic), ALICE))
        assert resp.code == ResponseCode.NO_PERMISSION and not resp.body, (topic, resp.remark)
    # with Get on her topic (Java's action for 33) she reads her own message; naming her topic in
    # the header (all a 5.3.3 broker checks) does not open another topic's message
    update = RequestCode.AUTH_UPDATE_ACL
    ok(as_user(broker, ROOT, update, {"subject": "User:alice"}, acl_entry(f"Topic:{ALICE_TOPIC}", [
        "Pub", "Sub", "Get"])))  # fmt: skip
    try:
        resp = ok(call(broker.addr, signed(view_cmd(mine, ALICE_TOPIC), ALICE)))
        assert decode_messages(resp.body or b"")[0].body == b"alice's own"
        resp = call(broker.addr, signed(view_cmd(foreign, ALICE_TOPIC), ALICE))
        assert resp.code == ResponseCode.NO_PERMISSION and not resp.body, resp.remark
        denied = f"User:alice has no permission to access Topic:{OTHER_TOPIC} from 127.0.0.1"
        assert (resp.remark or "").startswith(denied), resp.remark
        resp = call(broker.addr, signed(view_cmd(foreign), ALICE))
        assert resp.code == ResponseCode.NO_PERMISSION and not resp.body, resp.remark
    finally:
        ok(as_user(broker, ROOT, update, {"subject": "User:alice"}, acl_entry(f"Topic:{ALICE_TOPIC}", [
            "Pub", "Sub"])))  # fmt: skip
    resp = ok(call(broker.addr, signed(view_cmd(foreign), ROOT)))
    assert decode_messages(resp.body or b"")[0].body == b"root's secret"


def test_view_message_by_id_checks_the_topic_of_the_message_acl1(acl1_broker: BrokerProcess) -> None:
    b = acl1_broker
    foreign = sent_offset(call(b.addr, signed(send_cmd(OTHER_TOPIC, b"admin's secret"), ADMIN1)))
    mine = sent_offset(call(b.addr, signed(send_cmd(ALICE_TOPIC, b"user's own"), USER1)))
    resp = call(b.addr, signed(view_cmd(foreign), USER1))
    assert resp.code == ResponseCode.NO_PERMISSION and not resp.body, resp.remark
    assert OTHER_TOPIC in (resp.remark or ""), resp.remark
    resp = ok(call(b.addr, signed(view_cmd(mine), USER1)))
    assert decode_messages(resp.body or b"")[0].body == b"user's own"
    resp = ok(call(b.addr, signed(view_cmd(foreign), ADMIN1)))
    assert decode_messages(resp.body or b"")[0].body == b"admin's secret"


# ---------------------------------------------------------------------------------- 3: CONSUMER_SEND_MSG_BACK


def _send_back_scenario(b: BrokerProcess, user: Credentials, admin: Credentials) -> None:
    foreign = sent_offset(call(b.addr, signed(send_cmd(OTHER_TOPIC, b"not the group's"), admin)))
    mine = sent_offset(call(b.addr, signed(send_cmd(ALICE_TOPIC, b"the group's"), user)))
    # a first heartbeat creates the group and its retry topic, as a consumer's start does
    ok(one_connection(b.addr, user, [heartbeat_cmd(ALICE_TOPIC)])[0])
    before, log_max = state(b), commit_log_max(b, admin)
    # the group's consumer online, subscribed to AliceTopic, sends back another topic's message
    answers = one_connection(b.addr, user, [heartbeat_cmd(ALICE_TOPIC), send_back_cmd(foreign)])
    ok(answers[0])
    assert answers[1].code == ResponseCode.NO_PERMISSION, answers[1].remark
    assert "does not subscribe" in (answers[1].remark or "") and OTHER_TOPIC not in (answers[1].remark or "")
    # no subscription registered (no consumer online): even the group's own topic is not copied
    resp = call(b.addr, signed(send_back_cmd(mine), user))
    assert resp.code == ResponseCode.NO_PERMISSION, resp.remark
    assert state(b) == before and commit_log_max(b, admin) == log_max  # nothing copied, nothing created
    # its own topic's message, with its consumer online: copied
    answers = one_connection(b.addr, user, [heartbeat_cmd(ALICE_TOPIC), send_back_cmd(mine)])
    ok(answers[0])
    ok(answers[1])
    assert commit_log_max(b, admin) > log_max


def test_send_back_copies_only_a_subscribed_topics_message_acl2(broker: BrokerProcess) -> None:
    _send_back_scenario(broker, ALICE, ROOT)


def test_send_back_copies_only_a_subscribed_topics_message_acl1(acl1_broker: BrokerProcess) -> None:
    _send_back_scenario(acl1_broker, USER1, ADMIN1)
