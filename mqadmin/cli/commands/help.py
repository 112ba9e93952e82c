"""``mqadmin help [CMD]``: the command list, or one command's options (as the Java tool's ``help``)."""

from __future__ import annotations

import click

from mqadmin.cli.registry import define


def _command_names(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[str]:
    from mqadmin.cli.registry import COMMANDS as ENTRIES

    return [c.name for c in ENTRIES if c.name.startswith(incomplete)]


@define
@click.command("help", context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("command", required=False, metavar="[COMMAND]", shell_complete=_command_names)
@click.pass_context
def help_command(ctx: click.Context, command: str | None) -> None:
    """Print the help of a command, as 'mqadmin CMD -h'; without one, list every command."""
    from mqadmin.cli.app import top_help

    if not command:
        click.echo(top_help(), nl=False)
        return
    parent = ctx.parent
    assert parent is not None and isinstance(parent.command, click.Group)
    cmd = parent.command.get_command(parent, command)
    if cmd is None:
        from mqadmin.cli.suggest import no_such_command

        raise click.UsageError(no_such_command(command), ctx)
    sub = cmd.make_context(cmd.name, [], parent=parent, resilient_parsing=True)
    click.echo(cmd.get_help(sub))
