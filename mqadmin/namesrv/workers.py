"""The primary's side of ``--workers N``: start the worker processes, feed them, restart the dead.

Each worker gets a socket pair (its :class:`ReplicaFeed` here) and the settings to listen beside the
primary on the same port. The pool hears of every route that may have changed (the route cache's
``on_drop``) and passes it to every feed. A worker that exits while the pool runs is started again
(at once the first time, then after a pause growing to a few seconds if it keeps dying); the pool
remembers when (:meth:`WorkerPool.exited_since`), so the primary can tell a worker's exit from its
brokers leaving.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import signal
import socket
import sys
import time
from collections.abc import Callable
from typing import Any

from mqadmin.namesrv.replica import FillAnswer, ReplicaFeed

__all__ = ["READY_TIMEOUT", "WorkerPool", "cpu_cores", "default_workers"]

log = logging.getLogger("mqadmin.namesrv")

READY_TIMEOUT = 30.0
"""Seconds a worker may take to start listening."""
_RESTART_PAUSES = (0.0, 0.1, 0.5, 2.0, 5.0)
_STABLE_AFTER = 10.0


def cpu_cores() -> int:
    """The cores this process may run on (the default number of processes)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def default_workers() -> int:
    """Every core but one (at least one process): measured on 2 cores with the load generator on the
    same machine, one process on uvloop answered 207k route queries a second at p99 0.64 ms, two
    processes 144k at p99 3.5 ms; the core left over serves the kernel's network work and whatever
    else runs on the box."""
    return max(1, cpu_cores() - 1)


class _Slot:
    """One worker: its process and its feed, replaced together when it dies."""

    def __init__(self, index: int) -> None:
        self.index = index
        self.proc: asyncio.subprocess.Process | None = None
        self.feed: ReplicaFeed | None = None
        self.started = 0.0
        self.failures = 0


class WorkerPool:
    """``count`` worker processes beside the primary; ``settings`` are theirs (see the worker)."""

    def __init__(
        self, count: int, settings: dict[str, Any], answer: Callable[[str, bool], FillAnswer]
    ) -> None:
        self.count = count
        self.settings = settings
        self._answer = answer
        self._slots = [_Slot(i) for i in range(count)]
        self._watchers: set[asyncio.Task[None]] = set()
        self._stopping = False
        self.restarts = 0
        #: When a worker last exited (``time.monotonic``; never: minus infinity).
        self.last_exit = float("-inf")

    @property
    def pids(self) -> list[int]:
        """The worker processes now running."""
        return [s.proc.pid for s in self._slots if s.proc is not None and s.proc.returncode is None]

    def invalidate(self, topic: str | None) -> None:
        """A route may have changed: every worker forgets it (before anything else it hears)."""
        for slot in self._slots:
            if slot.feed is not None:
                slot.feed.invalidate(topic)

    async def start(self) -> None:
        """Start every worker and wait until each listens."""
        await asyncio.gather(*(self._spawn(slot) for slot in self._slots))
        for slot in self._slots:
            task = asyncio.get_running_loop().create_task(self._watch(slot))
            self._watchers.add(task)

    async def _spawn(self, slot: _Slot) -> None:
        ours, theirs = socket.socketpair()
        try:
            settings = {**self.settings, "fd": theirs.fileno()}
            slot.proc = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "mqadmin.namesrv.worker",
                json.dumps(settings),
                pass_fds=(theirs.fileno(),),
                stdin=asyncio.subprocess.DEVNULL,
                stdout=asyncio.subprocess.DEVNULL,
            )
        finally:
            theirs.close()
        ours.setblocking(False)
        _, feed = await asyncio.get_running_loop().connect_accepted_socket(
            lambda: ReplicaFeed(self._answer), ours
        )
        slot.feed = feed
        slot.started = time.monotonic()
        try:
            await asyncio.wait_for(asyncio.shield(feed.ready), READY_TIMEOUT)
        except (TimeoutError, ConnectionError) as e:
            raise OSError(f"name server worker {slot.index} did not start: {e or 'timed out'}") from None
        log.info("name server worker %d started (pid %d)", slot.index, slot.proc.pid)

    async def _watch(self, slot: _Slot) -> None:
        """Start the worker again whenever it exits, until the pool stops."""
        while not self._stopping:
            proc = slot.proc
            if proc is None:
                return
            code = await proc.wait()
            self.last_exit = time.monotonic()
            if slot.feed is not None:
                slot.feed.close()
                slot.feed = None
            if self._stopping:
                return
            lived = time.monotonic() - slot.started
            slot.failures = 0 if lived > _STABLE_AFTER else slot.failures + 1
            pause = _RESTART_PAUSES[min(slot.failures, len(_RESTART_PAUSES) - 1)]
            log.warning(
                "name server worker %d (pid %d) exited with %s after %.1f s: starting it again%s",
                slot.index,
                proc.pid,
                code,
                lived,
                f" in {pause:g} s" if pause else "",
            )
            await asyncio.sleep(pause)
            if self._stopping:
                return
            try:
                await self._spawn(slot)
                self.restarts += 1
            except OSError as e:
                log.error("%s", e)
                slot.started = time.monotonic()
                if slot.proc is not None and slot.proc.returncode is None:
                    slot.proc.kill()

    def exited_since(self, when: float) -> bool:
        """A worker exited at or after ``when`` (``time.monotonic``)."""
        return self.last_exit >= when

    async def stop(self, grace: float = 5.0) -> None:
        """SIGTERM every worker, wait for them (SIGKILL after ``grace``)."""
        self._stopping = True
        for task in list(self._watchers):
            task.cancel()
        for task in list(self._watchers):
            with contextlib.suppress(BaseException):
                await task
        procs = [s.proc for s in self._slots if s.proc is not None and s.proc.returncode is None]
        for proc in procs:
            with contextlib.suppress(ProcessLookupError):
                proc.send_signal(signal.SIGTERM)
        for proc in procs:
            try:
                await asyncio.wait_for(proc.wait(), grace)
            except TimeoutError:
                with contextlib.suppress(ProcessLookupError):
                    proc.kill()
                await proc.wait()
        for slot in self._slots:
            if slot.feed is not None:
                slot.feed.close()
                slot.feed = None
