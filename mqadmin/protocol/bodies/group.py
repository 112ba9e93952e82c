"""Consumer groups: ``SubscriptionGroupConfig`` and the broker's table of them.

UPDATE_AND_CREATE_SUBSCRIPTIONGROUP (200) carries one config as its body;
GET_ALL_SUBSCRIPTIONGROUP_CONFIG (201) answers with the broker's ``SubscriptionGroupManager``
serialized whole, which clients read as a ``SubscriptionGroupWrapper``: the group table
(``ConcurrentHashMap(1024)``), its ``dataVersion`` and, from 5.x brokers, ``forbiddenTable``.

5.x added several properties to a group; they are ``None`` in a 4.x peer's body (Java would fill in
the defaults noted on each), so such a body re-encodes without them. :meth:`SubscriptionGroupConfig.as_5x`
fills them in, and the Java view (:func:`~mqadmin.protocol.bodies.declared.java_view`) shows them so.

Each type is declared once (:mod:`mqadmin.protocol.bodies.declared`); the Java collection orders are
the members' writers. A group's reader and the text encoders are the hand-written part, because a
broker's table holds thousands of groups; a test holds them to the declaration.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import partial
from typing import Any, Self

from mqadmin.protocol import fastjson
from mqadmin.protocol.bodies import fieldcheck as j
from mqadmin.protocol.bodies.dataversion import DataVersion
from mqadmin.protocol.bodies.declared import DeclaredBody, wire
from mqadmin.protocol.errors import ProtocolError
from mqadmin.protocol.javacoll import (
    bucket_order,
    chm_capacity,
    hash_map_capacity,
    hash_ordered,
    java_hash_dict,
    objects_hash,
    string_hash,
)

__all__ = [
    "CustomizedRetryPolicy",
    "ExponentialRetryPolicy",
    "GroupRetryPolicy",
    "SimpleSubscriptionData",
    "SubscriptionGroupConfig",
    "SubscriptionGroupWrapper",
]

DEFAULT_RETRY_DELAYS_MS: tuple[int, ...] = tuple(
    s * 1000 for s in (1, 5, 10, 30, 60, 120, 180, 240, 300, 360, 420, 480, 540, 600, 1200, 1800, 3600, 7200)
)
"""``CustomizedRetryPolicy`` default: 1s 5s 10s 30s 1m 2m ... 10m 20m 30m 1h 2h."""

GROUP_TABLE_INITIAL = 1024
FORBIDDEN_TABLE_INITIAL = 4


def _nested(kind: Any) -> Callable[[Any, str], Any]:
    """The reader of a member holding a body of ``kind``, or null."""
    return lambda v, what: None if v is None else kind.from_json_obj(v, what)


def _or(default: Any) -> Callable[[Any], Any]:
    """The view of a 5.x member: the 5.3.3 bean holds ``default`` where a 4.x body has none."""
    return lambda v: default if v is None else v


@dataclass(slots=True)
class CustomizedRetryPolicy(DeclaredBody):
    """Retry delays given one by one (milliseconds), the last repeating (by default
    :data:`DEFAULT_RETRY_DELAYS_MS`)."""

    next: list[int] | None = wire(
        factory=lambda: list(DEFAULT_RETRY_DELAYS_MS),
        absent=list(DEFAULT_RETRY_DELAYS_MS),  # read (copied) when the member is missing
        read=lambda v, what: j.list_of(v, what, j.int64),
    )


@dataclass(slots=True)
class ExponentialRetryPolicy(DeclaredBody):
    """Retry delays growing by ``multiplier`` from ``initial`` up to ``max`` (milliseconds)."""

    initial: int = wire(default=5000, read=partial(j.int64, default=5000))
    max: int = wire(default=7_200_000, read=partial(j.int64, default=7_200_000))
    multiplier: int = wire(default=2, read=partial(j.int64, default=2))


_read_exponential = _nested(ExponentialRetryPolicy)
_read_customized = _nested(CustomizedRetryPolicy)


@dataclass(slots=True)
class GroupRetryPolicy(DeclaredBody):
    """Which retry policy a 5.x group uses (``type``: ``CUSTOMIZED`` or ``EXPONENTIAL``)."""

    type: str | None = wire(default="CUSTOMIZED", absent="CUSTOMIZED", read=j.opt_str)
    exponential_retry_policy: ExponentialRetryPolicy | None = wire(read=_read_exponential)
    customized_retry_policy: CustomizedRetryPolicy | None = wire(read=_read_customized)

    # The hand-written part: most 5.x groups carry a policy, so a group table's reader and text
    # encoder read and write it by hand, for speed; a test holds both to the declaration.
    @classmethod
    def from_json_obj(cls, value: Any, what: str | None = None) -> Self:
        get = j.obj(value, what or "GroupRetryPolicy").get
        return cls(
            customized_retry_policy=_read_customized(get("customizedRetryPolicy"), "customizedRetryPolicy"),
            exponential_retry_policy=_read_exponential(
                get("exponentialRetryPolicy"), "exponentialRetryPolicy"
            ),
            type=j.opt_str(get("type", "CUSTOMIZED"), "type"),
        )

    def _text(self, q: Callable[[str], str]) -> str:
        parts = []
        cus = self.customized_retry_policy
        if cus is not None:
            nxt = "" if cus.next is None else '"next":[' + ",".join([str(x) for x in cus.next]) + "]"
            parts.append('"customizedRetryPolicy":{' + nxt + "}")
        exp = self.exponential_retry_policy
        if exp is not None:
            parts.append(
                f'"exponentialRetryPolicy":{{"initial":{exp.initial},"max":{exp.max},'
                f'"multiplier":{exp.multiplier}}}'
            )
        if self.type is not None:
            parts.append('"type":' + q(self.type))
        return "{" + ",".join(parts) + "}"


_read_retry_policy = _nested(GroupRetryPolicy)


@dataclass(slots=True)
class SimpleSubscriptionData(DeclaredBody):
    """A 5.x group's declared subscription: topic and filter expression."""

    topic: str | None = wire(read=j.opt_str)
    expression_type: str | None = wire(read=j.opt_str)
    expression: str | None = wire(read=j.opt_str)
    version: int = wire(default=0, read=j.int64)

    def java_hash(self) -> int:
        """``Objects.hash(topic, expressionType, expression)``, unsigned: its ``HashSet`` order."""
        return objects_hash(
            [0 if x is None else string_hash(x) for x in (self.topic, self.expression_type, self.expression)]
        )


def _sub_set(v: Any, what: str) -> list[SimpleSubscriptionData] | None:
    items = j.list_of(v, what, SimpleSubscriptionData.from_json_obj)
    if items is None:
        return None
    seen: dict[tuple[str | None, str | None, str | None], SimpleSubscriptionData] = {}
    for s in items:  # a Set: equal by topic, expressionType and expression; the first one stays
        seen.setdefault((s.topic, s.expression_type, s.expression), s)
    return list(seen.values())


def _sub_order(subs: list[SimpleSubscriptionData]) -> list[SimpleSubscriptionData]:
    """The ``HashSet`` order of the subscriptions, by ``java_hash`` alone (they are never hashed)."""
    if len(subs) < 2:
        return subs
    return bucket_order(subs, hash_map_capacity(len(subs)), SimpleSubscriptionData.java_hash)  # type: ignore[type-var]


_BOOL = {True: "true", False: "false"}


@dataclass(slots=True)
class SubscriptionGroupConfig(DeclaredBody):
    """One consumer group's settings on a broker.

    The 5.x properties, ``None`` in a 4.x body: ``consume_message_orderly`` (Java default false),
    ``group_retry_policy`` (default ``GroupRetryPolicy()``: customized), ``group_sys_flag`` (0),
    ``consume_timeout_minute`` (15), ``subscription_data_set`` (null unless set; a ``HashSet``, a
    list here to keep its order), ``attributes`` (an empty ``HashMap``).
    """

    group_name: str | None = wire(read=j.opt_str)
    consume_enable: bool = wire(default=True, read=partial(j.boolean, default=True))
    consume_from_min_enable: bool = wire(default=True, read=partial(j.boolean, default=True))
    consume_broadcast_enable: bool = wire(default=True, read=partial(j.boolean, default=True))
    retry_queue_nums: int = wire(default=1, read=partial(j.int32, default=1))
    retry_max_times: int = wire(default=16, read=partial(j.int32, default=16))
    broker_id: int = wire(default=0, read=j.int64)
    which_broker_when_consume_slowly: int = wire(default=1, read=partial(j.int64, default=1))
    notify_consumer_ids_changed_enable: bool = wire(default=True, read=partial(j.boolean, default=True))
    consume_message_orderly: bool | None = wire(read=j.opt_bool, view=bool)
    group_retry_policy: GroupRetryPolicy | None = wire(
        read=_read_retry_policy, view=lambda v: GroupRetryPolicy() if v is None else v
    )
    group_sys_flag: int | None = wire(read=j.opt_int32, view=_or(0))
    consume_timeout_minute: int | None = wire(read=j.opt_int32, view=_or(15))
    subscription_data_set: list[SimpleSubscriptionData] | None = wire(
        read=_sub_set,
        write=lambda v, standard: [s.to_json_obj(standard) for s in _sub_order(v)],
        view=lambda v: None if v is None else _sub_order(v),
    )
    attributes: dict[str, str] | None = wire(
        read=j.str_map, write=lambda v, _: java_hash_dict(v), view=lambda v: java_hash_dict(v or {})
    )

    def as_5x(self) -> SubscriptionGroupConfig:
        """A copy with the 5.x-only properties at Java's defaults where they are unset."""
        return replace(
            self,
            consume_message_orderly=False
            if self.consume_message_orderly is None
            else self.consume_message_orderly,
            group_retry_policy=GroupRetryPolicy()
            if self.group_retry_policy is None
            else self.group_retry_policy,
            group_sys_flag=0 if self.group_sys_flag is None else self.group_sys_flag,
            consume_timeout_minute=15 if self.consume_timeout_minute is None else self.consume_timeout_minute,
            attributes={} if self.attributes is None else self.attributes,
        )

    # The hand-written part: a broker's group table holds thousands of configs, so the reader and the
    # text encoder are written out for speed. A test holds them to the declaration: the same value
    # or the same error (members read in the declaration's order, by Java name), the same text.
    @classmethod
    def from_json_obj(cls, value: Any, what: str | None = None) -> Self:
        get = j.obj(value, what or "SubscriptionGroupConfig").get
        return cls(
            attributes=j.str_map(get("attributes"), "attributes"),
            broker_id=j.int64(get("brokerId"), "brokerId"),
            consume_broadcast_enable=j.boolean(get("consumeBroadcastEnable"), "consumeBroadcastEnable", True),
            consume_enable=j.boolean(get("consumeEnable"), "consumeEnable", True),
            consume_from_min_enable=j.boolean(get("consumeFromMinEnable"), "consumeFromMinEnable", True),
            consume_message_orderly=j.opt_bool(get("consumeMessageOrderly"), "consumeMessageOrderly"),
            consume_timeout_minute=j.opt_int32(get("consumeTimeoutMinute"), "consumeTimeoutMinute"),
            group_name=j.opt_str(get("groupName"), "groupName"),
            group_retry_policy=_read_retry_policy(get("groupRetryPolicy"), "groupRetryPolicy"),
            group_sys_flag=j.opt_int32(get("groupSysFlag"), "groupSysFlag"),
            notify_consumer_ids_changed_enable=j.boolean(
                get("notifyConsumerIdsChangedEnable"), "notifyConsumerIdsChangedEnable", True
            ),
            retry_max_times=j.int32(get("retryMaxTimes"), "retryMaxTimes", 16),
            retry_queue_nums=j.int32(get("retryQueueNums"), "retryQueueNums", 1),
            subscription_data_set=_sub_set(get("subscriptionDataSet"), "subscriptionDataSet"),
            which_broker_when_consume_slowly=j.int64(
                get("whichBrokerWhenConsumeSlowly"), "whichBrokerWhenConsumeSlowly", 1
            ),
        )

    def encode(self, standard: bool = False) -> bytes:
        return self._text(fastjson.quote).encode()  # string keys only: both forms are one text

    def _text(self, q: Callable[[str], str]) -> str:
        parts = []
        if self.attributes is not None:
            attrs = java_hash_dict(self.attributes)
            parts.append('"attributes":{' + ",".join([f"{q(k)}:{q(v)}" for k, v in attrs.items()]) + "}")
        parts.append(
            f'"brokerId":{self.broker_id},"consumeBroadcastEnable":{_BOOL[self.consume_broadcast_enable]},'
            f'"consumeEnable":{_BOOL[self.consume_enable]},'
            f'"consumeFromMinEnable":{_BOOL[self.consume_from_min_enable]}'
        )
        if self.consume_message_orderly is not None:
            parts.append('"consumeMessageOrderly":' + _BOOL[self.consume_message_orderly])
        if self.consume_timeout_minute is not None:
            parts.append(f'"consumeTimeoutMinute":{self.consume_timeout_minute}')
        if self.group_name is not None:
            parts.append('"groupName":' + q(self.group_name))
        if self.group_retry_policy is not None:
            parts.append('"groupRetryPolicy":' + self.group_retry_policy._text(q))
        if self.group_sys_flag is not None:
            parts.append(f'"groupSysFlag":{self.group_sys_flag}')
        parts.append(
            f'"notifyConsumerIdsChangedEnable":{_BOOL[self.notify_consumer_ids_changed_enable]},'
            f'"retryMaxTimes":{self.retry_max_times},"retryQueueNums":{self.retry_queue_nums}'
        )
        if self.subscription_data_set is not None:  # rare: written the generic way
            subs = [x.to_json_obj() for x in _sub_order(self.subscription_data_set)]
            parts.append('"subscriptionDataSet":' + fastjson.dumps(subs))
        parts.append(f'"whichBrokerWhenConsumeSlowly":{self.which_broker_when_consume_slowly}')
        return "{" + ",".join(parts) + "}"


def _forbidden(v: Any, what: str) -> dict[str, int]:
    d = j.obj(v, what)
    out: dict[str, int] = {}
    for k, x in d.items():
        if type(k) is not str:
            raise ProtocolError(f"{what} has a non-string key")
        if x is not None:
            out[k] = j.int32(x, f"{what}[{k!r}]")
    return out


def _group_table(t: dict[str, SubscriptionGroupConfig]) -> dict[str, SubscriptionGroupConfig]:
    """The broker's ``ConcurrentHashMap(1024)`` of groups in its iteration order."""
    return hash_ordered(t, chm_capacity(len(t), GROUP_TABLE_INITIAL))


def _forbidden_table(ft: dict[str, dict[str, int]]) -> dict[str, dict[str, int]]:
    """``ConcurrentHashMap(4)`` of default ``ConcurrentHashMap``, both in iteration order."""
    outer = hash_ordered(ft, chm_capacity(len(ft), FORBIDDEN_TABLE_INITIAL))
    return {k: hash_ordered(v, chm_capacity(len(v))) for k, v in outer.items()}


@dataclass(slots=True)
class SubscriptionGroupWrapper(DeclaredBody):
    """A broker's whole group table (GET_ALL_SUBSCRIPTIONGROUP_CONFIG): group name → config
    (``ConcurrentHashMap(1024)``), its data version (a new one by default) and, from 5.x brokers,
    group → topic → forbidden bits (``ConcurrentHashMap(4)`` of ``ConcurrentHashMap``)."""

    subscription_group_table: dict[str, SubscriptionGroupConfig] | None = wire(
        factory=dict,
        absent={},
        read=lambda v, what: j.map_of(v, what, SubscriptionGroupConfig.from_json_obj),
        write=lambda v, standard: {k: c.to_json_obj(standard) for k, c in _group_table(v).items()},
        view=lambda v: None if v is None else _group_table(v),
    )
    data_version: DataVersion | None = wire(
        factory=DataVersion, absent={}, read=lambda v, _: None if v is None else DataVersion.from_json_obj(v)
    )
    forbidden_table: dict[str, dict[str, int]] | None = wire(
        read=lambda v, what: j.map_of(v, what, _forbidden),
        write=lambda v, _: _forbidden_table(v),
        view=lambda v: None if v is None else _forbidden_table(v),
    )

    # The hand-written part: the table's text from its configs' text encoders (a test holds it to
    # the declaration's JSON object).
    def encode(self, standard: bool = False) -> bytes:
        parts = []
        if self.data_version is not None:
            parts.append('"dataVersion":' + fastjson.dumps(self.data_version.to_json_obj()))
        if self.forbidden_table is not None:
            parts.append('"forbiddenTable":' + fastjson.dumps(_forbidden_table(self.forbidden_table)))
        if self.subscription_group_table is not None:
            q = fastjson.quote
            groups = _group_table(self.subscription_group_table)
            parts.append(
                '"subscriptionGroupTable":{'
                + ",".join([f"{q(k)}:{c._text(q)}" for k, c in groups.items()])
                + "}"
            )
        return ("{" + ",".join(parts) + "}").encode()
