"""The Java tool's credentials file, ``$ROCKETMQ_HOME/conf/tools.yml``.

It is a flat YAML mapping with ``accessKey`` and ``secretKey`` (the distribution ships
``accessKey: rocketmq2`` / ``secretKey: 12345678``). Only that shape is read, so no YAML library is
needed: ``key: value`` lines at the top level, ``#`` comments, optional quotes. Like Java, a missing
file or a blank key means "no credentials".
"""

from __future__ import annotations

import os

from mqadmin.atomicfile import PathText

__all__ = ["read_tools_yml", "tools_yml_path"]


def tools_yml_path(environ: dict[str, str] | None = None) -> str | None:
    env = os.environ if environ is None else environ
    home = env.get("ROCKETMQ_HOME")
    return os.path.join(home, "conf", "tools.yml") if home else None


def _unquote(value: str) -> str:
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
        inner = value[1:-1]
        return (
            inner.replace("''", "'") if value[0] == "'" else inner.replace('\\"', '"').replace("\\\\", "\\")
        )
    return value


def _strip_comment(value: str) -> str:
    if value[:1] in "'\"":
        return value
    cut = value.find(" #")
    return value[:cut] if cut >= 0 else value


def parse_flat_yaml(text: str) -> dict[str, str]:
    """Top-level ``key: value`` pairs of a YAML document (nested or list lines are skipped)."""
    out: dict[str, str] = {}
    for raw in text.splitlines():
        if not raw.strip() or raw.lstrip().startswith("#") or raw[:1] in " \t-" or raw.startswith("---"):
            continue
        key, sep, value = raw.partition(":")
        if not sep:
            continue
        value = _strip_comment(value.strip()).strip()
        out[_unquote(key.strip())] = _unquote(value)
    return out


def read_tools_yml(path: PathText | None = None) -> tuple[str, str] | None:
    """(accessKey, secretKey) from tools.yml, or None when there is no usable pair."""
    path = path or tools_yml_path()
    if path is None:
        return None
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except (OSError, UnicodeDecodeError):
        return None
    data = parse_flat_yaml(text)
    ak, sk = data.get("accessKey", "").strip(), data.get("secretKey", "").strip()
    if not ak or not sk:
        return None
    return ak, sk
