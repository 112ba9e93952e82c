"""Topic bodies: ``TopicConfig`` and the topic-config wrappers (``TopicList`` is
:mod:`mqadmin.protocol.bodies.topic_list`, ``DataVersion`` :mod:`mqadmin.protocol.bodies.dataversion`).

- ``TopicConfigSerializeWrapper`` answers GET_ALL_TOPIC_CONFIG (21) and rides in REGISTER_BROKER;
  5.x brokers send the subclass ``TopicConfigAndMappingSerializeWrapper`` with static-topic mappings.
- ``TopicConfig`` also travels as the ext fields of UPDATE_AND_CREATE_TOPIC (17) and, in compressed
  registrations, as a one-line text form (see :mod:`mqadmin.protocol.bodies.register`).

Fields that only 5.x has (``TopicConfig.attributes``, ``DataVersion.stateVersion``) are ``None``
when a body comes from a 4.x peer, so it re-encodes without them; a 5.x peer always writes them.

Each type is declared once (:mod:`mqadmin.protocol.bodies.declared`); the hand-written parts, each
labelled, are the hot text encoders, the inline reader of a registration's topic table, and the
orders a member's own declaration cannot know (tests hold them all to the declaration).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from operator import itemgetter
from typing import Any, Self

from mqadmin.protocol import fastjson
from mqadmin.protocol.bodies import fieldcheck as j
from mqadmin.protocol.bodies.dataversion import DataVersion
from mqadmin.protocol.bodies.declared import DeclaredBody, from_json, to_json, wire
from mqadmin.protocol.bodies.logic_queues import TopicQueueMappingDetail
from mqadmin.protocol.bodies.queue_mapping import TopicQueueMappingInfo
from mqadmin.protocol.errors import ProtocolError
from mqadmin.protocol.javacoll import (
    chm_capacity,
    hash_map_capacity,
    hash_ordered,
    java_hash_dict,
)
from mqadmin.protocol.perm import PERM_READ, PERM_WRITE

__all__ = [
    "TopicConfig",
    "TopicConfigAndMappingSerializeWrapper",
    "TopicConfigSerializeWrapper",
]

TOPIC_CONFIG_TABLE_INITIAL = 1024
"""A broker's topic table is ``new ConcurrentHashMap<>(1024)`` (a table of 2048)."""


@dataclass(slots=True)
class TopicConfig(DeclaredBody):
    """A topic as a broker keeps it.

    ``topic_filter_type``: the ``TopicFilterType`` name, ``SINGLE_TAG`` or ``MULTI_TAG`` (absent:
    ``SINGLE_TAG``; an explicit null stays null). ``attributes``: 5.x only (Java default: empty
    ``HashMap``); ``None`` for a 4.x peer's body.
    """

    topic_name: str | None = wire(read=j.opt_str)
    read_queue_nums: int = wire(default=16, read=lambda v, what: j.int32(v, what, 16))
    write_queue_nums: int = wire(default=16, read=lambda v, what: j.int32(v, what, 16))
    perm: int = wire(default=PERM_READ | PERM_WRITE, read=lambda v, what: j.int32(v, what, 6))
    topic_filter_type: str | None = wire(default="SINGLE_TAG", absent="SINGLE_TAG", read=j.opt_str)
    topic_sys_flag: int = wire(default=0, read=j.int32)
    order: bool = wire(default=False, read=j.boolean)
    attributes: dict[str, str] | None = wire(
        read=j.str_map,
        write=lambda v, _: java_hash_dict(v),
        view=lambda v: java_hash_dict(v or {}),  # the 5.3.3 bean: an empty HashMap
    )

    # The hand-written part: the text of to_json_obj() at f-string speed (a broker writes its whole
    # table, thousands of these, for GET_ALL_TOPIC_CONFIG and each registration); a test holds it to
    # the declaration.
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


# ---------------------------------------------------------------------------------------- wrappers


_TOPIC_FIELDS = itemgetter(
    "topicName", "readQueueNums", "writeQueueNums", "perm", "topicFilterType", "topicSysFlag", "order"
)


def _topic_table(v: Any, what: str = "topicConfigTable") -> dict[str, TopicConfig] | None:
    """A registration's topic table. The hand-written part: thousands of topics, so the usual one
    (every field present, of its type and range, no attributes or an empty map) is read inline; any
    other goes through :meth:`TopicConfig.from_json_obj`, which reads it the same way or says what is
    wrong (a test holds the two to the same answer)."""
    if v is None:
        return None
    d = j.obj(v, what)
    out: dict[str, TopicConfig] = {}
    parse = TopicConfig.from_json_obj
    make = TopicConfig
    fields = _TOPIC_FIELDS
    lo, hi = j.INT_MIN, j.INT_MAX
    for k, x in d.items():
        if type(k) is not str:
            raise ProtocolError(f"{what} has a non-string key")
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


def _ordered_table(table: dict[str, Any], capacity: int) -> dict[str, Any]:
    """A table's values as JSON objects, in the bucket order of a Java table of ``capacity``."""
    return {k: v.to_json_obj() for k, v in hash_ordered(table, capacity).items()}


def _topic_table_in(table: dict[str, TopicConfig], initial: int | None) -> dict[str, TopicConfig]:
    """The topic table as ``new ConcurrentHashMap<>(initial)`` iterates it."""
    return hash_ordered(table, chm_capacity(len(table), initial))


_MAPPING_KEYS = ("mappingDataVersion", "topicQueueMappingDetailMap", "topicQueueMappingInfoMap")


@dataclass(slots=True)
class TopicConfigSerializeWrapper(DeclaredBody):
    """A broker's topic table with its version (``TopicConfigSerializeWrapper``).

    ``topic_config_table``: topic name → config (``ConcurrentHashMap``: the broker's own table,
    created with 1024). A member left out reads as Java's field initializer (an empty table, a new
    version); an explicit null stays null.
    """

    topic_config_table: dict[str, TopicConfig] | None = wire(
        factory=dict,
        absent={},
        read=_topic_table,
        write=lambda v, _: {
            k: x.to_json_obj() for k, x in _topic_table_in(v, TOPIC_CONFIG_TABLE_INITIAL).items()
        },
    )
    data_version: DataVersion | None = wire(factory=DataVersion, absent={}, read=_data_version)

    @classmethod
    def from_json_obj(cls, value: Any, what: str | None = None) -> Self:
        """A body with static-topic mappings (a 5.x broker's) comes back as the mapping subclass."""
        d = j.obj(value, what or cls.__name__)
        if cls is TopicConfigSerializeWrapper and any(k in d for k in _MAPPING_KEYS):
            return TopicConfigAndMappingSerializeWrapper.from_json_obj(d)  # type: ignore[return-value]
        made: Self = from_json(cls, d, what or cls.__name__)
        return made

    def _table(self, initial: int | None) -> dict[str, TopicConfig]:
        return _topic_table_in(self.topic_config_table or {}, initial)

    # The hand-written part: a registration's tables are the broker's fresh copies, ordered by
    # other capacities than its own (``initial``, and see the subclass), and the topic table's text
    # is written at f-string speed; a test holds both forms to the declaration.
    def _rest(self, registration: bool) -> dict[str, Any]:
        """The JSON members but the topic table."""
        return to_json(replace(self, topic_config_table=None))

    def _obj(self, initial: int | None, registration: bool = False) -> dict[str, Any]:
        """The JSON object with the topic table ordered as ``new ConcurrentHashMap<>(initial)``."""
        out = self._rest(registration)
        if self.topic_config_table is not None:
            out["topicConfigTable"] = {k: v.to_json_obj() for k, v in self._table(initial).items()}
        return dict(sorted(out.items()))

    def _text(self, initial: int | None, registration: bool = False, standard: bool = False) -> str:
        """The text of :meth:`_obj`."""
        parts = {k: fastjson.dumps(v, standard=standard) for k, v in self._rest(registration).items()}
        if self.topic_config_table is not None:
            q = fastjson.quote
            items = [f"{q(k)}:{v._text()}" for k, v in self._table(initial).items()]
            parts["topicConfigTable"] = "{" + ",".join(items) + "}"
        return "{" + ",".join([f'"{k}":{v}' for k, v in sorted(parts.items())]) + "}"

    def encode(self, standard: bool = False) -> bytes:
        return self._text(TOPIC_CONFIG_TABLE_INITIAL, False, standard).encode()


def _mapping_infos(v: Any, what: str) -> dict[str, TopicQueueMappingInfo] | None:
    return j.map_of(v, what, TopicQueueMappingInfo.from_json_obj)


def _mapping_details(v: Any, what: str) -> dict[str, TopicQueueMappingDetail] | None:
    return j.map_of(v, what, TopicQueueMappingDetail.from_json_obj)


def _chm_ordered(table: dict[str, Any], _: bool = False) -> dict[str, Any]:
    return _ordered_table(table, chm_capacity(len(table)))


@dataclass(slots=True)
class TopicConfigAndMappingSerializeWrapper(TopicConfigSerializeWrapper):
    """5.x: the topic table plus the broker's static-topic mappings.

    In GET_ALL_TOPIC_CONFIG the tables are the broker's own (topics: ``ConcurrentHashMap(1024)``,
    details and infos: ``ConcurrentHashMap``); in a registration the topic table is a fresh
    ``ConcurrentHashMap`` and the infos a ``HashMap`` (:class:`RegisterBrokerBody` orders them so).
    Its fields are the wrapper's and its own, in the constructor's order.
    """

    topic_queue_mapping_info_map: dict[str, TopicQueueMappingInfo] | None = wire(
        factory=dict, absent={}, read=_mapping_infos, write=_chm_ordered
    )
    topic_queue_mapping_detail_map: dict[str, TopicQueueMappingDetail] | None = wire(
        factory=dict, absent={}, read=_mapping_details, write=_chm_ordered
    )
    mapping_data_version: DataVersion | None = wire(factory=DataVersion, absent={}, read=_data_version)

    def _rest(self, registration: bool) -> dict[str, Any]:
        out = TopicConfigSerializeWrapper._rest(self, registration)
        infos = self.topic_queue_mapping_info_map
        if registration and infos is not None:  # collected with Collectors.toMap: a HashMap
            out["topicQueueMappingInfoMap"] = _ordered_table(infos, hash_map_capacity(len(infos)))
        return out
