"""The topic, KV, cluster and registration bodies, declared once, on generated values.

Each round-trips (decode of encode is the value, as Java reads what it wrote), and each hand-written
part is held to the declaration: the text encoders write exactly the declared JSON object, and the
inline reader of a registration's topic table reads any entry, hostile ones too, as
``TopicConfig.from_json_obj`` does (the same config, or a refusal).
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mqadmin.protocol import fastjson
from mqadmin.protocol.bodies.cluster import ClusterInfo
from mqadmin.protocol.bodies.declared import DeclaredBody, java_view, members
from mqadmin.protocol.bodies.kv import KVTable
from mqadmin.protocol.bodies.queue_mapping import TopicQueueMappingInfo
from mqadmin.protocol.bodies.register import RegisterBrokerBody
from mqadmin.protocol.bodies.topic import (
    TOPIC_CONFIG_TABLE_INITIAL,
    DataVersion,
    TopicConfig,
    TopicConfigAndMappingSerializeWrapper,
    TopicConfigSerializeWrapper,
    _topic_table,
)
from mqadmin.protocol.bodies.topic_list import TopicList
from mqadmin.protocol.errors import ProtocolError
from tests.protocol.test_wire_types import broker_datas

_names = st.text(
    st.characters(exclude_characters="\x00", exclude_categories=("Cs",)), min_size=1, max_size=10
)
_opt_names = st.none() | _names
_int32 = st.integers(-(1 << 31), (1 << 31) - 1)
_int64 = st.integers(-(1 << 63), (1 << 63) - 1)

data_versions = st.builds(DataVersion, timestamp=_int64, counter=_int64, state_version=st.none() | _int64)
topic_configs = st.builds(
    TopicConfig,
    topic_name=_opt_names,
    read_queue_nums=_int32,
    write_queue_nums=_int32,
    perm=_int32,
    topic_filter_type=st.sampled_from(["SINGLE_TAG", "MULTI_TAG"]) | _names,  # null: see below
    topic_sys_flag=_int32,
    order=st.booleans(),
    attributes=st.none() | st.dictionaries(_names, _names, max_size=3),
)
topic_tables = st.dictionaries(_names, topic_configs, max_size=8)
mapping_infos = st.builds(
    TopicQueueMappingInfo,
    topic=_opt_names,
    total_queues=_int32,
    bname=_opt_names,
    epoch=_int64,
    dirty=st.booleans(),
    curr_id_map=st.dictionaries(_int32, _int32, max_size=3),
)
wrappers_4x = st.builds(
    TopicConfigSerializeWrapper, topic_config_table=topic_tables, data_version=data_versions
)
wrappers_5x = st.builds(
    TopicConfigAndMappingSerializeWrapper,
    topic_config_table=topic_tables,
    data_version=data_versions,
    topic_queue_mapping_info_map=st.dictionaries(_names, mapping_infos, max_size=3),
    topic_queue_mapping_detail_map=st.just({}),
    mapping_data_version=data_versions,
)
wrappers = wrappers_4x | wrappers_5x
registrations = st.builds(
    RegisterBrokerBody,
    topic_config_serialize_wrapper=wrappers,
    filter_server_list=st.lists(_names, max_size=3),
)
topic_lists = st.builds(
    TopicList, topic_list=st.lists(_names, max_size=30), broker_addr=_opt_names, concurrent=st.booleans()
)
kv_tables = st.builds(KVTable, table=st.dictionaries(_names, _names, max_size=30))
cluster_infos = st.builds(
    ClusterInfo,
    broker_addr_table=st.none() | st.dictionaries(_names, broker_datas, max_size=5),
    cluster_addr_table=st.none() | st.dictionaries(_names, st.lists(_names, max_size=4), max_size=4),
)


# ------------------------------------------------------------------------------------ round trips


@given(data_versions)
def test_data_versions_round_trip(dv: DataVersion) -> None:
    assert DataVersion.decode(dv.encode()) == dv


@given(topic_configs)
def test_topic_configs_round_trip(tc: TopicConfig) -> None:
    assert TopicConfig.decode(tc.encode()) == tc
    assert TopicConfig.from_json_obj(tc.to_json_obj()) == tc


@given(wrappers)
def test_topic_config_wrappers_round_trip_as_their_own_kind(w: TopicConfigSerializeWrapper) -> None:
    assert TopicConfigSerializeWrapper.decode(w.encode()) == w


@given(registrations)
def test_registrations_round_trip(rb: RegisterBrokerBody) -> None:
    assert RegisterBrokerBody.decode(rb.encode()) == rb
    assert RegisterBrokerBody.from_json_obj(rb.to_json_obj()) == rb


@given(topic_lists)
def test_topic_lists_round_trip_as_sets(tl: TopicList) -> None:
    back = TopicList.decode(tl.encode(), concurrent=tl.concurrent)
    assert sorted(back.topic_list) == sorted(set(tl.topic_list))
    assert back.broker_addr == tl.broker_addr
    assert back.encode() == tl.encode()  # the set's order is the same again


@given(kv_tables)
def test_kv_tables_round_trip(kv: KVTable) -> None:
    assert KVTable.decode(kv.encode()) == kv


def _as_sets(ci: ClusterInfo) -> ClusterInfo:
    cat = ci.cluster_addr_table
    return ClusterInfo(
        ci.broker_addr_table, None if cat is None else {k: sorted(set(v)) for k, v in cat.items()}
    )


@given(cluster_infos, st.booleans())
def test_cluster_infos_round_trip(ci: ClusterInfo, standard: bool) -> None:
    assert _as_sets(ClusterInfo.decode(ci.encode(standard))) == _as_sets(ci)


def test_members_left_out_read_as_java_initializes_them() -> None:
    assert TopicConfig.from_json_obj({}) == TopicConfig()
    assert TopicConfig.from_json_obj({"topicFilterType": None}).topic_filter_type is None
    assert TopicConfig.decode(TopicConfig(topic_filter_type=None).encode()) == TopicConfig()  # left out
    assert TopicConfig.from_json_obj({"perm": None, "readQueueNums": None}).perm == 6
    assert KVTable.decode(b"{}") == KVTable({})
    assert KVTable.decode(b'{"table":null}').table is None
    assert TopicList.decode(b"{}") == TopicList([])
    w = TopicConfigSerializeWrapper.decode(b"{}")
    assert type(w) is TopicConfigSerializeWrapper and w.topic_config_table == {}
    assert w.data_version is not None and w.data_version.counter == 0 and w.data_version.timestamp > 0
    assert TopicConfigSerializeWrapper.decode(b'{"topicConfigTable":null,"dataVersion":null}') == (
        TopicConfigSerializeWrapper(None, None)
    )
    assert type(TopicConfigSerializeWrapper.decode(b'{"mappingDataVersion":{}}')) is (
        TopicConfigAndMappingSerializeWrapper
    )
    rb = RegisterBrokerBody.from_json_obj({})
    assert (
        rb.filter_server_list == [] and type(rb.topic_config_serialize_wrapper) is TopicConfigSerializeWrapper
    )
    assert RegisterBrokerBody.from_json_obj({"filterServerList": None}).filter_server_list is None


@pytest.mark.parametrize(
    ("kind", "body"),
    [
        (TopicConfig, {"perm": "6"}),
        (TopicConfig, {"readQueueNums": 1 << 31}),
        (TopicConfig, {"order": 1}),
        (TopicConfig, {"attributes": ["a"]}),
        (DataVersion, {"counter": 1.5}),
        (DataVersion, {"timestamp": "x"}),
        (TopicList, {"topicList": [1]}),
        (TopicList, {"topicList": None, "brokerAddr": 3}),
        (KVTable, {"table": {"k": 1}}),
        (ClusterInfo, {"clusterAddrTable": {"c": None, "d": [None]}}),
        (TopicConfigSerializeWrapper, {"topicConfigTable": {"t": []}}),
        (TopicConfigSerializeWrapper, {"topicQueueMappingInfoMap": {"t": 1}}),
        (RegisterBrokerBody, {"topicConfigSerializeWrapper": []}),
        (RegisterBrokerBody, {"filterServerList": [1]}),
    ],
)
def test_bad_members_are_refused(kind: type[DeclaredBody], body: dict[str, Any]) -> None:
    with pytest.raises(ProtocolError):
        kind.from_json_obj(body)


# --------------------------------------------------------------- the hand-written parts, held to it


def _dumps(obj: dict[str, Any], standard: bool = False) -> bytes:
    return fastjson.dumps(obj, standard=standard).encode()


@given(topic_configs, data_versions, topic_lists, kv_tables)
def test_text_encoders_write_the_declared_object(
    tc: TopicConfig, dv: DataVersion, tl: TopicList, kv: KVTable
) -> None:
    for body in (tc, dv, tl, kv):
        assert body.encode() == _dumps(body.to_json_obj()), type(body).__name__


@given(wrappers, st.sampled_from([TOPIC_CONFIG_TABLE_INITIAL, None]), st.booleans(), st.booleans())
def test_wrapper_text_is_its_object_in_every_order(
    w: TopicConfigSerializeWrapper, initial: int | None, registration: bool, standard: bool
) -> None:
    assert w._text(initial, registration, standard).encode() == _dumps(
        w._obj(initial, registration), standard
    )
    assert w._obj(TOPIC_CONFIG_TABLE_INITIAL) == w.to_json_obj()
    assert list(w._obj(TOPIC_CONFIG_TABLE_INITIAL)) == list(w.to_json_obj())  # members in Java order
    assert w.encode() == _dumps(w.to_json_obj())


@given(registrations, st.booleans())
def test_registration_text_is_its_object(rb: RegisterBrokerBody, standard: bool) -> None:
    assert rb.encode(standard) == _dumps(rb.to_json_obj(), standard)


@given(cluster_infos, st.booleans())
def test_cluster_info_text_is_its_object(ci: ClusterInfo, standard: bool) -> None:
    assert ci.encode(standard) == _dumps(ci.to_json_obj(standard), standard)


_hostile_value = (
    st.none()
    | st.booleans()
    | st.integers(-(1 << 65), 1 << 65)
    | st.sampled_from([(1 << 31) - 1, 1 << 31, -(1 << 31), -(1 << 31) - 1, 0, 6, 16])
    | st.floats(allow_nan=False)
    | _names
    | st.sampled_from(["SINGLE_TAG", "MULTI_TAG"])
    | st.lists(_names, max_size=2)
    | st.dictionaries(_names, st.none() | _names | st.integers(), max_size=2)
    | st.just({})
)
_topic_keys = st.sampled_from(
    [
        "topicName",
        "readQueueNums",
        "writeQueueNums",
        "perm",
        "topicFilterType",
        "topicSysFlag",
        "order",
        "attributes",
    ]
)


def _usual(tc: TopicConfig) -> dict[str, Any]:
    """The usual entry (every member present and of its type), which the inline reader takes."""
    obj = tc.to_json_obj()
    obj.setdefault("topicName", "T")
    obj.setdefault("topicFilterType", "SINGLE_TAG")
    return obj


@given(
    st.one_of(
        st.dictionaries(_topic_keys, _hostile_value, max_size=8),
        st.builds(lambda tc, key, v: {**_usual(tc), key: v}, topic_configs, _topic_keys, _hostile_value),
        topic_configs.map(_usual),
        _hostile_value,
    )
)
def test_the_inline_topic_table_reader_reads_as_the_declaration(entry: Any) -> None:
    def declared() -> dict[str, TopicConfig]:
        return {} if entry is None else {"t": TopicConfig.from_json_obj(entry)}

    try:
        expected = declared()
    except ProtocolError:
        with pytest.raises(ProtocolError):
            _topic_table({"t": entry})
        return
    got = _topic_table({"t": entry})
    assert got == expected
    assert [tc.to_json_obj() for tc in (got or {}).values()] == [tc.to_json_obj() for tc in expected.values()]


_TRICKY = [None, True, 0, (1 << 31) - 1, 1 << 31, -(1 << 31) - 1, 1 << 63, "6", "SINGLE_TAG", 1.0, [], {}]
_TRICKY += [{"a": "b"}, {"a": None}, {"a": 1}]


def test_the_inline_topic_table_reader_reads_every_tricky_member_as_the_declaration() -> None:
    usual = _usual(TopicConfig("T", 8, 8, 6, "SINGLE_TAG", 1, True, {}))
    entries: list[dict[str, Any]] = [{k: v for k, v in usual.items() if k != key} for key in usual]
    entries += [{**usual, key: v} for key in usual for v in _TRICKY]
    for entry in entries:
        try:
            expected = {"t": TopicConfig.from_json_obj(entry)}
        except ProtocolError:
            with pytest.raises(ProtocolError):
                _topic_table({"t": entry})
            continue
        got = _topic_table({"t": entry})
        assert got == expected, entry
        assert [tc.to_json_obj() for tc in (got or {}).values()] == [expected["t"].to_json_obj()], entry


# ------------------------------------------------------------------------------------- Java views


@given(topic_configs, data_versions)
def test_java_views_are_the_5x_beans(tc: TopicConfig, dv: DataVersion) -> None:
    view = java_view(tc, dict, lambda v: v)
    assert view["attributes"] == (tc.attributes or {})  # a 5.3.3 bean's map is never null
    assert {k for k in view if k != "attributes"} == {k for k in tc.to_json_obj() if k != "attributes"}
    dv_view = java_view(dv, dict, lambda v: v)
    assert dv_view == {
        "counter": dv.counter,
        "stateVersion": dv.state_version or 0,
        "timestamp": dv.timestamp,
    }


def test_declared_bodies_declare_every_wire_field() -> None:
    kinds = (
        DataVersion,
        TopicConfig,
        TopicList,
        TopicConfigSerializeWrapper,
        TopicConfigAndMappingSerializeWrapper,
        KVTable,
        ClusterInfo,
        RegisterBrokerBody,
    )
    for kind in kinds:
        assert issubclass(kind, DeclaredBody)
        fields = {f.name for f in dataclasses.fields(kind)} - {"concurrent"}  # TopicList's, not on the wire
        assert {m.attr for m in members(kind)} == fields, kind
