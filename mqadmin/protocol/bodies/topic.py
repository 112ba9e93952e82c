"""Topic bodies: ``TopicList``, ``TopicConfig``, ``DataVersion`` and the topic-config wrappers.

- ``TopicList`` answers GET_ALL_TOPIC_LIST_FROM_NAMESERVER (206), GET_TOPICS_BY_CLUSTER (224),
  GET_SYSTEM_TOPIC_LIST_FROM_NS (304) and GET_SYSTEM_TOPIC_LIST_FROM_BROKER (305).
- ``TopicConfigSerializeWrapper`` answers GET_ALL_TOPIC_CONFIG (21) and rides in REGISTER_BROKER;
  5.x brokers send the subclass ``TopicConfigAndMappingSerializeWrapper`` with static-topic mappings.
- ``TopicConfig`` also travels as the ext fields of UPDATE_AND_CREATE_TOPIC (17) and, in compressed
  registrations, as a one-line text form (see :mod:`mqadmin.protocol.bodies.register`).

Fields that only 5.x has (``TopicConfig.attributes``, ``DataVersion.stateVersion``) are ``None``
when a body comes from a 4.x peer, so it re-encodes without them; a 5.x peer always writes them.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from operator import itemgetter
from typing import Any, Self

from mqadmin.protocol import fastjson
from mqadmin.protocol.bodies import fieldcheck as j
from mqadmin.protocol.bodies.queue_mapping import TopicQueueMappingDetail, TopicQueueMappingInfo
from mqadmin.protocol.errors import ProtocolError
from mqadmin.protocol.javacoll import (
    bucket_order,
    chm_capacity,
    hash_map_capacity,
    hash_ordered,
    java_hash_dict,
)

__all__ = [
    "PERM_INHERIT",
    "PERM_PRIORITY",
    "PERM_READ",
    "PERM_WRITE",
    "DataVersion",
    "TopicConfig",
    "TopicConfigAndMappingSerializeWrapper",
    "TopicConfigSerializeWrapper",
    "TopicList",
]

PERM_PRIORITY = 0x1 << 3
PERM_READ = 0x1 << 2
PERM_WRITE = 0x1 << 1
PERM_INHERIT = 0x1 << 0
"""``PermName`` bits of ``perm``."""

TOPIC_CONFIG_TABLE_INITIAL = 1024
"""A broker's topic table is ``new ConcurrentHashMap<>(1024)`` (a table of 2048)."""


def _now_ms() -> int:
    return int(time.time() * 1000)


@dataclass(slots=True)
class DataVersion(j.JsonBody):
    """A config table's version: a counter bumped on change, stamped with the time of the change.

    ``timestamp``: milliseconds; Java stamps a new ``DataVersion`` with the current time, and so do
    we. ``state_version``: 5.x only (Java default 0); ``None`` for a 4.x peer's body.
    """

    timestamp: int = field(default_factory=_now_ms)
    counter: int = 0
    state_version: int | None = None

    @classmethod
    def from_json_obj(cls, obj: Any, what: str = "DataVersion") -> Self:
        d = j.obj(obj, what)
        ts = d.get("timestamp")
        return cls(
            timestamp=_now_ms() if ts is None else j.int64(ts, "timestamp"),
            counter=j.int64(d.get("counter"), "counter"),
            state_version=j.opt_int64(d.get("stateVersion"), "stateVersion"),
        )

    def to_json_obj(self, standard: bool = False) -> dict[str, Any]:
        if self.state_version is None:
            return {"counter": self.counter, "timestamp": self.timestamp}
        return {"counter": self.counter, "stateVersion": self.state_version, "timestamp": self.timestamp}

    def encode(self, standard: bool = False) -> bytes:
        return self._text().encode()

    def _text(self) -> str:
        if self.state_version is None:
            return f'{{"counter":{self.counter},"timestamp":{self.timestamp}}}'
        return (
            f'{{"counter":{self.counter},"stateVersion":{self.state_version},"timestamp":{self.timestamp}}}'
        )

    def next_version(self, state_version: int | None = None) -> None:
        """Bump the counter and re-stamp, as ``DataVersion.nextVersion`` does on every change."""
        self.timestamp = _now_ms()
        self.counter += 1
        if state_version is not None:
            self.state_version = state_version


@dataclass(slots=True)
class TopicConfig(j.JsonBody):
    """A topic as a broker keeps it.

    ``topic_filter_type``: the ``TopicFilterType`` name, ``SINGLE_TAG`` or ``MULTI_TAG``.
    ``attributes``: 5.x only (Java default: empty ``HashMap``); ``None`` for a 4.x peer's body.
    """

    topic_name: str | None = None
    read_queue_nums: int = 16
    write_queue_nums: int = 16
    perm: int = PERM_READ | PERM_WRITE
    topic_filter_type: str | None = "SINGLE_TAG"
    topic_sys_flag: int = 0
    order: bool = False
    attributes: dict[str, str] | None = None

    @classmethod
    def from_json_obj(cls, obj: Any, what: str = "TopicConfig") -> Self:
        d = j.obj(obj, what)
        g = d.get
        # The common case is checked inline: a registration carries thousands of these.
        name, rq, wq, perm, tft, flag, order = (
            g("topicName"),
            g("readQueueNums", 16),
            g("writeQueueNums", 16),
            g("perm", 6),
            g("topicFilterType", "SINGLE_TAG"),
            g("topicSysFlag", 0),
            g("order", False),
        )
        if not (
            (name is None or type(name) is str)
            and type(rq) is int
            and type(wq) is int
            and type(perm) is int
            and type(flag) is int
            and (tft is None or type(tft) is str)
            and type(order) is bool
            and j.INT_MIN <= rq <= j.INT_MAX
            and j.INT_MIN <= wq <= j.INT_MAX
            and j.INT_MIN <= perm <= j.INT_MAX
            and j.INT_MIN <= flag <= j.INT_MAX
        ):
            name = j.opt_str(name, "topicName")
            rq = j.int32(rq, "readQueueNums", 16)
            wq = j.int32(wq, "writeQueueNums", 16)
            perm = j.int32(perm, "perm", 6)
            tft = j.opt_str(tft, "topicFilterType")
            flag = j.int32(flag, "topicSysFlag")
            order = j.boolean(order, "order")
        attrs = g("attributes")
        return cls(
            name, rq, wq, perm, tft, flag, order, None if attrs is None else j.str_map(attrs, "attributes")
        )

    def to_json_obj(self, standard: bool = False) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.attributes is not None:
            out["attributes"] = java_hash_dict(self.attributes)
        out["order"] = self.order
        out["perm"] = self.perm
        out["readQueueNums"] = self.read_queue_nums
        if self.topic_filter_type is not None:
            out["topicFilterType"] = self.topic_filter_type
        if self.topic_name is not None:
            out["topicName"] = self.topic_name
        out["topicSysFlag"] = self.topic_sys_flag
        out["writeQueueNums"] = self.write_queue_nums
        return out

    def _text(self) -> str:
        q = fastjson.quote
        head = ""
        if self.attributes is not None:
            head = '"attributes":' + fastjson.dumps(java_hash_dict(self.attributes)) + ","
        tft = "" if self.topic_filter_type is None else f'"topicFilterType":{q(self.topic_filter_type)},'
        name = "" if self.topic_name is None else f'"topicName":{q(self.topic_name)},'
        return (
            f'{{{head}"order":{"true" if self.order else "false"},"perm":{self.perm},'
            f'"readQueueNums":{self.read_queue_nums},{tft}{name}'
            f'"topicSysFlag":{self.topic_sys_flag},"writeQueueNums":{self.write_queue_nums}}}'
        )

    def encode(self, standard: bool = False) -> bytes:
        return self._text().encode()

    # -------------------------------------------------------------------- compressed registration

    def to_line(self, v5: bool) -> str:
        """``TopicConfig.encode()``: ``name read write perm filterType`` (5.x: `` {attributes}``).

        5.x always appends the separator, then the attributes JSON when there is a map.
        """
        name = "null" if self.topic_name is None else self.topic_name  # StringBuilder.append(null)
        tft = "null" if self.topic_filter_type is None else self.topic_filter_type
        line = f"{name} {self.read_queue_nums} {self.write_queue_nums} {self.perm} {tft}"
        if not v5:
            return line
        if self.attributes is None:
            return line + " "
        return line + " " + fastjson.dumps(java_hash_dict(self.attributes))

    @classmethod
    def from_line(cls, line: str) -> Self:
        """``TopicConfig.decode(String)`` of 5.x (4.x accepts only the five-part form).

        The line loses ``topicSysFlag`` and ``order``: they come back as the defaults. Unreadable
        attributes are ignored, as Java does (a value with a blank breaks the format).
        """
        parts = _java_split(line, " ")
        if len(parts) < 5:
            raise ProtocolError(f"bad topic config line {line[:80]!r}")
        attributes: dict[str, str] | None = None
        if len(parts) >= 6:
            try:
                attributes = j.str_map(fastjson.loads(parts[5]), "attributes")
            except ProtocolError:
                attributes = {}
        return cls(
            topic_name=parts[0],
            read_queue_nums=_parse_int(parts[1], "readQueueNums"),
            write_queue_nums=_parse_int(parts[2], "writeQueueNums"),
            perm=_parse_int(parts[3], "perm"),
            topic_filter_type=_filter_type(parts[4]),
            attributes=attributes,
        )


def _filter_type(s: str) -> str:
    if s not in ("SINGLE_TAG", "MULTI_TAG"):
        raise ProtocolError(f"bad topic filter type {s[:40]!r}")
    return s


def _parse_int(s: str, what: str) -> int:
    """``Integer.parseInt``: optional sign, ASCII digits, in int range."""
    body = s[1:] if s[:1] in ("-", "+") else s
    if not body or not body.isascii() or not body.isdigit():
        raise ProtocolError(f"{what} is not a number: {s[:40]!r}")
    n = int(s)
    if not j.INT_MIN <= n <= j.INT_MAX:
        raise ProtocolError(f"{what} is out of int range: {s[:40]!r}")
    return n


def _java_split(text: str, sep: str) -> list[str]:
    """``String.split`` of a one-character separator: trailing empty strings are dropped."""
    parts = text.split(sep)
    while parts and parts[-1] == "":
        parts.pop()
    return parts


def parse_attributes(text: str) -> dict[str, str]:
    """``AttributeParser.parseToMap``: ``+k=v,+k2=v2,-k3`` (keys keep their sign)."""
    out: dict[str, str] = {}
    for kv in _java_split(text, ","):
        if "=" in kv:
            pieces = _java_split(kv, "=")
            if len(pieces) < 2 or "+" not in pieces[0]:
                raise ProtocolError(f"add/alter attribute format is wrong: {kv[:40]}")
            key, value = pieces[0], pieces[1]
        else:
            key, value = kv, ""
            if "-" not in key:
                raise ProtocolError(f"delete attribute format is wrong: {key[:40]}")
        if key in out:
            raise ProtocolError(f"key duplication: {key[:40]}")
        out[key] = value
    return out


# ------------------------------------------------------------------------------------------- lists


def _topic_names(v: Any, what: str) -> list[str]:
    return list(dict.fromkeys(j.req_str_list(v, what)))


@dataclass(slots=True)
class TopicList:
    """A set of topic names (and, for some answers, the broker they came from).

    ``topic_list``: a Java ``Set``; a list here to keep the order it came in. ``concurrent``: order
    as a 5.x name server's ``ConcurrentHashMap.newKeySet()`` rather than a 4.x ``HashSet``; the two
    only part at 12, 24, 48, ... names (see :func:`mqadmin.protocol.javacoll.chm_capacity`). A
    broker's answer (305) is a ``HashSet`` in both versions. Equality ignores ``concurrent``.
    """

    topic_list: list[str] = field(default_factory=list)
    broker_addr: str | None = None
    concurrent: bool = field(default=False, compare=False)

    @classmethod
    def from_json_obj(cls, obj: Any, *, concurrent: bool = False) -> Self:
        d = j.obj(obj, "TopicList")
        names = d.get("topicList")
        return cls(
            [] if names is None else _topic_names(names, "topicList"),
            j.opt_str(d.get("brokerAddr"), "brokerAddr"),
            concurrent,
        )

    def _ordered(self) -> list[str]:
        names = list(dict.fromkeys(self.topic_list))
        if len(names) < 2:
            return names
        n = len(names)
        cap = chm_capacity(n) if self.concurrent else hash_map_capacity(n)
        return bucket_order(names, cap)

    def to_json_obj(self, standard: bool = False) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.broker_addr is not None:
            out["brokerAddr"] = self.broker_addr
        out["topicList"] = self._ordered()
        return out

    @classmethod
    def decode(cls, body: bytes, *, concurrent: bool = False) -> Self:
        return cls.from_json_obj(j.decode_object(body, cls.__name__), concurrent=concurrent)

    def encode(self, standard: bool = False) -> bytes:
        q = fastjson.quote
        head = "" if self.broker_addr is None else f'"brokerAddr":{q(self.broker_addr)},'
        return ("{" + head + '"topicList":[' + ",".join([q(t) for t in self._ordered()]) + "]}").encode()


# ---------------------------------------------------------------------------------------- wrappers


_TOPIC_FIELDS = itemgetter(
    "topicName", "readQueueNums", "writeQueueNums", "perm", "topicFilterType", "topicSysFlag", "order"
)


def _topic_table(v: Any) -> dict[str, TopicConfig] | None:
    """A registration's topic table: thousands of topics, so the usual one (every field present,
    of its type and range, no attributes or an empty map) is read inline; any other goes through
    :meth:`TopicConfig.from_json_obj`, which reads it the same way or says what is wrong."""
    if v is None:
        return None
    d = j.obj(v, "topicConfigTable")
    out: dict[str, TopicConfig] = {}
    parse = TopicConfig.from_json_obj
    make = TopicConfig
    fields = _TOPIC_FIELDS
    lo, hi = j.INT_MIN, j.INT_MAX
    for k, x in d.items():
        if type(k) is not str:
            raise ProtocolError("topicConfigTable has a non-string key")
        if type(x) is dict:
            try:
                name, rq, wq, perm, tft, flag, order = fields(x)
            except KeyError:
                out[k] = parse(x)
                continue
            attrs = x.get("attributes")
            if (
                type(name) is str
                and type(tft) is str
                and type(order) is bool
                and type(rq) is type(wq) is type(perm) is type(flag) is int
                and lo <= rq <= hi
                and lo <= wq <= hi
                and lo <= perm <= hi
                and lo <= flag <= hi
                and (attrs is None or (type(attrs) is dict and not attrs))
            ):
                out[k] = make(name, rq, wq, perm, tft, flag, order, None if attrs is None else {})
                continue
        elif x is None:
            continue
        out[k] = parse(x)
    return out


def _data_version(v: Any, what: str) -> DataVersion | None:
    return None if v is None else DataVersion.from_json_obj(v, what)


_MAPPING_KEYS = ("mappingDataVersion", "topicQueueMappingDetailMap", "topicQueueMappingInfoMap")


@dataclass(slots=True)
class TopicConfigSerializeWrapper(j.JsonBody):
    """A broker's topic table with its version (``TopicConfigSerializeWrapper``).

    ``topic_config_table``: topic name → config (``ConcurrentHashMap``: the broker's own table,
    created with 1024).
    """

    topic_config_table: dict[str, TopicConfig] | None = field(default_factory=dict)
    data_version: DataVersion | None = field(default_factory=DataVersion)

    @classmethod
    def from_json_obj(cls, obj: Any) -> Self:
        """A body with static-topic mappings (a 5.x broker's) comes back as the mapping subclass."""
        d = j.obj(obj, "TopicConfigSerializeWrapper")
        if cls is TopicConfigSerializeWrapper and any(k in d for k in _MAPPING_KEYS):
            return TopicConfigAndMappingSerializeWrapper.from_json_obj(d)  # type: ignore[return-value]
        return cls(
            _topic_table(d.get("topicConfigTable", {})),
            _data_version(d.get("dataVersion", {}), "dataVersion"),
        )

    def to_json_obj(self, standard: bool = False) -> dict[str, Any]:
        return self._obj(TOPIC_CONFIG_TABLE_INITIAL)

    def _table(self, initial: int | None) -> dict[str, TopicConfig]:
        t = self.topic_config_table or {}
        return hash_ordered(t, chm_capacity(len(t), initial))

    def _obj(self, initial: int | None, registration: bool = False) -> dict[str, Any]:
        """JSON values with the topic table ordered as ``new ConcurrentHashMap<>(initial)``."""
        out: dict[str, Any] = {}
        if self.data_version is not None:
            out["dataVersion"] = self.data_version.to_json_obj()
        if self.topic_config_table is not None:
            out["topicConfigTable"] = {k: v.to_json_obj() for k, v in self._table(initial).items()}
        return out

    def _text(self, initial: int | None, registration: bool = False, standard: bool = False) -> str:
        parts = []
        if self.data_version is not None:
            parts.append('"dataVersion":' + self.data_version._text())
        if self.topic_config_table is not None:
            q = fastjson.quote
            items = [f"{q(k)}:{v._text()}" for k, v in self._table(initial).items()]
            parts.append('"topicConfigTable":{' + ",".join(items) + "}")
        return "{" + ",".join(parts) + "}"

    def encode(self, standard: bool = False) -> bytes:
        return self._text(TOPIC_CONFIG_TABLE_INITIAL, False, standard).encode()


def _mapping_infos(v: Any, what: str) -> dict[str, TopicQueueMappingInfo] | None:
    return j.map_of(v, what, TopicQueueMappingInfo.from_json_obj)


def _mapping_details(v: Any, what: str) -> dict[str, TopicQueueMappingDetail] | None:
    return j.map_of(v, what, TopicQueueMappingDetail.from_json_obj)


@dataclass(slots=True)
class TopicConfigAndMappingSerializeWrapper(TopicConfigSerializeWrapper):
    """5.x: the topic table plus the broker's static-topic mappings.

    In GET_ALL_TOPIC_CONFIG the tables are the broker's own (topics: ``ConcurrentHashMap(1024)``,
    details: ``ConcurrentHashMap``); in a registration the topic table is a fresh
    ``ConcurrentHashMap`` and the infos a ``HashMap`` (:class:`RegisterBrokerBody` orders them so).
    Its fields are the wrapper's and its own, in the constructor's order.
    """

    topic_queue_mapping_info_map: dict[str, TopicQueueMappingInfo] | None = field(default_factory=dict)
    topic_queue_mapping_detail_map: dict[str, TopicQueueMappingDetail] | None = field(default_factory=dict)
    mapping_data_version: DataVersion | None = field(default_factory=DataVersion)

    @classmethod
    def from_json_obj(cls, obj: Any) -> Self:
        d = j.obj(obj, "TopicConfigAndMappingSerializeWrapper")
        return cls(
            _topic_table(d.get("topicConfigTable", {})),
            _data_version(d.get("dataVersion", {}), "dataVersion"),
            _mapping_infos(d.get("topicQueueMappingInfoMap", {}), "topicQueueMappingInfoMap"),
            _mapping_details(d.get("topicQueueMappingDetailMap", {}), "topicQueueMappingDetailMap"),
            _data_version(d.get("mappingDataVersion", {}), "mappingDataVersion"),
        )

    def _obj(self, initial: int | None, registration: bool = False) -> dict[str, Any]:
        out = TopicConfigSerializeWrapper._obj(self, initial)
        if self.mapping_data_version is not None:
            out["mappingDataVersion"] = self.mapping_data_version.to_json_obj()
        details = self.topic_queue_mapping_detail_map
        if details is not None:
            ordered = hash_ordered(details, chm_capacity(len(details)))
            out["topicQueueMappingDetailMap"] = {k: v.to_json_obj() for k, v in ordered.items()}
        infos = self.topic_queue_mapping_info_map
        if infos is not None:
            # a registration collects them with Collectors.toMap (a HashMap); else a ConcurrentHashMap
            cap = hash_map_capacity(len(infos)) if registration else chm_capacity(len(infos))
            out["topicQueueMappingInfoMap"] = {
                k: v.to_json_obj() for k, v in hash_ordered(infos, cap).items()
            }
        return dict(sorted(out.items()))

    def _text(self, initial: int | None, registration: bool = False, standard: bool = False) -> str:
        return fastjson.dumps(self._obj(initial, registration), standard=standard)
