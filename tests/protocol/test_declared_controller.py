"""The declared controller, HA and ACL 2.0 bodies on generated values.

Each round-trips (``decode(encode(x)) == x``); hostile JSON is refused with :class:`ProtocolError`
and nothing else; the controller bodies' JSON objects name every member (null where unset, as the
``--json`` schemas ask) while their bodies leave the nulls out; the ACL beans' ``--json`` form lists
every member in the bean's order, and a bean read inside another names its path in errors.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mqadmin.protocol import fastjson
from mqadmin.protocol.bodies import controller
from mqadmin.protocol.bodies.auth import AclInfo, PolicyEntryInfo, PolicyInfo, UserInfo
from mqadmin.protocol.bodies.controller import (
    BrokerMemberGroup,
    BrokerReplicasInfo,
    ElectMasterResponseBody,
    EpochEntry,
    EpochEntryCache,
    GetBrokerMemberGroupResponseBody,
    HAClientRuntimeInfo,
    HAConnectionRuntimeInfo,
    HARuntimeInfo,
    ReplicaIdentity,
    ReplicasInfo,
    SyncStateSet,
)
from mqadmin.protocol.bodies.declared import DeclaredBody, members
from mqadmin.protocol.errors import ProtocolError
from mqadmin.protocol.javacoll import java_hash_order

_text = st.text(st.characters(exclude_characters="\x00", exclude_categories=("Cs",)), max_size=10)
_opt_text = st.none() | _text
_int32 = st.integers(-(1 << 31), (1 << 31) - 1)
_int64 = st.integers(-(1 << 63), (1 << 63) - 1)
_id_sets = st.lists(_int64, max_size=6, unique=True).map(java_hash_order)
"""A ``Set<Long>`` as a Java peer reads it back: unique ids in ``HashSet`` order."""

replicas = st.builds(ReplicaIdentity, _opt_text, st.none() | _int64, _opt_text, st.none() | st.booleans())
groups = st.builds(BrokerMemberGroup, _opt_text, _opt_text, st.dictionaries(_int64, _text, max_size=5))
ha_clients = st.builds(HAClientRuntimeInfo, _opt_text, _int64, _int64, _int64, _int64, _int64)
ha_connections = st.builds(HAConnectionRuntimeInfo, _opt_text, _int64, _int64, st.booleans(), _int64, _int64)
epochs = st.builds(EpochEntry, _int32, _int64, _int64)

CONTROLLER: dict[type, st.SearchStrategy[Any]] = {
    SyncStateSet: st.builds(SyncStateSet, _id_sets, _int32),
    ReplicaIdentity: replicas,
    ReplicasInfo: st.builds(
        ReplicasInfo,
        st.none() | _int64,
        _opt_text,
        _int32,
        _int32,
        st.lists(replicas, max_size=3),
        st.lists(replicas, max_size=3),
    ),
    BrokerReplicasInfo: st.builds(
        BrokerReplicasInfo,
        st.dictionaries(_text, st.builds(ReplicasInfo, st.none() | _int64, _opt_text), max_size=4),
    ),
    BrokerMemberGroup: groups,
    GetBrokerMemberGroupResponseBody: st.builds(GetBrokerMemberGroupResponseBody, st.none() | groups),
    ElectMasterResponseBody: st.builds(ElectMasterResponseBody, st.none() | groups, _id_sets),
    EpochEntry: epochs,
    EpochEntryCache: st.builds(
        EpochEntryCache, _opt_text, _opt_text, _int64, st.lists(epochs, max_size=4), _int64
    ),
    HAConnectionRuntimeInfo: ha_connections,
    HAClientRuntimeInfo: ha_clients,
    HARuntimeInfo: st.builds(
        HARuntimeInfo, st.booleans(), _int64, _int32, st.lists(ha_connections, max_size=3), ha_clients
    ),
}

_opt_texts = st.none() | st.lists(_text, max_size=3)
entries = st.builds(PolicyEntryInfo, _opt_text, _opt_texts, _opt_texts, _opt_text)
policies = st.builds(PolicyInfo, _opt_text, st.none() | st.lists(entries, max_size=3))
AUTH: dict[type, st.SearchStrategy[Any]] = {
    UserInfo: st.builds(UserInfo, _opt_text, _opt_text, _opt_text, _opt_text),
    PolicyEntryInfo: entries,
    PolicyInfo: policies,
    AclInfo: st.builds(AclInfo, _opt_text, st.none() | st.lists(policies, max_size=3)),
}
BODIES = {**CONTROLLER, **AUTH}

_json = st.recursive(
    st.none() | st.booleans() | st.integers(-(1 << 65), 1 << 65) | st.floats() | _text,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_text, inner, max_size=3),
    max_leaves=12,
)


_NAMES = st.sampled_from(sorted({m.java for kind in BODIES for m in members(kind)}))
"""Every Java member name of these bodies: hostile objects hold them at any depth."""
_hostile = st.dictionaries(
    _NAMES | _text,
    st.recursive(
        _json,
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_NAMES, inner, max_size=4),
        max_leaves=12,
    ),
    max_size=5,
)
"""JSON objects of member names (and others) holding any JSON values, nested bodies too."""


def test_every_field_is_declared() -> None:
    for kind in BODIES:
        assert issubclass(kind, DeclaredBody), kind
        assert {m.attr for m in members(kind)} == {f.name for f in dataclasses.fields(kind)}, kind


@pytest.mark.parametrize("kind", list(BODIES), ids=lambda k: k.__name__)
@given(data=st.data())
def test_bodies_round_trip(kind: type, data: st.DataObject) -> None:
    body = data.draw(BODIES[kind])
    raw = body.encode()
    assert kind.decode(raw) == body  # type: ignore[attr-defined]
    assert kind.from_json_obj(body.to_json_obj()) == body  # type: ignore[attr-defined]
    assert kind.decode(kind.decode(raw).encode()).encode() == raw  # type: ignore[attr-defined]


@settings(max_examples=400)
@given(st.sampled_from(list(BODIES)), _hostile)
def test_hostile_json_is_read_or_refused_as_a_protocol_error(kind: type, value: dict[str, Any]) -> None:
    try:
        body = kind.from_json_obj(value)  # type: ignore[attr-defined]
    except ProtocolError:
        return
    assert kind.decode(body.encode()) == body  # whatever is accepted can be written back for Java


def _nulls(v: Any) -> bool:
    if isinstance(v, dict):
        return any(x is None or _nulls(x) for x in v.values())
    if isinstance(v, list):
        return any(_nulls(x) for x in v)
    return False


@pytest.mark.parametrize("kind", list(CONTROLLER), ids=lambda k: k.__name__)
@given(data=st.data())
def test_controller_objects_name_every_member_and_bodies_leave_nulls_out(
    kind: type, data: st.DataObject
) -> None:
    body = data.draw(CONTROLLER[kind])
    obj = body.to_json_obj()
    assert list(obj) == [m.java for m in members(kind)]  # fastjson's order, null where unset
    for m in members(kind):
        if getattr(body, m.attr) is None:
            assert obj[m.java] is None
    assert not _nulls(fastjson.loads(body.encode()))
    assert body.encode() == fastjson.dumps(obj).encode()


def test_an_ha_status_of_a_master_shows_its_null_master_address() -> None:
    """haStatus's schema asks for ``masterAddr`` even on a master, where it is null."""
    obj = HARuntimeInfo(True, 259).to_json_obj()
    assert obj["haClientRuntimeInfo"]["masterAddr"] is None
    assert b"masterAddr" not in HARuntimeInfo(True, 259).encode()
    replica = BrokerReplicasInfo({"b": ReplicasInfo(None, None, 1, 1, [ReplicaIdentity("b")])}).to_json_obj()
    assert replica["replicasInfoTable"]["b"]["inSyncReplicas"][0] == {
        "alive": None,
        "brokerAddress": None,
        "brokerId": None,
        "brokerName": "b",
    }


def test_absent_members_take_javas_defaults() -> None:
    assert EpochEntry.decode(b"{}") == EpochEntry(0, 0, controller.LONG_MAX)
    assert HARuntimeInfo.decode(b'{"haClientRuntimeInfo":null}') == HARuntimeInfo()
    assert BrokerMemberGroup.decode(b'{"brokerAddrs":{1:"h:1","2":null}}').broker_addrs == {1: "h:1"}
    assert SyncStateSet.decode(b'{"syncStateSet":[3,1,3,2]}').sync_state_set == [1, 2, 3]
    assert AclInfo.decode(b"{}") == AclInfo(None, None)


@pytest.mark.parametrize("kind", list(AUTH), ids=lambda k: k.__name__)
@given(data=st.data())
def test_acl_json_form_lists_every_member_in_the_beans_order(kind: type, data: st.DataObject) -> None:
    body = data.draw(AUTH[kind])
    shown = body.as_json()
    java = {m.attr: m.java for m in members(kind)}
    assert list(shown) == [java[f.name] for f in dataclasses.fields(kind)]
    for f in dataclasses.fields(kind):
        v = getattr(body, f.name)
        expected = [x.as_json() for x in v] if v and isinstance(v[0], PolicyInfo | PolicyEntryInfo) else v
        assert shown[java[f.name]] == expected


def test_a_nested_acl_bean_names_its_path_in_errors() -> None:
    with pytest.raises(ProtocolError, match=r"^policies\[0\]\.entries\[1\]\.resource is not a string$"):
        AclInfo.decode(b'{"policies":[{"entries":[{},{"resource":7}]}]}')
    with pytest.raises(ProtocolError, match=r"^policies\[0\]\.entries is not a JSON array$"):
        AclInfo.decode(b'{"policies":[{"entries":{}}]}')
    with pytest.raises(ProtocolError, match=r"^subject is not a string$"):
        AclInfo.decode(b'{"subject":[]}')


@given(st.lists(_int64, max_size=6, unique=True), st.lists(_text, max_size=6, unique=True))
def test_sets_and_maps_are_written_in_javas_order(ids: list[int], names: list[str]) -> None:
    assert SyncStateSet(ids).to_json_obj()["syncStateSet"] == java_hash_order(ids)
    assert ElectMasterResponseBody(None, ids).to_json_obj()["syncStateSet"] == java_hash_order(ids)
    group = BrokerMemberGroup("c", "b", {i: "h" for i in ids}).to_json_obj()
    assert list(group["brokerAddrs"]) == java_hash_order(ids)
    table = BrokerReplicasInfo({n: ReplicasInfo() for n in names}).to_json_obj()
    assert list(table["replicasInfoTable"]) == java_hash_order(names)
