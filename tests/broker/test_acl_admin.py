"""ACL 1.0 administration on our broker (codes 50 to 54), over real sockets, against a broker process
with ``aclEnable=true``: an account created through the broker can send with the next request (our
signed requests and the real C++ client), a deleted one cannot, a global white address lets an
unsigned client in, and all of it survives a restart. Every refused edit (bad perm text, short keys,
bad address patterns, a file outside the ACL files, a caller that is not an admin, no signature)
answers Java's code and text and leaves ``plain_acl.yml`` byte for byte as it was.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

from mqadmin.admin.settings import Credentials
from mqadmin.protocol import fastjson
from mqadmin.protocol.codes import RequestCode, ResponseCode
from mqadmin.protocol.command import RemotingCommand
from tests.broker.peers import call
from tests.broker.test_acl import (
    ADMIN,
    PLAIN_ACL,
    USER,
    assert_refused,
    call_from,
    cpp_send,
    create_topic_cmd,
    max_offset,
    send_cmd,
    signed,
    start_acl_broker,
)
from tests.servers import BrokerProcess, NameServerProcess

NEW = Credentials("NewAcct001", "NewSecret01")


def acl_file(broker: BrokerProcess) -> Path:
    return broker.workdir.parent / "home" / "conf" / "plain_acl.yml"


def update_cmd(**fields: str) -> RemotingCommand:
    ext = {"admin": "false"}
    ext.update(fields)
    return RemotingCommand.request(RequestCode.UPDATE_AND_CREATE_ACL_CONFIG, ext)


def delete_cmd(access_key: str) -> RemotingCommand:
    return RemotingCommand.request(RequestCode.DELETE_ACL_CONFIG, {"accessKey": access_key})


def white_cmd(addrs: str, path: str | None = None) -> RemotingCommand:
    ext = {"globalWhiteAddrs": addrs}
    if path is not None:
        ext["aclFileFullPath"] = path
    return RemotingCommand.request(RequestCode.UPDATE_GLOBAL_WHITE_ADDRS_CONFIG, ext)


def ok(resp: RemotingCommand) -> RemotingCommand:
    assert resp.code == ResponseCode.SUCCESS, (resp.code, resp.remark)
    return resp


@pytest.fixture(scope="module")
def broker(tmp_path_factory: pytest.TempPathFactory, namesrv: NameServerProcess) -> Iterator[BrokerProcess]:
    b = start_acl_broker(tmp_path_factory.mktemp("acl-admin"), namesrv.addr)
    try:
        for topic in ("TopicPub", "TopicBoth", "AdminTopic"):
            ok(call(b.addr, signed(create_topic_cmd(topic), ADMIN)))
        yield b
    finally:
        b.stop()


# ---------------------------------------------------------------------------------- happy paths


def test_a_created_account_sends_at_once_and_a_deleted_one_cannot(broker: BrokerProcess) -> None:
    before = max_offset(broker.addr, "AdminTopic")
    assert_refused(
        call(broker.addr, signed(send_cmd("AdminTopic"), NEW)), f"No acl config for {NEW.access_key}"
    )

    ok(
        call(
            broker.addr,
            signed(
                update_cmd(
                    accessKey=NEW.access_key,
                    secretKey=NEW.secret_key,
                    defaultTopicPerm="DENY",
                    topicPerms="AdminTopic=PUB,TopicPub=SUB",
                ),
                ADMIN,
            ),
        )
    )
    ok(call(broker.addr, signed(send_cmd("AdminTopic"), NEW)))  # the very next request
    assert max_offset(broker.addr, "AdminTopic") == before + 1
    assert_refused(
        call(broker.addr, signed(send_cmd("TopicPub"), NEW)), "No default permission for topic:TopicPub"
    )

    written = yaml.safe_load(acl_file(broker).read_text())
    mine = [a for a in written["accounts"] if a["accessKey"] == NEW.access_key]
    assert mine == [
        {
            "accessKey": NEW.access_key,
            "secretKey": NEW.secret_key,
            "admin": False,
            "defaultTopicPerm": "DENY",
            "topicPerms": ["AdminTopic=PUB", "TopicPub=SUB"],
        }
    ]
    assert [a["accessKey"] for a in written["accounts"]][:3] == ["AdminAK01", "UserAK001", "WhiteAK01"]

    # an update keeps the entry's keys in place and moves it to the end, as Java does
    ok(
        call(
            broker.addr,
            signed(
                update_cmd(
                    accessKey="UserAK001",
                    secretKey="UserSK001",
                    admin="false",
                    topicPerms="TopicPub=PUB,TopicBoth=PUB|SUB,TopicSub=SUB,TopicDeny=DENY",
                    groupPerms="DeniedGroup=DENY",
                ),
                ADMIN,
            ),
        )
    )
    accounts = yaml.safe_load(acl_file(broker).read_text())["accounts"]
    assert [a["accessKey"] for a in accounts][-1] == "UserAK001"
    assert list(accounts[-1]) == [
        "accessKey",
        "secretKey",
        "admin",
        "defaultTopicPerm",
        "defaultGroupPerm",
        "topicPerms",
        "groupPerms",
    ]

    ok(call(broker.addr, signed(delete_cmd(NEW.access_key), ADMIN)))
    assert_refused(
        call(broker.addr, signed(send_cmd("AdminTopic"), NEW)), f"No acl config for {NEW.access_key}"
    )
    assert max_offset(broker.addr, "AdminTopic") == before + 1
    assert NEW.access_key not in acl_file(broker).read_text()


def test_the_cpp_client_sends_with_an_account_created_through_the_broker(
    broker: BrokerProcess, namesrv: NameServerProcess
) -> None:
    who = Credentials("CppAcct001", "CppSecret01")
    ok(
        call(
            broker.addr,
            signed(
                update_cmd(accessKey=who.access_key, secretKey=who.secret_key, topicPerms="TopicBoth=PUB"),
                ADMIN,
            ),
        )
    )
    before = max_offset(broker.addr, "TopicBoth")
    events = cpp_send(namesrv.addr, "TopicBoth", 2, who)
    assert [e.get("status") for e in events if e["event"] == "sent"] == ["OK", "OK"], events
    assert max_offset(broker.addr, "TopicBoth") == before + 2
    ok(call(broker.addr, signed(delete_cmd(who.access_key), ADMIN)))
    events = cpp_send(namesrv.addr, "TopicBoth", 1, who)
    assert [e["event"] for e in events] == ["error", "done"], events
    assert max_offset(broker.addr, "TopicBoth") == before + 2


def test_a_global_white_address_lets_an_unsigned_client_in(broker: BrokerProcess) -> None:
    unsigned = send_cmd("TopicPub")
    assert_refused(call_from("127.0.0.7", broker.addr, unsigned), "No accessKey is configured")
    ok(call(broker.addr, signed(white_cmd("127.0.0.2,127.0.0.7"), ADMIN)))
    ok(call_from("127.0.0.7", broker.addr, send_cmd("TopicPub")))
    assert_refused(call_from("127.0.0.8", broker.addr, send_cmd("TopicPub")), "No accessKey is configured")
    # the default file named by its full path is the same file
    ok(call(broker.addr, signed(white_cmd("127.0.0.2", str(acl_file(broker))), ADMIN)))
    assert_refused(call_from("127.0.0.7", broker.addr, send_cmd("TopicPub")), "No accessKey is configured")
    assert yaml.safe_load(acl_file(broker).read_text())["globalWhiteRemoteAddresses"] == ["127.0.0.2"]


def test_versions_and_config_are_reported(broker: BrokerProcess) -> None:
    def versions() -> dict[str, str]:
        resp = ok(
            call(broker.addr, signed(RemotingCommand.request(RequestCode.GET_BROKER_CLUSTER_ACL_INFO), USER))
        )
        return dict(resp.ext_fields or {})

    first = versions()
    assert (first["brokerName"], first["brokerAddr"], first["clusterName"]) == (
        "broker-a",
        broker.addr,
        "DefaultCluster",
    )
    path = str(acl_file(broker))
    by_file = fastjson.loads(first["allAclFileVersion"])
    assert list(by_file) == [path]
    assert fastjson.loads(first["version"]) == by_file[path]
    assert list(by_file[path]) == ["counter", "timestamp"]

    ok(call(broker.addr, signed(update_cmd(accessKey="VersionAK1", secretKey="VersionSK1"), ADMIN)))
    second = fastjson.loads(versions()["allAclFileVersion"])[path]
    assert second["counter"] == by_file[path]["counter"] + 1
    assert second["timestamp"] >= by_file[path]["timestamp"]
    assert yaml.safe_load(acl_file(broker).read_text())["dataVersion"] == [second]

    body = fastjson.loads(
        ok(
            call(
                broker.addr, signed(RemotingCommand.request(RequestCode.GET_BROKER_CLUSTER_ACL_CONFIG), ADMIN)
            )
        ).body
        or b""
    )
    assert list(body) == ["globalWhiteAddrs", "plainAccessConfigs"]
    admin = body["plainAccessConfigs"][0]
    assert admin == {"accessKey": "AdminAK01", "admin": True, "secretKey": "AdminSK01"}
    assert "VersionAK1" in [a["accessKey"] for a in body["plainAccessConfigs"]]
    ok(call(broker.addr, signed(delete_cmd("VersionAK1"), ADMIN)))


def test_edits_survive_a_restart(tmp_path: Path, namesrv: NameServerProcess) -> None:
    b = start_acl_broker(tmp_path, namesrv.addr)
    acl_file(b).chmod(0o640)
    try:
        ok(call(b.addr, signed(create_topic_cmd("KeptTopic"), ADMIN)))
        ok(
            call(
                b.addr,
                signed(
                    update_cmd(accessKey=NEW.access_key, secretKey=NEW.secret_key, defaultTopicPerm="PUB"),
                    ADMIN,
                ),
            )
        )
        ok(call(b.addr, signed(delete_cmd("UserAK001"), ADMIN)))
        ok(call(b.addr, signed(white_cmd("127.0.0.9"), ADMIN)))
    finally:
        b.stop()
    written = acl_file(b).read_bytes()
    b2 = BrokerProcess(b.workdir, namesrv.addr, port=b.port, aclEnable="true", rocketmqHome=tmp_path / "home")
    try:
        ok(call(b2.addr, signed(send_cmd("KeptTopic"), NEW)))
        assert_refused(call(b2.addr, signed(send_cmd("KeptTopic"), USER)), "No acl config for UserAK001")
        ok(call_from("127.0.0.9", b2.addr, send_cmd("KeptTopic")))
        assert acl_file(b2).read_bytes() == written
        assert (acl_file(b2).stat().st_mode & 0o777) == 0o640  # the file's mode is kept
    finally:
        b2.stop()


# ---------------------------------------------------------------------------------- refusals


SHORT = "The accessKey={ak} and secretKey={sk} cannot be null and length should longer than 6"
REFUSED_UPDATES = [
    ({"accessKey": "LongEnough1", "secretKey": "short"}, SHORT.format(ak="LongEnough1", sk="short")),
    ({"accessKey": "abc", "secretKey": "LongEnough1"}, SHORT.format(ak="abc", sk="LongEnough1")),
    ({"accessKey": "LongEnough1"}, SHORT.format(ak="LongEnough1", sk="null")),
    (
        {"accessKey": "LongEnough1", "secretKey": "LongEnough1", "topicPerms": "TopicA=PUB,TopicB=WRITE"},
        "Parse resource permission error for TopicB=WRITE.\n"
        "The expected permissions are 'SUB' or 'PUB' or 'SUB|PUB' or 'PUB|SUB'.",
    ),
    (
        {"accessKey": "LongEnough1", "secretKey": "LongEnough1", "groupPerms": "GroupA"},
        "Parse Resource format error for GroupA.\n"
        "The expected resource format is 'Res=Perm'. For example: topicA=SUB",
    ),
    (
        {"accessKey": "LongEnough1", "secretKey": "LongEnough1", "topicPerms": "../etc=PUB"},
        "The specified topic contains illegal characters, allowing only ^[%|a-zA-Z0-9_-]+$",
    ),
    (
        {"accessKey": "LongEnough1", "secretKey": "LongEnough1", "defaultTopicPerm": "ALL"},
        "The defaultTopicPerm=ALL is not one of 'DENY', 'PUB', 'SUB', 'PUB|SUB' or 'SUB|PUB'.",
    ),
    (
        {"accessKey": "LongEnough1", "secretKey": "LongEnough1", "whiteRemoteAddress": "300.1.1.1"},
        "The whiteRemoteAddress=300.1.1.1 is not an address pattern: bad address '300.1.1.1'",
    ),
    (
        {"accessKey": "Long\nEnough1", "secretKey": "LongEnough1"},
        "The accessKey contains a control character (U+000A)",
    ),
]


@pytest.mark.parametrize(("fields", "remark"), REFUSED_UPDATES)
def test_a_refused_account_changes_nothing(
    broker: BrokerProcess, fields: dict[str, str], remark: str
) -> None:
    before = acl_file(broker).read_bytes()
    resp = call(broker.addr, signed(update_cmd(**fields), ADMIN))
    assert (resp.code, resp.remark) == (ResponseCode.UPDATE_AND_CREATE_ACL_CONFIG_FAILED, remark)
    assert acl_file(broker).read_bytes() == before
    ok(call(broker.addr, signed(send_cmd("TopicPub"), USER)))  # the accounts in force are untouched
    if "secretKey" in fields:  # the refusal is logged, the secret is not
        assert f"secretKey={fields['secretKey']} " not in broker.log()
        if "secretKey=" in remark:
            assert f"accessKey={fields['accessKey']} and secretKey=*** cannot be null" in broker.log()


def test_refused_deletes_white_lists_and_callers_change_nothing(
    broker: BrokerProcess, tmp_path: Path
) -> None:
    before = acl_file(broker).read_bytes()
    outside = tmp_path / "outside.yml"
    outside.write_text("globalWhiteRemoteAddresses: []\n")
    cases = [
        (
            signed(delete_cmd("NoSuchAK01"), ADMIN),
            ResponseCode.DELETE_ACL_CONFIG_FAILED,
            "The accesskey[NoSuchAK01] corresponding to accessConfig has been deleted failed.",
        ),
        (
            signed(white_cmd("10.0.0.1,300.1.1.1"), ADMIN),
            ResponseCode.UPDATE_GLOBAL_WHITE_ADDRS_CONFIG_FAILED,
            "The global white address 300.1.1.1 is not an address pattern: bad address '300.1.1.1'",
        ),
        (
            signed(white_cmd("10.0.0.1", str(outside)), ADMIN),
            ResponseCode.UPDATE_GLOBAL_WHITE_ADDRS_CONFIG_FAILED,
            "The globalWhiteAddresses[10.0.0.1] has been updated failed.",
        ),
        (
            signed(white_cmd("10.0.0.1", str(acl_file(broker).parent / ".." / "conf" / "x.yml")), ADMIN),
            ResponseCode.UPDATE_GLOBAL_WHITE_ADDRS_CONFIG_FAILED,
            "The globalWhiteAddresses[10.0.0.1] has been updated failed.",
        ),
        (
            signed(
                RemotingCommand.request(
                    RequestCode.UPDATE_AND_CREATE_ACL_CONFIG, {"secretKey": "LongEnough1"}
                ),
                ADMIN,
            ),
            ResponseCode.SYSTEM_ERROR,
            "org.apache.rocketmq.remoting.exception.RemotingCommandException: "
            "the custom field <accessKey> is null",
        ),
    ]
    for req_code in (
        RequestCode.UPDATE_AND_CREATE_ACL_CONFIG,
        RequestCode.DELETE_ACL_CONFIG,
        RequestCode.UPDATE_GLOBAL_WHITE_ADDRS_CONFIG,
        RequestCode.GET_BROKER_CLUSTER_ACL_CONFIG,
    ):
        cmd = {
            RequestCode.UPDATE_AND_CREATE_ACL_CONFIG: update_cmd(
                accessKey="UserAK001", secretKey="UserSK001", admin="true"
            ),
            RequestCode.DELETE_ACL_CONFIG: delete_cmd("AdminAK01"),
            RequestCode.UPDATE_GLOBAL_WHITE_ADDRS_CONFIG: white_cmd("*"),
            RequestCode.GET_BROKER_CLUSTER_ACL_CONFIG: RemotingCommand.request(req_code),
        }[req_code]
        cases.append(
            (
                signed(cmd, USER),
                ResponseCode.NO_PERMISSION,
                f"Need admin permission for request code={int(req_code)}, but accessKey=UserAK001 is not",
            )
        )
    cases.append((white_cmd("*"), ResponseCode.NO_PERMISSION, "No accessKey is configured"))
    for cmd, want, remark in cases:
        resp = call(broker.addr, cmd)
        assert (resp.code, resp.remark) == (want, remark)
        assert acl_file(broker).read_bytes() == before
    assert outside.read_text() == "globalWhiteRemoteAddresses: []\n"
    assert not (acl_file(broker).parent / "x.yml").exists()


def test_a_broker_without_acl_says_so(broker_factory: type) -> None:
    b = broker_factory.start("no-acl")
    for code, answer in (
        (RequestCode.UPDATE_AND_CREATE_ACL_CONFIG, ResponseCode.UPDATE_AND_CREATE_ACL_CONFIG_FAILED),
        (RequestCode.DELETE_ACL_CONFIG, ResponseCode.DELETE_ACL_CONFIG_FAILED),
        (RequestCode.UPDATE_GLOBAL_WHITE_ADDRS_CONFIG, ResponseCode.UPDATE_GLOBAL_WHITE_ADDRS_CONFIG_FAILED),
        (RequestCode.GET_BROKER_CLUSTER_ACL_INFO, ResponseCode.SYSTEM_ERROR),
        (RequestCode.GET_BROKER_CLUSTER_ACL_CONFIG, ResponseCode.SYSTEM_ERROR),
    ):
        fields = {"accessKey": "LongEnough1", "secretKey": "LongEnough1", "globalWhiteAddrs": "*"}
        resp = call(b.addr, RemotingCommand.request(code, fields))
        assert (resp.code, resp.remark) == (answer, "The broker does not enable acl (aclEnable=false)")
    assert not list(b.workdir.rglob("plain_acl.yml"))


def test_the_account_file_format_is_plain_yaml_java_reads(broker: BrokerProcess) -> None:
    """What the broker writes is block YAML with the Java keys (``dumpAsMap``), readable as before."""
    ok(
        call(
            broker.addr,
            signed(update_cmd(accessKey="FormatAK01", secretKey="12345678", groupPerms="GroupA=SUB"), ADMIN),
        )
    )
    text = acl_file(broker).read_text()
    assert (
        "- accessKey: FormatAK01\n  secretKey: '12345678'\n  admin: false\n  groupPerms:\n  - GroupA=SUB\n"
        in text
    )
    assert text.startswith("globalWhiteRemoteAddresses:\n") and "\ndataVersion:\n- counter: " in text
    assert PLAIN_ACL.splitlines()[0] in text
    ok(call(broker.addr, signed(delete_cmd("FormatAK01"), ADMIN)))


def test_a_broker_behaving_as_5_3_3_does_not_know_the_codes(broker_factory: type) -> None:
    b = broker_factory.start("five", rocketmqVersion="5.3.3")
    for code in range(
        RequestCode.UPDATE_AND_CREATE_ACL_CONFIG, RequestCode.GET_BROKER_CLUSTER_ACL_CONFIG + 1
    ):
        resp = call(
            b.addr, RemotingCommand.request(code, {"accessKey": "LongEnough1", "globalWhiteAddrs": "*"})
        )
        assert (resp.code, resp.remark) == (
            ResponseCode.REQUEST_CODE_NOT_SUPPORTED,
            f" request type {code} not supported",
        )
