"""A secret key given as ``-``: read from a prompt or from standard input, never left in argv.

A key typed on the command line stays in the shell history and in ``ps`` output for as long as the
command runs. ``--secret-key -`` (and ``context add --secret-key -``) asks for it instead: with a
terminal on stdin, a prompt that does not echo (on the terminal, not on stdout); otherwise the
first line of standard input (``pass show rocketmq | mqadmin ... --secret-key -``).
"""

from __future__ import annotations

import sys

from mqadmin.cli.errors import SettingsError

__all__ = ["FROM_INPUT", "read_secret"]

FROM_INPUT = "-"


def read_secret(value: str | None, what: str = "secret key") -> str | None:
    """``value`` itself, or when it is ``-`` the key typed at a prompt or the first line of stdin."""
    if value is None or value.strip() != FROM_INPUT:
        return value
    stdin = sys.stdin
    if stdin is not None and stdin.isatty():
        import getpass  # with termios, only when a prompt is shown: every other run only reads argv

        try:
            text = getpass.getpass(f"{what}: ")
        except EOFError:
            text = ""
    else:
        line = stdin.readline() if stdin is not None else ""
        text = line.rstrip("\r\n")
    text = text.strip()
    if not text:
        raise SettingsError(f"no {what} was given on standard input (--secret-key -)")
    return text
