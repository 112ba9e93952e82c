"""Fixtures: one name server and one development broker per test module, stopped whatever happens."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.admin_group_offset.servers import Cluster


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    c = Cluster(tmp_path_factory.mktemp("cluster"))
    try:
        yield c
    finally:
        c.stop()
