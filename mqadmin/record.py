"""Small value classes without :mod:`dataclasses`: start-up.

``dataclasses`` costs a command about 7 ms to import (it brings ``inspect``, ``ast`` and
``tokenize``) and about half a millisecond per class to generate its methods: on the path of a
command that sends one request, that is more than the request. A :class:`Record` is a plain class
with ``__slots__`` and its own ``__init__`` (as fast to build as a dataclass); equality and the
repr come from here, read off the slots. :class:`FrozenRecord` adds a hash, for values that are
never changed after they are made (declarations, keys).
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Self

__all__ = ["FrozenRecord", "Record"]


class _Slots:
    """Equality (same class, equal slots) and a dataclass-like repr, from the class's own ``__slots__``
    (a record's fields are all declared in its class)."""

    __slots__ = ()

    def _values(self) -> tuple[object, ...]:
        names: tuple[str, ...] = type(self).__slots__  # type: ignore[assignment]
        return tuple(getattr(self, name) for name in names)

    def with_(self, **changes: object) -> Self:
        """A copy with ``changes`` (``dataclasses.replace``): made by ``__init__``, whose parameters
        are the slots' names."""
        names: tuple[str, ...] = type(self).__slots__  # type: ignore[assignment]
        return type(self)(**{**{name: getattr(self, name) for name in names}, **changes})

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, _Slots)
        return self._values() == other._values()

    def __repr__(self) -> str:
        names: tuple[str, ...] = type(self).__slots__  # type: ignore[assignment]
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in names)
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
