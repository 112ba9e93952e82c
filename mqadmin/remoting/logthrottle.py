"""Log lines that a remote peer can cause, kept to a few per interval.

A client that sends a flood of unknown codes, refused headers or malformed frames must not be able
to fill a disk or block a server on a full stderr pipe: each kind of line is written at most
``burst`` times per ``interval`` seconds; the lines held back are counted and reported once when
the next interval starts.
"""

from __future__ import annotations

import logging
import time

__all__ = ["ThrottledLog"]


class ThrottledLog:
    """A logger wrapper that lets at most ``burst`` lines of each kind through per ``interval``."""

    __slots__ = ("_burst", "_interval", "_log", "_state")

    def __init__(self, log: logging.Logger, *, burst: int = 20, interval: float = 10.0) -> None:
        self._log = log
        self._burst = burst
        self._interval = interval
        self._state: dict[str, list[float]] = {}  # kind -> [window start, lines written, lines held]

    def log(
        self, level: int, kind: str, msg: str, *args: object, exc_info: BaseException | None = None
    ) -> None:
        """Write ``msg % args`` unless ``kind`` has used up its lines in this interval."""
        now = time.monotonic()
        st = self._state.get(kind)
        if st is None or now - st[0] >= self._interval:
            if st is not None and st[2]:
                held, took = int(st[2]), now - st[0]
                self._log.log(level, "%d more lines like %r held back in %.0f s", held, kind, took)
            st = self._state[kind] = [now, 0, 0]
        if st[1] < self._burst:
            st[1] += 1
            self._log.log(level, msg, *args, exc_info=exc_info)
        else:
            st[2] += 1

    def warning(self, kind: str, msg: str, *args: object) -> None:
        self.log(logging.WARNING, kind, msg, *args)

    def error(self, kind: str, msg: str, *args: object, exc_info: BaseException | None = None) -> None:
        self.log(logging.ERROR, kind, msg, *args, exc_info=exc_info)
