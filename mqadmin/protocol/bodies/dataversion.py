"""``DataVersion``: the version of a config table (topics, groups, ACLs, a broker's config), a counter
stamped with the time of its last change. Every table that a peer compares by version carries one,
so it has a module of its own rather than riding with one of those tables' bodies.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from mqadmin.protocol.bodies import fieldcheck as j
from mqadmin.protocol.bodies.declared import DeclaredBody, wire

__all__ = ["DataVersion"]


def _now_ms() -> int:
    return int(time.time() * 1000)


def _stamp(v: Any, what: str) -> int:
    """A ``timestamp``; a body without one is stamped now, as Java's constructor does."""
    return _now_ms() if v is None else j.int64(v, what)


@dataclass(slots=True)
class DataVersion(DeclaredBody):
    """A config table's version: a counter bumped on change, stamped with the time of the change.

    ``timestamp``: milliseconds; Java stamps a new ``DataVersion`` with the current time, and so do
    we. ``state_version``: 5.x only (Java default 0); ``None`` for a 4.x peer's body.
    """

    timestamp: int = wire(factory=_now_ms, read=_stamp)
    counter: int = wire(default=0, read=j.int64)
    state_version: int | None = wire(read=j.opt_int64, view=lambda v: v or 0)  # the 5.3.3 bean: 0

    def next_version(self, state_version: int | None = None) -> None:
        """Bump the counter and re-stamp, as ``DataVersion.nextVersion`` does on every change."""
        self.timestamp = _now_ms()
        self.counter += 1
        if state_version is not None:
            self.state_version = state_version
