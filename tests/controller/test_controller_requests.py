"""The embedded controller on the wire: a name server started in this process with
``enableControllerInNamesrv``, asked over loopback with our remoting client.

Happy paths follow a 5.3.3 broker's registration (1012, 1013, 904, 1003, 1002) and an admin's
questions (1004-1006, 1001, 1011); every hostile request beside them is answered with Java's code or
a clean refusal, and leaves the persisted table as it was (or absent).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from mqadmin.controller import ControllerStoreError
from mqadmin.namesrv.config import NamesrvConfig, NettyServerConfig
from mqadmin.namesrv.server import NamesrvController
from mqadmin.protocol.bodies.controller import BrokerReplicasInfo, ElectMasterResponseBody, SyncStateSet
from mqadmin.protocol.codes import RequestCode as RQ
from mqadmin.protocol.codes import ResponseCode as RC
from mqadmin.protocol.command import RemotingCommand
from mqadmin.remoting.client import RemotingClient

CLUSTER, NAME, ADDR = "DefaultCluster", "broker-a", "127.0.0.1:10911"


def _namesrv(tmp: Path, **over: str) -> NamesrvController:
    props = {"enableControllerInNamesrv": "true", **over}
    cfg = NamesrvConfig(
        kv_config_path=str(tmp / "kvConfig.json"),
        config_store_path=str(tmp / "namesrv.properties"),
        enable_controller_in_namesrv=True,
    )
    return NamesrvController(
        cfg, NettyServerConfig(bind_address="127.0.0.1", listen_port=0), file_properties=props
    )


Ask = Callable[..., Awaitable[RemotingCommand]]


def run(tmp: Path, body: Callable[[Ask, NamesrvController], Awaitable[None]], **over: str) -> None:
    async def go() -> None:
        ns = _namesrv(tmp, **over)
        port = await ns.start()
        client = RemotingClient()

        async def ask(
            code: int, ext: dict[str, str] | None = None, data: bytes | None = None
        ) -> RemotingCommand:
            return await client.invoke(f"127.0.0.1:{port}", RemotingCommand.request(code, ext, data), 5.0)

        try:
            await body(ask, ns)
        finally:
            await client.close()
            await ns.shutdown()

    asyncio.run(go())


def _table(tmp: Path) -> dict[str, Any] | None:
    path = tmp / "controller" / "replicas.json"
    return json.loads(path.read_text()) if path.exists() else None


async def _join(ask: Ask, broker_id: int = 1, addr: str = ADDR) -> RemotingCommand:
    """A broker's registration as 5.3.3 does it; returns the election's answer."""
    r = await ask(RQ.CONTROLLER_GET_NEXT_BROKER_ID, {"clusterName": CLUSTER, "brokerName": NAME})
    assert r.code == RC.SUCCESS and r.ext("nextBrokerId") == str(broker_id)
    apply = {
        "clusterName": CLUSTER,
        "brokerName": NAME,
        "appliedBrokerId": str(broker_id),
        "registerCheckCode": f"{addr};1",
    }
    r = await ask(RQ.CONTROLLER_APPLY_BROKER_ID, apply)
    assert r.code == RC.SUCCESS, r.remark
    hb = {"clusterName": CLUSTER, "brokerName": NAME, "brokerAddr": addr, "brokerId": str(broker_id)}
    r = await ask(RQ.BROKER_HEARTBEAT, hb)
    assert (r.code, r.remark) == (RC.SUCCESS, "Heart beat success")
    reg = {"clusterName": CLUSTER, "brokerName": NAME, "brokerId": str(broker_id), "brokerAddress": addr}
    r = await ask(RQ.CONTROLLER_REGISTER_BROKER, reg)
    assert r.code == RC.SUCCESS and r.ext("masterBrokerId") is None
    elect = {
        "clusterName": CLUSTER,
        "brokerName": NAME,
        "brokerId": str(broker_id),
        "designateElect": "false",
    }
    return await ask(RQ.CONTROLLER_ELECT_MASTER, elect)


def test_registration_election_and_queries(tmp_path: Path) -> None:
    async def body(ask: Ask, ns: NamesrvController) -> None:
        r = await _join(ask)
        assert r.code == RC.SUCCESS
        assert (r.ext("masterBrokerId"), r.ext("masterAddress"), r.ext("masterEpoch")) == ("1", ADDR, "1")
        elected = ElectMasterResponseBody.decode(r.body or b"")
        assert elected.sync_state_set == [1]
        assert elected.broker_member_group is not None and elected.broker_member_group.broker_addrs == {
            1: ADDR
        }

        r = await ask(RQ.CONTROLLER_GET_REPLICA_INFO, {"brokerName": NAME})
        assert (r.ext("masterBrokerId"), r.ext("masterEpoch")) == ("1", "1")
        assert SyncStateSet.decode(r.body or b"") == SyncStateSet([1], 1)

        r = await ask(RQ.CONTROLLER_GET_SYNC_STATE_DATA, None, b'["broker-a","nobody"]')
        info = BrokerReplicasInfo.decode(r.body or b"")
        assert list(info.replicas_info_table) == [NAME]
        replicas = info.replicas_info_table[NAME]
        assert replicas.master_broker_id == 1 and replicas.in_sync_replicas[0].alive is True

        # the same set again: Java's refusal, nothing changes
        alter = {"brokerName": NAME, "masterBrokerId": "1", "masterEpoch": "1"}
        r = await ask(RQ.CONTROLLER_ALTER_SYNC_STATE_SET, alter, SyncStateSet([1], 1).encode())
        assert r.code == RC.CONTROLLER_ALTER_SYNC_STATE_SET_FAILED
        # a replica that does not exist
        r = await ask(RQ.CONTROLLER_ALTER_SYNC_STATE_SET, alter, SyncStateSet([1, 9], 1).encode())
        assert r.code == RC.CONTROLLER_INVALID_REPLICAS
        # a stale master epoch
        stale = {**alter, "masterEpoch": "0"}
        r = await ask(RQ.CONTROLLER_ALTER_SYNC_STATE_SET, stale, SyncStateSet([1, 9], 1).encode())
        assert r.code == RC.CONTROLLER_FENCED_MASTER_EPOCH

        # the admin asks for the master it has: still alive, not re-elected
        admin = {"clusterName": CLUSTER, "brokerName": NAME, "brokerId": "1", "designateElect": "true"}
        r = await ask(RQ.CONTROLLER_ELECT_MASTER, admin)
        assert r.code == RC.CONTROLLER_MASTER_STILL_EXIST
        r = await ask(RQ.CONTROLLER_ELECT_MASTER, {**admin, "brokerId": "7"})
        assert (r.code, r.remark) == (RC.CONTROLLER_ELECT_MASTER_FAILED, "Failed to elect a new master")

        r = await ask(RQ.CONTROLLER_GET_METADATA_INFO)
        port = ns.port
        assert r.ext("controllerLeaderAddress") == f"127.0.0.1:{port}" and r.ext("isLeader") == "true"

        clean = {"clusterName": CLUSTER, "brokerName": NAME}
        r = await ask(RQ.CLEAN_BROKER_DATA, clean)
        assert (r.code, r.remark) == (
            RC.CONTROLLER_INVALID_CLEAN_BROKER_METADATA,
            "Broker broker-a is still alive, clean up failure",
        )
        table = _table(tmp_path)
        assert table is not None and table["brokerSets"][0]["masterEpoch"] == 1

    run(tmp_path, body)

    async def after_restart(ask: Ask, ns: NamesrvController) -> None:
        r = await ask(RQ.CONTROLLER_GET_REPLICA_INFO, {"brokerName": NAME})
        # the broker's connection closed before the server stopped (its master left: epoch 2, no
        # master); the table came back from disk with the ids, epochs and sync state set
        assert (r.code, r.ext("masterBrokerId"), r.ext("masterEpoch")) == (RC.SUCCESS, None, "2")
        assert SyncStateSet.decode(r.body or b"") == SyncStateSet([1], 1)
        r = await ask(RQ.CONTROLLER_GET_NEXT_BROKER_ID, {"clusterName": CLUSTER, "brokerName": NAME})
        assert r.ext("nextBrokerId") == "2"

    run(tmp_path, after_restart)


def test_a_master_that_leaves_leaves_its_set_without_master_then_clean(tmp_path: Path) -> None:
    async def body(ask: Ask, ns: NamesrvController) -> None:
        client = RemotingClient()
        addr = f"127.0.0.1:{ns.port}"

        async def broker_ask(code: int, ext: dict[str, str] | None = None) -> RemotingCommand:
            return await client.invoke(addr, RemotingCommand.request(code, ext), 5.0)

        assert (await _join(broker_ask)).code == RC.SUCCESS
        await client.close()  # the broker's connection closes: its heartbeat goes with it
        for _ in range(100):
            r = await ask(RQ.CONTROLLER_GET_REPLICA_INFO, {"brokerName": NAME})
            if r.ext("masterBrokerId") is None:
                break
            await asyncio.sleep(0.02)
        assert (r.ext("masterBrokerId"), r.ext("masterEpoch")) == (None, "2")
        assert SyncStateSet.decode(r.body or b"") == SyncStateSet([1], 1)  # kept for the next election

        bad_ids = {"clusterName": CLUSTER, "brokerName": NAME, "brokerControllerIdsToClean": "1;x"}
        r = await ask(RQ.CLEAN_BROKER_DATA, bad_ids)
        assert r.code == RC.CONTROLLER_INVALID_CLEAN_BROKER_METADATA and "NumberFormatException" in (
            r.remark or ""
        )
        assert _table(tmp_path)["brokerSets"]  # type: ignore[index]

        r = await ask(RQ.CLEAN_BROKER_DATA, {"clusterName": CLUSTER, "brokerName": NAME})
        assert r.code == RC.SUCCESS, r.remark
        assert _table(tmp_path) == {"version": 1, "brokerSets": []}
        r = await ask(RQ.CLEAN_BROKER_DATA, {"clusterName": CLUSTER, "brokerName": NAME})
        assert (r.code, r.remark) == (
            RC.CONTROLLER_INVALID_CLEAN_BROKER_METADATA,
            "Broker broker-a is not existed,clean broker data failure.",
        )

    run(tmp_path, body)


HOSTILE: list[tuple[str, int, dict[str, str] | None, bytes | None, int, str | None]] = [
    (
        "apply without a check code",
        RQ.CONTROLLER_APPLY_BROKER_ID,
        {"clusterName": CLUSTER, "brokerName": NAME, "appliedBrokerId": "1"},
        None,
        RC.SYSTEM_ERROR,
        "the custom field <registerCheckCode> is null",
    ),
    (
        "apply with a path as broker name",
        RQ.CONTROLLER_APPLY_BROKER_ID,
        {
            "clusterName": CLUSTER,
            "brokerName": "../x",
            "appliedBrokerId": "1",
            "registerCheckCode": f"{ADDR};1",
        },
        None,
        RC.SYSTEM_ERROR,
        "not a valid file name",
    ),
    (
        "apply with a bad id",
        RQ.CONTROLLER_APPLY_BROKER_ID,
        {
            "clusterName": CLUSTER,
            "brokerName": NAME,
            "appliedBrokerId": "one",
            "registerCheckCode": f"{ADDR};1",
        },
        None,
        RC.SYSTEM_ERROR,
        None,
    ),
    (
        "apply id 2 of an unknown set",
        RQ.CONTROLLER_APPLY_BROKER_ID,
        {
            "clusterName": CLUSTER,
            "brokerName": NAME,
            "appliedBrokerId": "2",
            "registerCheckCode": f"{ADDR};1",
        },
        None,
        RC.CONTROLLER_BROKER_ID_INVALID,
        "Broker-set: broker-a hasn't been registered in controller, but broker try to apply brokerId: 2",
    ),
    (
        "apply with a check code that is no address",
        RQ.CONTROLLER_APPLY_BROKER_ID,
        {"clusterName": CLUSTER, "brokerName": NAME, "appliedBrokerId": "1", "registerCheckCode": "x\n;1"},
        None,
        RC.SYSTEM_ERROR,
        None,
    ),
    (
        "register an unknown set",
        RQ.CONTROLLER_REGISTER_BROKER,
        {"clusterName": CLUSTER, "brokerName": NAME, "brokerId": "1", "brokerAddress": ADDR},
        None,
        RC.CONTROLLER_BROKER_NEED_TO_BE_REGISTERED,
        "Broker-set: broker-a hasn't been registered in controller",
    ),
    (
        "register with a bad address",
        RQ.CONTROLLER_REGISTER_BROKER,
        {"clusterName": CLUSTER, "brokerName": NAME, "brokerId": "1", "brokerAddress": "nohost"},
        None,
        RC.SYSTEM_ERROR,
        "is not host:port",
    ),
    (
        "elect in an unknown set",
        RQ.CONTROLLER_ELECT_MASTER,
        {"clusterName": CLUSTER, "brokerName": NAME},
        None,
        RC.CONTROLLER_BROKER_NEED_TO_BE_REGISTERED,
        "Broker hasn't been registered",
    ),
    (
        "replica info of nobody",
        RQ.CONTROLLER_GET_REPLICA_INFO,
        {"brokerName": NAME},
        None,
        RC.CONTROLLER_BROKER_METADATA_NOT_EXIST,
        "Broker metadata is not existed",
    ),
    (
        "sync state data without a body",
        RQ.CONTROLLER_GET_SYNC_STATE_DATA,
        None,
        None,
        RC.SYSTEM_ERROR,
        "not set any response code",
    ),
    ("sync state data of garbage", RQ.CONTROLLER_GET_SYNC_STATE_DATA, None, b'{"a":', RC.SYSTEM_ERROR, None),
    ("sync state data of numbers", RQ.CONTROLLER_GET_SYNC_STATE_DATA, None, b"[1,2]", RC.SYSTEM_ERROR, None),
    (
        "sync state data of a path (only looked up)",
        RQ.CONTROLLER_GET_SYNC_STATE_DATA,
        None,
        b'["a/b"]',
        RC.SUCCESS,
        None,
    ),
    (
        "alter with a garbage body",
        RQ.CONTROLLER_ALTER_SYNC_STATE_SET,
        {"brokerName": NAME, "masterBrokerId": "1", "masterEpoch": "1"},
        b"\xff\xfe",
        RC.SYSTEM_ERROR,
        None,
    ),
    (
        "heartbeat without an id",
        RQ.BROKER_HEARTBEAT,
        {"clusterName": CLUSTER, "brokerName": NAME, "brokerAddr": ADDR},
        None,
        RC.SUCCESS,
        None,
    ),
    (
        "clean without a broker name",
        RQ.CLEAN_BROKER_DATA,
        {"clusterName": CLUSTER},
        None,
        RC.SYSTEM_ERROR,
        "the custom field <brokerName> is null",
    ),
    (
        "config update of a black-listed key",
        RQ.UPDATE_CONTROLLER_CONFIG,
        None,
        b"configStorePath=/tmp/x\n",
        RC.NO_PERMISSION,
        "Can not update config in black list.",
    ),
    (
        "config update naming a directory",
        RQ.UPDATE_CONTROLLER_CONFIG,
        None,
        b"controllerStorePath=/tmp/x\n",
        RC.NO_PERMISSION,
        "Can not update config in black list.",
    ),
    (
        "config update that does not parse",
        RQ.UPDATE_CONTROLLER_CONFIG,
        None,
        b"scanNotActiveBrokerInterval=soon\n",
        RC.INVALID_PARAMETER,
        "scanNotActiveBrokerInterval takes",
    ),
    (
        "config update that is not UTF-8",
        RQ.UPDATE_CONTROLLER_CONFIG,
        None,
        b"a=\xff\n",
        RC.SYSTEM_ERROR,
        "string2Properties error",
    ),
]


@pytest.mark.parametrize(
    ("code", "ext", "data", "want", "remark"), [h[1:] for h in HOSTILE], ids=[h[0] for h in HOSTILE]
)
def test_hostile_requests_change_nothing(
    tmp_path: Path, code: int, ext: dict[str, str] | None, data: bytes | None, want: int, remark: str | None
) -> None:
    async def body(ask: Ask, ns: NamesrvController) -> None:
        before = (await ask(RQ.GET_CONTROLLER_CONFIG)).body
        r = await ask(code, ext, data)
        assert r.code == want, r.remark
        if remark is not None:
            assert remark in (r.remark or ""), r.remark
        # nothing stored, and the server still answers as before
        assert _table(tmp_path) is None
        assert (await ask(RQ.GET_CONTROLLER_CONFIG)).body == before

    run(tmp_path, body)


def test_config_update_round_trip_and_persisted(tmp_path: Path) -> None:
    async def body(ask: Ask, ns: NamesrvController) -> None:
        r = await ask(RQ.UPDATE_CONTROLLER_CONFIG, None, b"electMasterMaxRetryCount=5\n")
        assert r.code == RC.SUCCESS, r.remark
        text = (await ask(RQ.GET_CONTROLLER_CONFIG)).body or b""
        assert b"electMasterMaxRetryCount=5\n" in text and b"controllerType=DLedger\n" in text

    run(tmp_path, body)
    assert "electMasterMaxRetryCount=5" in (tmp_path / "controller" / "controller.properties").read_text()


def test_a_damaged_table_stops_the_start(tmp_path: Path) -> None:
    (tmp_path / "controller").mkdir()
    damaged = b'{"version": 1, "brokerSets": [{"clusterName": "c", "brokerName": "../up"}]}'
    (tmp_path / "controller" / "replicas.json").write_bytes(damaged)

    async def go() -> None:
        ns = _namesrv(tmp_path)
        try:
            with pytest.raises(ControllerStoreError):
                await ns.start()
        finally:
            await ns.shutdown()

    asyncio.run(go())
    assert (tmp_path / "controller" / "replicas.json").read_bytes() == damaged


def test_bounded_fuzz_leaves_a_readable_table(tmp_path: Path) -> None:
    """Seeded random requests over every controller code: each is answered, the server keeps
    answering, and whatever was stored reads back with names the rules accept."""
    import random

    from mqadmin.controller.replicas import ReplicasStore
    from mqadmin.protocol import names

    rnd = random.Random(20261125)
    codes = [1001, 1002, 1003, 1004, 1005, 1006, 1009, 1010, 1011, 1012, 1013, 904]
    values = ["", "1", "-1", "0", "2", "9223372036854775808", "x", "../a", "a\nb", "a\x00b", "é" * 300,
              CLUSTER, NAME, ADDR, f"{ADDR};1", "h:99999", "true", "1;2;x"]  # fmt: skip
    fields = ["clusterName", "brokerName", "brokerId", "appliedBrokerId", "registerCheckCode",
              "brokerAddress", "brokerAddr", "masterBrokerId", "masterEpoch", "designateElect",
              "brokerControllerIdsToClean", "isCleanLivingBroker"]  # fmt: skip
    bodies = [
        None,
        b"",
        b"[",
        b'["broker-a"]',
        b'{"syncStateSet":[1],"syncStateSetEpoch":0}',
        b"\xff",
        b"a=b\n",
    ]

    async def body(ask: Ask, ns: NamesrvController) -> None:
        valid = {
            "clusterName": CLUSTER,
            "brokerName": NAME,
            "brokerId": "1",
            "appliedBrokerId": "1",
            "registerCheckCode": f"{ADDR};1",
            "brokerAddress": ADDR,
            "brokerAddr": ADDR,
            "masterBrokerId": "1",
            "masterEpoch": "1",
        }
        for _ in range(400):
            if rnd.random() < 0.5:  # a well-formed request with one field spoiled (or none)
                ext = dict(valid)
                if rnd.random() < 0.7:
                    ext[rnd.choice(fields)] = rnd.choice(values)
            else:
                ext = {f: rnd.choice(values) for f in rnd.sample(fields, rnd.randint(0, 6))}
            r = await ask(rnd.choice(codes), ext, rnd.choice(bodies))
            assert r.is_response
        assert (await ask(RQ.CONTROLLER_GET_METADATA_INFO)).code == RC.SUCCESS

    run(tmp_path, body)
    store = ReplicasStore(tmp_path / "controller")
    store.load()
    assert store.sets  # the well-formed requests did store something
    for rs in store.sets.values():
        assert names.check_name("broker", rs.broker_name) is None
        assert names.check_name("cluster", rs.cluster_name) is None
