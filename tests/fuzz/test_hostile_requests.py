"""Hostile requests against our real name server and broker: afterwards nothing is hurt.

A bounded fuzz run (seeded, a few thousand requests in a fixed time budget) sends every request code
the servers know, plus random ones, with header fields drawn from Java's field names (and every field
a request header of ours declares) and hostile
values (lone surrogates, NUL, path segments, line breaks, huge and negative numbers, 64 KiB strings),
and bodies that are random bytes, JSON holding hostile strings, or config text that tries to smuggle
black-listed keys; a few connections send malformed frames. It runs against three set-ups, each
drawing the codes of its own features half the time:

- ``4.9.8``: a broker behaving as 4.9.8 with ACL 1.0 on (``aclEnable``), most requests signed by its
  admin account (the ``plain_acl.yml`` admin codes 50-54 are reached), a quarter by an ordinary
  account, and a plain name server;
- ``5.3.3``: a broker behaving as 5.3.3 with authentication off (ACL 2.0 admin 3001-3010, consume
  modes 401/402, static topics 513, HA 907/908, epochs 1007, cold data 2001-2004, RocksDB probes...)
  and a name server with its embedded controller (``enableControllerInNamesrv``, codes 1001-1018);
- ``5.3.3-auth``: that broker with ``authenticationEnabled``/``authorizationEnabled``, most requests
  signed by its super user, a quarter by a user with no policy (the rest unsigned or with a wrong
  secret).

One request in fifty carries a body over its code's declared budget, or a small zlib stream that
inflates past it.

Then:

- both servers still answer every client, and no response failed to encode;
- every config file is unchanged, except by writes the fuzz may legitimately make (none: it never
  sends a valid new name), and no topic or group that fails Java's rules was created;
- no file exists outside the store dir, no path under it has a name Java would refuse;
- the seeded group's offsets are still persisted, and still there after a restart;
- what the new features stored (users and ACLs, ``plain_acl.yml``, the controller's table and config)
  holds only text that can be kept, and both servers start again from it.
"""

from __future__ import annotations

import asyncio
import functools
import json
import os
import random
import re
import socket
import struct
import time
import uuid
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import yaml

import mqadmin.protocol.headers as header_pkg
from mqadmin.admin.settings import Credentials
from mqadmin.admin.signing import AclSigner
from mqadmin.localcluster import LocalCluster, ServerProcess
from mqadmin.protocol import fastjson
from mqadmin.protocol.bodies.properties import string_to_properties
from mqadmin.protocol.codes import RequestCode, ResponseCode, request_codes
from mqadmin.protocol.command import RemotingCommand
from mqadmin.protocol.headers.base import RequestHeader
from mqadmin.protocol.names import bad_text, check_group, check_topic
from mqadmin.protocol.requests import declared
from mqadmin.remoting.client import RemotingClient
from mqadmin.remoting.errors import RemotingError

SEED_TOPIC = "FuzzSeedTopic"
SEED_GROUP = "FuzzSeedGroup"
BUDGET_S = float(os.environ.get("MQADMIN_FUZZ_SECONDS", "5"))  # per server and set-up (5 in all)
SEED = int(os.environ.get("MQADMIN_FUZZ_SEED", "20261125"))

FIELD_NAMES = [
    "topic", "consumerGroup", "group", "producerGroup", "clusterName", "brokerName", "brokerAddr",
    "brokerId", "haServerAddr", "namespace", "key", "value", "queueId", "queueOffset", "offset",
    "commitOffset", "maxMsgNums", "sysFlag", "suspendTimeoutMillis", "subVersion", "subscription",
    "delayLevel", "originTopic", "originMsgId", "maxReconsumeTimes", "timestamp", "boundaryType",
    "readQueueNums", "writeQueueNums", "perm", "topicFilterType", "order", "defaultTopic",
    "defaultTopicQueueNums", "bornTimestamp", "flag", "properties", "reconsumeTimes", "unitMode",
    "batch", "compressed", "bodyCrc32", "enableActingMaster", "heartbeatTimeoutMillis", "bname",
    "a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m", "n", "msgId", "uniqKey",
    "beginTimestamp", "endTimestamp", "isForce", "clientId", "tranStateTableOffset", "commitLogOffset",
    "commitOrRollback", "fromTransactionCheck", "srcGroup", "destGroup", "offlineMigration",
    "configStorePath", "storePathRootDir", "kvConfigPath",
]  # fmt: skip


def _declared_fields() -> list[str]:
    """Every Java field name a request header of ours declares (old and 5.x families alike)."""
    import importlib
    import pkgutil

    for mod in pkgutil.iter_modules(header_pkg.__path__):
        importlib.import_module(f"{header_pkg.__name__}.{mod.name}")
    found: set[str] = set()
    todo: list[type] = [RequestHeader]
    while todo:
        cls = todo.pop()
        todo.extend(cls.__subclasses__())
        if "FIELDS" in cls.__dict__:
            found.update(f.java for f in cls.fields())  # type: ignore[attr-defined]
    return sorted(found - set(FIELD_NAMES))


FIELD_NAMES += _declared_fields()

ACL1_ADMIN = Credentials("AdminAK01", "AdminSK01")
PLAIN_ACL = f"""\
globalWhiteRemoteAddresses:
  - 127.0.0.2
accounts:
  - accessKey: {ACL1_ADMIN.access_key}
    secretKey: {ACL1_ADMIN.secret_key}
    admin: true
  - accessKey: UserAK001
    secretKey: UserSK001
    admin: false
    defaultTopicPerm: PUB
"""
ROOT = Credentials("rootUser", "rootSecret")
ACL1_USER = Credentials("UserAK001", "UserSK001")
"""An ordinary ACL 1.0 account (not admin)."""
ALICE = Credentials("alice", "aliceSecret")
"""An ACL 2.0 Normal user with no policy at all (made by :func:`_seed`)."""
UNPRIVILEGED = {ACL1_ADMIN.access_key: ACL1_USER, ROOT.access_key: ALICE}

CONTROLLER_CODES = tuple(range(1001, 1019))
FIVE_BROKER_CODES = (
    *range(3001, 3011), 401, 402, 513, 907, 908, 1007, *range(2001, 2005), 343, 345, 351, 352, 353, 354,
    355, 370, 400, 902, 903, 200050, 200051, 200151, 200052, 200053, 200054, 200055, 200056,
)  # fmt: skip


@dataclass(frozen=True)
class Setup:
    """One fuzz set-up: server settings, which servers are fuzzed, whose keys sign, what is aimed at."""

    name: str
    broker_props: Callable[[Path], dict[str, object]]
    namesrv_props: dict[str, object] = field(default_factory=dict)
    fuzz_namesrv: bool = True
    signer: Credentials | None = None
    focus: dict[str, tuple[int, ...]] = field(default_factory=dict)  # "namesrv"/"broker" -> codes


def _acl1_home(work: Path) -> dict[str, object]:
    home = work / "home"
    (home / "conf").mkdir(parents=True, exist_ok=True)
    (home / "conf" / "plain_acl.yml").write_text(PLAIN_ACL)
    return {"aclEnable": "true", "rocketmqHome": home}


SETUPS = [
    Setup(
        "4.9.8",
        lambda work: {"autoCreateTopicEnable": "false", **_acl1_home(work)},
        signer=ACL1_ADMIN,
        focus={"broker": tuple(range(50, 55))},
    ),
    Setup(
        "5.3.3",
        lambda work: {"autoCreateTopicEnable": "false", "rocketmqVersion": "5.3.3"},
        namesrv_props={"enableControllerInNamesrv": "true"},
        focus={"namesrv": CONTROLLER_CODES, "broker": FIVE_BROKER_CODES},
    ),
    Setup(
        "5.3.3-auth",
        lambda work: {
            "autoCreateTopicEnable": "false",
            "rocketmqVersion": "5.3.3",
            "authenticationEnabled": "true",
            "authorizationEnabled": "true",
            "initAuthenticationUser": json.dumps({"username": ROOT.access_key, "password": ROOT.secret_key}),
        },
        fuzz_namesrv=False,
        signer=ROOT,
        focus={"broker": FIVE_BROKER_CODES},
    ),
]


def _marker_path(marker: str) -> str:
    return f"../../../../../../../../../../tmp/{marker}/PWNED"


def hostile_text(rng: random.Random, marker: str) -> str:
    choices = [
        "\ud800",
        "a\udfffb",
        "x\x00y",
        "\x00",
        _marker_path(marker),
        "../../Victim",
        "../" * 8 + "etc",
        "/abs/path",
        "T\n",
        "RMQ_SYS_TRACE_TOPIC\nconfigBlackList=nothing",
        "center\nkvConfigPath=/elsewhere",
        "a b",
        "é中文",
        "",
        " ",
        "A" * 128,
        "G" * 256,
        "Z" * 65536,
        "-1",
        "-2147483649",
        "99999999999999999999999",
        "9223372036854775807",
        "-9223372036854775808",
        "0x10",
        "1e9",
        "NaN",
        "true",
        "TRUE",
        "maybe",
        "%RETRY%" + "g" * 125,
        "%DLQ%\ud800",
        '{"a":1}',
        "KEYS\x01k\x02TAGS\x01\ud800\x02",
        "*",
        "||",
    ]
    s = rng.choice(choices)
    if rng.random() < 0.2:
        s = s + rng.choice(choices)
    return s


def hostile_value(rng: random.Random, marker: str) -> str:
    r = rng.random()
    if r < 0.55:
        return hostile_text(rng, marker)
    if r < 0.75:
        return str(rng.choice([0, 1, -1, 2**31 - 1, 2**31, -(2**31) - 1, 2**63 - 1, 2**63, 10**30]))
    if r < 0.85:  # the seeded names: requests that may legitimately act on them
        return rng.choice([SEED_TOPIC, SEED_GROUP, "0", "false"])
    return "".join(rng.choice("ab%|_-/.\\\n\x00\ud800é") for _ in range(rng.randint(1, 20)))


def hostile_body(rng: random.Random, code: int, marker: str) -> bytes | None:
    r = rng.random()
    if code in (RequestCode.UPDATE_BROKER_CONFIG, RequestCode.UPDATE_NAMESRV_CONFIG):
        # only smuggling attempts: a valid new setting would be a legitimate write
        key = rng.choice(
            ["brokerClusterName", "listenPort", "storePathRootDir", "storePathCommitLog", "kvConfigPath",
             "configStorePath", "rocketmqHome", "configBlackList", "brokerName", "namesrvAddr",
             "flushDiskType", "autoCreateTopicEnable", "defaultTopicQueueNums", "orderMessageEnable"]
        )  # fmt: skip
        value = rng.choice(
            ["x\nconfigBlackList=nothing", "/elsewhere", "\ud800", "a\x00b", "1\r\nstorePathRootDir=/x",
             _marker_path(marker), "99999999999999999999", "maybe\nkvConfigPath=/tmp/x"]
        )  # fmt: skip
        if key in ("storePathRootDir", "storePathCommitLog", "kvConfigPath", "configStorePath",
                   "rocketmqHome", "configBlackList"):  # fmt: skip
            value = rng.choice([value, "/tmp/" + marker])
        elif "\n" not in value and "\r" not in value and "\x00" not in value and "\ud800" not in value:
            value = value + "\n" + rng.choice(["configBlackList=", "storePathRootDir=/x"]) + "y"
        return f"{key}={value}\n".encode("utf-8", "surrogatepass")
    if r < 0.3:
        return None
    if r < 0.55:
        return rng.randbytes(rng.randint(1, 300))
    if r < 0.9:
        doc = {
            rng.choice([*FIELD_NAMES, "topicConfigTable", "consumeFromWhere", "subscriptionDataSet"]): (
                hostile_value(rng, marker)
                if rng.random() < 0.6
                else {hostile_text(rng, marker): {"topicName": hostile_text(rng, marker)}}
            )
            for _ in range(rng.randint(1, 5))
        }
        text = json.dumps(doc, ensure_ascii=rng.random() < 0.5)
        return text.encode("utf-8", "surrogatepass")
    return b"{" * rng.randint(1, 5000)


def _all_codes() -> list[int]:
    return list(request_codes().values())


def _maybe_signed(cmd: RemotingCommand, rng: random.Random, signer: Credentials | None) -> RemotingCommand:
    """Most requests signed by ``signer`` (so they pass the ACL and reach the handlers), many by an
    unprivileged account of the same server (correctly signed: only the declared checks stop it),
    some with a wrong secret, some not at all."""
    if signer is None:
        return cmd
    r = rng.random()
    if r < 0.6:
        AclSigner(signer)(cmd)
    elif r < 0.85:
        AclSigner(UNPRIVILEGED[signer.access_key])(cmd)
    elif r < 0.92:
        AclSigner(Credentials(signer.access_key, "NotTheSecret"))(cmd)
    return cmd


def oversized_or_compressed(rng: random.Random, code: int) -> tuple[bytes, dict[str, str]]:
    """A body over the code's declared budget, or a small zlib stream that inflates past it (with
    the ext fields that ask for inflation where a request has them)."""
    decl = declared(code)
    most = decl.budget.body if decl is not None else 64 * 1024
    if rng.random() < 0.5 and most < 8 * 1024 * 1024:
        return b"{" + b" " * most + b"}", {}
    bomb = _bomb((decl.budget.inflated if decl is not None and decl.budget.inflated else most) + 1024)
    return bomb, {"compressed": "true", "bodyCrc32": str(zlib.crc32(bomb) & 0x7FFFFFFF)}


@functools.cache
def _bomb(size: int) -> bytes:
    """A zlib stream of a registration-like body that inflates to ``size`` bytes."""
    return zlib.compress(b'{"filterServerList":["' + b"1.2.3.4:1," * (size // 10) + b'"]}', 9)


async def _fuzz(
    addr: str,
    rng: random.Random,
    marker: str,
    budget: float,
    focus: tuple[int, ...] = (),
    signer: Credentials | None = None,
) -> dict[str, int]:
    """Random hostile requests on a few connections for ``budget`` seconds; counts of what came back.

    Half the codes are drawn from ``focus`` (the set-up's own features) when it is given."""
    codes = _all_codes()
    stats = {"sent": 0, "answered": 0, "closed": 0, "timeouts": 0}
    clients = [RemotingClient(connect_timeout=3.0) for _ in range(3)]
    deadline = time.monotonic() + budget
    try:
        while time.monotonic() < deadline:
            batch = []
            for _ in range(16):
                r = rng.random()
                if focus and r < 0.5:
                    code = rng.choice(focus)
                else:
                    code = rng.choice(codes) if r < 0.95 else rng.randint(-5, 400000)
                ext = {rng.choice(FIELD_NAMES): hostile_value(rng, marker) for _ in range(rng.randint(0, 8))}
                body = hostile_body(rng, code, marker)
                if rng.random() < 0.02:
                    body, more = oversized_or_compressed(rng, code)
                    ext.update(more)
                cmd = RemotingCommand.request(code, ext or None, body)
                cmd = _maybe_signed(cmd, rng, signer)
                batch.append(rng.choice(clients).invoke(addr, cmd, 5.0))
            results = await asyncio.gather(*batch, return_exceptions=True)
            for res in results:
                stats["sent"] += 1
                if isinstance(res, RemotingCommand):
                    stats["answered"] += 1
                elif isinstance(res, asyncio.TimeoutError) or "timed out" in str(res).lower():
                    stats["timeouts"] += 1
                elif isinstance(res, RemotingError | OSError):
                    stats["closed"] += 1
                else:
                    raise AssertionError(f"unexpected client failure: {res!r}")
    finally:
        for c in clients:
            await c.close()
    return stats


def _malformed(addr: str, rng: random.Random) -> None:
    """A few connections that send garbage frames: each is closed, nothing else is."""
    host, port = addr.rsplit(":", 1)
    payloads = [
        struct.pack(">i", -1),
        struct.pack(">i", 1 << 30) + b"x" * 100,
        struct.pack(">ii", 8, 1000) + b"{}",
        struct.pack(">ii", 6, 2) + b'{"a"',
        rng.randbytes(64),
    ]
    for p in payloads:
        with socket.create_connection((host, int(port)), timeout=2) as s:
            s.sendall(p)
            s.settimeout(1.0)
            try:
                s.recv(4096)
            except (TimeoutError, OSError):
                pass


def _call(
    addr: str,
    code: int,
    ext: dict[str, str] | None = None,
    body: bytes | None = None,
    signer: Credentials | None = None,
) -> RemotingCommand:
    cmd = RemotingCommand.request(code, ext, body)
    if signer is not None:
        AclSigner(signer)(cmd)

    async def go() -> RemotingCommand:
        client = RemotingClient(connect_timeout=3.0)
        try:
            return await client.invoke(addr, cmd, 5.0)
        finally:
            await client.close()

    return asyncio.run(go())


def _seed(cluster: LocalCluster, signer: Credentials | None) -> None:
    ok = ResponseCode.SUCCESS
    b = cluster.broker_addr
    r = _call(
        b,
        RequestCode.UPDATE_AND_CREATE_TOPIC,
        {"topic": SEED_TOPIC, "defaultTopic": "TBW102", "readQueueNums": "4", "writeQueueNums": "4",
         "perm": "6", "topicFilterType": "SINGLE_TAG", "topicSysFlag": "0", "order": "false"},
        signer=signer,
    )  # fmt: skip
    assert r.code == ok, r.remark
    body = json.dumps({"groupName": SEED_GROUP, "consumeEnable": True, "retryQueueNums": 1}).encode()
    r = _call(b, RequestCode.UPDATE_AND_CREATE_SUBSCRIPTIONGROUP, None, body, signer)
    assert r.code == ok, r.remark
    for q in range(4):
        r = _call(
            b,
            RequestCode.UPDATE_CONSUMER_OFFSET,
            {"consumerGroup": SEED_GROUP, "topic": SEED_TOPIC, "queueId": str(q), "commitOffset": "0"},
            signer=signer,
        )
        assert r.code == ok, r.remark
    r = _call(
        cluster.namesrv_addr,
        RequestCode.PUT_KV_CONFIG,
        {"namespace": "FUZZ_NS", "key": "k1", "value": "v1"},
    )
    assert r.code == ok, r.remark
    if signer is ROOT:  # an ACL 2.0 user with no policy, who signs a share of the fuzz
        user = json.dumps({"username": ALICE.access_key, "password": ALICE.secret_key}).encode()
        r = _call(b, RequestCode.AUTH_CREATE_USER, {"username": ALICE.access_key}, user, ROOT)
        assert r.code == ok, r.remark


def _files(root: Path) -> set[str]:
    return {str(p.relative_to(root)) for p in root.rglob("*")}


def _json_file(path: Path) -> dict[str, Any]:
    return fastjson.loads(path.read_bytes()) if path.exists() else {}  # Java's files: fastjson text


def _state(work: Path) -> dict[str, Any]:
    cfg = work / "store" / "config"
    topics = _json_file(cfg / "topics.json").get("topicConfigTable", {})
    groups = _json_file(cfg / "subscriptionGroup.json").get("subscriptionGroupTable", {})
    return {
        "topics": sorted(topics) if isinstance(topics, dict) else [],
        "groups": sorted(groups) if isinstance(groups, dict) else [],
        "kv": _json_file(work / "kvConfig.json"),
        "broker.properties": string_to_properties((work / "broker.properties").read_bytes()),
        "namesrv.properties": string_to_properties((work / "namesrv.properties").read_bytes()),
    }


_SAFE_COMPONENT = re.compile(r"[%|a-zA-Z0-9_.-]+")


def _auth_tables(work: Path) -> dict[str, dict[str, Any]]:
    d = work / "store" / "config" / "auth"
    return {name: _json_file(d / f"{name}.json") for name in ("users", "acls")}


def _strings(value: object) -> list[str]:
    """Every string (keys too) in a JSON-like value."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in (*_strings(k), *_strings(v))]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


def _restarts(server: ServerProcess) -> None:
    """Stopped, then started again from what it stored: the boot line comes (the start would fail)."""
    server.stop()
    server.start()


@pytest.mark.parametrize("setup", SETUPS, ids=[s.name for s in SETUPS])
def test_hostile_requests_hurt_nothing(tmp_path: Path, setup: Setup) -> None:
    rng = random.Random(SEED)
    marker = f"mqadmin-fuzz-{uuid.uuid4().hex[:12]}"
    work = tmp_path / "work"
    work.mkdir()
    signer = setup.signer
    cluster = LocalCluster(work, broker_props=setup.broker_props(work), namesrv_props=setup.namesrv_props)
    with cluster:
        _seed(cluster, signer)
        time.sleep(0.5)
        before = _state(work)
        acl_file = work / "home" / "conf" / "plain_acl.yml"
        acl_before = acl_file.read_bytes() if acl_file.exists() else None
        files_before = _files(tmp_path)

        targets = [("broker", cluster.broker_addr)]
        if setup.fuzz_namesrv:
            targets.insert(0, ("namesrv", cluster.namesrv_addr))
        for role, addr in targets:
            _malformed(addr, rng)
            who = signer if role == "broker" else None
            stats = asyncio.run(_fuzz(addr, rng, marker, BUDGET_S, setup.focus.get(role, ()), who))
            print(f"\n{setup.name} {role} {addr}: {stats}")
            assert stats["sent"] > 300, stats
            assert stats["answered"] > stats["sent"] // 2, stats
            _malformed(addr, rng)

        # both servers still answer everyone
        b = cluster.broker_addr
        r = _call(cluster.namesrv_addr, RequestCode.GET_BROKER_CLUSTER_INFO)
        assert r.code == ResponseCode.SUCCESS, r.remark
        r = _call(cluster.namesrv_addr, RequestCode.GET_ROUTEINFO_BY_TOPIC, {"topic": SEED_TOPIC})
        assert r.code == ResponseCode.SUCCESS, r.remark
        r = _call(cluster.namesrv_addr, RequestCode.GET_ALL_TOPIC_LIST_FROM_NAMESERVER)
        assert r.code == ResponseCode.SUCCESS, r.remark
        for code in (
            RequestCode.GET_ALL_CONSUMER_OFFSET,
            RequestCode.GET_ALL_TOPIC_CONFIG,
            RequestCode.GET_BROKER_RUNTIME_INFO,
        ):
            r = _call(b, code, signer=signer)
            assert r.code == ResponseCode.SUCCESS, r.remark
        r = _call(
            b,
            RequestCode.QUERY_CONSUMER_OFFSET,
            {"consumerGroup": SEED_GROUP, "topic": SEED_TOPIC, "queueId": "0"},
            signer=signer,
        )
        assert r.code == ResponseCode.SUCCESS, r.remark
        if "enableControllerInNamesrv" in setup.namesrv_props:
            r = _call(cluster.namesrv_addr, RequestCode.CONTROLLER_GET_METADATA_INFO)
            assert r.code == ResponseCode.SUCCESS, r.remark
        if setup.signer is ROOT:  # the super user still signs in; an unsigned request is still refused
            r = _call(b, RequestCode.AUTH_GET_USER, {"username": ROOT.access_key}, signer=ROOT)
            assert r.code == ResponseCode.SUCCESS and b'"userType":"Super"' in (r.body or b""), r
            r = _call(b, RequestCode.GET_BROKER_CONFIG)
            assert r.code == ResponseCode.NO_PERMISSION, r.remark

        after = _state(work)
        # names Java would refuse never became topics or groups; config files did not move
        for t in after["topics"]:
            bare = t.removeprefix("%RETRY%").removeprefix("%DLQ%")
            assert check_topic(bare) is None or t in before["topics"], t
        for g in after["groups"]:
            assert check_group(g) is None, g
        assert set(after["topics"]) - set(before["topics"]) <= {
            f"%RETRY%{SEED_GROUP}",
            f"%DLQ%{SEED_GROUP}",
        }
        assert after["groups"] == before["groups"]
        for key in ("broker.properties", "namesrv.properties"):
            assert after[key] == before[key], key
        # KV namespaces and keys are free text in Java, so the fuzz may write some; the seeded entry
        # is still there and nothing stored holds text that cannot be kept
        table = after["kv"]["configTable"]
        assert table["FUZZ_NS"]["k1"] == "v1"
        for ns, kvs in table.items():
            assert bad_text(ns) is None, ns
            assert all(bad_text(k) is None and bad_text(v) is None for k, v in kvs.items()), kvs

        # what the 5.x features and ACL 1.0 keep: only text that can be kept, the admins still there
        for name, stored in _auth_tables(work).items():
            assert all(bad_text(x) is None for x in _strings(stored)), (name, stored)
        if setup.signer is ROOT:
            assert ROOT.access_key in _auth_tables(work)["users"]
        if acl_before is not None:
            kept = yaml.safe_load(acl_file.read_text())
            assert all(bad_text(x) is None for x in _strings(kept)), kept
            admins = [a for a in kept["accounts"] if a.get("accessKey") == ACL1_ADMIN.access_key]
            assert admins and admins[0]["admin"] is True, kept
        controller_dir = work / "controller"
        for path in controller_dir.glob("*.json"):
            assert all(bad_text(x) is None for x in _strings(_json_file(path))), path
        for path in controller_dir.glob("*.properties"):
            props = string_to_properties(path.read_bytes())
            assert all(bad_text(k) is None and bad_text(v) is None for k, v in props.items()), props

        assert cluster.broker is not None and cluster.namesrv is not None
        cluster.broker.stop()
        offsets = _json_file(work / "store" / "config" / "consumerOffset.json").get("offsetTable", {})
        assert f"{SEED_TOPIC}@{SEED_GROUP}" in offsets, sorted(offsets)

        for log in ("namesrv.log", "broker.log"):
            text = (work / log).read_text(errors="replace")
            assert "cannot encode the response" not in text, log

        # everything stored reads back: both servers start again from it
        cluster.broker.start()
        _restarts(cluster.namesrv)
        r = _call(b, RequestCode.GET_ALL_TOPIC_CONFIG, signer=signer)
        assert r.code == ResponseCode.SUCCESS, r.remark

    # nothing outside the store dir (and the ACL and controller folders); no path a Java name could not be
    assert not Path("/tmp", marker).exists()
    new_files = _files(tmp_path) - files_before
    for rel in new_files:
        parts = Path(rel).parts
        beside_kv = parts[:1] == ("work",) and parts[-1].startswith("kvConfig.json")  # .bak, .tmp
        kept_apart = parts[:2] in (("work", "controller"), ("work", "home"))
        ok = parts[:2] == ("work", "store") or beside_kv or kept_apart
        assert ok or parts[-1].endswith((".log", ".lock", ".stderr")), rel
        for comp in parts:
            assert _SAFE_COMPONENT.fullmatch(comp), rel
