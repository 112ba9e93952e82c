"""Topic, static-topic, registration, KV, queue and stats bodies without dataclasses.

- In a bare interpreter (no site, only this source tree), importing them and reading the bodies a
  one-request command reads (``topicList``'s ``TopicList``, a topic table, a KV table, a stats
  table) imports none of typing, dataclasses, re, enum, json, collections, functools, ...
- The plain classes behave as the dataclasses did where code uses them: positional order, fresh
  defaults, equality (a subclass's own fields too; ``TopicList.concurrent`` not), hashing (only the
  frozen ones), ordering of ``MessageQueue``, copies with changes, pickling.
"""

from __future__ import annotations

import copy
import pickle
import time
from pathlib import Path

import pytest

from mqadmin.protocol.bodies.kv import KVTable
from mqadmin.protocol.bodies.message_queue import MessageQueue
from mqadmin.protocol.bodies.register import RegisterBrokerBody, RegisterBudget
from mqadmin.protocol.bodies.static_topic import (
    LogicQueueMappingItem,
    TopicConfigAndQueueMapping,
    TopicQueueMappingDetail,
    TopicQueueMappingInfo,
    TopicQueueMappingSerializeWrapper,
    TopicRemappingDetailWrapper,
)
from mqadmin.protocol.bodies.stats import ConsumeStats, OffsetWrapper, TopicOffset, TopicStatsTable
from mqadmin.protocol.bodies.topic import (
    DataVersion,
    TopicConfig,
    TopicConfigAndMappingSerializeWrapper,
    TopicConfigSerializeWrapper,
    TopicList,
)
from tests.bare import heavy_in, run_bare

ROOT = Path(__file__).resolve().parents[2]


BARE = r"""
from mqadmin.protocol.bodies import kv, message_queue, register, static_topic, stats, topic

names = topic.TopicList.decode(b'{"topicList":["a","b","c"]}', concurrent=True)
assert names.topic_list == ["a", "b", "c"] and names.concurrent
assert topic.TopicList.decode(names.encode()) == names
w = topic.TopicConfigSerializeWrapper({"t": topic.TopicConfig("t")}, topic.DataVersion(1, 2))
assert topic.TopicConfigSerializeWrapper.decode(w.encode()) == w
assert kv.KVTable.decode(b'{"table":{"k":"v"}}').table == {"k": "v"}
body = (b'{"consumeTps":1.5,"offsetTable":{{"brokerName":"b","queueId":0,"topic":"T"}:'
        b'{"brokerOffset":3,"consumerOffset":1,"lastTimestamp":0}}}')
cs = stats.ConsumeStats.decode(body)
assert cs.total_diff() == 2 and message_queue.MessageQueue("T", "b", 0) in cs.offset_table
rb = register.RegisterBrokerBody(w, [])
assert rb.encode(compress=True) and rb.encode()
"""


def test_bodies_import_and_read_nothing_heavy() -> None:
    _, names = run_bare(BARE)
    assert not heavy_in(names), f"imported: {heavy_in(names)}"


def test_positional_order_and_defaults_as_the_dataclasses_had() -> None:
    tc = TopicConfig("t", 1, 2, 3, "MULTI_TAG", 4, True, {"a": "b"})
    assert (tc.topic_name, tc.read_queue_nums, tc.write_queue_nums, tc.perm) == ("t", 1, 2, 3)
    assert (tc.topic_filter_type, tc.topic_sys_flag, tc.order, tc.attributes) == (
        "MULTI_TAG",
        4,
        True,
        {"a": "b"},
    )
    d = TopicConfig()
    assert (d.topic_name, d.read_queue_nums, d.write_queue_nums, d.perm) == (None, 16, 16, 6)
    assert (d.topic_filter_type, d.topic_sys_flag, d.order, d.attributes) == ("SINGLE_TAG", 0, False, None)
    assert MessageQueue("T", "b", 3) == MessageQueue(topic="T", broker_name="b", queue_id=3)
    assert TopicOffset(1, 2, 3).last_update_timestamp == 3
    assert OffsetWrapper(1, 2, 3).pull_offset is None
    info = TopicQueueMappingInfo("T")
    assert (info.scope, info.total_queues, info.epoch, info.dirty, info.curr_id_map) == (
        "__global__",
        0,
        0,
        False,
        {},
    )
    item = LogicQueueMappingItem(1, 2, "b")
    assert (item.logic_offset, item.start_offset, item.end_offset, item.time_of_start, item.time_of_end) == (
        0,
        0,
        -1,
        -1,
        -1,
    )
    assert RegisterBudget(1, 2).non_standard_json == 1 << 20


def test_defaults_are_new_each_time() -> None:
    """A default table, list or version is a new one per instance, never shared (default_factory)."""
    made = [
        (lambda: TopicConfigSerializeWrapper(), ("topic_config_table", "data_version")),
        (
            lambda: TopicConfigAndMappingSerializeWrapper(),
            (
                "topic_config_table",
                "data_version",
                "topic_queue_mapping_info_map",
                "topic_queue_mapping_detail_map",
                "mapping_data_version",
            ),
        ),
        (lambda: TopicList(), ("topic_list",)),
        (lambda: KVTable(), ("table",)),
        (lambda: TopicStatsTable(), ("offset_table",)),
        (lambda: ConsumeStats(), ("offset_table",)),
        (lambda: TopicQueueMappingInfo(), ("curr_id_map",)),
        (lambda: TopicQueueMappingDetail(), ("curr_id_map", "hosted_queues")),
        (
            lambda: TopicRemappingDetailWrapper(),
            ("broker_config_map", "broker_to_map_in", "broker_to_map_out"),
        ),
        (lambda: TopicQueueMappingSerializeWrapper(), ("topic_queue_mapping_info_map",)),
        (lambda: RegisterBrokerBody(), ("topic_config_serialize_wrapper", "filter_server_list")),
    ]
    for make, fields in made:
        a, b = make(), make()
        for f in fields:
            x, y = getattr(a, f), getattr(b, f)
            assert x is not None and x == y and x is not y, (type(a).__name__, f)
    assert TopicConfigSerializeWrapper(None, None).topic_config_table is None
    assert RegisterBrokerBody(filter_server_list=None).filter_server_list is None
    assert TopicConfigAndMappingSerializeWrapper(mapping_data_version=None).mapping_data_version is None


def test_data_version_is_stamped_when_made() -> None:
    lo = int(time.time() * 1000)
    v = DataVersion()
    assert lo <= v.timestamp <= int(time.time() * 1000)
    assert (v.counter, v.state_version) == (0, None)
    assert DataVersion(5).timestamp == 5


def test_equality_and_hash_as_before() -> None:
    assert TopicConfig("t") == TopicConfig("t") and TopicConfig("t") != TopicConfig("u")
    assert TopicList(["a"], concurrent=True) == TopicList(["a"])  # compare=False
    assert TopicList(["a"], "x") != TopicList(["a"])
    for unhashable in (
        TopicConfig(),
        TopicList(),
        DataVersion(1),
        KVTable(),
        ConsumeStats(),
        RegisterBrokerBody(),
    ):
        with pytest.raises(TypeError):
            hash(unhashable)
    assert hash(RegisterBudget(1, 2)) == hash(RegisterBudget(1, 2)) and RegisterBudget(
        1, 2
    ) != RegisterBudget(1, 3)
    mq = MessageQueue("T", "b", 3)
    assert hash(mq) == hash(("T", "b", 3)) == hash(MessageQueue("T", "b", 3))
    assert {mq: 1}[MessageQueue("T", "b", 3)] == 1
    assert mq != ("T", "b", 3) and mq != MessageQueue("T", "b", 4)


def test_message_queue_orders_as_its_fields() -> None:
    mqs = [
        MessageQueue("T", "b", 2),
        MessageQueue("S", "z", 9),
        MessageQueue("T", "a", 5),
        MessageQueue("T", "b", 1),
    ]
    assert sorted(mqs) == sorted(mqs, key=lambda m: (m.topic, m.broker_name, m.queue_id))
    a, b = MessageQueue("T", "a", 1), MessageQueue("T", "a", 2)
    assert a < b and a <= b and b > a and b >= a and a <= a and a >= a and not a < a
    with pytest.raises(TypeError):
        _ = a < ("T", "a", 2)  # type: ignore[operator]
    assert repr(a) == "MessageQueue(topic='T', broker_name='a', queue_id=1)"
    assert str(a) == "MessageQueue [topic=T, brokerName=a, queueId=1]"


def test_subclasses_compare_copy_and_print_all_their_fields() -> None:
    """A subclass's equality covers the base class's fields and its own, and tells the classes apart."""
    base = TopicConfigAndMappingSerializeWrapper(
        {"t": TopicConfig("t")}, DataVersion(1), {}, {}, DataVersion(2)
    )
    assert base == TopicConfigAndMappingSerializeWrapper(
        {"t": TopicConfig("t")}, DataVersion(1), {}, {}, DataVersion(2)
    )
    assert base != base.with_(mapping_data_version=DataVersion(3))
    assert base != base.with_(data_version=DataVersion(3))
    assert base != TopicConfigSerializeWrapper({"t": TopicConfig("t")}, DataVersion(1))
    changed = base.with_(topic_queue_mapping_info_map={"t": TopicQueueMappingInfo("t")})
    assert type(changed) is TopicConfigAndMappingSerializeWrapper
    assert (
        changed.topic_config_table == base.topic_config_table
        and changed.mapping_data_version == DataVersion(2)
    )
    assert "mapping_data_version=" in repr(base) and "topic_config_table=" in repr(base)

    detail = TopicQueueMappingDetail(
        "T", total_queues=2, curr_id_map={0: 0}, hosted_queues={0: [LogicQueueMappingItem()]}
    )
    assert detail == copy.deepcopy(detail)
    assert detail != detail.with_(total_queues=3) and detail != detail.with_(hosted_queues={})
    assert detail != TopicQueueMappingInfo("T", total_queues=2, curr_id_map={0: 0})
    assert detail.with_(epoch=7).hosted_queues == detail.hosted_queues
    assert repr(detail).startswith("TopicQueueMappingDetail(topic='T'") and "hosted_queues=" in repr(detail)


def test_copies_with_changes_and_pickles() -> None:
    tc = TopicConfig("t", attributes={"+a": "b"})
    out = tc.with_(attributes={})
    assert out == TopicConfig("t", attributes={}) and tc.attributes == {"+a": "b"}
    pair = TopicConfigAndQueueMapping(tc, TopicQueueMappingDetail("t"))
    assert pair.topic_name == "t" and pair == pickle.loads(pickle.dumps(pair))
    body = RegisterBrokerBody(TopicConfigAndMappingSerializeWrapper({"t": tc}, DataVersion(1, 2, 3)), ["f:1"])
    again = pickle.loads(pickle.dumps(body))
    assert again == body and again.is_5x
    assert RegisterBrokerBody.decode(body.encode()) == RegisterBrokerBody.decode(
        pickle.loads(pickle.dumps(body)).encode()
    )
