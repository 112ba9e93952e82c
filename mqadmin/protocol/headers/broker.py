"""Broker administration requests: stats items (315) and the broker config entries of 25.

GET_BROKER_CONFIG (26), GET_BROKER_RUNTIME_INFO (28), UPDATE_BROKER_CONFIG (25),
GET_ALL_TOPIC_CONFIG (21), GET_SYSTEM_TOPIC_LIST_FROM_BROKER (305) and the housekeeping requests
(306, 316, 329) carry no header in Java. UPDATE_BROKER_CONFIG carries ``key=value`` lines that Java
writes without escaping (``MixAll.properties2String``) and a broker persists the same way, so a
line break in a value adds a line of its own choosing to the broker's config file:
:func:`config_entry_refusal` is the one check for an entry, applied by the admin client before
sending and by the broker before changing anything.
"""

from __future__ import annotations

import re

from mqadmin.protocol import names
from mqadmin.protocol.headers.base import RequestHeader, request_header

__all__ = ["ViewBrokerStatsDataRequestHeader", "config_entry_refusal"]


@request_header
class ViewBrokerStatsDataRequestHeader(RequestHeader):
    """VIEW_BROKER_STATS_DATA (315)."""

    stats_name: str
    stats_key: str


_LINE_BREAK = re.compile(r"[\r\n]")
# what ends a key in Properties.load (blank, '=' or ':'), starts a comment or escapes
_KEY_BREAKERS = re.compile(r"[\s=:\\]|^[#!]")


def config_entry_refusal(key: str, value: str) -> str | None:
    """Why ``key=value`` cannot be sent as one config entry, or None.

    A key is a Java field name: not blank, and nothing that would end it or start a comment. A
    value is any text on one line without NUL or lone surrogates.
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
    why = names.bad_text(value)
    if why is not None:
        return f"the value of config {key} {why}"
    return None
