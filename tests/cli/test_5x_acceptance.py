"""Acceptance of the 5.x commands as an operator of a secured 5.3.3 cluster runs them: only the installed
``mqadmin``, against our name server with its embedded controller and two of our brokers behaving as
5.3.3 with ``authenticationEnabled`` and ``authorizationEnabled`` on (``broker-a`` in controller mode).

- The super user made at start creates a user, who can then sign in (and could not before, nor with
  a wrong password); a topic the user has no policy for refuses the user's sends, a policy made with
  createAcl lets them through, updateAcl to Deny stops them again; deleteUser ends the sign-in.
- A user without a cluster policy cannot administer users; an unknown user, a malformed policy and
  an ACL for nobody are one line on stderr, the right exit code, and the broker's files unchanged.
- Every 5.x command run here with ``--json`` prints a document whose top-level keys are those its
  ``json_doc`` declares (the man page is generated from it).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from mqadmin.cli.docmodel import load_specs
from tests.cli_harness import BROKER_IDENTITY, Result, clean_env, run_mqadmin, unwrap
from tests.servers import BrokerProcess, ControllerNameServer

CLUSTER = "DefaultCluster"
ROOT = ("rootUser", "rootSecret")
ALICE = ("alice", "alicePass1")
TOPIC = "AcceptTopic"


class Secured:
    """Name server with the controller; broker-a (controller mode) and broker-b, both secured."""

    def __init__(self, root: Path) -> None:
        self.ns = ControllerNameServer(root / "ns")
        auth: dict[str, object] = {
            "rocketmqVersion": "5.3.3",
            "authenticationEnabled": "true",
            "authorizationEnabled": "true",
            "initAuthenticationUser": json.dumps({"username": ROOT[0], "password": ROOT[1]}),
        }
        self.brokers: list[BrokerProcess] = []
        try:
            self.a = BrokerProcess(
                root / "a",
                self.ns.addr,
                None,
                enableControllerMode="true",
                controllerAddr=self.ns.addr,
                **auth,
            )
            self.brokers.append(self.a)
            self.b = BrokerProcess(root / "b", self.ns.addr, None, brokerName="broker-b", **auth)
            self.brokers.append(self.b)
        except BaseException:
            self.stop()
            raise
        self.env = clean_env(root / "home", root / "cfg")

    def run(self, *args: str, who: tuple[str, str] | None = ROOT) -> Result:
        keys = [] if who is None else ["--access-key", who[0], "--secret-key", who[1]]
        return run_mqadmin([*args, "-n", self.ns.addr, *keys], self.env, timeout=60)

    def files(self, broker: BrokerProcess | None = None) -> tuple[bytes, ...]:
        d = (broker or self.a).workdir / "store" / "config" / "auth"
        return tuple(p.read_bytes() if p.exists() else b"" for p in (d / "users.json", d / "acls.json"))

    def stop(self) -> None:
        for b in self.brokers:
            if b.alive:
                b.stop()
        self.ns.stop()


@pytest.fixture(scope="module")
def sec(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Secured]:
    s = Secured(tmp_path_factory.mktemp("secured"))
    try:
        r = s.run("updateTopic", "-b", s.a.addr, "-t", TOPIC, "-r", "1", "-w", "1")
        assert r.code == 0, r.err
        yield s
    finally:
        s.stop()


def ok(r: Result) -> str:
    assert (r.code, r.err) == (0, ""), (r.code, r.out, r.err)
    return r.out


def one_line(r: Result, code: int, *needles: str) -> None:
    assert (r.code, r.out) == (code, ""), (r.code, r.out, r.err)
    assert len(r.err.strip().splitlines()) == 1, r.err
    for n in needles:
        assert n in r.err, r.err


def send(sec: Secured, who: tuple[str, str]) -> Result:
    return sec.run("sendMessage", "-t", TOPIC, "-p", "hello", who=who)


def max_offset(sec: Secured) -> int:
    data = json.loads(ok(sec.run("topicStatus", "-t", TOPIC, "--json")))
    text = json.dumps(data)
    found = [int(x) for x in re.findall(r'"maxOffset": (\d+)', text)]
    assert found, text
    return sum(found)


# ---------------------------------------------------------------------------------- sign in, deny, allow


def test_a_user_signs_in_is_denied_then_allowed(sec: Secured) -> None:
    a = sec.a.addr
    # before the user exists, and with a wrong password: no sign-in
    one_line(sec.run("getBrokerConfig", "-b", a, who=ALICE), 3, "CODE: 16", "User:alice is not found.")
    assert ok(sec.run("createUser", "-b", a, "-u", ALICE[0], "-p", ALICE[1])) == (
        f"create user to {a} success.\n"
    )
    one_line(sec.run("getBrokerConfig", "-b", a, who=(ALICE[0], "wrong")), 3, "check signature failed.")
    one_line(sec.run("getBrokerConfig", "-b", a, who=None), 3, "username cannot be null.")
    # signed in: broker-wide state still needs a policy on the cluster (Java: none), credentials are masked
    one_line(sec.run("getBrokerConfig", "-b", a, who=ALICE), 3, "CODE: 16", "Cluster:DefaultCluster")
    config = ok(sec.run("getBrokerConfig", "-b", a))
    assert "brokerName" in config and ROOT[1] not in config

    sent = max_offset(sec)
    r = send(sec, ALICE)
    assert r.code != 0 and "SEND_OK" not in r.out, (r.code, r.out, r.err)
    assert max_offset(sec) == sent

    r = sec.run("createAcl", "-b", a, "-s", "User:alice", "-r", f"Topic:{TOPIC}", "-a", "Pub", "-d", "Allow")
    assert ok(r) == f"create acl to {a} success.\n"
    r = send(sec, ALICE)
    assert r.code == 0 and "SEND_OK" in r.out, (r.code, r.out, r.err)
    assert max_offset(sec) == sent + 1

    r = sec.run("updateAcl", "-b", a, "-s", "User:alice", "-r", f"Topic:{TOPIC}", "-a", "Pub", "-d", "Deny")
    assert ok(r) == f"update acl to {a} success.\n"
    r = send(sec, ALICE)
    assert r.code != 0 and "SEND_OK" not in r.out, (r.code, r.out, r.err)
    assert max_offset(sec) == sent + 1

    # the user cannot administer users: that is a super user's; nothing is written
    before = sec.files()
    r = sec.run("createUser", "-b", a, "-u", "mallory", "-p", "malloryPw", who=ALICE)
    one_line(r, 3, "CODE: 16", "User:alice has no permission to send request code 3001: a super user is")
    assert sec.files() == before

    # deleted, the user cannot sign in any more; its ACL went with it
    assert ok(sec.run("deleteUser", "-b", a, "-u", ALICE[0])) == f"delete user to {a} success.\n"
    one_line(sec.run("getBrokerConfig", "-b", a, who=ALICE), 3, "User:alice is not found.")
    assert "User:alice" not in sec.run("listAcl", "-b", a).out


def test_bad_input_is_one_line_and_writes_nothing(sec: Secured) -> None:
    a = sec.a.addr
    ok(sec.run("createUser", "-b", a, "-u", "bob", "-p", "bobPass1"))
    before = sec.files()
    r = sec.run("getUser", "-b", a, "-u", "ghost")
    assert (r.code, r.out) == (1, "") and len(r.err.splitlines()) == 1, r
    one_line(sec.run("updateUser", "-b", a, "-u", "ghost", "-p", "x"), 3, "The user is not exist")
    one_line(
        sec.run("createAcl", "-b", a, "-s", "User:ghost", "-r", "Topic:T", "-a", "Pub", "-d", "Allow"),
        3,
        "The subject of User:ghost is not exist.",
    )
    for policy, why in (
        (["-r", "Topic:T", "-a", "Publish", "-d", "Allow"], "unknown action 'Publish'"),
        (["-r", "Topyc:T", "-a", "Pub", "-d", "Allow"], "bad resource 'Topyc:T'"),
        (["-r", "Topic:T", "-a", "Pub", "-d", "Maybe"], "unknown decision 'Maybe'"),
        (["-r", "Topic:T", "-a", "Pub", "-d", "Allow", "-i", "1.2.3.4/33"], "bad source address"),
    ):
        one_line(sec.run("createAcl", "-b", a, "-s", "User:bob", *policy), 2, why)
    one_line(sec.run("deleteAcl", "-b", a, "-s", "User:bob"), 7, "The acl is not exist.")
    assert sec.files() == before
    # no user is changed by a normal user, not even with a policy on the whole cluster (Java lets
    # such a user change every normal user and give itself any policy)
    ok(
        sec.run(
            "createAcl", "-b", a, "-s", "User:bob", "-r", f"Cluster:{CLUSTER}", "-a", "All", "-d", "Allow"
        )
    )
    before = sec.files()
    r = sec.run("deleteUser", "-b", a, "-u", ROOT[0], who=("bob", "bobPass1"))
    one_line(r, 3, "User:bob has no permission to send request code 3003: a super user is required.")
    assert sec.files() == before


def test_copies_between_secured_brokers(sec: Secured) -> None:
    a, b = sec.a.addr, sec.b.addr
    ok(sec.run("createUser", "-b", a, "-u", "carl", "-p", "carlPass1"))
    ok(sec.run("createAcl", "-b", a, "-s", "User:carl", "-r", f"Topic:{TOPIC}", "-a", "Pub", "-d", "Allow"))
    assert ok(sec.run("copyUser", "-f", a, "-t", b, "-u", "carl")) == (
        f"copy user of carl from {a} to {b} success.\n"
    )
    assert ok(sec.run("copyAcl", "-f", a, "-t", b, "-s", "User:carl")) == (
        f"copy acl of User:carl from {a} to {b} success.\n"
    )
    assert ok(sec.run("getAcl", "-b", b, "-s", "User:carl")) == ok(
        sec.run("getAcl", "-b", a, "-s", "User:carl")
    )
    # carl signs in on broker-b with the copied password (and is refused on the cluster, not his)
    one_line(sec.run("getBrokerConfig", "-b", b, who=("carl", "carlPass1")), 3, "Cluster:DefaultCluster")
    one_line(sec.run("getBrokerConfig", "-b", b, who=("carl", "wrongPass1")), 3, "check signature failed.")


def test_copies_that_cannot_be_made_are_one_line(sec: Secured) -> None:
    a, b = sec.a.addr, sec.b.addr
    ok(sec.run("createUser", "-b", a, "-u", "zed", "-p", "zedPass1"))
    ok(sec.run("createAcl", "-b", a, "-s", "User:zed", "-r", f"Topic:{TOPIC}", "-a", "Sub", "-d", "Allow"))
    before = sec.files(sec.b)
    # broker-b has no user zed: its refusal of the first question (getAcl, as Java asks), named,
    # and nothing kept there
    r = sec.run("copyAcl", "-f", a, "-t", b, "-s", "User:zed")
    assert r.code == 3 and len(r.err.strip().splitlines()) == 1, r
    assert f"CODE: 16 (NO_PERMISSION) from server {b}: The subject is not exist." in r.err, r.err
    # a target nobody listens on; a source nobody listens on
    for args in (
        ["copyUser", "-f", a, "-t", "127.0.0.1:1", "-u", "zed"],
        ["copyAcl", "-f", "127.0.0.1:1", "-t", b],
    ):
        r = sec.run(*args)
        assert r.code == 4 and r.out == "" and len(r.err.strip().splitlines()) == 1, (args, r)
        assert "127.0.0.1:1" in r.err, r.err
    assert sec.files(sec.b) == before


# ---------------------------------------------------------------------------------- --json shapes


def doc_fields(doc: str) -> dict[str, tuple[bool, str]] | None:
    """Top-level key -> (optional, the text of its value) of a ``json_doc`` that starts with an
    object; None for a doc whose keys are placeholders (``"<key>"``) or that is no object."""
    text = doc.strip()
    if not text.startswith("{"):
        return None
    fields: dict[str, tuple[bool, str]] = {}
    depth, i, current, start = 0, 0, "", 0

    def close(end: int) -> None:
        if current:
            value = text[start:end].strip()
            fields[current] = (value.endswith("?"), value.removesuffix("?"))

    while i < len(text):
        c = text[i]
        if c in "{[(":
            depth += 1
        elif c in "}])":
            depth -= 1
            if depth == 0:
                close(i)
                break
        elif c == '"':
            end = text.index('"', i + 1)
            word = text[i + 1 : end]
            if depth == 1 and text[end + 1 : end + 2] == ":":
                if word.startswith("<"):
                    return None
                current, start = word, end + 2
            i = end
        elif c == "," and depth == 1:
            close(i)
            current = ""
        i += 1
    return fields


def doc_keys(doc: str) -> tuple[set[str], set[str]] | None:
    """(every top-level key, the optional ones) of a ``json_doc`` (see :func:`doc_fields`)."""
    fields = doc_fields(doc)
    if fields is None:
        return None
    return set(fields), {k for k, (opt, _) in fields.items() if opt}


def test_doc_keys_reads_the_shapes() -> None:
    assert doc_keys('{"a": str, "b": [{"x": int}]?, "c": {"y": str?}} (note)') == ({"a", "b", "c"}, {"b"})
    assert doc_keys('{"a": int, "errors": [...]?}') == ({"a", "errors"}, {"errors"})
    assert doc_keys('{"<controller>": {"<key>": "<value>"}}') is None
    assert doc_keys("one JSON document per round") is None
    assert doc_fields('{"b": [{"x": int, "y": str?}]}') == {"b": (False, '[{"x": int, "y": str?}]')}


def check_shape(name: str, out: str, docs: dict[str, str]) -> None:
    shape = doc_keys(docs[name])
    assert shape is not None, (name, docs[name])
    keys, optional = shape
    data = unwrap(json.loads(out))  # the contract's apiVersion and broker identity, checked there
    assert isinstance(data, dict), (name, out)
    assert set(data) <= keys, (name, sorted(set(data) - keys), docs[name])
    assert keys - optional <= set(data), (name, sorted(keys - optional - set(data)), docs[name])
    # one level down: a list of objects (one shape, no alternatives) has the keys its doc names
    for key, (_, value) in (doc_fields(docs[name]) or {}).items():
        inner = doc_keys(value[1:]) if value.startswith("[{") and "} |" not in value else None
        if inner is None or not isinstance(data.get(key), list):
            continue
        for item in data[key]:
            assert set(item) <= inner[0], (name, key, sorted(set(item) - inner[0]), value)
            named = inner[0] - inner[1] - (set(BROKER_IDENTITY) if key == "brokers" else set())
            assert named <= set(item), (name, key, sorted(named - set(item)))


def test_json_documents_have_the_declared_keys(sec: Secured, tmp_path: Path) -> None:
    docs = {s.name: s.java.json_doc for s in load_specs() if s.java is not None}
    a, b = sec.a.addr, sec.b.addr
    ok(sec.run("createUser", "-b", b, "-u", "dana", "-p", "danaPass1"))
    runs: list[tuple[str, list[str], int]] = [
        ("createUser", ["-b", a, "-u", "dana", "-p", "danaPass1"], 0),
        ("updateUser", ["-b", a, "-u", "dana", "-s", "disable"], 0),
        ("getUser", ["-b", a, "-u", "dana"], 0),
        ("listUser", ["-b", a], 0),
        ("createAcl", ["-b", a, "-s", "User:dana", "-r", "Topic:D", "-a", "Sub", "-d", "Allow"], 0),
        ("updateAcl", ["-b", a, "-s", "User:dana", "-r", "Group:D", "-a", "Sub", "-d", "Allow"], 0),
        ("getAcl", ["-b", a, "-s", "User:dana"], 0),
        ("listAcl", ["-b", a], 0),
        ("copyUser", ["-f", a, "-t", b, "-u", "dana"], 0),
        ("copyAcl", ["-f", a, "-t", b, "-s", "User:dana"], 0),
        ("deleteAcl", ["-b", a, "-s", "User:dana", "-r", "Topic:D"], 0),
        ("deleteUser", ["-b", a, "-u", "dana"], 0),
        ("createUser", ["-c", CLUSTER, "-u", "erik", "-p", "erikPass1"], 0),
        ("getControllerMetaData", ["-a", sec.ns.addr], 0),
        ("updateControllerConfig", ["-a", sec.ns.addr, "-k", "electMasterMaxRetryCount", "-v", "4"], 0),
        ("getSyncStateSet", ["-a", sec.ns.addr, "-b", "broker-a"], 0),
        ("getBrokerEpoch", ["-b", "broker-a"], 0),
        ("haStatus", ["-b", a], 0),
        ("setConsumeMode", ["-b", a, "-t", TOPIC, "-g", "JsonGroup", "-m", "POP", "-q", "2"], 0),
        ("exportPopRecord", ["-b", a], 0),
        ("setCommitLogReadAheadMode", ["-b", a, "-m", "1"], 0),
        ("resetMasterFlushOffset", ["-b", a, "-o", "0"], 0),
        ("getColdDataFlowCtrInfo", ["-b", a], 0),
        ("updateColdDataFlowCtrGroupConfig", ["-b", a, "-g", "JsonGroup", "-v", "10"], 0),
        ("removeColdDataFlowCtrGroupConfig", ["-b", a, "-g", "JsonGroup"], 0),
        ("checkRocksdbCqWriteProgress", ["-c", CLUSTER, "-t", TOPIC], 0),
        ("rocksDBConfigToJson", ["-c", CLUSTER, "-t", "topics"], 0),
        ("updateStaticTopic", ["-b", "broker-a,broker-b", "-t", "JsonStatic", "-qn", "2"], 0),
        ("remappingStaticTopic", ["-b", "broker-b", "-t", "JsonStatic"], 0),
    ]
    failed: list[Any] = []
    for name, args, code in runs:
        r = sec.run(name, *args, "--json")
        if r.code != code:
            failed.append((name, r.code, r.err.strip()))
            continue
        try:
            check_shape(name, r.out, docs)
        except AssertionError as e:
            failed.append((name, str(e)))
    assert failed == []


# ---------------------------------------------------------------------------------- electMaster


def test_elect_master_elects_the_only_replica(tmp_path: Path) -> None:
    """A replica whose master left comes back (heartbeat and registration, but no election of its
    own): ``electMaster`` makes it master, with Java's text, a new epoch, and the table on disk."""
    import asyncio

    from mqadmin.protocol.codes import RequestCode as RQ
    from mqadmin.protocol.command import RemotingCommand
    from mqadmin.remoting.client import RemotingClient

    ns = ControllerNameServer(tmp_path / "ns")
    env = clean_env(tmp_path / "home", tmp_path / "cfg")
    name, replica = "broker-x", "127.0.0.1:10999"
    ident = {"clusterName": CLUSTER, "brokerName": name}
    hb = {**ident, "brokerAddr": replica, "brokerId": "1"}
    reg = {**ident, "brokerId": "1", "brokerAddress": replica}

    def mq(*args: str) -> Result:
        return run_mqadmin([*args], env, timeout=60)

    async def go() -> None:
        async def ask(client: RemotingClient, code: int, ext: dict[str, str]) -> RemotingCommand:
            return await client.invoke(ns.addr, RemotingCommand.request(code, ext), 5.0)

        first = RemotingClient()
        r = await ask(first, RQ.CONTROLLER_GET_NEXT_BROKER_ID, ident)
        assert r.ext("nextBrokerId") == "1", r
        apply = {**ident, "appliedBrokerId": "1", "registerCheckCode": f"{replica};1"}
        r = await ask(first, RQ.CONTROLLER_APPLY_BROKER_ID, apply)
        assert r.code == 0, r.remark
        assert (await ask(first, RQ.BROKER_HEARTBEAT, hb)).code == 0
        assert (await ask(first, RQ.CONTROLLER_REGISTER_BROKER, reg)).code == 0
        r = await ask(
            first, RQ.CONTROLLER_ELECT_MASTER, {**ident, "brokerId": "1", "designateElect": "false"}
        )
        assert (r.code, r.ext("masterEpoch")) == (0, "1"), r.remark
        await first.close()  # the master leaves: its set has no master
        for _ in range(50):
            out = (await asyncio.to_thread(mq, "getSyncStateSet", "-a", ns.addr, "-b", name)).out
            if "#MasterBrokerId\tnull" in out:
                break
            await asyncio.sleep(0.1)
        assert "#MasterBrokerId\tnull" in out, out

        back = RemotingClient()  # back, alive, not electing itself
        try:
            assert (await ask(back, RQ.BROKER_HEARTBEAT, hb)).code == 0
            r = await ask(back, RQ.CONTROLLER_REGISTER_BROKER, reg)
            assert r.code == 0 and r.ext("masterBrokerId") is None, r
            res = await asyncio.to_thread(
                mq, "electMaster", "-a", ns.addr, "-c", CLUSTER, "-bn", name, "-b", "1"
            )
            assert (res.code, res.err) == (0, ""), res
            # no "#Broker" lines: the 5.3.3 tool reads the answer's ElectMasterResponseBody as a
            # BrokerMemberGroup, whose brokerAddrs stays null
            assert res.out == (
                f"\n#ClusterName\t{CLUSTER}\n#BrokerName\t{name}\n#BrokerMasterAddr\t{replica}\n"
                "#MasterEpoch\t3\n#SyncStateSetEpoch\t2\n"
            )
            res = await asyncio.to_thread(mq, "getSyncStateSet", "-a", ns.addr, "-b", name)
            assert "#MasterBrokerId\t1\n" in res.out and "#MasterEpoch\t3\n" in res.out, res.out
            table = json.loads(ns.replicas_file.read_text())
            assert [(s["brokerName"], s["masterBrokerId"]) for s in table["brokerSets"]] == [(name, 1)]
            # asked again: the master is alive, Java's refusal, one line, nothing changes
            res = await asyncio.to_thread(
                mq, "electMaster", "-a", ns.addr, "-c", CLUSTER, "-bn", name, "-b", "1"
            )
            assert (res.code, res.out) == (3, "") and len(res.err.splitlines()) == 1, res
            assert json.loads(ns.replicas_file.read_text()) == table
        finally:
            await back.close()
        # gone again, its metadata is cleaned; the --json document has the declared keys
        for _ in range(50):
            out = (await asyncio.to_thread(mq, "getSyncStateSet", "-a", ns.addr, "-b", name)).out
            if "#MasterBrokerId\tnull" in out:
                break
            await asyncio.sleep(0.1)
        args = ["cleanBrokerMetadata", "-a", ns.addr, "-bn", name, "-c", CLUSTER, "--json"]
        res = await asyncio.to_thread(mq, *args)
        assert res.code == 0, res
        docs = {s.name: s.java.json_doc for s in load_specs() if s.java is not None}
        check_shape("cleanBrokerMetadata", res.out, docs)
        assert json.loads(ns.replicas_file.read_text())["brokerSets"] == []

    try:
        asyncio.run(go())
    finally:
        ns.stop()


def test_acl_1_json_documents_have_the_declared_keys(tmp_path: Path) -> None:
    """The ACL 1.0 commands (a 4.9.8 broker with ``aclEnable``) against the same declared shapes."""
    from tests.cli.test_acl1_commands import Acl

    acl = Acl(tmp_path)
    try:
        docs = {s.name: s.java.json_doc for s in load_specs() if s.java is not None}
        for name, args in (
            ("updateAclConfig", ["-b", acl.addr, "-a", "JsonAcct01", "-s", "JsonSecret01"]),
            ("clusterAclConfigVersion", ["-b", acl.addr]),
            ("updateGlobalWhiteAddr", ["-c", "DefaultCluster", "-g", "127.0.0.9"]),
            ("deleteAclConfig", ["-c", "DefaultCluster", "-a", "JsonAcct01"]),
        ):
            r = acl.run(name, *args, "--json")
            assert (r.code, r.err) == (0, ""), (name, r)
            check_shape(name, r.out, docs)
    finally:
        acl.cluster.stop()
