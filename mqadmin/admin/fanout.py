"""Many calls at once with one deadline: how commands that ask every broker stay fast and bounded.

Each call still has its own request timeout; the deadline caps the whole fan-out, so a command that
asks a hundred brokers through a limited number of concurrent calls ends on time. Failures are
collected, not raised: the caller prints what it got and reports what it missed.
"""

from __future__ import annotations

import threading
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from mqadmin.admin.errors import DeadlineError
from mqadmin.remoting.blocking import run_sync

__all__ = ["FanOutResult", "fan_out", "fan_out_threads"]

K = TypeVar("K")
V = TypeVar("V")


@dataclass(slots=True)
class FanOutResult(Generic[K, V]):
    """Per key, the value or the exception, in the order the keys were given."""

    results: dict[K, V] = field(default_factory=dict)
    errors: dict[K, BaseException] = field(default_factory=dict)
    order: list[K] = field(default_factory=list)

    def items(self) -> list[tuple[K, V | BaseException]]:
        out: list[tuple[K, V | BaseException]] = []
        for k in self.order:
            out.append((k, self.results[k] if k in self.results else self.errors[k]))
        return out

    @property
    def failed(self) -> bool:
        return bool(self.errors)

    @property
    def all_failed(self) -> bool:
        return bool(self.order) and not self.results


async def fan_out(
    keys: Iterable[K],
    call: Callable[[K], Awaitable[V]],
    *,
    deadline: float,
    limit: int = 32,
    code: int | None = None,
    addr_of: Callable[[K], str] | None = None,
) -> FanOutResult[K, V]:
    """Run ``call(key)`` for each distinct key, at most ``limit`` at a time, for ``deadline`` seconds.

    A call unfinished at the deadline is cancelled and recorded as :class:`DeadlineError`.
    """
    import asyncio  # the blocking client's commands fan out on threads and run no loop

    result = _ordered(keys)
    if not result.order:
        return result
    gate = asyncio.Semaphore(max(1, limit))

    async def one(key: K) -> None:
        async with gate:
            try:
                result.results[key] = await call(key)
            except asyncio.CancelledError:
                raise
            except Exception as e:
                result.errors[key] = e

    tasks = {k: asyncio.ensure_future(one(k)) for k in result.order}
    _, pending = await asyncio.wait(tasks.values(), timeout=deadline)
    if pending:
        for t in pending:
            t.cancel()
        await asyncio.gather(*pending, return_exceptions=True)
        for k, t in tasks.items():
            if t in pending and k not in result.results and k not in result.errors:
                addr = addr_of(k) if addr_of is not None else str(k)
                result.errors[k] = DeadlineError(addr, deadline, code)
    return result


def _ordered(keys: Iterable[K]) -> FanOutResult[K, Any]:
    result: FanOutResult[K, Any] = FanOutResult()
    for k in keys:
        if k not in result.order:
            result.order.append(k)
    return result


async def fan_out_threads(
    keys: Iterable[K],
    call: Callable[[K], Awaitable[V]],
    *,
    deadline: float,
    limit: int = 32,
    code: int | None = None,
    addr_of: Callable[[K], str] | None = None,
) -> FanOutResult[K, V]:
    """:func:`fan_out` for calls on the blocking client: each ``call(key)`` runs to its end on one of
    at most ``limit`` threads, all within ``deadline`` seconds. It never suspends.

    A call unfinished at the deadline is recorded as :class:`DeadlineError`; its thread (a daemon
    thread: not waited for at exit) is left to end on its own request timeout, and what it brings
    then is dropped.
    """
    result = _ordered(keys)
    todo = list(reversed(result.order))
    lock = threading.Lock()
    done = threading.Event()  # set when every key has an answer, or at the deadline

    def work() -> None:
        while True:
            with lock:
                if done.is_set() or not todo:
                    return
                key = todo.pop()
            try:
                value: Any = run_sync(call(key))
                failed = False
            except Exception as e:
                value, failed = e, True
            with lock:
                if done.is_set():
                    return
                (result.errors if failed else result.results)[key] = value
                if len(result.results) + len(result.errors) == len(result.order):
                    done.set()

    workers = min(max(1, limit), len(result.order))
    for _ in range(workers):
        threading.Thread(target=work, name="mqadmin-fan-out", daemon=True).start()
    if workers:
        done.wait(deadline)
    with lock:
        done.set()
        for k in result.order:
            if k not in result.results and k not in result.errors:
                result.errors[k] = DeadlineError(
                    addr_of(k) if addr_of is not None else str(k), deadline, code
                )
    return result


def first_error(result: FanOutResult[Any, Any]) -> BaseException | None:
    """The first failure in key order, if any."""
    for k in result.order:
        if k in result.errors:
            return result.errors[k]
    return None
