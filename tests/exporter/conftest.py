"""Fixtures of the exporter tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli_harness import clean_env


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    """A clean environment for ``mqadmin`` subprocesses (no keys, no contexts)."""
    home = tmp_path / "home"
    (home / "conf").mkdir(parents=True)
    return clean_env(home, tmp_path / "config")
