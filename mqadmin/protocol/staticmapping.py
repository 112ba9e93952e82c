"""Static topics, the arithmetic: which broker leads which logical queue, and does a mapping add up.

A static topic has a fixed number of logical queues (``totalQueues``). Each logical queue lives on
one physical queue of one broker at a time; a remapping moves it and appends a *generation* (a
:class:`LogicQueueMappingItem`) whose ``logicOffset`` is where its logical offsets start, so a
logical queue's offsets keep growing across brokers. Every broker that hosts or hosted a logical
queue keeps a :class:`TopicQueueMappingDetail`; the last item of a queue's list names its leader.

This module is Java's ``TopicQueueMappingUtils``, ``LogicQueueMappingItem``'s offset methods,
``TopicQueueMappingManager.updateTopicQueueMapping``'s checks and ``MQAdminUtils``'s stats view,
with no I/O: the tool plans with it, the broker checks with it, and both use the same errors
(:class:`MappingError`, Java's messages). Beyond Java it also refuses what Java lets through
(a negative epoch, more than :data:`~mqadmin.protocol.names.QUEUE_NUMS_MAX` queues, a logical
queue id outside ``0..totalQueues-1``, an item naming no broker), so a plan that does not add up
is refused before anything is written.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass

from mqadmin.protocol import names
from mqadmin.protocol.bodies.message_queue import MessageQueue
from mqadmin.protocol.bodies.static_topic import (
    METADATA_SCOPE_GLOBAL,
    TYPE_CREATE_OR_UPDATE,
    TYPE_REMAPPING,
    LogicQueueMappingItem,
    TopicConfigAndQueueMapping,
    TopicQueueMappingDetail,
    TopicQueueMappingInfo,
    TopicRemappingDetailWrapper,
)
from mqadmin.protocol.bodies.topic import TopicConfig
from mqadmin.protocol.bodies.topic_stats import TopicOffset
from mqadmin.protocol.javacoll import java_hash_order

__all__ = [
    "DEFAULT_BLOCK_SEQ_SIZE",
    "MOCK_BROKER_PREFIX",
    "MappingError",
    "MappingOne",
    "PullOffsets",
    "block_seq_round_up",
    "check_and_build",
    "check_broker_detail",
    "check_item_offsets",
    "check_name_epoch_num",
    "check_physical_consistence",
    "check_plan",
    "check_queue_num",
    "complete_non_target_brokers",
    "copy_plan",
    "create_mapping",
    "decide_logic_offsets",
    "end_offset_decided",
    "find_item",
    "find_next",
    "leader_id_map",
    "logical_topic_stats",
    "mapping_info",
    "max_static_offset",
    "merge_broker_detail",
    "mock_broker_name",
    "physical_offset",
    "remap",
    "rewrite_pull_answer",
    "static_offset_loosely",
    "static_offset_strictly",
]

DEFAULT_BLOCK_SEQ_SIZE = 10000
"""``TopicQueueMappingUtils.DEFAULT_BLOCK_SEQ_SIZE``: a new generation starts on such a boundary."""
MOCK_BROKER_PREFIX = "__syslo__"
"""``MixAll.LOGICAL_QUEUE_MOCK_BROKER_PREFIX``: the broker name logical queues are listed under."""


class MappingError(ValueError):
    """A static-topic mapping that does not add up (the message is Java's where Java has one)."""


def mock_broker_name(scope: str | None) -> str:
    """``getMockBrokerName``: ``__syslo__global__`` for the global scope."""
    scope = scope or METADATA_SCOPE_GLOBAL
    return MOCK_BROKER_PREFIX + (scope[2:] if scope == METADATA_SCOPE_GLOBAL else scope)


# ------------------------------------------------------------------------------ one generation


def static_offset_loosely(item: LogicQueueMappingItem, physical: int) -> int:
    """``computeStaticQueueOffsetLoosely``: the logical offset of a physical one (-1: undecided)."""
    if item.logic_offset < 0:
        return -1
    if physical < item.start_offset:
        return item.logic_offset
    if item.start_offset <= item.end_offset < physical:
        return item.logic_offset + item.end_offset - item.start_offset
    return item.logic_offset + physical - item.start_offset


def static_offset_strictly(item: LogicQueueMappingItem, physical: int) -> int:
    """``computeStaticQueueOffsetStrictly``."""
    if physical < item.start_offset:
        return item.logic_offset
    return item.logic_offset + physical - item.start_offset


def physical_offset(item: LogicQueueMappingItem, logical: int) -> int:
    """``computePhysicalQueueOffset``."""
    return logical - item.logic_offset + item.start_offset


def max_static_offset(item: LogicQueueMappingItem) -> int:
    """``computeMaxStaticQueueOffset``."""
    if item.end_offset >= item.start_offset:
        return item.logic_offset + item.end_offset - item.start_offset
    return item.logic_offset


def end_offset_decided(item: LogicQueueMappingItem) -> bool:
    return item.end_offset > item.start_offset


def block_seq_round_up(offset: int, block: int = DEFAULT_BLOCK_SEQ_SIZE) -> int:
    """``blockSeqRoundUp``: the next block boundary, skipping one when past half a block."""
    num, left = offset // block, offset % block
    return (num + 1) * block if left < block // 2 else (num + 2) * block


def find_item(
    items: list[LogicQueueMappingItem] | None, logic_offset: int, ignore_negative: bool
) -> LogicQueueMappingItem | None:
    """``findLogicQueueMappingItem``: the generation holding ``logic_offset`` (else the earliest)."""
    if not items:
        return None
    for item in reversed(items):
        if ignore_negative and item.logic_offset < 0:
            continue
        if logic_offset >= item.logic_offset:
            return item
    for item in items:
        if not (ignore_negative and item.logic_offset < 0):
            return item
    return None


def find_next(
    items: list[LogicQueueMappingItem] | None, current: LogicQueueMappingItem | None, ignore_negative: bool
) -> LogicQueueMappingItem | None:
    """``findNext``: the generation after ``current``."""
    if items is None or current is None:
        return None
    for i, item in enumerate(items):
        if ignore_negative and item.logic_offset < 0:
            continue
        if item.gen == current.gen:
            if i == len(items) - 1:
                return None
            nxt = items[i + 1]
            return None if ignore_negative and nxt.logic_offset < 0 else nxt
    return None


# ------------------------------------------------------------------------------ one broker's view


def leader_id_map(detail: TopicQueueMappingDetail) -> dict[int, int]:
    """``buildIdMap(LEVEL_0)``: logical → physical queue id of the queues this broker leads."""
    out: dict[int, int] = {}
    for gid in sorted(detail.hosted_queues or {}):
        items = (detail.hosted_queues or {})[gid]
        if items and items[-1].bname == detail.bname:
            out[gid] = items[-1].queue_id
    return out


def mapping_info(detail: TopicQueueMappingDetail) -> TopicQueueMappingInfo:
    """``cloneAsMappingInfo``: what a broker registers with the name servers."""
    return TopicQueueMappingInfo(
        topic=detail.topic,
        scope=detail.scope,
        total_queues=detail.total_queues,
        bname=detail.bname,
        epoch=detail.epoch,
        dirty=detail.dirty,
        curr_id_map=leader_id_map(detail),
    )


def check_item_offsets(items: list[LogicQueueMappingItem] | None) -> None:
    """``checkLogicQueueMappingItemOffset``: generations and offsets grow, nothing negative."""
    if not items:
        return
    last_gen = -1
    last_offset = -1
    n = len(items)
    for i in range(n - 1, -1, -1):
        item = items[i]
        if item.start_offset < 0 or item.gen < 0 or item.queue_id < 0:
            raise MappingError("The field is illegal, should not be negative")
        if not item.bname:
            raise MappingError("The broker name of a mapping item is empty")
        if n >= 2 and i <= n - 2 and item.logic_offset < 0:
            raise MappingError("The non-latest item has negative logic offset")
        if last_gen != -1 and item.gen >= last_gen:
            raise MappingError("The gen does not increase monotonically")
        if item.end_offset != -1 and item.end_offset < item.start_offset:
            raise MappingError("The endOffset is smaller than the start offset")
        if last_offset != -1 and item.logic_offset != -1:
            if item.logic_offset >= last_offset:
                raise MappingError("The base logic offset does not increase monotonically")
            if max_static_offset(item) >= last_offset:
                raise MappingError("The max logic offset does not increase monotonically")
        last_gen = item.gen
        last_offset = item.logic_offset


def check_queue_num(n: int, what: str = "total queue num") -> None:
    """A static topic has 1 to ``QUEUE_NUMS_MAX`` logical queues (Java has no upper bound)."""
    if not 1 <= n <= names.QUEUE_NUMS_MAX:
        raise MappingError(
            f"{what} {n} is out of range: a static topic has 1 to {names.QUEUE_NUMS_MAX} queues"
        )


def _check_detail_fields(detail: TopicQueueMappingDetail, where: str) -> None:
    """What Java leaves unchecked: the epoch, the queue count, the logical ids, the broker names."""
    if detail.epoch < 0:
        raise MappingError(f"The epoch {detail.epoch} is negative in broker {where}")
    if detail.total_queues != 0:  # 0: a broker of the cluster that hosts none of the queues yet
        check_queue_num(detail.total_queues)
    if detail.scope is None:
        raise MappingError(f"The scope is null in broker {where}")
    for gid, items in (detail.hosted_queues or {}).items():
        if not 0 <= gid < max(detail.total_queues, 0):
            raise MappingError(
                f"The logic queue id {gid} is out of range 0..{detail.total_queues - 1} in broker {where}"
            )
        if not items:
            raise MappingError(f"The logic queue {gid} has no mapping item in broker {where}")
        for item in items:
            if item.bname is not None and names.check_name("broker", item.bname) is not None:
                raise MappingError(f"The broker name {item.bname!r} of logic queue {gid} is illegal")


# ------------------------------------------------------------------------------ all brokers


def check_name_epoch_num(
    topic: str | None, configs: Mapping[str, TopicConfigAndQueueMapping]
) -> tuple[int, int]:
    """``checkNameEpochNumConsistence``: one topic, scope, epoch and queue count on every broker."""
    max_epoch = -1
    max_num = -1
    scope: str | None = None
    for broker in java_hash_order(configs):
        cm = configs[broker]
        detail = cm.mapping_detail
        if detail is None:
            raise MappingError(f"Mapping info should not be null in broker {broker}")
        if broker != detail.bname:
            raise MappingError(f"The broker name is not equal {broker} != {detail.bname} ")
        if detail.dirty:
            raise MappingError(f"The mapping info is dirty in broker  {broker}")
        if cm.topic_name != detail.topic:
            raise MappingError(f"The topic name is inconsistent in broker  {broker}")
        if topic is not None and topic != detail.topic:
            raise MappingError(f"The topic name is not match for broker  {broker}")
        _check_detail_fields(detail, broker)
        if scope is not None and scope != detail.scope:
            raise MappingError(f"scope does not match {detail.scope} != {scope} in {broker}")
        scope = detail.scope
        if max_epoch != -1 and max_epoch != detail.epoch:
            raise MappingError(f"epoch does not match {max_epoch} != {detail.epoch} in {detail.bname}")
        max_epoch = detail.epoch
        if max_num != -1 and max_num != detail.total_queues:
            raise MappingError(
                f"total queue number does not match {max_num} != {detail.total_queues} in {detail.bname}"
            )
        max_num = detail.total_queues
    return max_epoch, max_num


@dataclass(slots=True)
class MappingOne:
    """One logical queue as its leader sees it (``TopicQueueMappingOne``)."""

    topic: str | None
    bname: str | None
    global_id: int
    items: list[LogicQueueMappingItem]
    detail: TopicQueueMappingDetail


def copy_plan(configs: Mapping[str, TopicConfigAndQueueMapping]) -> dict[str, TopicConfigAndQueueMapping]:
    """A deep copy of brokers' configs and mappings (plans change theirs in place, as Java's do)."""
    return {k: TopicConfigAndQueueMapping.from_json_obj(v.to_json_obj()) for k, v in configs.items()}


def details_of(configs: Mapping[str, TopicConfigAndQueueMapping]) -> list[TopicQueueMappingDetail]:
    """``getMappingDetailFromConfig``, in the map's (HashMap) order."""
    out = []
    for broker in java_hash_order(configs):
        detail = configs[broker].mapping_detail
        if detail is not None:
            out.append(detail)
    return out


def check_and_build(
    details: Iterable[TopicQueueMappingDetail], replace: bool, check_consistence: bool
) -> dict[int, MappingOne]:
    """``checkAndBuildMappingItems``: each logical queue exactly once, led by the broker that says so."""
    ordered = sorted(details, key=lambda d: -d.epoch)
    max_num = 0
    global_ids: dict[int, MappingOne] = {}
    for detail in ordered:
        max_num = max(max_num, detail.total_queues)
        for gid in sorted(detail.hosted_queues or {}):
            items = (detail.hosted_queues or {})[gid]
            check_item_offsets(items)
            if not items:
                raise MappingError(f"The logic queue {gid} has no mapping item in broker {detail.bname}")
            leader = items[-1].bname
            if leader != detail.bname:
                continue
            if gid in global_ids:
                if not replace:
                    raise MappingError(f"The queue id is duplicated in broker {leader} {detail.bname}")
            else:
                global_ids[gid] = MappingOne(detail.topic, detail.bname, gid, items, detail)
    if check_consistence:
        if max_num != len(global_ids):
            raise MappingError(
                "The total queue number in config does not match the real hosted queues "
                f"{max_num} != {len(global_ids)}"
            )
        for i in range(max_num):
            if i not in global_ids:
                raise MappingError(f"The queue number {i} is not in globalIdMap")
    check_reuse_physical(global_ids.values())
    return global_ids


def check_reuse_physical(ones: Iterable[MappingOne]) -> None:
    """``checkIfReusePhysicalQueue``: no physical queue serves two logical ones."""
    seen: dict[str, MappingOne] = {}
    for one in ones:
        for item in one.items:
            key = f"{item.bname}-{item.queue_id}"
            other = seen.get(key)
            if other is not None:
                raise MappingError(
                    f"Topic {one.topic} global queue id {one.global_id} and {other.global_id} "
                    f"shared the same physical queue {key}"
                )
            seen[key] = one


def check_leaders_in(ones: Iterable[MappingOne], targets: Collection[str]) -> None:
    """``checkLeaderInTargetBrokers``."""
    for one in ones:
        if one.bname not in targets:
            raise MappingError("The leader broker does not in target broker")


def check_physical_consistence(configs: Mapping[str, TopicConfigAndQueueMapping]) -> None:
    """``checkPhysicalQueueConsistence``: items start at 0 and fit their broker's write queues."""
    for broker in java_hash_order(configs):
        cm = configs[broker]
        tc = cm.config
        if tc.read_queue_nums < tc.write_queue_nums:
            raise MappingError("Read queues is smaller than write queues")
        if tc.write_queue_nums > names.QUEUE_NUMS_MAX:
            raise MappingError(
                f"writeQueueNums {tc.write_queue_nums} of broker {broker} is over {names.QUEUE_NUMS_MAX}"
            )
        detail = cm.mapping_detail
        assert detail is not None
        for items in (detail.hosted_queues or {}).values():
            for item in items:
                if item.start_offset != 0:
                    raise MappingError("The start offset does not begin from 0")
                host = configs.get(item.bname or "")
                if host is None:
                    raise MappingError("The broker of item does not exist")
                if item.queue_id >= host.config.write_queue_nums:
                    raise MappingError("The physical queue id is overflow the write queues")


def check_plan(topic: str | None, configs: Mapping[str, TopicConfigAndQueueMapping]) -> dict[int, MappingOne]:
    """Everything the tool checks before it writes a plan: names, epochs, counts, leaders, queues."""
    if not configs:
        raise MappingError("The mapping holds no broker")
    check_name_epoch_num(topic, configs)
    ones = check_and_build(details_of(configs), False, True)
    check_physical_consistence(configs)
    return ones


def check_targets_complete(
    targets: Collection[str], configs: Mapping[str, TopicConfigAndQueueMapping]
) -> None:
    """``checkTargetBrokersComplete``: a broker hosting queues must stay a target."""
    for broker in java_hash_order(configs):
        detail = configs[broker].mapping_detail
        if detail is None or not detail.hosted_queues:
            continue
        if broker not in targets:
            raise MappingError(f"The existed broker {broker} does not in target brokers ")


# ------------------------------------------------------------------------------ allocation


class Allocator:
    """``MappingAllocator``: hands out logical queues to the brokers holding the fewest."""

    def __init__(
        self,
        id_to_broker: Mapping[int, str],
        broker_num: Mapping[str, int],
        before_remapping: Mapping[str, int] | None,
        rng: random.Random | None = None,
    ) -> None:
        self.id_to_broker = dict(id_to_broker)
        self.broker_num = {k: broker_num[k] for k in java_hash_order(broker_num)}
        self.before = before_remapping
        if rng is None:
            import random

            rng = random.Random()
        self.rng = rng
        self.least: list[str] = []
        self.current = 0

    def _fresh(self) -> None:
        least: list[str] = []
        low = None
        for broker in java_hash_order(self.broker_num):
            n = self.broker_num[broker]
            if low is None or n < low:
                least, low = [broker], n
            elif n == low:
                least.append(broker)
        if self.before:
            before = self.before
            least.sort(key=lambda b: before.get(b, 0))
        else:
            self.rng.shuffle(least)
        self.least = least
        self.current = len(least) - 1

    def _next(self) -> str:
        if not self.least:
            self._fresh()
        return self.least.pop(self.current % len(self.least))

    def up_to(self, max_queue_num: int) -> None:
        for i in range(len(self.id_to_broker), max_queue_num):
            broker = self._next()
            self.broker_num[broker] = self.broker_num.get(broker, 0) + 1
            self.id_to_broker[i] = broker


def _new_config(topic: str, read: int, write: int) -> TopicConfig:
    return TopicConfig(topic_name=topic, read_queue_nums=read, write_queue_nums=write, attributes={})


def _put_items(detail: TopicQueueMappingDetail, gid: int, items: list[LogicQueueMappingItem]) -> None:
    """``TopicQueueMappingDetail.putMappingInfo``."""
    if items:
        if detail.hosted_queues is None:
            detail.hosted_queues = {}
        detail.hosted_queues[gid] = items


def create_mapping(
    topic: str,
    queue_num: int,
    targets: Collection[str],
    configs: dict[str, TopicConfigAndQueueMapping],
    now_ms: int,
    rng: random.Random | None = None,
) -> TopicRemappingDetailWrapper:
    """``createTopicConfigMapping``: grow (or create) the topic to ``queue_num`` logical queues.

    ``configs`` (what the brokers hold now) is extended in place, as Java does.
    """
    check_queue_num(queue_num)
    check_targets_complete(targets, configs)
    global_ids: dict[int, MappingOne] = {}
    max_epoch = now_ms
    if configs:
        max_epoch, _ = check_name_epoch_num(topic, configs)
        global_ids = check_and_build(details_of(configs), False, True)
        check_physical_consistence(configs)
    if queue_num < len(global_ids):
        raise MappingError(f"Cannot decrease the queue num for static topic {queue_num} < {len(global_ids)}")
    if queue_num == len(global_ids):
        raise MappingError("The topic queue num is equal the existed queue num, do nothing")
    broker_num = dict.fromkeys(targets, 0)
    old_id_to_broker: dict[int, str] = {}
    for gid, one in global_ids.items():
        leader = one.bname or ""
        old_id_to_broker[gid] = leader
        broker_num[leader] = broker_num.get(leader, 0) + 1
    allocator = Allocator(old_id_to_broker, broker_num, None, rng)
    allocator.up_to(queue_num)
    new_epoch = max(max_epoch + 1000, now_ms)
    for gid in sorted(allocator.id_to_broker):
        broker = allocator.id_to_broker[gid]
        if gid in global_ids:
            continue
        cm = configs.get(broker)
        if cm is None:
            cm = TopicConfigAndQueueMapping(
                _new_config(topic, 1, 1), TopicQueueMappingDetail(topic=topic, bname=broker, epoch=now_ms)
            )
            configs[broker] = cm
        else:
            cm.config.write_queue_nums += 1
            cm.config.read_queue_nums += 1
        item = LogicQueueMappingItem(0, cm.config.write_queue_nums - 1, broker, 0, 0, -1, -1, -1)
        assert cm.mapping_detail is not None
        _put_items(cm.mapping_detail, gid, [item])
    for cm in configs.values():
        assert cm.mapping_detail is not None
        cm.mapping_detail.epoch = new_epoch
        cm.mapping_detail.total_queues = queue_num
    check_plan(topic, configs)
    return TopicRemappingDetailWrapper(topic, TYPE_CREATE_OR_UPDATE, new_epoch, configs, [], [])


def remap(
    topic: str, configs: dict[str, TopicConfigAndQueueMapping], targets: Collection[str], now_ms: int
) -> TopicRemappingDetailWrapper:
    """``remappingStaticTopic`` (the plan): move logical queues so that ``targets`` lead them all.

    A moved queue gets a new generation on its new broker with ``logicOffset = -1``; the offset is
    decided once the old leader stops taking writes (:func:`decide_logic_offsets`).
    """
    if not targets:
        raise MappingError("Find none brokers, do nothing")
    max_epoch, max_num = check_name_epoch_num(topic, configs)
    global_ids = check_and_build(details_of(configs), False, True)
    check_physical_consistence(configs)
    before: dict[str, int] = {}
    for one in global_ids.values():
        before[one.bname or ""] = before.get(one.bname or "", 0) + 1
    allocator = Allocator({}, dict.fromkeys(targets, 0), before)
    allocator.up_to(max_num)
    expected = dict(allocator.broker_num)
    waiting: list[int] = []
    expected_id: dict[int, str] = {}
    for gid in sorted(global_ids):
        leader = global_ids[gid].bname or ""
        if leader in expected:
            if expected[leader] > 0:
                expected_id[gid] = leader
                expected[leader] -= 1
            else:
                waiting.append(gid)
                del expected[leader]
        else:
            waiting.append(gid)
    for broker in java_hash_order(expected):
        for _ in range(expected[broker]):
            expected_id[waiting.pop(0)] = broker
    new_epoch = max(max_epoch + 1000, now_ms)
    map_in: list[str] = []
    map_out: list[str] = []
    for gid in sorted(expected_id):
        broker = expected_id[gid]
        one = global_ids[gid]
        if one.bname == broker:
            continue
        out_broker = one.bname or ""
        if broker not in map_in:
            map_in.append(broker)
        if out_broker not in map_out:
            map_out.append(out_broker)
        in_cm = configs.get(broker)
        if in_cm is None:
            in_cm = TopicConfigAndQueueMapping(
                _new_config(topic, 0, 0),
                TopicQueueMappingDetail(topic=topic, total_queues=max_num, bname=broker, epoch=new_epoch),
            )
            configs[broker] = in_cm
        in_cm.config.write_queue_nums += 1
        in_cm.config.read_queue_nums += 1
        items = list(one.items)
        last = items[-1]
        items.append(
            LogicQueueMappingItem(last.gen + 1, in_cm.config.write_queue_nums - 1, broker, -1, 0, -1, -1, -1)
        )
        assert in_cm.mapping_detail is not None
        out_detail = configs[out_broker].mapping_detail
        assert out_detail is not None
        _put_items(in_cm.mapping_detail, gid, items)  # the same list object on both, as Java
        _put_items(out_detail, gid, items)
    for cm in configs.values():
        assert cm.mapping_detail is not None
        cm.mapping_detail.epoch = new_epoch
        cm.mapping_detail.total_queues = max_num
    ones = check_plan(topic, configs)
    check_leaders_in(ones.values(), targets)
    return TopicRemappingDetailWrapper(topic, TYPE_REMAPPING, new_epoch, configs, map_in, map_out)


def complete_non_target_brokers(
    configs: dict[str, TopicConfigAndQueueMapping], cluster_brokers: Iterable[str]
) -> None:
    """``completeNoTargetBrokers``: every broker of the clusters involved gets an empty mapping."""
    if not configs:
        return
    first = configs[next(iter(java_hash_order(configs)))]
    assert first.mapping_detail is not None
    topic = first.topic_name or ""
    for broker in cluster_brokers:
        if broker not in configs:
            detail = TopicQueueMappingDetail(
                topic=topic,
                total_queues=first.mapping_detail.total_queues,
                bname=broker,
                epoch=first.mapping_detail.epoch,
            )
            configs[broker] = TopicConfigAndQueueMapping(_new_config(topic, 0, 0), detail)


def decide_logic_offsets(
    topic: str,
    configs: Mapping[str, TopicConfigAndQueueMapping],
    map_out: Iterable[str],
    max_offset: Callable[[MessageQueue], int | None],
    block: int = DEFAULT_BLOCK_SEQ_SIZE,
) -> None:
    """Step 3 of ``MQAdminUtils.remappingStaticTopic``: each new leader starts on the block boundary
    after the old leader's last offset (``max_offset`` of its physical queue, None: unknown)."""
    for broker in map_out:
        detail = configs[broker].mapping_detail
        assert detail is not None
        for gid in sorted(detail.hosted_queues or {}):
            items = (detail.hosted_queues or {})[gid]
            if len(items) < 2:
                continue
            new_leader, old_leader = items[-1], items[-2]
            if new_leader.logic_offset > 0:
                continue
            top = max_offset(MessageQueue(topic, old_leader.bname, old_leader.queue_id))
            if top is None:
                raise MappingError(f"Cannot get the max offset for old leader {_item_text(old_leader)}")
            if top < old_leader.start_offset:
                raise MappingError(
                    f"The max offset is smaller then the start offset {_item_text(old_leader)} {top}"
                )
            new_leader.logic_offset = block_seq_round_up(static_offset_strictly(old_leader, top), block)
            in_cm = configs.get(new_leader.bname or "")
            if in_cm is not None and in_cm.mapping_detail is not None:
                _put_items(in_cm.mapping_detail, gid, items)


def _item_text(item: LogicQueueMappingItem) -> str:
    """``LogicQueueMappingItem.toString``."""
    return (
        f"LogicQueueMappingItem{{gen={item.gen}, queueId={item.queue_id}, bname='{item.bname}', "
        f"logicOffset={item.logic_offset}, startOffset={item.start_offset}, endOffset={item.end_offset}, "
        f"timeOfStart={item.time_of_start}, timeOfEnd={item.time_of_end}}}"
    )


# ------------------------------------------------------------------------------ the broker's checks


def check_broker_detail(
    detail: TopicQueueMappingDetail, topic: str, broker_name: str, write_queue_nums: int
) -> None:
    """What a broker checks in an UPDATE_AND_CREATE_STATIC_TOPIC body before keeping it."""
    if detail.topic != topic:
        raise MappingError(f"The topic name is not match {detail.topic} != {topic}")
    if detail.bname != broker_name:
        raise MappingError(f"The broker name is not equal {detail.bname} != {broker_name}")
    _check_detail_fields(detail, broker_name)
    for gid, items in (detail.hosted_queues or {}).items():
        check_item_offsets(items)
        for item in items:
            if item.bname == broker_name and item.queue_id >= max(write_queue_nums, 0):
                raise MappingError(
                    f"The physical queue id {item.queue_id} of logic queue {gid} is overflow the write "
                    f"queues {write_queue_nums}"
                )


def _make_sure_immutable(
    old: list[LogicQueueMappingItem], new: list[LogicQueueMappingItem], epoch_equal: bool
) -> None:
    """``makeSureLogicQueueMappingItemImmutable`` (Java's asserts are checks here)."""
    if not old:
        return
    if not new:
        raise MappingError("The new item list is null or empty")
    i = k = 0
    while i < len(old) and k < len(new):
        o, n = old[i], new[k]
        if n.gen < o.gen:
            k += 1
        elif o.gen < n.gen:
            i += 1
        else:
            if o.bname != n.bname or o.queue_id != n.queue_id or o.start_offset != n.start_offset:
                raise MappingError(f"The item of gen {o.gen} changed its broker, queue or start offset")
            if o.logic_offset != -1 and o.logic_offset != n.logic_offset:
                raise MappingError(f"The item of gen {o.gen} changed its decided logic offset")
            i += 1
            k += 1
    if epoch_equal:
        ol, nl = old[-1], new[-1]
        if (
            nl.gen != ol.gen
            or nl.bname != ol.bname
            or nl.queue_id != ol.queue_id
            or nl.start_offset != ol.start_offset
        ):
            raise MappingError("The new leader is different but epoch equal")


def merge_broker_detail(
    old: TopicQueueMappingDetail | None, new: TopicQueueMappingDetail, force: bool
) -> TopicQueueMappingDetail:
    """``updateTopicQueueMapping``'s rules: the detail a broker keeps after ``new`` arrives.

    Queues the old detail knew and the new one leaves out are kept (forced, or a newer epoch); a
    smaller epoch, another scope or a rewritten history is refused. ``new`` is not modified.
    """
    hosted = {gid: list(items) for gid, items in (new.hosted_queues or {}).items()}
    for items in hosted.values():
        check_item_offsets(items)
    merged = TopicQueueMappingDetail(
        topic=new.topic,
        scope=new.scope,
        total_queues=new.total_queues,
        bname=new.bname,
        epoch=new.epoch,
        dirty=new.dirty,
        curr_id_map=None if new.curr_id_map is None else dict(new.curr_id_map),
        hosted_queues=hosted,
    )
    if old is None:
        return merged
    old_hosted = old.hosted_queues or {}
    if force:
        for gid, items in old_hosted.items():
            if items:  # putMappingInfo ignores an empty list
                hosted.setdefault(gid, items)
        return merged
    if new.epoch < old.epoch:
        raise MappingError(f"Can't accept data with small epoch {new.epoch} < {old.epoch}")
    if new.scope != old.scope:
        raise MappingError(f"Can't accept data with unmatched scope {new.scope} != {old.scope}")
    epoch_equal = new.epoch == old.epoch
    for gid, old_items in old_hosted.items():
        new_items = hosted.get(gid)
        if new_items is None:
            if epoch_equal:
                raise MappingError("Cannot accept equal epoch with null data")
            if old_items:
                hosted[gid] = old_items
        else:
            _make_sure_immutable(old_items, new_items, epoch_equal)
    return merged


# ------------------------------------------------------------------------------ the tool's stats view


def logical_topic_stats(
    topic: str, details: Iterable[TopicQueueMappingDetail], physical: Mapping[MessageQueue, TopicOffset]
) -> dict[MessageQueue, TopicOffset]:
    """``MQAdminUtils.convertPhysicalTopicStats``: one row per logical queue, under the mock broker."""
    out: dict[MessageQueue, TopicOffset] = {}
    ones = check_and_build(details, True, False)
    for gid in sorted(ones):
        one = ones[gid]
        min_item = find_item(one.items, 0, True)
        max_item = find_item(one.items, (1 << 63) - 1, True)
        if min_item is None or max_item is None:
            continue
        lo = physical.get(MessageQueue(topic, min_item.bname, min_item.queue_id))
        hi = physical.get(MessageQueue(topic, max_item.bname, max_item.queue_id))
        if lo is None or hi is None:
            continue
        mn = max(static_offset_loosely(min_item, lo.min_offset), 0)
        mx = max(static_offset_strictly(max_item, hi.max_offset), 0)
        out[MessageQueue(topic, mock_broker_name(one.detail.scope), gid)] = TopicOffset(
            mn, mx, hi.last_update_timestamp
        )
    return out


# ------------------------------------------------------------------------------ a broker's pull answer

PULL_SUCCESS = 0
PULL_NOT_FOUND = 19
PULL_RETRY_IMMEDIATELY = 20
PULL_OFFSET_MOVED = 21


@dataclass(slots=True)
class PullOffsets:
    """What a pull answer says about offsets: physical going in, logical coming out."""

    code: int
    next_begin_offset: int
    min_offset: int
    max_offset: int
    offset_delta: int = 0


def rewrite_pull_answer(
    items: list[LogicQueueMappingItem],
    detail: TopicQueueMappingDetail,
    global_id: int,
    current: LogicQueueMappingItem,
    request_offset: int,
    got: PullOffsets,
) -> PullOffsets:
    """``PullMessageProcessor.rewriteResponseForStaticTopic``: the physical answer of a pull from
    generation ``current`` (``request_offset`` physical) told in logical offsets; a generation read
    to its end sends the consumer on to the next one (PULL_RETRY_IMMEDIATELY)."""
    leader = items[-1]
    earliest = find_item(items, 0, True)
    assert earliest is not None
    code, next_begin, mn, mx = got.code, got.next_begin_offset, got.min_offset, got.max_offset
    out_code = code
    if code != PULL_SUCCESS:
        revised = False
        if leader.gen == current.gen:
            if request_offset > mx:
                if code == PULL_OFFSET_MOVED:
                    next_begin = mx
            elif request_offset < mn:
                next_begin = mn
                out_code = PULL_RETRY_IMMEDIATELY
        if earliest.gen == current.gen:
            if request_offset < mn:
                out_code, next_begin = PULL_OFFSET_MOVED, mn
            elif request_offset >= mx:
                nxt = find_next(items, current, True)
                if nxt is not None:
                    revised = True
                    current = nxt
                    next_begin = mn = mx = nxt.start_offset
                    out_code = PULL_RETRY_IMMEDIATELY
                else:
                    out_code = PULL_NOT_FOUND
            else:
                out_code = code
        if not revised and leader.gen != current.gen and earliest.gen != current.gen:
            if request_offset < mn:
                next_begin, out_code = mn, PULL_RETRY_IMMEDIATELY
            elif request_offset >= mx:
                nxt = find_next(items, current, True)
                if nxt is not None:
                    current = nxt
                    next_begin = mn = mx = nxt.start_offset
                    out_code = PULL_RETRY_IMMEDIATELY
                else:
                    out_code = PULL_NOT_FOUND
            else:
                out_code = code
    if end_offset_decided(current) and next_begin >= current.end_offset:
        next_begin = current.end_offset
    hosted = (detail.hosted_queues or {}).get(global_id)
    mapping_max = max_static_offset(hosted[-1]) if hosted else -1
    return PullOffsets(
        out_code,
        static_offset_strictly(current, next_begin),
        static_offset_strictly(current, max(current.start_offset, mn)),
        max(static_offset_strictly(current, mx), mapping_max),
        current.logic_offset - current.start_offset,
    )
