"""Watch mode: a command run again every ``-i SECONDS`` (``--count N`` rounds, else until Ctrl-C).

Two ways to show the rounds, chosen by where stdout goes:

- on a terminal (text or table output), the screen is redrawn in place (rich ``Live``): a header
  line with the command, the round, its time and what changed since the round before (values,
  the lag's move, or lines), then the round's output, its changes marked (lag cells in tables
  coloured: red while the backlog grows, green as it shrinks), then the round's errors;
- anywhere else, rounds stream as before, so scripts and ``| head`` keep working: the Java text
  round after round, one compact JSON document a line (each with its ``timestamp``), or tables
  under a line giving the round's time.

A closed reader (``| head``) ends the watch at once, not at the next round.
"""

from __future__ import annotations

import contextlib
import io
import select
import shlex
import sys
import time
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from rich.live import Live
from rich.text import Text

from mqadmin.cli.common import COUNT_PARAM, WATCH_PARAM
from mqadmin.cli.errors import PartialFailure, describe
from mqadmin.cli.exitcodes import ExitCode
from mqadmin.cli.invocation import Invocation

__all__ = [
    "COUNT_PARAM",
    "WATCH_PARAM",
    "Watch",
    "pause",
]


Round = Callable[[], Awaitable[ExitCode | int | None]]


class Watch:
    """The rounds of one watch (see the module docstring)."""

    def __init__(self, inv: Invocation, interval: float, count: int | None = None) -> None:
        self.inv = inv
        self.interval = interval
        self.count = count
        out = inv.out
        self.redraw = out.format in ("text", "table") and _stdout_is_terminal()
        self._live: Live | None = None
        self._before_doc: Any = None
        self._before_lines: list[str] | None = None

    async def run(self, one_round: Round, *, survive: bool = True) -> ExitCode | int | None:
        """Run ``one_round`` every ``interval`` seconds (start to start); returns the last round's
        exit code when ``count`` rounds are done. With ``survive`` a failed round is reported and
        the next one runs; without (clusterList, as Java), the failure ends the watch."""
        import asyncio  # a watch runs on the event loop; a single round may run without one

        out = self.inv.out
        if not self.redraw:
            out.compact = True
            out.stream = True
        loop = asyncio.get_running_loop()
        n = 0
        try:
            while True:
                started = loop.time()
                n += 1
                rc = await self._round(n, one_round, survive)
                if self.count is not None and n >= self.count:
                    return rc
                await pause(max(0.0, self.interval - (loop.time() - started)))
        finally:
            if self._live is not None:
                self._live.stop()

    async def _round(self, n: int, one_round: Round, survive: bool) -> ExitCode | int | None:
        inv, out = self.inv, self.inv.out
        inv.failures.clear()
        inv.any_success = False
        out.seen = []
        wall = time.time()
        errors = io.StringIO()
        if self.redraw:
            out.frame = io.BytesIO()
            out.frame_width = self._console().width
        elif out.format == "table":
            out.raw(("  ".join(self._header(n, wall)) + "\n").encode("utf-8", "surrogateescape"))
        rc: ExitCode | int | None = None
        failed: BaseException | None = None
        try:
            with contextlib.redirect_stderr(errors) if self.redraw else contextlib.nullcontext():
                try:
                    try:
                        rc = await one_round()
                    finally:
                        await inv.release_output()
                except PartialFailure as e:
                    for exc in e.failures:
                        inv.report(exc)
                except BrokenPipeError:
                    raise
                except Exception as exc:
                    if not survive:
                        raise
                    failed = exc
                    inv.print_error(exc, describe(exc, inv.settings_if_resolved))
        finally:
            if self.redraw:
                frame = out.frame.getvalue() if out.frame is not None else b""
                out.frame = None
                self._draw(n, wall, frame.decode("utf-8", "replace"), errors.getvalue())
        if out.format == "table" and not self.redraw:
            out.raw(b"\n")
        out.previous = out.seen[-1] if out.seen else None
        if failed is not None:
            return describe(failed, inv.settings_if_resolved).exit_code
        return rc

    # ------------------------------------------------------------------------------ the redraw

    def _console(self) -> Any:
        if self._live is None:
            from rich.console import Console
            from rich.live import Live

            console = Console(file=sys.stdout, highlight=False, markup=False, emoji=False)
            self._live = Live(
                console=console,
                auto_refresh=False,
                redirect_stdout=False,
                redirect_stderr=False,
                vertical_overflow="ellipsis",
            )
            self._live.start()
        return self._live.console

    def _header(self, n: int, wall: float) -> tuple[str, str]:
        """When and which round (``14:42:43  round 2/5``), and what runs (``every 1s  mqadmin ...``)."""
        at = time.strftime("%H:%M:%S", time.localtime(wall))
        rounds = f"round {n}" + (f"/{self.count}" if self.count else "")
        command = shlex.join(["mqadmin", *sys.argv[1:]])
        return f"{at}  {rounds}", f"every {self.interval:g}s  {command}"

    def _draw(self, n: int, wall: float, frame: str, errors: str) -> None:
        from rich.console import Group
        from rich.text import Text

        out = self.inv.out
        doc = out.seen[-1] if out.seen else None
        lines = frame.splitlines()
        when, what = self._header(n, wall)
        header = Text(when, style="bold", no_wrap=True, overflow="ellipsis")
        header.append_text(self._changes(doc, lines))
        header.append(f"  {what}", style="dim")
        if out.format == "table":
            body = Text.from_ansi(frame.rstrip("\n"))
        else:
            body = _marked(lines, self._before_lines)
        parts: list[Any] = [header, Text(""), body]
        if errors.strip():
            parts.append(Text(errors.rstrip("\n"), style="red"))
        assert self._live is not None
        self._live.update(Group(*parts), refresh=True)
        self._before_doc = doc
        self._before_lines = lines

    def _changes(self, doc: Any, lines: list[str]) -> Text:
        """What moved since the round before: the lag (coloured), how many values, else lines."""
        from rich.text import Text

        out = Text()
        if self._before_lines is None:
            return out
        if doc is not None and self._before_doc is not None:
            now, then = flatten(doc), flatten(self._before_doc)
            changed = sum(1 for k in now.keys() | then.keys() if now.get(k) != then.get(k))
            lag_now, lag_then = lag_total(now), lag_total(then)
            if lag_now is not None and lag_then is not None:
                d = lag_now - lag_then
                style = "bold red" if d > 0 else "bold green" if d < 0 else ""
                out.append("  lag ")
                out.append(f"{lag_now:,}" + (f" ({'+' if d > 0 else ''}{d:,})" if d else ""), style=style)
            out.append(f"  {changed} value{'' if changed == 1 else 's'} changed")
            return out
        before = self._before_lines
        changed = sum(1 for i in range(max(len(lines), len(before))) if _at(lines, i) != _at(before, i))
        out.append(f"  {changed} line{'' if changed == 1 else 's'} changed")
        return out


def _at(lines: list[str], i: int) -> str | None:
    return lines[i] if i < len(lines) else None


def _marked(lines: list[str], before: list[str] | None) -> Text:
    """The round's text, each word that differs from the round before's at its place in reverse
    video (as ``watch -d`` marks them)."""
    from rich.text import Text

    out = Text()
    for i, line in enumerate(lines):
        if i:
            out.append("\n")
        old = _at(before, i) if before is not None else line
        if old == line:
            out.append(line)
            continue
        pos = 0
        old_words = (old or "").split()
        for j, word in enumerate(line.split()):
            start = line.index(word, pos)
            out.append(line[pos:start])
            changed = j >= len(old_words) or old_words[j] != word
            out.append(word, style="reverse" if changed else "")
            pos = start + len(word)
        out.append(line[pos:])
    return out


def flatten(value: Any, path: str = "") -> dict[str, Any]:
    """A document's scalars by path; a list's records are named by their identity, not their place
    (a queue moved up the list is the same queue)."""
    from mqadmin.cli.tables import NATURAL_KEYS

    out: dict[str, Any] = {}
    if isinstance(value, Mapping):
        for k, v in value.items():
            if k == "timestamp":
                continue
            out.update(flatten(v, f"{path}.{k}" if path else str(k)))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            ident = (
                "/".join(str(v[k]) for k in NATURAL_KEYS if k in v) if isinstance(v, Mapping) else ""
            ) or str(i)
            out.update(flatten(v, f"{path}[{ident}]"))
    else:
        out[path] = value
    return out


def lag_total(leaves: Mapping[str, Any]) -> int | None:
    """The backlog a document shows: its ``diffTotal`` figures if it has them (one per group), else
    the sum of its per-queue or per-topic lags; None when it shows none."""
    from mqadmin.cli.richout import LAG_KEYS

    def values(names: tuple[str, ...]) -> list[int]:
        return [
            v
            for k, v in leaves.items()
            if k.rsplit(".", 1)[-1] in names and isinstance(v, int) and not isinstance(v, bool)
        ]

    totals = values(("diffTotal",))
    if totals:
        return sum(totals)
    rest = values(tuple(k for k in LAG_KEYS if k != "diffTotal"))
    return sum(rest) if rest else None


def _stdout_is_terminal() -> bool:
    try:
        return sys.stdout.isatty()
    except (AttributeError, ValueError):
        return False


async def pause(seconds: float) -> None:
    """Sleep between the rounds of a watch, or end it as soon as the reader of stdout is gone
    (``| head`` has what it wanted): a closed pipe raises BrokenPipeError now, not at the next round."""
    import asyncio

    loop = asyncio.get_running_loop()
    until = loop.time() + seconds
    while True:
        if _reader_gone():
            raise BrokenPipeError("stdout reader closed")
        left = until - loop.time()
        if left <= 0:
            return
        await asyncio.sleep(min(left, 0.05))


def _reader_gone() -> bool:
    """True when stdout is a pipe or socket whose reading end was closed (POLLERR/POLLHUP)."""

    try:
        poller = select.poll()
        poller.register(sys.stdout.fileno(), 0)  # errors and hang-ups are always reported
        events = poller.poll(0)
    except (OSError, ValueError, AttributeError):
        return False
    return any(ev & (select.POLLERR | select.POLLHUP | select.POLLNVAL) for _, ev in events)
