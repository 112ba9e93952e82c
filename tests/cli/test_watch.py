"""Watch mode (``-i SECONDS``) of consumerProgress, topicStatus, statsAll and brokerStatus, run as a
user runs it against our servers: a round every interval until SIGINT (exit 130), one compact JSON
document a line with ``--json``, and a failed round reported without ending the watch."""

from __future__ import annotations

import json
import selectors
import signal
import subprocess
import time
from collections.abc import Iterator

import pytest

from tests.admin_group_offset.servers import Cluster
from tests.cli_harness import MQADMIN, interruptible

TOPIC = "WatchTopic"


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    c = Cluster(tmp_path_factory.mktemp("watch"))
    try:
        c.create_topic(TOPIC, queues=2)
        yield c
    finally:
        c.stop()


def lines_of(proc: subprocess.Popen[bytes], stream: str, count: int, limit: float = 20) -> list[str]:
    """The first ``count`` lines the process writes on ``stream`` (within ``limit`` seconds)."""
    pipe = proc.stdout if stream == "out" else proc.stderr
    assert pipe is not None
    sel = selectors.DefaultSelector()
    sel.register(pipe, selectors.EVENT_READ)
    got: list[str] = []
    deadline = time.monotonic() + limit
    while len(got) < count:
        assert sel.select(max(0.0, deadline - time.monotonic())), f"only {got!r} in {limit} s"
        line = pipe.readline()
        assert line, f"the watch ended after {got!r}"
        got.append(line.decode())
    return got


def watch(cluster: Cluster, *args: str) -> subprocess.Popen[bytes]:
    argv = [MQADMIN, *args, "-n", cluster.namesrv]
    return subprocess.Popen(
        argv, env=cluster.env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=interruptible
    )


def interrupt(proc: subprocess.Popen[bytes]) -> int:
    proc.send_signal(signal.SIGINT)
    return proc.wait(10)


@pytest.mark.parametrize(
    "args",
    [
        ["topicStatus", "-t", TOPIC],
        ["brokerStatus", "-b", "{broker}"],
        ["statsAll", "-t", TOPIC],
        ["consumerProgress"],
    ],
)
def test_json_rounds_one_document_a_line(cluster: Cluster, args: list[str]) -> None:
    args = [a.format(broker=cluster.addr) for a in args]
    once = cluster.json(*args)
    proc = watch(cluster, *args, "-i", "0.3", "--json")
    try:
        docs = [json.loads(line) for line in lines_of(proc, "out", 3)]
        assert all(set(d) == set(once) | {"timestamp"} for d in docs)  # a stream line has its time
    finally:
        assert interrupt(proc) == 130


def test_text_rounds_repeat_the_java_text(cluster: Cluster) -> None:
    once = cluster.mqadmin("topicStatus", "-t", TOPIC)
    assert once.code == 0
    n = len(once.out.splitlines())
    proc = watch(cluster, "topicStatus", "-t", TOPIC, "-i", "0.2")
    try:
        out = lines_of(proc, "out", 2 * n)
        assert "".join(out) == once.out * 2
    finally:
        assert interrupt(proc) == 130


def test_a_failed_round_does_not_end_the_watch(cluster: Cluster) -> None:
    proc = watch(cluster, "topicStatus", "-t", "NoSuchWatchTopic", "-i", "0.2")
    try:
        errors = lines_of(proc, "err", 3)
        assert len(set(errors)) == 1 and "NoSuchWatchTopic" in errors[0]
        assert proc.poll() is None
    finally:
        assert interrupt(proc) == 130


def test_bad_interval_is_a_usage_error(cluster: Cluster) -> None:
    for bad in ("0", "-1", "soon"):
        r = cluster.mqadmin("topicStatus", "-t", TOPIC, "-i", bad)
        assert r.code == 2 and r.out == "", (bad, r.err)
