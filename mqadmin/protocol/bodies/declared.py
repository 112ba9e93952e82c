"""Bodies declared once: each field's Java name, reader, writer and view as dataclass field metadata.

A declared body is a dataclass whose fields are made with :func:`wire`, and a
:class:`DeclaredBody`. One codec reads the declaration: :func:`from_json` (Java's decoding, each
member through its reader, strict or lenient as the reader is), :func:`to_json` (fastjson's
members: sorted by Java name, nulls left out) and :func:`java_view` (the bean the Java tool prints).
Equality and the repr are the dataclass's. The quirks that are data sit on the field: a map with
numeric keys or in a Java collection's order has its own writer and view; what a missing member
reads as is ``absent``.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Self

from mqadmin.protocol.bodies.fieldcheck import JsonBody, obj

__all__ = ["DeclaredBody", "Member", "from_json", "java_view", "members", "to_json", "wire"]

Reader = Callable[[Any, str], Any]
"""Reads one member's JSON value (``None`` when absent, unless ``absent`` says otherwise); the second
argument names it in errors."""
Writer = Callable[[Any, bool], Any]
"""Writes one non-null member as JSON values; the flag is ``standard`` (standard JSON asked for)."""


@dataclass(frozen=True, slots=True)
class Member:
    """One declared member: attribute, Java name, reader, value when absent, writer and view."""

    attr: str
    java: str
    read: Reader
    absent: Any
    write: Writer | None
    """``None``: the value as is (a declared body, or a list or map of them, writes itself)."""
    view: Callable[[Any], Any] | None
    """How the Java client's bean holds the value (a map's Java order, a primitive's default)."""


_WIRE = "wire"


def wire(
    *,
    read: Reader,
    required: bool = False,
    default: Any = None,
    factory: Callable[[], Any] | None = None,
    java: str | None = None,
    absent: Any = None,
    write: Writer | None = None,
    view: Callable[[Any], Any] | None = None,
) -> Any:
    """A dataclass field declared for the wire: its Java name (the camel case of the attribute unless
    given), how it is read and written, and its default (``factory`` for a new list or map; none
    when ``required``: the constructor asks for it)."""
    meta = {_WIRE: (java, read, absent, write, view)}
    if required:
        return dataclasses.field(metadata=meta)
    if factory is not None:
        return dataclasses.field(default_factory=factory, metadata=meta)
    return dataclasses.field(default=default, metadata=meta)


def _camel(attr: str) -> str:
    head, *rest = attr.split("_")
    return head + "".join(p[:1].upper() + p[1:] for p in rest)


def _members_of(cls: type) -> tuple[Member, ...]:
    out = []
    for f in dataclasses.fields(cls):
        declared = f.metadata.get(_WIRE)
        if declared is not None:
            java, read, absent, write, view = declared
            out.append(Member(f.name, java or _camel(f.name), read, absent, write, view))
    return tuple(sorted(out, key=lambda m: m.java))


members: Callable[[type], tuple[Member, ...]] = functools.cache(_members_of)
"""The declared members of a class in fastjson's order (sorted by Java name), read once."""


def _readers_of(cls: type) -> tuple[tuple[str, str, Reader, Any], ...]:
    return tuple((m.attr, m.java, m.read, m.absent) for m in members(cls))


def _writers_of(cls: type) -> tuple[tuple[str, str, Writer | None], ...]:
    return tuple((m.attr, m.java, m.write) for m in members(cls))


_readers: Callable[[type], tuple[tuple[str, str, Reader, Any], ...]] = functools.cache(_readers_of)
_writers: Callable[[type], tuple[tuple[str, str, Writer | None], ...]] = functools.cache(_writers_of)
"""The members as plain tuples, read once: the codec's loops are the hot part of a big table."""

_PLAIN = frozenset((str, int, bool, float))
"""JSON values written as they are."""


def from_json(cls: type[Any], value: Any, what: str) -> Any:
    """A ``cls`` read from one JSON object, each member through its reader."""
    get = obj(value, what).get
    return cls(**{attr: read(get(java, absent), java) for attr, java, read, absent in _readers(cls)})


def _json_value(v: Any, standard: bool) -> Any:
    if isinstance(v, list):
        return [_json_value(x, standard) for x in v]
    if isinstance(v, dict):
        return {k: _json_value(x, standard) for k, x in v.items()}
    to_json_obj = getattr(v, "to_json_obj", None)
    return v if to_json_obj is None else to_json_obj(standard)


def to_json(value: Any, standard: bool = False) -> dict[str, Any]:
    """The JSON object of a declared body: members sorted by Java name, null members left out."""
    out: dict[str, Any] = {}
    for attr, java, write in _writers(type(value)):
        v = getattr(value, attr)
        if v is None:
            continue
        if write is not None:
            out[java] = write(v, standard)
        elif type(v) in _PLAIN:
            out[java] = v
        else:
            out[java] = _json_value(v, standard)
    return out


def java_view(value: Any, bean: Callable[[dict[str, Any]], Any], other: Callable[[Any], Any]) -> Any:
    """``value`` as the Java client holds it, for printing: a declared body as ``bean`` of its
    members' views (nulls left out), lists and maps item by item, any other body as ``other`` of its
    JSON object."""
    if isinstance(value, DeclaredBody):
        props = {}
        for m in members(type(value)):
            v = getattr(value, m.attr)
            if m.view is not None:
                v = m.view(v)
            if v is not None:
                props[m.java] = java_view(v, bean, other)
        return bean(props)
    if isinstance(value, list):
        return [java_view(x, bean, other) for x in value]
    if isinstance(value, dict):
        return {k: java_view(v, bean, other) for k, v in value.items()}
    if hasattr(value, "to_json_obj"):
        return other(value.to_json_obj())
    return value


class DeclaredBody(JsonBody):
    """A body whose JSON object is read and written from its declaration (see the module docstring)."""

    __slots__ = ()

    @classmethod
    def from_json_obj(cls, value: Any, what: str | None = None) -> Self:
        made: Self = from_json(cls, value, what or cls.__name__)
        return made

    def to_json_obj(self, standard: bool = False) -> dict[str, Any]:
        return to_json(self, standard)
