"""``analyze lag --max-lag/--stuck`` (exit 8, one stderr line per alert) and the commands' documents.

In-process on the shared Spark session, plus the installed ``mqadmin`` once per outcome.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner, Result

from mqadmin.cli.app import cli
from mqadmin.pipeline.cli import analyze_group

pytestmark = pytest.mark.usefixtures("spark")

STOP_ALERT = "mqadmin analyze lag: ALERT: group G-stop has 120029 messages not consumed, more than --max-lag"


def test_threshold_code_is_mqadmins() -> None:
    from mqadmin.cli.exitcodes import ExitCode
    from mqadmin.pipeline.lagalerts import EXIT_THRESHOLD

    assert EXIT_THRESHOLD == ExitCode.THRESHOLD


def analyze(*args: str) -> Result:
    return CliRunner().invoke(analyze_group, list(args))


def alerts(r: Result) -> list[str]:
    return [line for line in r.stderr.splitlines() if "ALERT" in line]


def test_max_lag_trips_over_n_and_clears_at_n(history: Path) -> None:
    plain = analyze("lag", "--input", str(history))
    over = analyze("lag", "--input", str(history), "--max-lag", "2400")
    assert over.exit_code == 8, over.output
    assert over.stdout == plain.stdout  # the normal output unchanged
    assert alerts(over) == [f"{STOP_ALERT} 2400"]
    at = analyze("lag", "--input", str(history), "--max-lag", "120029")
    assert at.exit_code == 0 and alerts(at) == [] and at.stdout == plain.stdout
    under = analyze("lag", "--input", str(history), "--max-lag", "2399")
    assert under.exit_code == 8
    assert [a.split(": ALERT: ")[1].split(" has")[0] for a in alerts(under)] == [
        "group G-drain",
        "group G-stop",
    ]


def test_stuck_trips_on_the_stuck_group_only(history: Path) -> None:
    r = analyze("lag", "--input", str(history), "--stuck")
    assert r.exit_code == 8, r.output
    (line,) = alerts(r)
    assert line.startswith("mqadmin analyze lag: ALERT: group G-stop is stuck on topic Orders: ")
    # a stall shorter than --stuck-after is not stuck: nothing trips
    clear = analyze("lag", "--input", str(history), "--stuck", "--stuck-after", "100000")
    assert clear.exit_code == 0 and alerts(clear) == [], clear.output
    assert analyze("lag", "--input", str(history), "--max-lag", "-1").exit_code == 2


def test_global_json_document_with_alerts(history: Path) -> None:
    r = CliRunner().invoke(cli, ["--json", "analyze", "lag", "--input", str(history), "--max-lag", "2400"])
    assert r.exit_code == 8, r.output
    doc = json.loads(r.stdout)
    assert doc["job"] == "lag" and doc["out"] is None and doc["rowCount"] == 5 == len(doc["rows"])
    stop = doc["rows"][0]
    assert stop["group"] == "G-stop" and stop["stuck"] is True and stop["stuckQueues"] > 0
    assert isinstance(stop["windowStart"], int) and stop["windowStart"] % 1000 == 200
    assert doc["alerts"] == [
        {"group": "G-stop", "kind": "maxLag", "lag": 120029, "maxLag": 2400,
         "message": "group G-stop has 120029 messages not consumed, more than --max-lag 2400"}
    ]  # fmt: skip
    assert alerts(r) == [f"{STOP_ALERT} 2400"]


def test_yaml_document_when_written_to_out(history: Path, tmp_path: Path) -> None:
    out = tmp_path / "tp.csv"
    r = analyze("throughput", "--input", str(history), "--format", "csv", "--out", str(out),
                "--output", "yaml", "--since", "2024-05-02T00:00Z")  # fmt: skip
    assert r.exit_code == 0, r.output
    doc = yaml.safe_load(r.stdout)
    assert next(iter(doc)) == "apiVersion" and doc.pop("apiVersion") == "mqadmin/v1"
    assert doc == {"job": "throughput", "input": str(history), "since": 1714608000000, "until": None,
                   "out": str(out), "format": "csv", "rowCount": 3}  # fmt: skip
    assert len(out.read_text().splitlines()) == 1 + 3 and "wrote" not in r.stderr


def test_report_document_needs_out(history: Path, tmp_path: Path) -> None:
    r = analyze("report", "--input", str(history), "--json")
    assert r.exit_code == 2 and r.stdout == ""
    assert (
        r.stderr.strip() == "mqadmin analyze report: --output json needs --out PATH (the page itself is HTML)"
    )


def _mqadmin() -> str:
    found = shutil.which("mqadmin", path=str(Path(sys.executable).parent))
    assert found, "mqadmin is not installed in this environment"
    return found


def test_installed_mqadmin_exit_8_then_0(history: Path) -> None:
    env = {**os.environ, "PYSPARK_PYTHON": sys.executable, "SPARK_LOCAL_IP": "127.0.0.1"}
    base = [_mqadmin(), "--json", "analyze", "lag", "--input", str(history), "--master", "local[1]"]
    over = subprocess.run([*base, "--max-lag", "2400", "--stuck"], capture_output=True, text=True, env=env,
                          timeout=240)  # fmt: skip
    assert over.returncode == 8, over.stderr
    lines = [line for line in over.stderr.splitlines() if "ALERT" in line]
    assert (
        lines[0] == f"{STOP_ALERT} 2400" and "G-stop is stuck on topic Orders" in lines[1] and len(lines) == 2
    )
    assert [a["kind"] for a in json.loads(over.stdout)["alerts"]] == ["maxLag", "stuck"]
    clear = subprocess.run(
        [*base, "--max-lag", "120029"], capture_output=True, text=True, env=env, timeout=240
    )
    assert clear.returncode == 0, clear.stderr
    assert json.loads(clear.stdout)["alerts"] == [] and "ALERT" not in clear.stderr
