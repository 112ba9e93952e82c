"""A topic route as the Java 5.3.3 client holds it, for printing: beans in fastjson order.

The Java tool prints the client's ``TopicRouteData`` bean, so the text shows the client's view:
``brokerAddrs`` as a ``HashMap<Long, String>``, ``enableActingMaster`` always present (the 5.3.3
bean's default is false), properties sorted by name, nulls left out. The bean comes from the
route types' declarations (each field's view), not from a second list of their fields.
"""

from __future__ import annotations

from typing import Any

from mqadmin.cli.javatext import Bean, JavaSet
from mqadmin.protocol.bodies.declared import java_view
from mqadmin.protocol.bodies.route import BrokerData, TopicRouteData
from mqadmin.protocol.javacoll import java_hash_order

__all__ = ["broker_addrs_in_java_order", "route_bean", "to_standard_json"]


def broker_addrs_in_java_order(bd: BrokerData) -> dict[int, str]:
    addrs = bd.broker_addrs or {}
    return {k: addrs[k] for k in java_hash_order(list(addrs))}


def _as_bean(value: Any) -> Any:
    """A bean of JSON values; a map keyed by numbers (``currIdMap``) stays a map."""
    if isinstance(value, dict):
        inner = {k: _as_bean(v) for k, v in value.items()}
        return inner if any(not isinstance(k, str) for k in value) or not value else Bean(inner)
    if isinstance(value, list):
        return [_as_bean(v) for v in value]
    return value


def route_bean(route: TopicRouteData) -> Bean:
    """The ``TopicRouteData`` bean of the Java 5.3.3 client, derived from the type's declaration."""
    bean: Bean = java_view(route, Bean, _as_bean)
    return bean


def to_standard_json(value: Any) -> Any:
    """Plain JSON values of beans/maps/sets: numeric keys quoted, bean properties sorted, nulls dropped."""
    if isinstance(value, Bean):
        return {k: to_standard_json(value[k]) for k in sorted(value) if value[k] is not None}
    if isinstance(value, dict):
        return {str(k): to_standard_json(v) for k, v in value.items() if v is not None}
    if isinstance(value, JavaSet | list | tuple):
        return [to_standard_json(v) for v in value]
    return value
