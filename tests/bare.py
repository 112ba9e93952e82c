"""Code run by a bare interpreter: ``-I -S``, so no site and no package of the environment, with only
this source tree on the path. What a one-request command's modules import is seen there as a user's
regular install sees it (an editable install's finder loads ``re`` and ``pathlib`` into every
interpreter of its venv)."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from mqadmin.cli.main import HEAVY_MODULES

__all__ = ["SOURCE_ROOT", "BareRun", "heavy_in", "run_bare", "run_mqadmin_bare"]

SOURCE_ROOT = str(Path(__file__).resolve().parents[1])


def run_bare(code: str, timeout: float = 30) -> tuple[str, set[str]]:
    """Run ``code`` in a bare interpreter; its stdout and the modules it imported."""
    prog = (
        f"import sys\nsys.path.insert(0, {SOURCE_ROOT!r})\nbefore = set(sys.modules)\n{code}\n"
        "print(' '.join(sorted(set(sys.modules) - before)))\n"
    )
    p = subprocess.run(
        [sys.executable, "-I", "-S", "-c", prog], capture_output=True, text=True, timeout=timeout
    )
    assert p.returncode == 0, p.stderr
    *out, names = p.stdout.splitlines() or [""]
    return "\n".join(out), set(names.split())


def heavy_in(names: set[str], *more: str) -> list[str]:
    """The modules of ``names`` in a package of :data:`~mqadmin.cli.main.HEAVY_MODULES` (or ``more``)."""
    heavy = HEAVY_MODULES | set(more)
    return sorted(n for n in names if n.split(".")[0] in heavy)


@dataclass
class BareRun:
    """``mqadmin ARGS`` run by a bare interpreter: exit code, stdout, stderr (without the import lines)
    and every module it imported."""

    code: int
    out: str
    err: str
    modules: set[str]


def run_mqadmin_bare(
    args: list[str], env: dict[str, str], cwd: str | Path | None = None, timeout: float = 60
) -> BareRun:
    """``mqadmin ARGS`` through its entry point (:func:`mqadmin.cli.main.main`) in a bare interpreter,
    with ``-X importtime`` reporting what it imported."""
    boot = (
        f"import sys; sys.path.insert(0, {SOURCE_ROOT!r}); from mqadmin.cli.main import main; main({args!r})"
    )
    p = subprocess.run(
        [sys.executable, "-I", "-S", "-X", "importtime", "-c", boot],
        capture_output=True,
        text=True,
        env=env,
        cwd=cwd,
        timeout=timeout,
    )
    lines = p.stderr.splitlines()
    modules = {ln.rsplit("|", 1)[1].strip() for ln in lines if ln.startswith("import time:")}
    err = "".join(ln + "\n" for ln in lines if not ln.startswith("import time:"))
    return BareRun(p.returncode, p.stdout, err, modules)
