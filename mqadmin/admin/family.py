"""The base of every family of admin requests: the :class:`AdminCore` it sends through.

A family that asks another family takes it in its constructor (``TopicAdminOps(core, namesrv)``)
and calls it by that name (``self.namesrv.examine_topic_route_info(...)``): what a method may call
is written where it is called, and the families form a graph without cycles (``MQAdmin`` wires it).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TypeVar

from mqadmin.admin.core import AdminCore
from mqadmin.admin.errors import AdminError, BadResponseError
from mqadmin.protocol.bodies.route import TopicRouteData
from mqadmin.protocol.errors import ProtocolError

__all__ = ["Family", "decoded", "random_broker_addr"]

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


def random_broker_addr(route: TopicRouteData, topic: str) -> str:
    """Java picks one broker of the route at random (spreading the load)."""
    datas = route.broker_datas or []
    if not datas:
        raise AdminError(f"the route of {topic} has no broker")
    addr = datas[random.randrange(len(datas))].select_broker_addr()
    if addr is None:
        raise AdminError(f"broker {datas[0].broker_name} of {topic} has no address")
    return addr
