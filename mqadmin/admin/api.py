"""``MQAdmin``: the admin API as one object, composed of one mixin per family of requests.

A family module defines ``class XxxOps(AdminCore)`` (or a subclass of another family it builds on)
with async methods named like Java's ``DefaultMQAdminExt``; listing it in :data:`FAMILIES` (and in
the bases the type checker sees below) makes its methods available to every command.

A family's module is imported when one of its methods is first used, not before: ``mqadmin
topicRoute`` loads the name-server family only (start-up time of the CLI). The object is then an
instance of ``MQAdmin`` composed with the families loaded so far, exactly as if all were there:
:mod:`mqadmin.admin.family_index` (generated from the full class) says which family defines each
name, and which families must come along because they override something the loaded one has
(``python -m mqadmin.admin.family_index`` writes it; a test checks it is current).
"""

from __future__ import annotations

import importlib
import threading
from typing import TYPE_CHECKING, Any

from mqadmin.admin.core import AdminCore

__all__ = ["FAMILIES", "MQAdmin", "compose", "family_class"]

FAMILIES: tuple[str, ...] = (
    "mqadmin.admin.acl:AclOps",
    "mqadmin.admin.cold_data:ColdDataOps",
    "mqadmin.admin.auth:AuthOps",
    "mqadmin.admin.static_topics:StaticTopicOps",
    "mqadmin.admin.consumers:ConsumerOps",
    "mqadmin.admin.groups:GroupOps",
    "mqadmin.admin.messages:MessageOps",
    "mqadmin.admin.controller:ControllerOps",
    "mqadmin.admin.broker_ops:BrokerOpsAdmin",
    "mqadmin.admin.topics:TopicAdminOps",
    "mqadmin.admin.brokers:BrokerAdminOps",
    "mqadmin.admin.broker:BrokerOps",
    "mqadmin.admin.namesrv:NamesrvOps",
)
"""Every family, in the order of ``MQAdmin``'s bases (which decides who wins when two define a name)."""


def family_class(family: str) -> type:
    module, _, name = family.partition(":")
    return getattr(importlib.import_module(module), name)  # type: ignore[no-any-return]


if TYPE_CHECKING:
    from mqadmin.admin.acl import AclOps
    from mqadmin.admin.auth import AuthOps
    from mqadmin.admin.broker import BrokerOps
    from mqadmin.admin.broker_ops import BrokerOpsAdmin
    from mqadmin.admin.brokers import BrokerAdminOps
    from mqadmin.admin.cold_data import ColdDataOps
    from mqadmin.admin.consumers import ConsumerOps
    from mqadmin.admin.controller import ControllerOps
    from mqadmin.admin.groups import GroupOps
    from mqadmin.admin.messages import MessageOps
    from mqadmin.admin.namesrv import NamesrvOps
    from mqadmin.admin.static_topics import StaticTopicOps
    from mqadmin.admin.topics import TopicAdminOps

    class _Families(
        AclOps,
        ColdDataOps,
        AuthOps,
        StaticTopicOps,
        ConsumerOps,
        GroupOps,
        MessageOps,
        ControllerOps,
        BrokerOpsAdmin,
        TopicAdminOps,
        BrokerAdminOps,
        BrokerOps,
        NamesrvOps,
    ):
        pass

else:

    class _Families(AdminCore):
        """At run time: no family yet; the first use of a name loads the family that defines it."""

        def __getattr__(self, name: str) -> Any:
            if name.startswith("__"):
                raise AttributeError(name)
            from mqadmin.admin.family_index import DEFINED_BY

            family = DEFINED_BY.get(name)
            cls = _with(family) if family is not None else None
            if cls is None or cls is type(self):
                raise AttributeError(f"'MQAdmin' object has no attribute {name!r}")
            self.__class__ = cls
            return getattr(self, name)


_loaded: set[str] = set()
_composed: dict[frozenset[str], type] = {}
_lock = threading.Lock()


def _with(family: str) -> type:
    """``MQAdmin`` composed with every family loaded so far, ``family`` and what comes along with it."""
    from mqadmin.admin.family_index import COMES_WITH

    with _lock:
        _loaded.add(family)
        _loaded.update(COMES_WITH.get(family, ()))
        key = frozenset(_loaded)
        cls = _composed.get(key)
        if cls is None:
            cls = _composed[key] = compose(key)
        return cls


def compose(families: frozenset[str]) -> type:
    """``MQAdmin`` with ``families`` as further bases, in the order of :data:`FAMILIES`."""
    bases = tuple(family_class(f) for f in FAMILIES if f in families)
    return type("MQAdmin", (MQAdmin, *bases), {"__module__": __name__, "__qualname__": "MQAdmin"})


class MQAdmin(_Families):
    """Async admin client for a RocketMQ cluster (use ``async with MQAdmin(settings) as admin``)."""

    async def __aenter__(self) -> MQAdmin:
        return self
