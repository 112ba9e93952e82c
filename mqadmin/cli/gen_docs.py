"""Write (or check) the shell completions and the man page from the command definitions.

``python -m mqadmin.cli.gen_docs`` rewrites ``completions/`` and ``man/mqadmin.1`` in the checkout;
``--check`` only compares and exits 1 when a file is out of date (the test suite runs that check).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from mqadmin.cli.docmodel import common_specs, load_specs
from mqadmin.cli.gen_completions import FILES, script
from mqadmin.cli.gen_man import man_page

__all__ = ["ROOT", "generated_files", "main"]

ROOT = Path(__file__).resolve().parents[2]


def generated_files() -> dict[str, str]:
    """Relative path → content of every generated file."""
    specs = load_specs()
    common = common_specs()
    files = {path: script(shell) for shell, path in FILES.items()}
    files["man/mqadmin.1"] = man_page(specs, common)
    return files


def stale_files(root: Path = ROOT) -> list[str]:
    """Generated files whose committed copy differs from what the definitions give now."""
    out = []
    for rel, text in generated_files().items():
        path = root / rel
        if not path.is_file() or path.read_text(encoding="utf-8") != text:
            out.append(rel)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m mqadmin.cli.gen_docs", description=__doc__)
    parser.add_argument("--check", action="store_true", help="only report files that are out of date")
    parser.add_argument("--root", type=Path, default=ROOT, help="checkout to write into")
    args = parser.parse_args(argv)
    if args.check:
        stale = stale_files(args.root)
        for rel in stale:
            print(f"out of date: {rel} (run python -m mqadmin.cli.gen_docs)", file=sys.stderr)
        return 1 if stale else 0
    for rel, text in generated_files().items():
        path = args.root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
