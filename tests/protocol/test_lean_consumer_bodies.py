"""Answer, connection, group and consumption bodies without dataclasses.

- In a bare interpreter (no site, only this source tree), importing them with the consumer headers
  and the admin's broker requests, and reading what a broker answers (a consumer connection, a group
  table, a group list, a consumer's running info, a heartbeat) imports none of typing, dataclasses,
  re, enum, json, collections, functools, ...
- The plain classes behave as the dataclasses did where code uses them: positional order, fresh
  defaults (an explicit ``None`` kept), the subscription's time stamp, equality, hashing (only the
  frozen ``RunningSubscription``), ``as_5x`` as a copy, pickling.
"""

from __future__ import annotations

import copy
import pickle
import time
from pathlib import Path

import pytest

from mqadmin.protocol.bodies.answers import (
    GetConsumerListByGroupResponseBody,
    GetConsumerStatusBody,
    GroupList,
    LockBatchResponseBody,
    ProducerInfo,
    ProducerTableInfo,
    QueryConsumeTimeSpanBody,
    QueueTimeSpan,
    ResetOffsetBody,
)
from mqadmin.protocol.bodies.connection import (
    Connection,
    ConsumerConnection,
    ProducerConnection,
    SubscriptionData,
)
from mqadmin.protocol.bodies.consumption import (
    BrokerConsumeStats,
    ConsumeQueueView,
    ConsumerRunningInfo,
    ConsumeStatus,
    PopProcessQueueInfo,
    ProcessQueueInfo,
    RunningSubscription,
)
from mqadmin.protocol.bodies.group import (
    DEFAULT_RETRY_DELAYS_MS,
    CustomizedRetryPolicy,
    ExponentialRetryPolicy,
    GroupRetryPolicy,
    SimpleSubscriptionData,
    SubscriptionGroupConfig,
    SubscriptionGroupWrapper,
)
from mqadmin.protocol.bodies.message_queue import MessageQueue
from mqadmin.protocol.bodies.topic import DataVersion
from tests.bare import heavy_in, run_bare

ROOT = Path(__file__).resolve().parents[2]


BARE = r"""
from mqadmin.admin import broker
from mqadmin.protocol.bodies import answers, connection, consumption, group
from mqadmin.protocol.bodies.message_queue import MessageQueue
from mqadmin.protocol.headers import consumer

cc = connection.ConsumerConnection(
    [connection.Connection("c1", "10.0.0.1:1", "JAVA", 479)],
    {"T": connection.SubscriptionData("T", "a || b", ["a", "b"], [97, 98], 5)},
    "CONSUME_PASSIVELY", "CLUSTERING", "CONSUME_FROM_LAST_OFFSET",
)
assert connection.ConsumerConnection.decode(cc.encode()) == cc and cc.min_version() == 479
wrapper = group.SubscriptionGroupWrapper({"G": group.SubscriptionGroupConfig("G").as_5x()})
assert group.SubscriptionGroupWrapper.decode(wrapper.encode()) == wrapper
assert answers.GroupList.decode(b'{"groupList":["b","a","b"]}').group_list == ["b", "a"]
info = consumption.ConsumerRunningInfo.decode(
    b'{"properties":{"consumeType":"CONSUME_PASSIVELY"},"subscriptionSet":[{"topic":"T","subString":"*"}],'
    b'"mqTable":{{"brokerName":"b","queueId":0,"topic":"T"}:{"commitOffset":5}}}'
)
assert info.subscriptions[0].tree_key == "T@*" and list(info.mq_table.values())[0].commit_offset == 5
hb = consumer.HeartbeatData.decode(
    b'{"clientID":"c1","consumerDataSet":[{"groupName":"G","subscriptionDataSet":[{"topic":"T"}]}]}'
)
assert hb.consumers[0].subscriptions[0].topic == "T"
assert broker.max_offset_header(MessageQueue("T", "b", 1)).queue_id == 1
"""


def test_bodies_import_and_read_nothing_heavy() -> None:
    _, names = run_bare(BARE)
    assert not heavy_in(names), f"imported: {heavy_in(names)}"


def test_positional_order_and_defaults_as_the_dataclasses_had() -> None:
    c = Connection("id", "addr", "JAVA", 479)
    assert (c.client_id, c.client_addr, c.language, c.version) == ("id", "addr", "JAVA", 479)
    s = SubscriptionData("T", "a", ["a"], [97], 5, "SQL92", True)
    assert (s.topic, s.sub_string, s.tags_set, s.code_set) == ("T", "a", ["a"], [97])
    assert (s.sub_version, s.expression_type, s.class_filter_mode) == (5, "SQL92", True)
    cc = ConsumerConnection([c], {"T": s}, "CONSUME_ACTIVELY", "BROADCASTING", "CONSUME_FROM_FIRST_OFFSET")
    assert (cc.consume_type, cc.message_model, cc.consume_from_where) == (
        "CONSUME_ACTIVELY",
        "BROADCASTING",
        "CONSUME_FROM_FIRST_OFFSET",
    )
    g = SubscriptionGroupConfig()
    assert (g.group_name, g.consume_enable, g.consume_from_min_enable, g.consume_broadcast_enable) == (
        None,
        True,
        True,
        True,
    )
    assert (g.retry_queue_nums, g.retry_max_times, g.broker_id, g.which_broker_when_consume_slowly) == (
        1,
        16,
        0,
        1,
    )
    assert g.notify_consumer_ids_changed_enable is True
    five_x = (
        g.consume_message_orderly,
        g.group_retry_policy,
        g.group_sys_flag,
        g.consume_timeout_minute,
        g.subscription_data_set,
        g.attributes,
    )
    assert five_x == (None,) * 6
    g2 = SubscriptionGroupConfig("G", False, False, False, 2, 3, 4, 5, False, True)
    assert (g2.group_name, g2.retry_queue_nums, g2.which_broker_when_consume_slowly) == ("G", 2, 5)
    assert (g2.notify_consumer_ids_changed_enable, g2.consume_message_orderly) == (False, True)
    assert ExponentialRetryPolicy() == ExponentialRetryPolicy(5000, 7_200_000, 2)
    assert GroupRetryPolicy().type == "CUSTOMIZED" and GroupRetryPolicy().customized_retry_policy is None
    assert SimpleSubscriptionData("T", "TAG", "*").version == 0
    span = QueueTimeSpan(MessageQueue("T", "b", 0), 1, 2, 3, 4, "a")
    assert (span.min_time_stamp, span.delay_time, span.min_time_stamp_str, span.consume_time_stamp_str) == (
        1,
        4,
        "a",
        None,
    )
    p = ProducerInfo("c", "ip", "JAVA", 1, 2)
    assert (p.remote_ip, p.language, p.last_update_timestamp) == ("ip", "JAVA", 2)
    assert ResetOffsetBody({}, True).as_list and not ResetOffsetBody().as_list
    pq = ProcessQueueInfo(1, 2, 3, 4, 5, 6, 7, 8, True, 9, 10, True, 11, 12)
    assert (pq.commit_offset, pq.cached_msg_size_in_mib, pq.locked, pq.droped, pq.last_consume_timestamp) == (
        1,
        5,
        True,
        True,
        12,
    )
    assert PopProcessQueueInfo(3).wait_ack_count == 3 and ConsumeStatus(1.0, 2.0).pull_tps == 2.0
    assert RunningSubscription("T", "*").expression_type == "TAG"
    stats = BrokerConsumeStats("a:1", [], 5)
    assert (stats.total_diff, stats.total_inflight_diff) == (5, None)
    view = ConsumeQueueView(None, "f", [], 9, 1)
    assert (view.filter_data, view.max_queue_index, view.min_queue_index) == ("f", 9, 1)


def test_defaults_are_new_each_time() -> None:
    """A default list, table, policy or version is a new one per instance, never shared
    (default_factory), and an explicit ``None`` stays ``None``."""
    made = [
        (lambda: GetConsumerListByGroupResponseBody(), ("consumer_id_list",)),
        (lambda: LockBatchResponseBody(), ("lock_ok_mq_set",)),
        (lambda: GroupList(), ("group_list",)),
        (lambda: QueryConsumeTimeSpanBody(), ("consume_time_span_set",)),
        (lambda: ProducerTableInfo(), ("data",)),
        (lambda: ResetOffsetBody(), ("offset_table",)),
        (lambda: GetConsumerStatusBody(), ("consumer_table",)),
        (lambda: SubscriptionData(sub_version=1), ("tags_set", "code_set")),
        (lambda: ConsumerConnection(), ("connection_set", "subscription_table")),
        (lambda: ProducerConnection(), ("connection_set",)),
        (lambda: CustomizedRetryPolicy(), ("next",)),
        (lambda: SubscriptionGroupWrapper(), ("subscription_group_table",)),
        (
            lambda: ConsumerRunningInfo(),
            ("properties", "subscriptions", "mq_table", "mq_pop_table", "status_table", "user_consumer_info"),
        ),
    ]
    for make, fields in made:
        a, b = make(), make()
        for f in fields:
            x, y = getattr(a, f), getattr(b, f)
            assert x is not None and x == y and x is not y, (type(a).__name__, f)
    assert CustomizedRetryPolicy().next == list(DEFAULT_RETRY_DELAYS_MS)
    assert CustomizedRetryPolicy(None).next is None
    assert SubscriptionData(tags_set=None, code_set=None).tags_set is None
    assert SubscriptionData(tags_set=None, code_set=None).code_set is None
    w = SubscriptionGroupWrapper()
    assert (
        isinstance(w.data_version, DataVersion)
        and w.data_version is not SubscriptionGroupWrapper().data_version
    )
    none = SubscriptionGroupWrapper(None, None)
    assert none.subscription_group_table is None and none.data_version is None
    assert none.encode() == b"{}"


def test_subscription_is_stamped_when_made() -> None:
    lo = int(time.time() * 1000)
    s = SubscriptionData("T")
    assert lo <= s.sub_version <= int(time.time() * 1000)
    assert SubscriptionData("T", sub_version=0).sub_version == 0
    read = SubscriptionData.from_json_obj({"topic": "T"})
    assert lo <= read.sub_version <= int(time.time() * 1000)
    assert SubscriptionData.from_json_obj({"topic": "T", "subVersion": 7}).sub_version == 7


def test_equality_and_hash_as_before() -> None:
    assert Connection("a") == Connection("a") and Connection("a") != Connection("b")
    assert SubscriptionData("T", sub_version=1) == SubscriptionData("T", sub_version=1)
    assert SubscriptionData("T", sub_version=1) != SubscriptionData("T", sub_version=2)
    assert SubscriptionGroupConfig("G") == SubscriptionGroupConfig("G")
    assert SubscriptionGroupConfig("G") != SubscriptionGroupConfig("G", retry_max_times=3)
    assert ConsumerConnection() != ProducerConnection()  # same fields, different classes
    for unhashable in (
        Connection(),
        SubscriptionData(),
        ConsumerConnection(),
        ProducerConnection(),
        SubscriptionGroupConfig(),
        SubscriptionGroupWrapper(),
        GroupRetryPolicy(),
        CustomizedRetryPolicy(),
        ExponentialRetryPolicy(),
        SimpleSubscriptionData(),
        GroupList(),
        ResetOffsetBody(),
        ProcessQueueInfo(),
        ConsumeStatus(),
        ConsumerRunningInfo(),
        BrokerConsumeStats(None, [], 0),
    ):
        with pytest.raises(TypeError):
            hash(unhashable)
    a, b = RunningSubscription("T", "*"), RunningSubscription("T", "*")
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    assert a != RunningSubscription("T", "*", expression_type="SQL92")
    assert repr(Connection("id", version=1)) == (
        "Connection(client_addr=None, client_id='id', language=None, version=1)"
    )


def test_as_5x_is_a_copy_with_the_java_defaults() -> None:
    g = SubscriptionGroupConfig("G", retry_max_times=3, group_sys_flag=2)
    five = g.as_5x()
    assert g.consume_message_orderly is None and g.attributes is None  # the original is untouched
    assert five is not g and type(five) is SubscriptionGroupConfig
    assert (five.group_name, five.retry_max_times, five.group_sys_flag) == ("G", 3, 2)
    assert (five.consume_message_orderly, five.consume_timeout_minute, five.attributes) == (False, 15, {})
    assert five.group_retry_policy == GroupRetryPolicy() and five.subscription_data_set is None
    assert five.as_5x() == five


def test_copies_and_pickles() -> None:
    info = ConsumerRunningInfo(
        {"k": "v"},
        [RunningSubscription("T", "*")],
        {MessageQueue("T", "b", 0): ProcessQueueInfo(commit_offset=5)},
        {MessageQueue("T", "b", 1): PopProcessQueueInfo(2)},
        {"T": ConsumeStatus(1.5)},
        {},
        "stack",
    )
    cfg = SubscriptionGroupConfig(
        "G", subscription_data_set=[SimpleSubscriptionData("T", "TAG", "*")]
    ).as_5x()
    cc = ConsumerConnection([Connection("c")], {"T": SubscriptionData("T", sub_version=3)})
    for value in (info, cfg, cc, SubscriptionGroupWrapper({"G": cfg}, DataVersion(1, 2))):
        assert pickle.loads(pickle.dumps(value)) == value
        deep = copy.deepcopy(value)
        assert deep == value and deep is not value
    assert cc.with_(consume_type="CONSUME_POP").connection_set is cc.connection_set  # shallow, as replace
