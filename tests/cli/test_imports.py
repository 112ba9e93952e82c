"""A command imports only what it needs: not rich, not pyspark, not the servers, not other commands.

Checked on the installed ``mqadmin`` with ``PYTHONPROFILEIMPORTTIME``, which lists every module the
process imported (the address refuses connections: the request path is still taken in full).
"""

from __future__ import annotations

import pytest

from mqadmin.cli.registry import COMMANDS
from tests.cli.peers import free_port

FORBIDDEN = ("rich", "pyspark", "tabulate", "mqadmin.broker", "mqadmin.namesrv", "mqadmin.pipeline")

ARGS = {
    "topicRoute": ["-t", "T"],
    "topicClusterList": ["-t", "T"],
    "topicList": [],
    "allocateMQ": ["-t", "T", "-i", "a,b"],
    "clusterList": [],
    "updateKvConfig": ["-s", "S", "-k", "K", "-v", "V"],
    "deleteKvConfig": ["-s", "S", "-k", "K"],
    "wipeWritePerm": ["-b", "b"],
    "addWritePerm": ["-b", "b"],
    "getNamesrvConfig": [],
    "updateNamesrvConfig": ["-k", "K", "-v", "V"],
}


def imported(mqadmin, args: list[str]) -> set[str]:  # type: ignore[no-untyped-def]
    r = mqadmin(*args, env={"PYTHONPROFILEIMPORTTIME": "1"})
    names = {
        ln.rsplit("|", 1)[1].strip()
        for ln in r.err.splitlines()
        if ln.startswith("import time:") and "|" in ln
    }
    assert names, r.err
    return names


def test_every_java_command_is_covered() -> None:
    assert sorted(ARGS) == sorted(c.name for c in COMMANDS if c.java)


@pytest.mark.parametrize("name", sorted(ARGS))
def test_command_imports_only_its_module(mqadmin, name: str) -> None:  # type: ignore[no-untyped-def]
    module = next(c.module for c in COMMANDS if c.name == name)
    names = imported(mqadmin, [name, "-n", f"127.0.0.1:{free_port()}", *ARGS[name]])
    bad = sorted(m for m in names if any(m == f or m.startswith(f + ".") for f in FORBIDDEN))
    assert bad == []
    commands = sorted(m for m in names if m.startswith("mqadmin.cli.commands."))
    assert commands == [f"mqadmin.cli.commands.{module}"]
    assert f"mqadmin.cli.commands.{module}" in names


def test_listing_commands_imports_no_command_module(mqadmin) -> None:  # type: ignore[no-untyped-def]
    names = imported(mqadmin, ["--help"])
    assert not [m for m in names if m.startswith("mqadmin.cli.commands.")]
    assert "asyncio" not in names
