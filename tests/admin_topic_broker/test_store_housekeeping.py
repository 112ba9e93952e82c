"""deleteExpiredCommitLog and cleanExpiredCQ doing their work on a broker with expired files.

The broker keeps small commit-log files (64 KiB) for no time at all (``fileReservedTime=0``) and
never cleans by itself (``deleteWhen`` matches no hour), so the files the C++ producer fills are
expired at once and stay until the commands delete them.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.admin_topic_broker.servers import Cluster
from tests.broker.peers import cpp

FILE_SIZE = 64 * 1024


@pytest.fixture(scope="module")
def small_files(tmp_path_factory: pytest.TempPathFactory, cli_env: dict[str, str]) -> Iterator[Cluster]:
    c = Cluster(
        tmp_path_factory.mktemp("small-files"),
        cli_env,
        mappedFileSizeCommitLog=FILE_SIZE,
        fileReservedTime=0,
        deleteWhen="99",
    )
    try:
        yield c
    finally:
        c.stop()


def runtime(c: Cluster) -> dict[str, str]:
    return c.admin(lambda a: a.broker.fetch_broker_runtime_stats(c.broker_addr))


def test_expired_commit_log_then_expired_consume_queues(small_files: Cluster) -> None:
    c = small_files
    for topic in ("EarlyTopic", "LateTopic"):
        assert c.mqadmin("updateTopic", "-c", "DefaultCluster", "-t", topic, "-r", "2", "-w", "2").code == 0
    cpp("produce", c.ns_addr, "EarlyTopic", "40", "--size", "1000", "--quiet")
    cpp("produce", c.ns_addr, "LateTopic", "200", "--size", "1000", "--quiet")
    commitlog = c.broker.workdir / "store" / "commitlog"
    files_before = sorted(commitlog.iterdir())
    assert len(files_before) >= 3
    assert runtime(c)["commitLogMinOffset"] == "0"

    r = c.mqadmin("deleteExpiredCommitLog", "-b", c.broker_addr)
    assert (r.code, r.err, r.out) == (0, "", "success")
    files_after = sorted(commitlog.iterdir())
    assert files_after == files_before[-1:]  # all but the file being written
    min_offset = int(runtime(c)["commitLogMinOffset"])
    assert min_offset == int(files_after[0].name)

    early = c.broker.workdir / "store" / "consumequeue" / "EarlyTopic"
    assert early.is_dir()
    r = c.mqadmin("cleanExpiredCQ", "-c", "DefaultCluster")
    assert (r.code, r.err, r.out) == (0, "", "success")
    assert not early.exists()  # every entry pointed below the commit log's new start
    assert (c.broker.workdir / "store" / "consumequeue" / "LateTopic").is_dir()
