"""Which commands run on the event loop is declared, and the declarations hold.

A Java command runs without an event loop unless it says ``blocking=False`` (or a test of its
parameters): its awaits must then be admin calls, which never suspend on the blocking client. Were a
command left blocking while it awaited the loop itself, it would fail at run time with "a command run
without an event loop awaited one". So, read statically:

- a command function that uses ``asyncio`` in its module, directly or through the module's own
  functions it calls, is not declared blocking outright;
- in the admin layer, only :mod:`mqadmin.admin.core` and :mod:`mqadmin.admin.fanout` use asyncio:
  they choose between the loop and threads by the client in use, so every other admin method runs on
  either client.
"""

from __future__ import annotations

import ast
import inspect
import sys
from pathlib import Path

import pytest

import mqadmin.admin
from mqadmin.cli.command import CommandSpec
from mqadmin.cli.registry import COMMANDS, defined

ADMIN = Path(mqadmin.admin.__file__).parent


def _specs() -> list[CommandSpec]:
    return [s for s in (defined(e) for e in COMMANDS) if isinstance(s, CommandSpec)]


def _loop_users(tree: ast.Module) -> set[str]:
    """The module's functions that use asyncio, directly or by calling one that does."""
    funcs = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)}
    calls = {
        name: {c.func.id for c in ast.walk(f) if isinstance(c, ast.Call) and isinstance(c.func, ast.Name)}
        for name, f in funcs.items()
    }
    users = {
        name
        for name, f in funcs.items()
        if any(isinstance(n, ast.Name) and n.id == "asyncio" for n in ast.walk(f))
    }
    while True:
        more = {name for name, called in calls.items() if called & users} - users
        if not more:
            return users
        users |= more


def _tree_of(spec: CommandSpec) -> ast.Module:
    module = sys.modules[spec.func.__module__]
    return ast.parse(inspect.getsource(module))


SPECS = _specs()


def test_every_java_command_is_declared() -> None:
    assert len(SPECS) >= 90  # the Java tool's commands, all made by java_command


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: s.name)
def test_a_command_awaiting_the_loop_is_not_blocking(spec: CommandSpec) -> None:
    if spec.blocking is not True:
        return  # on the loop always, or as its parameters say
    users = _loop_users(_tree_of(spec))
    assert spec.func.__name__ not in users, (
        f"{spec.name} uses asyncio (in {spec.func.__module__}) but is declared to run without a loop"
    )


def test_the_checker_sees_a_loop_user() -> None:
    tree = ast.parse(
        "import asyncio\n"
        "async def pause():\n    await asyncio.sleep(1)\n"
        "async def cmd(inv):\n    await pause()\n"
        "async def plain(inv):\n    await inv.admin.x()\n"
    )
    assert _loop_users(tree) == {"pause", "cmd"}


def test_the_loop_declarations_are_few_and_named() -> None:
    on_loop = sorted(s.name for s in SPECS if s.blocking is False)
    assert on_loop == [
        "clusterRT",
        "consume",
        "doctor",
        "exportMetadata",
        "exportMetrics",
        "printMsg",
        "startMonitoring",
    ]


def _imports_asyncio(path: Path) -> bool:
    for n in ast.walk(ast.parse(path.read_text())):
        if isinstance(n, ast.Import) and any(a.name == "asyncio" for a in n.names):
            return True
        if isinstance(n, ast.ImportFrom) and n.module == "asyncio":
            return True
    return False


def test_only_the_dispatchers_of_the_admin_layer_use_asyncio() -> None:
    users = sorted(p.name for p in ADMIN.glob("*.py") if _imports_asyncio(p))
    assert users == ["core.py", "fanout.py"]
