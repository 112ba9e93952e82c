"""Consumer groups: ``SubscriptionGroupConfig`` and the broker's table of them.

UPDATE_AND_CREATE_SUBSCRIPTIONGROUP (200) carries one config as its body;
GET_ALL_SUBSCRIPTIONGROUP_CONFIG (201) answers with the broker's ``SubscriptionGroupManager``
serialized whole, which clients read as a ``SubscriptionGroupWrapper``: the group table
(``ConcurrentHashMap(1024)``), its ``dataVersion`` and, from 5.x brokers, ``forbiddenTable``.

5.x added several properties to a group; they are ``None`` in a 4.x peer's body (Java would fill in
the defaults noted on each), so such a body re-encodes without them. :meth:`SubscriptionGroupConfig.as_5x`
fills them in.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Self

from mqadmin.protocol.bodies import fieldcheck as j
from mqadmin.protocol.bodies.topic import DataVersion
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


@dataclass(slots=True)
class CustomizedRetryPolicy:
    """Retry delays given one by one (milliseconds), the last repeating (by default
    :data:`DEFAULT_RETRY_DELAYS_MS`)."""

    next: list[int] | None = field(default_factory=lambda: list(DEFAULT_RETRY_DELAYS_MS))

    @classmethod
    def from_json_obj(cls, obj: Any, what: str = "customizedRetryPolicy") -> Self:
        d = j.obj(obj, what)
        nxt = d.get("next", list(DEFAULT_RETRY_DELAYS_MS))
        return cls(j.list_of(nxt, "next", j.int64))

    def to_json_obj(self, standard: bool = False) -> dict[str, Any]:
        return {} if self.next is None else {"next": list(self.next)}


@dataclass(slots=True)
class ExponentialRetryPolicy:
    """Retry delays growing by ``multiplier`` from ``initial`` up to ``max`` (milliseconds)."""

    initial: int = 5000
    max: int = 7_200_000
    multiplier: int = 2

    @classmethod
    def from_json_obj(cls, obj: Any, what: str = "exponentialRetryPolicy") -> Self:
        d = j.obj(obj, what)
        return cls(
            j.int64(d.get("initial"), "initial", 5000),
            j.int64(d.get("max"), "max", 7_200_000),
            j.int64(d.get("multiplier"), "multiplier", 2),
        )

    def to_json_obj(self, standard: bool = False) -> dict[str, Any]:
        return {"initial": self.initial, "max": self.max, "multiplier": self.multiplier}


@dataclass(slots=True)
class GroupRetryPolicy:
    """Which retry policy a 5.x group uses (``type``: ``CUSTOMIZED`` or ``EXPONENTIAL``)."""

    type: str | None = "CUSTOMIZED"
    exponential_retry_policy: ExponentialRetryPolicy | None = None
    customized_retry_policy: CustomizedRetryPolicy | None = None

    @classmethod
    def from_json_obj(cls, obj: Any, what: str = "groupRetryPolicy") -> Self:
        d = j.obj(obj, what)
        exp = d.get("exponentialRetryPolicy")
        cus = d.get("customizedRetryPolicy")
        return cls(
            j.opt_str(d.get("type", "CUSTOMIZED"), "type"),
            None if exp is None else ExponentialRetryPolicy.from_json_obj(exp),
            None if cus is None else CustomizedRetryPolicy.from_json_obj(cus),
        )

    def to_json_obj(self, standard: bool = False) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.customized_retry_policy is not None:
            out["customizedRetryPolicy"] = self.customized_retry_policy.to_json_obj()
        if self.exponential_retry_policy is not None:
            out["exponentialRetryPolicy"] = self.exponential_retry_policy.to_json_obj()
        if self.type is not None:
            out["type"] = self.type
        return out


@dataclass(slots=True)
class SimpleSubscriptionData:
    """A 5.x group's declared subscription: topic and filter expression."""

    topic: str | None = None
    expression_type: str | None = None
    expression: str | None = None
    version: int = 0

    @classmethod
    def from_json_obj(cls, obj: Any, what: str = "SimpleSubscriptionData") -> Self:
        d = j.obj(obj, what)
        return cls(
            j.opt_str(d.get("topic"), "topic"),
            j.opt_str(d.get("expressionType"), "expressionType"),
            j.opt_str(d.get("expression"), "expression"),
            j.int64(d.get("version"), "version"),
        )

    def to_json_obj(self, standard: bool = False) -> dict[str, Any]:
        return j.drop_none(
            {
                "expression": self.expression,
                "expressionType": self.expression_type,
                "topic": self.topic,
                "version": self.version,
            }
        )

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


@dataclass(slots=True)
class SubscriptionGroupConfig(j.JsonBody):
    """One consumer group's settings on a broker.

    The 5.x properties, ``None`` in a 4.x body: ``consume_message_orderly`` (Java default false),
    ``group_retry_policy`` (default ``GroupRetryPolicy()``: customized), ``group_sys_flag`` (0),
    ``consume_timeout_minute`` (15), ``subscription_data_set`` (null unless set; a ``HashSet``, a
    list here to keep its order), ``attributes`` (an empty ``HashMap``).
    """

    group_name: str | None = None
    consume_enable: bool = True
    consume_from_min_enable: bool = True
    consume_broadcast_enable: bool = True
    retry_queue_nums: int = 1
    retry_max_times: int = 16
    broker_id: int = 0
    which_broker_when_consume_slowly: int = 1
    notify_consumer_ids_changed_enable: bool = True
    consume_message_orderly: bool | None = None
    group_retry_policy: GroupRetryPolicy | None = None
    group_sys_flag: int | None = None
    consume_timeout_minute: int | None = None
    subscription_data_set: list[SimpleSubscriptionData] | None = None
    attributes: dict[str, str] | None = None

    @classmethod
    def from_json_obj(cls, obj: Any, what: str = "SubscriptionGroupConfig") -> Self:
        d = j.obj(obj, what)
        grp = d.get("groupRetryPolicy")
        return cls(
            group_name=j.opt_str(d.get("groupName"), "groupName"),
            consume_enable=j.boolean(d.get("consumeEnable"), "consumeEnable", True),
            consume_from_min_enable=j.boolean(d.get("consumeFromMinEnable"), "consumeFromMinEnable", True),
            consume_broadcast_enable=j.boolean(
                d.get("consumeBroadcastEnable"), "consumeBroadcastEnable", True
            ),
            retry_queue_nums=j.int32(d.get("retryQueueNums"), "retryQueueNums", 1),
            retry_max_times=j.int32(d.get("retryMaxTimes"), "retryMaxTimes", 16),
            broker_id=j.int64(d.get("brokerId"), "brokerId", 0),
            which_broker_when_consume_slowly=j.int64(
                d.get("whichBrokerWhenConsumeSlowly"), "whichBrokerWhenConsumeSlowly", 1
            ),
            notify_consumer_ids_changed_enable=j.boolean(
                d.get("notifyConsumerIdsChangedEnable"), "notifyConsumerIdsChangedEnable", True
            ),
            consume_message_orderly=j.opt_bool(d.get("consumeMessageOrderly"), "consumeMessageOrderly"),
            group_retry_policy=None if grp is None else GroupRetryPolicy.from_json_obj(grp),
            group_sys_flag=j.opt_int32(d.get("groupSysFlag"), "groupSysFlag"),
            consume_timeout_minute=j.opt_int32(d.get("consumeTimeoutMinute"), "consumeTimeoutMinute"),
            subscription_data_set=_sub_set(d.get("subscriptionDataSet"), "subscriptionDataSet"),
            attributes=j.str_map(d.get("attributes"), "attributes"),
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

    def to_json_obj(self, standard: bool = False) -> dict[str, Any]:
        subs = self.subscription_data_set
        if subs is not None and len(subs) > 1:
            # ordered by java_hash alone: the subscriptions themselves are never hashed
            subs = bucket_order(
                subs,
                hash_map_capacity(len(subs)),
                SimpleSubscriptionData.java_hash,  # type: ignore[type-var]
            )
        return j.drop_none(
            {
                "attributes": None if self.attributes is None else java_hash_dict(self.attributes),
                "brokerId": self.broker_id,
                "consumeBroadcastEnable": self.consume_broadcast_enable,
                "consumeEnable": self.consume_enable,
                "consumeFromMinEnable": self.consume_from_min_enable,
                "consumeMessageOrderly": self.consume_message_orderly,
                "consumeTimeoutMinute": self.consume_timeout_minute,
                "groupName": self.group_name,
                "groupRetryPolicy": None
                if self.group_retry_policy is None
                else self.group_retry_policy.to_json_obj(),
                "groupSysFlag": self.group_sys_flag,
                "notifyConsumerIdsChangedEnable": self.notify_consumer_ids_changed_enable,
                "retryMaxTimes": self.retry_max_times,
                "retryQueueNums": self.retry_queue_nums,
                "subscriptionDataSet": None if subs is None else [s.to_json_obj() for s in subs],
                "whichBrokerWhenConsumeSlowly": self.which_broker_when_consume_slowly,
            }
        )


def _forbidden(v: Any, what: str) -> dict[str, int]:
    d = j.obj(v, what)
    out: dict[str, int] = {}
    for k, x in d.items():
        if type(k) is not str:
            raise ProtocolError(f"{what} has a non-string key")
        if x is not None:
            out[k] = j.int32(x, f"{what}[{k!r}]")
    return out


@dataclass(slots=True)
class SubscriptionGroupWrapper(j.JsonBody):
    """A broker's whole group table (GET_ALL_SUBSCRIPTIONGROUP_CONFIG): group name → config
    (``ConcurrentHashMap(1024)``), its data version (a new one by default) and, from 5.x brokers,
    group → topic → forbidden bits (``ConcurrentHashMap(4)`` of ``ConcurrentHashMap``)."""

    subscription_group_table: dict[str, SubscriptionGroupConfig] | None = field(default_factory=dict)
    data_version: DataVersion | None = field(default_factory=DataVersion)
    forbidden_table: dict[str, dict[str, int]] | None = None

    @classmethod
    def from_json_obj(cls, obj: Any) -> Self:
        d = j.obj(obj, "SubscriptionGroupWrapper")
        dv = d.get("dataVersion", {})
        return cls(
            j.map_of(
                d.get("subscriptionGroupTable", {}),
                "subscriptionGroupTable",
                SubscriptionGroupConfig.from_json_obj,
            ),
            None if dv is None else DataVersion.from_json_obj(dv),
            j.map_of(d.get("forbiddenTable"), "forbiddenTable", _forbidden),
        )

    def to_json_obj(self, standard: bool = False) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.data_version is not None:
            out["dataVersion"] = self.data_version.to_json_obj()
        if self.forbidden_table is not None:
            ft = self.forbidden_table
            outer = hash_ordered(ft, chm_capacity(len(ft), FORBIDDEN_TABLE_INITIAL))
            out["forbiddenTable"] = {k: hash_ordered(v, chm_capacity(len(v))) for k, v in outer.items()}
        if self.subscription_group_table is not None:
            t = self.subscription_group_table
            groups = hash_ordered(t, chm_capacity(len(t), GROUP_TABLE_INITIAL))
            out["subscriptionGroupTable"] = {k: v.to_json_obj() for k, v in groups.items()}
        return out
