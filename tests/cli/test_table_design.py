"""``--output table`` as designed: the general rules on made-up data, and the commands that name
their columns (clusterList) or hold maps (brokerStatus, getBrokerConfig) against our real servers."""

from __future__ import annotations

import datetime as dt
import io
import json
import re
from collections.abc import Iterator

import pytest

from mqadmin.cli.richout import render
from mqadmin.cli.tablelayout import TableLayout, TableView
from mqadmin.cli.tables import cell, names, natural, short_header
from tests.admin_group_offset.servers import Cluster


def drawn(
    value: object, layout: TableLayout | None = None, view: TableView | None = None, width: int = 80
) -> list[str]:
    buf = io.StringIO()
    render(value, buf, layout, view, width=width)
    return buf.getvalue().splitlines()


def cells(line: str) -> list[str]:
    """The cells of a drawn row: columns are two or more blanks apart."""
    return [c.strip() for c in re.split(r"\s{2,}", line.strip()) if c]


def row_of(lines: list[str], first: str) -> list[str]:
    return next(cells(line) for line in lines if line.split() and line.split()[0] == first)


def test_numbers_right_aligned_rounded_grouped_and_times_readable() -> None:
    ms = 1_764_000_000_123
    rows = [
        {"name": "a", "offset": 1_234_567, "tps": 1.23456, "storeTimestamp": ms},
        {"name": "longer-name", "offset": 7, "tps": 10.0, "storeTimestamp": ms},
    ]
    lines = drawn({"rows": rows})
    first = next(line for line in lines if line.startswith("a "))
    second = next(line for line in lines if line.startswith("longer-name"))
    _, offset, tps, when = cells(first)
    assert offset.strip() == "1,234,567" and tps.strip() == "1.23"
    local = dt.datetime.fromtimestamp(ms / 1000).strftime("%Y-%m-%d %H:%M:%S")
    assert when.strip() == local
    assert first.index("1,234,567") + len("1,234,567") == second.index(" 7 ") + 2  # right-aligned
    assert cells(second)[2].strip() == "10.00"


def test_cells_none_times_of_never_and_perms() -> None:
    assert cell(None) == "-"
    assert cell(0, "lastTimestamp") == "-"  # a server's "never", not 1970
    assert cell(-1, "lastUpdateTimestamp") == "-"
    assert cell(6, "perm") == "RW-" and cell(7, "perm") == "RWX" and cell(4, "oldPerm") == "R--"
    assert cell(2, "perm") == "-W-"
    assert cell(6, "queueId") == "6"


def test_long_identity_stays_whole_long_text_is_elided_and_wide_shows_it() -> None:
    long_name = "Topic" + "x" * 100
    rows = [{"topic": long_name, "n": 1, "note": "word " * 30}]
    lines = drawn({"rows": rows})
    assert any(long_name in line for line in lines)  # the row's identity is never cut
    row = next(line for line in lines if long_name in line)
    assert "…" in row or "note" not in " ".join(lines)  # the free text gave way
    wide = drawn({"rows": rows}, view=TableView(wide=True))
    assert any(("word " * 30).strip() in line for line in wide)
    assert not any("…" in line for line in wide)


def test_a_table_fits_80_columns_by_shorter_headers_then_dropped_columns() -> None:
    row = {
        "cluster": "DefaultCluster",
        "brokerName": "broker-a",
        "brokerId": 0,
        "addr": "127.0.0.1:10911",
        "version": "V5_3_3",
        "putTps": 1.5,
        "getTps": 2.25,
        "commitLogDiskRatio": 0.24,
        "activated": False,
        "ok": True,
    }
    layout = TableLayout({"brokers": tuple(row)})
    lines = drawn({"brokers": [row]}, layout)
    assert all(len(line) <= 80 for line in lines)
    header = lines[1].split()
    assert header[:4] == ["cluster", "broker", "id", "addr"]  # shortened, identity first
    assert "brokerName" not in lines[1]
    assert lines[0] == "brokers (1 more column with --wide)"
    assert "activated" not in header and "active" not in header  # the least important went
    assert "ok" in header  # kept longest
    wide = drawn({"brokers": [row]}, layout, TableView(wide=True))
    assert wide[0] == "brokers" and wide[1].split() == list(row)
    assert len(wide[1]) > 80


def test_rows_sorted_by_their_natural_key_digits_as_numbers() -> None:
    rows = [{"brokerName": "broker-a", "queueId": q, "diff": 10 - q} for q in (2, 3, 0, 1, 10)]
    lines = drawn({"queues": rows})
    assert [int(row_of(lines, "broker-a")[1]) for _ in [0]] == [0]
    qids = [int(cells(line)[1]) for line in lines if line.startswith("broker-a")]
    assert qids == [0, 1, 2, 3, 10]
    assert sorted(["broker-10", "broker-2", "Broker-1"], key=natural) == ["Broker-1", "broker-2", "broker-10"]
    topics = [ln.strip() for ln in drawn({"topics": ["T2", "T3", "T0", "T1", "T10"]})]
    assert topics == ["topics", "T0", "T1", "T2", "T3", "T10"]  # "topics" said once, as the header


def test_sort_by_a_column_descending_and_an_unknown_one() -> None:
    rows = [{"topic": t, "group": "G", "accumulation": a} for t, a in (("A", 5), ("B", 50), ("C", 7))]
    lines = drawn({"rows": rows}, view=TableView(sort_by=("-accumulation",)))
    assert [line.split()[0] for line in lines[2:]] == ["B", "C", "A"]
    lines = drawn({"rows": rows}, view=TableView(sort_by=("accum",)))  # the short header does too
    assert [line.split()[0] for line in lines[2:]] == ["A", "C", "B"]
    buf = io.StringIO()
    assert render({"rows": rows}, buf, view=TableView(sort_by=("nope",)), width=80) is False
    assert [line.split()[0] for line in buf.getvalue().splitlines()[2:]] == ["A", "B", "C"]


def test_no_headers_leaves_rows_only() -> None:
    rows = [{"topic": "B", "n": 2}, {"topic": "A", "n": 1}]
    assert drawn({"rows": rows}, view=TableView(headers=False)) == ["A  1", "B  2"]


def test_empty_sections_are_left_out() -> None:
    lines = drawn({"group": "G", "problems": [], "queues": [], "extra": {}})
    assert lines == ["group  G"]


def test_headers_shorten_known_and_camel_case() -> None:
    assert short_header("brokerName") == "broker"
    assert short_header("timer.readBehind") == "readBehind"
    assert short_header("sendThreadPoolQueueSize") == "sendTPQS"


def test_a_record_with_a_map_is_a_key_value_table_per_record() -> None:
    doc = {"brokers": [{"addr": "h:1", "ok": True, "stats": {"putTps": "1.0", "runtime": "[ 0 days ]"}}]}
    lines = drawn(doc)
    assert lines[0] == "brokers.stats h:1 (ok=true)"
    assert row_of(lines, "putTps") == ["putTps", "1.0"]


def test_layout_columns_one_row_per_record_and_errors_shown() -> None:
    layout = TableLayout({"brokers": ("brokerName", "addr", "timer.readBehind")})
    rows = [
        {"brokerName": "b2", "addr": "h:2", "x": 2, "error": "timed out"},
        {"brokerName": "b1", "addr": "h:1", "x": 1, "timer": {"readBehind": 5}},
    ]
    lines = drawn({"brokers": rows}, layout)
    assert lines[1].split() == ["brokerName", "addr", "timer.readBehind", "error"]
    assert row_of(lines, "b1") == ["b1", "h:1", "5", "-"]
    assert row_of(lines, "b2") == ["b2", "h:2", "-", "timed out"]
    assert lines.index(next(ln for ln in lines if ln.startswith("b1"))) == 2  # sorted


def test_names_of_a_document() -> None:
    assert names({"topics": ["T2", "T0", "T1", "T0"]}) == ["T0", "T1", "T2"]
    brokers = [{"brokerName": "b", "brokerId": i, "addr": f"h:{i}"} for i in (0, 1)]
    assert names({"timestamp": 1, "brokers": brokers}) == ["b"]
    assert names({"rows": [{"topic": "T", "group": "G"}, {"topic": "S", "group": None}]}) == ["S", "T"]
    assert names({"groups": []}) == []
    assert names({"enabled": True}) is None
    assert names({"topic": "T", "queues": [{"brokerName": "b", "queueId": 0}]}) == ["T"]
    assert names({"error": {"kind": "remote", "addr": "h:1"}}) == []


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
    r = cluster.mqadmin("clusterList", "--output", "table", "--wide")
    assert r.code == 0, r.err
    lines = r.out.splitlines()
    header = next(line for line in lines if "brokerName" in line)
    assert header.split()[:4] == ["cluster", "brokerName", "brokerId", "addr"]
    got = row_of(lines, "DefaultCluster")
    broker = data["brokers"][0]
    assert got[:5] == ["DefaultCluster", "broker-a", "0", cluster.addr, broker["version"]]


@pytest.mark.parametrize(
    ("command", "key", "title"),
    [
        ("brokerStatus", "brokerVersionDesc", "stats DefaultCluster broker-a 0 {} (role=master, ok=true)"),
        ("getBrokerConfig", "brokerName", "config DefaultCluster broker-a 0 {} (role=master, ok=true)"),
    ],
)
def test_broker_maps_are_key_value(cluster: Cluster, command: str, key: str, title: str) -> None:
    data = cluster.json(command, "-b", cluster.addr)
    r = cluster.mqadmin(command, "-b", cluster.addr, "--output", "table")
    assert r.code == 0, r.err
    lines = r.out.splitlines()
    assert lines[0] == "brokers." + title.format(cluster.addr)
    member = title.split(" ", 1)[0]
    assert row_of(lines, key)[1] == str(data["brokers"][0][member][key])
    assert all(len(line) <= 80 for line in lines)
    assert json.dumps(data)  # the same data as --json
