"""The ``mqadmin`` entry point.

``mqadmin`` alone (or ``--help``) lists every command by family with its Java description;
``mqadmin help CMD`` and ``mqadmin CMD -h`` print a command's options. Usage errors exit 2 with the
usage line; everything else is the command's own exit code (see :mod:`mqadmin.cli.exitcodes`).

A Java sub-command given plain arguments (``mqadmin topicRoute -n ADDR -t T``) is parsed from its
declaration without importing click (:mod:`mqadmin.cli.leanargs`); anything else (help, a usage
error, options before the command, a command with options of its own) goes to the click group
(:mod:`mqadmin.cli.app`), which parses it the same way and says what is wrong.
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import NoReturn

__all__ = ["HEAVY_MODULES", "main"]

HEAVY_MODULES = frozenset(
    {
        "typing", "dataclasses", "inspect", "re", "enum", "json", "collections", "functools",
        "contextlib", "socket", "selectors", "ssl", "asyncio", "threading", "logging", "weakref", "copy",
        "ast", "tokenize", "importlib", "warnings", "pathlib", "datetime", "decimal", "tempfile",
        "orjson", "click", "rich",
    }
)  # fmt: skip
"""Packages a command that sends a handful of requests (``topicRoute``) must not import: each costs
from one to several milliseconds, and the interpreter itself starts in about ten. The modules on
that path import annotations' types under ``TYPE_CHECKING``, build records without dataclasses
(:mod:`mqadmin.record`) and compile regular expressions when first used (:mod:`mqadmin.lazyre`).
Checked by the test suite and ``bench/bench_cli.py``."""


def main(argv: list[str] | None = None) -> NoReturn:
    """Console-script entry point."""
    args = sys.argv[1:] if argv is None else list(argv)
    if args and not args[0].startswith("-") and "_MQADMIN_COMPLETE" not in os.environ:
        from mqadmin.cli.leanargs import lean_run

        code = lean_run(args)
        if code is not None:
            sys.exit(code)
    from mqadmin.cli.app import run

    run(args)


if __name__ == "__main__":
    main()
