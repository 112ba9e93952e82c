"""One help layout for mqadmin's own commands (context, namesrv, broker, snapshot, analyze...).

The Java commands print commons-cli's help: ``usage: mqadmin CMD ...``, 110 columns, options
indented four spaces with three spaces before their text. mqadmin's own commands are plain click
commands; they get the same layout here (the lowercase ``usage:`` line, the width, the option
columns), so ``-h`` reads the same whichever command it is asked of.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import click

from mqadmin.cli.javahelp import WIDTH

__all__ = ["OwnContext", "OwnHelpFormatter", "use_own_style"]


class OwnHelpFormatter(click.HelpFormatter):
    def __init__(
        self, indent_increment: int = 4, width: int | None = None, max_width: int | None = None
    ) -> None:
        super().__init__(indent_increment=indent_increment, width=WIDTH - 2, max_width=WIDTH - 2)

    def write_usage(self, prog: str, args: str = "", prefix: str | None = None) -> None:
        super().write_usage(prog, args.replace("[OPTIONS]", "[options]"), prefix="usage: ")

    def write_dl(self, rows: Iterable[tuple[str, str]], col_max: int = 30, col_spacing: int = 3) -> None:
        super().write_dl(rows, col_max=col_max, col_spacing=col_spacing)


class OwnContext(click.Context):
    formatter_class = OwnHelpFormatter


def use_own_style(cmd: click.Command) -> click.Command:
    """``cmd`` (and its sub-commands) printing help in the shared layout."""
    cmd.context_class = OwnContext
    if isinstance(cmd, click.Group):
        subs: Iterable[Any] = cmd.commands.values()
        for sub in subs:
            use_own_style(sub)
    return cmd
