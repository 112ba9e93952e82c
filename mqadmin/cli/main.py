"""The ``mqadmin`` entry point: a click group that loads each command's module only when it runs."""

from __future__ import annotations

import importlib
import sys

import click

from mqadmin import __version__
from mqadmin.cli.registry import BY_NAME, COMMANDS, FAMILIES


class LazyGroup(click.Group):
    """Commands are listed from the registry and imported on first use."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return [c.name for c in COMMANDS]

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        entry = BY_NAME.get(cmd_name)
        if entry is None:
            return None
        module = importlib.import_module(f"mqadmin.cli.commands.{entry.module}")
        cmd = getattr(module, "COMMANDS", {}).get(cmd_name)
        if not isinstance(cmd, click.Command):
            raise RuntimeError(f"command module {entry.module} does not define {cmd_name}")
        return cmd

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        for family in FAMILIES:
            rows = [(c.name, c.summary) for c in COMMANDS if c.family == family]
            if rows:
                with formatter.section(f"{family.capitalize()} commands"):
                    formatter.write_dl(rows)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "--version", prog_name="mqadmin")
def cli() -> None:
    """mqadmin: the Apache RocketMQ admin toolkit."""


def main() -> None:
    """Console-script entry point."""
    sys.exit(cli.main(prog_name="mqadmin", standalone_mode=True))
