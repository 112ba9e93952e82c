"""``--output table`` at 80 columns, as an operator sees it: the installed ``mqadmin`` in an 80-column
tmux pane and in pipes, against our name server and broker (topics made in the order 2, 3, 0, 1).

- no word is split: a cell never wraps, so no line is wider than the pane; headers shorten and the
  least important columns give way (``--wide`` shows them all);
- rows come sorted by their natural key, or by ``--sort-by``; ``--no-headers`` leaves rows only;
  ``-o name`` gives one resource name a line; perms read ``RW-``; "topics" is said once.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import time
import uuid
from collections.abc import Iterator

import pytest

from tests.admin_group_offset.servers import Cluster
from tests.cli.tmux import Tmux
from tests.cli_harness import MQADMIN

TOPICS = ("T2", "T3", "T0", "T1")
GROUP = "TablesGroup"


class Pane(Tmux):
    """One command in a tmux pane of a given size, the pane kept a while after it (a dead pane's
    notice would scroll the screen); its screen read back (escapes kept on asking)."""

    def __init__(self, command: str, env: dict[str, str], width: int = 80, height: int = 40) -> None:
        if shutil.which("tmux") is None:
            pytest.skip("tmux is not installed")
        self.sock = f"mqadmin-tables-{uuid.uuid4().hex[:8]}"
        self.env = env
        size = ("-x", str(width), "-y", str(height))
        self._tmux("-f", "/dev/null", "new-session", "-d", "-s", "t", *size, f"{command}; sleep 120")

    def capture(self, *flags: str) -> str:
        return self._tmux("capture-pane", "-p", *flags, "-t", "t")

    def wait_for(self, text: str, timeout: float = 20) -> str:
        deadline = time.monotonic() + timeout
        while text not in (screen := self.capture()):
            assert time.monotonic() < deadline, f"no {text!r} on the screen:\n{screen}"
            time.sleep(0.1)
        return screen


def shell(cluster: Cluster, args: str) -> str:
    return f"{MQADMIN} {args} -n {cluster.namesrv}; echo RC=$?"


def words(line: str) -> list[str]:
    return [c.strip() for c in re.split(r"\s{2,}", line.strip()) if c.strip()]


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    c = Cluster(tmp_path_factory.mktemp("tables80"))
    try:
        for t in TOPICS:
            c.create_topic(t, queues=4)
        assert c.mqadmin("updateSubGroup", "-b", c.addr, "-g", GROUP).code == 0
        for q in range(4):
            c.commit(GROUP, "T0", q, 0)
        yield c
    finally:
        c.stop()


def test_cluster_list_in_an_80_column_pane_splits_no_word(cluster: Cluster) -> None:
    data = cluster.json("clusterList")
    pane = Pane(shell(cluster, "clusterList --output table"), {**cluster.env, "TERM": "xterm"})
    try:
        pane.wait_for("RC=0")
        joined = pane.capture("-J").splitlines()  # a line the terminal wrapped comes back whole
        coloured = pane.capture("-e")
    finally:
        pane.close()
    assert all(len(line) <= 80 for line in joined), joined
    header = next(line for line in joined if line.startswith("cluster "))
    assert header.split() == ["cluster", "broker", "id", "addr", "ver", "put/s", "get/s", "disk", "ok"]
    broker = data["brokers"][0]
    row = words(next(line for line in joined if line.startswith("DefaultCluster")))
    assert row[:5] == ["DefaultCluster", "broker-a", "0", cluster.addr, broker["version"]]
    assert row[-1] == "true"
    assert "brokers (1 more column with --wide)" in joined
    assert "\x1b[1m" in coloured  # a terminal gets the bold headers


def test_wide_shows_every_column_whole(cluster: Cluster) -> None:
    r = cluster.mqadmin("clusterList", "--output", "table", "--wide")
    assert r.code == 0, r.err
    lines = r.out.splitlines()
    header = next(line for line in lines if line.startswith("cluster "))
    assert header.split() == [
        "cluster",
        "brokerName",
        "brokerId",
        "addr",
        "version",
        "putTps",
        "getTps",
        "commitLogDiskRatio",
        "activated",
        "ok",
    ]
    assert len(header) > 80 and "brokers" in lines and "…" not in r.out
    narrow = cluster.mqadmin("clusterList", "--output", "table")
    assert all(len(line) <= 80 for line in narrow.out.splitlines())  # a pipe gets 80 columns


def test_rows_come_sorted_by_their_natural_key(cluster: Cluster) -> None:
    topics = cluster.mqadmin("topicList", "--output", "table")
    assert topics.code == 0, topics.err
    lines = topics.out.splitlines()
    assert lines.count("topics") == 1 and lines[0] == "topics"  # said once, as the header
    mine = [line for line in lines if line in TOPICS]
    assert mine == ["T0", "T1", "T2", "T3"]
    stats = cluster.mqadmin("statsAll", "--output", "table")
    assert stats.code == 0, stats.err
    assert [w for line in stats.out.splitlines() for w in line.split()[:1] if w in TOPICS] == mine
    reset = cluster.mqadmin("resetOffsetByTime", "-g", GROUP, "-t", "T0", "-s", "now", "--output", "table")
    assert reset.code == 0, reset.err
    rows = [words(line) for line in reset.out.splitlines() if line.startswith("broker-a")]
    assert [int(r[1]) for r in rows] == [0, 1, 2, 3]


def test_sort_by_a_column_descending_and_a_missing_one(cluster: Cluster) -> None:
    r = cluster.mqadmin("statsAll", "--output", "table", "--sort-by", "-topic")
    assert r.code == 0, r.err
    order = [line.split()[0] for line in r.out.splitlines() if line.split()[:1] and line.split()[0] in TOPICS]
    assert order == ["T3", "T2", "T1", "T0"]
    bad = cluster.mqadmin("topicList", "--output", "table", "--sort-by", "nosuchcolumn")
    assert bad.code == 0
    assert "--sort-by nosuchcolumn: no table has such a column" in bad.err


def test_no_headers_prints_rows_only(cluster: Cluster) -> None:
    r = cluster.mqadmin("topicList", "--output", "table", "--no-headers")
    assert r.code == 0, r.err
    lines = r.out.splitlines()
    assert "topics" not in lines and "" not in lines
    assert [t for t in lines if t in TOPICS] == ["T0", "T1", "T2", "T3"]
    c = cluster.mqadmin("clusterList", "--output", "table", "--no-headers")
    assert not any(line.startswith(("brokers", "cluster ")) for line in c.out.splitlines())
    assert any(line.startswith("DefaultCluster") for line in c.out.splitlines())


def test_output_name_one_resource_a_line(cluster: Cluster) -> None:
    r = cluster.mqadmin("topicList", "-o", "name")
    assert r.code == 0, r.err
    names = r.out.splitlines()
    assert [t for t in names if t in TOPICS] == ["T0", "T1", "T2", "T3"]
    assert set(names) == set(cluster.json("topicList")["topics"])
    assert cluster.mqadmin("clusterList", "--output", "name").out == "broker-a\n"
    assert cluster.mqadmin("consumerProgress", "-g", GROUP, "-o", "name").out == f"{GROUP}\n"
    assert cluster.mqadmin("topicStatus", "-t", "T1", "-o", "name").out == "T1\n"
    missing = cluster.mqadmin("topicRoute", "-t", "NoSuchTopic", "-o", "name")
    assert (missing.code, missing.out) == (7, "")  # the failure is on stderr only
    p = subprocess.run(  # for xargs and while-read: nothing but the names
        f"{MQADMIN} topicList -o name -n {cluster.namesrv} | grep -c '^T[0-3]$'",
        shell=True,
        env=cluster.env,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert p.stdout.strip() == "4"


def test_route_perm_reads_rw(cluster: Cluster) -> None:
    r = cluster.mqadmin("topicRoute", "-t", "T0", "--output", "table")
    assert r.code == 0, r.err
    row = next(line for line in r.out.splitlines() if line.startswith("broker-a"))
    assert words(row)[1] == "RW-" and cluster.json("topicRoute", "-t", "T0")["queueDatas"][0]["perm"] == 6
