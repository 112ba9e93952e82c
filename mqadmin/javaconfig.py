"""Java config objects: fields under their Java names and types, set and listed the way Java does it.

A config class (``NamesrvConfig``, ``NettyServerConfig``, ...) is a dataclass deriving from
:class:`JavaBean`, its fields in Java's declaration order. A field's Java name is the camel case of
the Python name unless :func:`java_field` gives one; its Java type follows the annotation (``bool``
boolean, ``int`` int, ``float`` double, anything else String) unless ``kind`` says otherwise
(``long``, or ``enum:A,B`` for an enum's constant names). :meth:`JavaBean.apply` is
``MixAll.properties2Object``, :meth:`JavaBean.to_properties` ``MixAll.object2Properties``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import field, fields
from typing import Any, NamedTuple

from mqadmin.protocol.fastjson import java_string
from mqadmin.protocol.javanum import parse_int, parse_long

__all__ = ["JavaBean", "JavaField", "java_field", "java_text", "java_trim", "parse_java_integer"]

_INTEGER_BITS = {"int": 32, "long": 64}
_PY_KINDS = {"bool": "boolean", "int": "int", "float": "double"}


def java_field(
    default: Any = None,
    *,
    java: str | None = None,
    kind: str | None = None,
    important: bool = False,
    factory: Any = None,
) -> Any:
    """A bean field: ``java`` overrides the Java name, ``kind`` the Java type; ``important`` marks
    an ``@ImportantField`` (what ``-m`` prints); ``factory`` computes the default."""
    meta = {"java": java, "kind": kind, "important": important}
    if factory is not None:
        return field(default_factory=factory, metadata=meta)
    return field(default=default, metadata=meta)


class JavaField(NamedTuple):
    """One field of a bean: Python name, Java name, Java type, ``@ImportantField``."""

    py: str
    java: str
    kind: str
    important: bool


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(p[:1].upper() + p[1:] for p in rest)


def java_text(v: Any) -> str | None:
    """``String.valueOf`` of a field value, except that null stays None (a property left out)."""
    return None if v is None else java_string(v)


def java_trim(s: str) -> str:
    """``String.trim``: strips every char up to U+0020 at both ends."""
    i, j = 0, len(s)
    while i < j and s[i] <= " ":
        i += 1
    while j > i and s[j - 1] <= " ":
        j -= 1
    return s[i:j]


def parse_java_integer(text: str, kind: str = "long") -> int:
    """``Integer.parseInt`` (``kind`` int) or ``Long.parseLong`` (see :mod:`mqadmin.protocol.javanum`);
    ValueError where Java throws NumberFormatException."""
    return parse_int(text) if kind == "int" else parse_long(text)


class JavaBean:
    """A config object whose fields carry Java names and types (a dataclass)."""

    @classmethod
    def java_fields(cls) -> list[JavaField]:
        """Every field, in declaration order."""
        cached = cls.__dict__.get("_java_fields_cache")
        if cached is None:
            cached = []
            for f in fields(cls):  # type: ignore[arg-type]
                java = f.metadata.get("java") or _camel(f.name)
                kind = f.metadata.get("kind") or _PY_KINDS.get(str(f.type).replace(" | None", ""), "String")
                cached.append(JavaField(f.name, java, kind, bool(f.metadata.get("important"))))
            cls._java_fields_cache = cached  # type: ignore[attr-defined]
        return cached  # type: ignore[no-any-return]

    def java_items(self) -> Iterator[tuple[str, Any]]:
        """(Java name, value) of every field, in declaration order."""
        for f in self.java_fields():
            yield f.java, getattr(self, f.py)

    @staticmethod
    def parse_property(kind: str, text: str) -> Any:
        """A property's value for a field of type ``kind``, as 5.3.3 ``properties2Object`` parses it.

        Numbers and booleans are read as given, doubles with blanks around them, and strings are
        trimmed. ValueError where Java throws (the value is then ignored). A family of beans from
        another Java version overrides this with that version's rules.
        """
        if kind in _INTEGER_BITS:
            return parse_java_integer(text, kind)
        if kind == "boolean":
            return text.lower() == "true"
        if kind in ("double", "float"):
            return float(text.strip())
        return java_trim(text)

    def property_ignored(self, f: JavaField, text: str) -> None:
        """Called for a value that does not parse; Java ignores it without a word."""

    def apply(self, props: Mapping[str, str]) -> list[str]:
        """``MixAll.properties2Object``: set each field whose Java name is a key; returns the names set."""
        applied = []
        for f in self.java_fields():
            text = props.get(f.java)
            if text is None:
                continue
            try:
                setattr(self, f.py, self.parse_property(f.kind, text))
            except ValueError:
                self.property_ignored(f, text)
                continue
            applied.append(f.java)
        return applied

    def property_lines(self, important_only: bool = False) -> list[str]:
        """``MixAll.printObjectProperties``: ``name=value`` per field (null as empty), in order."""
        lines = []
        for f in self.java_fields():
            if important_only and not f.important:
                continue
            v = java_text(getattr(self, f.py))
            lines.append(f"{f.java}={'' if v is None else v}")
        return lines

    def to_properties(self) -> dict[str, str]:
        """``MixAll.object2Properties``: every non-null field as text, in declaration order."""
        out = {}
        for java, v in self.java_items():
            text = java_text(v)
            if text is not None:
                out[java] = text
        return out
