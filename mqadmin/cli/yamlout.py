"""A small YAML writer for ``--output yaml``: block style, JSON-compatible scalars.

The data is what ``--json`` prints, so strings, numbers, booleans, null, lists and string-keyed
maps are all there is. Strings that YAML could read as something else are double-quoted with JSON
escapes (a JSON string is a valid YAML double-quoted scalar).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

__all__ = ["dump_yaml"]

_PLAIN = re.compile(r"^[A-Za-z_/.][A-Za-z0-9_ ./%@+()=-]*$")
_RESERVED = frozenset(
    "y Y yes Yes YES n N no No NO true True TRUE false False FALSE "
    "on On ON off Off OFF null Null NULL ~".split()
)


def _scalar(v: Any) -> str:
    if v is None:
        return "null"
    if v is True:
        return "true"
    if v is False:
        return "false"
    if isinstance(v, int | float):
        return json.dumps(v)
    s = str(v)
    if _PLAIN.match(s) and s not in _RESERVED and not s.endswith(" ") and ": " not in s and " #" not in s:
        return s
    return json.dumps(s, ensure_ascii=False)


def _key(k: Any) -> str:
    return _scalar(str(k))


def _write(v: Any, indent: int, out: list[str]) -> None:
    pad = "  " * indent
    if isinstance(v, Mapping):
        for k, x in v.items():
            if isinstance(x, Mapping) and x:
                out.append(f"{pad}{_key(k)}:")
                _write(x, indent + 1, out)
            elif isinstance(x, list | tuple) and x:
                out.append(f"{pad}{_key(k)}:")
                _write(x, indent, out)
            else:
                out.append(f"{pad}{_key(k)}: {_empty_or_scalar(x)}")
    elif isinstance(v, list | tuple):
        for x in v:
            if isinstance(x, Mapping) and x:
                sub: list[str] = []
                _write(x, indent + 1, sub)
                first = sub[0][len(pad) + 2 :]
                out.append(f"{pad}- {first}")
                out.extend(sub[1:])
            elif isinstance(x, list | tuple) and x:
                sub = []
                _write(x, indent + 1, sub)
                out.append(f"{pad}- {sub[0].lstrip()}")
                out.extend(sub[1:])
            else:
                out.append(f"{pad}- {_empty_or_scalar(x)}")
    else:
        out.append(pad + _scalar(v))


def _empty_or_scalar(x: Any) -> str:
    if isinstance(x, Mapping):
        return "{}"
    if isinstance(x, list | tuple):
        return "[]"
    return _scalar(x)


def dump_yaml(value: Any) -> str:
    """One YAML document (``---`` first) for a JSON-compatible value."""
    out: list[str] = ["---"]
    if isinstance(value, Mapping | list | tuple) and value:
        _write(value, 0, out)
    else:
        out.append(_empty_or_scalar(value))
    return "\n".join(out) + "\n"
