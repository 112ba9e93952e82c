"""Deny by default: every code a server serves is declared in the request registry, and every declared
broker code sent by an unprivileged but correctly signed user is refused, or checked on the resource
it names, with nothing changed on disk.

The servers are ours, on loopback ports picked at run time: an in-process broker, name server and
embedded controller for the walk over served codes; a 5.3.3-mode broker with ACL 2.0 and a 4.9.8-mode
broker with ACL 1.0 (subprocesses) for the sweeps.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from mqadmin.admin.core import AdminCore
from mqadmin.admin.settings import AdminSettings, Credentials
from mqadmin.broker.admission import NotDeclared
from mqadmin.broker.server import BrokerController
from mqadmin.namesrv.config import NamesrvConfig, NettyServerConfig
from mqadmin.namesrv.server import NamesrvController
from mqadmin.protocol.bodybudget import SMALLEST
from mqadmin.protocol.codes import RequestCode, ResponseCode, request_name
from mqadmin.protocol.command import RemotingCommand
from mqadmin.protocol.headers.base import HeaderError
from mqadmin.protocol.requests import (
    ACCESS,
    CLIENT,
    OPEN,
    RESOURCE,
    Declaration,
    declarations,
    declared,
    served_by,
    wire_type,
)
from tests.broker.inproc import settings
from tests.broker.peers import call
from tests.broker.test_acl import ADMIN, USER, signed, start_acl_broker
from tests.broker.test_auth_v2 import ROOT, as_user, ensure_alice, start_auth_broker
from tests.servers import BrokerProcess, NameServerProcess

VICTIM_TOPIC = "VictimTopic"
VICTIM_GROUP = "VictimGroup"

# ---------------------------------------------------------------------------------- the registry itself


def test_every_declaration_is_well_formed() -> None:
    for code, decl in declarations().items():
        name = request_name(code)
        assert decl.access in ACCESS, name
        assert decl.servers, name
        # a budget is looked up only for bodies over bodybudget.SMALLEST: none may be smaller
        assert SMALLEST <= decl.budget.body <= 16 * 1024 * 1024, name
        if decl.access == RESOURCE:
            assert decl.resources, f"{name} is checked on what it names but names nothing"
        for ref in (decl.header, decl.body, decl.response):
            assert ref is None or isinstance(wire_type(ref), type), (name, ref)


def test_every_code_the_tools_send_is_declared() -> None:
    """What the admin client, the commands and the pipeline send: each code has its declaration."""
    root = Path(__file__).resolve().parents[2] / "mqadmin"
    sent: set[str] = set()
    for folder in ("admin", "cli", "pipeline"):
        for path in (root / folder).rglob("*.py"):
            sent |= set(re.findall(r"RequestCode\.([A-Z_0-9]+)", path.read_text()))
    assert len(sent) > 80
    undeclared = sorted(n for n in sent if declared(getattr(RequestCode, n)) is None)
    assert not undeclared, undeclared


def test_the_admin_client_sends_no_body_over_its_budget() -> None:
    core = AdminCore(AdminSettings())
    with pytest.raises(HeaderError, match="over the 65536 bytes declared"):
        core.request(RequestCode.UPDATE_AND_CREATE_TOPIC, None, b"x" * (65536 + 1))
    assert core.request(RequestCode.UPDATE_AND_CREATE_TOPIC, None, b"x" * 65536).body == b"x" * 65536
    send = core.request(RequestCode.SEND_MESSAGE_V2, None, b"x" * (4 << 20))
    assert send.code == RequestCode.SEND_MESSAGE_V2


def test_every_served_code_is_declared_for_its_server(tmp_path: Path) -> None:
    """Walk what each server of ours registers: a handler without a declaration fails here."""

    async def broker_codes(version: str) -> frozenset[int]:
        ns = NamesrvController(
            NamesrvConfig(kv_config_path=str(tmp_path / version / "kv.json")),
            NettyServerConfig(listen_port=0, bind_address="127.0.0.1"),
        )
        await ns.start()
        s = settings(tmp_path / version, ns.address)
        s.file_properties["rocketmqVersion"] = version
        broker = BrokerController(s, bind_address="127.0.0.1")
        try:
            await broker.start()
            assert broker.server is not None
            return broker.server.handlers.codes()
        finally:
            await broker.shutdown()
            await ns.shutdown()

    async def go() -> tuple[frozenset[int], frozenset[int]]:
        broker = await broker_codes("4.9.8") | await broker_codes("5.3.3")
        ns = NamesrvController(
            NamesrvConfig(
                kv_config_path=str(tmp_path / "kv.json"),
                config_store_path=str(tmp_path / "ns.properties"),
                enable_controller_in_namesrv=True,
            ),
            NettyServerConfig(listen_port=0, bind_address="127.0.0.1"),
        )
        await ns.start()
        try:
            assert ns.controller is not None
            ns_codes = ns.server.handlers.codes()
        finally:
            await ns.shutdown()
        return broker, ns_codes

    served, ns_codes = asyncio.run(go())
    assert len(served) > 75 and len(ns_codes) > 30
    undeclared = sorted(request_name(c) for c in served - served_by("broker"))
    assert not undeclared, f"served by the broker without a declaration: {undeclared}"
    ns_declared = served_by("namesrv") | served_by("controller")
    undeclared = sorted(request_name(c) for c in ns_codes - ns_declared)
    assert not undeclared, f"served by the name server or its controller without a declaration: {undeclared}"


def test_an_undeclared_served_code_is_refused_under_acl_even_to_an_operator() -> None:
    """The gate itself: a served code with no declaration is refused once an ACL is on."""
    from mqadmin.broker.admission import Admission

    class Conn:
        remote_addr = addr = "127.0.0.1:1"

        def __init__(self) -> None:
            self.attrs: dict[str, object] = {}

    class AllowAll:
        def check(self, conn: object, cmd: RemotingCommand) -> None:
            pass

    gate = Admission(AllowAll(), None)  # type: ignore[arg-type]
    handler = gate.wrap(65_000, lambda conn, cmd: "handled")
    with pytest.raises(NotDeclared):
        handler(Conn(), RemotingCommand.request(65_000))  # type: ignore[arg-type]
    assert Admission(None, None).wrap(65_000, lambda conn, cmd: "handled")(Conn(), None) == "handled"  # type: ignore[arg-type]


# ---------------------------------------------------------------------------------- the sweeps


def _hostile(code: int, decl: Declaration) -> RemotingCommand:
    """A request of ``code`` naming only resources the sender has no right to."""
    ext = {
        "topic": VICTIM_TOPIC,
        "b": VICTIM_TOPIC,
        "a": VICTIM_GROUP,
        "group": VICTIM_GROUP,
        "consumerGroup": VICTIM_GROUP,
        "groupName": VICTIM_GROUP,
        "destGroup": VICTIM_GROUP,
        "srcGroup": VICTIM_GROUP,
        "compareGroup": VICTIM_GROUP,
        "filterGroups": VICTIM_GROUP,
        "topicList": VICTIM_TOPIC,
        "username": "rootUser",
        "subject": "User:rootUser",
        "queueId": "0",
        "offset": "0",
        "clientID": "sweep",
    }
    for res in decl.resources:
        ext[res.field] = VICTIM_TOPIC if res.type == "Topic" else VICTIM_GROUP
    body: bytes | None = None
    if code == RequestCode.HEART_BEAT:
        body = json.dumps(
            {
                "clientID": "sweep",
                "consumerDataSet": [
                    {"groupName": VICTIM_GROUP, "subscriptionDataSet": [{"topic": VICTIM_TOPIC}]}
                ],
                "producerDataSet": [],
            }
        ).encode()
    elif code in (RequestCode.LOCK_BATCH_MQ, RequestCode.UNLOCK_BATCH_MQ):
        body = json.dumps({"consumerGroup": VICTIM_GROUP, "clientId": "sweep", "mqSet": []}).encode()
    return RemotingCommand.request(code, ext, body)


def _state(b: BrokerProcess) -> dict[str, bytes]:
    root = b.workdir / "store" / "config"
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def _broker_codes() -> list[tuple[int, Declaration]]:
    return sorted((c, d) for c, d in declarations().items() if "broker" in d.servers)


@pytest.fixture(scope="module")
def acl2_broker(
    tmp_path_factory: pytest.TempPathFactory, namesrv: NameServerProcess
) -> Iterator[BrokerProcess]:
    b = start_auth_broker(tmp_path_factory.mktemp("deny2") / "broker", namesrv.addr)
    try:
        ensure_alice(b)
        yield b
    finally:
        b.stop()


def test_acl2_an_unprivileged_user_gets_nothing_of_any_declared_code(acl2_broker: BrokerProcess) -> None:
    alice = Credentials("alice", "aliceSecret")
    before = _state(acl2_broker)
    let_through = []
    for code, decl in _broker_codes():
        resp = call(acl2_broker.addr, signed(_hostile(code, decl), alice))
        if decl.access == OPEN:
            continue  # credentials are all it asks: whatever the handler says
        if resp.code != ResponseCode.NO_PERMISSION:
            let_through.append((request_name(code), resp.code, resp.remark))
        elif decl.access in (RESOURCE, CLIENT):
            assert "has no permission to access" in (resp.remark or ""), (request_name(code), resp.remark)
        else:
            assert "has no permission" in (resp.remark or ""), (request_name(code), resp.remark)
    assert not let_through, let_through
    assert _state(acl2_broker) == before
    # the same requests from a super user reach their handlers (the gate is not simply shut)
    resp = as_user(acl2_broker, ROOT, RequestCode.GET_BROKER_CONFIG)
    assert resp.code == ResponseCode.SUCCESS, resp.remark


_ACL1_CLIENT_TOPICS = frozenset(
    {
        RequestCode.SEND_MESSAGE,
        RequestCode.SEND_MESSAGE_V2,
        RequestCode.SEND_BATCH_MESSAGE,
        RequestCode.PULL_MESSAGE,
        RequestCode.QUERY_MESSAGE,
        RequestCode.HEART_BEAT,
        RequestCode.UPDATE_CONSUMER_OFFSET,
        RequestCode.QUERY_CONSUMER_OFFSET,
        RequestCode.END_TRANSACTION,
    }
)
"""The client requests that name a topic in the sweep's requests (the others name only a group, which
the ordinary account's default group perm allows)."""


@pytest.fixture(scope="module")
def acl1_broker(
    tmp_path_factory: pytest.TempPathFactory, namesrv: NameServerProcess
) -> Iterator[BrokerProcess]:
    b = start_acl_broker(tmp_path_factory.mktemp("deny1"), namesrv.addr)
    try:
        yield b
    finally:
        b.stop()


def test_acl1_an_ordinary_account_gets_no_admin_code_and_no_denied_resource(
    acl1_broker: BrokerProcess,
) -> None:
    """USER has DENY on every topic by default and SUB on groups: every code that ACL 1.0 keeps for
    admin accounts is refused, and every other names ``VictimTopic`` and is refused on it."""
    before = _state(acl1_broker)
    let_through = []
    for code, decl in _broker_codes():
        if decl.access == OPEN:
            continue
        names_topic = code in _ACL1_CLIENT_TOPICS or any(r.type == "Topic" for r in decl.resources)
        if not decl.acl1_admin and not names_topic:
            continue  # a group-only request, which USER's default SUB on groups allows
        resp = call(acl1_broker.addr, signed(_hostile(code, decl), USER))
        if resp.code != ResponseCode.NO_PERMISSION:
            let_through.append((request_name(code), resp.code, resp.remark))
        elif decl.acl1_admin:
            assert "Need admin permission" in (resp.remark or ""), (request_name(code), resp.remark)
    assert not let_through, let_through
    assert _state(acl1_broker) == before
    ok = call(acl1_broker.addr, signed(RemotingCommand.request(RequestCode.GET_BROKER_CONFIG), ADMIN))
    assert ok.code == ResponseCode.SUCCESS, ok.remark
