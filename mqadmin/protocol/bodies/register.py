"""``RegisterBrokerBody``: the topic table a broker registers with a name server (REGISTER_BROKER).

The request header's ``compressed`` ext field says which of two layouts the body has.

Plain (``compressed=false``, the default of both 4.x and 5.x brokers): fastjson JSON,
``{"filterServerList":[...],"topicConfigSerializeWrapper":{...}}``. A 4.x broker sends a
``TopicConfigSerializeWrapper`` (its own topic table, ``ConcurrentHashMap(1024)`` order); a 5.x
broker a ``TopicConfigAndMappingSerializeWrapper`` whose topic table is a fresh default-sized
``ConcurrentHashMap``, so the two list the same topics in different orders.

Compressed (``compressed=true``, broker option ``compressedRegister``): one zlib stream
(``DeflaterOutputStream`` with ``Deflater.BEST_COMPRESSION``: RFC 1950 header, deflate data,
Adler-32) holding, with every int a 4-byte big-endian signed length or count::

    int  n        | n bytes: DataVersion JSON        {"counter":7,"timestamp":...}  (5.x adds stateVersion)
    int  topics
    topics x (int n | n bytes: TopicConfig line)    "name read write perm filterType"
                                                    5.x: + " " + attributes JSON if any
    int  n        | n bytes: filterServerList JSON  ["host:port",...]  or []
    5.x only:
    int  mappings
    mappings x (int n | n bytes: TopicQueueMappingInfo JSON)

Text is UTF-8. The topic line drops ``topicSysFlag`` and ``order`` (they arrive as 0 and false).
Topics are written in the order of a copy of the table (4.x: ``new ConcurrentHashMap<>()`` filled by
put; 5.x: ``new ConcurrentHashMap<>(size)`` filled by ``putAll``), mappings in the order of the
registration's ``HashMap``. A 5.x name server reads the mapping section only when the request's
version is ``V5_0_0`` or later; a 4.x name server never reads it, and rejects 5.x topic lines (it
accepts exactly five fields). Trailing bytes after what a reader needs are ignored, as Java does.

What a body may cost is the REGISTER_BROKER budget of the request registry
(:mod:`mqadmin.protocol.requests`): what a compressed body inflates to, and how many filter servers
it lists. JSON that only fastjson writes (unquoted keys, single quotes) goes through a parser written
in Python, some hundred times slower than the standard one: a body holds at most
:data:`NON_STANDARD_JSON_MAX` bytes of it (a real broker sends standard JSON, bar the small
``currIdMap`` objects of its static topics). Going over a budget raises :class:`RegisterBodyRefused`,
whose text names the limit.
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Self

from mqadmin.protocol import fastjson
from mqadmin.protocol.bodies import fieldcheck as j
from mqadmin.protocol.bodies.declared import DeclaredBody, wire
from mqadmin.protocol.bodies.queue_mapping import TopicQueueMappingInfo
from mqadmin.protocol.bodies.topic import (
    DataVersion,
    TopicConfig,
    TopicConfigAndMappingSerializeWrapper,
    TopicConfigSerializeWrapper,
)
from mqadmin.protocol.errors import ProtocolError
from mqadmin.protocol.javacoll import bucket_order, chm_capacity, chm_put_all_capacity, java_hash_dict
from mqadmin.protocol.names import NAME_MAX_LENGTH
from mqadmin.protocol.version import V5_0_0

__all__ = [
    "NON_STANDARD_JSON_MAX",
    "NonStandardJsonRefused",
    "RegisterBodyRefused",
    "RegisterBrokerBody",
    "RegisterBudget",
    "register_budget",
]

NON_STANDARD_JSON_MAX = 1 << 20
"""Bytes of non-standard JSON a registration body may hold: about half a second of the Python
parser at its slowest (``[0,0,...]``), measured; standard JSON of any size takes the C parser."""

_fast_loads: Callable[[bytes], Any] | None = None
"""orjson's reader once a body was read (it reads a registration in about 40% of json's time)."""
_fast_tried = False


def _fast_loader() -> Callable[[bytes], Any] | None:
    """orjson's ``loads``, imported by the first body read, not by importing this module (~4 ms)."""
    global _fast_loads, _fast_tried
    if not _fast_tried:
        _fast_tried = True
        try:
            import orjson
        except ImportError:  # pragma: no cover - depends on the installation
            return None
        _fast_loads = orjson.loads
    return _fast_loads


_INT = struct.Struct(">i")
_FILTER_ITEM_MAX = NAME_MAX_LENGTH + 3
"""A filter server's bytes in the list at most: a quoted ``host:port`` and its comma."""


class RegisterBodyRefused(ProtocolError):
    """A registration body over its budget; the text names the limit."""


class NonStandardJsonRefused(RegisterBodyRefused):
    """A registration body holding more non-standard JSON than its budget allows."""


@dataclass(slots=True, frozen=True)
class RegisterBudget:
    """What one registration body may cost (see the module docstring)."""

    inflated: int
    filter_servers: int
    non_standard_json: int = NON_STANDARD_JSON_MAX


def register_budget() -> RegisterBudget:
    """The REGISTER_BROKER budget the request registry declares."""
    from mqadmin.protocol.codes import RequestCode
    from mqadmin.protocol.requests import declared, limit  # the registry: a server's, not a command's

    decl = declared(RequestCode.REGISTER_BROKER)
    if decl is None or decl.budget.inflated <= 0:  # pragma: no cover - a registry bug
        raise LookupError("REGISTER_BROKER declares no inflated budget")
    return RegisterBudget(decl.budget.inflated, limit(RequestCode.REGISTER_BROKER, "filterServers"))


def _wrapper(v: Any, what: str) -> TopicConfigSerializeWrapper:
    return TopicConfigSerializeWrapper() if v is None else TopicConfigSerializeWrapper.from_json_obj(v)


def _initial(w: TopicConfigSerializeWrapper) -> int | None:
    """The capacity the broker's topic table was made with: 4.x registers its own table,
    ``new ConcurrentHashMap<>(1024)``; 5.x a ``new ConcurrentHashMap<>()``."""
    return None if isinstance(w, TopicConfigAndMappingSerializeWrapper) else 1024


@dataclass(slots=True)
class RegisterBrokerBody(DeclaredBody):
    """A broker's registration: its topic table (4.x or 5.x wrapper) and filter servers.

    ``topic_config_serialize_wrapper`` is a :class:`TopicConfigAndMappingSerializeWrapper` for a
    5.x broker's body. The JSON object is declared; the two layouts' readers and writers (the
    budgets, the compressed form, the text at f-string speed) are the hand-written part.
    """

    topic_config_serialize_wrapper: TopicConfigSerializeWrapper = wire(
        factory=TopicConfigSerializeWrapper, read=_wrapper, write=lambda w, _: w._obj(_initial(w), True)
    )
    filter_server_list: list[str] | None = wire(factory=list, absent=[], read=j.str_list)

    @property
    def is_5x(self) -> bool:
        return isinstance(self.topic_config_serialize_wrapper, TopicConfigAndMappingSerializeWrapper)

    @classmethod
    def decode(
        cls,
        body: bytes,
        *,
        compressed: bool = False,
        broker_version: int | None = None,
        budget: RegisterBudget | None = None,
    ) -> Self:
        """Decode either layout; ``compressed`` is the request's ext field.

        ``broker_version`` is the request's ``version``: with a compressed body, the mapping section
        is read when it is ``V5_0_0`` or later, as a 5.x name server does; ``None`` reads it if
        there is one. ``budget`` defaults to the registry's (:func:`register_budget`).
        """
        budget = budget or register_budget()
        reader = _JsonReader(budget.non_standard_json)
        if compressed:
            rb = cls._decode_compressed(body, broker_version, budget, reader)
        else:
            rb = cls.from_json_obj(j.obj(reader.loads(body), cls.__name__))
        _check_filter_count(len(rb.filter_server_list or ()), budget)
        return rb

    def encode(self, standard: bool = False, *, compress: bool = False) -> bytes:
        """The body as the broker sends it; ``compress`` gives the Deflate layout."""
        if compress:
            return self._encode_compressed()
        w = self.topic_config_serialize_wrapper
        wrapper = w._text(_initial(w), True, standard)
        if self.filter_server_list is None:
            return ('{"topicConfigSerializeWrapper":' + wrapper + "}").encode()
        filters = ",".join([fastjson.quote(x) for x in self.filter_server_list])
        return (
            '{"filterServerList":[' + filters + '],"topicConfigSerializeWrapper":' + wrapper + "}"
        ).encode()

    # ------------------------------------------------------------------------------ compressed form

    def _encode_compressed(self) -> bytes:
        w = self.topic_config_serialize_wrapper
        v5 = self.is_5x
        chunks: list[bytes] = []

        def put(b: bytes) -> None:
            chunks.append(_INT.pack(len(b)))
            chunks.append(b)

        put((w.data_version or DataVersion()).encode())
        table = w.topic_config_table or {}
        n = len(table)
        ordered = w._table(_initial(w))  # the table as Java iterates it, then its copy
        copy_cap = chm_put_all_capacity(n, n) if v5 else chm_capacity(n)
        keys = bucket_order(ordered, copy_cap)
        chunks.append(_INT.pack(n))
        for k in keys:
            put(table[k].to_line(v5).encode())
        if self.filter_server_list is None:
            put(b"null")
        else:
            put(fastjson.dumps(list(self.filter_server_list)).encode())
        if isinstance(w, TopicConfigAndMappingSerializeWrapper):
            infos = w.topic_queue_mapping_info_map or {}
            chunks.append(_INT.pack(len(infos)))
            for info in java_hash_dict(infos).values():
                put(fastjson.dumps(info.to_json_obj()).encode())
        z = zlib.compressobj(9)
        return z.compress(b"".join(chunks)) + z.flush()

    @classmethod
    def _decode_compressed(
        cls, body: bytes, broker_version: int | None, budget: RegisterBudget, reader: _JsonReader
    ) -> Self:
        data = _inflate(body, budget.inflated)
        r = _Reader(data)
        data_version = DataVersion.from_json_obj(reader.loads(r.chunk()), "dataVersion")
        count = r.read_int()
        if count < 0:
            raise ProtocolError("negative topic count in register body")
        table: dict[str, TopicConfig] = {}
        for _ in range(count):
            tc = TopicConfig.from_line(_utf8(r.chunk()))
            table[tc.topic_name or ""] = tc
        filters = _filter_list(r.chunk(), budget, reader)
        read_mappings = r.remaining() > 0 if broker_version is None else broker_version >= V5_0_0
        if not read_mappings:
            return cls(TopicConfigSerializeWrapper(table, data_version), filters)
        infos: dict[str, TopicQueueMappingInfo] = {}
        n_infos = r.read_int()
        if n_infos < 0:
            raise ProtocolError("negative mapping count in register body")
        for _ in range(n_infos):
            info = TopicQueueMappingInfo.from_json_obj(reader.loads(r.chunk()))
            infos[info.topic or ""] = info
        wrapper = TopicConfigAndMappingSerializeWrapper(
            topic_config_table=table, data_version=data_version, topic_queue_mapping_info_map=infos
        )
        return cls(wrapper, filters)


def _inflate(body: bytes, cap: int) -> bytes:
    """The inflated body; a zlib bomb stops at ``cap`` bytes."""
    d = zlib.decompressobj()
    try:
        data = d.decompress(bytes(body), cap + 1)
    except zlib.error as e:
        raise ProtocolError(f"register body does not inflate: {e}") from None
    if len(data) > cap:
        raise RegisterBodyRefused(f"register broker refused: the body inflates beyond the {cap} byte limit")
    return data


def _filter_list(raw: bytes, budget: RegisterBudget, reader: _JsonReader) -> list[str] | None:
    """The compressed layout's filter servers; a list too long is refused before it is parsed
    (Java registers without filter servers when the list does not parse, and so do we)."""
    most = budget.filter_servers
    if len(raw) > 2 + most * _FILTER_ITEM_MAX or raw.count(b",") >= most:
        raise RegisterBodyRefused(
            f"register broker refused: more than {most} filter servers (limit filterServers={most})"
        )
    try:
        return j.str_list(reader.loads(raw), "filterServerList")
    except RegisterBodyRefused:
        raise
    except ProtocolError:
        return []


def _check_filter_count(n: int, budget: RegisterBudget) -> None:
    most = budget.filter_servers
    if n > most:
        raise RegisterBodyRefused(
            f"register broker refused: {n} filter servers, more than {most} (limit filterServers={most})"
        )


class _JsonReader:
    """The JSON documents of one body: standard ones by orjson (or json's C parser where a string
    needs checking), the others charged against the body's allowance of non-standard JSON before the
    Python parser sees them."""

    __slots__ = ("fast", "left", "most")

    def __init__(self, allowance: int) -> None:
        self.most = allowance
        self.left = allowance
        self.fast = _fast_loader()

    def loads(self, data: bytes) -> Any:
        fast = self.fast
        if fast is not None and b"\\u" not in data and b"\x00" not in data:
            # orjson refuses whatever json or the allowance must judge (bad UTF-8, NaN, lone
            # surrogates, fastjson's own syntax); what it reads is json's reading but for integers
            # past 64 bits, which it reads as floats, and no field of a registration takes either.
            try:
                return fast(data)
            except ValueError:
                pass
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            return fastjson.loads(data)  # refused there, with its message
        import json  # not at import: a command that reads no registration skips it

        try:
            value = json.loads(text)
        except (ValueError, RecursionError):
            self.left -= len(data)
            if self.left < 0:
                raise NonStandardJsonRefused(
                    f"register broker refused: more than {self.most} bytes of non-standard JSON"
                ) from None
            return fastjson.loads(text)
        if "\\u" in text or "\x00" in text:
            return fastjson.loads(text)  # its checks of escaped strings (rare in a registration)
        return value  # what fastjson.loads gives for a standard document


def _utf8(b: bytes) -> str:
    return b.decode("utf-8", "replace")  # new String(bytes, UTF-8) replaces bad sequences


class _Reader:
    """Length-prefixed reads over the inflated bytes; running short is a ProtocolError."""

    __slots__ = ("data", "pos")

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.pos = 0

    def remaining(self) -> int:
        return len(self.data) - self.pos

    def read_int(self) -> int:
        if self.pos + 4 > len(self.data):
            raise ProtocolError("register body ends early")
        (n,) = _INT.unpack_from(self.data, self.pos)
        self.pos += 4
        return n

    def chunk(self) -> bytes:
        n = self.read_int()
        if n < 0 or self.pos + n > len(self.data):
            raise ProtocolError("bad length in register body")
        b = self.data[self.pos : self.pos + n]
        self.pos += n
        return b
