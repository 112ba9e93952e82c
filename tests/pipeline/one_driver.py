"""Run several ``mqadmin`` command lines in one process, so they share one Spark driver.

``python -m tests.pipeline.one_driver '[["analyze", "lag", ...], [...]]'`` prints one JSON line per
command on stdout (``{"argv": [...], "code": N, "stdout": "..."}``, the command's own stdout inside);
stderr is left as the commands write it, for the caller to check. The first command starts the
session (``--master`` or ``--remote``); the next ones find it.
"""

from __future__ import annotations

import contextlib
import io
import json
import sys

from mqadmin.cli.app import cli


def main() -> None:
    commands = json.loads(sys.argv[1])
    for argv in commands:
        buf = io.StringIO()
        code = 0
        with contextlib.redirect_stdout(buf):
            try:
                rv = cli.main(argv, prog_name="mqadmin", standalone_mode=False)
                code = rv if isinstance(rv, int) else 0
            except SystemExit as e:
                code = int(e.code or 0)
        out = sys.__stdout__
        assert out is not None  # the driver runs with a stdout: its parent reads it
        out.write(json.dumps({"argv": argv, "code": code, "stdout": buf.getvalue()}) + "\n")
        out.flush()


if __name__ == "__main__":
    main()
