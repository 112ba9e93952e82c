"""The base of every family of admin requests: the :class:`AdminCore` it sends through.

A family that asks another family takes it in its constructor (``TopicAdminOps(core, namesrv)``)
and calls it by that name (``self.namesrv.examine_topic_route_info(...)``): what a method may call
is written where it is called, and the families form a graph without cycles (``MQAdmin`` wires it).
"""

from __future__ import annotations

from mqadmin.admin.core import AdminCore

__all__ = ["Family"]


class Family:
    """One family of requests over ``core`` (built once per ``MQAdmin``, on first use)."""

    def __init__(self, core: AdminCore) -> None:
        self.core = core
