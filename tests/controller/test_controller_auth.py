"""``controllerAuth`` and the controller's own rules, over loopback against our name server with its
embedded controller (in this process, or as real processes with our broker in controller mode).

With an ACL file named (``controllerAclFile``) every controller request must carry an admin
account's ACL 1.0 signature: unsigned, unknown or wrongly signed requests are refused with
NO_PERMISSION and change nothing (the replica table and the config file byte for byte, the epochs),
while the same request signed is served. Whatever the mode, a replica moves to another address only
with its check code (or a signature), a broker id cannot be taken ahead of the set's next one, and
``isCleanLivingBroker`` does not clean a replica whose heartbeats have not expired.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

from mqadmin.controller.auth import OPEN_WARNING, ControllerAuth, ControllerAuthError
from mqadmin.localcluster import mqadmin_argv
from mqadmin.namesrv.config import NamesrvConfig, NettyServerConfig
from mqadmin.namesrv.server import NamesrvController
from mqadmin.protocol.acl import RequestSigner
from mqadmin.protocol.bodies.controller import BrokerReplicasInfo, SyncStateSet
from mqadmin.protocol.codes import RequestCode as RQ
from mqadmin.protocol.codes import ResponseCode as RC
from mqadmin.protocol.command import RemotingCommand
from mqadmin.remoting.client import RemotingClient
from tests.cli_harness import clean_env, run_mqadmin, with_admin
from tests.servers import ControllerNameServer, controller_broker

CLUSTER, NAME = "DefaultCluster", "broker-a"
ADDR1, ADDR2, ELSEWHERE = "127.0.0.1:10911", "127.0.0.1:10921", "127.0.0.1:6666"
ADMIN = ("ctlAdmin", "ctlSecret1")
PLAIN = ("ctlPlain", "ctlSecret2")  # an account of the file without admin: true

IDENT = {"clusterName": CLUSTER, "brokerName": NAME}


def acl_file(tmp: Path) -> Path:
    path = tmp / "controller_acl.yml"
    path.write_text(
        "accounts:\n"
        f"  - accessKey: {ADMIN[0]}\n    secretKey: {ADMIN[1]}\n    admin: true\n"
        f"  - accessKey: {PLAIN[0]}\n    secretKey: {PLAIN[1]}\n    admin: false\n"
    )
    return path


class Peer:
    """One connection to the controller; signs with ``keys`` when given."""

    def __init__(self, addr: str, keys: tuple[str, str] | None = None) -> None:
        self.addr = addr
        hooks = [RequestSigner(*keys)] if keys is not None else []
        self.client = RemotingClient(rpc_hooks=hooks)

    async def ask(
        self, code: int, ext: dict[str, str] | None = None, body: bytes | None = None
    ) -> RemotingCommand:
        return await self.client.invoke(self.addr, RemotingCommand.request(code, ext, body), 5.0)

    async def close(self) -> None:
        await self.client.close()


Body = Callable[[NamesrvController, Callable[..., Peer]], Awaitable[None]]


def run(tmp: Path, body: Body, *, auth: bool = True) -> None:
    """``body(ns, peer)`` against a name server whose controller has the ACL file (``auth``) or none."""
    props = {"enableControllerInNamesrv": "true"}
    if auth:
        props["controllerAclFile"] = str(acl_file(tmp))
    cfg = NamesrvConfig(kv_config_path=str(tmp / "kvConfig.json"), enable_controller_in_namesrv=True)
    server = NettyServerConfig(bind_address="127.0.0.1", listen_port=0)

    async def go() -> None:
        ns = NamesrvController(cfg, server, file_properties=props)
        port = await ns.start()
        peers: list[Peer] = []

        def peer(keys: tuple[str, str] | None = None) -> Peer:
            p = Peer(f"127.0.0.1:{port}", keys)
            peers.append(p)
            return p

        try:
            await body(ns, peer)
        finally:
            for p in peers:
                await p.close()
            await ns.shutdown()

    asyncio.run(go())


def files(tmp: Path) -> dict[str, bytes | None]:
    """The controller's files, byte for byte (None: absent)."""
    out: dict[str, bytes | None] = {}
    for name in ("replicas.json", "controller.properties"):
        path = tmp / "controller" / name
        out[name] = path.read_bytes() if path.exists() else None
    return out


async def join(broker: Peer, broker_id: int, addr: str, *, elect: bool = True) -> None:
    """A replica's registration as a 5.3.3 broker makes it (1012, 1013, 904, 1003, 1002)."""
    r = await broker.ask(RQ.CONTROLLER_GET_NEXT_BROKER_ID, IDENT)
    assert (r.code, r.ext("nextBrokerId")) == (RC.SUCCESS, str(broker_id)), r.remark
    apply = {**IDENT, "appliedBrokerId": str(broker_id), "registerCheckCode": f"{addr};{broker_id}"}
    r = await broker.ask(RQ.CONTROLLER_APPLY_BROKER_ID, apply)
    assert r.code == RC.SUCCESS, r.remark
    r = await broker.ask(RQ.BROKER_HEARTBEAT, {**IDENT, "brokerAddr": addr, "brokerId": str(broker_id)})
    assert r.code == RC.SUCCESS, r.remark
    r = await broker.ask(
        RQ.CONTROLLER_REGISTER_BROKER, {**IDENT, "brokerId": str(broker_id), "brokerAddress": addr}
    )
    assert r.code == RC.SUCCESS, r.remark
    if elect:
        r = await broker.ask(
            RQ.CONTROLLER_ELECT_MASTER, {**IDENT, "brokerId": str(broker_id), "designateElect": "false"}
        )
        assert r.code == RC.SUCCESS, r.remark


async def replicas(admin: Peer) -> dict[int | None, tuple[str | None, bool | None]]:
    r = await admin.ask(RQ.CONTROLLER_GET_SYNC_STATE_DATA, None, json.dumps([NAME]).encode())
    assert r.code == RC.SUCCESS, r.remark
    info = BrokerReplicasInfo.decode(r.body or b"").replicas_info_table[NAME]
    return {
        rep.broker_id: (rep.broker_address, rep.alive)
        for rep in info.in_sync_replicas + info.not_in_sync_replicas
    }


def refused(r: RemotingCommand, code: int = RC.NO_PERMISSION, *words: str) -> None:
    assert r.code == code, (r.code, r.remark)
    for w in words:
        assert w in (r.remark or ""), r.remark


# ---------------------------------------------------------------------------------- every code


ALL_CODES = [
    (RQ.CONTROLLER_ALTER_SYNC_STATE_SET, {"brokerName": NAME, "masterBrokerId": "1", "masterEpoch": "1"}),
    (RQ.CONTROLLER_ELECT_MASTER, {**IDENT, "brokerId": "1", "designateElect": "true"}),
    (RQ.CONTROLLER_REGISTER_BROKER, {**IDENT, "brokerId": "1", "brokerAddress": ELSEWHERE}),
    (RQ.CONTROLLER_GET_REPLICA_INFO, {"brokerName": NAME}),
    (RQ.CONTROLLER_GET_METADATA_INFO, None),
    (RQ.CONTROLLER_GET_SYNC_STATE_DATA, None),
    (RQ.UPDATE_CONTROLLER_CONFIG, None),
    (RQ.GET_CONTROLLER_CONFIG, None),
    (RQ.CLEAN_BROKER_DATA, {**IDENT, "isCleanLivingBroker": "true"}),
    (RQ.CONTROLLER_GET_NEXT_BROKER_ID, IDENT),
    (RQ.CONTROLLER_APPLY_BROKER_ID, {**IDENT, "appliedBrokerId": "3", "registerCheckCode": f"{ELSEWHERE};1"}),
    (RQ.BROKER_HEARTBEAT, {**IDENT, "brokerAddr": ADDR2, "brokerId": "2"}),
]


def test_every_controller_code_needs_an_admin_signature(tmp_path: Path) -> None:
    async def body(ns: NamesrvController, peer: Callable[..., Peer]) -> None:
        admin, broker = peer(ADMIN), peer(ADMIN)
        await join(broker, 1, ADDR1)
        apply = {**IDENT, "appliedBrokerId": "2", "registerCheckCode": f"{ADDR2};2"}
        assert (await admin.ask(RQ.CONTROLLER_APPLY_BROKER_ID, apply)).code == RC.SUCCESS  # not alive
        before = files(tmp_path)
        strangers = {
            "unsigned": peer(),
            "not an admin account": peer(PLAIN),
            "unknown account": peer(("nobody12", "whatever1")),
            "wrong secret": peer((ADMIN[0], "notTheSecret")),
        }
        bodies = {
            RQ.CONTROLLER_ALTER_SYNC_STATE_SET: SyncStateSet([1, 2], 1).encode(),
            RQ.CONTROLLER_GET_SYNC_STATE_DATA: json.dumps([NAME]).encode(),
            RQ.UPDATE_CONTROLLER_CONFIG: b"electMasterMaxRetryCount=9\n",
        }
        for who, stranger in strangers.items():
            for code, ext in ALL_CODES:
                r = await stranger.ask(code, ext, bodies.get(code))
                refused(r)
                assert r.remark, (who, code)
                assert files(tmp_path) == before, (who, code)
        # each stranger's refusal named what was wrong
        r = await strangers["unsigned"].ask(RQ.CONTROLLER_GET_METADATA_INFO)
        refused(r, RC.NO_PERMISSION, "must be signed")
        refused(
            await strangers["unknown account"].ask(RQ.CONTROLLER_GET_METADATA_INFO),
            RC.NO_PERMISSION,
            "nobody12",
        )
        refused(
            await strangers["not an admin account"].ask(RQ.CONTROLLER_GET_METADATA_INFO),
            RC.NO_PERMISSION,
            PLAIN[0],
        )
        refused(
            await strangers["wrong secret"].ask(RQ.CONTROLLER_GET_METADATA_INFO),
            RC.NO_PERMISSION,
            "signature",
        )
        # nothing changed: same master, same epoch, and the stranger's heartbeat made nobody alive
        r = await admin.ask(RQ.CONTROLLER_GET_REPLICA_INFO, {"brokerName": NAME})
        assert (r.code, r.ext("masterBrokerId"), r.ext("masterEpoch")) == (RC.SUCCESS, "1", "1")
        assert await replicas(admin) == {1: (ADDR1, True), 2: (ADDR2, False)}
        # the happy side: a signed admin is served at once, the name server's own requests as ever
        start = time.monotonic()
        assert (await admin.ask(RQ.CONTROLLER_GET_METADATA_INFO)).code == RC.SUCCESS
        assert time.monotonic() - start < 1.0
        assert (await strangers["unsigned"].ask(RQ.GET_BROKER_CLUSTER_INFO)).code == RC.SUCCESS
        name_server_beat = {**IDENT, "brokerAddr": ADDR1}  # no broker id: the name server's heartbeat
        assert (await strangers["unsigned"].ask(RQ.BROKER_HEARTBEAT, name_server_beat)).code == RC.SUCCESS

    run(tmp_path, body)


# ---------------------------------------------------------------------------------- election


def test_a_designated_election_needs_the_admin(tmp_path: Path) -> None:
    async def body(ns: NamesrvController, peer: Callable[..., Peer]) -> None:
        admin, one, two = peer(ADMIN), peer(ADMIN), peer(ADMIN)
        await join(one, 1, ADDR1)
        await join(two, 2, ADDR2, elect=False)
        alter = {"brokerName": NAME, "masterBrokerId": "1", "masterEpoch": "1"}
        r = await one.ask(RQ.CONTROLLER_ALTER_SYNC_STATE_SET, alter, SyncStateSet([1, 2], 1).encode())
        assert r.code == RC.SUCCESS, r.remark
        before = files(tmp_path)

        designate = {**IDENT, "brokerId": "2", "designateElect": "true", "invokeTime": "1"}
        refused(await peer().ask(RQ.CONTROLLER_ELECT_MASTER, designate), RC.NO_PERMISSION, "must be signed")
        refused(await peer(PLAIN).ask(RQ.CONTROLLER_ELECT_MASTER, designate))
        assert files(tmp_path) == before
        r = await admin.ask(RQ.CONTROLLER_GET_REPLICA_INFO, {"brokerName": NAME})
        assert (r.ext("masterBrokerId"), r.ext("masterEpoch")) == ("1", "1")

        r = await admin.ask(RQ.CONTROLLER_ELECT_MASTER, designate)
        assert r.code == RC.SUCCESS, r.remark
        assert (r.ext("masterBrokerId"), r.ext("masterAddress"), r.ext("masterEpoch")) == ("2", ADDR2, "2")
        assert (
            json.loads((tmp_path / "controller" / "replicas.json").read_text())["brokerSets"][0][
                "masterEpoch"
            ]
            == 2
        )

    run(tmp_path, body)


# ---------------------------------------------------------------------------------- re-addressing


def test_a_replica_moves_only_with_its_check_code(tmp_path: Path) -> None:
    """Auth off (Java's open controller): 1003 to a new address needs the check code it applied with."""

    async def body(ns: NamesrvController, peer: Callable[..., Peer]) -> None:
        broker, other = peer(), peer()
        await join(broker, 1, ADDR1)
        before = files(tmp_path)
        move = {**IDENT, "brokerId": "1", "brokerAddress": ELSEWHERE}
        r = await other.ask(RQ.CONTROLLER_REGISTER_BROKER, move)
        refused(r, RC.NO_PERMISSION, "registerCheckCode", ADDR1, ELSEWHERE)
        r = await other.ask(RQ.CONTROLLER_REGISTER_BROKER, {**move, "registerCheckCode": f"{ADDR1};2"})
        refused(r, RC.NO_PERMISSION, "registerCheckCode")
        assert files(tmp_path) == before
        assert await replicas(other) == {1: (ADDR1, True)}
        # the replica itself, at its own address, registers as before (no check code needed)
        r = await broker.ask(
            RQ.CONTROLLER_REGISTER_BROKER, {**IDENT, "brokerId": "1", "brokerAddress": ADDR1}
        )
        assert r.code == RC.SUCCESS and files(tmp_path) == before
        # with the check code it applied with, it moves
        r = await broker.ask(RQ.CONTROLLER_REGISTER_BROKER, {**move, "registerCheckCode": f"{ADDR1};1"})
        assert r.code == RC.SUCCESS, r.remark
        assert (await replicas(other))[1][0] == ELSEWHERE

    run(tmp_path, body, auth=False)


def test_a_signed_replica_moves_an_unsigned_one_does_not(tmp_path: Path) -> None:
    async def body(ns: NamesrvController, peer: Callable[..., Peer]) -> None:
        broker = peer(ADMIN)
        await join(broker, 1, ADDR1)
        before = files(tmp_path)
        move = {**IDENT, "brokerId": "1", "brokerAddress": ELSEWHERE, "registerCheckCode": f"{ADDR1};1"}
        refused(await peer().ask(RQ.CONTROLLER_REGISTER_BROKER, move), RC.NO_PERMISSION, "must be signed")
        assert files(tmp_path) == before
        # a signed request (a 5.3.3 broker with its inner credentials sends no check code) moves it
        r = await broker.ask(
            RQ.CONTROLLER_REGISTER_BROKER, {**IDENT, "brokerId": "1", "brokerAddress": ELSEWHERE}
        )
        assert r.code == RC.SUCCESS, r.remark
        assert (await replicas(broker))[1][0] == ELSEWHERE

    run(tmp_path, body)


# ---------------------------------------------------------------------------------- cleaning


@pytest.mark.parametrize("auth", [True, False], ids=["auth", "open"])
def test_clean_living_broker_spares_a_live_replica(tmp_path: Path, auth: bool) -> None:
    async def body(ns: NamesrvController, peer: Callable[..., Peer]) -> None:
        keys = ADMIN if auth else None
        broker, admin = peer(keys), peer(keys)
        await join(broker, 1, ADDR1)
        before = files(tmp_path)
        if auth:
            refused(await peer().ask(RQ.CLEAN_BROKER_DATA, {**IDENT, "isCleanLivingBroker": "true"}))
        for ext in (
            {**IDENT, "isCleanLivingBroker": "true"},
            {**IDENT, "isCleanLivingBroker": "true", "brokerControllerIdsToClean": "1"},
            # the request's cluster name does not hide a live replica from the check
            {"clusterName": "OtherCluster", "brokerName": NAME, "brokerControllerIdsToClean": "1"},
        ):
            r = await admin.ask(RQ.CLEAN_BROKER_DATA, ext)
            refused(r, RC.CONTROLLER_INVALID_CLEAN_BROKER_METADATA, "still alive")
            assert files(tmp_path) == before
        r = await admin.ask(RQ.CONTROLLER_GET_REPLICA_INFO, {"brokerName": NAME})
        assert (r.ext("masterBrokerId"), r.ext("masterEpoch")) == ("1", "1")

        await broker.close()  # the replica's connection closes: no longer alive
        for _ in range(100):
            if not (await replicas(admin))[1][1]:
                break
            await asyncio.sleep(0.02)
        r = await admin.ask(RQ.CLEAN_BROKER_DATA, {**IDENT, "isCleanLivingBroker": "true"})
        assert r.code == RC.SUCCESS, r.remark
        assert json.loads((tmp_path / "controller" / "replicas.json").read_text())["brokerSets"] == []

    run(tmp_path, body, auth=auth)


# ---------------------------------------------------------------------------------- config


def test_config_updates_need_the_admin_and_spare_the_auth_settings(tmp_path: Path) -> None:
    async def body(ns: NamesrvController, peer: Callable[..., Peer]) -> None:
        admin = peer(ADMIN)
        listing = (await admin.ask(RQ.GET_CONTROLLER_CONFIG)).body or b""
        assert f"controllerAclFile={tmp_path / 'controller_acl.yml'}".encode() in listing
        assert ADMIN[1].encode() not in listing  # the secrets stay in their file
        before = files(tmp_path)
        refused(await peer().ask(RQ.UPDATE_CONTROLLER_CONFIG, None, b"electMasterMaxRetryCount=9\n"))
        for update in (
            b"controllerAuth=false\n",
            b"controllerAclFile=/tmp/mine.yml\n",
            b"controllerDLegerPeers=n0-127.0.0.1:6666\n",
        ):
            r = await admin.ask(RQ.UPDATE_CONTROLLER_CONFIG, None, update)
            refused(r, RC.NO_PERMISSION, "black list")
        assert files(tmp_path) == before
        assert (await admin.ask(RQ.GET_CONTROLLER_CONFIG)).body == listing

        r = await admin.ask(RQ.UPDATE_CONTROLLER_CONFIG, None, b"electMasterMaxRetryCount=9\n")
        assert r.code == RC.SUCCESS, r.remark
        assert b"electMasterMaxRetryCount=9\n" in ((await admin.ask(RQ.GET_CONTROLLER_CONFIG)).body or b"")
        saved = (tmp_path / "controller" / "controller.properties").read_text()
        assert "electMasterMaxRetryCount=9" in saved and ADMIN[1] not in saved

    run(tmp_path, body)


# ---------------------------------------------------------------------------------- broker ids


@pytest.mark.parametrize("auth", [True, False], ids=["auth", "open"])
def test_a_future_broker_id_cannot_be_taken(tmp_path: Path, auth: bool) -> None:
    async def body(ns: NamesrvController, peer: Callable[..., Peer]) -> None:
        keys = ADMIN if auth else None
        broker, admin = peer(keys), peer(keys)
        await join(broker, 1, ADDR1)
        before = files(tmp_path)
        squat = {**IDENT, "appliedBrokerId": "5", "registerCheckCode": f"{ELSEWHERE};1"}
        if auth:
            refused(await peer().ask(RQ.CONTROLLER_APPLY_BROKER_ID, {**squat, "appliedBrokerId": "2"}))
        r = await admin.ask(RQ.CONTROLLER_APPLY_BROKER_ID, squat)
        refused(
            r, RC.CONTROLLER_BROKER_ID_INVALID, "Fail to apply brokerId: 5", "next brokerId to assign is 2"
        )
        assert files(tmp_path) == before
        r = await admin.ask(RQ.CONTROLLER_GET_NEXT_BROKER_ID, IDENT)
        assert r.ext("nextBrokerId") == "2"
        # the next id is applied as ever, and applying it again with its own check code is no change
        r = await admin.ask(RQ.CONTROLLER_APPLY_BROKER_ID, {**squat, "appliedBrokerId": "2"})
        assert r.code == RC.SUCCESS, r.remark
        after = files(tmp_path)
        r = await admin.ask(RQ.CONTROLLER_APPLY_BROKER_ID, {**squat, "appliedBrokerId": "2"})
        assert r.code == RC.SUCCESS and files(tmp_path) == after
        refused(
            await admin.ask(
                RQ.CONTROLLER_APPLY_BROKER_ID,
                {**squat, "appliedBrokerId": "2", "registerCheckCode": f"{ELSEWHERE};9"},
            ),
            RC.CONTROLLER_BROKER_ID_INVALID,
        )

    run(tmp_path, body, auth=auth)


def test_an_oversized_body_is_refused_before_anything_else(tmp_path: Path) -> None:
    async def body(ns: NamesrvController, peer: Callable[..., Peer]) -> None:
        big = b"a=" + b"x" * (64 * 1024) + b"\n"
        for who in (peer(), peer(ADMIN)):
            r = await who.ask(RQ.UPDATE_CONTROLLER_CONFIG, None, big)
            assert r.code != RC.SUCCESS and "65536" in (r.remark or ""), r.remark
        assert files(tmp_path)["controller.properties"] is None
        assert (await peer(ADMIN).ask(RQ.CONTROLLER_GET_METADATA_INFO)).code == RC.SUCCESS

    run(tmp_path, body)


# ---------------------------------------------------------------------------------- settings


def test_auth_settings(tmp_path: Path) -> None:
    path = str(acl_file(tmp_path))
    assert not ControllerAuth.from_properties({}).enabled
    assert ControllerAuth.from_properties({"controllerAclFile": path}).enabled
    assert dict(ControllerAuth.from_properties({"controllerAclFile": path}).accounts) == {ADMIN[0]: ADMIN[1]}
    assert not ControllerAuth.from_properties({"controllerAclFile": path, "controllerAuth": "false"}).enabled
    short = tmp_path / "short.yml"
    short.write_text("accounts:\n  - accessKey: abc\n    secretKey: 12345678\n    admin: true\n")
    nobody = tmp_path / "nobody.yml"
    nobody.write_text(f"accounts:\n  - accessKey: {PLAIN[0]}\n    secretKey: {PLAIN[1]}\n")
    numeric = tmp_path / "numeric.yml"
    numeric.write_text("accounts:\n  - accessKey: rocketmq2\n    secretKey: 12345678\n    admin: true\n")
    assert dict(ControllerAuth.from_properties({"controllerAclFile": str(numeric)}).accounts) == {
        "rocketmq2": "12345678"
    }
    for props, words in (
        ({"controllerAuth": "true"}, "needs controllerAclFile"),
        ({"controllerAuth": "yes", "controllerAclFile": path}, "true or false"),
        ({"controllerAclFile": str(tmp_path / "missing.yml")}, "cannot read"),
        ({"controllerAclFile": str(short)}, "longer than 6"),
        ({"controllerAclFile": str(nobody)}, "no account with admin: true"),
    ):
        with pytest.raises(ControllerAuthError, match=words):
            ControllerAuth.from_properties(props)


def test_a_name_server_with_an_unusable_acl_file_does_not_start(tmp_path: Path) -> None:
    cfg = tmp_path / "namesrv.properties"
    cfg.write_text(
        f"bindAddress=127.0.0.1\nkvConfigPath={tmp_path / 'kvConfig.json'}\nenableControllerInNamesrv=true\n"
        f"controllerAclFile={tmp_path / 'missing.yml'}\n"
    )
    argv = [*mqadmin_argv(), "namesrv", "start", "-c", str(cfg), "--listen-port", "0", "--log-file", ""]
    p = subprocess.run(argv, capture_output=True, text=True, timeout=60)
    assert p.returncode == 1 and "boot success" not in p.stdout
    assert "missing.yml: cannot read it" in p.stderr and len(p.stderr.strip().splitlines()) == 1, p.stderr


# ---------------------------------------------------------------------------------- real processes


def test_an_open_controller_says_so_at_start_and_with_its_config(tmp_path: Path) -> None:
    """Open is Java's default and stays ours, said out loud: one warning line at start (log and
    stderr) and on the stderr of getControllerConfig, whose output stays the settings; a controller
    with admin accounts warns of neither."""
    env = clean_env(tmp_path / "home", tmp_path / "cfg")
    opened = ControllerNameServer(tmp_path / "open")
    closed = None
    try:
        closed = ControllerNameServer(tmp_path / "closed", controllerAclFile=acl_file(tmp_path))
        assert opened.stderr_path is not None and closed.stderr_path is not None
        for text in (opened.log(), opened.stderr_path.read_text()):
            lines = [ln for ln in text.splitlines() if OPEN_WARNING in ln]
            assert len(lines) == 1 and "WARN" in lines[0], text
        assert OPEN_WARNING not in closed.log() + closed.stderr_path.read_text()

        warned = f"mqadmin getControllerConfig: warning: controller {opened.addr}: {OPEN_WARNING}\n"
        r = run_mqadmin(["getControllerConfig", "-a", opened.addr], env, timeout=60)
        assert (r.code, r.err) == (0, warned), r.err
        assert r.out.startswith(f"============{opened.addr}============\n")
        assert f"{'controllerType':<50s}=  DLedger\n" in r.out and OPEN_WARNING not in r.out
        r = run_mqadmin(["getControllerConfig", "-a", opened.addr, "--json"], env, timeout=60)
        assert (r.code, r.err) == (0, warned), r.err
        assert json.loads(r.out)[opened.addr]["controllerType"] == "DLedger"

        keys = ["--access-key", ADMIN[0], "--secret-key", ADMIN[1]]
        r = run_mqadmin(["getControllerConfig", "-a", closed.addr, *keys], env, timeout=60)
        assert (r.code, r.err) == (0, ""), r.err
        assert f"{'controllerType':<50s}=  DLedger\n" in r.out
    finally:
        opened.stop()
        if closed is not None:
            closed.stop()


def test_a_broker_with_inner_credentials_joins_a_secured_controller(tmp_path: Path) -> None:
    """Our broker in controller mode signs with ``innerClientAuthenticationCredentials``: it is elected;
    a broker without them is refused and never registered; the CLI signs with --access-key."""
    ns = ControllerNameServer(tmp_path / "ns", controllerAclFile=acl_file(tmp_path))
    creds = json.dumps({"accessKey": ADMIN[0], "secretKey": ADMIN[1]})
    good = bad = None
    env = clean_env(tmp_path / "home", tmp_path / "cfg")
    try:
        good = controller_broker(tmp_path / "a", ns, innerClientAuthenticationCredentials=creds)
        bad = controller_broker(tmp_path / "b", ns, brokerName="broker-b")
        keys = ["--access-key", ADMIN[0], "--secret-key", ADMIN[1]]
        deadline = time.monotonic() + 20
        while True:
            r = run_mqadmin(["getSyncStateSet", "-a", ns.addr, "-b", "broker-a", *keys], env, timeout=60)
            if r.code == 0 and "#MasterBrokerId\t1\n" in r.out:
                break
            assert time.monotonic() < deadline, (r.code, r.out, r.err)
            time.sleep(0.3)
        assert f"brokerAddress='{good.addr}', alive=true" in r.out, r.out

        r = run_mqadmin(["getSyncStateSet", "-a", ns.addr, "-b", "broker-a"], env, timeout=60)
        assert r.code != 0 and r.out == "" and "must be signed" in r.err, (r.code, r.err)
        r = run_mqadmin(["getControllerMetaData", "-a", ns.addr, *keys], env, timeout=60)
        assert r.code == 0 and f"#ControllerLeaderAddress\t{ns.addr}" in r.out, r.err

        table = json.loads(ns.replicas_file.read_text())
        assert [s["brokerName"] for s in table["brokerSets"]] == ["broker-a"]
        epoch = table["brokerSets"][0]["masterEpoch"]
        r = run_mqadmin(
            ["electMaster", "-a", ns.addr, "-b", "1", "-bn", "broker-a", "-c", CLUSTER], env, timeout=60
        )
        assert r.code != 0 and "must be signed" in r.err, r.err
        r = run_mqadmin(
            ["cleanBrokerMetadata", "-a", ns.addr, "-bn", "broker-a", "-c", CLUSTER], env, timeout=60
        )
        assert r.code != 0 and "must be signed" in r.err, r.err
        assert json.loads(ns.replicas_file.read_text())["brokerSets"][0]["masterEpoch"] == epoch

        info = with_admin(
            ns.addr,
            lambda a: a.controller.get_in_sync_state_data(ns.addr, ["broker-a", "broker-b"]),
            credentials=_creds(),
        )
        assert list(info.replicas_info_table) == ["broker-a"]  # broker-b never got an id
    finally:
        for b in (good, bad):
            if b is not None and b.alive:
                b.stop()
        ns.stop()


def _creds() -> object:
    from mqadmin.admin.settings import Credentials

    return Credentials(*ADMIN)
