"""``--output table`` as designed: the general rules on made-up data, and the commands that name
their columns (clusterList) or hold maps (brokerStatus, getBrokerConfig) against our real servers."""

from __future__ import annotations

import datetime as dt
import io
import json
from collections.abc import Iterator

import pytest

from mqadmin.cli.output import TableLayout
from mqadmin.cli.richout import render
from tests.admin_group_offset.servers import Cluster


def drawn(value: object, layout: TableLayout | None = None) -> list[str]:
    buf = io.StringIO()
    render(value, buf, layout)
    return buf.getvalue().splitlines()


def cells(line: str) -> list[str]:
    """The cells of a drawn row (or of the header row, whose separators are heavier)."""
    return line.strip().strip("│┃").replace("┃", "│").split("│")


def test_numbers_right_aligned_rounded_grouped_and_times_readable() -> None:
    ms = 1_764_000_000_123
    rows = [
        {"name": "a", "offset": 1_234_567, "tps": 1.23456, "storeTimestamp": ms},
        {"name": "longer-name", "offset": 7, "tps": 10.0, "storeTimestamp": ms},
    ]
    lines = drawn({"rows": rows})
    first = next(line for line in lines if "│ a " in line)
    second = next(line for line in lines if "longer-name" in line)
    _, offset, tps, when = cells(first)
    assert offset.strip() == "1,234,567" and tps.strip() == "1.23"
    local = dt.datetime.fromtimestamp(ms / 1000).strftime("%Y-%m-%d %H:%M:%S") + ".123"
    assert when.strip() == local
    assert cells(second)[1].endswith(" 7 ")  # right-aligned: the 7 ends where 1,234,567 ends
    assert cells(second)[2].strip() == "10.00"


def test_nothing_is_cut_when_piped() -> None:
    long_name = "Topic" + "x" * 300
    lines = drawn({"rows": [{"topic": long_name, "n": 1}]})
    assert any(long_name in line for line in lines)
    assert not any("…" in line for line in lines)


def test_a_record_with_a_map_is_a_key_value_table_per_record() -> None:
    doc = {"brokers": [{"addr": "h:1", "ok": True, "stats": {"putTps": "1.0", "runtime": "[ 0 days ]"}}]}
    lines = drawn(doc)
    assert lines[0] == "brokers (addr=h:1, ok=true) stats"
    assert any(cells(line)[0].strip() == "putTps" and cells(line)[1].strip() == "1.0" for line in lines[1:])


def test_layout_columns_one_row_per_record_and_errors_shown() -> None:
    layout = TableLayout({"brokers": ("brokerName", "addr", "timer.readBehind")})
    rows = [
        {"brokerName": "b1", "addr": "h:1", "x": 1, "timer": {"readBehind": 5}},
        {"brokerName": "b2", "addr": "h:2", "x": 2, "error": "timed out"},
    ]
    lines = drawn({"brokers": rows}, layout)
    header = next(line for line in lines if "brokerName" in line)
    assert [c.strip() for c in cells(header)] == ["brokerName", "addr", "timer.readBehind", "error"]
    b1 = next(line for line in lines if "b1" in line)
    assert [c.strip() for c in cells(b1)] == ["b1", "h:1", "5", ""]
    assert any("timed out" in line for line in lines)


# ------------------------------------------------------------------------------- against our servers


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    c = Cluster(tmp_path_factory.mktemp("tables"))
    try:
        yield c
    finally:
        c.stop()


def test_cluster_list_is_one_row_per_broker(cluster: Cluster) -> None:
    data = cluster.json("clusterList")
    r = cluster.mqadmin("clusterList", "--output", "table")
    assert r.code == 0, r.err
    header = next(line for line in r.out.splitlines() if "brokerName" in line)
    assert [c.strip() for c in cells(header)][:4] == ["cluster", "brokerName", "brokerId", "addr"]
    row = next(line for line in r.out.splitlines() if cluster.addr in line)
    got = [c.strip() for c in cells(row)]
    broker = data["brokers"][0]
    assert got[:5] == ["DefaultCluster", "broker-a", "0", cluster.addr, broker["version"]]


@pytest.mark.parametrize(
    ("command", "key", "title"),
    [
        (
            "brokerStatus",
            "brokerVersionDesc",
            "(cluster=DefaultCluster, brokerName=broker-a, brokerId=0, addr={}, role=master, ok=true) stats",
        ),
        (
            "getBrokerConfig",
            "brokerName",
            "(cluster=DefaultCluster, brokerName=broker-a, brokerId=0, addr={}, role=master, master=, "
            "ok=true) config",
        ),
    ],
)
def test_broker_maps_are_key_value(cluster: Cluster, command: str, key: str, title: str) -> None:
    data = cluster.json(command, "-b", cluster.addr)
    r = cluster.mqadmin(command, "-b", cluster.addr, "--output", "table")
    assert r.code == 0, r.err
    lines = r.out.splitlines()
    assert lines[0] == "brokers " + title.format(cluster.addr)
    member = title.rsplit(" ", 1)[1]
    row = next(line for line in lines if cells(line)[0].strip() == key)
    assert cells(row)[1].strip() == str(data["brokers"][0][member][key])
    assert json.dumps(data)  # the same data as --json
