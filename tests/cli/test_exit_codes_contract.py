"""Exit codes a check can rely on, over real sockets with the installed ``mqadmin``.

- a topic or group that does not exist is 7 wherever it is named, with ``--max-lag`` or without;
- a partial answer (one broker of two does not answer) is 6;
- a closed reader (``| head``) ends any command at once, quietly, with exit 0, as ``cat`` does.
"""

from __future__ import annotations

import os
import select
import subprocess
import time
from collections.abc import Iterator

import pytest

from mqadmin.localcluster import free_port
from tests.admin_group_offset.servers import Cluster, consume, produce
from tests.cli_harness import MQADMIN

TOPIC, GROUP = "ExitTopic", "ExitGroup"


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    c = Cluster(tmp_path_factory.mktemp("exitcodes"))
    try:
        c.create_topic(TOPIC, 2)
        produce(c.namesrv, TOPIC, 4)
        consume(c.namesrv, TOPIC, GROUP, 4)
        yield c
    finally:
        c.stop()


# ------------------------------------------------------------------------------------ not found: 7


@pytest.mark.parametrize(
    "args",
    [
        ["consumerProgress", "-g", GROUP, "-t", "Ordrs", "--max-lag", "1"],
        ["consumerProgress", "-g", GROUP, "-t", "Ordrs"],
        ["consumerProgress", "-g", "NoSuchGroupAtAll", "--max-lag", "1"],
        ["consumerProgress", "-g", "NoSuchGroupAtAll"],
        ["topicRoute", "-t", "Ordrs"],
        ["topicStatus", "-t", "Ordrs"],
        ["topicClusterList", "-t", "Ordrs"],
    ],
    ids=lambda a: " ".join(a),
)
def test_a_name_that_does_not_exist_is_7(cluster: Cluster, args: list[str]) -> None:
    r = cluster.mqadmin(*args)
    assert r.code == 7, (r.code, r.out, r.err)
    assert r.err.strip(), "the reason is on stderr"
    j = cluster.mqadmin(*args, "--json")
    assert j.code == 7 and '"exitCode": 7' in j.out


def test_the_right_names_with_max_lag_pass_or_cross(cluster: Cluster) -> None:
    """Beside the typo: the real topic is 0 with no lag and 8 over a threshold it crosses."""
    ok = cluster.mqadmin("consumerProgress", "-g", GROUP, "-t", TOPIC, "--max-lag", "100")
    assert ok.code == 0, ok.err
    produce(cluster.namesrv, TOPIC, 3)
    crossed = cluster.mqadmin("consumerProgress", "-g", GROUP, "-t", TOPIC, "--max-lag", "1")
    assert crossed.code == 8, crossed.err


# ------------------------------------------------------------------------------------ partial: 6


def test_a_partial_answer_is_6(cluster: Cluster) -> None:
    """getNamesrvConfig asks every name server of -n: one answers, one does not listen. What answered
    is printed, the failure is on stderr, exit 6 (and 4 when none answers)."""
    dead = f"127.0.0.1:{free_port()}"
    both = cluster.mqadmin("getNamesrvConfig", "-n", f"{cluster.namesrv};{dead}")
    assert both.code == 6, (both.code, both.err)
    assert cluster.namesrv in both.out and dead in both.err
    j = cluster.mqadmin("getNamesrvConfig", "-n", f"{cluster.namesrv};{dead}", "--json")
    assert j.code == 6 and '"errors"' in j.out
    none = cluster.mqadmin("getNamesrvConfig", "-n", dead)
    assert none.code == 4, none.err


# ------------------------------------------------------------------------------------ EPIPE: 0


def _head(args: list[str], env: dict[str, str], lines: int) -> tuple[int, bytes, str, float]:
    """``mqadmin ARGS | head -LINES``: its exit code, what head got, its stderr, and how long it ran
    after head was gone."""
    p = subprocess.Popen([MQADMIN, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    assert p.stdout is not None
    got = b"".join(p.stdout.readline() for _ in range(lines))
    p.stdout.close()
    gone = time.monotonic()
    try:
        code = p.wait(10)
    except subprocess.TimeoutExpired:
        p.kill()
        p.wait()
        raise AssertionError("mqadmin kept running after its reader was gone") from None
    took = time.monotonic() - gone
    assert p.stderr is not None
    return code, got, p.stderr.read().decode(), took


@pytest.mark.parametrize("fmt", [[], ["--json"]], ids=["text", "json"])
def test_a_watch_piped_to_head_ends_at_once(cluster: Cluster, fmt: list[str]) -> None:
    """``topicStatus -t T -i 1 | head -2``: ends as soon as head does, exit 0, nothing on stderr."""
    args = ["topicStatus", "-n", cluster.namesrv, "-t", TOPIC, "-i", "1", *fmt]
    code, got, err, took = _head(args, cluster.env, 2)
    assert code == 0 and got.count(b"\n") == 2
    assert "BrokenPipe" not in err and "internal error" not in err, err
    assert took < 0.8, f"ran {took:.2f} s after head was gone"


def test_cluster_list_watch_piped_to_head_ends_at_once(cluster: Cluster) -> None:
    code, _, err, took = _head(["clusterList", "-n", cluster.namesrv, "-i", "1"], cluster.env, 1)
    assert (code, err) == (0, "") and took < 0.8


@pytest.mark.parametrize(
    "args",
    [["topicList"], ["getBrokerConfig", "-b", "{broker}"], ["getBrokerConfig", "-b", "{broker}", "--json"]],
    ids=lambda a: " ".join(a),
)
def test_a_long_answer_piped_to_head_is_quiet(cluster: Cluster, args: list[str]) -> None:
    """A reader that closes early: exit 0 and no error, as ``cat big | head -1``."""
    argv = [a.replace("{broker}", cluster.addr) for a in args]
    # a pipe whose reader is closed before anything is written
    r, w = os.pipe()
    os.close(r)
    p = subprocess.run(
        [MQADMIN, argv[0], "-n", cluster.namesrv, *argv[1:]],
        stdout=w,
        stderr=subprocess.PIPE,
        env=cluster.env,
    )
    os.close(w)
    err = p.stderr.decode()
    assert p.returncode == 0, err
    assert "BrokenPipe" not in err and "internal error" not in err and "Exception" not in err, err


def test_the_reader_stays_served_meanwhile(cluster: Cluster) -> None:
    """A watch whose reader keeps reading goes on: the end is the reader's doing, not a timer's."""
    p = subprocess.Popen(
        [MQADMIN, "topicStatus", "-n", cluster.namesrv, "-t", TOPIC, "-i", "0.2", "--json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=cluster.env,
    )
    assert p.stdout is not None
    try:
        lines = 0
        deadline = time.monotonic() + 5
        while lines < 4 and time.monotonic() < deadline:
            ready, _, _ = select.select([p.stdout], [], [], 1)
            if ready:
                lines += bool(p.stdout.readline())
        assert lines == 4 and p.poll() is None
    finally:
        p.terminate()
        p.wait(5)
