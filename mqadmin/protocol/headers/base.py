"""Request headers declared once: Java field names, types, required or not, declaration order, checks.

A header is a dataclass decorated with :func:`request_header`. The admin client builds one and sends
:meth:`RequestHeader.to_ext`; the name server and the broker read one with
:meth:`RequestHeader.decode`, which applies Java's rules (``Integer.parseInt``, ``Long.parseLong``,
``Boolean.parseBoolean``, ``@CFNotNull``) and then the name checks declared on the field, so a
handler only ever sees values that are well-formed and safe to store. Declaration order is the Java
class's (ACL signing and ext-field order depend on it).

A field without a default is required (Java's ``@CFNotNull``). Types: ``str``, ``int`` (Java
``int``/``Integer``), :data:`Long` (``long``/``Long``), ``bool``, ``float`` (``double``). Checks are
:class:`Check` markers in ``Annotated`` (:data:`Topic`, :data:`Group`, ...); :class:`Java` renames a
field whose Java name is not the camel case of ours (``bname``). The codec below reads the
annotations once, when a class is first used (:meth:`RequestHeader.fields`), as the declared bodies
read theirs: a process that sends one request reads one declaration.

Two decoding modes, as Java has two: strict (the ``FastCodesHeader`` path and every new handler: a
missing required field or a bad number refuses the request) and ``lenient`` (Java's reflective path,
which swallows both and leaves the field null, as the name server's answers to odd requests show).
Checks and the text rules (no lone surrogate, no NUL) apply in both modes.
"""

from __future__ import annotations

import dataclasses
import functools
import types
import typing
from collections.abc import Callable, Mapping
from dataclasses import KW_ONLY, dataclass, field
from typing import Annotated, Any, Self, TypeVar, dataclass_transform

from mqadmin.protocol import names
from mqadmin.protocol.errors import ProtocolError
from mqadmin.protocol.javanum import JavaNumberError, parse_double, parse_int, parse_long

__all__ = [
    "KW_ONLY",
    "SYSTEM_ERROR",
    "Annotated",
    "BrokerName",
    "Check",
    "ClusterName",
    "Group",
    "HeaderError",
    "HeaderField",
    "Java",
    "KvKey",
    "KvNamespace",
    "Long",
    "RequestHeader",
    "RpcRequestHeader",
    "Topic",
    "TopicRequestHeader",
    "ext_text",
    "field",
    "request_header",
]

SYSTEM_ERROR = 1
_EMPTY: Mapping[str, str] = {}


class HeaderError(ProtocolError):
    """A request refused before any handler work: answered with ``code`` and ``remark``, nothing changed."""

    def __init__(self, remark: str, code: int = SYSTEM_ERROR) -> None:
        super().__init__(remark)
        self.remark = remark
        self.code = code


@dataclass(frozen=True, slots=True)
class Check:
    """A field check: ``fn(value)`` returns the refusal's remark, or None; refused with ``code``."""

    fn: Callable[[str], str | None]
    code: int = SYSTEM_ERROR


@dataclass(frozen=True, slots=True)
class Java:
    """What Java calls a field where the Python declaration does not say it: its name, where it is
    not the camel case of ours (``Java("bname")``), its type (``Java(type="long")`` for an ``int``)."""

    name: str | None = None
    type: str | None = None


@dataclass(frozen=True, slots=True)
class HeaderField:
    """One declared field: Python attribute, Java name, Java type, required, checks, default."""

    attr: str
    java: str
    kind: str
    """``"str"``, ``"int"``, ``"long"``, ``"bool"`` or ``"double"``."""
    required: bool
    checks: tuple[Check, ...]
    default: Any


Long = Annotated[int, Java(type="long")]
"""A Java ``long``/``Long`` field (an ``int`` is a Java ``int``)."""

Topic = Annotated[str, Check(names.check_topic)]
Group = Annotated[str, Check(names.check_group)]
ConsumedTopic = Annotated[str, Check(names.check_consumed_topic)]
"""A topic a group consumes: any legal topic, or the ``%RETRY%``/``%DLQ%`` topic of a legal group."""
ConsumedTopicOrBlank = Annotated[str, Check(names.check_consumed_topic_or_blank)]
ClusterName = Annotated[str, Check(lambda s: names.check_name("cluster", s))]
BrokerName = Annotated[str, Check(lambda s: names.check_name("broker", s))]
KvNamespace = Annotated[str, Check(names.check_kv_namespace)]
KvKey = Annotated[str, Check(names.check_kv_key)]


def _null(name: str) -> HeaderError:
    return HeaderError(
        f"org.apache.rocketmq.remoting.exception.RemotingCommandException: the custom field <{name}> is null"
    )


def _parse_bool(text: str) -> bool:
    """``Boolean.parseBoolean``: true for "true" in any case, false for anything else."""
    return text.lower() == "true"


_PARSERS: dict[str, Callable[[str], Any] | None] = {
    "str": None,
    "int": parse_int,
    "long": parse_long,
    "bool": _parse_bool,
    "double": parse_double,
}
"""Java's parser of each field type (none for a string)."""

_Checks = tuple[tuple[Callable[[Any], str | None], int], ...]
_Step = tuple[str, str, Callable[[str], Any] | None, bool, _Checks]
"""One field as the decoder reads it: attribute, Java name, parser, required, (check, code)s."""


def ext_text(v: Any) -> str:
    """A header value as Java's ``toString`` writes it into the ext fields (booleans in lower case)."""
    if v is True:
        return "true"
    if v is False:
        return "false"
    return str(v)


class RequestHeader:
    """Base of every declared header (see the module docstring)."""

    @classmethod
    def fields(cls) -> tuple[HeaderField, ...]:
        """The fields in Java's order, read from the declaration on first use."""
        return _declaration(cls)[0]

    @classmethod
    def decode(cls, ext: Mapping[str, str] | None, *, lenient: bool = False) -> Self:
        """Read ``ext`` with Java's rules; a refusal raises :class:`HeaderError` (nothing read is kept).

        Per field: absent -> the required check or the default; text that cannot be kept -> refused;
        parsed with Java's rules (lenient: a bad number keeps the default); then the declared checks.
        """
        get = (ext or _EMPTY).get
        _, steps, defaults = _declaration(cls)
        values = dict(defaults)
        for attr, java, parse, required, checks in steps:
            v = get(java)
            if v is None:
                if required and not lenient:
                    raise _null(java)
                continue
            if not v.isascii() or "\x00" in v:
                why = names.bad_text(v)
                if why is not None:
                    raise HeaderError(f"the header field {java} {why}")
            value: Any = v
            if parse is not None:
                try:
                    value = parse(v)
                except JavaNumberError as e:
                    if not lenient:
                        raise HeaderError(str(e)) from None
                    continue  # Java keeps the default
            if checks:
                for check, code in checks:
                    remark = check(value)
                    if remark is not None:
                        raise HeaderError(remark, code)
            values[attr] = value
        obj = cls.__new__(cls)
        obj.__dict__.update(values)
        return obj

    def to_ext(self) -> dict[str, str]:
        """The ext fields a Java client sends: declaration order, null fields left out."""
        out: dict[str, str] = {}
        for f in _declaration(type(self))[0]:
            v = getattr(self, f.attr)
            if v is not None:
                out[f.java] = ext_text(v)
        return out

    def check(self) -> Self:
        """Apply the declared checks to a header built here (the CLI and the admin client call this)."""
        for f in _declaration(type(self))[0]:
            v = getattr(self, f.attr)
            if v is None:
                if f.required:
                    raise _null(f.java)
                continue
            if isinstance(v, str):
                why = names.bad_text(v)
                if why is not None:
                    raise HeaderError(f"the header field {f.java} {why}")
                for c in f.checks:
                    remark = c.fn(v)
                    if remark is not None:
                        raise HeaderError(remark, c.code)
        return self


# --------------------------------------------------------------------------- reading the declaration


def _camel(attr: str) -> str:
    head, *rest = attr.split("_")
    return head + "".join(p[:1].upper() + p[1:] for p in rest)


_KINDS: dict[object, str] = {str: "str", int: "int", bool: "bool", float: "double"}


def _one_type(hint: Any) -> Any:
    """``X`` of ``X | None`` (``Optional[X]`` too); a header field has one type."""
    if isinstance(hint, types.UnionType) or typing.get_origin(hint) is typing.Union:
        rest = [a for a in typing.get_args(hint) if a is not type(None)]
        if len(rest) != 1:
            raise TypeError(f"a header field has one type, not {hint!r}")
        return rest[0]
    return hint


def _describe(hint: Any) -> tuple[str, tuple[Check, ...], str | None]:
    """(Java kind, checks, Java name override) of one field's annotation: ``Annotated`` (nested ones
    flattened, the outer one's checks first), optionally ``| None``, around ``str``, ``int``,
    ``bool`` or ``float``."""
    checks: tuple[Check, ...] = ()
    rename: str | None = None
    kind: str | None = None
    hint = _one_type(hint)
    while typing.get_origin(hint) is Annotated:
        base, *meta = typing.get_args(hint)
        # typing flattens Annotated[Annotated[X, inner], outer] to Annotated[X, inner, outer]
        for m in reversed(meta):
            if isinstance(m, Check):
                checks = (m, *checks)
            elif isinstance(m, Java):
                rename = m.name or rename
                kind = m.type or kind
        hint = _one_type(base)
    if kind is None:
        kind = _KINDS.get(hint)
        if kind is None:
            raise TypeError(f"header fields are str, int, Long, bool or float, not {hint!r}")
    return kind, checks, rename


def _java_order(cls: type, declared: list[str]) -> list[str]:
    """Java's field walk: the class's own fields, then each superclass's own, nearest first (in
    each, the dataclass order of ``declared``)."""
    ordered: list[str] = []
    for klass in cls.__mro__:
        own = klass.__dict__.get("__annotations__", {})  # noqa: RUF063 - the class's own, not its bases'
        ordered += [n for n in declared if n in own and n not in ordered]
    return ordered


H = TypeVar("H", bound=type[RequestHeader])


@dataclass_transform(field_specifiers=(field,))
def request_header(cls: H) -> H:
    """Declare ``cls`` a request header: a dataclass whose fields the codec reads, in Java's order
    (:meth:`RequestHeader.fields`)."""
    dataclass(cls)
    return cls


_Declaration = tuple[tuple[HeaderField, ...], tuple[_Step, ...], dict[str, Any]]
"""A header class's fields in Java's order, the decoder's steps and the defaults."""


def _read_declaration(cls: type) -> _Declaration:
    """A header class's fields in Java's order, the decoder's steps and the defaults, read once
    (none for a class that is not declared, such as :class:`RequestHeader` itself)."""
    if not dataclasses.is_dataclass(cls):
        return (), (), {}
    hints = typing.get_type_hints(cls, include_extras=True)
    declared = {f.name: f for f in dataclasses.fields(cls)}
    fields = []
    for name in _java_order(cls, list(declared)):
        f = declared[name]
        kind, checks, rename = _describe(hints[name])
        required = f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
        default = None if required else f.default
        fields.append(HeaderField(name, rename or _camel(name), kind, required, checks, default))
    steps = tuple(
        (f.attr, f.java, _PARSERS[f.kind], f.required, tuple((c.fn, c.code) for c in f.checks))
        for f in fields
    )
    return tuple(fields), steps, {f.attr: f.default for f in fields}


_declaration: Callable[[type], _Declaration] = functools.cache(_read_declaration)
""":func:`_read_declaration`, once a class."""


@request_header
class RpcRequestHeader(RequestHeader):
    """Java 5.x's ``RpcRequestHeader``: namespace, broker name and oneway, after a subclass's own fields.

    Keyword-only, so a subclass's required fields stay positional; :func:`request_header` lists
    inherited fields after the class's own, as Java's field walk does (class, then superclass).
    """

    _: KW_ONLY
    ns: str | None = None
    nsd: bool | None = None
    bname: str | None = None
    oway: bool | None = None


@request_header
class TopicRequestHeader(RpcRequestHeader):
    """Java 5.x's ``TopicRequestHeader``: an ``RpcRequestHeader`` with the logical-queue flag ``lo``."""

    _: KW_ONLY
    lo: bool | None = None
