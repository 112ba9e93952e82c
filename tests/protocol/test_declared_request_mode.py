"""The declared consume-mode bodies on generated values: each round-trips in both JSON forms, the
mode table keeps ``ConcurrentHashMap`` order on the wire, and hostile JSON is refused with
:class:`ProtocolError` and nothing else."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mqadmin.protocol import fastjson
from mqadmin.protocol.bodies.request_mode import (
    MESSAGE_REQUEST_MODES,
    CheckRocksdbCqWriteResult,
    MessageRequestModeWrapper,
    SetMessageRequestModeRequestBody,
)
from mqadmin.protocol.errors import ProtocolError
from mqadmin.protocol.javacoll import concurrent_hash_order

_name = st.text(st.characters(exclude_characters="\x00", exclude_categories=("Cs",)), min_size=1, max_size=8)
_int32 = st.integers(-(1 << 31), (1 << 31) - 1)
modes = st.builds(
    SetMessageRequestModeRequestBody,
    st.none() | _name,
    st.none() | _name,
    st.sampled_from(MESSAGE_REQUEST_MODES),
    _int32,
)
tables = st.builds(
    MessageRequestModeWrapper, st.dictionaries(_name, st.dictionaries(_name, modes, max_size=3), max_size=4)
)
checks = st.builds(CheckRocksdbCqWriteResult, _int32, st.none() | _name)


@settings(max_examples=60, deadline=None)
@given(st.one_of(modes, tables, checks), st.booleans())
def test_round_trip(value: Any, standard: bool) -> None:
    text = fastjson.dumps(value.to_json_obj(standard), standard=standard)
    assert type(value).from_json_obj(fastjson.loads(text)) == value


@settings(max_examples=40, deadline=None)
@given(tables)
def test_the_table_is_written_in_concurrent_hash_map_order(value: MessageRequestModeWrapper) -> None:
    written = value.to_json_obj()["messageRequestModeMap"]
    assert list(written) == concurrent_hash_order(list(value.table))
    for topic, groups in written.items():
        assert list(groups) == concurrent_hash_order(list(value.table[topic]))


def test_absent_members_read_as_java_defaults() -> None:
    assert SetMessageRequestModeRequestBody.from_json_obj({}) == SetMessageRequestModeRequestBody(
        None, None, "PULL", 0
    )
    assert MessageRequestModeWrapper.from_json_obj({}).table == {}
    assert CheckRocksdbCqWriteResult.from_json_obj({}) == CheckRocksdbCqWriteResult(0, None)


@pytest.mark.parametrize(
    ("cls", "body"),
    [
        (SetMessageRequestModeRequestBody, {"mode": "PUSH"}),
        (SetMessageRequestModeRequestBody, {"mode": 1}),
        (SetMessageRequestModeRequestBody, {"popShareQueueNum": 1 << 31}),
        (SetMessageRequestModeRequestBody, {"topic": ["T"]}),
        (SetMessageRequestModeRequestBody, []),
        (MessageRequestModeWrapper, {"messageRequestModeMap": []}),
        (MessageRequestModeWrapper, {"messageRequestModeMap": {"T": []}}),
        (MessageRequestModeWrapper, {"messageRequestModeMap": {"T": {"G": {"mode": "X"}}}}),
        (CheckRocksdbCqWriteResult, {"checkStatus": "0"}),
        (CheckRocksdbCqWriteResult, {"checkResult": 5}),
    ],
)
def test_hostile_bodies_are_refused(cls: Any, body: Any) -> None:
    with pytest.raises(ProtocolError):
        cls.from_json_obj(json.loads(json.dumps(body)))
