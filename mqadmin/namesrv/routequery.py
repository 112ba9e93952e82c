"""The one decision of a GET_ROUTEINFO_BY_TOPIC query, whoever answers it.

A :class:`RouteQuery` is read once from the request's version and ext fields: the topic, whether the
client wants standard JSON (version >= V4_9_4 or ``acceptStandardJsonOnly``) and the zone it asks
to be cut down to (``__ZONE_MODE`` true and a non-blank ``__ZONE_NAME``, Java's ``ZoneRouteRPCHook``).
:func:`answer` decides it over a :class:`RouteSource` and returns one of four answers: the body,
:class:`NotFound` (Java's remark), :data:`FORWARD` (only the process holding the tables can tell) or
:data:`NOT_READY` (``needWaitForService``).

The two sources: :class:`RouteTables`, the route tables themselves with the KV store (order
configs) and the config, in the primary process; and a worker's replica of encoded route bodies
(:class:`~mqadmin.namesrv.replica.RouteReplica`), which holds plain routes only and so forwards
every other query. The fast path, the processor and the worker all ask :func:`answer`; only how an
answer is written differs (spliced bytes, a response command, or a request passed on).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Final, NamedTuple, Protocol

from mqadmin.namesrv.config import NamesrvConfig
from mqadmin.namesrv.kvconfig import NAMESPACE_ORDER_TOPIC_CONFIG, KVConfigManager
from mqadmin.protocol.codes import ResponseCode
from mqadmin.protocol.command import RemotingCommand
from mqadmin.protocol.javanum import parse_bool
from mqadmin.route import MASTER_ID, RouteInfoManager

__all__ = [
    "FAQ_TOPIC_URL",
    "FORWARD",
    "NOT_READY",
    "V4_9_4",
    "ZONE_MODE",
    "ZONE_NAME",
    "Forward",
    "NotFound",
    "NotReady",
    "RouteAnswer",
    "RouteQuery",
    "RouteSource",
    "RouteTables",
    "answer",
    "not_found_remark",
    "response",
]

log = logging.getLogger("mqadmin.namesrv")

V4_9_4: Final = 401
"""Clients from this version on get route bodies in standard JSON."""
ACCEPT_STANDARD_JSON_ONLY: Final = "acceptStandardJsonOnly"
ZONE_MODE: Final = "__ZONE_MODE"
ZONE_NAME: Final = "__ZONE_NAME"
FAQ_TOPIC_URL: Final = "https://rocketmq.apache.org/docs/bestPractice/06FAQ"


def not_found_remark(topic: str | None) -> str:
    """What Java answers for a topic without a route (TOPIC_NOT_EXIST)."""
    shown = "null" if topic is None else topic
    return (
        f"No topic route info in name server for the topic: {shown}\nSee {FAQ_TOPIC_URL} for further details."
    )


class RouteQuery(NamedTuple):
    """What a route query asks, read once from its request."""

    topic: str | None
    standard: bool
    zone: str | None = None
    """The zone the route is cut down to, or None for the whole route."""

    @classmethod
    def of(cls, version: int, ext: Mapping[str, str] | None) -> RouteQuery:
        """The query of a request with this version and these ext fields (Java's lenient reading:
        a missing field is null, a flag is true only when it says ``true``)."""
        standard = version >= V4_9_4
        if ext is None:
            return cls(None, standard)
        zone = None
        if len(ext) > 1:  # the topic and something more: a form or a zone
            standard = standard or parse_bool(ext.get(ACCEPT_STANDARD_JSON_ONLY))
            if ZONE_MODE in ext and parse_bool(ext[ZONE_MODE]):
                name = ext.get(ZONE_NAME)
                zone = name if name is not None and name.strip() else None
        return _new_query(cls, (ext.get("topic"), standard, zone))  # one per route query: the quick way

    @classmethod
    def of_request(cls, req: RemotingCommand) -> RouteQuery:
        return cls.of(req.version, req.ext_fields)

    @property
    def plain(self) -> bool:
        """A named topic's whole route: the only kind of answer a copy of route bodies can hold."""
        return self.topic is not None and self.zone is None


_new_query: Callable[[type[RouteQuery], tuple[str | None, bool, str | None]], RouteQuery] = tuple.__new__


@dataclass(slots=True)
class NotFound:
    """No route for the topic (TOPIC_NOT_EXIST, with Java's remark)."""

    remark: str


class Forward:
    """Only the process holding the tables can answer: pass the request on."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "FORWARD"


class NotReady:
    """The server still waits for service (``needWaitForService``): SYSTEM_ERROR."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "NOT_READY"


FORWARD: Final = Forward()
NOT_READY: Final = NotReady()
RouteAnswer = bytes | NotFound | Forward | NotReady
"""The route as the client asked it (SUCCESS; the bytes themselves, so the hot answer allocates
nothing), :class:`NotFound`, :data:`FORWARD` or :data:`NOT_READY`."""


class RouteSource(Protocol):
    """Where answers come from.

    ``route_body(query)`` is the route as the query asks it, :data:`NOT_READY` while the server must
    not answer yet, or None when the source has no route for it. ``complete`` says what None means:
    no route at all (the tables), or none held here (a replica, which holds plain routes only and
    leaves the rest to the tables).
    """

    @property
    def complete(self) -> bool: ...

    def route_body(self, query: RouteQuery) -> bytes | NotReady | None: ...


def answer(query: RouteQuery, source: RouteSource) -> RouteAnswer:
    """The answer to ``query`` from ``source``."""
    found = source.route_body(query)
    if found is not None:
        return found
    return NotFound(not_found_remark(query.topic)) if source.complete else FORWARD


def response(req: RemotingCommand, ans: RouteAnswer) -> RemotingCommand:
    """The response command of an answer (a :data:`FORWARD` has none: the caller passes it on)."""
    match ans:
        case bytes():
            return req.response(ResponseCode.SUCCESS, body=ans)
        case NotFound(remark):
            return req.response(ResponseCode.TOPIC_NOT_EXIST, remark)
        case NotReady():
            log.warning("name server not ready. request code %d", req.code)
            return req.response(ResponseCode.SYSTEM_ERROR, "name server not ready")
    raise ValueError(f"{ans!r} has no response here")


class RouteTables:
    """The route tables as a source: every route, order configs spliced in, zones cut out."""

    complete: Final = True

    def __init__(self, routes: RouteInfoManager, kv: KVConfigManager, config: NamesrvConfig) -> None:
        self.routes = routes
        self.kv = kv
        self.config = config
        self._started = time.monotonic()

    def _still_waiting(self) -> bool:
        """Inside the ``waitSecondsForService`` after start (asked only when ``needWaitForService``)."""
        return time.monotonic() - self._started < self.config.wait_seconds_for_service

    def route_body(self, query: RouteQuery) -> bytes | NotReady | None:
        config = self.config
        if config.need_wait_for_service and self._still_waiting():
            return NOT_READY
        topic = query.topic
        order_conf = None
        if config.order_message_enable:
            order_conf = self.kv.get(NAMESPACE_ORDER_TOPIC_CONFIG, topic)
        body = self.routes.route_body(topic, query.standard, order_conf)
        if body is not None and query.zone is not None:
            return self._zone_body(topic, query.zone, order_conf) or body
        return body

    def fill(self, topic: str, standard: bool) -> bytes | NotFound | Forward:
        """What a worker filling its copy gets: only an answer it may keep until the tables change
        (a KV change does not reach it, so a route with an order config is asked with the request)."""
        if self.config.order_message_enable:
            return FORWARD
        ans = answer(RouteQuery(topic, standard), self)
        return FORWARD if isinstance(ans, NotReady) else ans

    def _zone_body(self, topic: str | None, zone: str, order_conf: str | None) -> bytes | None:
        """Java ``ZoneRouteRPCHook``: a zone-mode client sees its zone's brokers (and master-less
        ones), in legacy JSON whatever form it asked for."""
        route = self.routes.pickup_topic_route(topic)
        if route is None:
            return None
        route.order_topic_conf = order_conf
        kept, dropped = [], {}
        for b in route.broker_datas or []:
            if b.broker_addrs is None:
                continue
            same_zone = b.zone_name is not None and b.zone_name.lower() == zone.lower()
            if b.broker_addrs.get(MASTER_ID) is None or same_zone:  # master down: read from its slaves
                kept.append(b)
            else:
                dropped[b.broker_name] = b
        route.broker_datas = kept
        route.queue_datas = [q for q in route.queue_datas or [] if q.broker_name not in dropped]
        if route.filter_server_table:
            for b in dropped.values():
                for addr in (b.broker_addrs or {}).values():
                    route.filter_server_table.pop(addr, None)
        return route.encode(standard=False)
