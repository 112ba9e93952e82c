"""The declared group, stats and connection bodies on generated values, friendly and hostile.

Each round trip is ``decode(encode(x)) == x`` in both JSON forms, where ``x`` is the value as read:
a null member whose absence reads as something else (an empty table, ``CUSTOMIZED``, ``TAG``) is
expected back as that. Java sets are generated in Java's order, which is the order they are written
and read back in. Objects with the declared members holding values of any JSON type either raise
:class:`ProtocolError` or read as a value that reads back as itself. The hand-written readers and
text encoders beside the declarations are held to the declaration's answer: the same value or the
same error, the same text.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mqadmin.protocol import fastjson
from mqadmin.protocol.bodies import connection, consume_stats, group, topic_stats
from mqadmin.protocol.bodies import fieldcheck as j
from mqadmin.protocol.bodies.connection import (
    Connection,
    ConsumerConnection,
    ProducerConnection,
    SubscriptionData,
)
from mqadmin.protocol.bodies.consume_stats import ConsumeStats, OffsetWrapper
from mqadmin.protocol.bodies.dataversion import DataVersion
from mqadmin.protocol.bodies.declared import DeclaredBody, from_json, java_view, members, to_json
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
from mqadmin.protocol.bodies.topic_stats import TopicOffset, TopicStatsTable
from mqadmin.protocol.errors import ProtocolError
from mqadmin.protocol.javacoll import java_hash_order

DECLARED = [getattr(m, name) for m in (group, topic_stats, consume_stats, connection) for name in m.__all__]

text = st.text(
    st.characters(codec="utf-8", exclude_categories=["Cs"], exclude_characters="\x00"), max_size=10
)
int32s = st.integers(j.INT_MIN, j.INT_MAX)
int64s = st.integers(j.LONG_MIN, j.LONG_MAX)
doubles = st.floats(allow_nan=False, allow_infinity=False)


def opt(s: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return st.none() | s


def java_set(s: st.SearchStrategy[Any]) -> st.SearchStrategy[list[Any]]:
    """A ``HashSet`` as written: each value once, in Java's iteration order."""
    return st.lists(s, unique=True, max_size=6).map(java_hash_order)


exponential = st.builds(ExponentialRetryPolicy, int64s, int64s, int64s)
customized = st.builds(CustomizedRetryPolicy, opt(st.lists(int64s, max_size=5)))
retry_policies = st.builds(GroupRetryPolicy, opt(text), opt(exponential), opt(customized))
simple_subs = st.builds(SimpleSubscriptionData, opt(text), opt(text), opt(text), int64s)
sub_sets = st.lists(simple_subs, max_size=4, unique_by=lambda s: (s.topic, s.expression_type, s.expression))
group_configs = st.builds(
    SubscriptionGroupConfig,
    opt(text),
    st.booleans(),
    st.booleans(),
    st.booleans(),
    int32s,
    int32s,
    int64s,
    int64s,
    st.booleans(),
    opt(st.booleans()),
    opt(retry_policies),
    opt(int32s),
    opt(int32s),
    opt(sub_sets.map(group._sub_order)),
    opt(st.dictionaries(text, text, max_size=3)),
)
data_versions = st.builds(DataVersion, int64s, int64s, opt(int64s))
group_wrappers = st.builds(
    SubscriptionGroupWrapper,
    opt(st.dictionaries(text, group_configs, max_size=4)),
    data_versions,  # never None here: an absent one reads as a new version, stamped now
    opt(st.dictionaries(text, st.dictionaries(text, int32s, max_size=3), max_size=3)),
)
queues = st.builds(MessageQueue, opt(text), opt(text), int32s)
topic_offsets = st.builds(TopicOffset, int64s, int64s, int64s)
topic_stats = st.builds(TopicStatsTable, st.dictionaries(queues, topic_offsets, max_size=16), opt(doubles))
offset_wrappers = st.builds(OffsetWrapper, int64s, int64s, int64s, opt(int64s))
consume_stats = st.builds(ConsumeStats, st.dictionaries(queues, offset_wrappers, max_size=16), doubles)
connections = st.builds(Connection, opt(text), opt(text), opt(text), int32s)
subscriptions = st.builds(
    SubscriptionData,
    opt(text),
    opt(text),
    opt(java_set(text)),
    opt(java_set(int32s)),
    int64s,
    opt(text),
    st.booleans(),
)
consumer_connections = st.builds(
    ConsumerConnection,
    st.lists(connections, max_size=4),
    st.dictionaries(text, subscriptions, max_size=4),
    opt(text),
    opt(text),
    opt(text),
)
producer_connections = st.builds(ProducerConnection, st.lists(connections, max_size=4))

VALUES: dict[type, st.SearchStrategy[Any]] = {
    ExponentialRetryPolicy: exponential,
    CustomizedRetryPolicy: customized,
    GroupRetryPolicy: retry_policies,
    SimpleSubscriptionData: simple_subs,
    SubscriptionGroupConfig: group_configs,
    SubscriptionGroupWrapper: group_wrappers,
    TopicOffset: topic_offsets,
    TopicStatsTable: topic_stats,
    OffsetWrapper: offset_wrappers,
    ConsumeStats: consume_stats,
    Connection: connections,
    SubscriptionData: subscriptions,
    ConsumerConnection: consumer_connections,
    ProducerConnection: producer_connections,
}


HASH_SETS = {(SubscriptionData, "tags_set"), (SubscriptionData, "code_set")}
"""Members that are Java ``HashSet`` s: written in Java's hash order whatever order they were read in."""


def as_read(v: Any) -> Any:
    """``v`` as a reader makes it from ``v``'s encoding: a null member with a value for absence comes
    back as that value, and a hash set comes back in Java's hash order."""
    if isinstance(v, DeclaredBody):
        changes = {}
        for m in members(type(v)):
            x = getattr(v, m.attr)
            if x is None and m.absent is not None:
                changes[m.attr] = m.read(m.absent, m.java)
            elif x is not None and (type(v), m.attr) in HASH_SETS:
                changes[m.attr] = java_hash_order(x)
            else:
                changes[m.attr] = as_read(x)
        return dataclasses.replace(v, **changes)
    if isinstance(v, list):
        return [as_read(x) for x in v]
    if isinstance(v, dict):
        return {k: as_read(x) for k, x in v.items()}
    return v


def test_every_type_of_the_modules_is_declared_with_every_field() -> None:
    assert set(VALUES) == set(DECLARED)
    for kind in DECLARED:
        assert issubclass(kind, DeclaredBody), kind
        assert {m.attr for m in members(kind)} == {f.name for f in dataclasses.fields(kind)}, kind


@pytest.mark.parametrize("kind", list(VALUES), ids=lambda k: k.__name__)
def test_round_trip_in_both_forms(kind: type) -> None:
    @settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(VALUES[kind], st.booleans())
    def check(value: Any, standard: bool) -> None:
        expected = as_read(value)
        assert kind.decode(value.encode(standard)) == expected  # type: ignore[attr-defined]
        assert kind.from_json_obj(value.to_json_obj(standard)) == expected  # type: ignore[attr-defined]

    check()


def _hostile(kind: type) -> st.SearchStrategy[dict[str, Any]]:
    """Objects with the declared members (and their members' members) holding any JSON value."""
    names = sorted({m.java for k in DECLARED for m in members(k)} | {"topic", "brokerName", "queueId"})
    mq_keys = st.builds(
        lambda t, b, q: fastjson.ObjectKey({"brokerName": b, "queueId": q, "topic": t}), text, text, int32s
    )
    leaf = (
        st.none()
        | st.booleans()
        | st.integers(-(1 << 65), 1 << 65)
        | st.floats(allow_nan=False)
        | text
        | st.sampled_from(["12", "-3", "99999999999999999999", "CUSTOMIZED"])
    )
    values = st.recursive(
        leaf,
        lambda inner: (
            st.lists(inner, max_size=3)
            | st.dictionaries(st.sampled_from(names) | text | mq_keys, inner, max_size=4)
        ),
        max_leaves=12,
    )
    own = sorted(m.java for m in members(kind))
    return st.dictionaries(st.sampled_from(own) | st.sampled_from(names), values, max_size=6)


@pytest.mark.parametrize("kind", list(VALUES), ids=lambda k: k.__name__)
def test_hostile_members_raise_protocol_error_or_read_back_equal(kind: type) -> None:
    @settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(_hostile(kind))
    def check(obj: dict[str, Any]) -> None:
        try:
            value = kind.from_json_obj(obj)  # type: ignore[attr-defined]
        except ProtocolError:
            return
        assert kind.decode(value.encode()) == as_read(value)  # type: ignore[attr-defined]

    check()


def test_absent_and_null_members_read_as_java_does() -> None:
    assert SubscriptionGroupConfig.from_json_obj({}) == SubscriptionGroupConfig()
    nulls = {m.java: None for m in members(SubscriptionGroupConfig)}
    assert SubscriptionGroupConfig.from_json_obj(nulls) == SubscriptionGroupConfig()  # Java's defaults
    assert CustomizedRetryPolicy.from_json_obj({}).next == list(DEFAULT_RETRY_DELAYS_MS)
    assert CustomizedRetryPolicy.from_json_obj({"next": None}).next is None
    assert GroupRetryPolicy.from_json_obj({}).type == "CUSTOMIZED"
    assert GroupRetryPolicy.from_json_obj({"type": None}).type is None
    assert ExponentialRetryPolicy.from_json_obj({"initial": None}) == ExponentialRetryPolicy()
    sub = SubscriptionData.from_json_obj({"subVersion": 7})
    assert (sub.tags_set, sub.code_set, sub.expression_type) == ([], [], "TAG")
    sub = SubscriptionData.from_json_obj({"subVersion": 7, "tagsSet": None, "expressionType": None})
    assert (sub.tags_set, sub.expression_type) == (None, None)
    wrapper = SubscriptionGroupWrapper.from_json_obj({})
    assert wrapper.subscription_group_table == {} and wrapper.data_version is not None
    assert SubscriptionGroupWrapper.from_json_obj({"dataVersion": None}).data_version is None
    assert ConsumerConnection.from_json_obj({"connectionSet": None, "subscriptionTable": None}) == (
        ConsumerConnection()
    )
    assert TopicStatsTable.from_json_obj({"offsetTable": None}) == TopicStatsTable()


def test_bad_members_raise_protocol_error_naming_them() -> None:
    cases: list[tuple[type, dict[str, Any], str]] = [
        (SubscriptionGroupConfig, {"retryQueueNums": 1 << 31}, "retryQueueNums"),
        (SubscriptionGroupConfig, {"consumeEnable": "true"}, "consumeEnable"),
        (SubscriptionGroupConfig, {"groupRetryPolicy": []}, "groupRetryPolicy"),
        (SubscriptionGroupConfig, {"subscriptionDataSet": [None]}, "subscriptionDataSet[0]"),
        (GroupRetryPolicy, {"customizedRetryPolicy": {"next": ["x"]}}, "next[0]"),
        (SubscriptionGroupWrapper, {"forbiddenTable": {"g": {"t": "1"}}}, "forbiddenTable['g']"),
        (ConsumeStats, {"offsetTable": {"not a queue": {}}}, "offsetTable key"),
        (TopicStatsTable, {"topicPutTps": "fast"}, "topicPutTps"),
        (SubscriptionData, {"tagsSet": [1]}, "tagsSet"),
        (ConsumerConnection, {"connectionSet": [{"version": 1.5}]}, "version"),
    ]
    for kind, obj, named in cases:
        with pytest.raises(ProtocolError, match=named.replace("[", r"\[")):
            kind.from_json_obj(obj)  # type: ignore[attr-defined]


@given(topic_stats, st.booleans())
def test_the_stats_tables_hand_written_part_writes_the_declared_members(
    table: TopicStatsTable, standard: bool
) -> None:
    """A 5.x table differs from the declaration's object only in the order of its queues."""
    ours, declared = table.to_json_obj(standard), to_json(table, standard)
    assert ours == declared and list(ours) == list(declared)
    if table.topic_put_tps is None:
        assert list(ours["offsetTable"]) == list(declared["offsetTable"])


@given(group_configs)
def test_the_java_view_of_a_group_is_the_5x_bean(cfg: SubscriptionGroupConfig) -> None:
    """The 5.3.3 tool's bean holds Java's defaults where a 4.x broker sent none: as ``as_5x`` does."""
    view = java_view(cfg, dict, lambda v: v)
    assert view == java_view(cfg.as_5x(), dict, lambda v: v)
    assert {"consumeMessageOrderly", "groupSysFlag", "consumeTimeoutMinute", "attributes"} <= set(view)
    policy = GroupRetryPolicy() if cfg.group_retry_policy is None else cfg.group_retry_policy
    assert view["groupRetryPolicy"] == java_view(policy, dict, lambda v: v)


@given(consume_stats | topic_stats)
def test_the_java_view_of_stats_fills_the_5x_members(value: ConsumeStats | TopicStatsTable) -> None:
    view = java_view(value, dict, lambda v: v)
    if isinstance(value, TopicStatsTable):
        assert view["topicPutTps"] == (0.0 if value.topic_put_tps is None else value.topic_put_tps)
    for mq, shown in view["offsetTable"].items():
        if isinstance(value, ConsumeStats):
            pull = value.offset_table[mq].pull_offset
            assert shown["pullOffset"] == (0 if pull is None else pull)


# ---------------------------------------------------------------------- the group table's fast paths

hostile_text = st.text(st.characters(exclude_categories=["Cs"]), max_size=10)
hostile_configs = st.builds(
    SubscriptionGroupConfig,
    opt(hostile_text),
    consume_message_orderly=opt(st.booleans()),
    group_retry_policy=opt(st.builds(GroupRetryPolicy, opt(hostile_text), opt(exponential), opt(customized))),
    subscription_data_set=opt(
        st.lists(st.builds(SimpleSubscriptionData, opt(hostile_text), opt(hostile_text)), max_size=3)
    ),
    attributes=opt(st.dictionaries(hostile_text, hostile_text, max_size=4)),
)


@given(group_configs | hostile_configs, st.booleans())
def test_the_group_text_encoders_write_the_declared_object(
    cfg: SubscriptionGroupConfig, standard: bool
) -> None:
    assert cfg.encode(standard).decode() == fastjson.dumps(to_json(cfg, standard), standard=standard)
    wrapper = SubscriptionGroupWrapper({"g": cfg, "h": dataclasses.replace(cfg, group_name="h")})
    declared = fastjson.dumps(to_json(wrapper, standard), standard=standard)
    assert wrapper.encode(standard).decode() == declared


@given(group_wrappers, st.booleans())
def test_the_group_table_encoder_writes_the_declared_object(
    wrapper: SubscriptionGroupWrapper, standard: bool
) -> None:
    declared = fastjson.dumps(to_json(wrapper, standard), standard=standard)
    assert wrapper.encode(standard).decode() == declared


def _read(read: Any, obj: Any) -> tuple[str, Any]:
    try:
        return "value", read(obj)
    except ProtocolError as e:
        return "error", str(e)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(group_configs.map(lambda c: c.to_json_obj()) | _hostile(SubscriptionGroupConfig) | st.none() | text)
def test_the_group_reader_reads_as_the_declaration(obj: dict[str, Any]) -> None:
    """The same value, or the same error naming the same member, as the declaration's reader."""
    ours = _read(SubscriptionGroupConfig.from_json_obj, obj)
    assert ours == _read(lambda o: from_json(SubscriptionGroupConfig, o, "SubscriptionGroupConfig"), obj)


HAND_READ = {
    GroupRetryPolicy: retry_policies,
    TopicOffset: topic_offsets,
    OffsetWrapper: offset_wrappers,
}


@pytest.mark.parametrize("kind", list(HAND_READ), ids=lambda k: k.__name__)
def test_the_other_hand_written_readers_read_as_the_declaration(kind: type) -> None:
    @settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(HAND_READ[kind].map(lambda v: v.to_json_obj()) | _hostile(kind) | st.none() | text)
    def check(obj: Any) -> None:
        ours = _read(kind.from_json_obj, obj)  # type: ignore[attr-defined]
        assert ours == _read(lambda o: from_json(kind, o, kind.__name__), obj)

    check()


# ---------------------------------------------------------------------- the stats tables' encoders

hostile_queues = st.builds(MessageQueue, opt(hostile_text), opt(hostile_text), int32s)
hostile_stats = st.builds(
    TopicStatsTable,
    st.dictionaries(hostile_queues, topic_offsets, max_size=30),
    opt(st.floats() | st.integers(-5, 5)),
) | st.builds(
    ConsumeStats,
    st.dictionaries(hostile_queues, offset_wrappers, max_size=30),
    st.floats() | st.integers(-5, 5),
)


@given(topic_stats | consume_stats | hostile_stats, st.booleans())
def test_the_stats_text_encoders_write_the_declared_object(
    value: TopicStatsTable | ConsumeStats, standard: bool
) -> None:
    assert value.encode(standard).decode() == fastjson.dumps(value.to_json_obj(standard), standard=standard)
    for row in value.offset_table.values():
        assert row._text() == fastjson.dumps(to_json(row))
