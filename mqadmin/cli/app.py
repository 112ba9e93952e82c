"""The ``mqadmin`` click group: it loads each command's module only when that command runs.

``mqadmin`` alone (or ``--help``) lists every command by family with its Java description;
``mqadmin help CMD`` and ``mqadmin CMD -h`` print a command's options. Usage errors exit 2 with the
usage line; everything else is the command's own exit code (see :mod:`mqadmin.cli.exitcodes`).
"""

from __future__ import annotations

import gc
import json
import os
import sys
from typing import Any, NoReturn

import click

from mqadmin import __version__
from mqadmin.cli.common import common_options, common_values
from mqadmin.cli.exitcodes import ExitCode
from mqadmin.cli.javahelp import render_extra_options
from mqadmin.cli.ownhelp import use_own_style
from mqadmin.cli.registry import COMMANDS, FAMILIES, FAMILY_TITLES, CommandEntry, defined, lookup

__all__ = ["cli", "load_command", "run", "top_help"]

_NAME_WIDTH = 35


def top_help() -> str:
    """The command list, grouped by family, in the Java tool's ``   %-35s %s`` layout."""
    lines = [
        "usage: mqadmin <command> [options]",
        "",
        "The Apache RocketMQ admin toolkit: commands, options and output as the Java mqadmin.",
    ]
    for family in FAMILIES:
        rows = [c for c in COMMANDS if c.family == family]
        if not rows:
            continue
        lines.append("")
        lines.append(f"{FAMILY_TITLES[family]}:")
        lines.extend(f"   {c.name:<{_NAME_WIDTH}} {c.summary}" for c in rows)
    lines.append("")
    lines.append("Options of mqadmin (before the command, or after it):")
    text = (
        "\n".join(lines)
        + "\n"
        + render_extra_options(common_options(), [("--version", "Print the version and exit.")])
    )
    text += "\nSee 'mqadmin help <command>' for more information on a specific command.\n"
    text += "Exit codes, environment, contexts and JSON shapes: man mqadmin.\n"
    return text


def load_command(entry: CommandEntry) -> click.Command:
    """The click command of a registry entry: its module imported, the command it defined under that
    name (made from its declaration, for a Java sub-command)."""

    cmd = defined(entry)
    from mqadmin.cli.clickcommand import click_command  # the command framework, once a command runs
    from mqadmin.cli.command import CommandSpec

    if isinstance(cmd, CommandSpec):
        return click_command(cmd)
    if not isinstance(cmd, click.Command):
        raise RuntimeError(f"command module {entry.module} does not define {entry.name}")
    return cmd


def collect_from_here() -> None:
    """What is alive once a command is loaded lives until exit: frozen, so the collector, on again
    from here (a server, a watch loop, a long fan-out), passes over what the command itself makes."""
    gc.freeze()
    gc.enable()


class LazyGroup(click.Group):
    """Commands are listed from the registry and imported on first use."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return [c.name for c in COMMANDS]

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        entry = lookup(cmd_name)
        if entry is None:
            return None
        cmd = load_command(entry)
        if not entry.java:
            use_own_style(cmd)
        collect_from_here()
        return cmd

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        name = args[0] if args else ""
        if name and not name.startswith("-") and lookup(name) is None and not ctx.resilient_parsing:
            from mqadmin.cli.suggest import no_such_command

            raise click.UsageError(no_such_command(name), ctx)
        _, cmd, rest = super().resolve_command(ctx, args)
        return (cmd.name if cmd is not None else None), cmd, rest

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if not args and not ctx.resilient_parsing:
            click.echo(top_help(), nl=False)
            ctx.exit(0)
        return super().parse_args(ctx, args)

    def shell_complete(self, ctx: click.Context, incomplete: str) -> list[Any]:
        """Command names with their summaries from the registry (importing no command), else options."""

        if incomplete.startswith("-"):
            return super().shell_complete(ctx, incomplete)
        from mqadmin.cli.completion import command_items

        return command_items(incomplete)

    def get_help(self, ctx: click.Context) -> str:
        return top_help().rstrip("\n")

    def get_usage(self, ctx: click.Context) -> str:
        return "usage: mqadmin <command> [options]"


def _store_common(ctx: click.Context, /, **params: Any) -> None:
    ctx.obj = common_values(dict(params))


cli = LazyGroup(
    "mqadmin",
    params=[*common_options()],
    callback=click.pass_context(_store_common),
    context_settings={"help_option_names": ["-h", "--help"]},
    help="The Apache RocketMQ admin toolkit.",
)
click.version_option(__version__, "--version", prog_name="mqadmin")(cli)


def _json_requested(args: list[str]) -> bool:
    for i, a in enumerate(args):
        if a == "--json" or a in ("--output=json", "--output=yaml"):
            return True
        if a == "--output" and i + 1 < len(args) and args[i + 1] in ("json", "yaml"):
            return True
    return False


def usage_error_line(e: click.UsageError, args: list[str]) -> str:
    """A usage error as one line: ``mqadmin CMD: what is wrong; see 'mqadmin CMD -h'``."""
    ctx = e.ctx
    if ctx is not None and ctx.command is not cli:
        path = ctx.command_path
    else:  # the option parser's errors come without the command's context
        entry = next((lookup(a) for a in args if not a.startswith("-") and lookup(a) is not None), None)
        path = f"mqadmin {entry.name}" if entry is not None else "mqadmin"
    message = " ".join(e.format_message().split())
    if path == "mqadmin" or message.endswith("?"):
        return f"{path}: {message}"
    return f"{path}: {message.rstrip('.')}; see '{path} -h'"


def run(args: list[str]) -> NoReturn:
    """``mqadmin ARGS``, parsed by click, run, and exited with its code."""
    if "_MQADMIN_COMPLETE" in os.environ:  # a TAB in a shell that loaded our completion script
        from mqadmin.cli.completion import register_shells

        register_shells()
    try:
        rv = cli.main(args, prog_name="mqadmin", standalone_mode=False)
    except click.UsageError as e:
        click.echo(usage_error_line(e, args), err=True)
        if _json_requested(args):
            doc = {"error": {"kind": "usage", "exitCode": int(ExitCode.USAGE), "message": e.format_message()}}
            sys.stdout.write(json.dumps(doc, indent=2) + "\n")
        sys.exit(ExitCode.USAGE)
    except click.ClickException as e:
        e.show()
        sys.exit(e.exit_code)
    except click.exceptions.Exit as e:
        sys.exit(e.exit_code)
    except click.Abort:
        sys.exit(ExitCode.INTERRUPTED)
    except KeyboardInterrupt:
        sys.exit(ExitCode.INTERRUPTED)
    except BrokenPipeError:  # ``mqadmin --help | head``
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(ExitCode.OK)
    sys.exit(rv if isinstance(rv, int) else 0)
