"""updateSubGroup, updateSubGroupList and deleteSubGroup refuse what Java would send and store (issue 11,
reproducer 11): a group name Java's rules refuse, a number out of range, a flag that is neither true
nor false. Each is exit code 2 with one stderr line, and nothing is sent: the target address is a
listening socket that records every connection, and the real broker's group table is unchanged.
"""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.admin_group_offset.servers import Cluster
from tests.cli_harness import Result

BAD_UPDATES = [
    (["-g", "../../g"], "illegal characters"),
    (["-g", "a b"], "illegal characters"),
    (["-g", " "], "blank"),
    (["-g", "G" * 256], "longer than group max length"),
    (["-g", "Gx", "-o", "maybe"], "-o takes true or false, not 'maybe'"),
    (["-g", "Gx", "-s", "yes"], "-s takes true or false"),
    (["-g", "Gx", "-m", "1"], "-m takes true or false"),
    (["-g", "Gx", "-d", "no"], "-d takes true or false"),
    (["-g", "Gx", "-a", "on"], "-a takes true or false"),
    (["-g", "Gx", "-q", "-1"], "-q takes a whole number from 0 to 1024, not -1"),
    (["-g", "Gx", "-q", "99999999"], "-q takes a whole number from 0 to 1024"),
    (["-g", "Gx", "-q", "2147483648"], "-q takes a whole number, not '2147483648'"),
    (["-g", "Gx", "-r", "-5"], "-r takes a whole number of 0 or more, not -5"),
    (["-g", "Gx", "-i", "-1"], "-i takes a whole number of 0 or more"),
    (["-g", "Gx", "-w", "-3"], "-w takes a whole number of 0 or more"),
    (["-g", "Gx", "-p", '{"type":"SOMETIMES"}'], "neither CUSTOMIZED nor EXPONENTIAL"),
    (["-g", "Gx", "-p", '{"type":"EXPONENTIAL","exponentialRetryPolicy":{"multiplier":0}}'], "multiplier"),
]


class Recorder:
    """A listening socket on a loopback port that counts the connections made to it."""

    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.sock.settimeout(0.2)
        self.addr = f"127.0.0.1:{self.sock.getsockname()[1]}"
        self.connections = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                conn, _ = self.sock.accept()
            except OSError:
                continue
            self.connections += 1
            conn.close()

    def close(self) -> None:
        self._stop.set()
        self._thread.join()
        self.sock.close()


@pytest.fixture
def recorder() -> Iterator[Recorder]:
    r = Recorder()
    try:
        yield r
    finally:
        r.close()


def one_usage_line(r: Result, expect: str) -> None:
    assert (r.code, r.out) == (2, ""), (r.code, r.out, r.err)
    assert r.err.count("\n") == 1 and expect in r.err, r.err


@pytest.mark.parametrize(("args", "expect"), BAD_UPDATES, ids=[" ".join(a)[:40] for a, _ in BAD_UPDATES])
def test_update_sub_group_refuses_before_sending(
    cluster: Cluster, recorder: Recorder, args: list[str], expect: str
) -> None:
    before = cluster.groups_on_broker()
    one_usage_line(cluster.mqadmin("updateSubGroup", "-b", recorder.addr, *args), expect)
    one_usage_line(cluster.mqadmin("updateSubGroup", "-b", cluster.addr, *args), expect)
    one_usage_line(cluster.mqadmin("updateSubGroup", "-c", "DefaultCluster", *args), expect)
    assert recorder.connections == 0
    assert cluster.groups_on_broker() == before


def test_true_and_false_in_any_case_are_taken(cluster: Cluster) -> None:
    r = cluster.mqadmin(
        "updateSubGroup", "-b", cluster.addr, "-g", "GoodFlags", "-o", " TRUE ", "-s", "False"
    )
    assert (r.code, r.err) == (0, ""), r.err
    g = cluster.groups_on_broker()["GoodFlags"]
    assert g["consumeMessageOrderly"] is True and g["consumeEnable"] is False
    r = cluster.mqadmin("updateSubGroup", "-b", cluster.addr, "-g", "GoodFlags", "-q", "0", "-r", "0")
    assert (r.code, r.err) == (0, "")
    assert cluster.groups_on_broker()["GoodFlags"]["retryQueueNums"] == 0


def test_delete_sub_group_refuses_before_sending(cluster: Cluster, recorder: Recorder) -> None:
    r = cluster.mqadmin("updateSubGroup", "-b", cluster.addr, "-g", "Keep")
    assert r.code == 0
    cluster.create_topic("KeepTopic", 1)
    cluster.commit("Keep", "KeepTopic", 0, 3)
    for target in (recorder.addr, cluster.addr):
        one_usage_line(
            cluster.mqadmin("deleteSubGroup", "-b", target, "-g", "../../Keep"), "illegal characters"
        )
        one_usage_line(
            cluster.mqadmin("deleteSubGroup", "-b", target, "-g", "Keep", "-r", "maybe"),
            "-r takes true or false, not 'maybe'",
        )
    assert recorder.connections == 0
    assert "Keep" in cluster.groups_on_broker() and cluster.committed("Keep", "KeepTopic", 0) == 3


def test_update_sub_group_list_refuses_a_file_with_one_bad_entry(
    cluster: Cluster, recorder: Recorder, tmp_path: Path
) -> None:
    f = tmp_path / "groups.json"
    for bad in ({"groupName": "../../g"}, {"groupName": "Fine", "retryQueueNums": -1}, {"groupName": "a b"}):
        f.write_text(json.dumps([{"groupName": "ListOk"}, bad]))
        for target in (recorder.addr, cluster.addr):
            r = cluster.mqadmin("updateSubGroupList", "-b", target, "-f", str(f))
            assert (r.code, r.out) == (2, "") and r.err.count("\n") == 1, (bad, r.err)
    assert recorder.connections == 0
    groups = cluster.groups_on_broker()
    assert "ListOk" not in groups and "Fine" not in groups
