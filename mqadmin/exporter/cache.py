"""``exportMetrics --listen --cache-interval SECONDS``: one collection per interval, however many scrape.

Without it every scrape asks the cluster anew, so two Prometheus servers (an HA pair) scraping one
exporter double the load on the brokers. With it a background task takes a sample every interval,
each within ``min(--scrape-timeout, interval)`` seconds, and a scrape is answered at once with the
newest complete sample. A master that stops answering is ``rocketmq_broker_up 0`` in the first sample
started after it stopped: on the page at most one interval plus that sample's own time later (two
intervals at most). Before the first sample is complete a scrape waits for it, within its deadline.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable

from mqadmin.exporter.collect import Scrape

__all__ = ["SampleCache"]

log = logging.getLogger("mqadmin.exporter")


class SampleCache:
    """Samples ``collect(budget)`` every ``interval`` seconds; :meth:`take` gives the newest one."""

    def __init__(self, collect: Callable[[float], Awaitable[Scrape]], interval: float, budget: float) -> None:
        self._collect = collect
        self.interval = interval
        self.budget = min(budget, interval)
        self._newest: Scrape | None = None
        self._ready = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self.samples = 0
        """Samples taken so far."""

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run(), name="metrics-sampler")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
            self._task = None

    async def take(self, budget: float) -> Scrape:
        """The newest complete sample; before the first one, that one (TimeoutError past ``budget``)."""
        if self._newest is None:
            async with asyncio.timeout(budget):
                await self._ready.wait()
        assert self._newest is not None
        return self._newest

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            started = loop.time()
            self._newest = await self._sample()
            self.samples += 1
            self._ready.set()
            await asyncio.sleep(max(0.0, started + self.interval - loop.time()))

    async def _sample(self) -> Scrape:
        started = time.monotonic()
        try:  # the collection keeps its own deadline; this one is a safety net a little beyond it
            async with asyncio.timeout(self.budget + 1.0):
                return await self._collect(self.budget)
        except Exception as e:  # a bug or a stuck collection: a valid page that says nothing answered
            log.error("metrics sample failed: %s", e or type(e).__name__, exc_info=e)
            return Scrape(False, namesrv_error=e, seconds=time.monotonic() - started)
