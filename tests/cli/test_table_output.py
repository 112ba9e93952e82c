"""``--output table``: the JSON data drawn as tables (perms as ``RW-``), rich loaded only for it, no
colour in a pipe; ``--output name`` does not load it either."""

from __future__ import annotations

import json

import pytest

from tests.cli.peers import register_broker, registration_frame
from tests.servers import NameServerProcess


@pytest.fixture(scope="module")
def ns(namesrv: NameServerProcess) -> NameServerProcess:
    register_broker(namesrv, registration_frame("rocketmq-5.3.3/v02_topicRoute"))
    return namesrv


def test_route_as_tables_holds_the_json_data(mqadmin, ns: NameServerProcess) -> None:  # type: ignore[no-untyped-def]
    data = json.loads(mqadmin("topicRoute", "-n", ns.addr, "-t", "GoldenTopic", "--json").out)
    r = mqadmin("topicRoute", "-n", ns.addr, "-t", "GoldenTopic", "--output", "table")
    assert (r.code, r.err) == (0, "")
    assert "\x1b[" not in r.out  # piped: plain text, no colour codes
    lines = [line.rstrip() for line in r.out.splitlines()]
    assert "brokerDatas.brokerAddrs DefaultCluster broker-a (enableActingMaster=false)" in lines
    assert "queueDatas" in lines
    qd = data["queueDatas"][0]
    header = lines[lines.index("queueDatas") + 1]
    assert header.split() == ["brokerName", "perm", "readQueueNums", "topicSysFlag", "writeQueueNums"]
    row = lines[lines.index("queueDatas") + 2]
    assert qd["perm"] == 6
    assert row.split() == [
        "broker-a",
        "RW-",  # Java's PermName.perm2String, not the number
        *(str(qd[k]) for k in ("readQueueNums", "topicSysFlag", "writeQueueNums")),
    ]
    assert all(len(line) <= 80 for line in lines)


def test_rich_is_loaded_only_for_tables(mqadmin, ns: NameServerProcess) -> None:  # type: ignore[no-untyped-def]
    def imported(*args: str) -> set[str]:
        r = mqadmin(*args, env={"PYTHONPROFILEIMPORTTIME": "1"})
        return {ln.rsplit("|", 1)[1].strip() for ln in r.err.splitlines() if ln.startswith("import time:")}

    assert "rich" in imported("topicRoute", "-n", ns.addr, "-t", "GoldenTopic", "--output", "table")
    assert "rich" not in imported("topicRoute", "-n", ns.addr, "-t", "GoldenTopic", "--json")
    assert "rich" not in imported("topicList", "-n", ns.addr, "--output", "name")
