"""``mqadmin analyze``: formats, destinations, the window options, errors, the report page.

The commands run in-process on the tests' shared Spark session (the runner uses the active one).
"""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
from pathlib import Path

import pyarrow.dataset as ds
import pytest
from click.testing import CliRunner, Result

from mqadmin.pipeline.cli import INSTALL_HINT, analyze_group

pytestmark = pytest.mark.usefixtures("spark")


def analyze(*args: str) -> Result:
    return CliRunner().invoke(analyze_group, list(args))


def test_lag_table(history: Path) -> None:
    r = analyze("lag", "--input", str(history))
    assert r.exit_code == 0, r.output
    lines = r.stdout.splitlines()
    assert lines[0].split()[:5] == ["group", "topic", "brokers", "queues", "lag"]
    assert lines[1].split()[:2] == ["G-stop", "Orders"] and "stuck" in lines[1]
    assert len(lines) == 6


def test_lag_json_lines_with_window(history: Path) -> None:
    r = analyze("lag", "--input", str(history), "--format", "json", "--since", "2024-05-02T00:00Z",
                "--until", "2024-05-02 02:10:00+02:00")  # fmt: skip
    assert r.exit_code == 0, r.output
    rows = {(d["group"], d["topic"]): d for d in map(json.loads, r.stdout.splitlines())}
    stop = rows[("G-stop", "Orders")]
    assert stop["stuck"] is True and stop["consume_rate"] == 0 and stop["snapshots"] == 10
    assert stop["window_start"] == "2024-05-02T00:00:00.200000Z"


def test_throughput_csv_by_broker(history: Path) -> None:
    r = analyze("throughput", "--input", str(history), "--format", "csv", "--by", "broker")
    assert r.exit_code == 0, r.output
    rows = list(csv.DictReader(io.StringIO(r.stdout)))
    assert [row["broker"] for row in rows] == ["broker-a", "broker-b"]
    assert abs(float(rows[0]["produce_rate"]) - 70) < 0.7


def test_skew_to_parquet_directory(history: Path, tmp_path: Path) -> None:
    out = tmp_path / "skew"
    r = analyze("skew", "--input", str(history), "--per-queue", "--format", "parquet", "--out", str(out))
    assert r.exit_code == 0, r.output
    assert f"wrote {out}" in r.stderr and r.stdout == ""
    table = ds.dataset(out, format="parquet").to_table()
    assert table.num_rows == 12 and "share" in table.column_names


def test_idle_json_to_file(history: Path, tmp_path: Path) -> None:
    out = tmp_path / "idle.jsonl"
    r = analyze("idle", "--input", str(history), "--format", "json", "--out", str(out))
    assert r.exit_code == 0, r.output
    names = [json.loads(line)["name"] for line in out.read_text().splitlines()]
    assert names == ["Idle", "G-idle", "G-never"]


def test_report_page(history: Path, tmp_path: Path) -> None:
    out = tmp_path / "report.html"
    r = analyze("report", "--input", str(history), "--out", str(out), "--top", "3")
    assert r.exit_code == 0, r.output
    page = out.read_text()
    assert page.startswith("<!DOCTYPE html>") and page.count("<svg") == 2
    lag_chart, tp_chart = page.split("<svg")[1:]
    assert "Lag of the 3 groups furthest behind" in lag_chart and 'data-name="G-stop / Orders"' in lag_chart
    assert lag_chart.count("<polyline") == 3
    assert "Produce rate of the 3 busiest topics" in tp_chart and 'data-name="Orders"' in tp_chart
    # self-contained: no script, nothing fetched
    assert "<script" not in page and "src=" not in page and "<link" not in page
    assert "https://" not in page and page.count("http://") == page.count(
        'xmlns="http://www.w3.org/2000/svg"'
    )
    assert "Stuck consumers" in page and "broker-b" in page  # the missing broker table


def test_parquet_needs_out(history: Path) -> None:
    r = analyze("lag", "--input", str(history), "--format", "parquet")
    assert r.exit_code == 2 and "needs --out" in r.stderr


def test_no_data_in_window(history: Path, tmp_path: Path) -> None:
    r = analyze("throughput", "--input", str(history), "--since", "2030-01-01")
    assert r.exit_code == 1 and "no snapshot data" in r.stderr
    r = analyze("lag", "--input", str(history), "--until", "2020-01-01")
    assert r.exit_code == 1 and "no snapshot data" in r.stderr


def test_bad_time_is_a_usage_error(history: Path) -> None:
    r = analyze("lag", "--input", str(history), "--since", "yesterday-ish")
    assert r.exit_code == 2 and "not a time" in r.output


def test_without_pyspark_says_what_to_install(tmp_path: Path) -> None:
    code = (
        "import sys; sys.modules['pyspark'] = None\n"
        "from mqadmin.pipeline.cli import analyze_group\n"
        f"analyze_group(['lag', '--input', {str(tmp_path)!r}])\n"
    )
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert p.returncode == 1
    assert INSTALL_HINT in p.stderr and INSTALL_HINT == "pip install 'mqadmin[spark]'"
    assert p.stdout == ""


def test_snapshot_without_pyarrow_says_what_to_install(tmp_path: Path) -> None:
    code = (
        "import sys; sys.modules['pyarrow'] = None\n"
        "from mqadmin.pipeline.cli import snapshot_cmd\n"
        f"snapshot_cmd(['--out', {str(tmp_path)!r}])\n"
    )
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert p.returncode == 1 and INSTALL_HINT in p.stderr


def test_admin_commands_do_not_import_spark() -> None:
    code = (
        "import sys\n"
        "import mqadmin.cli.commands.pipeline as m\n"
        "assert set(m.COMMANDS) == {'analyze', 'snapshot', 'export'}\n"
        "loaded = [k for k in sys.modules if k.split('.')[0] in ('pyspark', 'pyarrow', 'py4j')]\n"
        "print(','.join(loaded))\n"
    )
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip() == ""


def test_module_entry_point_help() -> None:
    p = subprocess.run(
        [sys.executable, "-m", "mqadmin.pipeline.jobs", "--help"], capture_output=True, text=True, timeout=60
    )
    assert p.returncode == 0, p.stderr
    for job in ("lag", "throughput", "skew", "idle", "report"):
        assert job in p.stdout
