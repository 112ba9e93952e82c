"""A one-line progress display for runs that take a while: on a terminal only, and only after 2 s.

Short runs print nothing extra, and a pipe or a file never gets the line (stderr must be a TTY). The
line says what the run is doing (a phase the command sets), how long it has taken, and, once Spark
runs in this process, the tasks done of the stages running. It is drawn by rich and erased at the
end, so the command's own output is all that stays.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, TextIO

__all__ = ["DELAY", "Progress", "progress", "spark_tasks"]

DELAY = 2.0
"""Seconds a run goes before the line appears."""


@dataclass
class Progress:
    """What the line shows; the command updates ``phase`` and may set ``detail`` (a callable)."""

    label: str
    phase: str = "starting"
    detail: Callable[[], str] | None = None
    started: float = field(default_factory=time.monotonic)
    shown: bool = False

    def text(self) -> str:
        extra = ""
        if self.detail is not None:
            try:
                extra = self.detail()
            except Exception:  # the tracker may be gone while the session stops
                extra = ""
        elapsed = time.monotonic() - self.started
        return f"{self.label}: {self.phase} {elapsed:.0f} s" + (f"  {extra}" if extra else "")


def spark_tasks(spark: Any) -> Callable[[], str]:
    """Tasks done of the active stages, from a classic session's status tracker ('' under Connect)."""
    sc = getattr(spark, "_sc", None)
    if sc is None:
        return lambda: ""
    tracker = sc.statusTracker()

    def detail() -> str:
        done = total = 0
        for sid in tracker.getActiveStageIds():
            info = tracker.getStageInfo(sid)
            if info is not None:
                done += info.numCompletedTasks
                total += info.numTasks
        return f"tasks {done}/{total}" if total else ""

    return detail


@contextmanager
def progress(
    label: str, *, enabled: bool = True, stream: TextIO | None = None, delay: float = DELAY
) -> Iterator[Progress]:
    """Show :class:`Progress` on ``stream`` (stderr) after ``delay`` seconds, when it is a terminal."""
    state = Progress(label)
    out = stream if stream is not None else sys.stderr
    if not enabled or not out.isatty():
        yield state
        return
    from rich.console import Console
    from rich.live import Live
    from rich.text import Text

    done = threading.Event()

    def draw() -> None:
        if done.wait(delay):
            return
        console = Console(file=out, force_terminal=True)
        with Live(Text(state.text()), console=console, transient=True, refresh_per_second=4) as live:
            state.shown = True
            while not done.wait(0.25):
                live.update(Text(state.text()))

    thread = threading.Thread(target=draw, name="mqadmin-progress", daemon=True)
    thread.start()
    try:
        yield state
    finally:
        done.set()
        thread.join(timeout=2.0)
