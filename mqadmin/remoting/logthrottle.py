"""Log lines that a remote peer can cause, kept to a few per interval.

A client that sends a flood of unknown codes, refused headers or malformed frames, or a crowd that
exhausts file descriptors or partial-frame memory, must not be able to fill a disk or block a server
on a full stderr pipe: each kind of line is written at most ``burst`` times per ``interval``
seconds (200 per 10 s by default: every refusal of normal operation is logged, a flood is cut to
20 short lines a second); the lines held back are counted, and the count goes with the next line
of that kind, so the log says how often it happened without growing with it.
"""

from __future__ import annotations

import logging
import time

__all__ = ["ThrottledLog"]


class ThrottledLog:
    """A logger wrapper that lets at most ``burst`` lines of each kind through per ``interval``."""

    __slots__ = ("_burst", "_interval", "_log", "_state")

    def __init__(self, log: logging.Logger, *, burst: int = 200, interval: float = 10.0) -> None:
        self._log = log
        self._burst = burst
        self._interval = interval
        self._state: dict[str, list[float]] = {}  # kind -> [window start, lines written, lines held]

    def log(
        self, level: int, kind: str, msg: str, *args: object, exc_info: BaseException | None = None
    ) -> bool:
        """Write ``msg % args`` unless ``kind`` has used up its lines in this interval; True if written."""
        now = time.monotonic()
        st = self._state.get(kind)
        if st is None or now - st[0] >= self._interval:
            held = int(st[2]) if st is not None else 0
            st = self._state[kind] = [now, 0, held]
        if st[1] >= self._burst:
            st[2] += 1
            return False
        st[1] += 1
        if st[2]:
            msg += " (%d more since the last report)"
            args = (*args, int(st[2]))
            st[2] = 0
        self._log.log(level, msg, *args, exc_info=exc_info)
        return True

    def warning(self, kind: str, msg: str, *args: object) -> bool:
        return self.log(logging.WARNING, kind, msg, *args)

    def error(self, kind: str, msg: str, *args: object, exc_info: BaseException | None = None) -> bool:
        return self.log(logging.ERROR, kind, msg, *args, exc_info=exc_info)
