"""The ``mqadmin`` entry point: the click group of :mod:`mqadmin.cli.app` parses every command line.

``mqadmin`` alone (or ``--help``) lists every command by family with its Java description;
``mqadmin help CMD`` and ``mqadmin CMD -h`` print a command's options. Usage errors exit 2 with the
usage line; everything else is the command's own exit code (see :mod:`mqadmin.cli.exitcodes`).
"""

from __future__ import annotations

import gc
import sys
from typing import NoReturn

__all__ = ["main"]


def main(argv: list[str] | None = None) -> NoReturn:
    """Console-script entry point.

    Start-up (the libraries, the command's modules, its classes) allocates objects that live until
    the process ends, so the cyclic collector is off until the command is loaded: its passes over
    them would find nothing to free. Then they are frozen (:func:`gc.freeze`) and the collector is
    on for the command's own work (:func:`mqadmin.cli.app.collect_from_here`).
    """
    gc.disable()
    try:
        from mqadmin.cli.app import run  # here, not above: loading it is most of start-up

        run(sys.argv[1:] if argv is None else list(argv))
    finally:
        gc.enable()  # a usage error or --help loads no command


if __name__ == "__main__":
    main()
