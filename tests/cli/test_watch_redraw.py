"""The watch (``-i SECONDS``) as a person and as a script see it, against our name server and broker.

- In a tmux pane (a terminal) the screen is redrawn in place: one header line with the round's
  time, the round and what changed, never a scrolling copy per round; the lag's growth is red.
- ``--count N`` ends the watch after N rounds, on a terminal and in a pipe, with the last round's
  exit code; piped rounds are what they were (Java text, JSON lines with a ``timestamp``).
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator

import pytest

from tests.admin_group_offset.servers import Cluster
from tests.cli.test_tables_80 import Pane, shell

TOPIC = "RedrawTopic"
GROUP = "RedrawGroup"
HEADER = re.compile(r"^(\d\d):(\d\d):(\d\d)  round (\d+)/(\d+)")


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    c = Cluster(tmp_path_factory.mktemp("redraw"))
    try:
        c.create_topic(TOPIC, queues=2)
        assert c.mqadmin("updateSubGroup", "-b", c.addr, "-g", GROUP).code == 0
        for q in range(2):
            c.commit(GROUP, TOPIC, q, 0)
        send(c)
        yield c
    finally:
        c.stop()


def send(cluster: Cluster) -> None:
    r = cluster.mqadmin("sendMessage", "-t", TOPIC, "-p", "lag")
    assert r.code == 0, r.err


def headers(screen: str) -> list[re.Match[str]]:
    return [m for line in screen.splitlines() if (m := HEADER.match(line))]


def test_table_watch_redraws_in_place_with_round_time_and_coloured_lag(cluster: Cluster) -> None:
    pane = Pane(
        shell(cluster, f"consumerProgress -g {GROUP} -i 2 --count 3 --output table"),
        {**cluster.env, "TERM": "xterm"},
    )
    screens: dict[int, str] = {}
    try:
        pane.wait_for("round 1/3")
        started = time.time()
        send(cluster)  # the lag grows by one before a later round
        deadline = time.monotonic() + 30
        while "RC=" not in (screen := pane.capture("-e")):
            assert time.monotonic() < deadline, screen
            plain = pane.capture()
            for m in headers(plain):
                screens[int(m.group(4))] = screen  # the latest: a round may be caught half drawn
            time.sleep(0.05)
        final = pane.capture()
    finally:
        pane.close()
    assert "RC=0" in final
    shown = headers(final)
    assert [(m.group(4), m.group(5)) for m in shown] == [("3", "3")]  # redrawn in place, not scrolled
    h, m, s = (int(x) for x in shown[0].groups()[:3])
    now = time.localtime(started)
    assert abs((h * 3600 + m * 60 + s) - (now.tm_hour * 3600 + now.tm_min * 60 + now.tm_sec)) % 86400 <= 10
    assert final.count("queues") == 1 and final.count("diffTotal") == 1
    grew = [screens[r] for r in (2, 3) if r in screens and "(+1)" in screens[r]]
    assert grew, screens
    line = next(ln for ln in grew[0].splitlines() if "(+1)" in ln)
    assert "lag " in line and re.search(r"\x1b\[[0-9;]*31m[^\x1b]*\(\+1\)", line), line  # red
    assert re.search(r"\x1b\[[0-9;]*31m +\+1", grew[0])  # the queue's cell says +1 in red too


def test_text_watch_redraws_the_java_text_in_place(cluster: Cluster) -> None:
    once = cluster.mqadmin("topicStatus", "-t", TOPIC)
    assert once.code == 0
    pane = Pane(shell(cluster, f"topicStatus -t {TOPIC} -i 0.5 --count 3"), {**cluster.env, "TERM": "xterm"})
    try:
        final = pane.wait_for("RC=0")
    finally:
        pane.close()
    assert [(m.group(4), m.group(5)) for m in headers(final)] == [("3", "3")]
    assert final.count("#Broker Name") == 1
    assert "values changed" in final or "value changed" in final


def test_count_ends_a_piped_watch_after_n_rounds(cluster: Cluster) -> None:
    t0 = time.monotonic()
    r = cluster.mqadmin("topicStatus", "-t", TOPIC, "-i", "0.3", "--count", "2", "--json")
    assert r.code == 0, r.err
    assert time.monotonic() - t0 < 15
    docs = [json.loads(line) for line in r.out.splitlines()]
    assert len(docs) == 2
    assert all(d["apiVersion"] == "mqadmin/v1" and isinstance(d["timestamp"], int) for d in docs)
    once = cluster.mqadmin("topicStatus", "-t", TOPIC)
    text = cluster.mqadmin("topicStatus", "-t", TOPIC, "-i", "0.3", "--count", "2")
    assert (text.code, text.out) == (0, once.out * 2)  # piped text stays the Java text, round after round
    table = cluster.mqadmin("topicStatus", "-t", TOPIC, "-i", "0.3", "--count", "2", "--output", "table")
    assert table.code == 0, table.err
    assert [(m.group(4), m.group(5)) for m in headers(table.out)] == [("1", "2"), ("2", "2")]


def test_cluster_list_counts_its_java_rounds(cluster: Cluster) -> None:
    once = cluster.mqadmin("clusterList")
    r = cluster.mqadmin("clusterList", "-i", "1", "--count", "2")
    assert r.code == 0, r.err
    header = once.out.splitlines()[0]
    assert r.out.splitlines().count(header) == 2


def test_count_needs_an_interval_and_ends_with_the_last_rounds_code(cluster: Cluster) -> None:
    for args in (["topicStatus", "-t", TOPIC], ["clusterList"]):
        r = cluster.mqadmin(*args, "--count", "2")
        assert r.code == 2 and "--count needs -i" in r.err and r.out == "", r
    r = cluster.mqadmin("topicStatus", "-t", "NoSuchRedrawTopic", "-i", "0.2", "--count", "2")
    assert r.code == 7, r.err
    assert len([line for line in r.err.splitlines() if "NoSuchRedrawTopic" in line]) == 2
