"""The declared static-topic mapping values on generated values: each round-trips in both JSON
forms, the maps keyed by queue id are written in ``ConcurrentHashMap`` order (sorted in the
standard form), absent and null members read as Java's defaults, and hostile JSON is refused with
:class:`ProtocolError` and nothing else."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mqadmin.protocol import fastjson
from mqadmin.protocol.bodies.logic_queues import LogicQueueMappingItem, TopicQueueMappingDetail
from mqadmin.protocol.bodies.queue_mapping import METADATA_SCOPE_GLOBAL, TopicQueueMappingInfo
from mqadmin.protocol.errors import ProtocolError
from mqadmin.protocol.javacoll import chm_capacity, hash_ordered

_str = st.text(st.characters(exclude_characters="\x00", exclude_categories=("Cs",)), max_size=8)
_text = st.none() | _str
_int32 = st.integers(-(1 << 31), (1 << 31) - 1)
_int64 = st.integers(-(1 << 63), (1 << 63) - 1)
_ids = st.dictionaries(_int32, _int32, max_size=6)
items = st.builds(LogicQueueMappingItem, _int32, _int32, _text, _int64, _int64, _int64, _int64, _int64)
# a null scope is left out, so it reads back as Java's default (METADATA_SCOPE_GLOBAL): not generated
infos = st.builds(TopicQueueMappingInfo, _text, _str, _int32, _text, _int64, st.booleans(), _ids)
details = st.builds(
    TopicQueueMappingDetail,
    _text,
    _str,
    _int32,
    _text,
    _int64,
    st.booleans(),
    _ids,
    st.dictionaries(_int32, st.lists(items, max_size=3), max_size=4),
)


@settings(max_examples=80, deadline=None)
@given(st.one_of(items, infos, details), st.booleans())
def test_round_trip(value: Any, standard: bool) -> None:
    text = fastjson.dumps(value.to_json_obj(standard), standard=standard)
    assert type(value).from_json_obj(fastjson.loads(text)) == value


@settings(max_examples=40, deadline=None)
@given(details)
def test_queue_id_maps_keep_the_java_order(value: TopicQueueMappingDetail) -> None:
    legacy, standard = value.to_json_obj(False), value.to_json_obj(True)
    for name, attr in (("currIdMap", value.curr_id_map or {}), ("hostedQueues", value.hosted_queues or {})):
        assert list(legacy[name]) == list(hash_ordered(attr, chm_capacity(len(attr))))
        assert list(standard[name]) == sorted(attr)
    assert list(legacy) == sorted(legacy)  # members in fastjson's order


def test_absent_and_null_members_read_as_java_defaults() -> None:
    info = TopicQueueMappingInfo.from_json_obj({})
    assert (info.scope, info.curr_id_map, info.epoch, info.dirty) == (METADATA_SCOPE_GLOBAL, {}, 0, False)
    assert TopicQueueMappingInfo.from_json_obj({"scope": None}).scope is None
    item = LogicQueueMappingItem.from_json_obj({"endOffset": None})
    assert (item.end_offset, item.time_of_start, item.time_of_end) == (-1, -1, -1)
    assert TopicQueueMappingDetail.from_json_obj({}).hosted_queues == {}
    assert TopicQueueMappingDetail.from_json_obj({"currIdMap": {"1": 2}}).curr_id_map == {1: 2}


@pytest.mark.parametrize(
    ("cls", "body"),
    [
        (TopicQueueMappingInfo, []),
        (TopicQueueMappingInfo, {"currIdMap": {"x": 1}}),
        (TopicQueueMappingInfo, {"currIdMap": {"1": "2"}}),
        (TopicQueueMappingInfo, {"currIdMap": {"4294967296": 1}}),
        (TopicQueueMappingInfo, {"totalQueues": 1 << 31}),
        (TopicQueueMappingInfo, {"dirty": "yes"}),
        (LogicQueueMappingItem, {"logicOffset": "zero"}),  # fastjson reads "0" as 0, not this
        (LogicQueueMappingItem, {"endOffset": 1 << 63}),
        (TopicQueueMappingDetail, {"hostedQueues": {"0": {}}}),
        (TopicQueueMappingDetail, {"hostedQueues": {"0": [5]}}),
        (TopicQueueMappingDetail, {"hostedQueues": []}),
    ],
)
def test_hostile_bodies_are_refused(cls: Any, body: Any) -> None:
    with pytest.raises(ProtocolError):
        cls.from_json_obj(json.loads(json.dumps(body)))
