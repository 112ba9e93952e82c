"""Imports point down the layers of the design, checked statically over every module.

``cli`` > ``pipeline`` > two stacks > ``route`` > ``remoting`` > ``protocol``, the two stacks being
the admin client (``admin``) and the servers (``namesrv`` / ``broker`` over ``controller`` and
``servermain``). Neither stack imports the other: what both need lives in the base below them.
Every import statement counts, also the lazy ones inside functions: a lazy import changes when a
module is loaded, not which layer may depend on which.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import mqadmin

ROOT = Path(mqadmin.__file__).parent

# rank of each top-level part of the package: a module may import only from parts of rank <= its own
# (the same rank only for itself: namesrv and broker are siblings that never import each other)
RANK: dict[str, int] = {
    "atomicfile": 0,  # utilities below every layer
    "protocol": 1,
    "javaconfig": 2,  # Java config beans over protocol's Properties and JSON
    "remoting": 3,
    "route": 4,
    "servermain": 5,  # start-up shared by the two servers
    "controller": 5,  # the controller a name server embeds (below namesrv, which starts it)
    "namesrv": 6,
    "broker": 6,
    "admin": 7,
    "localcluster": 8,  # starts the server processes (by command line, not by import)
    "manifest": 8,  # a cluster as code: manifest, diff, apply (on admin)
    "doctor": 8,  # the named checks of a cluster's health (on admin)
    "pipeline": 9,
    "exporter": 9,  # the Prometheus exporter's server (on admin and the doctor's checks)
    "demo": 9,  # the demo session: servers and admin calls, printed by the cli command
    "spark": 10,  # the public module of the Spark data source (over pipeline)
    "cli": 11,
    "__main__": 12,
}

# the two stacks over protocol/remoting/route: a part of one never imports a part of the other (the
# ranks alone would let a server import admin, which sits above it)
STACK: dict[str, str] = {
    "admin": "client",
    "servermain": "servers",
    "controller": "servers",
    "namesrv": "servers",
    "broker": "servers",
}


def _part(module: str) -> str | None:
    parts = module.split(".")
    if parts[0] != "mqadmin" or len(parts) < 2:
        return None
    return parts[1]


def _imports(path: Path, module: str) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(), str(path))
    out: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.extend((node.lineno, a.name) for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative imports stay inside their own part
                continue
            name = node.module or ""
            out.append((node.lineno, name))
    return out


def _modules() -> list[tuple[Path, str]]:
    found = []
    for path in sorted(ROOT.rglob("*.py")):
        rel = path.relative_to(ROOT.parent).with_suffix("")
        parts = list(rel.parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found.append((path, ".".join(parts)))
    return found


def test_every_part_has_a_rank() -> None:
    parts = {p for _, m in _modules() if (p := _part(m)) is not None}
    assert parts <= set(RANK), f"place these in the layer table: {sorted(parts - set(RANK))}"


def forbidden(own: str, other: str) -> str | None:
    """Why a module of part ``own`` may not import part ``other``, or None when it may."""
    if other == own:
        return None
    if own in STACK and other in STACK and STACK[own] != STACK[other]:
        return f"the {STACK[own]} stack imports the {STACK[other]} stack"
    if RANK[other] >= RANK[own]:
        return "points up or sideways"
    return None


def test_imports_point_down() -> None:
    bad: list[str] = []
    for path, module in _modules():
        own = _part(module)
        if own is None:
            continue
        if module.endswith(".__main__"):  # an entry point (python -m ...) runs the command line
            own = "__main__"
        for line, name in _imports(path, module):
            other = _part(name)
            if other is None or (why := forbidden(own, other)) is None:
                continue
            bad.append(f"{path.relative_to(ROOT.parent)}:{line}: {own} imports {name} ({why})")
    assert not bad, "imports across the layers:\n" + "\n".join(bad)


@pytest.mark.parametrize(
    ("own", "other"),
    [
        ("admin", "broker"),
        ("admin", "namesrv"),
        ("admin", "controller"),
        ("admin", "servermain"),
        ("broker", "admin"),
        ("namesrv", "admin"),
        ("controller", "admin"),
        ("servermain", "admin"),
        ("broker", "namesrv"),
        ("namesrv", "broker"),
        ("route", "admin"),
        ("protocol", "remoting"),
        ("admin", "pipeline"),
    ],
)
def test_refused_imports(own: str, other: str) -> None:
    assert forbidden(own, other) is not None


@pytest.mark.parametrize(
    ("own", "other"),
    [
        ("admin", "route"),
        ("admin", "remoting"),
        ("broker", "route"),
        ("broker", "controller"),
        ("namesrv", "controller"),
        ("namesrv", "servermain"),
        ("pipeline", "admin"),
        ("cli", "admin"),
        ("cli", "broker"),
        ("localcluster", "namesrv"),
    ],
)
def test_allowed_imports(own: str, other: str) -> None:
    assert forbidden(own, other) is None


def test_stack_parts_have_ranks_between_base_and_users() -> None:
    """Each stack sits over route and under the parts that use both (localcluster, pipeline, cli)."""
    for part in STACK:
        assert RANK["route"] < RANK[part] < RANK["localcluster"], part


@pytest.mark.parametrize("low", ["protocol", "route"])
def test_sans_io_layers_do_no_io(low: str) -> None:
    """protocol/ and route/ are sans-IO: no event loop, sockets, TLS or processes."""
    bad = []
    for path, module in _modules():
        if _part(module) != low:
            continue
        for line, name in _imports(path, module):
            if name.split(".")[0] in {"asyncio", "socket", "selectors", "ssl", "subprocess"}:
                bad.append(f"{path.relative_to(ROOT.parent)}:{line}: {name}")
    assert not bad, "\n".join(bad)
