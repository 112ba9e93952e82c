"""ACL 2.0 on our broker (``rocketmqVersion=5.3.3``, ``authenticationEnabled``, ``authorizationEnabled``),
over real sockets, as a 5.3.3 broker decides: a request must be signed by a known, enabled user with
that user's password; each topic, group or cluster it names needs a matching ALLOW policy entry (the
most specific matching entry decides, DENY first among equals; a super user needs none); refusals
are NO_PERMISSION with Java's text and change nothing. Users and policies are kept in files that
survive a restart.

Signed requests come from our remoting client with :class:`~mqadmin.admin.signing.AclSigner`, from
the ``mqadmin`` command (``--access-key``/``--secret-key``) and from the real C++ client
(``set_session_credentials``).
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from mqadmin.admin.settings import Credentials
from mqadmin.admin.signing import AclSigner
from mqadmin.protocol.codes import RequestCode, ResponseCode
from mqadmin.protocol.command import RemotingCommand
from tests.broker.peers import call, create_topic_fields
from tests.broker.signed_cpp import cpp_send
from tests.cli_harness import clean_env, run_mqadmin
from tests.servers import BrokerProcess, NameServerProcess

ROOT = Credentials("rootUser", "rootSecret")
ALICE = Credentials("alice", "aliceSecret")
CLUSTER = "DefaultCluster"


def start_auth_broker(workdir: Path, ns_addr: str, port: int | None = None) -> BrokerProcess:
    return BrokerProcess(
        workdir,
        ns_addr,
        port,
        rocketmqVersion="5.3.3",
        authenticationEnabled="true",
        authorizationEnabled="true",
        initAuthenticationUser=json.dumps({"username": ROOT.access_key, "password": ROOT.secret_key}),
    )


@pytest.fixture(scope="module")
def broker(tmp_path_factory: pytest.TempPathFactory, namesrv: NameServerProcess) -> Iterator[BrokerProcess]:
    b = start_auth_broker(tmp_path_factory.mktemp("auth") / "broker", namesrv.addr)
    try:
        yield b
    finally:
        if b.alive:
            b.stop()


# ---------------------------------------------------------------------------------- helpers


def req(code: int, ext: dict[str, str] | None = None, body: bytes | None = None) -> RemotingCommand:
    return RemotingCommand.request(code, dict(ext) if ext else None, body)


def signed(cmd: RemotingCommand, who: Credentials) -> RemotingCommand:
    AclSigner(who)(cmd)
    return cmd


def as_user(
    b: BrokerProcess,
    who: Credentials | None,
    code: int,
    ext: dict[str, str] | None = None,
    body: object = None,
) -> RemotingCommand:
    raw = None if body is None else body if isinstance(body, bytes) else json.dumps(body).encode()
    cmd = req(code, ext, raw)
    return call(b.addr, cmd if who is None else signed(cmd, who))


def ok(resp: RemotingCommand) -> RemotingCommand:
    assert resp.code == ResponseCode.SUCCESS, (resp.code, resp.remark)
    return resp


def refused(resp: RemotingCommand, code: int, remark: str) -> None:
    assert (resp.code, resp.remark) == (code, remark)


def files(b: BrokerProcess) -> tuple[bytes, bytes]:
    d = b.workdir / "store" / "config" / "auth"
    return tuple(p.read_bytes() if p.exists() else b"" for p in (d / "users.json", d / "acls.json"))  # type: ignore[return-value]


def user_body(name: str, password: str | None, **more: str) -> dict[str, str]:
    body = {"username": name, **more}
    if password is not None:
        body["password"] = password
    return body


def acl_body(
    subject: str, resource: str, actions: list[str], decision: str, ips: list[str] | None = None
) -> dict:
    entry: dict[str, object] = {"actions": actions, "decision": decision, "resource": resource}
    if ips is not None:
        entry["sourceIps"] = ips
    return {"policies": [{"entries": [entry]}], "subject": subject}


def ensure_alice(b: BrokerProcess) -> None:
    resp = as_user(b, ROOT, RequestCode.AUTH_GET_USER, {"username": ALICE.access_key})
    if not ok(resp).body:
        ok(
            as_user(
                b,
                ROOT,
                RequestCode.AUTH_CREATE_USER,
                {"username": "alice"},
                user_body("alice", ALICE.secret_key),
            )
        )


def create_topic(b: BrokerProcess, ns: NameServerProcess, topic: str) -> None:
    """As root, and wait until the name server has its route (clients look it up first)."""
    fields = create_topic_fields(topic, readQueueNums="1", writeQueueNums="1")
    ok(as_user(b, ROOT, RequestCode.UPDATE_AND_CREATE_TOPIC, fields))
    deadline = time.monotonic() + 20
    while (
        call(ns.addr, req(RequestCode.GET_ROUTEINFO_BY_TOPIC, {"topic": topic})).code != ResponseCode.SUCCESS
    ):
        assert time.monotonic() < deadline, f"no route of {topic}"
        time.sleep(0.1)


def drop_alice_acl(b: BrokerProcess) -> None:
    resp = as_user(b, ROOT, RequestCode.AUTH_DELETE_ACL, {"subject": "User:alice"})
    assert resp.code == ResponseCode.SUCCESS or resp.remark == "The acl is not exist.", resp.remark


def put_acl(
    b: BrokerProcess, resource: str, actions: list[str], decision: str, ips: list[str] | None = None
) -> None:
    body = acl_body("User:alice", resource, actions, decision, ips)
    ok(as_user(b, ROOT, RequestCode.AUTH_UPDATE_ACL, {"subject": "User:alice"}, body))


# ---------------------------------------------------------------------------------- authentication


def test_sign_in_needs_a_known_enabled_user_and_the_right_secret(broker: BrokerProcess) -> None:
    cfg = RequestCode.GET_BROKER_CONFIG  # with alice's policy on the cluster, only authentication decides
    refused(as_user(broker, None, cfg), ResponseCode.NO_PERMISSION, "username cannot be null.")
    refused(as_user(broker, None, cfg, {"x": "y"}), ResponseCode.NO_PERMISSION, "username cannot be null.")
    ok(as_user(broker, ROOT, cfg))
    refused(
        as_user(broker, Credentials("ghost", "whatever1"), cfg),
        ResponseCode.NO_PERMISSION,
        "User:ghost is not found.",
    )

    ensure_alice(broker)
    put_acl(broker, f"Cluster:{CLUSTER}", ["Get"], "Allow")
    ok(as_user(broker, ALICE, cfg))
    refused(
        as_user(broker, Credentials("alice", "WrongSecret"), cfg),
        ResponseCode.NO_PERMISSION,
        "check signature failed.",
    )
    tampered = signed(req(cfg, {"a": "1"}), ALICE)
    assert tampered.ext_fields is not None
    tampered.ext_fields["a"] = "2"
    refused(call(broker.addr, tampered), ResponseCode.NO_PERMISSION, "check signature failed.")

    ok(as_user(broker, ROOT, RequestCode.AUTH_UPDATE_USER, {"username": "alice"}, {"userStatus": "disable"}))
    refused(as_user(broker, ALICE, cfg), ResponseCode.NO_PERMISSION, "User:alice is disabled.")
    ok(as_user(broker, ROOT, RequestCode.AUTH_UPDATE_USER, {"username": "alice"}, {"userStatus": "enable"}))
    ok(as_user(broker, ALICE, cfg))


# ---------------------------------------------------------------------------------- authorization


def test_user_and_acl_requests_are_kept_to_super_users_whatever_the_policy(broker: BrokerProcess) -> None:
    """Java lets a Cluster:Update policy create users and ACLs, so a user could grant herself
    everything; here the auth requests are an operator's (a super user), whatever the policy says."""
    ensure_alice(broker)
    need_super = "User:alice has no permission to send request code {}: a super user is required."
    before = files(broker)
    for actions in (["Get"], ["Get", "Update"], ["All"]):
        put_acl(broker, f"Cluster:{CLUSTER}", actions, "Allow")
        refused(
            as_user(broker, ALICE, RequestCode.AUTH_LIST_USER),
            ResponseCode.NO_PERMISSION,
            need_super.format(RequestCode.AUTH_LIST_USER),
        )
        refused(
            as_user(
                broker, ALICE, RequestCode.AUTH_CREATE_USER, {"username": "eve"}, user_body("eve", "eve1")
            ),
            ResponseCode.NO_PERMISSION,
            need_super.format(RequestCode.AUTH_CREATE_USER),
        )
        refused(
            as_user(broker, ALICE, RequestCode.AUTH_DELETE_USER, {"username": "rootUser"}),
            ResponseCode.NO_PERMISSION,
            need_super.format(RequestCode.AUTH_DELETE_USER),
        )
    assert files(broker)[0] == before[0]
    listed = json.loads(ok(as_user(broker, ROOT, RequestCode.AUTH_LIST_USER)).body or b"[]")
    assert {u["username"] for u in listed} >= {"alice", "rootUser"}
    assert "eve" not in {u["username"] for u in listed}


def test_mqadmin_signed_by_a_user_is_refused_then_allowed(broker: BrokerProcess, tmp_path: Path) -> None:
    ensure_alice(broker)
    env = clean_env(tmp_path / "home", tmp_path / "cfg")

    def mqadmin(who: Credentials, *args: str) -> tuple[int, str, str]:
        r = run_mqadmin([*args, "--access-key", who.access_key, "--secret-key", who.secret_key], env)
        return r.code, r.out, r.err

    # users and their passwords are a super user's to read, whatever policy a user holds (Java lets a
    # Cluster:Get policy read every password, the super user's included)
    put_acl(broker, f"Cluster:{CLUSTER}", ["Get"], "Allow")
    code, out, err = mqadmin(ALICE, "getUser", "-b", broker.addr, "-u", "rootUser")
    assert code == 3 and out == "" and "CODE: 16" in err and "a super user is required." in err, err
    code, out, err = mqadmin(ROOT, "getUser", "-b", broker.addr, "-u", "rootUser")
    assert code == 0, err
    assert out.splitlines()[1].split() == ["rootUser", "rootSecret", "Super", "enable"]
    code, out, err = mqadmin(
        Credentials("alice", "NotHerSecret"), "getUser", "-b", broker.addr, "-u", "alice"
    )
    assert code == 3 and "check signature failed." in err, err


def max_offset(b: BrokerProcess, topic: str) -> int:
    resp = ok(as_user(b, ROOT, RequestCode.GET_MAX_OFFSET, {"topic": topic, "queueId": "0"}))
    assert resp.ext_fields is not None
    return int(resp.ext_fields["offset"])


def test_cpp_client_is_refused_then_allowed_and_deny_beats_allow(
    broker: BrokerProcess, namesrv: NameServerProcess
) -> None:
    ensure_alice(broker)
    topic = "AuthV2Topic"
    create_topic(broker, namesrv, topic)
    drop_alice_acl(broker)

    events = cpp_send(namesrv.addr, topic, 1, ALICE)  # no policy at all
    assert [e["event"] for e in events] == ["error", "done"], events
    assert f"User:alice has no permission to access Topic:{topic} from 127.0.0.1, no matched policies." in (
        broker.log()
    )
    assert max_offset(broker, topic) == 0

    put_acl(broker, "Topic:AuthV2*", ["Pub"], "Allow")
    events = cpp_send(namesrv.addr, topic, 2, ALICE)
    assert [e.get("status") for e in events if e["event"] == "sent"] == ["OK", "OK"], events
    assert max_offset(broker, topic) == 2

    put_acl(broker, f"Topic:{topic}", ["Pub", "Sub"], "Deny")  # the literal entry is more specific
    events = cpp_send(namesrv.addr, topic, 1, ALICE)
    assert [e["event"] for e in events] == ["error", "done"], events
    assert max_offset(broker, topic) == 2
    assert f"User:alice has no permission to access Topic:{topic} from 127.0.0.1, the decision is deny." in (
        broker.log()
    )


def test_source_addresses_and_action_all(broker: BrokerProcess) -> None:
    ensure_alice(broker)
    drop_alice_acl(broker)
    query = {"topic": "AddrTopic", "queueId": "0"}
    put_acl(broker, "Topic:AddrTopic", ["All"], "Allow", ["10.0.0.0/8"])
    refused(
        as_user(broker, ALICE, RequestCode.GET_MAX_OFFSET, query),
        ResponseCode.NO_PERMISSION,
        "User:alice has no permission to access Topic:AddrTopic from 127.0.0.1, no matched policies.",
    )
    put_acl(broker, "Topic:AddrTopic", ["All"], "Allow", ["10.0.0.1", "127.0.0.0/24"])
    assert as_user(broker, ALICE, RequestCode.GET_MAX_OFFSET, query).code != ResponseCode.NO_PERMISSION
    put_acl(broker, "*", ["Get"], "Deny")  # less specific than the topic entry
    assert as_user(broker, ALICE, RequestCode.GET_MAX_OFFSET, query).code != ResponseCode.NO_PERMISSION
    refused(
        as_user(broker, ALICE, RequestCode.GET_MAX_OFFSET, {"topic": "Other", "queueId": "0"}),
        ResponseCode.NO_PERMISSION,
        "User:alice has no permission to access Topic:Other from 127.0.0.1, the decision is deny.",
    )


# ---------------------------------------------------------------------------------- hostile input


ACLS = "User:alice"
PROCESSOR = "org.apache.rocketmq.broker.processor.AdminBrokerProcessor"
NO_BODY = "org.apache.rocketmq.auth.authorization.exception.AuthorizationException: The body of acl is null"


@pytest.mark.parametrize(
    ("body", "code", "remark"),
    [
        (acl_body(ACLS, "Topyc:T", ["Pub"], "Allow"), 16, "The resource is null."),
        (acl_body(ACLS, "", ["Pub"], "Allow"), 16, "The resource is null."),
        (acl_body(ACLS, "Topic:T", ["Publish"], "Allow"), 16, "The actions is empty."),
        (acl_body(ACLS, "Topic:T", [], "Allow"), 16, "The actions is empty."),
        (acl_body(ACLS, "Topic:T", ["Any"], "Allow"), 16, "The actions can not be Any."),
        (acl_body(ACLS, "Topic:T", ["Pub"], "Maybe"), 16, "The decision is null or illegal."),
        (acl_body(ACLS, "Topic:T", ["Pub"], "Allow", ["300.1.1.1"]), 16, "The source ip is invalid."),
        (acl_body(ACLS, "Topic:T", ["Pub"], "Allow", ["10.0.0.0/33"]), 16, "The source ip is invalid."),
        (acl_body(ACLS, "Topic:T", ["Pub"], "Allow", [" "]), 16, "The source ip is empty."),
        (acl_body("User:ghost", "Topic:T", ["Pub"], "Allow"), 16, "The subject of User:ghost is not exist."),
        (
            acl_body(ACLS, "Topic:" + "x" * 5000, ["Pub"], "Allow"),
            29,
            "the resource is longer than 1024 characters",
        ),
        (
            acl_body(ACLS, "Topic:a\nb", ["Pub"], "Allow"),
            29,
            "the resource contains a control character (U+000A)",
        ),
        (
            {"subject": ACLS},
            1,
            NO_BODY,
        ),
        (
            b"",
            1,
            NO_BODY,
        ),
    ],
)
def test_a_malformed_policy_is_refused_and_nothing_is_written(
    broker: BrokerProcess, body: object, code: int, remark: str
) -> None:
    ensure_alice(broker)
    before = files(broker)
    for request, where in (
        (RequestCode.AUTH_CREATE_ACL, "createAcl"),
        (RequestCode.AUTH_UPDATE_ACL, "updateAcl"),
    ):
        if remark == NO_BODY:  # thrown by the processor: Java's answer names the first stack frame
            line = 3158 if where == "createAcl" else 3185
            remark = f"{NO_BODY}, {PROCESSOR}.{where}(AdminBrokerProcessor.java:{line})"
        refused(as_user(broker, ROOT, request, {"subject": ACLS}, body), code, remark)
        remark = NO_BODY if remark.startswith(NO_BODY) else remark
    assert files(broker) == before


NOT_A_BODY = [b"not json", b"[1,2]", b'"text"', b"\xff\xfe{}", b"[" * 100000, b'{"subject":"\\ud800"}']
NOT_AN_ACL = [
    b'{"policies":[{"entries":[{"resource":"Topic:T","actions":"Pub","decision":"Allow"}]}]}',
    b'{"policies":[{"entries":[{"resource":"Topic:\\ud800","actions":["Pub"],"decision":"Allow"}]}]}',
    b'{"policies":[{"entries":[{"resource":"Topic:T","actions":[null],"decision":"Allow"}]}]}',
    b'{"policies":[{"entries":[{"resource":7,"actions":["Pub"],"decision":"Allow"}]}]}',
    b'{"policies":{"entries":[]}}',
]
NOT_A_USER = [b'{"password":7}', b'{"password":"pw","userType":["Super"]}', b'{"password":"\\udc00"}']


@pytest.mark.parametrize(
    ("code", "ext", "body"),
    [(RequestCode.AUTH_CREATE_ACL, {"subject": ACLS}, b) for b in NOT_A_BODY + NOT_AN_ACL]
    + [(RequestCode.AUTH_CREATE_USER, {"username": "mallory"}, b) for b in NOT_A_BODY + NOT_A_USER]
    + [(RequestCode.AUTH_UPDATE_USER, {"username": "alice"}, b) for b in NOT_A_BODY + NOT_A_USER],
)
def test_bodies_that_are_not_an_acl_or_user_change_nothing(
    broker: BrokerProcess, code: int, ext: dict[str, str], body: bytes
) -> None:
    ensure_alice(broker)
    before = files(broker)
    resp = as_user(broker, ROOT, code, ext, body)
    assert resp.code == ResponseCode.SYSTEM_ERROR, (code, body[:40], resp.remark)
    assert files(broker) == before
    ok(as_user(broker, ROOT, RequestCode.GET_BROKER_CONFIG))  # the broker still serves


def test_hostile_user_requests_change_nothing(broker: BrokerProcess) -> None:
    ensure_alice(broker)
    before = files(broker)
    create = RequestCode.AUTH_CREATE_USER
    refused(as_user(broker, ROOT, create, {}, user_body("x", "y")), 29, "The username is blank")
    refused(
        as_user(broker, ROOT, create, {"username": "bob"}, user_body("bob", "")),
        16,
        "password can not be blank",
    )
    refused(
        as_user(broker, ROOT, create, {"username": "alice"}, user_body("alice", "again")),
        16,
        "The user is existed",
    )
    refused(
        as_user(broker, ROOT, create, {"username": "b" * 2000}, user_body("b", "pw")),
        29,
        "the username is longer than 1024 characters",
    )
    refused(
        as_user(broker, ROOT, create, {"username": "bob"}, user_body("bob", "p" * 3000)),
        29,
        "the password is longer than 1024 characters",
    )
    refused(
        as_user(broker, ROOT, RequestCode.AUTH_UPDATE_USER, {"username": "ghost"}, user_body("ghost", "pw")),
        16,
        "The user is not exist",
    )
    refused(
        as_user(broker, ROOT, RequestCode.AUTH_DELETE_ACL, {"subject": "User:ghost"}),
        16,
        "The subject is not exist.",
    )
    refused(
        as_user(broker, ROOT, RequestCode.AUTH_GET_ACL, {"subject": "User:ghost"}),
        16,
        "The subject is not exist.",
    )
    refused(as_user(broker, ROOT, RequestCode.AUTH_GET_USER, {}), 29, "The username is blank")
    # a header with a lone surrogate never reaches the handler
    bad = signed(req(create, {"username": "bob"}, json.dumps(user_body("bob", "pw")).encode()), ROOT)
    assert bad.ext_fields is not None
    bad.ext_fields["username"] = "bob\ud800"
    assert call(broker.addr, bad).code != ResponseCode.SUCCESS
    assert files(broker) == before
    # an unknown user: Java answers SUCCESS without a body (USER_NOT_EXIST is never sent by 5.3.3)
    resp = ok(as_user(broker, ROOT, RequestCode.AUTH_GET_USER, {"username": "ghost"}))
    assert resp.body is None or resp.body == b""


# ---------------------------------------------------------------------------------- restart


def test_users_and_policies_survive_a_restart(tmp_path: Path, namesrv: NameServerProcess) -> None:
    b = start_auth_broker(tmp_path / "b", namesrv.addr)
    try:
        ensure_alice(b)
        put_acl(b, "Topic:Kept", ["Pub", "Get"], "Allow", ["127.0.0.1"])
        put_acl(b, "Group:G*", ["Sub"], "Deny")
        acl_before = ok(as_user(b, ROOT, RequestCode.AUTH_GET_ACL, {"subject": "User:alice"})).body
        users, acls = files(b)
        stored = json.loads(acls)["User:alice"]
        assert stored["subject"] == {"subjectType": 1, "username": "alice"}
        entry = stored["policies"][0]["entries"][0]
        assert entry == {
            "actions": [3, 8],
            "decision": 1,
            "environment": {"sourceIps": ["127.0.0.1"]},
            "resource": {"resourceName": "Kept", "resourcePattern": 2, "resourceType": 4},
        }
        assert json.loads(users)["alice"] == {
            "password": "aliceSecret",
            "subjectType": 1,
            "userStatus": 1,
            "userType": 2,
            "username": "alice",
        }
        b.stop()
        b.start()
        assert ok(as_user(b, ROOT, RequestCode.AUTH_GET_ACL, {"subject": "User:alice"})).body == acl_before
        assert as_user(b, ALICE, RequestCode.GET_MAX_OFFSET, {"topic": "Kept", "queueId": "0"}).code != 16
        refused(
            as_user(b, ALICE, RequestCode.GET_MAX_OFFSET, {"topic": "Gone", "queueId": "0"}),
            16,
            "User:alice has no permission to access Topic:Gone from 127.0.0.1, no matched policies.",
        )
    finally:
        if b.alive:
            b.stop()


def test_an_unusable_init_user_refuses_to_start(tmp_path: Path, namesrv: NameServerProcess) -> None:
    with pytest.raises(RuntimeError) as e:
        BrokerProcess(
            tmp_path / "bad",
            namesrv.addr,
            rocketmqVersion="5.3.3",
            authenticationEnabled="true",
            initAuthenticationUser='{"username":"root"}',
        )
    assert 'initAuthenticationUser must be {"username":"...","password":"..."}' in str(e.value)


CPP_CONSUME = str(Path(__file__).with_name("acl_cpp_consume.py"))


def cpp_consume(
    ns_addr: str, topic: str, group: str, expect: int, timeout: float, who: Credentials
) -> list[str]:
    proc = subprocess.run(
        [
            sys.executable,
            CPP_CONSUME,
            ns_addr,
            topic,
            group,
            str(expect),
            str(timeout),
            who.access_key,
            who.secret_key,
        ],
        capture_output=True,
        text=True,
        timeout=timeout + 60,
    )
    events = [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]
    assert proc.returncode == 0 and events and events[-1]["event"] == "done", proc.stderr[-2000:]
    return sorted(str(e["body"]) for e in events if e["event"] == "recv")


def test_cpp_consumer_needs_the_group_and_the_topic(
    broker: BrokerProcess, namesrv: NameServerProcess
) -> None:
    ensure_alice(broker)
    topic, group = "AuthV2Consume", "AuthV2CG"
    create_topic(broker, namesrv, topic)
    sent = cpp_send(namesrv.addr, topic, 2, ROOT)  # a super user needs no policy
    assert [e.get("status") for e in sent if e["event"] == "sent"] == ["OK", "OK"], sent
    drop_alice_acl(broker)
    put_acl(broker, f"Topic:{topic}", ["Sub"], "Allow")

    assert cpp_consume(namesrv.addr, topic, group, 2, 6, ALICE) == []  # the group is not allowed
    assert f"User:alice has no permission to access Group:{group} from 127.0.0.1" in broker.log()

    put_acl(broker, f"Group:{group}", ["Sub"], "Allow")
    assert cpp_consume(namesrv.addr, topic, group, 2, 30, ALICE) == ["acl body 0", "acl body 1"]


def test_a_broker_behaving_as_4_9_8_has_no_acl_2(tmp_path: Path, namesrv: NameServerProcess) -> None:
    b = BrokerProcess(
        tmp_path / "old", namesrv.addr, authenticationEnabled="true", authorizationEnabled="true"
    )
    try:
        ok(as_user(b, None, RequestCode.GET_BROKER_CONFIG))  # 5.x settings: not read by a 4.9.8 broker
        resp = as_user(b, None, RequestCode.AUTH_LIST_USER)
        assert (resp.code, resp.remark) == (
            ResponseCode.REQUEST_CODE_NOT_SUPPORTED,
            " request type 3005 not supported",
        )
    finally:
        b.stop()
