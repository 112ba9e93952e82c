"""``--workers 2``: a worker that exits does not take its brokers out of the routes; a broker that
leaves through a worker does leave.

Our name server in-process with one real worker process, on a loopback port picked at run time; the
broker is a plain connection the kernel handed to the worker.
"""

from __future__ import annotations

import asyncio
import os
import signal
from pathlib import Path

from mqadmin.namesrv.server import WORKER_EXIT_GRACE
from tests.namesrv.support import Wire, namesrv, register, route_query, run, topic_config
from tests.namesrv.test_budgets import _through_worker

KEPT = [topic_config("Kept"), topic_config("KeptToo")]  # a first registration of one topic is refused
LEAVING = [topic_config("Leaving"), topic_config("LeavingToo")]


async def _routable(port: int, topic: str) -> bool:
    w = await Wire.open(port)
    try:
        return (await w.call(route_query(topic))).code == 0
    finally:
        await w.close()


def test_a_worker_exit_keeps_its_brokers_routable(tmp_path: Path) -> None:
    async def body() -> None:
        async with namesrv(tmp_path, workers=2) as ctl:
            assert ctl.pool is not None
            kept = await _through_worker(ctl)
            await register(kept, "C", "broker-k", 0, "10.2.0.1:10911", KEPT)
            leaving = await _through_worker(ctl)
            await register(leaving, "C", "broker-l", 0, "10.2.0.2:10911", LEAVING)
            assert await _routable(ctl.port, "Kept") and await _routable(ctl.port, "Leaving")

            # a broker that closes its own channel leaves (a quarter second later than without workers)
            await leaving.close()
            await asyncio.sleep(WORKER_EXIT_GRACE + 0.5)
            assert not await _routable(ctl.port, "Leaving")

            # the worker dies (its connections with it): the broker it carried stays in the routes
            (pid,) = ctl.pool.pids
            os.kill(pid, signal.SIGKILL)
            for _ in range(100):
                if ctl.pool.restarts:
                    break
                await asyncio.sleep(0.1)
            assert ctl.pool.restarts == 1
            await asyncio.sleep(WORKER_EXIT_GRACE + 0.5)
            assert await _routable(ctl.port, "Kept")
            # and registers again over a new channel as a broker does every 30 s
            again = await _through_worker(ctl)
            await register(again, "C", "broker-k", 0, "10.2.0.1:10911", KEPT)
            assert await _routable(ctl.port, "Kept")
            await again.close()
            await asyncio.sleep(WORKER_EXIT_GRACE + 0.5)
            assert not await _routable(ctl.port, "Kept")

    run(body(), 90.0)
