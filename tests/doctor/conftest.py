"""Fixtures of the doctor tests: the installed ``mqadmin doctor`` run against our servers."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli_harness import clean_env
from tests.doctor.support import Doctor


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    home = tmp_path / "home"
    (home / "conf").mkdir(parents=True)
    return clean_env(home, tmp_path / "config")


@pytest.fixture
def doctor(env: dict[str, str]) -> Doctor:
    return Doctor(env)
