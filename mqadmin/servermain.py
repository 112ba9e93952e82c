"""What the server processes share (``mqadmin namesrv start``, ``mqadmin broker start``).

The ``-c`` properties file, logs to a file and to stderr in the Java console layout, and a run that
lasts until SIGTERM or SIGINT: a failure to start is logged and gives exit code 1, a signal a clean
stop and 0.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import sys
from collections.abc import Callable, Coroutine, Iterable, Iterator
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any, TextIO

from mqadmin.protocol.bodies.properties import string_to_properties
from mqadmin.protocol.errors import ProtocolError

__all__ = [
    "StartupError",
    "announce",
    "console_lines",
    "read_config_file",
    "run_until_stopped",
    "setup_logging",
    "stop_signals",
    "wait_for_stop",
]

LOG_FORMAT = "%(asctime)s %(levelname)-5s %(threadName)s - %(message)s"
_GMT8 = timezone(timedelta(hours=8))


class StartupError(Exception):
    """The server cannot start (bad config file, port taken, broken state on disk)."""


def read_config_file(path: str) -> dict[str, str]:
    """The ``-c`` file: Java properties, read as ``Properties.load(InputStream)`` reads (ISO-8859-1)."""
    try:
        raw = Path(path).read_bytes()
    except OSError as e:
        raise StartupError(f"cannot read config file {path}: {e.strerror or e}") from None
    try:
        return string_to_properties(raw.decode("latin-1"), java_charset=False)
    except ProtocolError as e:
        raise StartupError(f"config file {path}: {e}") from None


def setup_logging(log_file: str | None, stderr_level: int = logging.WARNING) -> logging.Handler | None:
    """INFO and up to the log file, ``stderr_level`` and up to stderr; returns the file handler."""
    root = logging.getLogger("mqadmin")
    root.setLevel(logging.INFO)
    formatter = logging.Formatter(LOG_FORMAT)
    err = logging.StreamHandler(sys.stderr)
    err.setLevel(stderr_level)
    err.setFormatter(formatter)
    root.addHandler(err)
    if not log_file:
        return None
    path = Path(os.path.expanduser(log_file))
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handler = logging.FileHandler(path, encoding="utf-8")
    except OSError as e:
        root.warning("cannot open log file %s (%s): logging to stderr only", path, e.strerror or e)
        return None
    handler.setLevel(logging.INFO)
    handler.setFormatter(formatter)
    root.addHandler(handler)
    return handler


def console_lines(lines: Iterable[str]) -> list[str]:
    """``lines`` as the Java console log prints them: ``<time> INFO main - <line>`` (GMT+8, no millis)."""
    stamp = datetime.now(UTC).astimezone(_GMT8).strftime("%Y-%m-%d %H:%M:%S")
    return [f"{stamp} INFO main - {line}" for line in lines]


def announce(tip: str, log: logging.Logger, out: TextIO | None = None) -> None:
    """The line a server prints once it serves: logged, and on stdout (the only thing it writes there)."""
    log.info(tip)
    out = out or sys.stdout
    out.write(tip + "\n")
    out.flush()


@contextlib.contextmanager
def stop_signals() -> Iterator[asyncio.Event]:
    """SIGTERM and SIGINT set the event while the block runs (then they act as before again).

    Enter it before announcing the server: whoever read the announcement may signal at once.
    """
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    try:
        yield stop
    finally:
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.remove_signal_handler(sig)


async def wait_for_stop() -> None:
    """Until SIGTERM or SIGINT arrives (the handlers are removed again however this ends)."""
    with stop_signals() as stop:
        await stop.wait()


def run_until_stopped(
    serve: Callable[[], Coroutine[Any, Any, None]],
    log_file: str | None,
    log: logging.Logger,
    stderr_level: int = logging.WARNING,
    loop_factory: Callable[[], asyncio.AbstractEventLoop] | None = None,
) -> int:
    """Logging set up, then ``serve()`` on an event loop (``loop_factory``'s, else asyncio's);
    the process's exit code."""
    handler = setup_logging(log_file, stderr_level)
    try:
        with asyncio.Runner(loop_factory=loop_factory) as runner:
            runner.run(serve())
    except StartupError as e:
        log.error("%s", e)
        return 1
    except KeyboardInterrupt:
        return 0
    finally:
        if handler is not None:
            handler.close()
    return 0
