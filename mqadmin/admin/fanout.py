"""Many calls at once with one deadline: how commands that ask every broker stay fast and bounded.

Each call still has its own request timeout; the deadline caps the whole fan-out, so a command that
asks a hundred brokers through a limited number of concurrent calls ends on time. Failures are
collected, not raised: the caller prints what it got and reports what it missed.
"""

from __future__ import annotations

from mqadmin.admin.errors import DeadlineError
from mqadmin.record import Record

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable, Iterable
    from typing import Any, TypeVar
    from typing import Generic as _Generic

    K = TypeVar("K")
    V = TypeVar("V")
else:
    K = V = object

    class _Generic:
        """``typing.Generic`` for the type checker only: ``FanOutResult[str, int]`` is the class itself."""

        __slots__ = ()

        def __class_getitem__(cls, params: object) -> type:
            return cls


__all__ = ["FanOutResult", "fan_out", "fan_out_threads"]


class FanOutResult(Record, _Generic[K, V]):
    """Per key, the value or the exception, in the order the keys were given."""

    __slots__ = ("errors", "order", "results")

    results: dict[K, V]
    errors: dict[K, BaseException]
    order: list[K]

    def __init__(
        self,
        results: dict[K, V] | None = None,
        errors: dict[K, BaseException] | None = None,
        order: list[K] | None = None,
    ) -> None:
        self.results = {} if results is None else results
        self.errors = {} if errors is None else errors
        self.order = [] if order is None else order

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
    import asyncio  # here: a command on the blocking client fans out on threads, without a loop

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

    A call unfinished at the deadline is recorded as :class:`DeadlineError`; its thread is left to
    end on its own request timeout, and what it brings then is dropped. The threads are ``_thread``'s
    (as daemon threads: not waited for at exit): ``threading`` brings ``traceback``, ``tokenize`` and
    ``re`` to a command that asks a few brokers.
    """
    import _thread
    import time

    from mqadmin.remoting.blocking import run_sync

    result = _ordered(keys)
    todo = list(reversed(result.order))
    lock = _thread.allocate_lock()
    all_done = _thread.allocate_lock()  # held until the last worker ends
    all_done.acquire()
    running = [0]
    cut = [False]

    def work() -> None:
        while True:
            with lock:
                if cut[0] or not todo:
                    running[0] -= 1
                    if running[0] == 0:
                        all_done.release()
                    return
                key = todo.pop()
            try:
                value: Any = run_sync(call(key))
                failed = False
            except Exception as e:
                value, failed = e, True
            with lock:
                if not cut[0]:
                    (result.errors if failed else result.results)[key] = value

    workers = min(max(1, limit), len(result.order))
    running[0] = workers
    end = time.monotonic() + deadline
    for _ in range(workers):
        _thread.start_new_thread(work, ())
    if workers:
        all_done.acquire(timeout=max(0.0, end - time.monotonic()))
    with lock:
        cut[0] = True
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
