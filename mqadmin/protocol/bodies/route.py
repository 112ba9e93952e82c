"""Topic routes: ``TopicRouteData`` with its ``QueueData`` and ``BrokerData`` (GET_ROUTEINFO_BY_TOPIC).

A name server answers a route query in one of two forms. Clients of version ``V4_9_4`` (ordinal
401) and later, or any that sets ``acceptStandardJsonOnly``, get standard JSON: fastjson with
``BrowserCompatible`` and ``MapSortField``, so ``"brokerAddrs":{"0":"..."}`` with quoted keys, every
map sorted, ``/`` and non-ASCII escaped. Older clients (the C++ client says version 63) get the
legacy form, ``{0:"..."}`` with maps in ``HashMap`` order. ``encode(standard=...)`` writes either;
the encoder is hand-written because a name server answers tens of thousands of these a second.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, Self

from mqadmin.protocol import fastjson
from mqadmin.protocol.bodies import _json as j
from mqadmin.protocol.errors import ProtocolError
from mqadmin.protocol.javacoll import (
    bucket_order,
    hash_map_capacity,
    hash_map_copy_capacity,
    java_hash_dict,
    tree_ordered,
)

if TYPE_CHECKING:
    from mqadmin.protocol.bodies.static_topic import TopicQueueMappingInfo

Order = Literal["sorted", "copy", "live"]
"""How ``brokerAddrs`` iterates: sorted (MapSortField), a route's copy of the map, the live map."""

__all__ = ["BrokerData", "QueueData", "TopicRouteData"]

MASTER_ID = 0
"""``MixAll.MASTER_ID``: the broker id of a master in ``brokerAddrs``."""


@dataclass(slots=True)
class QueueData(j.JsonBody):
    """How many queues a topic has on one broker, and their permission."""

    broker_name: str | None = None
    read_queue_nums: int = 0
    write_queue_nums: int = 0
    perm: int = 0
    topic_sys_flag: int = 0

    def copy(self) -> QueueData:
        """A copy (a route handed out must not share its queue data with the live table)."""
        return QueueData(
            self.broker_name, self.read_queue_nums, self.write_queue_nums, self.perm, self.topic_sys_flag
        )

    @classmethod
    def from_json_obj(cls, obj: Any, what: str = "QueueData") -> Self:
        d = j.obj(obj, what)
        return cls(
            j.opt_str(d.get("brokerName"), "brokerName"),
            j.int32(d.get("readQueueNums"), "readQueueNums"),
            j.int32(d.get("writeQueueNums"), "writeQueueNums"),
            j.int32(d.get("perm"), "perm"),
            j.int32(d.get("topicSysFlag"), "topicSysFlag"),
        )

    def to_json_obj(self, standard: bool = False) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.broker_name is not None:
            out["brokerName"] = self.broker_name
        out["perm"] = self.perm
        out["readQueueNums"] = self.read_queue_nums
        out["topicSysFlag"] = self.topic_sys_flag
        out["writeQueueNums"] = self.write_queue_nums
        return out

    def _text(self, q: Callable[[str], str]) -> str:
        name = "" if self.broker_name is None else f'"brokerName":{q(self.broker_name)},'
        return (
            f'{{{name}"perm":{self.perm},"readQueueNums":{self.read_queue_nums},'
            f'"topicSysFlag":{self.topic_sys_flag},"writeQueueNums":{self.write_queue_nums}}}'
        )


def _broker_addrs(v: Any) -> dict[int, str] | None:
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


@dataclass(slots=True)
class BrokerData(j.JsonBody):
    """One broker group: its cluster, name and the address of each member by broker id.

    ``broker_addrs``: broker id → ``host:port`` (``HashMap<Long, String>``; id 0 is the master).
    ``enable_acting_master``: 5.x only (Java default ``false``); ``None`` is a 4.x body, where the
    property does not exist.
    """

    cluster: str | None = None
    broker_name: str | None = None
    broker_addrs: dict[int, str] | None = None
    zone_name: str | None = None
    enable_acting_master: bool | None = None

    @classmethod
    def from_json_obj(cls, obj: Any, what: str = "BrokerData") -> Self:
        d = j.obj(obj, what)
        return cls(
            j.opt_str(d.get("cluster"), "cluster"),
            j.opt_str(d.get("brokerName"), "brokerName"),
            _broker_addrs(d.get("brokerAddrs")),
            j.opt_str(d.get("zoneName"), "zoneName"),
            j.opt_bool(d.get("enableActingMaster"), "enableActingMaster"),
        )

    def to_json_obj(self, standard: bool = False) -> dict[str, Any]:
        """As a name server's live table holds it (``standard`` only changes how keys are quoted)."""
        return self._json("live")

    def _json(self, order: Order) -> dict[str, Any]:
        out: dict[str, Any] = {}
        addrs = self.broker_addrs
        if addrs is not None:
            out["brokerAddrs"] = {k: addrs[k] for k in _addr_keys(addrs, order)}
        if self.broker_name is not None:
            out["brokerName"] = self.broker_name
        if self.cluster is not None:
            out["cluster"] = self.cluster
        if self.enable_acting_master is not None:
            out["enableActingMaster"] = self.enable_acting_master
        if self.zone_name is not None:
            out["zoneName"] = self.zone_name
        return out

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


def _filter_server_table(v: Any) -> dict[str, list[str]] | None:
    return j.map_of(v, "filterServerTable", j.req_str_list)


def _queue_mappings(v: Any) -> dict[str, TopicQueueMappingInfo] | None:
    if v is None:  # the usual case: the static-topic bodies are imported only for a static topic
        return None
    from mqadmin.protocol.bodies.static_topic import TopicQueueMappingInfo

    return j.map_of(v, "topicQueueMappingByBroker", TopicQueueMappingInfo.from_json_obj)


@dataclass(slots=True)
class TopicRouteData(j.JsonBody):
    """Where a topic lives: queue counts per broker and the brokers' addresses.

    ``filter_server_table``: broker address → filter server addresses (``HashMap``; empty unless
    filter servers run). ``topic_queue_mapping_by_broker``: 5.x static topics, broker name → its
    mapping (``HashMap``); usually absent.
    """

    order_topic_conf: str | None = None
    queue_datas: list[QueueData] | None = field(default_factory=list)
    broker_datas: list[BrokerData] | None = field(default_factory=list)
    filter_server_table: dict[str, list[str]] | None = field(default_factory=dict)
    topic_queue_mapping_by_broker: dict[str, TopicQueueMappingInfo] | None = None

    @classmethod
    def from_json_obj(cls, obj: Any) -> Self:
        d = j.obj(obj, "TopicRouteData")
        return cls(
            j.opt_str(d.get("orderTopicConf"), "orderTopicConf"),
            j.list_of(d.get("queueDatas", []), "queueDatas", QueueData.from_json_obj),
            j.list_of(d.get("brokerDatas", []), "brokerDatas", BrokerData.from_json_obj),
            _filter_server_table(d.get("filterServerTable", {})),
            _queue_mappings(d.get("topicQueueMappingByBroker")),
        )

    def to_json_obj(self, standard: bool = False) -> dict[str, Any]:
        """Plain JSON values; with ``standard`` every map is sorted, as ``MapSortField`` does."""
        out: dict[str, Any] = {}
        if self.broker_datas is not None:
            order: Order = "sorted" if standard else "copy"
            out["brokerDatas"] = [b._json(order) for b in self.broker_datas]
        if self.filter_server_table is not None:
            out["filterServerTable"] = _ordered(self.filter_server_table, standard)
        if self.order_topic_conf is not None:
            out["orderTopicConf"] = self.order_topic_conf
        if self.queue_datas is not None:
            out["queueDatas"] = [q.to_json_obj(standard) for q in self.queue_datas]
        if self.topic_queue_mapping_by_broker is not None:
            tqm = _ordered(self.topic_queue_mapping_by_broker, standard)
            out["topicQueueMappingByBroker"] = {k: v.to_json_obj(standard) for k, v in tqm.items()}
        return out

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


def _ordered(d: dict[str, Any], standard: bool) -> dict[str, Any]:
    """A ``HashMap<String, ...>`` of a route: sorted for MapSortField, else in hash order."""
    return tree_ordered(d) if standard else java_hash_dict(d)
