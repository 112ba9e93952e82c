"""Test folders start our servers through ``tests/servers.py`` only: one wrapper per kind of server,
so a change to how a server is started (its config, its log, its stop) is made once."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
OWNER = TESTS / "servers.py"


def server_process_calls(source: str) -> list[int]:
    """Lines that construct a ``ServerProcess`` (by name or as ``localcluster.ServerProcess``)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call):
            f = node.func
            name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
            if name == "ServerProcess":
                found.append(node.lineno)
    return sorted(found)


def test_only_tests_servers_builds_server_processes() -> None:
    bad = [
        f"{path.relative_to(TESTS.parent)}:{line}"
        for path in sorted(TESTS.rglob("*.py"))
        if path != OWNER
        for line in server_process_calls(path.read_text(encoding="utf-8"))
    ]
    assert not bad, "start servers with tests/servers.py's wrappers:\n" + "\n".join(bad)


def test_the_owner_does_build_them() -> None:
    assert server_process_calls(OWNER.read_text(encoding="utf-8"))


def test_a_wrapper_elsewhere_is_seen() -> None:
    source = (
        "from mqadmin import localcluster\n"
        "from mqadmin.localcluster import ServerProcess\n"
        "def start(argv, work, boot):\n"
        "    return ServerProcess('x', argv, work, boot)\n"
        "server = localcluster.ServerProcess('y', [], None, None)\n"
    )
    assert server_process_calls(source) == [4, 5]


def test_a_mention_is_not_a_call() -> None:
    source = "from mqadmin.localcluster import ServerProcess\nx: ServerProcess | None = None\n"
    assert server_process_calls(source) == []
