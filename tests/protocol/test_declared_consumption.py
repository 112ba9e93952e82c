"""The consumption and static-topic bodies declared once: recorded frames, generated values, and the
lenient reading of what clients of every language send.

Each declared type round-trips generated values (``decode(encode(x)) == x``); GET_BROKER_CONSUME_STATS
answers re-encode to the bytes both Java generations wrote; a consumer's report is read as fastjson
reads it (numeric text, a C++ client's unsigned longs, ``"true"`` text) and a member of the wrong
JSON type is refused.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mqadmin.protocol import fastjson
from mqadmin.protocol.bodies.consume_stats import ConsumeStats
from mqadmin.protocol.bodies.consumption import (
    BrokerConsumeStats,
    ConsumeQueueView,
    ConsumerRunningInfo,
    ConsumeStatus,
    PopProcessQueueInfo,
    ProcessQueueInfo,
    RunningSubscription,
)
from mqadmin.protocol.bodies.dataversion import DataVersion
from mqadmin.protocol.bodies.declared import DeclaredBody, members
from mqadmin.protocol.bodies.logic_queues import TopicQueueMappingDetail
from mqadmin.protocol.bodies.message_queue import MessageQueue
from mqadmin.protocol.bodies.static_topic import (
    TopicConfigAndQueueMapping,
    TopicQueueMappingSerializeWrapper,
    TopicRemappingDetailWrapper,
)
from mqadmin.protocol.bodies.topic import TopicConfig
from mqadmin.protocol.codes import RequestCode
from mqadmin.protocol.errors import ProtocolError
from mqadmin.protocol.javacoll import java_hash_order
from tests.captures import pairs, scenarios

DECLARED = (
    ProcessQueueInfo,
    PopProcessQueueInfo,
    ConsumeStatus,
    RunningSubscription,
    BrokerConsumeStats,
    ConsumeQueueView,
    TopicRemappingDetailWrapper,
    TopicQueueMappingSerializeWrapper,
)


def test_converted_bodies_are_declared_in_every_field() -> None:
    for kind in DECLARED:
        assert issubclass(kind, DeclaredBody), kind
        assert {m.attr for m in members(kind)} == {f.name for f in dataclasses.fields(kind)}, kind


def test_java_names_that_are_not_the_camel_case_of_the_attribute() -> None:
    assert [m.java for m in members(ProcessQueueInfo)] == [
        "cachedMsgCount",
        "cachedMsgMaxOffset",
        "cachedMsgMinOffset",
        "cachedMsgSizeInMiB",
        "commitOffset",
        "droped",
        "lastConsumeTimestamp",
        "lastLockTimestamp",
        "lastPullTimestamp",
        "locked",
        "transactionMsgCount",
        "transactionMsgMaxOffset",
        "transactionMsgMinOffset",
        "tryUnlockTimes",
    ]
    assert [m.java for m in members(PopProcessQueueInfo)] == ["droped", "lastPopTimestamp", "waitAckCount"]
    assert {m.java for m in members(ConsumeStatus)} == {
        "pullRT",
        "pullTPS",
        "consumeRT",
        "consumeOKTPS",
        "consumeFailedTPS",
        "consumeFailedMsgs",
    }
    assert "subscriptionData" in {m.java for m in members(ConsumeQueueView)}


# ------------------------------------------------------------------------------ recorded frames


def test_broker_consume_stats_re_encode_what_both_java_generations_wrote() -> None:
    seen = set()
    for p in scenarios():
        for req, resp in pairs(f"{p.parent.name}/{p.name}"):
            if req.header["code"] != RequestCode.GET_BROKER_CONSUME_STATS or resp is None or not resp.body:
                continue
            stats = BrokerConsumeStats.decode(resp.body)
            assert stats.consume_stats_list and stats.broker_addr
            assert stats.encode() == resp.body, req.scenario
            seen.add(req.scenario.split("/")[0])
    assert seen == {"rocketmq-4.9.8", "rocketmq-5.3.3"}


# ------------------------------------------------------------------------------ generated values

_names = st.text(
    st.characters(exclude_characters="\x00", exclude_categories=("Cs",)), min_size=1, max_size=10
)
_opt_names = st.none() | _names
_longs = st.integers(-(1 << 63), (1 << 63) - 1)
_doubles = st.floats(allow_nan=False, allow_infinity=False)

process_queues = st.builds(
    ProcessQueueInfo,
    **{
        f.name: st.booleans() if f.type in ("bool", bool) else _longs
        for f in dataclasses.fields(ProcessQueueInfo)
    },
)
pop_queues = st.builds(
    PopProcessQueueInfo, wait_ack_count=_longs, droped=st.booleans(), last_pop_timestamp=_longs
)
statuses = st.builds(
    ConsumeStatus,
    pull_rt=_doubles,
    pull_tps=_doubles,
    consume_rt=_doubles,
    consume_ok_tps=_doubles,
    consume_failed_tps=_doubles,
    consume_failed_msgs=_longs,
)
subscriptions = st.builds(
    RunningSubscription,
    topic=_opt_names,
    sub_string=_opt_names,
    class_filter_mode=st.booleans(),
    expression_type=_names,  # an explicit null is left out when written, and absent reads as "TAG"
)
consume_stats = st.builds(
    lambda tps, diff: ConsumeStats.from_json_obj({"consumeTps": tps, "offsetTable": {}, "totalDiff": diff}),
    st.floats(0, 1e6, allow_nan=False),
    st.integers(0, 1 << 40),
)
broker_consume_stats = st.builds(
    BrokerConsumeStats,
    broker_addr=_opt_names,
    consume_stats_list=st.lists(st.dictionaries(_names, st.lists(consume_stats, max_size=2), max_size=2)),
    total_diff=_longs,
    total_inflight_diff=st.none() | _longs,
)
queue_rows = st.fixed_dictionaries(
    {
        "physicOffset": _longs,
        "physicSize": _longs,
        "tagsCode": _longs,
        "extendDataJson": _opt_names,
        "bitMap": _opt_names,
        "eval": st.booleans(),
        "msg": _opt_names,
    }
)
consume_queue_views = st.builds(
    ConsumeQueueView,
    subscription=st.none(),
    filter_data=_opt_names,
    queue_data=st.lists(queue_rows, max_size=4),
    max_queue_index=_longs,
    min_queue_index=_longs,
)


def _detail(topic: str, bname: str, queues: list[int]) -> TopicQueueMappingDetail:
    item = {"bname": bname, "gen": 0, "logicOffset": 0, "startOffset": 0, "endOffset": -1}
    return TopicQueueMappingDetail.from_json_obj(
        {
            "topic": topic,
            "bname": bname,
            "totalQueues": len(queues),
            "epoch": 1700000000000,
            "currIdMap": {q: q for q in queues},
            "hostedQueues": {q: [{**item, "queueId": q}] for q in queues},
        }
    )


details = st.builds(_detail, _names, _names, st.lists(st.integers(0, 64), max_size=4, unique=True))
configs = st.builds(
    lambda name, n, detail: TopicConfigAndQueueMapping(
        TopicConfig.from_json_obj({"topicName": name, "readQueueNums": n, "writeQueueNums": n}), detail
    ),
    _names,
    st.integers(0, 64),
    st.none() | details,
)
remapping_wrappers = st.builds(
    TopicRemappingDetailWrapper,
    topic=_opt_names,
    type=_opt_names,
    epoch=_longs,
    broker_config_map=st.dictionaries(_names, configs, max_size=3),
    broker_to_map_in=st.lists(_names, max_size=4, unique=True),
    broker_to_map_out=st.lists(_names, max_size=4, unique=True),
)
mapping_files = st.builds(
    TopicQueueMappingSerializeWrapper,
    topic_queue_mapping_info_map=st.dictionaries(_names, details, max_size=4),
    data_version=st.none()
    | st.builds(DataVersion, timestamp=_longs, counter=_longs, state_version=st.none() | _longs),
)


def _same_sets(a: TopicRemappingDetailWrapper, b: TopicRemappingDetailWrapper) -> None:
    """The broker sets are ``HashSet``s: written in hash order, read in the order written."""
    assert b.broker_to_map_in == java_hash_order(a.broker_to_map_in)
    assert b.broker_to_map_out == java_hash_order(a.broker_to_map_out)
    assert (
        dataclasses.replace(b, broker_to_map_in=a.broker_to_map_in, broker_to_map_out=a.broker_to_map_out)
        == a
    )


ROUND_TRIPPED = {
    "ProcessQueueInfo": process_queues,
    "PopProcessQueueInfo": pop_queues,
    "ConsumeStatus": statuses,
    "RunningSubscription": subscriptions,
    "BrokerConsumeStats": broker_consume_stats,
    "ConsumeQueueView": consume_queue_views,
    "TopicQueueMappingSerializeWrapper": mapping_files,
}


@pytest.mark.parametrize("name", sorted(ROUND_TRIPPED))
@given(data=st.data(), standard=st.booleans())
def test_declared_bodies_round_trip(name: str, data: st.DataObject, standard: bool) -> None:
    value = data.draw(ROUND_TRIPPED[name])
    kind = type(value)
    assert kind.__name__ == name
    assert kind.decode(value.encode(standard)) == value
    assert kind.from_json_obj(value.to_json_obj(standard)) == value


@given(remapping_wrappers, st.booleans())
def test_remapping_plans_round_trip(plan: TopicRemappingDetailWrapper, standard: bool) -> None:
    _same_sets(plan, TopicRemappingDetailWrapper.decode(plan.encode(standard)))
    _same_sets(plan, TopicRemappingDetailWrapper.from_json_obj(plan.to_json_obj(standard)))


@given(st.one_of(process_queues, statuses, subscriptions, broker_consume_stats, consume_queue_views))
def test_members_are_written_sorted_by_java_name_without_nulls(value: Any) -> None:
    obj = value.to_json_obj()
    assert list(obj) == sorted(obj) and None not in obj.values()
    for row in obj.get("queueData", []):
        assert list(row) == sorted(row) and None not in row.values()


def test_the_mapping_file_keeps_its_concurrent_hash_map_order() -> None:
    topics = [f"StaticTopic{i}" for i in range(40)]
    wrapper = TopicQueueMappingSerializeWrapper(
        {t: _detail(t, "broker-a", [0]) for t in topics}, DataVersion(1, 2)
    )
    written = list(fastjson.loads(wrapper.encode())["topicQueueMappingInfoMap"])
    assert sorted(written) == sorted(topics) and written != topics  # hash order, not insertion order
    assert (
        list(TopicQueueMappingSerializeWrapper.decode(wrapper.encode()).topic_queue_mapping_info_map)
        == written
    )


# ------------------------------------------------------------------------------ lenient reading


def _mq_key(topic: str, broker: str, qid: int) -> str:
    return f'{{"brokerName":"{broker}","queueId":{qid},"topic":"{topic}"}}'


def test_a_consumer_report_is_read_as_fastjson_reads_it() -> None:
    body = (
        '{"properties":{"PROP_CONSUME_TYPE":"CONSUME_PASSIVELY","n":3},'
        '"subscriptionSet":[{"topic":"T","subString":"*","classFilterMode":"true"},'
        '{"topic":"T","subString":"*","expressionType":"SQL92"},{"topic":"A","subString":"a","expressionType":null}],'
        f'"mqTable":{{{_mq_key("T", "b", 1)}:{{"commitOffset":"42",'
        '"lastLockTimestamp":"11529351726658387200",'
        f'"locked":1,"droped":"TRUE","cachedMsgSizeInMiB":7}},{_mq_key("T", "b", 0)}:{{}}}},'
        f'"mqPopTable":{{{_mq_key("T", "b", 0)}:{{"waitAckCount":3,"droped":0}}}},'
        '"statusTable":{"T":{"pullRT":"1.5","consumeOKTPS":2,"consumeFailedMsgs":"9"}},"jstack":5}'
    ).encode()
    info = ConsumerRunningInfo.decode(body)
    assert info.properties == {"PROP_CONSUME_TYPE": "CONSUME_PASSIVELY", "n": "3"}
    assert info.subscriptions == [
        RunningSubscription("A", "a", False, None),  # an explicit null is kept; absent reads "TAG"
        RunningSubscription("T", "*", True, "TAG"),  # the first of equal elements, as a TreeSet keeps it
    ]
    assert list(info.mq_table) == [MessageQueue("T", "b", 0), MessageQueue("T", "b", 1)]
    assert info.mq_table[MessageQueue("T", "b", 0)] == ProcessQueueInfo()
    pq = info.mq_table[MessageQueue("T", "b", 1)]
    assert (pq.commit_offset, pq.locked, pq.droped, pq.cached_msg_size_in_mib) == (42, True, True, 7)
    assert pq.last_lock_timestamp == 11529351726658387200 - (1 << 64)
    assert info.mq_pop_table == {MessageQueue("T", "b", 0): PopProcessQueueInfo(3, False, 0)}
    assert info.status_table == {"T": ConsumeStatus(pull_rt=1.5, consume_ok_tps=2.0, consume_failed_msgs=9)}
    assert info.jstack is None
    doc = info.to_json_obj()
    assert doc["mqTable"][1] == {"brokerName": "b", "queueId": 1, "topic": "T", **pq.to_json_obj()}
    assert doc["subscriptionSet"][1] == {
        "classFilterMode": True,
        "expressionType": "TAG",
        "subString": "*",
        "topic": "T",
    }


@pytest.mark.parametrize(
    ("kind", "body"),
    [
        (ProcessQueueInfo, b'{"commitOffset":"x"}'),
        (ProcessQueueInfo, b'{"commitOffset":[1]}'),
        (ConsumeStatus, b'{"pullRT":"fast"}'),
        (ConsumeStatus, b'{"pullTPS":{}}'),
        (RunningSubscription, b'{"topic":1}'),
        (BrokerConsumeStats, b'{"consumeStatsList":{"G":[]}}'),
        (BrokerConsumeStats, b'{"consumeStatsList":[[]]}'),
        (BrokerConsumeStats, b'{"totalDiff":"much"}'),
        (ConsumeQueueView, b'{"queueData":[1]}'),
        (ConsumeQueueView, b'{"queueData":[{"msg":1}]}'),
        (ConsumeQueueView, b'{"subscriptionData":[]}'),
        (TopicRemappingDetailWrapper, b'{"brokerConfigMap":[]}'),
        (TopicRemappingDetailWrapper, b'{"brokerToMapIn":[1]}'),
        (TopicRemappingDetailWrapper, b'{"epoch":true}'),
        (TopicQueueMappingSerializeWrapper, b'{"topicQueueMappingInfoMap":{"T":1}}'),
        (TopicQueueMappingSerializeWrapper, b'{"dataVersion":[]}'),
        (TopicQueueMappingSerializeWrapper, b"[]"),
    ],
)
def test_a_member_of_the_wrong_type_is_refused(kind: type[Any], body: bytes) -> None:
    with pytest.raises(ProtocolError):
        kind.decode(body)


def test_absent_and_null_members_read_as_java_defaults() -> None:
    assert ConsumeQueueView.decode(b'{"queueData":null}') == ConsumeQueueView(None, None, [], 0, 0)
    assert BrokerConsumeStats.decode(b"{}") == BrokerConsumeStats(None, [], 0, None)
    assert TopicRemappingDetailWrapper.decode(b'{"brokerConfigMap":null}') == TopicRemappingDetailWrapper()
    assert TopicQueueMappingSerializeWrapper.decode(b"{}") == TopicQueueMappingSerializeWrapper()
    assert (
        TopicRemappingDetailWrapper().encode()
        == b'{"brokerConfigMap":{},"brokerToMapIn":[],"brokerToMapOut":[],"epoch":0}'
    )
    assert TopicQueueMappingSerializeWrapper().encode() == b'{"topicQueueMappingInfoMap":{}}'
