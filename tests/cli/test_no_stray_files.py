"""Read-only commands write nothing where they were not asked to: ``consumerStatus -g`` and ``consumer
-g`` (text and --json) leave the working directory as it was, against our name server and broker with
a C++ push consumer online; with ``--save DIR`` the running info goes to ``DIR/<now>/<clientId>``.
"""

from __future__ import annotations

import io
import json
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.admin_group_offset.servers import Cluster, OnlineConsumer

TOPIC = "StrayTopic"
GROUP = "StrayCG"
SENT = 4


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    c = Cluster(tmp_path_factory.mktemp("stray"))
    try:
        yield c
    finally:
        c.stop()


@pytest.fixture(scope="module")
def online(cluster: Cluster) -> Iterator[OnlineConsumer]:
    cluster.create_topic(TOPIC, 4)
    cluster.produce(TOPIC, SENT)
    consumer = OnlineConsumer(cluster.namesrv, TOPIC, GROUP, SENT)
    try:
        consumer.wait_received(SENT)
        yield consumer
    finally:
        consumer.stop()


def tree(d: Path) -> list[str]:
    return sorted(str(p.relative_to(d)) for p in d.rglob("*"))


@pytest.mark.parametrize("command", ["consumerStatus", "consumer"])
def test_nothing_is_written_without_save(cluster: Cluster, online: OnlineConsumer, command: str) -> None:
    before = tree(cluster.cwd)
    r = cluster.mqadmin(command, "-g", GROUP)
    assert (r.code, r.err) == (0, ""), r.err
    row = r.out.splitlines()[1 if command == "consumerStatus" else 0].split()
    assert row[-1] == "-"  # the file column: nothing saved
    doc = json.loads(cluster.mqadmin(command, "-g", GROUP, "--json").out)
    assert doc["consumers"] and doc["consumers"][0]["file"] is None
    assert "Same subscription" in r.out
    time.sleep(0.2)
    assert tree(cluster.cwd) == before


def test_save_writes_the_running_info_there(cluster: Cluster, online: OnlineConsumer, tmp_path: Path) -> None:
    before = tree(cluster.cwd)
    out = tmp_path / "saved"
    doc = json.loads(cluster.mqadmin("consumerStatus", "-g", GROUP, "--save", str(out), "--json").out)
    path = Path(doc["consumers"][0]["file"])
    assert path.parent.parent == out and path.name == doc["consumers"][0]["clientId"]
    assert path.read_text().startswith("#Consumer Properties#\n")
    r = cluster.mqadmin("consumer", "-g", GROUP, "--save", str(out))
    assert r.code == 0 and Path(r.out.splitlines()[0].split()[-1]).is_file()
    assert tree(cluster.cwd) == before


# ------------------------------------------------- analyze --format json: the documented empty form


class _Rows:
    """What :func:`mqadmin.pipeline.jobs.output.emit` reads of a collected DataFrame."""

    def __init__(self, columns: list[str], rows: list[tuple[object, ...]]) -> None:
        self.columns = columns
        self._rows = rows

    def collect(self) -> list[tuple[object, ...]]:
        return self._rows


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_json_lines_with_no_rows_is_no_lines_and_a_terminal_is_told(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from mqadmin.pipeline.jobs.output import emit

    rows = _Rows(["group", "lag"], [("G1", 3), ("G2", 0)])
    piped = io.StringIO()
    emit(rows, "json", None, piped)  # type: ignore[arg-type]
    assert [json.loads(x) for x in piped.getvalue().splitlines()] == [
        {"group": "G1", "lag": 3},
        {"group": "G2", "lag": 0},
    ]
    empty = _Rows(["group", "lag"], [])
    piped = io.StringIO()
    emit(empty, "json", None, piped)  # type: ignore[arg-type]
    assert piped.getvalue() == "" and capsys.readouterr().err == ""  # a JSON Lines reader reads no rows
    shown = _Terminal()
    emit(empty, "json", None, shown)  # type: ignore[arg-type]
    assert shown.getvalue() == "" and "no rows" in capsys.readouterr().err
