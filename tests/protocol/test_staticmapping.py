"""The static-topic arithmetic: plans that add up, plans that do not, offsets across generations."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mqadmin.protocol import fastjson
from mqadmin.protocol import staticmapping as sm
from mqadmin.protocol.bodies.message_queue import MessageQueue
from mqadmin.protocol.bodies.static_topic import (
    LogicQueueMappingItem,
    TopicConfigAndQueueMapping,
    TopicQueueMappingDetail,
    TopicQueueMappingSerializeWrapper,
    TopicRemappingDetailWrapper,
)
from mqadmin.protocol.bodies.topic_stats import TopicOffset

NOW = 1_700_000_000_000
BROKERS = [f"broker-{c}" for c in "abcdef"]


def plan(queues: int, brokers: list[str], seed: int = 1) -> dict[str, TopicConfigAndQueueMapping]:
    configs: dict[str, TopicConfigAndQueueMapping] = {}
    sm.create_mapping("T", queues, brokers, configs, NOW, random.Random(seed))
    return configs


def leaders(configs: dict[str, TopicConfigAndQueueMapping]) -> dict[int, str]:
    out: dict[int, str] = {}
    for broker, cm in configs.items():
        assert cm.mapping_detail is not None
        for gid in sm.leader_id_map(cm.mapping_detail):
            assert gid not in out, f"logical queue {gid} led twice"
            out[gid] = broker
    return out


# ----------------------------------------------------------------------------------- allocation


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 64), st.integers(1, 5), st.integers(0, 1000))
def test_a_new_topic_spreads_its_queues_evenly_and_adds_up(queues: int, n: int, seed: int) -> None:
    configs = plan(queues, BROKERS[:n], seed)
    who = leaders(configs)
    assert sorted(who) == list(range(queues))
    counts = [sum(1 for b in who.values() if b == broker) for broker in BROKERS[:n]]
    assert max(counts) - min(counts) <= 1
    for cm in configs.values():  # physical queues 0..k-1, as many as it leads
        assert cm.mapping_detail is not None
        assert sorted(sm.leader_id_map(cm.mapping_detail).values()) == list(range(cm.config.write_queue_nums))
        assert cm.mapping_detail.epoch == NOW + 0 or cm.mapping_detail.epoch >= NOW
    sm.check_plan("T", configs)


def test_growing_keeps_every_existing_queue_where_it_is() -> None:
    configs = plan(4, BROKERS[:2])
    before = leaders(configs)
    epoch = next(iter(configs.values())).mapping_detail.epoch  # type: ignore[union-attr]
    sm.create_mapping("T", 7, BROKERS[:2], configs, NOW, random.Random(2))
    after = leaders(configs)
    assert {g: after[g] for g in before} == before and sorted(after) == list(range(7))
    assert all(cm.mapping_detail.epoch == epoch + 1000 for cm in configs.values())  # type: ignore[union-attr]
    with pytest.raises(sm.MappingError, match="Cannot decrease the queue num"):
        sm.create_mapping("T", 3, BROKERS[:2], sm.copy_plan(configs), NOW)
    with pytest.raises(sm.MappingError, match="equal the existed queue num"):
        sm.create_mapping("T", 7, BROKERS[:2], sm.copy_plan(configs), NOW)
    with pytest.raises(sm.MappingError, match="does not in target brokers"):
        sm.create_mapping("T", 9, BROKERS[:1], sm.copy_plan(configs), NOW)


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 40), st.integers(1, 4), st.sets(st.integers(0, 5), min_size=1, max_size=4))
def test_a_remapping_makes_the_targets_lead_every_queue_and_still_adds_up(
    queues: int, n: int, target_ids: set[int]
) -> None:
    configs = plan(queues, BROKERS[:n])
    targets = [BROKERS[i] for i in sorted(target_ids)]
    before = leaders(configs)
    w = sm.remap("T", configs, targets, NOW + 5000)
    after = leaders(w.broker_config_map)
    assert sorted(after) == list(range(queues)) and set(after.values()) <= set(targets)
    moved = {g for g in before if before[g] != after[g]}
    assert set(w.broker_to_map_in) == {after[g] for g in moved}
    assert set(w.broker_to_map_out) == {before[g] for g in moved}
    for g in moved:  # the new generation comes after the old one, its logic offset still open
        items = w.broker_config_map[after[g]].mapping_detail.hosted_queues[g]  # type: ignore[union-attr,index]
        assert [i.gen for i in items] == [0, 1] and items[-1].logic_offset == -1
    sm.check_plan("T", w.broker_config_map)


@settings(max_examples=80, deadline=None)
@given(st.integers(1, 12), st.lists(st.integers(0, 123_456), min_size=12, max_size=12))
def test_a_moved_queue_continues_after_its_last_offset(queues: int, tops: list[int]) -> None:
    configs = plan(queues, ["broker-a"])
    w = sm.remap("T", configs, ["broker-b"], NOW + 5000)

    def max_offset(mq: MessageQueue) -> int:
        return tops[mq.queue_id]

    sm.decide_logic_offsets("T", w.broker_config_map, w.broker_to_map_out, max_offset)
    detail = w.broker_config_map["broker-b"].mapping_detail
    assert detail is not None
    for items in (detail.hosted_queues or {}).values():
        old, new = items
        last = sm.static_offset_strictly(old, tops[old.queue_id])
        assert new.logic_offset > last and new.logic_offset % sm.DEFAULT_BLOCK_SEQ_SIZE == 0
        sm.check_item_offsets(items)
        # a logical offset finds its generation, and maps back to itself
        for logical in (0, last - 1, new.logic_offset, new.logic_offset + 7):
            if logical < 0:
                continue
            item = sm.find_item(items, logical, True)
            assert item is (new if logical >= new.logic_offset else old)
            assert sm.static_offset_strictly(item, sm.physical_offset(item, logical)) == logical


def test_block_round_up_is_javas() -> None:
    assert [sm.block_seq_round_up(x) for x in (0, 1, 4999, 5000, 9999, 10000, 15001)] == [
        10000,
        10000,
        10000,
        20000,
        20000,
        20000,
        30000,
    ]


# ----------------------------------------------------------------------------------- does not add up


def _first_gid(cm: TopicConfigAndQueueMapping) -> int:
    assert cm.mapping_detail is not None and cm.mapping_detail.hosted_queues
    return min(cm.mapping_detail.hosted_queues)


def test_plans_that_do_not_add_up_are_refused_with_javas_reason() -> None:
    good = plan(4, BROKERS[:2])
    a, b = BROKERS[:2]

    dup = sm.copy_plan(good)  # broker-b also claims one of broker-a's logical queues
    gid = _first_gid(dup[a])
    item = LogicQueueMappingItem(0, 9, b, 0, 0)
    dup[b].mapping_detail.hosted_queues[gid] = [item]  # type: ignore[union-attr,index]
    with pytest.raises(sm.MappingError, match="duplicated"):
        sm.check_plan("T", dup)

    missing = sm.copy_plan(good)  # a logical queue nobody leads
    del missing[a].mapping_detail.hosted_queues[_first_gid(missing[a])]  # type: ignore[union-attr]
    with pytest.raises(sm.MappingError, match="does not match the real hosted queues 4 != 3"):
        sm.check_plan("T", missing)

    negative = sm.copy_plan(good)
    for cm in negative.values():
        cm.mapping_detail.epoch = -5  # type: ignore[union-attr]
    with pytest.raises(sm.MappingError, match="epoch -5 is negative"):
        sm.check_plan("T", negative)

    skew = sm.copy_plan(good)
    skew[a].mapping_detail.epoch += 1  # type: ignore[union-attr]
    with pytest.raises(sm.MappingError, match="epoch does not match"):
        sm.check_plan("T", skew)

    huge = sm.copy_plan(good)
    for cm in huge.values():
        cm.mapping_detail.total_queues = 5000  # type: ignore[union-attr]
    with pytest.raises(sm.MappingError, match="1 to 1024"):
        sm.check_plan("T", huge)

    out_of_range = sm.copy_plan(good)
    out_of_range[a].mapping_detail.hosted_queues[77] = [LogicQueueMappingItem(0, 5, a)]  # type: ignore[union-attr,index]
    with pytest.raises(sm.MappingError, match="out of range"):
        sm.check_plan("T", out_of_range)

    shared = sm.copy_plan(good)  # two logical queues on one physical queue
    ha = shared[a].mapping_detail.hosted_queues  # type: ignore[union-attr]
    assert ha is not None
    g1, g2 = sorted(ha)[:2]
    ha[g2][0].queue_id = ha[g1][0].queue_id
    with pytest.raises(sm.MappingError, match="shared the same physical queue"):
        sm.check_plan("T", shared)

    renamed = sm.copy_plan(good)
    renamed["broker-z"] = renamed.pop(a)
    with pytest.raises(sm.MappingError, match="The broker name is not equal broker-z != broker-a"):
        sm.check_plan("T", renamed)

    with pytest.raises(sm.MappingError, match="1 to 1024"):
        sm.check_queue_num(1025)
    with pytest.raises(sm.MappingError):
        sm.create_mapping("T", 0, BROKERS[:2], {}, NOW)


def test_generations_that_go_backwards_are_refused() -> None:
    ok = [LogicQueueMappingItem(0, 0, "a", 0, 0, 10), LogicQueueMappingItem(1, 0, "b", 10000, 0)]
    sm.check_item_offsets(ok)
    for bad, why in (
        (
            [LogicQueueMappingItem(1, 0, "a", 0), LogicQueueMappingItem(0, 0, "b", 10000)],
            "gen does not increase",
        ),
        ([LogicQueueMappingItem(0, 0, "a", 500), LogicQueueMappingItem(1, 0, "b", 100)], "does not increase"),
        (
            [LogicQueueMappingItem(0, 0, "a", -1), LogicQueueMappingItem(1, 0, "b", 100)],
            "negative logic offset",
        ),
        ([LogicQueueMappingItem(0, -1, "a", 0)], "should not be negative"),
        ([LogicQueueMappingItem(0, 0, "a", 0, 5, 2)], "endOffset is smaller"),
    ):
        with pytest.raises(sm.MappingError, match=why):
            sm.check_item_offsets(bad)


# ----------------------------------------------------------------------------------- the broker's merge


def _detail(epoch: int, hosted: dict[int, list[LogicQueueMappingItem]]) -> TopicQueueMappingDetail:
    return TopicQueueMappingDetail(topic="T", total_queues=2, bname="a", epoch=epoch, hosted_queues=hosted)


def test_a_broker_keeps_history_and_refuses_going_back() -> None:
    old = _detail(100, {0: [LogicQueueMappingItem(0, 0, "a", 0)], 1: [LogicQueueMappingItem(0, 1, "a", 0)]})
    newer = _detail(200, {0: [LogicQueueMappingItem(0, 0, "a", 0), LogicQueueMappingItem(1, 0, "b", -1)]})
    merged = sm.merge_broker_detail(old, newer, False)
    assert sorted(merged.hosted_queues or {}) == [0, 1]  # queue 1 kept: the new epoch left it out
    assert newer.hosted_queues is not None and 1 not in newer.hosted_queues  # the input is not changed
    with pytest.raises(sm.MappingError, match="small epoch 50 < 100"):
        sm.merge_broker_detail(old, _detail(50, {}), False)
    with pytest.raises(sm.MappingError, match="equal epoch with null data"):
        sm.merge_broker_detail(old, _detail(100, {0: old.hosted_queues[0]}), False)  # type: ignore[index]
    moved = _detail(100, {0: [LogicQueueMappingItem(0, 3, "a", 0)], 1: old.hosted_queues[1]})  # type: ignore[index]
    with pytest.raises(sm.MappingError, match="changed its broker, queue or start offset"):
        sm.merge_broker_detail(old, moved, False)
    forced = sm.merge_broker_detail(old, _detail(50, {}), True)
    assert sorted(forced.hosted_queues or {}) == [0, 1]


def test_check_broker_detail_refuses_what_is_not_this_brokers() -> None:
    d = _detail(1, {0: [LogicQueueMappingItem(0, 0, "a", 0)]})
    sm.check_broker_detail(d, "T", "a", 1)
    with pytest.raises(sm.MappingError, match="broker name is not equal"):
        sm.check_broker_detail(d, "T", "b", 1)
    with pytest.raises(sm.MappingError, match="topic name is not match"):
        sm.check_broker_detail(d, "U", "a", 1)
    with pytest.raises(sm.MappingError, match="overflow the write queues"):
        sm.check_broker_detail(d, "T", "a", 0)


# ----------------------------------------------------------------------------------- answers and views


def test_a_pull_at_the_end_of_an_old_generation_moves_on_to_the_next() -> None:
    items = [LogicQueueMappingItem(0, 1, "a", 0, 0, 3), LogicQueueMappingItem(1, 0, "b", 10000, 0)]
    detail = TopicQueueMappingDetail(topic="T", total_queues=1, bname="b", epoch=1, hosted_queues={0: items})
    got = sm.PullOffsets(sm.PULL_NOT_FOUND, 3, 0, 3)
    told = sm.rewrite_pull_answer(items, detail, 0, items[0], 3, got)
    assert told.code == sm.PULL_RETRY_IMMEDIATELY and told.next_begin_offset == 10000
    found = sm.rewrite_pull_answer(items, detail, 0, items[1], 0, sm.PullOffsets(0, 2, 0, 2))
    assert (found.code, found.next_begin_offset, found.min_offset, found.max_offset) == (
        0,
        10002,
        10000,
        10002,
    )
    assert found.offset_delta == 10000


def test_topic_stats_get_one_row_per_logical_queue() -> None:
    configs = plan(2, ["broker-a"])
    w = sm.remap("T", configs, ["broker-b"], NOW + 5000)
    sm.decide_logic_offsets("T", w.broker_config_map, w.broker_to_map_out, lambda mq: 3)
    physical = {
        MessageQueue("T", "broker-a", 0): TopicOffset(0, 3, 11),
        MessageQueue("T", "broker-a", 1): TopicOffset(0, 3, 12),
        MessageQueue("T", "broker-b", 0): TopicOffset(0, 1, 21),
        MessageQueue("T", "broker-b", 1): TopicOffset(0, 0, 0),
    }
    details = [cm.mapping_detail for cm in w.broker_config_map.values() if cm.mapping_detail]
    rows = sm.logical_topic_stats("T", details, physical)
    assert {mq.broker_name for mq in rows} == {"__syslo__global__"}
    assert sorted(r.max_offset for r in rows.values()) == [10000, 10001]
    assert all(r.min_offset == 0 for r in rows.values())


def test_the_plan_file_and_the_mapping_file_have_javas_shape() -> None:
    configs = plan(3, BROKERS[:2])
    w = TopicRemappingDetailWrapper("T", "CREATE_OR_UPDATE", NOW, configs, [], [])
    obj = fastjson.loads(w.encode())
    assert list(obj) == ["brokerConfigMap", "brokerToMapIn", "brokerToMapOut", "epoch", "topic", "type"]
    cm = obj["brokerConfigMap"]["broker-a"]
    assert "mappingDetail" in cm and cm["topicName"] == "T"
    assert set(cm["mappingDetail"]) >= {"bname", "epoch", "hostedQueues", "scope", "topic", "totalQueues"}
    back = TopicRemappingDetailWrapper.decode(w.encode())
    assert back.encode() == w.encode()
    wrapper = TopicQueueMappingSerializeWrapper({"T": configs["broker-a"].mapping_detail})  # type: ignore[dict-item]
    assert list(fastjson.loads(wrapper.encode())) == ["topicQueueMappingInfoMap"]


# ----------------------------------------------------------------------------------- hostile bytes

_JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=False)
    | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner, max_size=5),
    max_leaves=20,
)
_KEYS = st.sampled_from(
    [
        "topic",
        "bname",
        "epoch",
        "totalQueues",
        "scope",
        "dirty",
        "hostedQueues",
        "currIdMap",
        "gen",
        "queueId",
    ]
)


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(_KEYS, _JSON, max_size=6) | _JSON)
def test_bad_bodies_raise_protocol_error_or_mapping_error_only(value: object) -> None:
    """What a broker gets in a 513 body, or the tool in a plan file: our error or a value, nothing else."""
    from mqadmin.protocol.errors import ProtocolError

    raw = fastjson.dumps(value).encode()
    for decode in (TopicQueueMappingDetail.decode, TopicRemappingDetailWrapper.decode):
        try:
            got = decode(raw)
        except ProtocolError:
            continue
        if isinstance(got, TopicQueueMappingDetail):
            try:
                sm.check_broker_detail(got, "T", "a", 8)
                sm.merge_broker_detail(None, got, False)
            except sm.MappingError:
                pass
        else:
            try:
                sm.check_plan("T", got.broker_config_map)
            except sm.MappingError:
                pass


_NUM = st.integers(-3, 3) | st.integers(-(2**63), 2**63 - 1) | st.none()
_ITEM = st.fixed_dictionaries(
    {},
    optional={
        "gen": _NUM,
        "queueId": _NUM,
        "bname": st.sampled_from(["a", "b", "", "../x", None]),
        "logicOffset": _NUM,
        "startOffset": _NUM,
        "endOffset": _NUM,
    },
)
_DETAIL = st.fixed_dictionaries(
    {"topic": st.sampled_from(["T", "U"]), "bname": st.sampled_from(["a", "b"])},
    optional={
        "epoch": _NUM,
        "totalQueues": _NUM,
        "scope": st.sampled_from(["__global__", "other", None]),
        "dirty": st.booleans(),
        "hostedQueues": st.dictionaries(st.integers(-2, 9), st.lists(_ITEM, max_size=3), max_size=4),
    },
)


@settings(max_examples=300, deadline=None)
@given(_DETAIL, _DETAIL)
def test_detail_shaped_bodies_are_kept_only_when_they_add_up(first: dict, second: dict) -> None:
    """Almost-right details: refused with our errors, or kept and then consistent with themselves."""
    from mqadmin.protocol.errors import ProtocolError

    try:
        old = TopicQueueMappingDetail.decode(fastjson.dumps(first).encode())
        new = TopicQueueMappingDetail.decode(fastjson.dumps(second).encode())
    except ProtocolError:
        return
    try:
        sm.check_broker_detail(new, "T", "a", 8)
        kept = sm.merge_broker_detail(old, new, False)
    except sm.MappingError:
        return
    assert kept.epoch == new.epoch >= 0 and kept.topic == "T" and kept.bname == "a"
    for gid, items in (kept.hosted_queues or {}).items():
        assert 0 <= gid < new.total_queues or gid in (old.hosted_queues or {})
        assert items
