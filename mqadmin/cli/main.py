"""The ``mqadmin`` entry point: the click group of :mod:`mqadmin.cli.app` parses every command line.

``mqadmin`` alone (or ``--help``) lists every command by family with its Java description;
``mqadmin help CMD`` and ``mqadmin CMD -h`` print a command's options. Usage errors exit 2 with the
usage line; everything else is the command's own exit code (see :mod:`mqadmin.cli.exitcodes`).
"""

from __future__ import annotations

import sys
from typing import NoReturn

from mqadmin.cli.app import run

__all__ = ["main"]


def main(argv: list[str] | None = None) -> NoReturn:
    """Console-script entry point."""
    run(sys.argv[1:] if argv is None else list(argv))


if __name__ == "__main__":
    main()
