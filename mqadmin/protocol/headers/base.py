"""Request headers declared once: Java field names, types, required or not, declaration order, checks.

A header is a small class decorated with :func:`request_header`, declared like a dataclass. The admin
client builds one and sends :meth:`RequestHeader.to_ext`; the name server and the broker read one
with :meth:`RequestHeader.decode`, which applies Java's rules (``Integer.parseInt``,
``Long.parseLong``, ``Boolean.parseBoolean``, ``@CFNotNull``) and then the name checks declared on
the field, so a handler only ever sees values that are well-formed and safe to store. Declaration
order is the Java class's (ACL signing and ext-field order depend on it).

A field without a default is required (Java's ``@CFNotNull``). Types: ``str``, ``int`` (Java
``int``/``Integer``), :data:`Long` (``long``/``Long``), ``bool``, ``float`` (``double``). Checks are
:class:`Check` markers in ``Annotated`` (:data:`Topic`, :data:`Group`, ...); :class:`Java` renames a
field whose Java name is not the camel case of ours (``bname``).

Two decoding modes, as Java has two: strict (the ``FastCodesHeader`` path and every new handler: a
missing required field or a bad number refuses the request) and ``lenient`` (Java's reflective path,
which swallows both and leaves the field null, as the name server's answers to odd requests show).
Checks and the text rules (no lone surrogate, no NUL) apply in both modes.

Nothing here imports ``typing`` or ``dataclasses`` at run time (the client's start-up): the type
checker sees ``typing.Annotated``, ``dataclasses.KW_ONLY`` and a dataclass transform, while at run
time :data:`Annotated`, :data:`KW_ONLY` and :func:`field` are small stand-ins and a class's
``__init__``, ``__eq__``, ``__repr__`` and decoder are generated on its first use, as a dataclass
would have made them. ``dataclasses.fields``/``replace``/``asdict`` still work on a header (they
import ``dataclasses``, a rare path).
"""

from __future__ import annotations

import builtins
import sys
from _thread import RLock

from mqadmin.protocol import names
from mqadmin.protocol.errors import ProtocolError
from mqadmin.protocol.javanum import JavaNumberError, parse_bool, parse_double, parse_int, parse_long

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from dataclasses import KW_ONLY
    from typing import Annotated, Any, ClassVar, Self, TypeVar, dataclass_transform

    _Decoder = Callable[[type, Mapping[str, str], bool], Any]
    _Described = tuple[str, tuple["Check", ...], str | None]
    H = TypeVar("H", bound=type["RequestHeader"])
    _CheckBase = tuple[Callable[[str], str | None], int]
    _JavaBase = tuple[str]
    _FieldBase = tuple[str, str, str, bool, tuple["Check", ...], Any]
else:
    _CheckBase = _JavaBase = _FieldBase = tuple

    def dataclass_transform(**_: object) -> Callable[[H], H]:
        return lambda f: f


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


class Check(_CheckBase):
    """A field check: ``fn(value)`` returns the refusal's remark, or None; refused with ``code``.

    A tuple ``(fn, code)`` (it was a ``NamedTuple``: it still compares and unpacks as one).
    """

    __slots__ = ()

    def __new__(cls, fn: Callable[[str], str | None], code: int = SYSTEM_ERROR) -> Self:
        return tuple.__new__(cls, (fn, code))

    @property
    def fn(self) -> Callable[[str], str | None]:
        return self[0]

    @property
    def code(self) -> int:
        return self[1]

    def __repr__(self) -> str:
        return f"Check(fn={self[0]!r}, code={self[1]!r})"


class Java(_JavaBase):
    """The Java field name, where it is not the camel case of the Python one (a tuple ``(name,)``)."""

    __slots__ = ()

    def __new__(cls, name: str) -> Self:
        return tuple.__new__(cls, (name,))

    @property
    def name(self) -> str:
        return self[0]

    def __repr__(self) -> str:
        return f"Java(name={self[0]!r})"


class HeaderField(_FieldBase):
    """One declared field: Python attribute, Java name, Java type, required, checks, default.

    A tuple of those six, in that order (it was a ``NamedTuple``).
    """

    __slots__ = ()

    def __new__(
        cls, attr: str, java: str, kind: str, required: bool, checks: tuple[Check, ...], default: Any
    ) -> Self:
        return tuple.__new__(cls, (attr, java, kind, required, checks, default))

    @property
    def attr(self) -> str:
        return self[0]

    @property
    def java(self) -> str:
        return self[1]

    @property
    def kind(self) -> str:
        """``"str"``, ``"int"``, ``"long"``, ``"bool"`` or ``"double"``."""
        return self[2]

    @property
    def required(self) -> bool:
        return self[3]

    @property
    def checks(self) -> tuple[Check, ...]:
        return self[4]

    @property
    def default(self) -> Any:
        return self[5]

    def __repr__(self) -> str:
        a, j, k, r, c, d = self
        return f"HeaderField(attr={a!r}, java={j!r}, kind={k!r}, required={r!r}, checks={c!r}, default={d!r})"


# ------------------------------------------------------------------------ run-time stand-ins


class _Hint:
    """What ``Annotated[base, *meta]`` is at run time: the base type and the metadata (a ``| None``
    after it is accepted and dropped: every field may be null on the wire)."""

    __slots__ = ("base", "meta")

    def __init__(self, base: object, meta: tuple[object, ...]) -> None:
        self.base = base
        self.meta = meta

    def __or__(self, other: object) -> _Hint:
        if other is None or other is type(None):
            return self
        return NotImplemented

    __ror__ = __or__

    def __repr__(self) -> str:
        return f"Annotated[{', '.join(map(repr, (self.base, *self.meta)))}]"


class _AnnotatedForm:
    """``Annotated[base, *meta]`` at run time (nested ones are flattened, as ``typing`` does)."""

    __slots__ = ()

    def __getitem__(self, params: tuple[object, ...]) -> _Hint:
        if not isinstance(params, tuple) or len(params) < 2:
            raise TypeError("Annotated[...] takes a type and at least one annotation")
        base, *meta = params
        if isinstance(base, _Hint):
            return _Hint(base.base, base.meta + tuple(meta))
        return _Hint(base, tuple(meta))

    def __repr__(self) -> str:
        return "Annotated"


class _KwOnly:
    """``dataclasses.KW_ONLY`` at run time: the fields after ``_: KW_ONLY`` are keyword-only."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "KW_ONLY"


class _MissingType:
    __slots__ = ()

    def __repr__(self) -> str:
        return "MISSING"


_MISSING: Any = _MissingType()


class _Field:
    """What :func:`field` returns: a default (or none) and whether the field is keyword-only."""

    __slots__ = ("default", "kw_only")

    def __init__(self, default: object, kw_only: bool) -> None:
        self.default = default
        self.kw_only = kw_only


def field(*, default: Any = _MISSING, kw_only: bool = False) -> Any:
    """``dataclasses.field`` for a header: ``order: bool = field(kw_only=True)`` is a required
    keyword-only field (Java's ``@CFNotNull`` on a field after optional ones)."""
    return _Field(default, kw_only)


if not TYPE_CHECKING:
    Annotated = _AnnotatedForm()
    KW_ONLY = _KwOnly()


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


# ------------------------------------------------------------------------------ annotations


def _camel(attr: str) -> str:
    head, *rest = attr.split("_")
    return head + "".join(p[:1].upper() + p[1:] for p in rest)


_UnionType: Any = type(int | None)
_KINDS: dict[object, str] = {str: "str", int: "int", bool: "bool", float: "double"}


def _one_type(hint: Any) -> Any:
    """``X`` of ``X | None`` (``Optional[X]`` too); a header field has one type."""
    if type(hint) is _UnionType:
        args = hint.__args__
    else:
        typing = sys.modules.get("typing")  # a typing.Union can only come from an imported typing
        if typing is None or getattr(hint, "__origin__", None) is not typing.Union:
            return hint
        args = hint.__args__
    rest = [a for a in args if a is not type(None)]
    if len(rest) != 1:
        raise TypeError(f"a header field has one type, not {hint!r}")
    return rest[0]


def _describe(hint: Any) -> _Described:
    """(Java kind, checks, Java name override) of one annotation: this module's ``Annotated`` or
    ``typing.Annotated``, each optionally ``| None``, around ``str``, ``int``, ``bool`` or ``float``."""
    checks: tuple[Check, ...] = ()
    rename: str | None = None
    kind: str | None = None
    hint = _one_type(hint)
    while True:
        if isinstance(hint, _Hint):
            meta, hint = hint.meta, hint.base
        elif hasattr(hint, "__metadata__"):  # typing.Annotated
            meta, hint = hint.__metadata__, hint.__origin__
        else:
            break
        level: list[Check] = []
        level_rename: str | None = None
        level_kind: str | None = None
        for m in meta:
            if isinstance(m, Check):
                level.append(m)
            elif isinstance(m, Java):
                level_rename = m.name
            elif m is _LONG:
                level_kind = "long"
        checks += tuple(level)  # an outer Annotated's checks first
        rename = rename or level_rename
        kind = kind or level_kind
        hint = _one_type(hint)
    if kind is None:
        kind = _KINDS.get(hint)
        if kind is None:
            raise TypeError(f"header fields are str, int, Long, bool or float, not {hint!r}")
    return kind, checks, rename


def _resolve(text: Any, module: dict[str, Any], local: dict[str, Any]) -> Any:
    """An annotation's value, looked up as ``typing.get_type_hints`` does for a class (the module's
    names first, then the class's).

    The forms headers use (``X``, ``X | None``, ``Annotated[X, Java('x'), Check(f)]``, ``f('text')``)
    are read here; anything else is given to ``eval``, whose first use in a process compiles (a
    millisecond of a command's start-up).
    """
    if not isinstance(text, str):
        return text
    value = _read(text, (module, local, vars(builtins)))
    return eval(text, dict(local), module) if value is _MISSING else value


def _read(text: str, spaces: tuple[dict[str, Any], ...]) -> Any:
    """The value of one annotation expression of the forms :func:`_resolve` reads, or ``_MISSING``."""
    if text.endswith(" | None"):
        value = _read(text[:-7], spaces)
        return value if value is _MISSING else value | None
    if text.isidentifier():
        return next((space[text] for space in spaces if text in space), _MISSING)
    head, paren, rest = text.partition("(")
    if paren and head.isidentifier() and rest.endswith(")"):  # f('text') or f(name)
        arg = rest[:-1]
        if (
            len(arg) >= 2
            and arg[0] == arg[-1]
            and arg[0] in "'\""
            and not any(c in arg[1:-1] for c in "'\"\\")
        ):
            value = arg[1:-1]
        elif arg.isidentifier():
            value = _read(arg, spaces)
        else:
            return _MISSING
        fn = _read(head, spaces)
        return _MISSING if fn is _MISSING or value is _MISSING else fn(value)
    if text.startswith("Annotated[") and text.endswith("]"):
        parts = [_read(p, spaces) for p in _split(text[10:-1])]
        form = _read("Annotated", spaces)
        if form is _MISSING or len(parts) < 2 or any(p is _MISSING for p in parts):
            return _MISSING
        return form[tuple(parts)]
    return _MISSING


def _split(text: str) -> list[str]:
    """``text`` cut at its top-level ``", "`` (not inside brackets, parentheses or quotes)."""
    parts: list[str] = []
    depth = start = 0
    quote = ""
    for i, c in enumerate(text):
        if quote:
            quote = "" if c == quote else quote
        elif c in "'\"":
            quote = c
        elif c in "[(":
            depth += 1
        elif c in "])":
            depth -= 1
        elif c == "," and depth == 0:
            parts.append(text[start:i].strip())
            start = i + 1
    parts.append(text[start:].strip())
    return parts


def _own_annotations(cls: type) -> dict[str, Any]:
    """The annotations a class declares itself (what ``inspect.get_annotations`` gives, without
    importing ``inspect``)."""
    return cls.__dict__.get("__annotations__", {})  # noqa: RUF063


def _is_class_var(text: Any) -> bool:
    if isinstance(text, str):
        return text.startswith(("ClassVar", "typing.ClassVar", "t.ClassVar"))
    typing = sys.modules.get("typing")
    return typing is not None and (
        text is typing.ClassVar or getattr(text, "__origin__", None) is typing.ClassVar
    )


def _is_kw_only(value: Any) -> bool:
    if value is KW_ONLY:
        return True
    dataclasses = sys.modules.get("dataclasses")
    return dataclasses is not None and value is dataclasses.KW_ONLY


class _Spec:
    """One field as a dataclass would hold it, plus what the wire needs (kind, checks, Java name)."""

    __slots__ = ("ann", "checks", "default", "java", "kind", "kw_only", "name")

    def __init__(self, name: str, ann: Any, default: Any, kw_only: bool, described: _Described) -> None:
        self.name = name
        self.ann = ann
        self.default = default
        self.kw_only = kw_only
        self.kind, self.checks, rename = described
        self.java = rename or _camel(name)


# ------------------------------------------------------------------------------- finishing


class _Deferred:
    """``FIELDS``, ``_decoder`` or ``__dataclass_fields__`` of a header class not finished yet:
    reading it finishes the class (and makes that attribute, for the last two).

    Each decorated class holds its own, so a subclass never reads a finished base's value.
    """

    def __init__(self, name: str) -> None:
        self.name = name

    def __get__(self, obj: object, owner: type) -> Any:
        with _finishing:
            _finish(owner)
            if owner.__dict__[self.name] is self:
                c: Any = owner
                if self.name == "_decoder":
                    c._decoder = _compile_decoder(c.__name__, c.FIELDS)
                else:
                    _dataclass_fields(c)
        return owner.__dict__[self.name]


_FIELDS = _Deferred("FIELDS")
_DECODER = _Deferred("_decoder")
_DATACLASS_FIELDS = _Deferred("__dataclass_fields__")
_finishing = RLock()


def _holder(cls: type, name: str, stub: object) -> Any:
    """The class of ``cls.__mro__`` that still holds ``stub`` as ``name``, finished."""
    _finish(cls)
    return next(k for k in cls.__mro__ if k.__dict__.get(name) is stub)


def _init_then(*args: Any, **kwargs: Any) -> None:
    """``__init__`` of a header class until its real one is made.

    The first construction binds the arguments here, without compiling anything (a process's first
    ``compile`` costs a millisecond, a tenth of the client's start-up budget); the second, or any
    call this cannot bind, makes the real ``__init__`` (same code as a dataclass's) and runs it, so
    a server that builds a header per request runs the generated one and a bad call gets Python's
    own error (``self=...`` too: here ``self`` is only positional).
    """
    self = args[0]
    holder = _holder(type(self), "__init__", _init_then)
    if "_built" not in holder.__dict__:
        holder._built = True
        values = _bind(holder._specs, args[1:], kwargs)
        if values is not None:
            for name, value in values:
                setattr(self, name, value)
            return
    with _finishing:
        if holder.__dict__["__init__"] is _init_then:
            holder.__init__ = _make_method(holder, "__init__")
    holder.__init__(*args, **kwargs)


def _bind(specs: dict[str, _Spec], args: tuple[Any, ...], kwargs: dict[str, Any]) -> list[Any] | None:
    """(name, value) of each field in a dataclass's order, as the generated ``__init__`` would
    assign them, or None where it would raise (it then raises, with its own message)."""
    given: dict[str, Any] = {}
    positional = [s for s in specs.values() if not s.kw_only]
    if len(args) > len(positional):
        return None
    for s, value in zip(positional, args, strict=False):
        given[s.name] = value
    for name, value in kwargs.items():
        if name in given or name not in specs:
            return None
        given[name] = value
    values = []
    for s in specs.values():
        value = given.get(s.name, s.default)
        if value is _MISSING:
            return None
        values.append((s.name, value))
    return values


def _eq_then(self: Any, other: object) -> Any:
    """The first comparison of a header class makes its ``__eq__``, then compares."""
    with _finishing:
        holder = _holder(type(self), "__eq__", _eq_then)
        holder.__eq__ = _make_method(holder, "__eq__")
    cls: Any = type(self)
    return cls.__eq__(self, other)


def _repr_then(self: Any) -> str:
    """The first ``repr`` of a header class makes its ``__repr__``, then writes it."""
    with _finishing:
        holder = _holder(type(self), "__repr__", _repr_then)
        holder.__repr__ = _make_method(holder, "__repr__")
    cls: Any = type(self)
    return cls.__repr__(self)  # type: ignore[no-any-return]


@dataclass_transform(field_specifiers=(field,))
def request_header(cls: H) -> H:
    """Declare ``cls`` a request header: a dataclass-like class whose fields are recorded in
    declaration order.

    The work (the annotations, ``__init__``, ``__eq__``, ``__repr__``, the generated decoder) is
    deferred to the class's first use, each piece to its own (a client never compiles a decoder),
    so importing a family of fifty headers costs nothing for the command that uses two of them
    (start-up time of the CLI). Headers are not slotted for the same reason: slots need a new class.
    """
    c: Any = cls
    c.FIELDS = _FIELDS
    c._decoder = _DECODER
    c.__dataclass_fields__ = _DATACLASS_FIELDS
    c.__init__ = _init_then
    if "__eq__" not in c.__dict__:  # as dataclasses: a class's own method stays
        c.__eq__ = _eq_then
    if "__repr__" not in c.__dict__:
        c.__repr__ = _repr_then
    return cls


def _finish(cls: type) -> None:
    with _finishing:
        for klass in reversed(cls.__mro__):  # bases first: a class inherits its bases' fields
            if klass.__dict__.get("FIELDS") is _FIELDS:
                _finish_one(klass)


def _finish_one(cls: Any) -> None:
    """Read the class's annotations: its fields in a dataclass's order (``_specs``, for the
    generated methods) and in Java's (``FIELDS``)."""
    # A dataclass's order: the bases' (a redefined field keeps its place), then the new ones.
    specs: dict[str, _Spec] = {}
    for klass in cls.__mro__[-1:0:-1]:
        specs.update(klass.__dict__.get("_specs", ()))
    module = vars(sys.modules[cls.__module__])
    local = dict(vars(cls))
    kw_only = False
    own: list[str] = []
    for name, text in _own_annotations(cls).items():
        if _is_class_var(text):
            continue
        hint = _resolve(text, module, local)
        if _is_kw_only(hint):
            kw_only = True
            continue
        default = cls.__dict__.get(name, _MISSING)
        field_kw_only = kw_only
        if isinstance(default, _Field):
            field_kw_only = kw_only or default.kw_only
            default = default.default
            if default is _MISSING:
                delattr(cls, name)
            else:
                setattr(cls, name, default)
        if default is not _MISSING and type(default).__hash__ is None:
            raise ValueError(f"mutable default {type(default)} for field {name} is not allowed")
        specs[name] = _Spec(name, text, default, field_kw_only, _describe(hint))
        own.append(name)
    every = list(specs.values())
    seen_default = False
    for s in every:
        if s.kw_only:
            continue
        if s.default is not _MISSING:
            seen_default = True
        elif seen_default:
            raise TypeError(f"non-default argument {s.name!r} follows default argument")
    cls._specs = specs

    if "__hash__" not in cls.__dict__ or (cls.__dict__["__hash__"] is None and "__eq__" in cls.__dict__):
        cls.__hash__ = None  # as a dataclass with eq and not frozen: not hashable
    if not cls.__doc__:  # as dataclasses writes it: the name and the signature
        sig = [f"{s.name}: {s.ann!r}" + ("" if s.default is _MISSING else f" = {s.default!r}") for s in every]
        pos = [p for s, p in zip(every, sig, strict=True) if not s.kw_only]
        kw = [p for s, p in zip(every, sig, strict=True) if s.kw_only]
        cls.__doc__ = f"{cls.__name__}({', '.join([*pos, '*', *kw] if kw else pos)})"
    if "__match_args__" not in cls.__dict__:
        cls.__match_args__ = tuple(s.name for s in every if not s.kw_only)  # type: ignore[misc]

    # Java's order: the class's own fields, then each superclass's own, nearest first.
    mine = set(own)
    ordered = [s for s in every if s.name in mine]
    for klass in cls.__mro__[1:]:
        theirs = _own_annotations(klass)
        ordered += [s for s in every if s.name in theirs and s not in ordered]
    cls.FIELDS = tuple(  # last: it marks the class finished
        HeaderField(
            s.name,
            s.java,
            s.kind,
            s.default is _MISSING,
            s.checks,
            None if s.default is _MISSING else s.default,
        )
        for s in ordered
    )


def _make_method(cls: Any, name: str) -> Any:
    """``__init__``, ``__eq__`` or ``__repr__`` of a finished class, as ``dataclasses.dataclass``
    writes it (same signature, same text, same speed)."""
    every: list[_Spec] = list(cls._specs.values())
    env: dict[str, Any] = {}
    if name == "__init__":
        params = ["self"]
        kw: list[str] = []
        for s in every:
            text = s.name
            if s.default is not _MISSING:
                env[f"_d_{s.name}"] = s.default
                text = f"{s.name}=_d_{s.name}"
            (kw if s.kw_only else params).append(text)
        if kw:
            params += ["*", *kw]
        lines = [f"def __init__({', '.join(params)}):"]
        lines += [f"    self.{s.name} = {s.name}" for s in every] or ["    pass"]
    elif name == "__eq__":
        mine = "".join(f"self.{s.name}," for s in every)
        theirs = "".join(f"other.{s.name}," for s in every)
        lines = [
            "def __eq__(self, other):",
            "    if other.__class__ is self.__class__:",
            f"        return ({mine}) == ({theirs})",
            "    return NotImplemented",
        ]
    else:
        shown = ", ".join(f"{s.name}={{self.{s.name}!r}}" for s in every)
        lines = ["def __repr__(self):", f"    return self.__class__.__qualname__ + f'({shown})'"]
    exec(compile("\n".join(lines), f"<{name} of {cls.__name__}>", "exec"), env)
    fn = env[name]
    fn.__qualname__ = f"{cls.__qualname__}.{name}"
    if name == "__init__":
        annotations: dict[str, Any] = {s.name: s.ann for s in every}
        annotations["return"] = None
        fn.__annotations__ = annotations
    return fn


def _dataclass_fields(cls: Any) -> None:
    """Real ``dataclasses.Field`` objects for ``dataclasses.fields``/``replace``/``asdict`` on a
    header (made by ``make_dataclass``, so only its public API is used; a rare path)."""
    import dataclasses

    spec = [
        (
            s.name,
            s.ann,
            dataclasses.field(kw_only=s.kw_only)
            if s.default is _MISSING
            else dataclasses.field(default=s.default, kw_only=s.kw_only),
        )
        for s in cls._specs.values()
    ]
    made: Any = dataclasses.make_dataclass(cls.__name__, spec)
    cls.__dataclass_fields__ = made.__dataclass_fields__


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
