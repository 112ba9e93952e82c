"""Request headers declared once: Java field names, types, required or not, declaration order, checks.

A header is a small dataclass decorated with :func:`request_header`. The admin client builds one and
sends :meth:`RequestHeader.to_ext`; the name server and the broker read one with
:meth:`RequestHeader.decode`, which applies Java's rules (``Integer.parseInt``, ``Long.parseLong``,
``Boolean.parseBoolean``, ``@CFNotNull``) and then the name checks declared on the field, so a
handler only ever sees values that are well-formed and safe to store. Declaration order is the Java
class's (ACL signing and ext-field order depend on it).

A field without a default is required (Java's ``@CFNotNull``). Types: ``str``, ``int`` (Java
``int``/``Integer``), :data:`Long` (``long``/``Long``), ``bool``, ``float`` (``double``). Checks are
:class:`Check` markers in ``Annotated`` (:data:`Topic`, :data:`Group`, ...); :class:`Java` renames a
field whose Java name is not the camel case of ours (``bname``).

Two decoding modes, as Java has two: strict (the ``FastCodesHeader`` path and every new handler: a
missing required field or a bad number refuses the request) and ``lenient`` (Java's reflective path,
which swallows both and leaves the field null, as the name server's answers to odd requests show).
Checks and the text rules (no lone surrogate, no NUL) apply in both modes.
"""

from __future__ import annotations

import dataclasses
import inspect
import threading
import types
import typing
from collections.abc import Callable, Mapping
from typing import Annotated, Any, ClassVar, NamedTuple, Self, TypeVar, dataclass_transform

from mqadmin.protocol import names
from mqadmin.protocol.errors import ProtocolError
from mqadmin.protocol.javanum import JavaNumberError, parse_bool, parse_double, parse_int, parse_long

__all__ = [
    "SYSTEM_ERROR",
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
    "request_header",
]

SYSTEM_ERROR = 1
_EMPTY: Mapping[str, str] = {}
_Decoder = Callable[[type, Mapping[str, str], bool], Any]


class HeaderError(ProtocolError):
    """A request refused before any handler work: answered with ``code`` and ``remark``, nothing changed."""

    def __init__(self, remark: str, code: int = SYSTEM_ERROR) -> None:
        super().__init__(remark)
        self.remark = remark
        self.code = code


class Check(NamedTuple):
    """A field check: ``fn(value)`` returns the refusal's remark, or None; refused with ``code``."""

    fn: Callable[[str], str | None]
    code: int = SYSTEM_ERROR


class Java(NamedTuple):
    """The Java field name, where it is not the camel case of the Python one."""

    name: str


class _LongMarker:
    __slots__ = ()


_LONG = _LongMarker()

Long = Annotated[int, _LONG]
"""A Java ``long``/``Long`` field (an ``int`` is a Java ``int``)."""

Topic = Annotated[str, Check(names.check_topic)]
Group = Annotated[str, Check(names.check_group)]
ClusterName = Annotated[str, Check(lambda s: names.check_name("cluster", s))]
BrokerName = Annotated[str, Check(lambda s: names.check_name("broker", s))]
KvNamespace = Annotated[str, Check(names.check_kv_namespace)]
KvKey = Annotated[str, Check(names.check_kv_key)]


class HeaderField(NamedTuple):
    """One declared field: Python attribute, Java name, Java type, required, checks, default."""

    attr: str
    java: str
    kind: str  # "str" | "int" | "long" | "bool" | "double"
    required: bool
    checks: tuple[Check, ...]
    default: Any


def _null(name: str) -> HeaderError:
    return HeaderError(
        f"org.apache.rocketmq.remoting.exception.RemotingCommandException: the custom field <{name}> is null"
    )


_PARSERS: dict[str, Callable[[str], Any]] = {
    "str": str,
    "int": parse_int,
    "long": parse_long,
    "bool": parse_bool,
    "double": parse_double,
}
"""Java's parser of each field type (the generated decoders inline ``str`` and ``bool``)."""


def ext_text(v: Any) -> str:
    """A header value as Java's ``toString`` writes it into the ext fields (booleans in lower case)."""
    if v is True:
        return "true"
    if v is False:
        return "false"
    return str(v)


class RequestHeader:
    """Base of every declared header (see the module docstring)."""

    __slots__ = ()
    FIELDS: ClassVar[tuple[HeaderField, ...]] = ()
    _decoder: ClassVar[_Decoder]

    @classmethod
    def decode(cls, ext: Mapping[str, str] | None, *, lenient: bool = False) -> Self:
        """Read ``ext`` with Java's rules; a refusal raises :class:`HeaderError` (nothing read is kept)."""
        return cls._decoder(cls, ext or _EMPTY, lenient)  # type: ignore[no-any-return]

    def to_ext(self) -> dict[str, str]:
        """The ext fields a Java client sends: declaration order, null fields left out."""
        out: dict[str, str] = {}
        for f in self.FIELDS:
            v = getattr(self, f.attr)
            if v is not None:
                out[f.java] = ext_text(v)
        return out

    def check(self) -> Self:
        """Apply the declared checks to a header built here (the CLI and the admin client call this)."""
        for f in self.FIELDS:
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


def _camel(attr: str) -> str:
    head, *rest = attr.split("_")
    return head + "".join(p[:1].upper() + p[1:] for p in rest)


def _describe(hint: Any) -> tuple[str, tuple[Check, ...], str | None]:
    """(Java kind, checks, Java name override) of one annotation."""
    checks: list[Check] = []
    rename: str | None = None
    kind: str | None = None
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(hint) if a is not type(None)]
        if len(args) != 1:
            raise TypeError(f"a header field has one type, not {hint!r}")
        hint = args[0]
        origin = typing.get_origin(hint)
    if origin is Annotated:
        base, *meta = typing.get_args(hint)
        for m in meta:
            if isinstance(m, Check):
                checks.append(m)
            elif isinstance(m, Java):
                rename = m.name
            elif m is _LONG:
                kind = "long"
        hint = base
        if typing.get_origin(hint) in (typing.Union, types.UnionType):
            return _merge(_describe(hint), kind, checks, rename)
    if kind is None:
        kind = {str: "str", int: "int", bool: "bool", float: "double"}.get(hint)
        if kind is None:
            raise TypeError(f"header fields are str, int, Long, bool or float, not {hint!r}")
    return kind, tuple(checks), rename


_Described = tuple[str, tuple[Check, ...], str | None]


def _merge(inner: _Described, kind: str | None, checks: list[Check], rename: str | None) -> _Described:
    k, c, r = inner
    return kind or k, tuple(checks) + c, rename or r


H = TypeVar("H", bound=type[RequestHeader])


class _Deferred:
    """``FIELDS`` or ``_decoder`` of a header class not finished yet: reading it finishes the class.

    Each decorated class holds its own, so a subclass never reads a finished base's value.
    """

    def __init__(self, name: str) -> None:
        self.name = name

    def __get__(self, obj: object, owner: type) -> Any:
        _finish(owner)
        return owner.__dict__[self.name]


_FIELDS = _Deferred("FIELDS")
_DECODER = _Deferred("_decoder")
_finishing = threading.RLock()


def _init_then(self: Any, *args: Any, **kwargs: Any) -> None:
    """The first construction of a header class finishes it, then runs the real ``__init__``."""
    cls = type(self)
    _finish(cls)
    cls.__init__(self, *args, **kwargs)


@dataclass_transform()
def request_header(cls: H) -> H:
    """Declare ``cls`` a request header: a dataclass whose fields are recorded in declaration order.

    The work (dataclass methods, type hints, the generated decoder) is deferred to the class's first
    use, so importing a family of fifty headers costs nothing for the command that uses two of them
    (start-up time of the CLI). Headers are not slotted for the same reason: slots need a new class.
    """
    c: Any = cls
    c.FIELDS = _FIELDS
    c._decoder = _DECODER
    c.__init__ = _init_then
    return cls


def _finish(cls: type) -> None:
    with _finishing:
        for klass in reversed(cls.__mro__):  # bases first: a dataclass inherits its bases' fields
            if klass.__dict__.get("FIELDS") is _FIELDS:
                _finish_one(klass)


def _finish_one(cls: Any) -> None:
    del cls.__init__  # let dataclasses write the real one
    dataclasses.dataclass(cls)
    hints = typing.get_type_hints(cls, include_extras=True)
    fields: list[HeaderField] = []
    every = dataclasses.fields(cls)
    own = set(inspect.get_annotations(cls))
    ordered = [f for f in every if f.name in own]
    for klass in cls.__mro__[1:]:  # then each superclass's own fields, nearest first (Java's walk)
        mine = set(inspect.get_annotations(klass))
        ordered += [f for f in every if f.name in mine and f not in ordered]
    for f in ordered:
        kind, checks, rename = _describe(hints[f.name])
        has_default = f.default is not dataclasses.MISSING
        fields.append(
            HeaderField(
                attr=f.name,
                java=rename or _camel(f.name),
                kind=kind,
                required=not has_default,
                checks=checks,
                default=f.default if has_default else None,
            )
        )
    decoder = _compile_decoder(cls.__name__, tuple(fields))
    cls._decoder = decoder
    cls.FIELDS = tuple(fields)  # last: it marks the class finished


def _compile_decoder(name: str, fields: tuple[HeaderField, ...]) -> _Decoder:
    """A decoder for one header class, generated as straight-line code (the hot path of every request).

    It does exactly what a loop over the fields would: per field, absent -> required check or the
    default; text that cannot be kept -> refused; parse with Java's rules (lenient: a bad number
    keeps the default); then the declared checks.
    """
    env: dict[str, Any] = {
        "_null": _null,
        "_bad": names.bad_text,
        "HeaderError": HeaderError,
        "JavaNumberError": JavaNumberError,
    }
    lines = ["def decode(cls, ext, lenient):", "    get = ext.get", "    obj = cls.__new__(cls)"]
    for n, f in enumerate(fields):
        env[f"d{n}"] = f.default
        env[f"p{n}"] = _PARSERS[f.kind]
        lines.append(f"    v = get({f.java!r})")
        lines.append("    if v is None:")
        if f.required:
            lines.append(f"        if not lenient: raise _null({f.java!r})")
        lines.append(f"        obj.{f.attr} = d{n}")
        lines.append("    else:")
        lines.append("        if not v.isascii() or '\\x00' in v:")
        lines.append("            why = _bad(v)")
        lines.append(f"            if why is not None: raise HeaderError('the header field {f.java} ' + why)")
        pad = "        "
        if f.kind == "str":
            value = "v"
        elif f.kind == "bool":
            value = "v.lower() == 'true'"
        else:
            lines.append(f"        try: x = p{n}(v)")
            lines.append("        except JavaNumberError as e:")
            lines.append("            if not lenient: raise HeaderError(str(e)) from None")
            lines.append(f"            obj.{f.attr} = d{n}")  # Java keeps the default
            lines.append("        else:")
            pad = "            "
            value = "x"
        for c, check in enumerate(f.checks):
            env[f"c{n}_{c}"] = check.fn
            env[f"k{n}_{c}"] = check.code
            lines.append(f"{pad}r = c{n}_{c}({value})")
            lines.append(f"{pad}if r is not None: raise HeaderError(r, k{n}_{c})")
        lines.append(f"{pad}obj.{f.attr} = {value}")
    lines.append("    return obj")
    exec(compile("\n".join(lines), f"<decoder of {name}>", "exec"), env)
    return env["decode"]  # type: ignore[no-any-return]


@request_header
class RpcRequestHeader(RequestHeader):
    """Java 5.x's ``RpcRequestHeader``: namespace, broker name and oneway, after a subclass's own fields.

    Keyword-only, so a subclass's required fields stay positional; :func:`request_header` lists
    inherited fields after the class's own, as Java's field walk does (class, then superclass).
    """

    _: dataclasses.KW_ONLY
    ns: str | None = None
    nsd: bool | None = None
    bname: str | None = None
    oway: bool | None = None


@request_header
class TopicRequestHeader(RpcRequestHeader):
    """Java 5.x's ``TopicRequestHeader``: an ``RpcRequestHeader`` with the logical-queue flag ``lo``."""

    _: dataclasses.KW_ONLY
    lo: bool | None = None
