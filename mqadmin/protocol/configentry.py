"""What a remote config update may carry: one home for the rules of UPDATE_BROKER_CONFIG (25) and
UPDATE_NAMESRV_CONFIG (318), used by the admin client before sending and by both servers before
changing anything.

Java writes both updates as unescaped ``key=value`` lines (``MixAll.properties2String``) and
persists them the same way, so a line break in a value adds a line of its own choosing to the
server's config file; and a setting naming a file or a directory lets a remote peer point the
server's reads and writes elsewhere. :func:`config_entry_refusal` refuses the first,
:func:`is_path_key` names the second (servers add it to their black list).
"""

from __future__ import annotations

import re

from mqadmin.protocol import names

__all__ = ["PATH_KEYS", "config_entry_refusal", "is_path_key"]

PATH_KEYS = frozenset(
    {
        "brokerConfigPath",
        "rocketmqHome",
        "storePathRootDir",
        "storePathCommitLog",
        "storePathDLedgerCommitLog",
        "storePathEpochFile",
        "storePathBrokerIdentity",
        "readOnlyCommitLogStorePaths",
        "configStorePath",
        "controllerStorePath",
        "kvConfigPath",
    }
)
"""Every key of a 4.9.8 or 5.3.3 broker, name server or controller that names a file or directory."""

_NOT_PATHS = frozenset({"flushLeastPagesWhenWarmMapedFile"})
"""Java settings whose names end in ``File`` but that hold a number."""

_CAMEL_WORD = re.compile(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])")
_PATH_WORDS = frozenset({"path", "paths", "dir", "dirs", "directory", "home", "folder"})

_LINE_BREAK = re.compile(r"[\r\n]")
# what ends a key in Properties.load (blank, '=' or ':'), starts a comment or escapes
_KEY_BREAKERS = re.compile(r"[\s=:\\]|^[#!]")


def is_path_key(key: str) -> bool:
    """A setting naming a file or directory: one of :data:`PATH_KEYS`, or any other key (of a ``-c``
    file, ``tls.server.keyPath``...) with ``Path``, ``Dir``, ``Home`` or ``Folder`` as a word, or
    ending in ``File``."""
    if key in PATH_KEYS:
        return True
    if key in _NOT_PATHS:
        return False
    words = [w.lower() for w in _CAMEL_WORD.findall(key)]
    return bool(words) and (words[-1] == "file" or any(w in _PATH_WORDS for w in words))


def config_entry_refusal(key: str, value: str, *, value_controls: bool = False) -> str | None:
    """Why ``key=value`` cannot be one config entry, or None.

    A key is a Java field name: not blank, no control character, nothing that would end it or
    start a comment. A value is text on one line without NUL or lone surrogates (and without any
    control character when ``value_controls``: the name server's settings hold none).
    """
    if not key or not key.strip():
        return "a config key is blank"
    why = names.bad_text(key, controls=True)
    if why is not None:
        return f"the config key {key!r} {why}"
    if _KEY_BREAKERS.search(key):
        return f"the config key {key!r} is not a property name"
    if _LINE_BREAK.search(value):
        return f"the value of config {key} contains a line break"
    why = names.bad_text(value, controls=value_controls)
    if why is not None:
        return f"the value of config {key} {why}"
    return None
