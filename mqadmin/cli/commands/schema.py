"""``mqadmin schema [COMMAND]``: the JSON Schema of a command's ``--json`` document, or the list.

Without a command: the convention (``common``) and every command that has a schema, one a line.
``mqadmin schema common`` is the convention itself; a command's schema is printed self-contained
(the convention bundled in, the error document allowed); ``--all`` prints every schema so as one
JSON object keyed by name (a registry to save in one go).
"""

from __future__ import annotations

import json
import sys

import click

from mqadmin.cli import schemas
from mqadmin.cli.registry import define, lookup


def _schema_names(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[str]:
    return [n for n in schemas.names() if n.startswith(incomplete)]


@define
@click.command("schema", context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("command", required=False, metavar="[COMMAND]", shell_complete=_schema_names)
@click.option("--all", "all_schemas", is_flag=True, help="Every schema as one JSON object keyed by name.")
def schema_command(command: str | None, all_schemas: bool) -> None:
    """Print the JSON Schema (draft 2020-12) of a command's --json document; without one, list them."""

    if all_schemas:
        bundle = {n: schemas.published(n) for n in schemas.names()}
        _write(json.dumps(bundle, ensure_ascii=False, indent=2) + "\n")
        return
    if not command:
        _write("".join(f"{n}\n" for n in schemas.names()))
        return
    entry = lookup(command)
    name = entry.name if entry is not None else command
    try:
        _write(json.dumps(schemas.published(name), ensure_ascii=False, indent=2) + "\n")
    except KeyError:
        raise click.UsageError(
            f"no schema for {command!r}: 'mqadmin schema' lists the commands that have one"
        ) from None


def _write(s: str) -> None:
    sys.stdout.write(s)
    sys.stdout.flush()
