"""The import-cycle count of ``mqadmin`` (``tests/structure/import_cycles.py``) may only go down, and
the counter itself finds the cycles it claims to find."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import mqadmin
from tests.structure.import_cycles import build_graph, cycles

ROOT = Path(mqadmin.__file__).parent
SCRIPT = Path(__file__).with_name("import_cycles.py")


def _package(root: Path, files: dict[str, str]) -> Path:
    pkg = root / "pkg"
    for name, text in files.items():
        path = pkg / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return pkg


def test_no_cycle_of_module_level_imports() -> None:
    """A cycle of imports that run at load time breaks depending on which module is imported first."""
    assert cycles(build_graph(ROOT), ("module",)) == []


def test_no_cycle_in_the_command_line() -> None:
    """The commands, their framework and their rendering import each other one way only."""
    found = [c for c in cycles(build_graph(ROOT)) if any(m.startswith("mqadmin.cli") for m in c)]
    assert found == []


def test_no_import_cycle_at_all() -> None:
    """Over every import (lazy and type-only ones too), the package's modules form no cycle."""
    found = cycles(build_graph(ROOT))
    shown = "\n".join(", ".join(c) for c in found)
    assert found == [], f"{len(found)} import cycles:\n{shown}"


def test_script_prints_the_count() -> None:
    p = subprocess.run(
        [sys.executable, str(SCRIPT), str(ROOT)], capture_output=True, text=True, timeout=60, check=True
    )
    first = p.stdout.splitlines()[0]
    assert first == f"import cycles: {len(cycles(build_graph(ROOT)))}", p.stdout


def test_finds_relative_lazy_and_type_only_cycles(tmp_path: Path) -> None:
    pkg = _package(
        tmp_path,
        {
            "__init__.py": "",
            "a.py": "from . import b\n",
            "b.py": "def f():\n    from pkg.a import x\n",
            "sub/__init__.py": "",
            "sub/c.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ..sub import d\n",
            "sub/d.py": "from .c import y\n",
            "e.py": "import pkg.a\n",  # into a cycle, not part of one
        },
    )
    graph = build_graph(pkg)
    assert cycles(graph) == [["pkg.a", "pkg.b"], ["pkg.sub.c", "pkg.sub.d"]]
    assert cycles(graph, ("module", "function")) == [["pkg.a", "pkg.b"]]
    assert cycles(graph, ("module",)) == []


def test_acyclic_package_has_none(tmp_path: Path) -> None:
    pkg = _package(tmp_path, {"__init__.py": "from .a import x\n", "a.py": "import os\nx = 1\n"})
    assert cycles(build_graph(pkg)) == []


def test_script_refuses_what_is_not_a_package(tmp_path: Path) -> None:
    (tmp_path / "x.py").write_text("import x\n")
    p = subprocess.run(
        [sys.executable, str(SCRIPT), str(tmp_path)], capture_output=True, text=True, timeout=60
    )
    assert p.returncode == 2 and "not a package" in p.stderr and p.stdout == ""


def test_unparsable_module_is_an_error(tmp_path: Path) -> None:
    pkg = _package(tmp_path, {"__init__.py": "", "bad.py": "def (:\n"})
    p = subprocess.run([sys.executable, str(SCRIPT), str(pkg)], capture_output=True, text=True, timeout=60)
    assert p.returncode != 0 and "SyntaxError" in p.stderr
