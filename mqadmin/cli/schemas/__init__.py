"""The JSON contract of ``mqadmin``: JSON Schema (draft 2020-12) files shipped with the package.

``common.schema.json`` states the convention every document follows (its ``description`` is the
rule book; ``$defs`` has the shared parts: a record, a broker item, a time, a rate, the error
document). ``<command>.schema.json`` is the document one command prints with ``--json`` (the same
data as ``--output yaml``). ``mqadmin schema [COMMAND]`` prints them as :func:`published` makes
them: self-contained (the convention bundled under ``$defs``, so a plain
``jsonschema.validate(doc, schema)`` needs no registry) and allowing the error document, which
every command prints when it fails. Loaded only by that
command and by the tests, never on the path of another command.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

__all__ = ["API_VERSION", "ID_PREFIX", "SCHEMA_DIR", "load", "names", "path_of", "published", "text"]

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


COMMON = "common"
_COMMON_ID = ID_PREFIX + COMMON
_BUNDLED = f"#/$defs/{COMMON}"
"""Where :func:`published` puts the convention inside a command's schema."""
_META = ("$schema", "$id", "title", "description")


def _rewrite_refs(node: Any, rewrite: Any) -> Any:
    """``node`` with every ``$ref`` string passed through ``rewrite``."""
    if isinstance(node, dict):
        return {
            k: rewrite(v) if k == "$ref" and isinstance(v, str) else _rewrite_refs(v, rewrite)
            for k, v in node.items()
        }
    if isinstance(node, list):
        return [_rewrite_refs(v, rewrite) for v in node]
    return node


def _to_bundled(ref: str) -> str:
    """A reference to the convention (``urn:...:common#/$defs/x``) as one inside the bundle."""
    if ref == _COMMON_ID or ref.startswith(_COMMON_ID + "#"):
        return _BUNDLED + ref[len(_COMMON_ID) :].removeprefix("#")
    return ref


def _inside_bundle(ref: str) -> str:
    """A reference of the convention to itself (``#/$defs/x``), once it sits at ``$defs/common``."""
    return _BUNDLED + ref[1:] if ref.startswith("#") else ref


def published(name: str) -> dict[str, Any]:
    """Schema ``name`` as ``mqadmin schema`` prints it: one document that validates on its own.

    The convention is copied in under ``$defs/common`` (its own ``$id`` dropped, its references
    moved with it), and the command's document becomes one of two choices, the other being the
    error document. ``common`` itself is already self-contained and is returned as shipped.
    """
    schema = load(name)
    if name == COMMON:
        return schema
    common = {k: v for k, v in load(COMMON).items() if k not in ("$schema", "$id")}
    body = _rewrite_refs({k: v for k, v in schema.items() if k not in (*_META, "$defs")}, _to_bundled)
    own_defs = _rewrite_refs(schema.get("$defs", {}), _to_bundled)
    if COMMON in own_defs:
        raise ValueError(f"schema {name} has a $defs/{COMMON} of its own")
    out = {k: schema[k] for k in _META if k in schema}
    out["anyOf"] = [body, {"$ref": f"{_BUNDLED}/$defs/errorDocument"}]
    out["$defs"] = {**own_defs, COMMON: _rewrite_refs(common, _inside_bundle)}
    return out
