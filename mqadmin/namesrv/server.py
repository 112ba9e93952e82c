"""One running name server: its tables, KV store and config behind a remoting server, plus housekeeping.

Java's ``NamesrvController``: load ``kvConfig.json``, listen, and every
``scanNotActiveBrokerInterval`` ms drop brokers silent past their heartbeat timeout; a broker's
routes also go when its connection closes. Usable in-process (tests, benchmarks, an embedding
program) as ``async with NamesrvController(...)``.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import inspect
import logging
import time
from collections.abc import Mapping
from typing import Any

from mqadmin.controller import ControllerProcessor
from mqadmin.namesrv.config import Configuration, NamesrvConfig, NettyServerConfig
from mqadmin.namesrv.fastpath import route_prefilter
from mqadmin.namesrv.kvconfig import KVConfigManager
from mqadmin.namesrv.processor import NamesrvProcessor
from mqadmin.namesrv.workers import WorkerPool
from mqadmin.protocol.codes import RequestCode
from mqadmin.protocol.command import RemotingCommand
from mqadmin.protocol.javacoll import java_hash_order
from mqadmin.remoting.client import RemotingClient
from mqadmin.remoting.server import Connection, RemotingServer
from mqadmin.route import MinBrokerIdChange, RouteInfoManager

__all__ = ["NamesrvController"]

log = logging.getLogger("mqadmin.namesrv")

_PRINT_TABLES_EVERY = 600.0
_NOTIFY_TIMEOUT = 0.3


WORKER_EXIT_GRACE = 0.25
"""Seconds around a worker's exit within which a passed-on channel's close is taken as the worker's."""


class NamesrvController:
    """A name server: start it, serve until :meth:`shutdown`."""

    def __init__(
        self,
        namesrv_config: NamesrvConfig | None = None,
        server_config: NettyServerConfig | None = None,
        *,
        file_properties: Mapping[str, str] | None = None,
        route_cache_bytes: int = 16 << 20,
        workers: int = 1,
        worker_loop: str = "asyncio",
        log_file: str | None = None,
    ) -> None:
        self.namesrv_config = namesrv_config or NamesrvConfig()
        self.server_config = server_config or NettyServerConfig()
        self.configuration = Configuration(self.namesrv_config, self.server_config, file_properties)
        self.kv = KVConfigManager(self.namesrv_config.kv_config_path)
        self.routes = RouteInfoManager(self.namesrv_config, route_cache_bytes=route_cache_bytes)
        self.processor = NamesrvProcessor(
            self.routes, self.kv, self.namesrv_config, self.configuration, notify=self._send_notices
        )
        self.controller: ControllerProcessor | None = None  # enableControllerInNamesrv
        if self.namesrv_config.enable_controller_in_namesrv:
            kv = self.namesrv_config.kv_config_path
            self.controller = ControllerProcessor.embedded(file_properties, self.server_config, kv)
        self.server: RemotingServer | None = None
        self.workers = max(1, workers)
        self._worker_loop = worker_loop
        self._log_file = log_file
        self._route_cache_bytes = route_cache_bytes
        self.internal: RemotingServer | None = None
        self.pool: WorkerPool | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self._client: RemotingClient | None = None

    @property
    def port(self) -> int:
        return self.server_config.listen_port

    @property
    def address(self) -> str:
        """``host:port`` to dial: the loopback address when bound to every interface."""
        host = self.server_config.bind_address
        if host in ("0.0.0.0", "", "::"):
            host = "127.0.0.1"
        return f"{host}:{self.port}"

    async def start(self) -> int:
        """Load the KV store, listen and start housekeeping; returns the port listened on."""
        self.kv.load()
        idle = self.server_config.server_channel_max_idle_time_seconds
        server = RemotingServer(
            idle_timeout=float(idle) if idle > 0 else None,
            backlog=self.server_config.server_socket_backlog,
            reuse_port=self.workers > 1,
        )
        self.processor.install(server)
        if self.controller is not None:
            self.controller.attach(server, self.processor.broker_heartbeat)
        prefilter = route_prefilter(self.processor.tables)
        server.connection_factory = functools.partial(Connection, prefilter=prefilter)
        server.on_close.append(self._channel_closed)
        port = await server.start(self.server_config.bind_address, self.server_config.listen_port)
        self.server = server
        self.server_config.listen_port = port
        if self.workers > 1:
            try:
                await self._start_workers(server, port, idle)
            except BaseException:
                await self.shutdown(grace=1.0)
                raise
        self._spawn(self._scan_loop())
        self._spawn(self._print_loop())
        return port

    async def _start_workers(self, server: RemotingServer, port: int, idle: int) -> None:
        """``workers - 1`` more processes on the same port; they pass on all but route queries
        to ``internal``, a loopback listener with this server's handlers."""
        internal = RemotingServer(idle_timeout=None, backlog=self.server_config.server_socket_backlog)
        internal.handlers = server.handlers  # one table: handlers added later serve both
        internal.on_close.append(self._passed_on_closed)
        if self.controller is not None:  # a replica passed on by a worker leaves when its channel closes
            internal.on_close.append(self.controller.channel_closed)
        self.internal = internal
        internal_port = await internal.start("127.0.0.1", 0)
        settings = {
            "host": self.server_config.bind_address,
            "port": port,
            "primary": f"127.0.0.1:{internal_port}",
            "idle": idle,
            "backlog": self.server_config.server_socket_backlog,
            "loop": self._worker_loop,
            "log_file": self._log_file,
            "cache_bytes": self._route_cache_bytes,
        }
        self.pool = WorkerPool(self.workers - 1, settings, self.processor.tables.fill)
        self.routes.route_cache.on_drop = self.pool.invalidate
        await self.pool.start()

    async def shutdown(self, grace: float = 5.0) -> None:
        """Stop housekeeping, answer what is in flight, close every connection."""
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(BaseException):
                await task
        pool, self.pool = self.pool, None
        if pool is not None:
            self.routes.route_cache.on_drop = None
            await pool.stop(grace)
        internal, self.internal = self.internal, None
        if internal is not None:
            await internal.stop(grace)
        if self.controller is not None:
            await self.controller.stop()
        server, self.server = self.server, None
        if server is not None:
            await server.stop(grace)
        if self._client is not None:
            await self._client.close()
            self._client = None
        log.info("name server on port %d stopped", self.port)

    async def __aenter__(self) -> NamesrvController:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.shutdown()

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # ------------------------------------------------------------------------------ housekeeping

    def _channel_closed(self, conn: Connection) -> object:
        """Java ``onChannelDestroy``: the broker that registered over this connection leaves."""

        def destroy() -> None:
            notices = self.routes.on_channel_destroy(conn)
            if notices:
                self._send_notices(notices)

        return self.processor.run_write(destroy)

    def _passed_on_closed(self, conn: Connection) -> None:
        """A channel a worker passed on closed: its broker left, or the worker itself exited.

        Which one is decided :data:`WORKER_EXIT_GRACE` s later, when the pool has noticed an exit. A
        broker whose worker exited keeps its routes: it registers again (through another worker or
        the new one) within its 30 s period, and expiry removes it if it never does. Otherwise a
        worker restart would take every broker it carried out of the routes.
        """
        closed_at = time.monotonic()
        asyncio.get_running_loop().call_later(WORKER_EXIT_GRACE, self._decide_passed_on, conn, closed_at)

    def _decide_passed_on(self, conn: Connection, closed_at: float) -> None:
        pool = self.pool
        if pool is not None and pool.exited_since(closed_at - WORKER_EXIT_GRACE):
            log.warning(
                "a worker exited: the broker that registered over channel %s keeps its routes until "
                "it registers again or expires",
                conn.addr,
            )
            return
        pending = self._channel_closed(conn)
        if inspect.isawaitable(pending):
            self._spawn(pending)

    async def _scan_loop(self) -> None:
        await asyncio.sleep(0.005)
        while True:
            try:
                async with self.processor.write_lock:
                    expired, notices = self.routes.scan_not_active_brokers()
                for _, channel in expired:
                    if isinstance(channel, Connection) and not channel.closed:
                        channel.close("broker channel expired")
                if notices:
                    self._send_notices(notices)
            except Exception:
                log.exception("scanNotActiveBroker failed")
            await asyncio.sleep(max(self.namesrv_config.scan_not_active_broker_interval, 10) / 1000)

    async def _print_loop(self) -> None:
        while True:
            await asyncio.sleep(_PRINT_TABLES_EVERY)
            log.info("route tables: %s; KV namespaces: %d", self.routes.stats(), len(self.kv.config_table))

    # ------------------------------------------------------------------------------ notifications

    def _send_notices(self, notices: list[MinBrokerIdChange]) -> None:
        for notice in notices:
            for addr in notice.targets:
                self._spawn(self._notify(addr, notice))

    async def _notify(self, addr: str, n: MinBrokerIdChange) -> None:
        """NOTIFY_MIN_BROKER_ID_CHANGE, oneway, as Java sends it (best effort, 300 ms)."""
        fields = {
            "minBrokerId": str(n.min_broker_id),
            "minBrokerAddr": n.min_broker_addr,
            "offlineBrokerAddr": n.offline_broker_addr,
            "haBrokerAddr": n.ha_broker_addr,
        }
        ext = {k: fields[k] for k in java_hash_order(fields, 256) if fields[k] is not None}
        cmd = RemotingCommand.request(RequestCode.NOTIFY_MIN_BROKER_ID_CHANGE, ext, oneway=True)  # type: ignore[arg-type]
        if self._client is None:
            self._client = RemotingClient(connect_timeout=_NOTIFY_TIMEOUT)
        try:
            await asyncio.wait_for(self._client.invoke_oneway(addr, cmd), _NOTIFY_TIMEOUT)
        except Exception as e:
            log.warning("notify min broker id change to %s failed: %s", addr, e)
