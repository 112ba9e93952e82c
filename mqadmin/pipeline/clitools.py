"""What the pipeline's commands share: exit codes, one-line failures, install hints, settings.

Exit codes follow mqadmin's: 0 done, 1 failure (including "nothing to analyze"), 2 usage (also a
wrong ``--input``, an existing ``--out`` without ``--force``), 4 name
servers unreachable, 5 timed out, 6 a snapshot run missed some brokers or calls, 130 interrupted.
"""

from __future__ import annotations

import os
import re
import sys
import traceback
from collections.abc import Callable
from typing import NoReturn

import click

from mqadmin.admin.settings import DEFAULT_NAMESRV, DEFAULT_TIMEOUT, AdminSettings, parse_namesrv_list

__all__ = [
    "EXIT_ERROR",
    "EXIT_INTERRUPTED",
    "EXIT_PARTIAL",
    "EXIT_TIMEOUT",
    "EXIT_UNREACHABLE",
    "EXIT_USAGE",
    "INSTALL_HINT",
    "SettingsResolver",
    "debug",
    "default_settings",
    "fail",
    "first_line",
    "require_spark",
    "spark_error",
]

INSTALL_HINT = "pip install 'mqadmin[spark]'"

EXIT_ERROR = 1
EXIT_USAGE = 2
EXIT_UNREACHABLE = 4
EXIT_TIMEOUT = 5
EXIT_PARTIAL = 6
EXIT_INTERRUPTED = 130

SettingsResolver = Callable[[str | None, float | None], AdminSettings]
"""``(-n value, --timeout value) -> settings``; the CLI layer passes one that knows contexts."""


def debug() -> bool:
    """``--debug`` given to the top-level ``mqadmin`` (its context object carries it)."""
    ctx = click.get_current_context(silent=True)
    return bool(ctx is not None and getattr(ctx.find_root().obj, "debug", False))


def fail(prefix: str, message: str, code: int = EXIT_ERROR, exc: BaseException | None = None) -> NoReturn:
    """One line on stderr (the traceback too with ``--debug``), then exit with ``code``."""
    if exc is not None and debug():
        traceback.print_exception(exc, file=sys.stderr)
    click.echo(f"{prefix}: {message}", err=True)
    sys.exit(code)


def first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return (text.splitlines()[0] if text else type(exc).__name__).strip()


def require_spark(what: str) -> None:
    """Exit with the install command when PySpark is missing."""
    try:
        import pyspark  # noqa: F401
    except ImportError:
        fail(f"mqadmin {what}", f"PySpark is not installed. Install it with: {INSTALL_HINT}")


def spark_error(exc: Exception) -> str:
    """A Spark failure in one line, with the usual cause of a JVM that did not start."""
    text = str(exc)
    if "JAVA_GATEWAY_EXITED" in text or "Java gateway process exited" in text:
        return "Spark could not start: Java 17 or later must be installed (JAVA_HOME or java on PATH)"
    if "StatusCode.UNAVAILABLE" in text or "failed to connect to all addresses" in text:
        return f"the Spark Connect server did not answer: {first_line(exc)}"
    if text.startswith("An exception was thrown from the Python worker"):  # the task's own error says why
        raised = re.findall(r"^(?:\w+\.)*(\w+(?:Error|Exception): .*)$", text, re.MULTILINE)
        if raised:
            return raised[-1].strip()
    return first_line(exc)


def default_settings(namesrv: str | None, timeout: float | None) -> AdminSettings:
    """``-n``, else ``NAMESRV_ADDR``, else 127.0.0.1:9876; ``--timeout`` else 5 s."""
    addrs = parse_namesrv_list(namesrv) or parse_namesrv_list(os.environ.get("NAMESRV_ADDR"))
    return AdminSettings(
        namesrv_addrs=tuple(addrs or [DEFAULT_NAMESRV]),
        timeout=timeout if timeout is not None else DEFAULT_TIMEOUT,
        namesrv_is_default=not addrs,
    )
