"""A command imports only what it needs: not rich, not pyspark, not the servers, not other commands.

Checked on the installed ``mqadmin`` with ``PYTHONPROFILEIMPORTTIME``, which lists every module the
process imported (the address refuses connections: the request path is still taken in full).
"""

from __future__ import annotations

import pytest

from mqadmin.cli.registry import COMMANDS
from mqadmin.localcluster import free_port

FORBIDDEN = ("rich", "pyspark", "mqadmin.broker", "mqadmin.namesrv", "mqadmin.pipeline")

ARGS = {  # values that reach the request path; other commands get their required options filled in
    "allocateMQ": ["-t", "T", "-i", "a,b"],
    "startMonitoring": ["--first-delay", "0", "--rounds", "1"],  # it runs until stopped otherwise
}


def sample_args(name: str) -> list[str]:
    """Every required option (and one of each required group) with a placeholder value."""
    import click

    from mqadmin.cli.app import cli
    from mqadmin.cli.clickcommand import JavaCommand

    if name in ARGS:
        return ARGS[name]
    cmd = cli.get_command(click.Context(cli), name)
    assert isinstance(cmd, JavaCommand), name
    args: list[str] = []
    groups_done: set[str] = set()
    for opt in cmd.java_opts:
        wanted = opt.required or (opt.group_required and opt.group not in groups_done)
        if not wanted:
            continue
        if opt.group:
            groups_done.add(opt.group)
        args.append(f"-{opt.short}" if opt.short else f"--{opt.long.strip()}")
        if opt.has_arg:
            args.append("X")
    return args


JAVA_COMMANDS = sorted(c.name for c in COMMANDS if c.java)


def imported(mqadmin, args: list[str]) -> set[str]:  # type: ignore[no-untyped-def]
    r = mqadmin(*args, env={"PYTHONPROFILEIMPORTTIME": "1"})
    names = {
        ln.rsplit("|", 1)[1].strip()
        for ln in r.err.splitlines()
        if ln.startswith("import time:") and "|" in ln
    }
    assert names, r.err
    return names


@pytest.mark.parametrize("name", JAVA_COMMANDS)
def test_command_imports_only_its_module(mqadmin, name: str) -> None:  # type: ignore[no-untyped-def]
    module = next(c.module for c in COMMANDS if c.name == name)
    names = imported(mqadmin, [name, "-n", f"127.0.0.1:{free_port()}", *sample_args(name)])
    bad = sorted(m for m in names if any(m == f or m.startswith(f + ".") for f in FORBIDDEN))
    assert bad == []
    command_modules = {f"mqadmin.cli.commands.{c.module}" for c in COMMANDS}
    commands = sorted(m for m in names if m in command_modules)
    assert commands == [f"mqadmin.cli.commands.{module}"]
    assert f"mqadmin.cli.commands.{module}" in names


def test_listing_commands_imports_no_command_module(mqadmin) -> None:  # type: ignore[no-untyped-def]
    names = imported(mqadmin, ["--help"])
    assert not [m for m in names if m.startswith("mqadmin.cli.commands.")]
    assert "asyncio" not in names
