"""The JSON contract of ``mqadmin``: JSON Schema (draft 2020-12) files shipped with the package.

``common.schema.json`` states the convention every document follows (its ``description`` is the
rule book; ``$defs`` has the shared parts: a record, a broker item, a time, a rate, the error
document). ``<command>.schema.json`` is the document one command prints with ``--json`` (the same
data as ``--output yaml``). ``mqadmin schema [COMMAND]`` prints them. Loaded only by that command and
by the tests, never on the path of another command.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

__all__ = ["API_VERSION", "ID_PREFIX", "SCHEMA_DIR", "load", "names", "path_of", "text"]

API_VERSION = "mqadmin/v1"
ID_PREFIX = "urn:mqadmin:schema:v1:"
"""A schema's ``$id`` is this prefix and its name (``urn:mqadmin:schema:v1:clusterList``)."""

SCHEMA_DIR = Path(__file__).resolve().parent
_SUFFIX = ".schema.json"


def names() -> list[str]:
    """``common`` first, then every command that has a schema, by name."""
    found = sorted(p.name.removesuffix(_SUFFIX) for p in SCHEMA_DIR.glob(f"*{_SUFFIX}"))
    return ["common", *(n for n in found if n != "common")]


def path_of(name: str) -> Path:
    """The file of schema ``name`` (it may not exist)."""
    return SCHEMA_DIR / f"{name}{_SUFFIX}"


def text(name: str) -> str:
    """The schema file as shipped; KeyError for a name without one (only a shipped name becomes a
    path: a path segment, a NUL or a lone surrogate is just not a name)."""
    if name not in names():
        raise KeyError(name)
    path = path_of(name)
    return path.read_text(encoding="utf-8")


def load(name: str) -> dict[str, Any]:
    """The schema ``name`` as a JSON object."""
    data: dict[str, Any] = json.loads(text(name))
    return data
