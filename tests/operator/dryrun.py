"""What every ``--dry-run`` test checks first: the plan as text, then as JSON valid against the
command's published schema, both with exit code 0."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import jsonschema

from tests.cli_harness import Result, run_mqadmin


def planned(
    run: Callable[..., Result], env: dict[str, str], command: str, args: list[str]
) -> tuple[Result, Result, dict[str, Any]]:
    """The text answer, the JSON answer and its document of ``command args --dry-run``."""
    text = run(command, *args, "--dry-run")
    assert text.code == 0, (command, text.err)
    assert text.out.startswith("dry run, nothing changed"), text.out
    r = run(command, *args, "--dry-run", "--json")
    assert r.code == 0, (command, r.err)
    doc: dict[str, Any] = json.loads(r.out)
    jsonschema.validate(doc, json.loads(run_mqadmin(["schema", command], env).out))
    return text, r, doc
