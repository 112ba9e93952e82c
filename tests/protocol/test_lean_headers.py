"""Request headers without ``typing`` and ``dataclasses`` at run time.

- In a bare interpreter, what the topicRoute client does with a header (import, build, check,
  ``to_ext``) imports none of the heavy modules and compiles nothing.
- A header class behaves as the dataclass it was: the same ``__init__`` (signature, defaults,
  keyword-only fields, Python's own errors), ``__eq__``, ``__repr__``, ``__hash__ = None``, and
  ``dataclasses.fields``/``replace``/``asdict`` still work on it; the first construction (bound
  without compiling) and the generated ``__init__`` agree on every call.
- The name server's checks answer as the regular expressions they replaced, for every input.
"""

from __future__ import annotations

import builtins
import dataclasses
import inspect
import re
import sys
import typing
from pathlib import Path
from typing import Any

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from mqadmin.protocol import names
from mqadmin.protocol.headers import base, namesrv
from mqadmin.protocol.headers.base import (
    KW_ONLY,
    Annotated,
    Check,
    HeaderField,
    Java,
    Long,
    Topic,
    TopicRequestHeader,
    field,
    request_header,
)
from mqadmin.protocol.headers.namesrv import GetRouteInfoRequestHeader
from tests.bare import heavy_in, run_bare

ROOT = Path(__file__).resolve().parents[2]


CLIENT = r"""
from mqadmin.protocol.headers.namesrv import GetRouteInfoRequestHeader
compiled = []
sys.addaudithook(lambda event, args: compiled.append(args) if event == "compile" else None)
assert GetRouteInfoRequestHeader(topic="T").check().to_ext() == {"topic": "T"}
assert compiled == [], compiled  # a process's first compile costs a millisecond
"""


def test_topic_route_header_imports_nothing_heavy() -> None:
    _, names = run_bare(CLIENT)
    assert not heavy_in(names), f"imported: {heavy_in(names)}"


# -------------------------------------------------------------------- the dataclass it was


def _pair() -> tuple[type, type]:
    """A header and the dataclass it stands for (its bases' fields written out)."""

    @request_header
    class Sample(TopicRequestHeader):
        topic: Topic
        queue_id: int
        offset: Long | None = None
        broker: Annotated[str, Java("bname2")] | None = None
        order: bool = field(kw_only=True)
        flag: bool | None = None

    @dataclasses.dataclass
    class Twin:
        _: dataclasses.KW_ONLY
        ns: str | None = None
        nsd: bool | None = None
        bname: str | None = None
        oway: bool | None = None
        lo: bool | None = None
        topic: typing.Annotated[str, "t"] = dataclasses.field(kw_only=False)
        queue_id: int = dataclasses.field(kw_only=False)
        offset: int | None = dataclasses.field(default=None, kw_only=False)
        broker: str | None = dataclasses.field(default=None, kw_only=False)
        order: bool = dataclasses.field(kw_only=True)
        flag: bool | None = dataclasses.field(default=None, kw_only=False)

    Twin.__name__, Twin.__qualname__ = Sample.__name__, Sample.__qualname__
    return Sample, Twin


CALLS: list[tuple[tuple[Any, ...], dict[str, Any]]] = [
    (("T", 1), {"order": True}),
    (("T", 1, 2, "b", True), {"order": False, "lo": True, "ns": "n"}),
    ((), {"topic": "T", "queue_id": 1, "order": True, "bname": "x"}),
    (("T",), {"queue_id": None, "order": None, "flag": False}),
    (("T", 1), {}),
    (("T",), {"order": True}),
    (("T", 1, 2, 3, 4, 5), {"order": True}),
    (("T", 1), {"order": True, "topic": "U"}),
    (("T", 1), {"order": True, "nope": 1}),
    (("T", 1), {"order": True, "self": 1}),
    ((), {}),
]


def _outcome(cls: type, args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[str, Any]:
    try:
        obj = cls(*args, **kwargs)
    except TypeError as e:
        return "TypeError", str(e).replace("Twin", "Sample")
    return "ok", list(vars(obj).items())


@pytest.mark.parametrize(("args", "kwargs"), CALLS)
def test_init_is_the_dataclass_one_first_call_and_after(
    args: tuple[Any, ...], kwargs: dict[str, Any]
) -> None:
    first, twin = _pair()
    expected = _outcome(twin, args, kwargs)
    assert _outcome(first, args, kwargs) == expected  # bound without compiling (or the error's fallback)
    again, _ = _pair()
    again("T", 1, order=True)
    assert _outcome(again, args, kwargs) == _outcome(again, args, kwargs) == expected  # the generated one
    assert _params(again) == _params(twin)
    assert str(inspect.signature(again)).startswith(
        "(topic: 'Topic', queue_id: 'int', offset: 'Long | None' = None"
    )


def _params(cls: type) -> list[tuple[str, Any, Any]]:
    return [(p.name, p.kind, p.default) for p in inspect.signature(cls).parameters.values()]


def test_eq_repr_hash_and_dataclass_functions_are_a_dataclasss() -> None:
    cls, twin = _pair()
    h, t = cls("T", 1, 7, order=True, lo=True), twin("T", 1, 7, order=True, lo=True)
    assert repr(h) == repr(t)
    assert repr(h).endswith(
        ".Sample(ns=None, nsd=None, bname=None, oway=None, lo=True, topic='T', queue_id=1, offset=7, "
        "broker=None, order=True, flag=None)"
    )
    assert h == cls("T", 1, 7, order=True, lo=True) and h != cls("T", 2, 7, order=True, lo=True)
    assert h.__eq__(t) is NotImplemented and h != ("T", 1)
    assert cls.__hash__ is None and twin.__hash__ is None
    with pytest.raises(TypeError, match="unhashable"):
        hash(h)
    assert cls.__match_args__ == twin.__match_args__  # type: ignore[attr-defined]
    assert dataclasses.is_dataclass(h) and not dataclasses.is_dataclass(TopicRequestHeader.__mro__[-2])
    got = [(f.name, f.kw_only, f.default) for f in dataclasses.fields(h)]
    assert got == [(f.name, f.kw_only, f.default) for f in dataclasses.fields(t)]
    moved = dataclasses.replace(h, queue_id=5, bname="b")
    assert type(moved) is cls and (moved.queue_id, moved.bname, moved.topic, moved.order) == (
        5,
        "b",
        "T",
        True,
    )
    assert dataclasses.asdict(h) == dataclasses.asdict(t)
    assert [f.java for f in cls.FIELDS] == [
        "topic", "queueId", "offset", "bname2", "order", "flag", "lo", "ns", "nsd", "bname", "oway"
    ]  # fmt: skip


def test_a_declaration_error_is_a_dataclasss() -> None:
    @request_header
    class Bad(TopicRequestHeader):
        topic: str | None = None
        queue_id: int  # type: ignore[misc]

    with pytest.raises(TypeError, match="non-default argument 'queue_id' follows default argument"):
        Bad.FIELDS  # noqa: B018 - reading it finishes the class

    @request_header
    class Two(TopicRequestHeader):
        topic: int | str

    with pytest.raises(TypeError, match="one type"):
        Two.FIELDS  # noqa: B018


INNER = Check(names.check_group)
OUTER = Check(names.check_topic, 17)


def test_annotations_of_either_annotated_read_alike() -> None:
    """``typing.Annotated`` (in a test, or a module that imports typing anyway) means what the run
    time stand-in means; nested ones are flattened with the inner checks first."""
    inner, outer = INNER, OUTER

    @request_header
    class Mine(TopicRequestHeader):
        a: Annotated[Annotated[str, INNER], OUTER, Java("x")]
        b: Annotated[Long, Java("y")] | None = None
        c: Annotated[str | None, OUTER] = None
        d: float | None = None

    @request_header
    class Theirs(TopicRequestHeader):
        a: typing.Annotated[typing.Annotated[str, INNER], OUTER, Java("x")]
        b: typing.Optional[typing.Annotated[int, Long.meta[0], Java("y")]] = None  # noqa: UP045 - typing's Union too
        c: typing.Annotated[str | None, OUTER] = None
        d: float | None = None

    expected = [
        HeaderField("a", "x", "str", True, (inner, outer), None),
        HeaderField("b", "y", "long", False, (), None),
        HeaderField("c", "c", "str", False, (outer,), None),
        HeaderField("d", "d", "double", False, (), None),
    ]
    assert list(Mine.FIELDS[:4]) == list(Theirs.FIELDS[:4]) == expected
    a, java, kind, required, checks, default = Mine.FIELDS[0]  # still a tuple
    assert (a, java, kind, required, checks, default) == tuple(expected[0])
    assert Check(inner.fn) == (names.check_group, 1) and Java("x").name == "x"


def _every_header() -> list[type]:
    import importlib
    import pkgutil

    import mqadmin.protocol.headers as package

    found: list[type] = [TopicRequestHeader, TopicRequestHeader.__mro__[1]]
    for m in pkgutil.iter_modules(package.__path__):
        module = importlib.import_module(f"{package.__name__}.{m.name}")
        found += [v for v in vars(module).values() if isinstance(v, type) and "FIELDS" in v.__dict__]
    return found


HEADERS = sorted(set(_every_header()), key=lambda c: c.__qualname__)


@pytest.mark.parametrize("cls", HEADERS, ids=[c.__name__ for c in HEADERS])
def test_annotations_read_without_eval_are_what_eval_gives(cls: type) -> None:
    """Each annotation string of the tree's headers: read here (no compile) as ``eval`` reads it."""
    module = vars(sys.modules[cls.__module__])
    for text in vars(cls).get("__annotations__", {}).values():
        if text.startswith("ClassVar"):
            continue
        evaluated = eval(text, dict(vars(cls)), module)
        read = base._read(text, (module, dict(vars(cls)), vars(builtins)))
        if evaluated is KW_ONLY:
            assert read is KW_ONLY
        else:
            assert _same(base._describe(read)) == _same(base._describe(evaluated)), text


def _same(described: tuple[str, tuple[Check, ...], str | None]) -> object:
    """A description with each check's function by its code (a call like ``_check('x')`` makes a new
    closure each time it is evaluated)."""
    kind, checks, rename = described
    return kind, [(getattr(c.fn, "__code__", c.fn), c.code) for c in checks], rename


@pytest.mark.parametrize(
    "text",
    [
        "Annotated[str, Java('x'), Check(names.check_topic)]",
        "Annotated[str, Java('a,b')] | int",
        "Java('x\\'y')",
    ],
)
def test_other_annotations_are_left_to_eval(text: str) -> None:
    assert base._read(text, (vars(sys.modules[__name__]), vars(builtins))) is base._MISSING


def test_kw_only_and_field_are_the_dataclass_ones_for_the_type_checker() -> None:
    assert typing.TYPE_CHECKING is False
    assert repr(KW_ONLY) == "KW_ONLY" and not isinstance(KW_ONLY, type(dataclasses.KW_ONLY))
    assert field(kw_only=True).kw_only and repr(Annotated[str, 1]) == "Annotated[<class 'str'>, 1]"


# ----------------------------------------------------------- name server checks, without re

_PLAIN_TOPIC = re.compile(r"[%|a-zA-Z0-9_+-]+")
_NO_SPACE = re.compile(r"\S+")
_PORT = re.compile(r"[0-9]{1,5}")


def _route_topic_refusal_re(topic: str | None) -> str | None:
    """``route_topic_refusal`` as it was, with its regular expression."""
    if topic is None or not topic.strip():
        return "The specified topic is blank."
    if len(topic) > namesrv.ROUTE_TOPIC_MAX_LENGTH:
        return f"The specified topic is longer than {namesrv.ROUTE_TOPIC_MAX_LENGTH} characters."
    if _PLAIN_TOPIC.fullmatch(topic) is not None:
        return None
    why = names.bad_text(topic, controls=True)
    if why is not None:
        return f"The specified topic {why}."
    if names.leaves_directory(topic):
        return f"The specified topic [{topic}] contains a path separator."
    return None


def _broker_addr_refusal_re(addr: str | None, kind: str = "broker address") -> str | None:
    """``broker_addr_refusal`` as it was, with its regular expressions."""
    if addr is None or not addr.strip():
        return f"the {kind} is blank"
    if len(addr) > names.NAME_MAX_LENGTH:
        return f"the {kind} is longer than {names.NAME_MAX_LENGTH}"
    why = names.bad_text(addr, controls=True)
    if why is not None:
        return f"the {kind} {why}"
    host, sep, port = addr.rpartition(":")
    if (
        not sep
        or not host
        or _NO_SPACE.fullmatch(addr) is None
        or _PORT.fullmatch(port) is None
        or int(port) > 65535
    ):
        return f"the {kind} [{addr}] is not host:port"
    return None


_CHARS = st.one_of(
    st.sampled_from(list("%|aZ09_+-:./\\ \t\n\x00\x1c\x1f\x85\xa0\u1680\u2028\u3000\ud800١²")),
    st.characters(),
)
_TEXT = st.text(_CHARS, max_size=24)


@given(_TEXT)
@example("%RETRY%G+T")
@example("a b")
@example("T\u3000")
@example("../x")
@example("x" * 400)
def test_route_topic_refusal_answers_as_the_regex(topic: str) -> None:
    assert namesrv.route_topic_refusal(topic) == _route_topic_refusal_re(topic)


@given(st.one_of(_TEXT, st.tuples(_TEXT, _TEXT).map(":".join), st.from_regex(r"[a-z0-9.]{1,9}:[0-9١²]{0,7}")))
@example("10.0.0.1:10911")
@example("host:65536")
@example("host:00080")
@example("host:٨٠")
@example("host :80")
@example("h\u3000:80")
@example(":80")
@example("host:")
def test_broker_addr_refusal_answers_as_the_regex(addr: str) -> None:
    assert namesrv.broker_addr_refusal(addr) == _broker_addr_refusal_re(addr)
    assert namesrv.broker_addr_refusal(addr, "HA server address") == _broker_addr_refusal_re(
        addr, "HA server address"
    )


def test_the_route_header_still_refuses_what_the_tables_cannot_hold() -> None:
    assert GetRouteInfoRequestHeader.decode({"topic": "%RETRY%G+T"}).topic == "%RETRY%G+T"
    with pytest.raises(Exception, match="path separator"):
        GetRouteInfoRequestHeader.decode({"topic": "a/../b"})
