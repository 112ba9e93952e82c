"""Which event loop a server runs on (``--loop`` of ``namesrv start`` and ``broker start``):
``asyncio``'s own, or uvloop when it is installed.

``auto`` takes uvloop if it can be imported, else asyncio. The choice is made once per process
(a name server's primary passes its choice on to its workers).
"""

from __future__ import annotations

import asyncio
import importlib.util
from collections.abc import Callable

__all__ = ["LOOP_CHOICES", "loop_factory", "resolve_loop"]

LOOP_CHOICES = ("auto", "asyncio", "uvloop")


def resolve_loop(name: str) -> str:
    """``asyncio`` or ``uvloop``; ValueError for uvloop asked for but not installed."""
    if name not in LOOP_CHOICES:
        raise ValueError(f"unknown event loop {name!r} (choose from {', '.join(LOOP_CHOICES)})")
    have_uvloop = importlib.util.find_spec("uvloop") is not None
    if name == "auto":
        return "uvloop" if have_uvloop else "asyncio"
    if name == "uvloop" and not have_uvloop:
        raise ValueError("the uvloop event loop is not installed (pip install uvloop)")
    return name


def loop_factory(name: str) -> Callable[[], asyncio.AbstractEventLoop] | None:
    """For ``asyncio.Runner(loop_factory=...)``: None means asyncio's default loop."""
    if resolve_loop(name) == "uvloop":
        import uvloop

        return uvloop.new_event_loop  # type: ignore[no-any-return]
    return None
