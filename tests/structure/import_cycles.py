"""Import cycles of a package, found with the standard library's ``ast`` only (nothing is imported).

Run it: ``python tests/structure/import_cycles.py [package_dir]`` (``mqadmin`` by default). It prints
the number of cycles, a cycle being a strongly connected component of the import graph with more
than one module, then each cycle's size and members, biggest first.

An edge goes from a module to the most specific module of the package that an import statement
names (``from a.b import c`` is ``a.b.c`` when that is a module, else ``a.b``). Imports are of
three kinds, counted apart because they cost differently:

- ``module``: runs when the module is loaded (a cycle of these can fail at import time);
- ``function``: inside a function body, runs when it is called (a lazy import still ties the two
  modules together);
- ``type``: under ``if TYPE_CHECKING:``, seen by the type checker only.

Cycles are counted over all three kinds (the design question: which modules cannot be understood
apart), and again over the imports that run (``module`` + ``function``) and over ``module`` alone.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

KINDS = ("module", "function", "type")


@dataclass(frozen=True)
class Edge:
    source: str
    target: str
    kind: str
    line: int


@dataclass
class Graph:
    modules: set[str] = field(default_factory=set)
    edges: list[Edge] = field(default_factory=list)

    def adjacency(self, kinds: Iterable[str] = KINDS) -> dict[str, set[str]]:
        wanted = set(kinds)
        adj: dict[str, set[str]] = {m: set() for m in self.modules}
        for e in self.edges:
            if e.kind in wanted and e.source != e.target:
                adj[e.source].add(e.target)
        return adj


def module_names(package_dir: Path) -> dict[str, Path]:
    """Dotted name of every ``.py`` file under the package (a package is its ``__init__``)."""
    root = package_dir.resolve()
    found: dict[str, Path] = {}
    for path in sorted(root.rglob("*.py")):
        parts = list(path.relative_to(root.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def _is_type_checking(test: ast.expr) -> bool:
    if isinstance(test, ast.Name):
        return test.id == "TYPE_CHECKING"
    return isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"


def _imports(tree: ast.AST) -> Iterator[tuple[ast.Import | ast.ImportFrom, str]]:
    """Every import statement with its kind, by walking the tree with the enclosing context."""
    stack: list[tuple[ast.AST, str]] = [(tree, "module")]
    while stack:
        node, kind = stack.pop()
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node, kind
            continue
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            stack.extend((child, "type") for child in node.body)
            stack.extend((child, kind) for child in node.orelse)
            continue
        inner = kind
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) and kind == "module":
            inner = "function"
        stack.extend((child, inner) for child in ast.iter_child_nodes(node))


def _base(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    """The absolute module an ``ImportFrom`` starts from (relative levels resolved)."""
    if not node.level:
        return node.module or ""
    parts = module.split(".")
    if not is_package:
        parts.pop()
    if node.level > 1:
        parts = parts[: len(parts) - (node.level - 1)]
    return ".".join([*parts, *([node.module] if node.module else [])])


def _nearest(name: str, known: set[str]) -> str | None:
    """The longest prefix of a dotted name that is a module of the package."""
    parts = name.split(".")
    while parts:
        candidate = ".".join(parts)
        if candidate in known:
            return candidate
        parts.pop()
    return None


def _targets(module: str, is_package: bool, node: ast.Import | ast.ImportFrom, known: set[str]) -> set[str]:
    if isinstance(node, ast.Import):
        names = [a.name for a in node.names]
    else:
        base = _base(module, is_package, node)
        names = [f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in node.names]
    return {t for n in names if (t := _nearest(n, known)) is not None}


def build_graph(package_dir: Path) -> Graph:
    files = module_names(package_dir)
    known = set(files)
    graph = Graph(modules=known)
    for module, path in files.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        is_package = path.name == "__init__.py"
        for node, kind in _imports(tree):
            for target in sorted(_targets(module, is_package, node, known)):
                graph.edges.append(Edge(module, target, kind, node.lineno))
    return graph


def strongly_connected(adj: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's algorithm, iterative (no recursion limit on deep packages)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    out: list[list[str]] = []
    for start in sorted(adj):
        if start in index:
            continue
        work: list[tuple[str, Iterator[str]]] = [(start, iter(sorted(adj[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is None:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        top = stack.pop()
                        on_stack.discard(top)
                        component.append(top)
                        if top == node:
                            break
                    out.append(sorted(component))
            elif child not in index:
                index[child] = low[child] = len(index)
                stack.append(child)
                on_stack.add(child)
                work.append((child, iter(sorted(adj[child]))))
            elif child in on_stack:
                low[node] = min(low[node], index[child])
    return out


def cycles(graph: Graph, kinds: Iterable[str] = KINDS) -> list[list[str]]:
    """Components of more than one module, biggest first."""
    found = [c for c in strongly_connected(graph.adjacency(kinds)) if len(c) > 1]
    return sorted(found, key=lambda c: (-len(c), c))


def _edge_kinds(graph: Graph, members: list[str]) -> dict[str, int]:
    inside = set(members)
    counts = dict.fromkeys(KINDS, 0)
    for e in graph.edges:
        if e.source in inside and e.target in inside and e.source != e.target:
            counts[e.kind] += 1
    return counts


def report(graph: Graph) -> str:
    every = cycles(graph)
    running = cycles(graph, ("module", "function"))
    loaded = cycles(graph, ("module",))
    lines = [
        f"import cycles: {len(every)}",
        f"  sizes: {[len(c) for c in every]}",
        f"  without TYPE_CHECKING imports: {len(running)} (sizes {[len(c) for c in running]})",
        f"  module-level imports only: {len(loaded)} (sizes {[len(c) for c in loaded]})",
        f"modules: {len(graph.modules)}; import edges: "
        + ", ".join(f"{k} {sum(e.kind == k for e in graph.edges)}" for k in KINDS),
    ]
    for n, members in enumerate(every, 1):
        kinds = _edge_kinds(graph, members)
        lines.append("")
        lines.append(
            f"cycle {n}: {len(members)} modules; edges inside: "
            + ", ".join(f"{k} {v}" for k, v in kinds.items())
        )
        lines.extend(f"  {m}" for m in members)
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    default = Path(__file__).resolve().parents[2] / "mqadmin"
    package_dir = Path(argv[1]) if len(argv) > 1 else default
    if not (package_dir / "__init__.py").is_file():
        print(f"not a package: {package_dir}", file=sys.stderr)
        return 2
    print(report(build_graph(package_dir)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
