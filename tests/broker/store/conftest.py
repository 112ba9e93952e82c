from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from mqadmin.broker.store import MessageStore
from tests.broker.store.support import open_store


@pytest.fixture
def store(tmp_path: Path) -> Iterator[MessageStore]:
    s = open_store(tmp_path / "store")
    yield s
    s.shutdown()
