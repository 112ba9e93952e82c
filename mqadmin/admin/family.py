"""The base of every family of admin requests: the :class:`AdminCore` it sends through.

A family that asks another family takes it in its constructor (``TopicAdminOps(core, namesrv)``)
and calls it by that name (``self.namesrv.examine_topic_route_info(...)``): what a method may call
is written where it is called, and the families form a graph without cycles (``MQAdmin`` wires it).
A family asked on one rare branch only is built there instead, so the common path does not load it
(``ConsumerOps`` asks ``ConnectionOps`` who is online only to explain an empty answer).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from mqadmin.admin.core import AdminCore
from mqadmin.admin.errors import BadResponseError
from mqadmin.protocol.errors import ProtocolError

__all__ = ["Family", "decoded"]

T = TypeVar("T")


class Family:
    """One family of requests over ``core`` (built once per ``MQAdmin``, on first use)."""

    def __init__(self, core: AdminCore) -> None:
        self.core = core


def decoded(addr: str, body: bytes | None, what: str, decoder: Callable[[bytes], T]) -> T:
    """An answer's body read by ``decoder``; no body, or one it refuses, is the broker's fault."""
    if not body:
        raise BadResponseError(addr, f"{what} has no body")
    try:
        return decoder(body)
    except ProtocolError as e:
        raise BadResponseError(addr, f"{what}: {e}") from None
