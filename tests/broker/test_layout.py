"""The broker's three layers (see :mod:`mqadmin.broker`): state modules never import a processor or
the server, and processors never import the server. Read with ``ast``; nothing is imported."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import mqadmin.broker

ROOT = Path(mqadmin.broker.__file__).parent
PROCESSORS = "mqadmin.broker.processors"
SERVER = "mqadmin.broker.server"
COMPOSITION = {"server.py", "startup.py"}


def imported(source: str, module: str) -> set[str]:
    """Every module ``source`` imports (TYPE_CHECKING and function-level imports included)."""
    package = module.rsplit(".", 1)[0]
    out: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1] + ([base] if base else []))
            out.add(base)
            out.update(f"{base}.{a.name}" for a in node.names)
    return out


def forbidden(source: str, module: str) -> set[str]:
    """The imports of ``module`` that point up a layer."""
    names = imported(source, module)
    up = {n for n in names if n == SERVER or n.startswith(SERVER + ".")}
    if not module.startswith(PROCESSORS):
        up |= {n for n in names if n == PROCESSORS or n.startswith(PROCESSORS + ".")}
    return up


def modules() -> list[tuple[str, Path]]:
    found = []
    for path in sorted(ROOT.rglob("*.py")):
        rel = path.relative_to(ROOT)
        if str(rel) in COMPOSITION:
            continue
        parts = ("mqadmin", "broker", *rel.with_suffix("").parts)
        found.append((".".join(parts[:-1] if parts[-1] == "__init__" else parts), path))
    return found


@pytest.mark.parametrize(("module", "path"), modules(), ids=[m for m, _ in modules()])
def test_no_import_points_up(module: str, path: Path) -> None:
    assert forbidden(path.read_text(), module) == set()


@pytest.mark.parametrize(
    ("source", "module"),
    [
        ("from mqadmin.broker.processors.wire import answer", "mqadmin.broker.static_topics"),
        ("from .processors import send", "mqadmin.broker.transactions"),
        ("if TYPE_CHECKING:\n    from mqadmin.broker.server import BrokerController", "mqadmin.broker.ha"),
        ("def f():\n    import mqadmin.broker.server", "mqadmin.broker.processors.send"),
        ("from ..server import BrokerController", "mqadmin.broker.processors.pull"),
    ],
)
def test_an_import_pointing_up_is_found(source: str, module: str) -> None:
    """The check itself: each of these is what the broker was before its services."""
    assert forbidden(source, module)


def test_a_processor_may_import_another_processor_and_the_state() -> None:
    source = "from mqadmin.broker.processors.static_forward import not_leader\n"
    source += "from mqadmin.broker import topics"
    assert forbidden(source, "mqadmin.broker.processors.send") == set()
