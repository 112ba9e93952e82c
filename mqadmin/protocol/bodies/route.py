"""Topic routes: ``TopicRouteData`` with its ``QueueData`` and ``BrokerData`` (GET_ROUTEINFO_BY_TOPIC).

A name server answers a route query in one of two forms. Clients of version ``V4_9_4`` (ordinal
401) and later, or any that sets ``acceptStandardJsonOnly``, get standard JSON: fastjson with
``BrowserCompatible`` and ``MapSortField``, so ``"brokerAddrs":{"0":"..."}`` with quoted keys, every
map sorted, ``/`` and non-ASCII escaped. Older clients (the C++ client says version 63) get the
legacy form, ``{0:"..."}`` with maps in ``HashMap`` order. ``encode(standard=...)`` writes either.

Each type is declared once (:mod:`mqadmin.protocol.bodies.declared`): decoding, the JSON object,
equality, the repr and the Java client's view come from the declaration. The text encoders are the
hand-written part, because a name server answers tens of thousands of these a second; a test holds
them to the declaration's JSON object.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, Literal

from mqadmin.protocol import fastjson
from mqadmin.protocol.bodies import fieldcheck as j
from mqadmin.protocol.bodies.declared import DeclaredBody, to_json, wire
from mqadmin.protocol.bodies.queue_mapping import TopicQueueMappingInfo
from mqadmin.protocol.errors import ProtocolError
from mqadmin.protocol.javacoll import (
    bucket_order,
    hash_map_capacity,
    hash_map_copy_capacity,
    java_hash_dict,
    java_hash_order,
    tree_ordered,
)

Order = Literal["sorted", "copy", "live"]
"""How ``brokerAddrs`` iterates: sorted (MapSortField), a route's copy of the map, the live map."""

__all__ = ["BrokerData", "QueueData", "TopicRouteData"]

MASTER_ID = 0
"""``MixAll.MASTER_ID``: the broker id of a master in ``brokerAddrs``."""


@dataclass(slots=True)
class QueueData(DeclaredBody):
    """How many queues a topic has on one broker, and their permission."""

    broker_name: str | None = wire(read=j.opt_str)
    read_queue_nums: int = wire(default=0, read=j.int32)
    write_queue_nums: int = wire(default=0, read=j.int32)
    perm: int = wire(default=0, read=j.int32)
    topic_sys_flag: int = wire(default=0, read=j.int32)

    def copy(self) -> QueueData:
        """A copy (a route handed out must not share its queue data with the live table)."""
        return replace(self)

    # The hand-written part: the name server's encoder, the text of to_json_obj() at f-string speed.
    def _text(self, q: Callable[[str], str]) -> str:
        name = "" if self.broker_name is None else f'"brokerName":{q(self.broker_name)},'
        return (
            f'{{{name}"perm":{self.perm},"readQueueNums":{self.read_queue_nums},'
            f'"topicSysFlag":{self.topic_sys_flag},"writeQueueNums":{self.write_queue_nums}}}'
        )


def _broker_addrs(v: Any, what: str = "brokerAddrs") -> dict[int, str] | None:
    if v is None:
        return None
    d = j.obj(v, "brokerAddrs")
    out: dict[int, str] = {}
    for k, x in d.items():
        if x is None:
            continue
        if type(x) is not str:
            raise ProtocolError("brokerAddrs value is not a string")
        out[j.numeric_key(k, "brokerAddrs")] = x
    return out


def _addr_keys(addrs: dict[int, str], order: Order) -> list[int]:
    """Key order of ``brokerAddrs``: ``sorted`` (MapSortField), a route's ``copy``, or the ``live`` map."""
    if len(addrs) < 2:
        return list(addrs)
    keys = sorted(addrs)
    if order == "sorted":
        return keys
    cap = hash_map_copy_capacity(len(addrs)) if order == "copy" else hash_map_capacity(len(addrs))
    if keys[0] >= 0 and keys[-1] < cap:
        return keys  # small broker ids: each in its own bucket, numbered by id
    return bucket_order(addrs, cap)


def _addrs_in(addrs: dict[int, str], order: Order) -> dict[int, str]:
    return {k: addrs[k] for k in _addr_keys(addrs, order)}


def _client_addrs(addrs: dict[int, str] | None) -> dict[int, str] | None:
    """``brokerAddrs`` as the Java client's ``HashMap<Long, String>`` iterates it."""
    return None if addrs is None else {k: addrs[k] for k in java_hash_order(list(addrs))}


@dataclass(slots=True)
class BrokerData(DeclaredBody):
    """One broker group: its cluster, name and the address of each member by broker id.

    ``broker_addrs``: broker id → ``host:port`` (``HashMap<Long, String>``; id 0 is the master).
    ``enable_acting_master``: 5.x only (Java default ``false``); ``None`` is a 4.x body, where the
    property does not exist.
    """

    cluster: str | None = wire(read=j.opt_str)
    broker_name: str | None = wire(read=j.opt_str)
    broker_addrs: dict[int, str] | None = wire(
        read=_broker_addrs, write=lambda v, _: _addrs_in(v, "live"), view=_client_addrs
    )
    zone_name: str | None = wire(read=j.opt_str)
    enable_acting_master: bool | None = wire(read=j.opt_bool, view=bool)  # the 5.3.3 bean: false

    def _json(self, order: Order) -> dict[str, Any]:
        """The JSON object with ``brokerAddrs`` in the order of ``order``."""
        out = to_json(self)
        if self.broker_addrs is not None:
            out["brokerAddrs"] = _addrs_in(self.broker_addrs, order)
        return out

    # The hand-written part: the name server's encoder, the text of _json() at f-string speed.
    def encode(self, standard: bool = False) -> bytes:
        return self._text(fastjson.quote, standard, "live").encode()

    def _text(self, q: Callable[[str], str], quote_keys: bool, order: Order) -> str:
        parts = []
        addrs = self.broker_addrs
        if addrs is not None:
            if quote_keys:
                items = [f'"{k}":{q(addrs[k])}' for k in _addr_keys(addrs, order)]
            else:
                items = [f"{k}:{q(addrs[k])}" for k in _addr_keys(addrs, order)]
            parts.append('"brokerAddrs":{' + ",".join(items) + "}")
        if self.broker_name is not None:
            parts.append('"brokerName":' + q(self.broker_name))
        if self.cluster is not None:
            parts.append('"cluster":' + q(self.cluster))
        if self.enable_acting_master is not None:
            parts.append(
                '"enableActingMaster":true' if self.enable_acting_master else '"enableActingMaster":false'
            )
        if self.zone_name is not None:
            parts.append('"zoneName":' + q(self.zone_name))
        return "{" + ",".join(parts) + "}"

    def select_broker_addr(self) -> str | None:
        """The master's address, else any member's (Java picks a random one; we take the first)."""
        if not self.broker_addrs:
            return None
        master = self.broker_addrs.get(MASTER_ID)
        return master if master is not None else next(iter(self.broker_addrs.values()))


def _queue_mappings(v: Any) -> dict[str, TopicQueueMappingInfo] | None:
    if v is None:  # the usual case: not a static topic
        return None
    return j.map_of(v, "topicQueueMappingByBroker", TopicQueueMappingInfo.from_json_obj)


@dataclass(slots=True)
class TopicRouteData(DeclaredBody):
    """Where a topic lives: queue counts per broker and the brokers' addresses.

    ``filter_server_table``: broker address → filter server addresses (``HashMap``; empty unless
    filter servers run). ``topic_queue_mapping_by_broker``: 5.x static topics, broker name → its
    mapping (``HashMap``); usually absent.
    """

    order_topic_conf: str | None = wire(read=j.opt_str)
    queue_datas: list[QueueData] | None = wire(
        factory=list, absent=[], read=lambda v, what: j.list_of(v, what, QueueData.from_json_obj)
    )
    broker_datas: list[BrokerData] | None = wire(
        factory=list,
        absent=[],
        read=lambda v, what: j.list_of(v, what, BrokerData.from_json_obj),
        write=lambda v, standard: [b._json("sorted" if standard else "copy") for b in v],
    )
    filter_server_table: dict[str, list[str]] | None = wire(
        factory=dict,
        absent={},
        read=lambda v, what: j.map_of(v, what, j.req_str_list),
        write=lambda v, standard: _ordered(v, standard),
        view=lambda v: _client_map(v),
    )
    topic_queue_mapping_by_broker: dict[str, TopicQueueMappingInfo] | None = wire(
        read=lambda v, _: _queue_mappings(v),
        write=lambda v, standard: {k: x.to_json_obj(standard) for k, x in _ordered(v, standard).items()},
        view=lambda v: _client_map(v),
    )

    # The hand-written part: the name server's encoder, the text of to_json_obj() at f-string speed.
    def encode(self, standard: bool = False) -> bytes:
        """The body a name server sends: ``standard`` for clients of version 401 and later."""
        q = fastjson.browser_quote if standard else fastjson.quote
        parts = []
        if self.broker_datas is not None:
            order: Order = "sorted" if standard else "copy"
            brokers = ",".join([b._text(q, standard, order) for b in self.broker_datas])
            parts.append('"brokerDatas":[' + brokers + "]")
        fst = self.filter_server_table
        if fst is not None:
            if fst:
                items = [
                    f"{q(k)}:[{','.join([q(x) for x in v])}]" for k, v in _ordered(fst, standard).items()
                ]
                parts.append('"filterServerTable":{' + ",".join(items) + "}")
            else:
                parts.append('"filterServerTable":{}')
        if self.order_topic_conf is not None:
            parts.append('"orderTopicConf":' + q(self.order_topic_conf))
        if self.queue_datas is not None:
            parts.append('"queueDatas":[' + ",".join([x._text(q) for x in self.queue_datas]) + "]")
        tqm = self.topic_queue_mapping_by_broker
        if tqm is not None:
            value = {k: v.to_json_obj(standard) for k, v in _ordered(tqm, standard).items()}
            text = fastjson.browser_dumps(value) if standard else fastjson.dumps(value)
            parts.append('"topicQueueMappingByBroker":' + text)
        return ("{" + ",".join(parts) + "}").encode()


def _client_map(d: dict[str, Any] | None) -> dict[str, Any] | None:
    """A route's ``HashMap<String, ...>`` as the Java client iterates it."""
    return None if d is None else {k: d[k] for k in java_hash_order(list(d))}


def _ordered(d: dict[str, Any], standard: bool) -> dict[str, Any]:
    """A ``HashMap<String, ...>`` of a route: sorted for MapSortField, else in hash order."""
    return tree_ordered(d) if standard else java_hash_dict(d)
