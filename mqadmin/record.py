"""Small value classes without :mod:`dataclasses`: start-up.

``dataclasses`` costs a command about 7 ms to import (it brings ``inspect``, ``ast`` and
``tokenize``) and about half a millisecond per class to generate its methods: on the path of a
command that sends one request, that is more than the request. A :class:`Record` is a plain class
with ``__slots__`` and its own ``__init__`` (as fast to build as a dataclass); equality and the
repr come from here, read off the slots. :class:`FrozenRecord` adds a hash, for values that are
never changed after they are made (declarations, keys).

A record's fields are the slots of its class and of its bases (bases first), or, where the class
says so, its ``__match_args__`` (the constructor's order, as a dataclass sets them: the repr's order).
A class may also name, for itself, the fields equality (and the hash) compare, ``_compared_fields``,
and the fields its repr shows, ``_shown_fields``: a dataclass's ``compare=False`` and ``repr=False``.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import ClassVar, Self

__all__ = ["FrozenRecord", "Record", "fields_of"]

_FIELDS: dict[type, tuple[str, ...]] = {}


def fields_of(cls: type) -> tuple[str, ...]:
    """The fields of a record class (see the module docstring), worked out once per class."""
    names = _FIELDS.get(cls)
    if names is None:
        given = cls.__dict__.get("__match_args__")
        if given is not None:
            names = tuple(given)
        else:
            slots = (k.__dict__.get("__slots__", ()) for k in reversed(cls.__mro__))
            names = tuple(n for s in slots for n in ((s,) if isinstance(s, str) else s))
        _FIELDS[cls] = names
    return names


_COMPARED: dict[type, tuple[str, ...]] = {}
_SHOWN: dict[type, tuple[str, ...]] = {}


def _declared(cls: type, attr: str, memo: dict[type, tuple[str, ...]]) -> tuple[str, ...]:
    """The class's own ``attr`` (not a base's: a subclass adds fields), else all its fields."""
    names = memo.get(cls)
    if names is None:
        names = memo[cls] = tuple(cls.__dict__.get(attr) or fields_of(cls))
    return names


class _Slots:
    """Equality (same class, equal fields) and a dataclass-like repr, from the fields."""

    __slots__ = ()
    _compared_fields: ClassVar[tuple[str, ...]]
    _shown_fields: ClassVar[tuple[str, ...]]

    def _values(self) -> tuple[object, ...]:
        return tuple([getattr(self, name) for name in _declared(type(self), "_compared_fields", _COMPARED)])

    def with_(self, **changes: object) -> Self:
        """A copy with ``changes`` (``dataclasses.replace``): made by ``__init__``, whose parameters
        are the fields' names."""
        return type(self)(**{**{name: getattr(self, name) for name in fields_of(type(self))}, **changes})

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, _Slots)
        return self._values() == other._values()

    def __repr__(self) -> str:
        shown = _declared(type(self), "_shown_fields", _SHOWN)
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in shown)
        return f"{type(self).__qualname__}({fields})"


class Record(_Slots):
    """A value with equality and a repr; unhashable, as a mutable dataclass is."""

    __slots__ = ()
    __hash__ = None  # type: ignore[assignment]


class FrozenRecord(_Slots):
    """A value never changed once made, so it can be a key or a set member."""

    __slots__ = ()

    def __hash__(self) -> int:
        return hash(self._values())
