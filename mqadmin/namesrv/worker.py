"""A name server worker process: route queries on one more core, everything else to the primary.

The primary process (the one that holds the route tables, the KV store and the config) starts
workers with ``--workers N``. Each listens on the same port (SO_REUSEPORT: the kernel spreads the
connections) and answers GET_ROUTEINFO_BY_TOPIC from a :class:`RouteReplica`, a copy of encoded
route bodies kept in step with the primary over a socket pair. Every other request (registrations,
unregistrations, KV, config, listings, controller codes, zone-mode and order-config route queries)
is passed on unchanged to the primary over a connection of its own per client connection, so the
primary sees one channel per broker as if the broker had dialled it: when the client goes, that
channel closes (the broker's routes go at once), and when the primary closes the channel (an
expired broker) the client's connection is closed too. A passed-on answer is held until the
worker's copy has caught up with the primary (a SYNC), so a client that registered, then asks for
a route on the same connection, sees its registration.

A worker exits when its primary goes (the socket pair closes) or on SIGTERM (the primary's way of
stopping it; SIGINT is the primary's alone); the primary restarts a worker that dies. Run as
``python -m mqadmin.namesrv.worker '<json settings>'`` by the primary only.
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import os
import signal
import socket
import sys
from collections.abc import Awaitable, Coroutine
from typing import Any

from mqadmin.namesrv.fastpath import ROUTE_CODE, route_prefilter
from mqadmin.namesrv.replica import RouteReplica
from mqadmin.namesrv.routequery import FORWARD, RouteQuery, answer, response
from mqadmin.protocol.command import RemotingCommand
from mqadmin.remoting.client import Connection, HandlerResult, HandlerTable, parse_addr
from mqadmin.remoting.loops import loop_factory
from mqadmin.remoting.server import RemotingServer
from mqadmin.route.routecache import RouteBodyCache
from mqadmin.servermain import setup_logging

__all__ = ["WorkerSettings", "main", "serve"]

log = logging.getLogger("mqadmin.namesrv")

FORWARD_TIMEOUT = 60.0
"""Seconds a passed-on request may take at the primary (a large registration is sliced there)."""
_UPSTREAM = "namesrv.upstream"
_TURN = "namesrv.turn"


WorkerSettings = dict[str, Any]
"""``host``, ``port``, ``fd`` (the socket pair), ``primary`` (``host:port`` of its internal
listener), ``idle`` (seconds, 0 for none), ``backlog``, ``loop``, ``log_file``, ``cache_bytes``."""


class Worker:
    """The request handlers of a worker: cached routes, and passing on."""

    def __init__(self, replica: RouteReplica, primary: str) -> None:
        self.replica = replica
        self.primary = primary

    def install(self, server: RemotingServer) -> None:
        server.register_handler(ROUTE_CODE, self.route)
        server.register_default_handler(self.forward)
        server.connection_factory = functools.partial(Connection, prefilter=route_prefilter(self.replica))

    def route(self, conn: Connection, req: RemotingCommand) -> HandlerResult | Awaitable[HandlerResult]:
        """A route query the fast path left: answered at once when its route is at hand and
        nothing before it waits, else in turn: the copy filled from the primary, or passed on."""
        query = RouteQuery.of_request(req)
        if _TURN not in conn.attrs:
            ans = answer(query, self.replica)
            if type(ans) is bytes:
                return response(req, ans)
        return _in_turn(conn, self._route(conn, req, query))

    def forward(self, conn: Connection, req: RemotingCommand) -> Awaitable[HandlerResult]:
        """Pass a request on to the primary over this client's own channel, and its answer back."""
        return _in_turn(conn, self._forward(conn, req))

    async def _route(
        self, conn: Connection, req: RemotingCommand, query: RouteQuery
    ) -> RemotingCommand | None:
        ans = answer(query, self.replica)  # filled while this one waited its turn?
        if ans is FORWARD:
            ans = await self.replica.fill(query)
        if ans is FORWARD:
            return await self._forward(conn, req)
        return response(req, ans)

    async def _forward(self, conn: Connection, req: RemotingCommand) -> RemotingCommand | None:
        upstream = await self._upstream(conn)
        if req.is_oneway:
            upstream.send(req)
            return None
        opaque = req.opaque
        resp = await upstream.invoke(req, FORWARD_TIMEOUT)
        req.opaque = opaque
        await self.replica.sync()
        return resp

    async def _upstream(self, conn: Connection) -> Connection:
        """The client's channel to the primary, opened with its first passed-on request (requests
        that arrive meanwhile wait for the same opening, in order)."""
        opening: asyncio.Future[Connection] | None = conn.attrs.get(_UPSTREAM)
        if opening is None or (opening.done() and (opening.cancelled() or opening.exception())):
            opening = asyncio.ensure_future(self._open_upstream(conn))  # first, or after a failure
            conn.attrs[_UPSTREAM] = opening
        return await asyncio.shield(opening)

    async def _open_upstream(self, conn: Connection) -> Connection:
        host, port = parse_addr(self.primary)
        loop = asyncio.get_running_loop()
        _, up = await loop.create_connection(
            lambda: Connection(HandlerTable(), addr=f"{self.primary} (for {conn.addr})"), host, port
        )
        if conn.closed:
            up.close("client gone")
        else:
            conn.on_close.append(lambda _c: up.close("client gone"))
            up.on_close.append(lambda _u: conn.close("channel closed by the name server"))
        return up


def _in_turn(
    conn: Connection, work: Coroutine[Any, Any, RemotingCommand | None]
) -> Coroutine[Any, Any, RemotingCommand | None]:
    """``work``, to run once the connection's earlier requests are answered: a client's requests
    are answered in the order sent, as the primary answers them (a route query sent after a
    registration sees it). The turn is taken now, as the request is read, not when it runs."""
    before: asyncio.Future[None] | None = conn.attrs.get(_TURN)
    mine: asyncio.Future[None] = asyncio.get_running_loop().create_future()
    conn.attrs[_TURN] = mine
    return _after(conn, before, mine, work)


async def _after(
    conn: Connection,
    before: asyncio.Future[None] | None,
    mine: asyncio.Future[None],
    work: Coroutine[Any, Any, RemotingCommand | None],
) -> RemotingCommand | None:
    try:
        if before is not None and not before.done():
            try:
                await asyncio.shield(before)
            except BaseException:
                work.close()
                raise
        return await work
    finally:
        mine.set_result(None)
        if conn.attrs.get(_TURN) is mine:
            del conn.attrs[_TURN]


async def serve(settings: WorkerSettings) -> None:
    """Listen beside the primary until it goes or a signal says stop."""
    loop = asyncio.get_running_loop()
    sock = socket.socket(fileno=int(settings["fd"]))
    sock.setblocking(False)
    cache = RouteBodyCache(int(settings.get("cache_bytes", 16 << 20)))
    _, replica = await loop.connect_accepted_socket(lambda: RouteReplica(cache), sock)
    idle = float(settings.get("idle", 0))
    server = RemotingServer(
        idle_timeout=idle if idle > 0 else None, backlog=int(settings.get("backlog", 1024)), reuse_port=True
    )
    Worker(replica, settings["primary"]).install(server)
    await server.start(settings["host"], int(settings["port"]))
    replica.ready()
    log.info("name server worker %d serving on %s", os.getpid(), server.address)
    stop: asyncio.Future[Any] = loop.create_future()

    def stop_now() -> None:
        if not stop.done():
            stop.set_result(None)

    loop.add_signal_handler(signal.SIGTERM, stop_now)
    try:
        await asyncio.wait({stop, replica.closed}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        loop.remove_signal_handler(signal.SIGTERM)
        await server.stop(1.0)
        replica.close()


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        sys.stderr.write("this is started by the name server (mqadmin namesrv start --workers N)\n")
        return 2
    settings: WorkerSettings = json.loads(args[0])
    # Ctrl-C reaches the whole process group: the primary decides, and stops its workers
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    handler = setup_logging(settings.get("log_file"))
    try:
        with asyncio.Runner(loop_factory=loop_factory(settings.get("loop", "asyncio"))) as runner:
            runner.run(serve(settings))
    except KeyboardInterrupt:
        pass
    finally:
        if handler is not None:
            handler.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
