"""Field checks of the typed bodies.

One rule: a missing or ``null`` field takes the Java default, a field of the wrong JSON type raises
:class:`ProtocolError`, and numbers must fit the Java type (``int`` is 32 bits, ``long`` 64) so that
whatever we accept we can also write back for a Java peer to read. Map orders are
:mod:`mqadmin.protocol.javacoll`'s, string quoting is :mod:`mqadmin.protocol.fastjson`'s.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Self, TypeVar

from mqadmin.protocol import fastjson
from mqadmin.protocol.errors import ProtocolError

T = TypeVar("T")

INT_MIN, INT_MAX = -(1 << 31), (1 << 31) - 1
LONG_MIN, LONG_MAX = -(1 << 63), (1 << 63) - 1


class JsonBody:
    """A body that is one JSON object: read by the class's ``from_json_obj``, written as fastjson
    writes its ``to_json_obj``. Bodies with a hand-written encoder (the hot ones) override
    :meth:`encode`."""

    __slots__ = ()

    @classmethod
    def decode(cls, body: bytes) -> Self:
        return cls.from_json_obj(decode_object(body, cls.__name__))  # type: ignore[attr-defined, no-any-return]

    def encode(self, standard: bool = False) -> bytes:
        return fastjson.dumps(self.to_json_obj(standard), standard=standard).encode()  # type: ignore[attr-defined]


# ------------------------------------------------------------------------------------------- checks


def decode_object(body: bytes | bytearray | memoryview | str, what: str) -> dict[Any, Any]:
    """Parse a body that must be one JSON object."""
    value = fastjson.loads(body if isinstance(body, bytes | str) else bytes(body))
    if type(value) is not dict:
        raise ProtocolError(f"{what} body is not a JSON object")
    return value


def obj(v: Any, what: str) -> dict[Any, Any]:
    if type(v) is not dict:
        raise ProtocolError(f"{what} is not a JSON object")
    return v


def opt_obj(v: Any, what: str) -> dict[Any, Any] | None:
    if v is None:
        return None
    return obj(v, what)


def opt_str(v: Any, what: str) -> str | None:
    if v is None or type(v) is str:
        return v
    raise ProtocolError(f"{what} is not a string")


def int32(v: Any, what: str, default: int = 0) -> int:
    if type(v) is int and INT_MIN <= v <= INT_MAX:
        return v
    if v is None:
        return default
    raise ProtocolError(f"{what} is not a Java int")


def _long_text(v: str) -> bool:
    """``-?[0-9]{1,19}``: a decimal long as text (ASCII digits are only 0-9)."""
    digits = v[1:] if v[:1] == "-" else v
    return 0 < len(digits) <= 19 and digits.isascii() and digits.isdigit()


def int64(v: Any, what: str, default: int = 0) -> int:
    """A Java ``long``; also as a decimal string, which ``BrowserCompatible`` makes of big longs."""
    if type(v) is int and LONG_MIN <= v <= LONG_MAX:
        return v
    if v is None:
        return default
    if type(v) is str and _long_text(v):
        n = int(v)
        if LONG_MIN <= n <= LONG_MAX:
            return n
    raise ProtocolError(f"{what} is not a Java long")


def opt_int32(v: Any, what: str) -> int | None:
    return None if v is None else int32(v, what)


def opt_int64(v: Any, what: str) -> int | None:
    return None if v is None else int64(v, what)


def boolean(v: Any, what: str, default: bool = False) -> bool:
    if type(v) is bool:
        return v
    if v is None:
        return default
    raise ProtocolError(f"{what} is not a boolean")


def opt_bool(v: Any, what: str) -> bool | None:
    return None if v is None else boolean(v, what)


def double(v: Any, what: str, default: float = 0.0) -> float:
    """A Java ``double``: fastjson writes NaN and infinities as ``null``, read back as the default."""
    t = type(v)
    if t is float:
        return v
    if t is int:
        try:
            return float(v)
        except OverflowError:
            raise ProtocolError(f"{what} is out of range for a double") from None
    if v is None:
        return default
    raise ProtocolError(f"{what} is not a number")


def opt_double(v: Any, what: str) -> float | None:
    return None if v is None else double(v, what)


def str_list(v: Any, what: str) -> list[str] | None:
    if v is None:
        return None
    if type(v) is not list:
        raise ProtocolError(f"{what} is not a JSON array")
    for x in v:
        if type(x) is not str:
            raise ProtocolError(f"{what} holds a non-string")
    return list(v)


def req_str_list(v: Any, what: str) -> list[str]:
    """A ``List``/``Set`` of strings inside a map, where null entries were already dropped."""
    out = str_list(v, what)
    if out is None:
        raise ProtocolError(f"{what} is null")
    return out


def map_of(v: Any, what: str, parse: Callable[[Any, str], T]) -> dict[str, T] | None:
    """A ``Map<String, X>`` with values parsed by ``parse``; null values are dropped."""
    if v is None:
        return None
    d = obj(v, what)
    out: dict[str, T] = {}
    for k, x in d.items():
        if type(k) is not str:
            raise ProtocolError(f"{what} has a non-string key")
        if x is None:
            continue
        out[k] = parse(x, f"{what}[{k!r}]")
    return out


def str_map(v: Any, what: str) -> dict[str, str] | None:
    """A ``Map<String, String>``; null values are dropped (fastjson would not write them back)."""
    return map_of(v, what, opt_str)  # type: ignore[arg-type]  # values are never None there


def numeric_key(k: Any, what: str, lo: int = LONG_MIN, hi: int = LONG_MAX) -> int:
    """A Long/Integer map key: unquoted in the legacy form (``0``), quoted in the standard one."""
    if type(k) is int:
        if lo <= k <= hi:
            return k
    elif type(k) is str:
        try:
            n = int(k, 10)
        except ValueError:
            n = None
        if n is not None and lo <= n <= hi and k.strip() == k and "_" not in k:
            return n
    raise ProtocolError(f"{what} key {k!r} is not a number")


def list_of(v: Any, what: str, parse: Callable[[Any, str], T]) -> list[T] | None:
    if v is None:
        return None
    return req_list_of(v, what, parse)


def req_list_of(v: Any, what: str, parse: Callable[[Any, str], T]) -> list[T]:
    if type(v) is not list:
        raise ProtocolError(f"{what} is not a JSON array")
    out: list[T] = []
    for i, x in enumerate(v):
        if x is None:
            raise ProtocolError(f"{what}[{i}] is null")
        out.append(parse(x, f"{what}[{i}]"))
    return out


def drop_none(d: dict[str, Any]) -> dict[str, Any]:
    """fastjson omits null bean properties."""
    return {k: v for k, v in d.items() if v is not None}
